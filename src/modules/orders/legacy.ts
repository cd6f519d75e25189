/**
 * What the Magento 1 API needs of orders beyond the REST reads: order rows under a WHERE the caller builds over
 * this module's table (Magento's list filters name any column, and the billing and shipping names), and one order
 * by its increment id with its items and status history. A principal limited to store views reaches only theirs.
 */
import { and, asc, desc, eq, inArray, sql, type SQL } from 'drizzle-orm';
import { adminStoreScope, together, type Ctx } from '../../platform/context.js';
import type { OrderItemRow, OrderRow } from './core.js';
import { orderItems, orderStatusHistory, orders } from './tables.js';

export type OrderHistoryRow = typeof orderStatusHistory.$inferSelect;

/** The table's columns, and a field of the billing or shipping address (its stored key, e.g. `firstName`) as text. */
export interface OrderColumns {
  table: typeof orders;
  address: (type: 'billing' | 'shipping', key: string) => SQL<string | null>;
}

const columns: OrderColumns = {
  table: orders,
  address: (type, key) => sql<string | null>`(${type === 'billing' ? orders.billingAddress : orders.shippingAddress} ->> ${key})`,
};

function scoped(ctx: Ctx): SQL | undefined {
  const scope = adminStoreScope(ctx);
  return scope ? inArray(orders.storeId, scope.length ? scope : [-1]) : undefined;
}

/**
 * The orders `where` selects, oldest first, in one statement (no items: Magento's list answers the order rows
 * alone). `where` may throw (a malformed filter) before anything runs.
 */
export async function orderRowsWhere(ctx: Ctx, where: (c: OrderColumns) => SQL | undefined): Promise<OrderRow[]> {
  const cond = where(columns);
  return ctx.db
    .select()
    .from(orders)
    .where(and(cond, scoped(ctx)))
    .orderBy(asc(orders.id));
}

export interface LegacyOrder {
  order: OrderRow;
  items: OrderItemRow[];
  /** newest first */
  history: OrderHistoryRow[];
}

/** The order with this increment id the caller may see, with its items and status history; undefined otherwise. */
export async function orderByIncrementId(ctx: Ctx, incrementId: string): Promise<LegacyOrder | undefined> {
  const number = incrementId.trim();
  if (!number || number.length > 50) return undefined;
  const [order] = await ctx.db
    .select()
    .from(orders)
    .where(and(eq(orders.incrementId, number), scoped(ctx)));
  if (!order) return undefined;
  const [items, history] = await together(ctx, [
    () => ctx.db.select().from(orderItems).where(eq(orderItems.orderId, order.id)).orderBy(asc(orderItems.id)),
    () =>
      ctx.db
        .select()
        .from(orderStatusHistory)
        .where(eq(orderStatusHistory.orderId, order.id))
        .orderBy(desc(orderStatusHistory.createdAt), desc(orderStatusHistory.id)),
  ] as const);
  return { order, items, history };
}
