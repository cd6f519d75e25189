/**
 * What the document modules (checkout, invoices, shipments, credit memos) use of orders: numbering, the
 * locked order with its items, moving the per-item quantities and per-order money counters, the status
 * history, and who may see an order. These are the only writers of the orders tables besides placement.
 */
import { asc, eq, getTableColumns, is, sql, SQL, type AnyColumn } from 'drizzle-orm';
import type { PgTable } from 'drizzle-orm/pg-core';
import { relaxedCommit, statement } from '../../platform/db.js';
import type { Ctx } from '../../platform/context.js';
import { forbidden, notFound } from '../../platform/errors.js';
import { dec, type Decimal } from '../../platform/money.js';
import { DEFAULT_STATUS, settledState, type OrderState } from './state.js';
import { orderItems, orderStatusHistory, orders, salesSequences } from './tables.js';

export type OrderRow = typeof orders.$inferSelect;
export type OrderItemRow = typeof orderItems.$inferSelect;
export type { OrderAddress, OrderGiftcard } from './tables.js';

export interface OrderWithItems {
  order: OrderRow;
  items: OrderItemRow[];
}

export type DocumentEntity = 'order' | 'invoice' | 'shipment' | 'creditmemo';

/**
 * The next increment id of a kind of document in a store view: the store id followed by an 8-digit counter
 * ("100000001" is the first order of store 1). The counter is raised outside the document's transaction, so
 * concurrent placements never wait on each other for a number; a document that is rolled back leaves a gap.
 */
export async function nextIncrementId(ctx: Ctx, entity: DocumentEntity, storeId: number): Promise<string> {
  return (await nextIncrementIds(ctx, [entity], storeId))[entity];
}

/**
 * Raises the counters, as its own transaction when it runs outside the caller's (on PostgreSQL), committed
 * without waiting for the disk flush: every placement takes the same row's lock, and holding it through a
 * flush made placements queue behind each other's. Safe, because the log is written in order: a document that
 * committed durably flushed the counter it took with it, and a counter lost in a crash was taken by no
 * document that survived it, so no number is ever given twice.
 */
const nextIdsStatement = statement<{ entity: DocumentEntity; n: number }>(
  'sales_sequences_next',
  () => sql`INSERT INTO ${salesSequences} (entity, store_id, last_value)
    SELECT e, ${sql.placeholder('store')}::int, 1
      FROM unnest(${sql.placeholder('entities')}::text[]) WITH ORDINALITY AS x(e, k), ${relaxedCommit('relaxed')}
     ORDER BY k
    ON CONFLICT (entity, store_id) DO UPDATE SET last_value = ${salesSequences.lastValue} + 1
    RETURNING entity, last_value AS n`,
);

/**
 * The next increment ids of several kinds of document in one store view, in one statement (placement numbers
 * its order and the invoice of a capturing payment method together). Same counters as nextIncrementId.
 */
export async function nextIncrementIds<E extends DocumentEntity>(ctx: Ctx, entities: E[], storeId: number): Promise<Record<E, string>> {
  const db = ctx.app.outsideTx(ctx);
  const got = await nextIdsStatement.run(db, {
    store: storeId,
    entities: `{${entities.join(',')}}`,
    // only as a transaction of its own: inside the caller's, it would relax the caller's commit
    relaxed: !ctx.tx || db !== ctx.db,
  });
  return Object.fromEntries(got.map((r) => [r.entity, `${storeId}${String(r.n).padStart(8, '0')}`])) as Record<E, string>;
}

/**
 * A row as the table would hold it once `values` are inserted: every column not given takes its default
 * (timestamps `now`, the id 0 until the database gives one). For writers that compute a new row's later
 * state in memory and insert that state at once.
 */
export function newRow<T extends PgTable>(table: T, values: Partial<T['$inferSelect']>, now: Date): T['$inferSelect'] {
  const out: Record<string, unknown> = {};
  for (const [key, col] of Object.entries(getTableColumns(table))) {
    const given = (values as Record<string, unknown>)[key];
    if (given !== undefined) out[key] = given;
    else if (col.columnType === 'PgSerial' || col.columnType === 'PgBigSerial53') out[key] = 0;
    else if (col.default !== undefined && !is(col.default, SQL)) out[key] = col.default;
    else if (col.columnType === 'PgTimestamp' && col.hasDefault) out[key] = now;
    else out[key] = null;
  }
  return out as T['$inferSelect'];
}

