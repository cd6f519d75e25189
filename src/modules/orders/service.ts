/**
 * The orders service: reading one order as its caller may see it, and the module's public functions (lists in
 * list.ts, hold/unhold/cancel/comments in lifecycle.ts, the guest lookup in guest.ts, an account made from a
 * guest order in account-from-order.ts, writing a placed order in placement.ts).
 */
import type { Ctx } from '../../platform/context.js';
import { findOrder, orderNotFound } from './core.js';
import { assertOrderAccess, orderDetail } from './detail.js';
import type { OrderDto } from './schemas.js';

export { listMyOrders, listOrders } from './list.js';
export { addOrderComment, cancelOrder, holdOrder, unholdOrder } from './lifecycle.js';
export { guestOrderDetails } from './guest.js';
export { createCustomerFromOrder } from './account-from-order.js';
export { assertOrderAccess, orderDetail } from './detail.js';

/** GET /orders/{id}: the caller's order (a missing one and another customer's are the same 404). */
export async function getOrder(ctx: Ctx, orderId: number): Promise<OrderDto> {
  const found = await findOrder(ctx, orderId);
  if (!found) throw orderNotFound();
  assertOrderAccess(ctx, found.order);
  return orderDetail(ctx, found.order, found.items);
}
