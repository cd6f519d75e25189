/**
 * Order lists: the back office's GET /orders with its filters (wire reference §2.5), free-text search and sort,
 * and a customer's own GET /customers/me/orders (newest first). Each page costs three statements whatever its
 * size (the rows, the count, and the items of every order on the page), and one (the orders version) while it is
 * cached. The search is also lent, as SQL, to the lists of the order's documents (orderIdsMatching).
 */
import { and, asc, count, desc, eq, inArray, sql, type SQL } from 'drizzle-orm';
import { adminStoreScope, type Ctx } from '../../platform/context.js';
import { badRequest, forbidden } from '../../platform/errors.js';
import { dateRangeConditions } from '../../platform/date-range.js';
import { likeEscape } from '../../platform/format.js';
import type { CollectionResult, Page } from '../../platform/pagination.js';
import { ReadCache } from '../../platform/read-cache.js';
import type { MyOrdersQueryT } from './action-schemas.js';
import type { OrderItemRow } from './core.js';
import { orderDto } from './read.js';
import type { OrderDto, OrderGridQueryT, OrderSort } from './schemas.js';
import { STATUSES } from './state.js';
import { orderItems, orders } from './tables.js';

function invalid(field: string, message: string, constraint = 'invalid') {
  return badRequest(message, { reason: 'VALIDATION_FAILED', details: { field, constraint } });
}

const STATES = new Set(Object.keys(STATUSES));
const ALL_STATUSES = new Set(Object.values(STATUSES).flatMap((s) => Object.keys(s)));

const given = (v: string | undefined): v is string => v !== undefined && v.trim() !== '';

function statusCondition(status: string | undefined): SQL | undefined {
  if (!given(status)) return undefined;
  const s = status.trim();
  if (!ALL_STATUSES.has(s)) throw invalid('status', `status must be one of ${[...ALL_STATUSES].join(', ')}`, 'enum');
  return eq(orders.status, s);
}

/** At most this many words of a search count (the rest are ignored). */
const SEARCH_WORDS = 5;

/**
 * The condition of a free-text search on orders: every word is part of the order number, the customer email,
 * first name or last name (case-insensitive); undefined for a blank search.
 */
export function orderSearchCondition(search: string | undefined): SQL | undefined {
  const words = (search ?? '').trim().toLowerCase().split(/\s+/).filter(Boolean).slice(0, SEARCH_WORDS);
  if (!words.length) return undefined;
  return and(
    ...words.map((w) => {
      // the four fields as one text, lowered once a row; they are joined by a space, which no word holds, so a word
      // is found within one field
      return sql`lower(${orders.incrementId} || ' ' || ${orders.customerEmail} || ' ' || coalesce(${orders.customerFirstname}, '') || ' ' || coalesce(${orders.customerLastname}, '')) LIKE ${`%${likeEscape(w)}%`}::text`;
    }),
  );
}

/**
 * The ids of the orders a search (as `orderSearchCondition`) or an order number (exact) finds, as a subquery for
 * another module's list of an order's documents (`order_id IN (...)`); undefined when neither is given.
 */
export function orderIdsMatching(q: { search?: string; incrementId?: string }): SQL | undefined {
  const conds: SQL[] = [];
  const found = orderSearchCondition(q.search);
  if (found) conds.push(found);
  if (given(q.incrementId)) conds.push(eq(orders.incrementId, q.incrementId.trim()));
  return conds.length ? sql`(SELECT ${orders.id} FROM ${orders} WHERE ${and(...conds)})` : undefined;
}

const SORT_COLUMNS = {
  createdAt: orders.createdAt,
  updatedAt: orders.updatedAt,
  incrementId: orders.incrementId,
  grandTotal: orders.grandTotal,
  status: orders.status,
  state: orders.state,
} satisfies Record<OrderSort, unknown>;

/** The ORDER BY of GET /orders: the column asked (default the date), then the id in the same direction, so pages never overlap. */
function listOrder(q: { sortBy?: OrderSort; sortDir?: string }): SQL[] {
  const dir = q.sortDir?.toLowerCase() === 'asc' ? asc : desc;
  return [dir(SORT_COLUMNS[q.sortBy ?? 'createdAt']), dir(orders.id)];
}

