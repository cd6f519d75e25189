/** The order events: the order as the back office reads it, rendered just before the commit. */
import { backOffice, type Ctx } from '../../platform/context.js';
import { defineEvents } from '../../platform/events.js';
import { findOrder, type OrderRow } from './core.js';
import { orderDetail } from './detail.js';
import { Order } from './schemas.js';

export const orderEvents = defineEvents({
  'order.placed': { description: 'An order was placed (checkout or admin)', payload: Order },
  'order.updated': { description: "An order's state or status changed", payload: Order },
  'order.canceled': { description: 'An order was canceled', payload: Order },
});

export function emitOrderEvent(
  ctx: Ctx,
  type: 'order.placed' | 'order.updated' | 'order.canceled',
  order: Pick<OrderRow, 'id' | 'storeId'>,
): void {
  orderEvents.emit(ctx, type, { resource: 'order', id: order.id, storeId: order.storeId }, async () => {
    const now = await findOrder(ctx, order.id);
    return now ? orderDetail(backOffice(ctx), now.order, now.items) : null;
  });
}

/** order.updated when the change moved the order's state or status. */
export function orderChanged(
  ctx: Ctx,
  before: Pick<OrderRow, 'state' | 'status'>,
  after: Pick<OrderRow, 'id' | 'storeId' | 'state' | 'status'>,
): void {
  if (before.state !== after.state || before.status !== after.status) emitOrderEvent(ctx, 'order.updated', after);
}