export const orderNotFound = () => notFound('Order not found', { reason: 'ORDER_NOT_FOUND' });

async function itemsOf(ctx: Ctx, orderId: number): Promise<OrderItemRow[]> {
  return ctx.db.select().from(orderItems).where(eq(orderItems.orderId, orderId)).orderBy(asc(orderItems.id));
}

/** The order with its items, unlocked; undefined when there is none. No access check. */
export async function findOrder(ctx: Ctx, orderId: number): Promise<OrderWithItems | undefined> {
  if (!Number.isInteger(orderId) || orderId < 1 || orderId > 2147483647) return undefined;
  const [order] = await ctx.db.select().from(orders).where(eq(orders.id, orderId));
  return order ? { order, items: await itemsOf(ctx, orderId) } : undefined;
}

/** The order (without items) with this increment id, unlocked; undefined when there is none. No access check. */
export async function findOrderByIncrementId(ctx: Ctx, incrementId: string): Promise<OrderRow | undefined> {
  const number = incrementId.trim();
  if (!number || number.length > 50) return undefined;
  const [order] = await ctx.db.select().from(orders).where(eq(orders.incrementId, number));
  return order;
}

/**
 * The increment id of the order `orderId` names (a column or an expression of the query it is embedded in), as
 * SQL for another module's one-statement read of its documents; null when there is no such order.
 */
export function orderIncrementIdSql(orderId: SQL | AnyColumn): SQL<string | null> {
  return sql<string | null>`(SELECT ${orders.incrementId} FROM ${orders} WHERE ${orders.id} = ${orderId})`;
}

/**
 * The order locked for the rest of the caller's transaction (call inside withTx), with its items; undefined
 * when there is none. Lock order everywhere: the order row first, then anything else of it.
 */
export async function lockOrder(ctx: Ctx, orderId: number): Promise<OrderWithItems | undefined> {
  if (!Number.isInteger(orderId) || orderId < 1 || orderId > 2147483647) return undefined;
  const [order] = await ctx.db.select().from(orders).where(eq(orders.id, orderId)).for('update');
  return order ? { order, items: await itemsOf(ctx, orderId) } : undefined;
}

/**
 * Whether the caller may see the order: an admin/API principal (within its store views), or the customer who
 * placed it. Everyone else gets the same 404 as for a missing order.
 */
export function mayAccessOrder(ctx: Ctx, order: Pick<OrderRow, 'customerId' | 'storeId'>): boolean {
  const a = ctx.actor;
  if (a.kind === 'admin') return !a.allowedStoreIds || a.allowedStoreIds.includes(order.storeId);
  if (a.kind === 'customer') return order.customerId === a.customerId;
  return false;
}

/**
 * Whether the caller sees the comments kept from the storefront (status history, invoice, shipment and credit
 * memo comments not visible on front): the back office only; customers and guests see the visible ones.
 */
export function seesInternalComments(ctx: Ctx): boolean {
  return ctx.actor.kind === 'admin';
}

/**
 * The refusal for an order the caller may not use: 404 like a missing one for customers, 403 for a back-office
 * principal limited to other store views (wire reference §3.8).
 */
function assertMayAccess(ctx: Ctx, found: OrderWithItems | undefined): asserts found is OrderWithItems {
  if (!found) throw orderNotFound();
  assertOrderAccess(ctx, found.order, orderNotFound);
}

/**
 * For documents of an order (shipments, credit memos) read by their own id: `missing()` (their 404) unless the
 * caller may use the order; 403 for a back-office principal limited to other store views.
 */
export function assertOrderAccess(ctx: Ctx, order: Pick<OrderRow, 'customerId' | 'storeId'>, missing: () => Error): void {
  if (mayAccessOrder(ctx, order)) return;
  if (ctx.actor.kind === 'admin') throw forbidden('Access denied to this store', { reason: 'STORE_NOT_ALLOWED' });
  throw missing();
}

/** findOrder for the caller: 404 when missing or not the caller's (403 outside a back-office token's stores). */
export async function findOrderForCaller(ctx: Ctx, orderId: number): Promise<OrderWithItems> {
  const found = await findOrder(ctx, orderId);
  assertMayAccess(ctx, found);
  return found;
}

