/**
 * A cart is never charged other than it was shown without the shopper being told. Each time a cart is shown
 * (every answer that carries its prices), what lowered its price is recorded on the cart: the coupon whose
 * discount it showed, each gift card's balance and the amount taken from it, and a selected shipping method
 * that cost nothing. Placing the order prices the cart again; when one of those no longer applies, or a gift
 * card's balance fell so that it covers less, the placement is refused with 409 and a reason code, and nothing
 * is written. Reading the cart again shows (and records) the new prices, so a retry after that re-read is
 * placed at the price the shopper last saw.
 *
 * Only reductions are promised: a catalog price that changed since, or a card that now covers more, does not
 * refuse a placement (the client that wants the total pinned sends `expectedGrandTotal`).
 */
import { and, eq, sql } from 'drizzle-orm';
import type { Ctx } from '../../platform/context.js';
import { conflict, type AppError } from '../../platform/errors.js';
import { dec, toWire, type Decimal } from '../../platform/money.js';
import type { PricedCart } from './pricing.js';
import { carts, type PricedWith } from './tables.js';

const key = (code: string) => code.toUpperCase();

/** What lowered the price of a priced cart, as it is recorded ({} when nothing did). */
export function pricedWithOf(p: PricedCart): PricedWith {
  const out: PricedWith = {};
  if (p.rule && p.totals.discountApplied) out.coupon = p.rule.code;
  const cards = p.base.giftcards.filter((g) => g.balance.gt(0));
  if (cards.length) {
    out.giftcards = Object.fromEntries(
      cards.map((g) => [key(g.code), { balance: g.balance.toFixed(4), applied: g.appliedAmount.toFixed(4) }]),
    );
  }
  if (p.selectedRate && p.base.shippingAmount.isZero()) out.freeShipping = p.selectedRate.code;
  return out;
}

/** The same value whatever the key order (jsonb reorders keys). */
function canonical(v: unknown): string {
  if (v === null || v === undefined) return 'null';
  if (typeof v !== 'object') return JSON.stringify(v);
  if (Array.isArray(v)) return `[${v.map(canonical).join(',')}]`;
  const o = v as Record<string, unknown>;
  return `{${Object.keys(o)
    .filter((k) => o[k] !== undefined)
    .sort()
    .map((k) => `${JSON.stringify(k)}:${canonical(o[k])}`)
    .join(',')}}`;
}

/**
 * Records what the shown cart was priced with, when it differs from what the cart holds (for most carts it
 * stays {} and nothing is written). `p` must be priced from the cart as it is stored.
 */
export async function rememberPricing(ctx: Ctx, p: PricedCart): Promise<void> {
  if (!p.cart.isActive) return;
  const now = pricedWithOf(p);
  if (canonical(now) === canonical(p.cart.pricedWith ?? null)) return;
  await ctx.db
    .update(carts)
    .set({ pricedWith: now })
    .where(and(eq(carts.id, p.cart.id), eq(carts.isActive, true)));
  p.cart.pricedWith = now;
}

/** Forgets the promise of a coupon or gift card the shopper removed (inside the removal's transaction). */
export async function forgetReduction(ctx: Ctx, cartId: number, what: { coupon: true } | { giftcard: string }): Promise<void> {
  const path = 'coupon' in what ? sql`'{coupon}'::text[]` : sql`ARRAY['giftcards', ${key(what.giftcard)}]::text[]`;
  await ctx.db.execute(sql`UPDATE carts SET priced_with = priced_with #- ${path} WHERE id = ${cartId} AND priced_with IS NOT NULL`);
}

const money = (d: Decimal | string) => toWire(dec(d));

/**
 * The refusal of a placement whose re-priced cart breaks what the cart was last shown with, if it does.
 * `p` is the cart priced for placement (with the placement's own details applied).
 */
export function brokenPromise(p: PricedCart): AppError | undefined {
  // a cart last shown before promises were recorded (null): its coupon at least must still be valid
  const was = p.cart.pricedWith ?? (p.cart.couponCode ? { coupon: p.cart.couponCode } : {});
  if (was.coupon && !(p.rule && p.totals.discountApplied && key(p.rule.code) === key(was.coupon))) {
    return couponNoLongerValid(was.coupon, p.couponRefusal ?? 'The coupon no longer applies to this cart');
  }
  const held = new Set(p.cart.giftcardCodes.map(key));
  for (const [code, shown] of Object.entries(was.giftcards ?? {})) {
    if (!held.has(code)) continue;
    const now = p.base.giftcards.find((g) => key(g.code) === code);
    const balance = now?.balance ?? dec(0);
    const applied = now?.appliedAmount ?? dec(0);
    if (balance.lt(shown.balance) && applied.lt(shown.applied)) {
      return giftcardNoLongerValid(
        code,
        now ? `Gift card ${code} now has a balance of ${balance.toFixed(2)}` : `Gift card ${code} can no longer be used`,
        {
          shownBalance: money(shown.balance),
          shownAppliedAmount: money(shown.applied),
          balance: money(balance),
          appliedAmount: money(applied),
        },
      );
    }
  }
  if (was.freeShipping && p.cart.shippingMethod === was.freeShipping && !(p.selectedRate && p.base.shippingAmount.isZero())) {
    return conflict(`Free shipping (${was.freeShipping}) no longer applies to this cart`, {
      error: 'free_shipping_no_longer_valid',
      reason: 'FREE_SHIPPING_NO_LONGER_VALID',
      details: { shippingMethod: was.freeShipping, available: !!p.selectedRate },
    });
  }
  return undefined;
}

export function couponNoLongerValid(code: string, why: string): AppError {
  return conflict(`Coupon ${code} is no longer valid: ${why}`, {
    error: 'coupon_no_longer_valid',
    reason: 'COUPON_NO_LONGER_VALID',
    details: { couponCode: code },
  });
}

export function giftcardNoLongerValid(code: string, why: string, details: Record<string, unknown> = {}): AppError {
  return conflict(why, {
    error: 'giftcard_no_longer_valid',
    reason: 'GIFTCARD_NO_LONGER_VALID',
    details: { giftcardCode: code, ...details },
  });
}

/** 409 totals_changed when the client pinned a grand total (in the cart's currency) that re-pricing does not give. */
export function totalsChanged(p: PricedCart, expected: number | undefined): AppError | undefined {
  if (expected === undefined || dec(expected).eq(p.totals.grandTotal)) return undefined;
  return conflict(`The grand total is now ${p.totals.grandTotal.toFixed(2)}, not ${dec(expected).toFixed(2)}`, {
    error: 'totals_changed',
    reason: 'TOTALS_CHANGED',
    details: { expectedGrandTotal: expected, grandTotal: toWire(p.totals.grandTotal), currency: p.cart.currency },
  });
}
