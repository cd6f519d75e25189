/**
 * The discount a cart price rule gives a cart: a pure function over Decimals, so that the carts module can
 * call it on every totals collection and tests can check it by hand. Each line's discount is rounded to the
 * currency's minor unit and never exceeds the line's row total.
 */
import { dec, roundMoney, type Decimal } from '../../platform/money.js';

export type RuleAction = 'by_percent' | 'by_fixed' | 'cart_fixed' | 'buy_x_get_y';

/** A rule as the carts and orders modules apply it (from couponForCart). */
export interface CartRule {
  couponId: number;
  ruleId: number;
  /** the stored spelling */
  code: string;
  ruleName: string;
  action: RuleAction;
  /** percent (by_percent); base-currency amount (by_fixed, cart_fixed); Y, the free units (buy_x_get_y) */
  discountAmount: Decimal;
  /** most units of an item discounted; null: all */
  discountQty: Decimal | null;
  /** buy_x_get_y: X, the units to buy */
  discountStep: number;
  /** base subtotal the cart must reach; null: none */
  minimumSubtotal: Decimal | null;
  /** 0 no, 1 matching items ship free, 2 the whole shipment ships free */
  simpleFreeShipping: number;
  applyToShipping: boolean;
}

export interface DiscountLine {
  id: number;
  qty: Decimal;
  /** unit price the discount applies to, in the cart currency */
  price: Decimal;
}

export interface DiscountResult {
  /** discount by line id (every line given, 0 when none) */
  lines: Map<number, Decimal>;
  shipping: Decimal;
  total: Decimal;
  freeShipping: 0 | 1 | 2;
}

export interface DiscountOptions {
  /** base → cart currency; 1 for base */
  rate: Decimal;
  /** shipping amount in the cart currency */
  shippingAmount: Decimal;
  /** the cart's subtotal in base currency (minimumSubtotal is compared with it) */
  baseSubtotal: Decimal;
}

const ZERO = dec(0);

function positive(v: Decimal): Decimal {
  return v.isFinite() && v.gt(0) ? v : ZERO;
}

function freeShippingOf(v: number): 0 | 1 | 2 {
  return v === 1 || v === 2 ? v : 0;
}

export function computeDiscount(rule: CartRule, lines: DiscountLine[], opts: DiscountOptions): DiscountResult {
  const result: DiscountResult = { lines: new Map(lines.map((l) => [l.id, ZERO])), shipping: ZERO, total: ZERO, freeShipping: 0 };
  if (rule.minimumSubtotal !== null && opts.baseSubtotal.lt(rule.minimumSubtotal)) return result;
  result.freeShipping = freeShippingOf(rule.simpleFreeShipping);

  const rate = positive(opts.rate);
  const amount = positive(rule.discountAmount);
  const cap = rule.discountQty !== null && rule.discountQty.gt(0) ? rule.discountQty : null;
  const shippingAmount = positive(opts.shippingAmount);
  const items = lines.map((l) => {
    const qty = positive(l.qty);
    const price = positive(l.price);
    const units = cap && cap.lt(qty) ? cap : qty;
    return { id: l.id, qty, price, units, rowTotal: qty.mul(price) };
  });
  const set = (id: number, raw: Decimal, rowTotal: Decimal) => {
    const d = roundMoney(minOf(positive(raw), rowTotal));
    result.lines.set(id, d);
    return d;
  };

  switch (rule.action) {
    case 'by_percent': {
      const pct = minOf(amount, dec(100));
      for (const it of items) set(it.id, it.units.mul(it.price).mul(pct).div(100), it.rowTotal);
      if (rule.applyToShipping) result.shipping = roundMoney(shippingAmount.mul(pct).div(100));
      break;
    }
    case 'by_fixed': {
      const perUnit = amount.mul(rate);
      for (const it of items) set(it.id, it.units.mul(minOf(perUnit, it.price)), it.rowTotal);
      break;
    }
    case 'cart_fixed': {
      const full = roundMoney(amount.mul(rate));
      const eligible = items.filter((it) => it.units.mul(it.price).gt(0));
      const base = eligible.reduce((s, it) => s.add(it.units.mul(it.price)), ZERO);
      const onLines = minOf(full, roundMoney(base));
      let given = ZERO;
      eligible.forEach((it, i) => {
        const share = i === eligible.length - 1 ? onLines.sub(given) : onLines.mul(it.units.mul(it.price)).div(base);
        given = given.add(set(it.id, minOf(share, it.units.mul(it.price)), it.rowTotal));
      });
      if (rule.applyToShipping) result.shipping = roundMoney(minOf(positive(full.sub(given)), shippingAmount));
      break;
    }
    case 'buy_x_get_y': {
      const x = Math.max(0, Math.trunc(rule.discountStep));
      const y = amount.floor();
      const group = y.add(x);
      if (y.lte(0)) break;
      for (const it of items) {
        let free = it.qty.div(group).floor().mul(y);
        if (cap && cap.lt(free)) free = cap;
        set(it.id, free.mul(it.price), it.rowTotal);
      }
      break;
    }
  }
  let total = result.shipping;
  for (const d of result.lines.values()) total = total.add(d);
  result.total = total;
  return result;
}

function minOf(a: Decimal, b: Decimal): Decimal {
  return a.lt(b) ? a : b;
}