/** lockOrder for the caller: 404 when missing or not the caller's (403 outside a back-office token's stores). */
export async function lockOrderForCaller(ctx: Ctx, orderId: number): Promise<OrderWithItems> {
  const found = await lockOrder(ctx, orderId);
  assertMayAccess(ctx, found);
  return found;
}

export interface HistoryEntry {
  comment?: string | null;
  /** defaults to the order's current status */
  status?: string;
  entityName?: DocumentEntity;
  isCustomerNotified?: boolean;
  isVisibleOnFront?: boolean;
}

/** The status-history row of an entry (the order's id and current status, unless the entry names one). */
export function historyRow(ctx: Ctx, order: Pick<OrderRow, 'id' | 'status'>, entry: HistoryEntry) {
  return {
    orderId: order.id,
    comment: entry.comment ?? null,
    status: entry.status ?? order.status,
    entityName: entry.entityName ?? 'order',
    isCustomerNotified: entry.isCustomerNotified ?? false,
    isVisibleOnFront: entry.isVisibleOnFront ?? false,
    createdAt: ctx.now,
  };
}

/** Adds a status-history row to a (locked) order. */
export async function addStatusHistory(ctx: Ctx, order: Pick<OrderRow, 'id' | 'status'>, entry: HistoryEntry): Promise<void> {
  await ctx.db.insert(orderStatusHistory).values(historyRow(ctx, order, entry));
}

/** Per-item quantity changes (added to the item's counters) of one document. */
export interface ItemDelta {
  orderItemId: number;
  qtyInvoiced?: Decimal;
  qtyShipped?: Decimal;
  qtyRefunded?: Decimal;
  qtyCanceled?: Decimal;
  /** money counters of the item (order currency, and base) */
  taxInvoiced?: Decimal;
  baseTaxInvoiced?: Decimal;
  discountInvoiced?: Decimal;
  baseDiscountInvoiced?: Decimal;
  rowInvoiced?: Decimal;
  baseRowInvoiced?: Decimal;
  taxRefunded?: Decimal;
  baseTaxRefunded?: Decimal;
  discountRefunded?: Decimal;
  baseDiscountRefunded?: Decimal;
  amountRefunded?: Decimal;
  baseAmountRefunded?: Decimal;
}

/** Order money counter changes (added), by column name of the orders table. */
export type OrderMoneyDelta = Partial<
  Record<
    | 'subtotalInvoiced'
    | 'baseSubtotalInvoiced'
    | 'totalInvoiced'
    | 'baseTotalInvoiced'
    | 'totalPaid'
    | 'baseTotalPaid'
    | 'subtotalRefunded'
    | 'baseSubtotalRefunded'
    | 'totalRefunded'
    | 'baseTotalRefunded'
    | 'subtotalCanceled'
    | 'baseSubtotalCanceled'
    | 'totalCanceled'
    | 'baseTotalCanceled'
    | 'taxInvoiced'
    | 'baseTaxInvoiced'
    | 'taxRefunded'
    | 'baseTaxRefunded'
    | 'shippingInvoiced'
    | 'baseShippingInvoiced'
    | 'shippingRefunded'
    | 'baseShippingRefunded'
    | 'discountInvoiced'
    | 'baseDiscountInvoiced'
    | 'discountRefunded'
    | 'baseDiscountRefunded'
    | 'adjustmentPositive'
    | 'baseAdjustmentPositive'
    | 'adjustmentNegative'
    | 'baseAdjustmentNegative',
    Decimal
  >
>;

const ITEM_COUNTERS = [
  'qtyInvoiced',
  'qtyShipped',
  'qtyRefunded',
  'qtyCanceled',
  'taxInvoiced',
  'baseTaxInvoiced',
  'discountInvoiced',
  'baseDiscountInvoiced',
  'rowInvoiced',
  'baseRowInvoiced',
  'taxRefunded',
  'baseTaxRefunded',
  'discountRefunded',
  'baseDiscountRefunded',
  'amountRefunded',
  'baseAmountRefunded',
] as const;

/**
 * Applies a document's changes to a locked order (see lockOrder): adds the item and money deltas, then moves
 * the order to the state its quantities now put it in (processing, complete, closed) with that state's
 * default status. Answers with the order as it now is. The caller has already checked that the quantities
 * are allowed (nothing above what is left).
 */
