/**
 * The carts side of placing an order: the cart locked for the placement's transaction, the checkout details
 * the placement request may send (addresses, methods, email, note) applied to it in memory and checked, and
 * the cart closed once the order is written. The checkout module calls these inside its transaction.
 */
import { eq, sql, type SQL } from 'drizzle-orm';
import type { Ctx } from '../../platform/context.js';
import { badRequest } from '../../platform/errors.js';
import { jsonRow, updateFromJson } from '../../platform/json-rows.js';
import { isEmailAddress } from '../../platform/format.js';
import { availablePaymentMethods, validatePaymentData } from '../payment/service.js';
import { cartContext, priceCart, type CartItemRow, type CartRow, type PricedCart } from './pricing.js';
import { brokenPromise } from './promise.js';
import type { AddressBodyT } from './schemas.js';
import { addressFrom } from './details.js';
import { cartNotFound, findCart, placementRead, type CartRef, type PlacementRead } from './load.js';
import { carts } from './tables.js';

export interface CheckoutInput {
  shippingAddress?: AddressBodyT;
  billingAddress?: AddressBodyT;
  /** the guest's email */
  email?: string;
  paymentMethod?: string;
  paymentData?: Record<string, unknown>;
  /** carrier_method */
  shippingMethod?: string;
  orderNote?: string;
}

/**
 * Locks the cart the request names (call inside the placement's transaction) and returns it with its items,
 * when the caller may use it and it is still active; a cart ordered meanwhile is a 404 like a missing one.
 */
export async function lockCartForOrder(ctx: Ctx, ref: CartRef): Promise<LockedCart> {
  const cart = await findCart(ctx, ref, true);
  if (!cart || !cart.isActive) throw cartNotFound();
  return { cart, ...(await placementRead(ctx, cart.id)) };
}

export interface LockedCart extends Partial<Omit<PlacementRead, 'items'>> {
  cart: CartRow;
  items: CartItemRow[];
}

/**
 * The cart with the request's checkout details applied (not saved), priced, and checked for placement: the
 * reductions it was last shown with still hold (promise.ts), items, a shipping address and an offered method
 * unless everything is virtual, a billing address (the shipping address when none was given), an available
 * payment method with the data it needs, and a guest's email.
 * `ctx` is the placement's transaction.
 */
export async function checkoutCart(ctx: Ctx, locked: LockedCart, input: CheckoutInput): Promise<{ ctx: Ctx; priced: PricedCart }> {
  let cart = { ...locked.cart };
  const cctx = cartContext(ctx, cart);
  if (!locked.items.length) throw badRequest('The cart is empty', { reason: 'CART_EMPTY' });
  if (input.shippingAddress) cart.shippingAddress = await addressFrom(cctx, cart, input.shippingAddress);
  if (input.billingAddress) {
    if (input.billingAddress.sameAsShipping) {
      if (!cart.shippingAddress)
        throw badRequest('The cart has no shipping address to copy', {
          reason: 'INVALID_ADDRESS',
          details: { field: 'billingAddress.sameAsShipping' },
        });
      cart.billingAddress = cart.shippingAddress;
    } else cart.billingAddress = await addressFrom(cctx, cart, input.billingAddress);
  }
  if (input.shippingMethod !== undefined) cart.shippingMethod = input.shippingMethod;
  if (input.paymentMethod !== undefined) cart.paymentMethod = input.paymentMethod;
  if (input.orderNote !== undefined) cart.customerNote = input.orderNote.trim() || null;
  if (cart.customerId === null) {
    const email = input.email?.trim() || cart.customerEmail || cart.billingAddress?.email || cart.shippingAddress?.email || undefined;
    if (!email)
      throw badRequest('An email address is required for a guest order (guestEmail)', {
        reason: 'EMAIL_REQUIRED',
        details: { field: 'guestEmail' },
      });
    if (!isEmailAddress(email))
      throw badRequest('guestEmail is not a valid email address', { reason: 'INVALID_EMAIL', details: { field: 'guestEmail' } });
    cart.customerEmail = email.toLowerCase();
  }
  cart = { ...cart, billingAddress: cart.billingAddress ?? cart.shippingAddress };

  const priced = await priceCart(cctx, cart, locked.items, {
    version: locked.version,
    stock: locked.stock,
    stockRead: locked.stockRead,
    group: locked.group,
  });
  // what the cart was shown with first: a method that was free and no longer is must not read as a bad request
  const broken = brokenPromise(priced);
  if (broken) throw broken;
  const unavailable = priced.items.filter((i) => !i.product.sellable);
  if (unavailable.length) {
    throw badRequest(`No longer available: ${unavailable.map((i) => i.sku).join(', ')}`, {
      reason: 'PRODUCT_UNAVAILABLE',
      details: { skus: unavailable.map((i) => i.sku) },
    });
  }
  if (!priced.isVirtual) {
    if (!cart.shippingAddress)
      throw badRequest('A shipping address is required', { reason: 'SHIPPING_ADDRESS_MISSING', details: { field: 'shippingAddress' } });
    if (!cart.shippingMethod)
      throw badRequest('A shipping method is required', { reason: 'SHIPPING_METHOD_MISSING', details: { field: 'shippingMethod' } });
    if (!priced.selectedRate) {
      throw badRequest(`Shipping method ${cart.shippingMethod} is not available for this address`, {
        reason: 'SHIPPING_METHOD_UNAVAILABLE',
        details: { field: 'shippingMethod' },
      });
    }
  }
  if (!cart.billingAddress)
    throw badRequest('A billing address is required', { reason: 'BILLING_ADDRESS_MISSING', details: { field: 'billingAddress' } });
  if (!cart.paymentMethod)
    throw badRequest('A payment method is required', { reason: 'PAYMENT_METHOD_MISSING', details: { field: 'paymentMethod' } });
  const methods = availablePaymentMethods(cctx, {
    storeId: cart.storeId,
    countryId: cart.billingAddress.countryId,
    baseGrandTotal: priced.base.grandTotal,
  });
  if (!methods.some((m) => m.code === cart.paymentMethod)) {
    throw badRequest(`Payment method ${cart.paymentMethod} is not available for this order`, {
      reason: 'PAYMENT_METHOD_UNAVAILABLE',
      details: { field: 'paymentMethod' },
    });
  }
  // data sent with the placement wins; else what the payment-method setter kept
  const data = input.paymentData ?? (input.paymentMethod === undefined ? (cart.paymentData ?? undefined) : undefined);
  priced.cart.paymentData = validatePaymentData(cctx, cart.paymentMethod, data);
  return { ctx: cctx, priced };
}

