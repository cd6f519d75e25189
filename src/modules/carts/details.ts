/**
 * What a cart holds besides its lines: the shipping and billing address, the shipping and payment method, and
 * gift messages (of the order and of each line).
 */
import { and, eq } from 'drizzle-orm';
import type { Ctx } from '../../platform/context.js';
import { badRequest, notFound } from '../../platform/errors.js';
import { declareConfig, declareConfigLabels } from '../../platform/settings.js';
import { getAddress } from '../customers/addresses.js';
import { resolveAddressLocation } from '../directory/service.js';
import { availablePaymentMethods, validatePaymentData } from '../payment/service.js';
import { cartTx, itemsOf, lockCart, pricedCart, requireActive, requireCart, touch, view, type CartRef } from './load.js';
import { cartContext, priceCart, type CartRow, type PricedCart } from './pricing.js';
import type { AddressBodyT, CartDto } from './schemas.js';
import { cartItems, carts, type CartAddress, type GiftMessage } from './tables.js';

declareConfigLabels({ sales: 'Sales', 'sales/gift_options': 'Gift Options' });
declareConfig({
  'sales/gift_options/allow_order': { type: 'boolean', default: false, label: 'Allow Gift Messages on Order Level' },
  'sales/gift_options/allow_items': { type: 'boolean', default: false, label: 'Allow Gift Messages for Order Items' },
});

// ---- addresses and methods ----

const ADDRESS_REQUIRED = ['firstName', 'lastName', 'street', 'city', 'postcode', 'countryId', 'telephone'] as const;

/** A cart address from the body (Maho's camelCase keys, or the address book's lower-case ones), checked. */
export async function addressFrom(ctx: Ctx, cart: CartRow, body: AddressBodyT): Promise<CartAddress> {
  if (body.customerAddressId !== undefined) {
    if (cart.customerId === null)
      throw badRequest('Only a customer cart can use a saved address', {
        reason: 'INVALID_ADDRESS',
        details: { field: 'customerAddressId' },
      });
    const saved = await getAddress(ctx, cart.customerId, body.customerAddressId).catch(() => {
      throw badRequest(`Address ${body.customerAddressId} is not one of the customer's addresses`, {
        reason: 'INVALID_ADDRESS',
        details: { field: 'customerAddressId' },
      });
    });
    return {
      firstName: saved.firstname,
      lastName: saved.lastname,
      company: saved.company ?? null,
      street: saved.street,
      city: saved.city,
      postcode: saved.postcode ?? '',
      countryId: saved.countryId,
      region: saved.region ?? null,
      regionId: saved.regionId ?? null,
      telephone: saved.telephone,
      email: body.email ?? null,
      customerAddressId: saved.id,
    };
  }
  const street = typeof body.street === 'string' ? body.street.split('\n') : body.street;
  const values = {
    firstName: (body.firstName ?? body.firstname)?.trim(),
    lastName: (body.lastName ?? body.lastname)?.trim(),
    street: street?.map((s) => s.trim()).filter(Boolean),
    city: body.city?.trim(),
    postcode: body.postcode?.trim(),
    countryId: body.countryId?.trim(),
    telephone: body.telephone?.trim(),
  };
  const missing = ADDRESS_REQUIRED.filter((k) => {
    const v = values[k];
    return v === undefined || v === '' || (Array.isArray(v) && !v.length);
  });
  if (missing.length)
    throw badRequest(`Missing required address fields: ${missing.join(', ')}`, { reason: 'INVALID_ADDRESS', details: { fields: missing } });
  if (body.email !== undefined && !/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(body.email)) {
    throw badRequest('email is not a valid email address', { reason: 'INVALID_ADDRESS', details: { field: 'email' } });
  }
  const loc = resolveAddressLocation(ctx, { countryId: values.countryId!, regionId: body.regionId ?? null, region: body.region ?? null });
  return {
    firstName: values.firstName!,
    lastName: values.lastName!,
    company: body.company?.trim() || null,
    street: values.street!,
    city: values.city!,
    postcode: values.postcode!,
    countryId: loc.countryId,
    region: loc.region,
    regionId: loc.regionId,
    telephone: values.telephone!,
    email: body.email ?? null,
  };
}

async function updateCart(ctx: Ctx, ref: CartRef, change: (cart: CartRow, cctx: Ctx) => Promise<Partial<CartRow>>): Promise<CartDto> {
  const cart = await requireCart(ctx, ref);
  requireActive(cart);
  const cctx = cartContext(ctx, cart);
  const set = await change(cart, cctx);
  await cartTx(ctx, async (tx) => {
    await lockCart(tx, cart.id);
    await tx.db
      .update(carts)
      .set({ ...set, updatedAt: tx.now })
      .where(eq(carts.id, cart.id));
  });
  return view(ctx, cart.id);
}

function guestEmail(cart: CartRow, address: CartAddress): Partial<CartRow> {
  return cart.customerId === null && address.email ? { customerEmail: address.email } : {};
}

