/**
 * Customer groups: list, read, create, update, delete. A group's code is unique case-insensitively and its tax
 * class must be a CUSTOMER tax class. Group 0 (NOT LOGGED IN) is the group of guests: it cannot be renamed
 * or deleted, nor can a group that new accounts are put in (customer/create_account/default_group of any
 * store view). Deleting a group moves its customers to their website's default group, in one transaction.
 */
import { and, asc, count, desc, eq, ilike, inArray, isNotNull, ne, or, sql } from 'drizzle-orm';
import { likeEscape } from '../../platform/format.js';
import { assertGlobalWriter, withTx, type Ctx } from '../../platform/context.js';
import { badRequest, conflict, fromDatabaseError, notFound } from '../../platform/errors.js';
import type { Page } from '../../platform/pagination.js';
import { getTaxClass, taxClassNames } from '../tax/service.js';
import { moveCustomersToGroup } from './group-membership.js';
import type { CustomerGroupCreateInput, CustomerGroupDto, CustomerGroupUpdateInput } from './groups-schemas.js';
import { customerGroups, customers } from './tables.js';
import { LOCKS } from '../../platform/locks.js';

export const NOT_LOGGED_IN_GROUP = 0;
const DEFAULT_GROUP_PATH = 'customer/create_account/default_group';
const DEFAULT_TAX_CLASS = 3;
const CODE_MAX = 32;
/** serializes code changes, so that two requests cannot both pass the case-insensitive uniqueness check */
const INT_MAX = 2147483647;

type GroupRow = typeof customerGroups.$inferSelect;

function toDto(row: GroupRow, taxClassName: string | undefined): CustomerGroupDto {
  const dto: CustomerGroupDto = { id: row.id, code: row.code, taxClassId: row.taxClassId };
  if (taxClassName !== undefined) dto.taxClassName = taxClassName;
  return dto;
}

function notFoundError(id: number) {
  return notFound(`Customer group not found: ${id}`, { reason: 'GROUP_NOT_FOUND' });
}

function cleanCode(code: unknown): string {
  if (typeof code !== 'string')
    throw badRequest('code is required', { reason: 'VALIDATION_FAILED', details: { field: 'code', constraint: 'required' } });
  const c = code.trim();
  if (!c) throw badRequest('code must not be empty', { reason: 'VALIDATION_FAILED', details: { field: 'code', constraint: 'minLength' } });
  if (c.length > CODE_MAX) {
    throw badRequest(`code has at most ${CODE_MAX} characters`, {
      reason: 'VALIDATION_FAILED',
      details: { field: 'code', constraint: 'maxLength' },
    });
  }
  if (/[\u0000-\u001f\u007f]/.test(c)) {
    throw badRequest('code must not contain control characters', {
      reason: 'VALIDATION_FAILED',
      details: { field: 'code', constraint: 'pattern' },
    });
  }
  return c;
}

/** The tax class must exist and be a CUSTOMER class; returns its name. */
async function customerTaxClassName(ctx: Ctx, id: unknown): Promise<string> {
  const row = typeof id === 'number' && Number.isInteger(id) && id > 0 && id <= INT_MAX ? await getTaxClass(ctx, id) : undefined;
  if (!row || row.classType !== 'CUSTOMER') {
    throw badRequest(`taxClassId ${String(id)} is not a customer tax class`, {
      reason: 'INVALID_TAX_CLASS',
      details: { field: 'taxClassId' },
    });
  }
  return row.className;
}

async function lockCodes(ctx: Ctx): Promise<void> {
  await ctx.db.execute(sql`SELECT pg_advisory_xact_lock(${LOCKS.customerGroupCode})`);
}

async function assertCodeFree(ctx: Ctx, code: string, exceptId?: number): Promise<void> {
  const same = sql`lower(${customerGroups.code}) = lower(${code})`;
  const [dup] = await ctx.db
    .select({ id: customerGroups.id })
    .from(customerGroups)
    .where(exceptId === undefined ? same : and(same, ne(customerGroups.id, exceptId)))
    .limit(1);
  if (dup)
    throw conflict(`A customer group with code "${code}" already exists`, { reason: 'GROUP_CODE_TAKEN', details: { field: 'code' } });
}

async function findGroup(ctx: Ctx, id: number, forUpdate = false): Promise<GroupRow | undefined> {
  if (!Number.isInteger(id) || id < 0 || id > INT_MAX) return undefined;
  const q = ctx.db.select().from(customerGroups).where(eq(customerGroups.id, id));
  const [row] = forUpdate ? await q.for('update') : await q;
  return row;
}

