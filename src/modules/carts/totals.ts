/**
 * The totals pipeline: one pure function turns priced lines, the cart rule, the shipping price and the gift
 * cards into every amount a cart (and later its order) shows. Collectors run in a fixed order:
 *
 *   subtotal → shipping → discount → tax → gift cards → grand total
 *
 * (shipping comes before the discount so that a rule can discount it too).
 *
 * Rounding (the one place it is decided): unit prices are converted to the cart's currency and rounded to its
 * precision (2 places, half away from zero); every row amount (row total, row discount, row tax) and the
 * shipping amounts are rounded when computed; totals are sums of rounded rows, so rows always add up to them.
 *
 * Tax: a catalog price excludes tax unless `priceIncludesTax`; then it includes the tax of the store's default
 * destination (`originPercent`), which is taken out and the destination's rate (`taxPercent`) put in, so the
 * shopper pays the catalog price wherever the two rates agree. Discounts apply to prices without tax and tax is
 * computed after the discount (`applyAfterDiscount`, the default) or before it. Shipping follows the same rules
 * with `shippingIncludesTax` and the shipping tax class's rates.
 */
import { dec, roundMoney, type Decimal } from '../../platform/money.js';
import { computeDiscount, type CartRule } from '../coupons/discount.js';

export interface TotalsLine {
  id: number;
  qty: Decimal;
  /** unit price in the base currency, as the catalog states it (with tax when priceIncludesTax) */
  basePrice: Decimal;
  /** a back-office price in the cart's currency; replaces the converted base price */
  customPrice?: Decimal | null;
  /** destination tax percent for the line's product tax class (0 when none) */
  taxPercent: Decimal;
  /** the default destination's percent, taken out of tax-inclusive catalog prices */
  originPercent: Decimal;
}

export interface TotalsInput {
  lines: TotalsLine[];
  rule: CartRule | null;
  /** the selected shipping rate's price in the base currency; null: no shipping selected */
  baseShippingPrice: Decimal | null;
  shippingTaxPercent: Decimal;
  shippingOriginPercent: Decimal;
  /** usable gift cards in the order applied, balances in the base currency */
  giftcards: { code: string; baseBalance: Decimal }[];
  priceIncludesTax: boolean;
  shippingIncludesTax: boolean;
  applyAfterDiscount: boolean;
  /** base → cart currency (1 when they are the same) */
  rate: Decimal;
  /** the base subtotal the rule's minimum is judged against (omitted when this run is in the base currency) */
  baseSubtotal?: Decimal;
}

export interface LineTotals {
  price: Decimal;
  priceInclTax: Decimal;
  rowTotal: Decimal;
  rowTotalInclTax: Decimal;
  rowTotalWithDiscount: Decimal;
  discountAmount: Decimal;
  discountPercent: Decimal | null;
  taxAmount: Decimal;
  taxPercent: Decimal;
}

export interface Totals {
  lines: Map<number, LineTotals>;
  subtotal: Decimal;
  subtotalInclTax: Decimal;
  subtotalWithDiscount: Decimal;
  discountAmount: Decimal;
  shippingAmount: Decimal;
  shippingAmountInclTax: Decimal;
  shippingDiscountAmount: Decimal;
  shippingTaxAmount: Decimal;
  /** items and shipping */
  taxAmount: Decimal;
  giftcardAmount: Decimal;
  giftcards: { code: string; appliedAmount: Decimal; balance: Decimal }[];
  grandTotal: Decimal;
  /** the rule's free-shipping setting when it applied (0 none, 1 matching items, 2 whole shipment) */
  freeShipping: 0 | 1 | 2;
  discountApplied: boolean;
}

const ZERO = dec(0);
const HUNDRED = dec(100);

interface State {
  input: TotalsInput;
  net: Map<number, Decimal>;
  out: Totals;
  shipNetUnrounded: Decimal | null;
}

