/** The order events of webhooks: the order as the back office reads it, rendered just before the commit. */
import type { Ctx } from '../../platform/context.js';
import { backOffice, emitEvent } from '../webhooks/events.js';
import { findOrder, type OrderRow } from './core.js';
import { orderDetail } from './detail.js';

export function emitOrderEvent(ctx: Ctx, type: 'order.placed' | 'order.updated' | 'order.canceled', order: Pick<OrderRow, 'id' | 'storeId'>): void {
  emitEvent(ctx, type, { resource: 'order', id: order.id, storeId: order.storeId }, async () => {
    const now = await findOrder(ctx, order.id);
    return now ? orderDetail(backOffice(ctx), now.order, now.items) : null;
  });
}

/** order.updated when the change moved the order's state or status. */
export function orderChanged(ctx: Ctx, before: Pick<OrderRow, 'state' | 'status'>, after: Pick<OrderRow, 'id' | 'storeId' | 'state' | 'status'>): void {
  if (before.state !== after.state || before.status !== after.status) emitOrderEvent(ctx, 'order.updated', after);
}