/** Groups by code; the whole list, or one page of it; `search`: the code contains it, case-insensitively. */
/** Groups by code (case-insensitively), or by id or tax class; then by id. */
export async function listCustomerGroups(
  ctx: Ctx,
  page?: Page,
  search?: string,
  sort: { by?: 'id' | 'code' | 'taxClassId'; dir?: 'asc' | 'desc' } = {},
): Promise<{ items: CustomerGroupDto[]; total: number }> {
  const where = search?.trim() ? ilike(customerGroups.code, `%${likeEscape(search.trim())}%`) : undefined;
  const dir = sort.dir === 'desc' ? desc : asc;
  const by = { code: sql`lower(${customerGroups.code}) collate "C"`, taxClassId: sql`${customerGroups.taxClassId}`, id: undefined }[
    sort.by ?? 'code'
  ];
  const q = ctx.db
    .select()
    .from(customerGroups)
    .where(where)
    .orderBy(...(by ? [dir(by), dir(customerGroups.id)] : [dir(customerGroups.id)]));
  const rows = page ? await q.limit(page.size).offset(page.offset) : await q;
  const total = page ? (await ctx.db.select({ n: count() }).from(customerGroups).where(where))[0].n : rows.length;
  const names = await taxClassNames(
    ctx,
    rows.map((r) => r.taxClassId),
  );
  return { items: rows.map((r) => toDto(r, names.get(r.taxClassId))), total };
}

export async function getCustomerGroup(ctx: Ctx, id: number): Promise<CustomerGroupDto> {
  const row = await findGroup(ctx, id);
  if (!row) throw notFoundError(id);
  const names = await taxClassNames(ctx, [row.taxClassId]);
  return toDto(row, names.get(row.taxClassId));
}

export async function createCustomerGroup(ctx: Ctx, input: CustomerGroupCreateInput): Promise<CustomerGroupDto> {
  assertGlobalWriter(ctx, 'customer groups');
  const code = cleanCode(input.code);
  const taxClassId = input.taxClassId ?? DEFAULT_TAX_CLASS;
  return withTx(ctx, async (tx) => {
    const taxClassName = await customerTaxClassName(tx, taxClassId);
    await lockCodes(tx);
    await assertCodeFree(tx, code);
    const [row] = await tx.db.insert(customerGroups).values({ code, taxClassId }).returning();
    return toDto(row, taxClassName);
  });
}

/** Changes the keys that were sent. */
export async function updateCustomerGroup(ctx: Ctx, id: number, input: CustomerGroupUpdateInput): Promise<CustomerGroupDto> {
  assertGlobalWriter(ctx, 'customer groups');
  const code = input.code === undefined ? undefined : cleanCode(input.code);
  return withTx(ctx, async (tx) => {
    if (code !== undefined) await lockCodes(tx);
    const row = await findGroup(tx, id, true);
    if (!row) throw notFoundError(id);
    const set: Partial<Pick<GroupRow, 'code' | 'taxClassId'>> = {};
    if (code !== undefined && code !== row.code) {
      if (row.id === NOT_LOGGED_IN_GROUP) {
        throw badRequest(`The code of the ${row.code} group cannot be changed`, {
          reason: 'GROUP_CODE_LOCKED',
          details: { field: 'code' },
        });
      }
      await assertCodeFree(tx, code, row.id);
      set.code = code;
    }
    let taxClassName: string | undefined;
    if (input.taxClassId !== undefined) {
      taxClassName = await customerTaxClassName(tx, input.taxClassId);
      set.taxClassId = input.taxClassId;
    }
    const updated = Object.keys(set).length
      ? (await tx.db.update(customerGroups).set(set).where(eq(customerGroups.id, row.id)).returning())[0]
      : row;
    taxClassName ??= (await taxClassNames(tx, [updated.taxClassId])).get(updated.taxClassId);
    return toDto(updated, taxClassName);
  });
}

/** The default group of new accounts in each store view, by website (the website's default store view decides). */
function defaultGroups(ctx: Ctx): { byWebsite: Map<number, number>; all: Set<number>; fallback: number } {
  const r = ctx.app.settings;
  const all = new Set<number>();
  for (const s of r.allStores()) all.add(r.getInt(DEFAULT_GROUP_PATH, s.id));
  const fallback = r.getInt(DEFAULT_GROUP_PATH);
  all.add(fallback);
  const byWebsite = new Map<number, number>();
  for (const w of r.allWebsites()) {
    const storeId =
      (w.defaultGroupId ? r.group(w.defaultGroupId)?.defaultStoreId : undefined) ?? r.allStores().find((s) => s.websiteId === w.id)?.id;
    byWebsite.set(w.id, storeId === undefined ? fallback : r.getInt(DEFAULT_GROUP_PATH, storeId));
  }
  return { byWebsite, all, fallback };
}

