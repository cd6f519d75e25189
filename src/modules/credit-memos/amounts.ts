/**
 * The money of a credit memo, computed from the order without touching the database: per item pro-rated
 * from the order item by qty / qtyOrdered, the last refund of an item taking exactly what is left of what was
 * invoiced (so the refunded counters add up to the invoiced ones and never drift); shipping, its tax and its
 * discount pro-rated the same way; the totals; and how the total splits between cash and gift cards.
 */
import { dec, roundMoney, type Decimal } from '../../platform/money.js';
import type { OrderItemRow, OrderRow } from '../orders/core.js';

const ZERO = dec(0);

const min = (a: Decimal, b: Decimal) => (a.lt(b) ? a : b);
const atLeastZero = (a: Decimal) => (a.isNegative() ? ZERO : a);

/** What earlier (not canceled) credit memos of the order took, where the order keeps no counter of its own. */
export interface PriorRefunds {
  /** per order item id */
  rowTotalInclTax: Map<number, { amount: Decimal; base: Decimal }>;
  shippingTaxAmount: Decimal;
  baseShippingTaxAmount: Decimal;
  /** the discount refunded on shipping (memo discount less its items' discounts) */
  shippingDiscount: Decimal;
  baseShippingDiscount: Decimal;
  /** how many credit memos the order has */
  count: number;
}

/** One refunded line, in the order currency and (base*) in the base currency. */
export interface ItemRefund {
  item: OrderItemRow;
  qty: Decimal;
  backToStock: boolean;
  rowTotal: Decimal;
  baseRowTotal: Decimal;
  taxAmount: Decimal;
  baseTaxAmount: Decimal;
  discountAmount: Decimal;
  baseDiscountAmount: Decimal;
  rowTotalInclTax: Decimal;
  baseRowTotalInclTax: Decimal;
}

/** What is still refundable of an item: invoiced and not yet refunded. */
export function refundableQty(item: OrderItemRow): Decimal {
  return atLeastZero(dec(item.qtyInvoiced).sub(item.qtyRefunded));
}

/**
 * The money of refunding `qty` of an item (the caller has checked 0 < qty ≤ refundableQty). A refund that
 * leaves nothing invoiced unrefunded takes what is left: row, tax and discount invoiced less refunded; the
 * incl-tax row total, which the order does not count, takes the invoiced share less what earlier memos took.
 */
export function itemRefund(item: OrderItemRow, qty: Decimal, backToStock: boolean, prior: PriorRefunds): ItemRefund {
  const ordered = dec(item.qtyOrdered);
  const share = (v: string) => (ordered.isZero() ? ZERO : roundMoney(dec(v).mul(qty).div(ordered)));
  const last = dec(item.qtyRefunded).add(qty).gte(item.qtyInvoiced);
  if (!last) {
    return {
      item,
      qty,
      backToStock,
      rowTotal: share(item.rowTotal),
      baseRowTotal: share(item.baseRowTotal),
      taxAmount: share(item.taxAmount),
      baseTaxAmount: share(item.baseTaxAmount),
      discountAmount: share(item.discountAmount),
      baseDiscountAmount: share(item.baseDiscountAmount),
      rowTotalInclTax: share(item.rowTotalInclTax),
      baseRowTotalInclTax: share(item.baseRowTotalInclTax),
    };
  }
  const invoicedShare = (v: string) => (ordered.isZero() ? ZERO : roundMoney(dec(v).mul(item.qtyInvoiced).div(ordered)));
  const before = prior.rowTotalInclTax.get(item.id) ?? { amount: ZERO, base: ZERO };
  return {
    item,
    qty,
    backToStock,
    rowTotal: atLeastZero(dec(item.rowInvoiced).sub(item.amountRefunded)),
    baseRowTotal: atLeastZero(dec(item.baseRowInvoiced).sub(item.baseAmountRefunded)),
    taxAmount: atLeastZero(dec(item.taxInvoiced).sub(item.taxRefunded)),
    baseTaxAmount: atLeastZero(dec(item.baseTaxInvoiced).sub(item.baseTaxRefunded)),
    discountAmount: atLeastZero(dec(item.discountInvoiced).sub(item.discountRefunded)),
    baseDiscountAmount: atLeastZero(dec(item.baseDiscountInvoiced).sub(item.baseDiscountRefunded)),
    rowTotalInclTax: atLeastZero(invoicedShare(item.rowTotalInclTax).sub(before.amount)),
    baseRowTotalInclTax: atLeastZero(invoicedShare(item.baseRowTotalInclTax).sub(before.base)),
  };
}