/** The WHERE of GET /orders: the caller's store views, then each filter sent (400 for a malformed one). */
function listWhere(ctx: Ctx, q: OrderGridQueryT): SQL | undefined {
  const conds: SQL[] = [];
  const scope = adminStoreScope(ctx);
  if (scope) conds.push(inArray(orders.storeId, scope.length ? scope : [-1]));
  if (q.customerId !== undefined) conds.push(eq(orders.customerId, q.customerId));
  if (given(q.email)) conds.push(sql`lower(${orders.customerEmail}) = ${q.email.trim().toLowerCase()}::text`);
  if (given(q.emailLike)) {
    const part = q.emailLike.trim().toLowerCase();
    if (part.length < 3) throw invalid('emailLike', 'emailLike must be at least 3 characters', 'minLength');
    conds.push(sql`lower(${orders.customerEmail}) LIKE ${`%${likeEscape(part)}%`}::text`);
  }
  if (given(q.incrementId)) conds.push(eq(orders.incrementId, q.incrementId.trim()));
  const status = statusCondition(q.status);
  if (status) conds.push(status);
  if (given(q.state)) {
    const s = q.state.trim();
    if (!STATES.has(s)) throw invalid('state', `state must be one of ${[...STATES].join(', ')}`, 'enum');
    conds.push(eq(orders.state, s));
  }
  if (q.storeId !== undefined) conds.push(eq(orders.storeId, q.storeId));
  const found = orderSearchCondition(q.search);
  if (found) conds.push(found);
  // `since` is the alias of updatedSince; an error names the one sent
  const sinceField = given(q.updatedSince) ? 'updatedSince' : 'since';
  conds.push(
    ...dateRangeConditions({ created: orders.createdAt, updated: orders.updatedAt }, { ...q, updatedSince: q[sinceField] }, sinceField),
  );
  return conds.length ? and(...conds) : undefined;
}

/** One page of orders matching `where` in the order `by`, as list rows (items in one statement for the page). */
async function pageOfOrders(ctx: Ctx, where: SQL | undefined, by: SQL[], page: Page): Promise<CollectionResult<OrderDto>> {
  const [list, [{ n }]] = await Promise.all([
    // the page's ids are sorted first and the rows read by them: sorting narrow (key, id) pairs rather than whole
    // rows keeps a deep page of a sort without an index (the total, the status) fast on 100,000 orders
    ctx.db
      .select()
      .from(orders)
      .where(
        inArray(
          orders.id,
          ctx.db
            .select({ id: orders.id })
            .from(orders)
            .where(where)
            .orderBy(...by)
            .limit(page.size)
            .offset(page.offset),
        ),
      )
      .orderBy(...by),
    ctx.db.select({ n: count() }).from(orders).where(where),
  ]);
  const byOrder = new Map<number, OrderItemRow[]>();
  if (list.length) {
    const items = await ctx.db
      .select()
      .from(orderItems)
      .where(
        inArray(
          orderItems.orderId,
          list.map((o) => o.id),
        ),
      )
      .orderBy(asc(orderItems.id));
    for (const i of items) {
      const of = byOrder.get(i.orderId);
      if (of) of.push(i);
      else byOrder.set(i.orderId, [i]);
    }
  }
  return { items: list.map((o) => orderDto(ctx, o, byOrder.get(o.id) ?? [], [], { list: true })), total: Number(n) };
}

/**
 * Pages of order lists, per process, until an order or its items change (the `orders` version): back-office
 * grids and integrations poll the same pages. The key holds everything the page depends on besides the
 * database: who reads (admin rows show more), their store views or customer id, the filters and the page.
 */
const listCache = (ctx: Ctx) => ctx.app.settings.memo('orders.lists', () => new ReadCache<CollectionResult<OrderDto>>('orders', 2_000));

function cachedPage(ctx: Ctx, who: unknown, q: object, where: SQL | undefined, by: SQL[], page: Page): Promise<CollectionResult<OrderDto>> {
  if (ctx.tx) return pageOfOrders(ctx, where, by, page);
  const key = JSON.stringify([ctx.actor.kind, who, ctx.store.storeId, q, page.size, page.offset]);
  return listCache(ctx).get(ctx.db, key, () => pageOfOrders(ctx, where, by, page));
}

/**
 * GET /orders: every order the admin/API caller may see (only its store views when limited), filtered, searched
 * and sorted (newest first unless asked otherwise).
 */
export async function listOrders(ctx: Ctx, q: OrderGridQueryT, page: Page): Promise<CollectionResult<OrderDto>> {
  return cachedPage(ctx, adminStoreScope(ctx) ?? null, q, listWhere(ctx, q), listOrder(q), page);
}

/** GET /customers/me/orders: the calling customer's orders, optionally of one status. */
export async function listMyOrders(ctx: Ctx, q: MyOrdersQueryT, page: Page): Promise<CollectionResult<OrderDto>> {
  if (ctx.actor.kind !== 'customer') throw forbidden('Customer identity required', { reason: 'CUSTOMER_IDENTITY_REQUIRED' });
  const conds: SQL[] = [eq(orders.customerId, ctx.actor.customerId)];
  const status = statusCondition(q.status);
  if (status) conds.push(status);
  return cachedPage(ctx, ctx.actor.customerId, { status: q.status }, and(...conds), listOrder({}), page);
}