/** Deletes a group; its customers move to their website's default group. Returns how many customers moved. */
export async function deleteCustomerGroup(ctx: Ctx, id: number): Promise<{ movedCustomers: number }> {
  assertGlobalWriter(ctx, 'customer groups');
  try {
    return await withTx(ctx, async (tx) => {
      const row = await findGroup(tx, id, true);
      if (!row) throw notFoundError(id);
      if (row.id === NOT_LOGGED_IN_GROUP) {
        throw badRequest(`The ${row.code} group cannot be deleted`, { reason: 'GROUP_NOT_DELETABLE' });
      }
      const defaults = defaultGroups(tx);
      if (defaults.all.has(row.id)) {
        throw conflict(`The ${row.code} group is the default group of new accounts (${DEFAULT_GROUP_PATH}) and cannot be deleted`, {
          reason: 'GROUP_IS_DEFAULT',
        });
      }
      let moved = 0;
      const targets = [...defaults.byWebsite.entries()].map(([websiteId, groupId]) => ({ websiteId, groupId }));
      for (const target of [...targets, { websiteId: undefined, groupId: defaults.fallback }]) {
        if (target.groupId === NOT_LOGGED_IN_GROUP || !(await findGroup(tx, target.groupId))) {
          throw conflict(
            `The default customer group ${target.groupId} is not a group customers can be in; correct ${DEFAULT_GROUP_PATH} first`,
            {
              reason: 'DEFAULT_GROUP_MISSING',
            },
          );
        }
        moved += await moveCustomersToGroup(tx, row.id, target.groupId, target.websiteId);
      }
      await tx.db.delete(customerGroups).where(eq(customerGroups.id, row.id));
      return { movedCustomers: moved };
    });
  } catch (err) {
    if (fromDatabaseError(err)?.reason === 'FOREIGN_KEY') {
      throw conflict('The customer group is still in use and cannot be deleted', { reason: 'GROUP_IN_USE' });
    }
    throw err;
  }
}

/**
 * What prices a cart for a customer (or a guest, customerId null): the customer's group (group 0 for guests)
 * and that group's tax class. One query.
 */
export async function pricingGroup(
  ctx: Ctx,
  who: { customerId: number | null; groupId?: number },
): Promise<{ groupId: number; taxClassId: number }> {
  if (who.customerId !== null) {
    const [row] = await ctx.db
      .select({ groupId: customerGroups.id, taxClassId: customerGroups.taxClassId })
      .from(customers)
      .innerJoin(customerGroups, eq(customerGroups.id, customers.groupId))
      .where(eq(customers.id, who.customerId));
    if (row) return row;
  }
  const groupId = who.groupId ?? NOT_LOGGED_IN_GROUP;
  const [g] = await ctx.db.select({ taxClassId: customerGroups.taxClassId }).from(customerGroups).where(eq(customerGroups.id, groupId));
  return { groupId, taxClassId: g?.taxClassId ?? DEFAULT_TAX_CLASS };
}

/** pricingGroup for many carts at once (a list of carts): one query whatever their number, answers in order. */
export async function pricingGroups(
  ctx: Ctx,
  whos: readonly { customerId: number | null; groupId?: number }[],
): Promise<{ groupId: number; taxClassId: number }[]> {
  if (!whos.length) return [];
  const customerIds = [...new Set(whos.flatMap((w) => (w.customerId === null ? [] : [w.customerId])))];
  const groupIds = [...new Set(whos.map((w) => w.groupId ?? NOT_LOGGED_IN_GROUP))];
  // every group named, and the group of each customer named
  const found = await ctx.db
    .select({ customerId: customers.id, groupId: customerGroups.id, taxClassId: customerGroups.taxClassId })
    .from(customerGroups)
    .leftJoin(customers, and(eq(customers.groupId, customerGroups.id), inArray(customers.id, customerIds.length ? customerIds : [0])))
    .where(or(inArray(customerGroups.id, groupIds), isNotNull(customers.id)));
  const byCustomer = new Map<number, { groupId: number; taxClassId: number }>();
  const taxClassOf = new Map<number, number>();
  for (const r of found) {
    taxClassOf.set(r.groupId, r.taxClassId);
    if (r.customerId !== null) byCustomer.set(r.customerId, { groupId: r.groupId, taxClassId: r.taxClassId });
  }
  return whos.map((w) => {
    const own = w.customerId === null ? undefined : byCustomer.get(w.customerId);
    if (own) return own;
    const groupId = w.groupId ?? NOT_LOGGED_IN_GROUP;
    return { groupId, taxClassId: taxClassOf.get(groupId) ?? DEFAULT_TAX_CLASS };
  });
}