/** Shipping still refundable: invoiced less refunded (order currency and base). */
export function refundableShipping(order: OrderRow): { amount: Decimal; base: Decimal } {
  return {
    amount: atLeastZero(dec(order.shippingInvoiced).sub(order.shippingRefunded)),
    base: atLeastZero(dec(order.baseShippingInvoiced).sub(order.baseShippingRefunded)),
  };
}

export interface ShippingRefund {
  amount: Decimal;
  base: Decimal;
  tax: Decimal;
  baseTax: Decimal;
  discount: Decimal;
  baseDiscount: Decimal;
}

/**
 * Refunding `amount` of shipping (0 ≤ amount ≤ refundableShipping, checked by the caller): its base amount,
 * and the shipping tax and shipping discount pro-rated by amount / the order's shipping amount; the refund
 * that completes the order's shipping takes what earlier memos left of both.
 */
export function shippingRefund(order: OrderRow, items: OrderItemRow[], amount: Decimal, prior: PriorRefunds): ShippingRefund {
  const total = dec(order.shippingAmount);
  if (amount.isZero() || total.isZero()) return { amount: ZERO, base: ZERO, tax: ZERO, baseTax: ZERO, discount: ZERO, baseDiscount: ZERO };
  const left = refundableShipping(order);
  // the discount on shipping: what the order's discount holds beyond its items' discounts
  const shipDiscount = atLeastZero(items.reduce((d, i) => d.sub(i.discountAmount), dec(order.discountAmount)));
  const baseShipDiscount = atLeastZero(items.reduce((d, i) => d.sub(i.baseDiscountAmount), dec(order.baseDiscountAmount)));
  const completes = dec(order.shippingRefunded).add(amount).gte(total);
  if (completes) {
    return {
      amount,
      base: left.base,
      tax: atLeastZero(dec(order.shippingTaxAmount).sub(prior.shippingTaxAmount)),
      baseTax: atLeastZero(dec(order.baseShippingTaxAmount).sub(prior.baseShippingTaxAmount)),
      discount: atLeastZero(shipDiscount.sub(prior.shippingDiscount)),
      baseDiscount: atLeastZero(baseShipDiscount.sub(prior.baseShippingDiscount)),
    };
  }
  const share = (v: Decimal.Value) => roundMoney(dec(v).mul(amount).div(total));
  return {
    amount,
    base: amount.eq(left.amount) ? left.base : min(share(order.baseShippingAmount), left.base),
    tax: share(order.shippingTaxAmount),
    baseTax: share(order.baseShippingTaxAmount),
    discount: share(shipDiscount),
    baseDiscount: share(baseShipDiscount),
  };
}

/** The totals of a credit memo, as its columns name them. */
export interface MemoTotals {
  subtotal: Decimal;
  baseSubtotal: Decimal;
  subtotalInclTax: Decimal;
  baseSubtotalInclTax: Decimal;
  taxAmount: Decimal;
  baseTaxAmount: Decimal;
  shippingAmount: Decimal;
  baseShippingAmount: Decimal;
  shippingInclTax: Decimal;
  baseShippingInclTax: Decimal;
  shippingTaxAmount: Decimal;
  baseShippingTaxAmount: Decimal;
  discountAmount: Decimal;
  baseDiscountAmount: Decimal;
  adjustmentPositive: Decimal;
  baseAdjustmentPositive: Decimal;
  adjustmentNegative: Decimal;
  baseAdjustmentNegative: Decimal;
  grandTotal: Decimal;
  baseGrandTotal: Decimal;
}

/** An order-currency amount in the base currency (order amount / baseToOrderRate), rounded. */
export function toBase(order: OrderRow, amount: Decimal): Decimal {
  const rate = dec(order.baseToOrderRate);
  return rate.isZero() || rate.eq(1) ? amount : roundMoney(amount.div(rate));
}

