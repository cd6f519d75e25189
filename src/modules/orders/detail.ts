/**
 * Who may see an order, and the whole order as an item read shows it (with its status history and
 * shipments, which the shipments module lends as `ctx.app.orderParts`). Shared by the reads, the lifecycle
 * actions and the guest lookup.
 */
import type { Ctx } from '../../platform/context.js';
import { forbidden } from '../../platform/errors.js';
import { orderNotFound, type OrderItemRow, type OrderRow } from './core.js';
import { historyOf, orderDto, type OrderViewOptions } from './read.js';
import type { OrderDto } from './schemas.js';

/**
 * Throws unless the caller may see the order: an admin/API principal (403 outside the store views it is
 * limited to, as the wire reference has it), or the customer who placed it. Anyone else gets the 404 of a
 * missing order, with the same body.
 */
export function assertOrderAccess(ctx: Ctx, order: Pick<OrderRow, 'customerId' | 'storeId'>): void {
  const a = ctx.actor;
  if (a.kind === 'admin') {
    if (a.allowedStoreIds && !a.allowedStoreIds.includes(order.storeId)) {
      throw forbidden('This token is not allowed in this store', { reason: 'STORE_NOT_ALLOWED' });
    }
    return;
  }
  if (a.kind === 'customer' && order.customerId === a.customerId) return;
  throw orderNotFound();
}

/**
 * The whole order as the wire shows it on an item read: items, addresses, the status history newest first,
 * and its shipments. No access check (callers check first); reads through `ctx.db`, so inside a transaction it
 * sees that transaction's changes.
 */
export async function orderDetail(
  ctx: Ctx,
  order: OrderRow,
  items: OrderItemRow[],
  opts: Omit<OrderViewOptions, 'list' | 'shipments'> = {},
): Promise<OrderDto> {
  const history = await historyOf(ctx, order.id);
  const shipments = await ctx.app.orderParts.shipmentsOf(ctx, order);
  return orderDto(ctx, order, items, history, { ...opts, shipments });
}
