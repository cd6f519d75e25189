/**
 * Every invoice, for the back office: GET /invoices (filtered, searched, sorted and paged; a principal limited
 * to store views sees only theirs) and GET /invoices/{id}. A page costs four statements whatever its size (the
 * rows with their order numbers, the count, then the items and the comments of the page).
 */
import { and, asc, count, desc, eq, inArray, or, sql, type SQL } from 'drizzle-orm';
import { adminStoreScope, type Ctx } from '../../platform/context.js';
import { forbidden } from '../../platform/errors.js';
import { dateRangeConditions } from '../../platform/date-range.js';
import { likeEscape } from '../../platform/format.js';
import type { CollectionResult, Page } from '../../platform/pagination.js';
import { orderIncrementIdSql } from '../orders/core.js';
import { orderIdsMatching } from '../orders/list.js';
import { invoiceNotFound, withDetails, type InvoiceRow } from './read.js';
import type { InvoiceDto, InvoiceListQueryT, InvoiceSort } from './schemas.js';
import { invoices } from './tables.js';

const API = '/api/rest/v2';
const STATES = { open: 1, paid: 2, canceled: 3 } as const;

const given = (v: string | undefined): v is string => v !== undefined && v.trim() !== '';

/** The WHERE of GET /invoices: the caller's store views, then each filter sent. */
function listWhere(ctx: Ctx, q: InvoiceListQueryT): SQL | undefined {
  const conds: SQL[] = [];
  const scope = adminStoreScope(ctx);
  if (scope) conds.push(inArray(invoices.storeId, scope.length ? scope : [-1]));
  if (given(q.incrementId)) conds.push(eq(invoices.incrementId, q.incrementId.trim()));
  if (q.orderId !== undefined) conds.push(eq(invoices.orderId, q.orderId));
  const ofOrder = orderIdsMatching({ incrementId: q.orderIncrementId });
  if (ofOrder) conds.push(sql`${invoices.orderId} IN ${ofOrder}`);
  if (q.state !== undefined) conds.push(eq(invoices.state, STATES[q.state]));
  if (q.storeId !== undefined) conds.push(eq(invoices.storeId, q.storeId));
  if (given(q.search)) {
    // the invoice's own number, or what finds its order (number, customer email or name)
    const byOrder = orderIdsMatching({ search: q.search });
    conds.push(
      or(
        sql`lower(${invoices.incrementId}) LIKE ${`%${likeEscape(q.search.trim().toLowerCase())}%`}::text`,
        byOrder ? sql`${invoices.orderId} IN ${byOrder}` : undefined,
      )!,
    );
  }
  conds.push(...dateRangeConditions({ created: invoices.createdAt }, q));
  return conds.length ? and(...conds) : undefined;
}

const SORT_COLUMNS = {
  createdAt: invoices.createdAt,
  incrementId: invoices.incrementId,
  grandTotal: invoices.grandTotal,
  state: invoices.state,
} satisfies Record<InvoiceSort, unknown>;

function listOrder(q: InvoiceListQueryT): SQL[] {
  const dir = q.sortDir?.toLowerCase() === 'asc' ? asc : desc;
  return [dir(SORT_COLUMNS[q.sortBy ?? 'createdAt']), dir(invoices.id)];
}

const pdfPath = (i: Pick<InvoiceDto, 'id' | 'orderId'>) => `${API}/orders/${i.orderId}/invoices/${i.id}/pdf`;

/** GET /invoices: a page of every invoice the caller may see, each with its PDF's path. */
export async function listAllInvoices(ctx: Ctx, q: InvoiceListQueryT, page: Page): Promise<CollectionResult<InvoiceDto>> {
  const where = listWhere(ctx, q);
  const [found, [{ n }]] = await Promise.all([
    ctx.db
      .select({ invoice: invoices, orderIncrementId: orderIncrementIdSql(invoices.orderId) })
      .from(invoices)
      .where(where)
      .orderBy(...listOrder(q))
      .limit(page.size)
      .offset(page.offset),
    ctx.db.select({ n: count() }).from(invoices).where(where),
  ]);
  const numbers = new Map(found.map((r) => [r.invoice.orderId, r.orderIncrementId ?? '']));
  const items = await withDetails(
    ctx,
    found.map((r) => r.invoice),
    (orderId) => numbers.get(orderId) ?? '',
  );
  return { items: items.map((i) => ({ ...i, pdfUrl: pdfPath(i) })), total: Number(n) };
}

/**
 * GET /invoices/{id}: one invoice with its items and comments, and its PDF's path. An invoice of a store view
 * the caller is limited away from is a 403, as its order is.
 */
export async function getInvoice(ctx: Ctx, id: number): Promise<InvoiceDto> {
  const [found] = await ctx.db
    .select({ invoice: invoices, orderIncrementId: orderIncrementIdSql(invoices.orderId) })
    .from(invoices)
    .where(eq(invoices.id, id));
  if (!found) throw invoiceNotFound();
  const scope = adminStoreScope(ctx);
  if (scope && !scope.includes(found.invoice.storeId)) throw forbidden('Access denied to this store', { reason: 'STORE_NOT_ALLOWED' });
  const [dto] = await withDetails(ctx, [found.invoice as InvoiceRow], () => found.orderIncrementId ?? '');
  return { ...dto, pdfUrl: pdfPath(dto) };
}