/** grandTotal = subtotal + shipping + tax − discount + adjustmentPositive − adjustmentNegative (and base). */
export function memoTotals(
  order: OrderRow,
  lines: ItemRefund[],
  ship: ShippingRefund,
  adjustmentPositive: Decimal,
  adjustmentNegative: Decimal,
): MemoTotals {
  const sum = (f: (l: ItemRefund) => Decimal) => lines.reduce((s, l) => s.add(f(l)), ZERO);
  const subtotal = sum((l) => l.rowTotal);
  const baseSubtotal = sum((l) => l.baseRowTotal);
  const taxAmount = sum((l) => l.taxAmount).add(ship.tax);
  const baseTaxAmount = sum((l) => l.baseTaxAmount).add(ship.baseTax);
  const discountAmount = sum((l) => l.discountAmount).add(ship.discount);
  const baseDiscountAmount = sum((l) => l.baseDiscountAmount).add(ship.baseDiscount);
  const baseAdjustmentPositive = toBase(order, adjustmentPositive);
  const baseAdjustmentNegative = toBase(order, adjustmentNegative);
  return {
    subtotal,
    baseSubtotal,
    subtotalInclTax: sum((l) => l.rowTotalInclTax),
    baseSubtotalInclTax: sum((l) => l.baseRowTotalInclTax),
    taxAmount,
    baseTaxAmount,
    shippingAmount: ship.amount,
    baseShippingAmount: ship.base,
    shippingInclTax: ship.amount.add(ship.tax),
    baseShippingInclTax: ship.base.add(ship.baseTax),
    shippingTaxAmount: ship.tax,
    baseShippingTaxAmount: ship.baseTax,
    discountAmount,
    baseDiscountAmount,
    adjustmentPositive,
    baseAdjustmentPositive,
    adjustmentNegative,
    baseAdjustmentNegative,
    grandTotal: subtotal.add(ship.amount).add(taxAmount).sub(discountAmount).add(adjustmentPositive).sub(adjustmentNegative),
    baseGrandTotal: baseSubtotal
      .add(ship.base)
      .add(baseTaxAmount)
      .sub(baseDiscountAmount)
      .add(baseAdjustmentPositive)
      .sub(baseAdjustmentNegative),
  };
}

/** A gift card of the order with what is still to give back to it (base currency). */
export interface GiftcardLeft {
  code: string;
  baseLeft: Decimal;
}

/** What can still be refunded, and of it what went through payment (cash) and what gift cards paid. */
export interface Refundable {
  cash: Decimal;
  baseCash: Decimal;
  giftcards: GiftcardLeft[];
  gift: Decimal;
  baseGift: Decimal;
  total: Decimal;
}

export function refundable(order: OrderRow): Refundable {
  const cash = atLeastZero(dec(order.totalPaid).sub(order.totalRefunded));
  const baseCash = atLeastZero(dec(order.baseTotalPaid).sub(order.baseTotalRefunded));
  const rate = dec(order.baseToOrderRate);
  const giftcards = order.giftcards.map((g) => ({ code: g.code, baseLeft: atLeastZero(dec(g.baseAmount).sub(g.baseRefunded ?? 0)) }));
  const baseGift = giftcards.reduce((s, g) => s.add(g.baseLeft), ZERO);
  const gift = order.giftcards.reduce((s, g, i) => {
    const left = giftcards[i].baseLeft;
    // a card nothing was given back to yet: exactly what it paid in the order currency
    return s.add(dec(g.baseRefunded ?? 0).isZero() ? dec(g.amount) : roundMoney(left.mul(rate.isZero() ? 1 : rate)));
  }, ZERO);
  return { cash, baseCash, giftcards, gift, baseGift, total: cash.add(gift) };
}

/** How a memo's total is paid back: the cash left first, the rest to the gift cards (last applied first). */
export interface RefundSplit {
  cash: Decimal;
  baseCash: Decimal;
  /** per card code, in the base currency */
  toCards: { code: string; base: Decimal }[];
}

export function splitRefund(order: OrderRow, left: Refundable, grandTotal: Decimal, baseGrandTotal: Decimal): RefundSplit {
  const cash = min(grandTotal, left.cash);
  const baseCash = cash.eq(left.cash) ? left.baseCash : min(toBase(order, cash), left.baseCash);
  let baseGift = grandTotal.sub(cash).isZero() ? ZERO : min(atLeastZero(baseGrandTotal.sub(baseCash)), left.baseGift);
  const toCards: { code: string; base: Decimal }[] = [];
  for (const card of [...left.giftcards].reverse()) {
    if (baseGift.lte(0)) break;
    const take = min(card.baseLeft, baseGift);
    if (take.gt(0)) toCards.push({ code: card.code, base: take });
    baseGift = baseGift.sub(take);
  }
  return { cash, baseCash, toCards };
}