export function setShippingAddress(ctx: Ctx, ref: CartRef, body: AddressBodyT): Promise<CartDto> {
  return updateCart(ctx, ref, async (cart, cctx) => {
    const address = await addressFrom(cctx, cart, body);
    return { shippingAddress: address, ...guestEmail(cart, address) };
  });
}

export function setBillingAddress(ctx: Ctx, ref: CartRef, body: AddressBodyT): Promise<CartDto> {
  return updateCart(ctx, ref, async (cart, cctx) => {
    if (body.sameAsShipping) {
      if (!cart.shippingAddress)
        throw badRequest('The cart has no shipping address to copy', { reason: 'INVALID_ADDRESS', details: { field: 'sameAsShipping' } });
      return { billingAddress: cart.shippingAddress };
    }
    const address = await addressFrom(cctx, cart, body);
    return { billingAddress: address, ...guestEmail(cart, address) };
  });
}

/** The shipping rates for the cart's address (or the one sent, which becomes the cart's shipping address). */
export async function estimateShipping(
  ctx: Ctx,
  ref: CartRef,
  body: { address?: AddressBodyT },
): Promise<{ ctx: Ctx; priced: PricedCart }> {
  if (body.address) await setShippingAddress(ctx, ref, body.address);
  return pricedCart(ctx, ref);
}

export function setShippingMethod(ctx: Ctx, ref: CartRef, body: { carrierCode?: string; methodCode?: string }): Promise<CartDto> {
  return updateCart(ctx, ref, async (cart, cctx) => {
    if (!body.carrierCode || !body.methodCode) {
      throw badRequest('carrierCode and methodCode are required', {
        reason: 'VALIDATION_FAILED',
        details: { fields: ['carrierCode', 'methodCode'].filter((k) => !body[k as 'carrierCode']) },
      });
    }
    if (!cart.shippingAddress) throw badRequest('Set a shipping address first', { reason: 'SHIPPING_ADDRESS_MISSING' });
    const code = `${body.carrierCode}_${body.methodCode}`;
    const priced = await priceCart(cctx, cart, await itemsOf(ctx, cart.id));
    if (priced.isVirtual) throw badRequest('This cart holds only virtual items and needs no shipping', { reason: 'NO_SHIPPING_NEEDED' });
    if (!priced.shippingRates.some((r) => r.code === code)) {
      throw badRequest(`Shipping method ${code} is not available for this address`, { reason: 'SHIPPING_METHOD_UNAVAILABLE' });
    }
    return { shippingMethod: code };
  });
}

export function setPaymentMethod(
  ctx: Ctx,
  ref: CartRef,
  body: { methodCode?: string; code?: string; additionalData?: Record<string, unknown> },
): Promise<CartDto> {
  return updateCart(ctx, ref, async (cart, cctx) => {
    const code = body.methodCode ?? body.code;
    if (!code) throw badRequest('methodCode is required', { reason: 'VALIDATION_FAILED', details: { field: 'methodCode' } });
    const priced = await priceCart(cctx, cart, await itemsOf(ctx, cart.id));
    const methods = availablePaymentMethods(cctx, {
      storeId: cart.storeId,
      countryId: cart.billingAddress?.countryId ?? cart.shippingAddress?.countryId ?? null,
      baseGrandTotal: priced.base.grandTotal,
    });
    if (!methods.some((m) => m.code === code))
      throw badRequest(`Payment method ${code} is not available for this cart`, { reason: 'PAYMENT_METHOD_UNAVAILABLE' });
    return { paymentMethod: code, paymentData: validatePaymentData(cctx, code, body.additionalData) };
  });
}

// ---- gift messages ----

function requireGiftOption(ctx: Ctx, cart: CartRow, path: 'allow_order' | 'allow_items'): void {
  if (!ctx.app.settings.getBool(`sales/gift_options/${path}`, cart.storeId)) {
    throw badRequest(path === 'allow_order' ? 'Gift messages are not enabled for orders' : 'Gift messages are not enabled for items', {
      reason: 'GIFT_MESSAGES_DISABLED',
    });
  }
}

export function setGiftMessage(ctx: Ctx, ref: CartRef, message: GiftMessage | null): Promise<CartDto> {
  return updateCart(ctx, ref, async (cart) => {
    requireGiftOption(ctx, cart, 'allow_order');
    return { giftMessage: message };
  });
}

export async function setItemGiftMessage(ctx: Ctx, ref: CartRef, itemId: number, message: GiftMessage | null): Promise<CartDto> {
  const cart = await requireCart(ctx, ref);
  requireActive(cart);
  requireGiftOption(ctx, cart, 'allow_items');
  await cartTx(ctx, async (tx) => {
    await lockCart(tx, cart.id);
    const done = await tx.db
      .update(cartItems)
      .set({ giftMessage: message })
      .where(and(eq(cartItems.id, itemId), eq(cartItems.cartId, cart.id)))
      .returning({ id: cartItems.id });
    if (!done.length) throw notFound('Cart item not found', { reason: 'CART_ITEM_NOT_FOUND' });
    await touch(tx, cart.id);
  });
  return view(ctx, cart.id);
}
