/**
 * What lowers a cart's price: its coupon and its gift cards, applied and removed; and the coupon preview the
 * carts module contributes to POST /coupons/validate (AppModule.discountPreview).
 */
import { eq } from 'drizzle-orm';
import type { Ctx, DiscountPreview } from '../../platform/context.js';
import { badRequest } from '../../platform/errors.js';
import { toWire } from '../../platform/money.js';
import { couponForCart, limitCouponAttempts } from '../coupons/validation.js';
import { pricingGroup } from '../customers/groups-service.js';
import { limitGiftcardAttempts } from '../giftcards/service.js';
import { usableGiftcard } from '../giftcards/spend.js';
import { cartTx, findCart, isBackend, itemsOf, lockCart, MASKED, requireActive, requireCart, view, type CartRef } from './load.js';
import { cartContext, priceCart } from './pricing.js';
import { forgetReduction } from './promise.js';
import type { CartDto } from './schemas.js';
import { carts } from './tables.js';

export async function applyCoupon(ctx: Ctx, ref: CartRef, body: { couponCode?: string; code?: string }): Promise<CartDto> {
  const code = (body.couponCode ?? body.code ?? '').trim();
  if (!code) throw badRequest('couponCode is required', { reason: 'VALIDATION_FAILED', details: { field: 'couponCode' } });
  const cart = await requireCart(ctx, ref);
  requireActive(cart);
  // shares the budget of /coupons/validate: both can probe codes
  if (!isBackend(ctx)) await limitCouponAttempts(ctx);
  const cctx = cartContext(ctx, cart);
  const group = await pricingGroup(cctx, { customerId: cart.customerId, groupId: cart.customerGroupId });
  const found = await couponForCart(cctx, code, {
    customerId: cart.customerId,
    customerGroupId: group.groupId,
    websiteId: cctx.store.websiteId,
  });
  if (!found.ok) throw badRequest(found.message, { error: 'invalid_coupon', reason: 'INVALID_COUPON' });
  // a rule whose conditions the cart does not meet (its minimum subtotal) is refused too
  const priced = await priceCart(cctx, { ...cart, couponCode: found.rule.code }, await itemsOf(ctx, cart.id));
  if (!priced.totals.discountApplied) {
    const min = found.rule.minimumSubtotal;
    throw badRequest(min ? `The coupon needs a subtotal of at least ${min.toFixed(2)}` : 'The coupon does not apply to this cart', {
      error: 'invalid_coupon',
      reason: 'COUPON_NOT_APPLICABLE',
    });
  }
  await cartTx(ctx, async (tx) => {
    await lockCart(tx, cart.id);
    await tx.db.update(carts).set({ couponCode: found.rule.code, updatedAt: tx.now }).where(eq(carts.id, cart.id));
  });
  return view(ctx, cart.id);
}

export async function removeCoupon(ctx: Ctx, ref: CartRef): Promise<void> {
  const cart = await requireCart(ctx, ref);
  requireActive(cart);
  await cartTx(ctx, async (tx) => {
    await lockCart(tx, cart.id);
    await tx.db.update(carts).set({ couponCode: null, updatedAt: tx.now }).where(eq(carts.id, cart.id));
    await forgetReduction(tx, cart.id, { coupon: true });
  });
}

export async function applyGiftcard(ctx: Ctx, ref: CartRef, body: { giftcardCode?: string; code?: string }): Promise<CartDto> {
  const code = (body.giftcardCode ?? body.code ?? '').trim();
  if (!code) throw badRequest('giftcardCode is required', { reason: 'VALIDATION_FAILED', details: { field: 'giftcardCode' } });
  const cart = await requireCart(ctx, ref);
  requireActive(cart);
  // shares the budget of the GraphQL balance check: both can probe codes
  if (!isBackend(ctx)) await limitGiftcardAttempts(ctx);
  const card = await usableGiftcard(cartContext(ctx, cart), code);
  await cartTx(ctx, async (tx) => {
    const locked = await lockCart(tx, cart.id);
    if (locked.giftcardCodes.some((c) => c.toUpperCase() === card.code.toUpperCase())) {
      throw badRequest(`Gift card ${card.code} is already applied to this cart`, { reason: 'GIFTCARD_ALREADY_APPLIED' });
    }
    if (locked.giftcardCodes.length >= 10) throw badRequest('A cart takes at most 10 gift cards', { reason: 'TOO_MANY_GIFTCARDS' });
    await tx.db
      .update(carts)
      .set({ giftcardCodes: [...locked.giftcardCodes, card.code], updatedAt: tx.now })
      .where(eq(carts.id, cart.id));
  });
  return view(ctx, cart.id);
}

export async function removeGiftcard(ctx: Ctx, ref: CartRef, code: string): Promise<void> {
  const cart = await requireCart(ctx, ref);
  requireActive(cart);
  await cartTx(ctx, async (tx) => {
    const locked = await lockCart(tx, cart.id);
    const left = locked.giftcardCodes.filter((c) => c.toUpperCase() !== code.trim().toUpperCase());
    if (left.length === locked.giftcardCodes.length)
      throw badRequest(`Gift card ${code} is not applied to this cart`, { reason: 'GIFTCARD_NOT_APPLIED' });
    await tx.db.update(carts).set({ giftcardCodes: left, updatedAt: tx.now }).where(eq(carts.id, cart.id));
    await forgetReduction(tx, cart.id, { giftcard: code.trim() });
  });
}

/**
 * What a coupon would take off a cart (POST /coupons/validate with cartId): the cart priced as if the code
 * were applied. The cart is named by its numeric id (the caller's own, or any for the back office) or by a
 * guest cart's masked id; any other is refused with 400 "Cart not accessible".
 */
export const previewCoupon: DiscountPreview = async (ctx, cartId, couponCode) => {
  const text = String(cartId).trim();
  const ref: CartRef = MASKED.test(text)
    ? { kind: 'guest', maskedId: text }
    : { kind: 'customer', id: /^[0-9]{1,10}$/.test(text) ? Number(text) : 0 };
  const cart =
    ref.kind === 'customer' && (!Number.isInteger(ref.id) || ref.id < 1 || ref.id > 2147483647) ? undefined : await findCart(ctx, ref);
  if (!cart) throw badRequest('Cart not accessible', { reason: 'CART_NOT_ACCESSIBLE', details: { field: 'cartId' } });
  const cctx = cartContext(ctx, cart);
  const priced = await priceCart(cctx, { ...cart, couponCode }, await itemsOf(ctx, cart.id));
  return {
    discountAmount: toWire(priced.totals.discountAmount),
    subtotal: toWire(priced.totals.subtotal),
    grandTotal: toWire(priced.totals.grandTotal),
    currency: cart.currency,
  };
};