/** The columns closing a cart sets: it is made inactive, keeping what the placement applied to it. */
const CLOSED_COLUMNS = [
  'isActive',
  'reservedOrderId',
  'shippingAddress',
  'billingAddress',
  'shippingMethod',
  'paymentMethod',
  'paymentData',
  'customerEmail',
  'customerNote',
  'updatedAt',
] as const satisfies (keyof CartRow)[];

/**
 * The statement closing the cart an order was placed from, its values as the placeholders `<prefix>_row` and
 * `<prefix>_id` (closingCartValues): the same text for every cart, so placement writes it within its own statement.
 */
export function closingCartSql(prefix: string): SQL {
  return updateFromJson(carts, `${prefix}_row`, [...CLOSED_COLUMNS], eq(carts.id, sql.placeholder(`${prefix}_id`)));
}

/**
 * closingCartSql for a cart read without a lock: it closes the cart only while it is active and still the row
 * version `<prefix>_seen` that was read (see readCartToPlace), and answers its id when it did.
 */
export function closingSeenCartSql(prefix: string): SQL {
  const seen = sql`${carts.isActive} AND carts.xmin = ${sql.placeholder(`${prefix}_seen`)}::text::xid`;
  return sql`${updateFromJson(carts, `${prefix}_row`, [...CLOSED_COLUMNS], sql`${eq(carts.id, sql.placeholder(`${prefix}_id`))} AND ${seen}`)} RETURNING ${carts.id}`;
}

/** The values of closingCartSql(prefix) for `cart`, placed as the order `incrementId`. */
export function closingCartValues(ctx: Ctx, prefix: string, cart: CartRow, incrementId: string): Record<string, unknown> {
  const row: Partial<CartRow> = Object.fromEntries(CLOSED_COLUMNS.map((k) => [k, cart[k]]));
  Object.assign(row, { isActive: false, reservedOrderId: incrementId, updatedAt: ctx.now });
  return { [`${prefix}_row`]: jsonRow(carts, row), [`${prefix}_id`]: cart.id };
}

/** The cart reference a POST /orders body names: a numeric id (customer cart) or a masked id (guest cart). */
export function cartRefOf(cartId: number | string | undefined, maskedId?: string): CartRef | undefined {
  if (maskedId !== undefined) return { kind: 'guest', maskedId };
  if (typeof cartId === 'number') return { kind: 'customer', id: cartId };
  if (typeof cartId === 'string') {
    const t = cartId.trim();
    if (/^[0-9]{1,10}$/.test(t) && Number(t) <= 2147483647) return { kind: 'customer', id: Number(t) };
    return { kind: 'guest', maskedId: t };
  }
  return undefined;
}