function subtotalCollector(s: State): void {
  const { input, out } = s;
  // a price in the base currency is only rounded (times 1 it is itself: no price has more than 40 digits)
  const same = input.rate.eq(1);
  for (const l of input.lines) {
    const unit = l.customPrice ?? roundMoney(same ? l.basePrice : l.basePrice.mul(input.rate));
    const netUnit = input.priceIncludesTax ? unit.mul(HUNDRED).div(HUNDRED.add(l.originPercent)) : unit;
    s.net.set(l.id, netUnit);
    const rowTotal = roundMoney(netUnit.mul(l.qty));
    const rowTotalInclTax = input.priceIncludesTax
      ? roundMoney(netUnit.mul(HUNDRED.add(l.taxPercent)).div(HUNDRED).mul(l.qty))
      : rowTotal.add(roundMoney(rowTotal.mul(l.taxPercent).div(HUNDRED)));
    out.lines.set(l.id, {
      price: roundMoney(netUnit),
      priceInclTax: roundMoney(netUnit.mul(HUNDRED.add(l.taxPercent)).div(HUNDRED)),
      rowTotal,
      rowTotalInclTax,
      rowTotalWithDiscount: rowTotal,
      discountAmount: ZERO,
      discountPercent: null,
      taxAmount: ZERO,
      taxPercent: l.taxPercent,
    });
    out.subtotal = out.subtotal.add(rowTotal);
    out.subtotalInclTax = out.subtotalInclTax.add(rowTotalInclTax);
  }
}

/** The shipping amounts before any discount (the discount collector may take from them). */
function shippingAmounts(s: State): void {
  const { input, out } = s;
  if (input.baseShippingPrice === null) return;
  const gross = roundMoney(input.baseShippingPrice.mul(input.rate));
  const net = input.shippingIncludesTax ? gross.mul(HUNDRED).div(HUNDRED.add(input.shippingOriginPercent)) : gross;
  s.shipNetUnrounded = net;
  out.shippingAmount = roundMoney(net);
  out.shippingAmountInclTax = input.shippingIncludesTax
    ? roundMoney(net.mul(HUNDRED.add(input.shippingTaxPercent)).div(HUNDRED))
    : out.shippingAmount.add(roundMoney(out.shippingAmount.mul(input.shippingTaxPercent).div(HUNDRED)));
}

function discountCollector(s: State): void {
  const { input, out } = s;
  if (!input.rule) return;
  const result = computeDiscount(
    input.rule,
    input.lines.map((l) => ({ id: l.id, qty: l.qty, price: out.lines.get(l.id)!.price })),
    { rate: input.rate, shippingAmount: out.shippingAmount, baseSubtotal: input.baseSubtotal ?? out.subtotal },
  );
  if (result.total.lte(0) && result.freeShipping === 0) return;
  out.discountApplied = true;
  out.freeShipping = result.freeShipping;
  for (const [id, amount] of result.lines) {
    const line = out.lines.get(id);
    if (!line) continue;
    const d = amount.gt(line.rowTotal) ? line.rowTotal : amount;
    line.discountAmount = d;
    line.rowTotalWithDiscount = line.rowTotal.sub(d);
    if (input.rule.action === 'by_percent')
      line.discountPercent = input.rule.discountAmount.gt(HUNDRED) ? HUNDRED : input.rule.discountAmount;
    out.discountAmount = out.discountAmount.add(d);
  }
  const shipDiscount = result.shipping.gt(out.shippingAmount) ? out.shippingAmount : result.shipping;
  out.shippingDiscountAmount = shipDiscount;
  out.discountAmount = out.discountAmount.add(shipDiscount);
}