export async function recordProgress(
  ctx: Ctx,
  locked: OrderWithItems,
  change: { items?: ItemDelta[]; money?: OrderMoneyDelta },
): Promise<OrderWithItems> {
  const next = progressOf(ctx, locked, change);
  for (const [id, set] of next.itemSets) await ctx.db.update(orderItems).set(set).where(eq(orderItems.id, id));
  await ctx.db.update(orders).set(next.orderSet).where(eq(orders.id, next.order.id));
  return { order: next.order, items: next.items };
}

/**
 * What recordProgress writes, computed without writing: the order and items as they are after the change, and
 * the columns that change (by item id, and of the order).
 */
export function progressOf(
  ctx: Ctx,
  locked: OrderWithItems,
  change: { items?: ItemDelta[]; money?: OrderMoneyDelta },
): OrderWithItems & { itemSets: Map<number, Partial<OrderItemRow>>; orderSet: Partial<OrderRow> } {
  const items = locked.items.map((i) => ({ ...i }));
  const itemSets = new Map<number, Partial<OrderItemRow>>();
  for (const d of change.items ?? []) {
    const item = items.find((i) => i.id === d.orderItemId);
    if (!item) throw new Error(`order item ${d.orderItemId} is not on order ${locked.order.id}`);
    const set: Partial<OrderItemRow> = {};
    for (const k of ITEM_COUNTERS) {
      const v = d[k];
      if (v && !v.isZero()) set[k] = dec(item[k]).add(v).toFixed(4);
    }
    if (!Object.keys(set).length) continue;
    Object.assign(item, set);
    itemSets.set(item.id, { ...itemSets.get(item.id), ...set });
  }
  const order = { ...locked.order };
  const set: Partial<OrderRow> = {};
  for (const [k, v] of Object.entries(change.money ?? {}) as [keyof OrderMoneyDelta, Decimal][]) {
    if (v && !v.isZero()) set[k] = dec(order[k]).add(v).toFixed(4);
  }
  Object.assign(order, set);
  const state = settledState(
    order.state,
    items.map((i) => ({
      qtyOrdered: Number(i.qtyOrdered),
      qtyInvoiced: Number(i.qtyInvoiced),
      qtyShipped: Number(i.qtyShipped),
      qtyRefunded: Number(i.qtyRefunded),
      qtyCanceled: Number(i.qtyCanceled),
      isVirtual: i.isVirtual,
    })),
    { totalPaid: Number(order.totalPaid), totalRefunded: Number(order.totalRefunded) },
  );
  if (state !== order.state) {
    set.state = state;
    set.status = DEFAULT_STATUS[state as OrderState];
  }
  set.updatedAt = ctx.now;
  Object.assign(order, set);
  return { order, items, itemSets, orderSet: set };
}

/** Sets state and status (and the hold memory) of a locked order. */
export async function setOrderState(
  ctx: Ctx,
  order: OrderRow,
  set: { state: string; status: string; holdBeforeState?: string | null; holdBeforeStatus?: string | null },
): Promise<OrderRow> {
  const next = { ...set, updatedAt: ctx.now };
  await ctx.db.update(orders).set(next).where(eq(orders.id, order.id));
  return { ...order, ...next };
}

/** Marks the order's confirmation mail as queued. */
export async function markEmailSent(ctx: Ctx, orderId: number): Promise<void> {
  await ctx.db.update(orders).set({ emailSent: true }).where(eq(orders.id, orderId));
}

/**
 * Replaces the record of what the gift cards paid and got back (cancellations and refunds give back), and,
 * when given, what the cards pay of the order (a cancellation lowers it by what it gave back).
 */
export async function setOrderGiftcards(
  ctx: Ctx,
  orderId: number,
  cards: OrderRow['giftcards'],
  paid?: Pick<OrderRow, 'giftcardAmount' | 'baseGiftcardAmount'>,
): Promise<void> {
  await ctx.db
    .update(orders)
    .set({ giftcards: cards, ...paid })
    .where(eq(orders.id, orderId));
}

/** Marks stock, coupon use and gift card debits of a canceled order as given back (true if it was not yet). */
export async function markReservationsReleased(ctx: Ctx, orderId: number): Promise<boolean> {
  const done = await ctx.db
    .update(orders)
    .set({ reservationsReleased: true })
    .where(sql`${orders.id} = ${orderId} AND NOT ${orders.reservationsReleased}`)
    .returning({ id: orders.id });
  return done.length > 0;
}
