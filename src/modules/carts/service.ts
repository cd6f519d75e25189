/**
 * Carts themselves: a customer's active cart, reading one, creating guest and customer carts, and giving a cart
 * to a customer. The lines are changed in lines.ts, coupons and gift cards in reductions.ts, addresses, methods
 * and gift messages in details.ts; lists are in list.ts.
 */
import crypto from 'node:crypto';
import { and, eq, sql } from 'drizzle-orm';
import type { Ctx } from '../../platform/context.js';
import { badRequest, forbidden, notFound } from '../../platform/errors.js';
import { NOT_LOGGED_IN_GROUP, pricingGroup } from '../customers/groups-service.js';
import { assertCustomerInScope, getCustomerIdentity } from '../customers/service.js';
import { cartDto } from './dto.js';
import { cartNotFound, cartTx, findCart, pricedCart, requireActive, view, type CartRef } from './load.js';
import type { CartDto } from './schemas.js';
import { carts } from './tables.js';

/** The customer's newest active cart in the current store view, if any. */
export async function activeCustomerCart(ctx: Ctx, customerId: number): Promise<CartRef | undefined> {
  const [row] = await ctx.db
    .select({ id: carts.id })
    .from(carts)
    .where(and(eq(carts.customerId, customerId), eq(carts.isActive, true), eq(carts.storeId, ctx.store.storeId)))
    .orderBy(sql`${carts.updatedAt} DESC, ${carts.id} DESC`)
    .limit(1);
  return row ? { kind: 'customer', id: row.id } : undefined;
}

export async function getCart(ctx: Ctx, ref: CartRef): Promise<CartDto> {
  const { ctx: cctx, priced } = await pricedCart(ctx, ref);
  return cartDto(cctx, priced);
}

// ---- create ----

function storeFor(ctx: Ctx, storeId: number | undefined): Ctx {
  if (storeId === undefined) return ctx;
  const store = ctx.app.settings.store(storeId);
  if (!store || !store.isActive || storeId === 0)
    throw badRequest(`Unknown store: ${storeId}`, { reason: 'UNKNOWN_STORE', details: { field: 'storeId' } });
  const a = ctx.actor;
  if (a.kind === 'admin' && a.allowedStoreIds && !a.allowedStoreIds.includes(storeId)) throw forbidden('Access denied to this store');
  return { ...ctx, store: { ...ctx.app.settings.resolveStore(store.code, undefined), explicit: true } };
}

export async function insertCart(
  ctx: Ctx,
  values: { customerId: number | null; masked: boolean; customerEmail?: string | null },
): Promise<number> {
  const group = values.customerId === null ? { groupId: NOT_LOGGED_IN_GROUP } : await pricingGroup(ctx, { customerId: values.customerId });
  const [row] = await ctx.db
    .insert(carts)
    .values({
      maskedId: values.masked ? crypto.randomBytes(16).toString('hex') : null,
      customerId: values.customerId,
      customerEmail: values.customerEmail ?? null,
      customerGroupId: group.groupId,
      storeId: ctx.store.storeId,
      currency: ctx.store.currency,
      // nothing promised yet (null is left for carts from before such promises were recorded)
      pricedWith: {},
      createdAt: ctx.now,
      updatedAt: ctx.now,
    })
    .returning({ id: carts.id });
  return row.id;
}

export async function createGuestCart(ctx: Ctx, body: { storeId?: number }): Promise<CartDto> {
  const sctx = storeFor(ctx, body.storeId);
  return view(sctx, await insertCart(sctx, { customerId: null, masked: true }));
}

/** A new cart for the calling customer, or for `customerId` when an admin creates it (none: a cart of no one). */
export async function createCustomerCart(ctx: Ctx, body: { storeId?: number; customerId?: number }): Promise<CartDto> {
  const sctx = storeFor(ctx, body.storeId);
  const a = ctx.actor;
  let customerId: number | null = null;
  let email: string | null = null;
  if (a.kind === 'customer') {
    customerId = a.customerId;
    email = a.email;
  } else if (body.customerId !== undefined) {
    const id = body.customerId;
    // a customer of another website is as unknown to a store-limited principal
    const c = await assertCustomerInScope(ctx, id).then(
      () => getCustomerIdentity(ctx, id),
      () => undefined,
    );
    if (!c)
      throw badRequest(`Customer ${body.customerId} does not exist`, { reason: 'CUSTOMER_NOT_FOUND', details: { field: 'customerId' } });
    customerId = c.id;
    email = c.email;
  }
  return view(sctx, await insertCart(sctx, { customerId, masked: false, customerEmail: email }));
}

/** The signed-in customer's newest active cart in the current store view, or a new empty one. */
export async function customerCart(ctx: Ctx): Promise<CartDto> {
  const a = ctx.actor;
  if (a.kind !== 'customer') throw cartNotFound();
  const ref = await activeCustomerCart(ctx, a.customerId);
  return ref ? getCart(ctx, ref) : createCustomerCart(ctx, {});
}

/**
 * Gives a cart to a customer: the signed-in customer takes over the guest cart they filled before signing in, or
 * the back office gives any cart to any customer. The cart leaves the guest path (its masked id stops working, so
 * whoever else holds it no longer sees the customer's addresses) and is priced for the customer's group.
 */
export async function assignCustomer(ctx: Ctx, ref: CartRef, body: { customerId: number }): Promise<CartDto> {
  const a = ctx.actor;
  if (a.kind === 'customer' && body.customerId !== a.customerId) {
    throw forbidden('A customer can take a cart only for themselves', { reason: 'CART_ASSIGN_FORBIDDEN' });
  }
  // a store-limited principal hands only carts of its stores (a guest cart too) to customers of its websites
  if (a.kind === 'admin') await assertCustomerInScope(ctx, body.customerId);
  const customer = await getCustomerIdentity(ctx, body.customerId);
  if (!customer) throw notFound(`Customer ${body.customerId} not found`, { reason: 'CUSTOMER_NOT_FOUND' });
  const id = await cartTx(ctx, async (tx) => {
    const cart = await findCart(tx, ref, true);
    if (!cart || (a.kind === 'admin' && a.allowedStoreIds && !a.allowedStoreIds.includes(cart.storeId))) throw cartNotFound();
    requireActive(cart);
    const group = await pricingGroup(tx, { customerId: customer.id });
    await tx.db
      .update(carts)
      .set({ customerId: customer.id, customerEmail: customer.email, customerGroupId: group.groupId, maskedId: null, updatedAt: tx.now })
      .where(eq(carts.id, cart.id));
    return cart.id;
  });
  return view(ctx, id);
}