function taxCollector(s: State): void {
  const { input, out } = s;
  for (const l of input.lines) {
    const line = out.lines.get(l.id)!;
    const before = line.rowTotalInclTax.sub(line.rowTotal);
    if (!input.applyAfterDiscount) line.taxAmount = before;
    else if (input.priceIncludesTax) line.taxAmount = before.sub(roundMoney(line.discountAmount.mul(l.taxPercent).div(HUNDRED)));
    else line.taxAmount = roundMoney(line.rowTotalWithDiscount.mul(l.taxPercent).div(HUNDRED));
    if (line.taxAmount.lt(0)) line.taxAmount = ZERO;
    out.taxAmount = out.taxAmount.add(line.taxAmount);
  }
  if (s.shipNetUnrounded !== null) {
    const before = out.shippingAmountInclTax.sub(out.shippingAmount);
    const taxable = out.shippingAmount.sub(out.shippingDiscountAmount);
    let tax: Decimal;
    if (!input.applyAfterDiscount) tax = before;
    else if (input.shippingIncludesTax) tax = before.sub(roundMoney(out.shippingDiscountAmount.mul(input.shippingTaxPercent).div(HUNDRED)));
    else tax = roundMoney(taxable.mul(input.shippingTaxPercent).div(HUNDRED));
    out.shippingTaxAmount = tax.lt(0) ? ZERO : tax;
    out.taxAmount = out.taxAmount.add(out.shippingTaxAmount);
  }
  out.subtotalWithDiscount = out.subtotal.sub(out.discountAmount.sub(out.shippingDiscountAmount));
}

function giftcardCollector(s: State): void {
  const { input, out } = s;
  let remaining = out.subtotal.sub(out.discountAmount).add(out.shippingAmount).add(out.taxAmount);
  if (remaining.lt(0)) remaining = ZERO;
  for (const card of input.giftcards) {
    const balance = roundMoney(card.baseBalance.mul(input.rate));
    const applied = remaining.lt(balance) ? remaining : balance;
    out.giftcards.push({ code: card.code, appliedAmount: applied, balance });
    out.giftcardAmount = out.giftcardAmount.add(applied);
    remaining = remaining.sub(applied);
  }
}

function grandTotalCollector(s: State): void {
  const { out } = s;
  const total = out.subtotal.sub(out.discountAmount).add(out.shippingAmount).add(out.taxAmount).sub(out.giftcardAmount);
  out.grandTotal = total.lt(0) ? ZERO : total;
}

/** The collectors, in the order they run. */
const COLLECTORS: ((s: State) => void)[] = [
  subtotalCollector,
  shippingAmounts,
  discountCollector,
  taxCollector,
  giftcardCollector,
  grandTotalCollector,
];

/** How far the pipeline runs: everything, or up to the discount (what shipping rates are asked with). */
export type TotalsStage = 'all' | 'discount';

const STAGE_END: Record<TotalsStage, number> = { all: COLLECTORS.length, discount: 3 };

/**
 * The whole pipeline for `input` continued from `upTo`, a run of it up to the discount without shipping and gift
 * cards (computeTotals({ ...input, baseShippingPrice: null, giftcards: [] }, 'discount'), as shipping rates are
 * asked with), instead of collecting the subtotal and the discount again: the same totals as computeTotals(input).
 * Undefined when the rule applies to shipping, whose discount that run could not know.
 */
export function continueTotals(upTo: Totals, input: TotalsInput): Totals | undefined {
  // without shipping in the rule, the discount collector's lines and total do not depend on the shipping amount
  if (input.rule?.applyToShipping) return undefined;
  const lines = new Map([...upTo.lines].map(([id, l]) => [id, { ...l }]));
  const state: State = { input, net: new Map(), out: { ...upTo, lines, giftcards: [] }, shipNetUnrounded: null };
  for (const collect of [shippingAmounts, taxCollector, giftcardCollector, grandTotalCollector]) collect(state);
  return state.out;
}

export function computeTotals(input: TotalsInput, stage: TotalsStage = 'all'): Totals {
  const out: Totals = {
    lines: new Map(),
    subtotal: ZERO,
    subtotalInclTax: ZERO,
    subtotalWithDiscount: ZERO,
    discountAmount: ZERO,
    shippingAmount: ZERO,
    shippingAmountInclTax: ZERO,
    shippingDiscountAmount: ZERO,
    shippingTaxAmount: ZERO,
    taxAmount: ZERO,
    giftcardAmount: ZERO,
    giftcards: [],
    grandTotal: ZERO,
    freeShipping: 0,
    discountApplied: false,
  };
  const state: State = { input, net: new Map(), out, shipNetUnrounded: null };
  for (let i = 0; i < STAGE_END[stage]; i++) COLLECTORS[i](state);
  return out;
}
