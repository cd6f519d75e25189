/**
 * GET /customers, the back office's customer grid: filtered by text, name, email, telephone, group, website,
 * status and dates, sorted by any of its columns (then by id, so that pages never overlap), in three statements
 * whatever the page holds: the page, the count, and the default billing addresses of its customers.
 */
import { and, asc, desc, eq, ilike, inArray, or, sql, type SQL } from 'drizzle-orm';
import type { Ctx } from '../../platform/context.js';
import { dateRangeConditions } from '../../platform/date-range.js';
import { likeEscape } from '../../platform/format.js';
import { pageOf, type CollectionResult, type Page } from '../../platform/pagination.js';
import { toCustomerDto } from './mappers.js';
import type { CustomerDto, CustomerListQueryT } from './schemas.js';
import { customerColumns, websiteScope } from './service.js';
import { customerAddresses, customerGroups, customers } from './tables.js';

/** What each `sortBy` orders by. */
const SORTS: Record<NonNullable<CustomerListQueryT['sortBy']>, SQL[]> = {
  id: [],
  email: [sql`${customers.email}`],
  firstname: [sql`lower(${customers.firstname})`],
  lastname: [sql`lower(${customers.lastname})`],
  name: [sql`lower(${customers.lastname})`, sql`lower(${customers.firstname})`],
  group: [sql`(SELECT lower(${customerGroups.code}) FROM ${customerGroups} WHERE ${customerGroups.id} = ${customers.groupId})`],
  websiteId: [sql`${customers.websiteId}`],
  createdAt: [sql`${customers.createdAt}`],
  updatedAt: [sql`${customers.updatedAt}`],
};

function conditions(ctx: Ctx, q: CustomerListQueryT): SQL[] {
  const conds: SQL[] = [];
  if (q.email?.trim()) conds.push(eq(customers.email, q.email.trim().toLowerCase()));
  if (q.firstname?.trim()) conds.push(sql`lower(${customers.firstname}) = ${q.firstname.trim().toLowerCase()}`);
  if (q.lastname?.trim()) conds.push(sql`lower(${customers.lastname}) = ${q.lastname.trim().toLowerCase()}`);
  if (q.search?.trim()) {
    const p = `%${likeEscape(q.search.trim())}%`;
    conds.push(
      or(
        ilike(customers.email, p),
        ilike(customers.firstname, p),
        ilike(customers.lastname, p),
        ilike(sql`${customers.firstname} || ' ' || ${customers.lastname}`, p),
      )!,
    );
  }
  if (q.telephone?.trim()) {
    conds.push(
      sql`EXISTS (SELECT 1 FROM ${customerAddresses} WHERE ${customerAddresses.customerId} = ${customers.id} AND ${customerAddresses.telephone} = ${q.telephone.trim()})`,
    );
  }
  if (q.groupId !== undefined) conds.push(eq(customers.groupId, q.groupId));
  if (q.websiteId !== undefined) conds.push(eq(customers.websiteId, q.websiteId));
  if (q.isActive !== undefined) conds.push(eq(customers.isActive, q.isActive === 'true' || q.isActive === '1'));
  conds.push(...dateRangeConditions({ created: customers.createdAt, updated: customers.updatedAt }, q));
  const scope = websiteScope(ctx);
  if (scope) conds.push(scope);
  return conds;
}

/** GET /customers: filtered and sorted (by id unless `sortBy`); items carry only their default billing address. */
export async function listCustomers(
  ctx: Ctx,
  q: CustomerListQueryT,
  page: Page = pageOf(q, { defaultSize: 15, maxSize: 100 }),
): Promise<{ result: CollectionResult<CustomerDto>; page: Page }> {
  const conds = conditions(ctx, q);
  const where = conds.length ? and(...conds) : undefined;
  const dir = q.sortDir?.toLowerCase() === 'desc' ? desc : asc;
  const order = [...SORTS[q.sortBy ?? 'id'].map((s) => dir(s)), dir(customers.id)];
  const [rows, counted] = await Promise.all([
    ctx.db
      .select(customerColumns(ctx))
      .from(customers)
      .where(where)
      .orderBy(...order)
      .limit(page.size)
      .offset(page.offset),
    ctx.db
      .select({ n: sql<number>`count(*)::int` })
      .from(customers)
      .where(where),
  ]);
  const billingIds = rows.flatMap((r) => (r.defaultBillingId === null ? [] : [r.defaultBillingId]));
  const billing = billingIds.length ? await ctx.db.select().from(customerAddresses).where(inArray(customerAddresses.id, billingIds)) : [];
  const items = rows.map((r) =>
    toCustomerDto(
      r,
      billing.filter((a) => a.customerId === r.id),
      true,
    ),
  );
  return { result: { items, total: Number(counted[0]?.n ?? 0) }, page };
}

/**
 * The customers the caller may see (its websites) that `where` keeps, built over the table's columns, by id:
 * the rows of the Magento 1 API's customer.list, whose filters name any column.
 */
export async function customerRowsWhere(
  ctx: Ctx,
  where: (t: typeof customers) => SQL | undefined,
): Promise<(typeof customers.$inferSelect)[]> {
  return ctx.db
    .select()
    .from(customers)
    .where(and(websiteScope(ctx), where(customers)))
    .orderBy(asc(customers.id));
}
