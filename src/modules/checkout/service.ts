/** Order placement: the entry points the checkout routes call. The work is in place-order.ts. */
import { hasPermission } from '../../platform/auth/access.js';
import type { Ctx } from '../../platform/context.js';
import { forbidden } from '../../platform/errors.js';
import { cartRefOf } from '../carts/checkout.js';
import { cartNotFound, type CartRef } from '../carts/load.js';
import type { OrderDto } from '../orders/schemas.js';
import { placeOrder as place } from './place-order.js';
import type { CreateOrderBodyT, PlaceOrderBodyT } from './schemas.js';

/** A back-office principal places orders with the orders/create permission (customers: their own carts). */
function assertMayPlace(ctx: Ctx): void {
  const a = ctx.actor;
  if (a.kind === 'admin' && !hasPermission(a.permissions, 'orders', 'create'))
    throw forbidden('Access denied: requires orders/create', { reason: 'PERMISSION_DENIED' });
}

export function placeOrder(ctx: Ctx, ref: CartRef, body: PlaceOrderBodyT): Promise<OrderDto> {
  assertMayPlace(ctx);
  return place(ctx, ref, body);
}

/** POST /orders: the cart named by `cartId` (a customer cart's id or a guest cart's masked id) or `maskedId`. */
export function createOrder(ctx: Ctx, body: CreateOrderBodyT): Promise<OrderDto> {
  const { cartId, maskedId, ...rest } = body;
  const ref = cartRefOf(cartId, maskedId);
  if (!ref) throw cartNotFound();
  return placeOrder(ctx, ref, rest);
}
