/**
 * Creating a credit memo (a refund) of an order, in one transaction: the order locked first, the request
 * checked against what is invoiced and not yet refunded, the money computed (amounts.ts), stock given back
 * for the lines marked backToStock, the part of the total above the cash left given back to the gift cards,
 * the order's counters moved (it closes once everything is refunded), then the memo, its comment, a status
 * history entry and the customer's mail.
 *
 * Shipping: a memo refunds all the shipping still refundable when it is the order's first memo or when its
 * items are omitted (refund everything), and none otherwise, unless the body's `shippingAmount` says how much.
 * Cash first: totalRefunded counts what goes back through the payment method, at most totalPaid; the rest of
 * the memo's total goes back to the gift cards that paid the order, the last applied card first.
 */
import { backOffice, withTx, type Ctx } from '../../../platform/context.js';
import { badRequest, type AppError } from '../../../platform/errors.js';
import { dec, roundMoney, type Decimal } from '../../../platform/money.js';
import { declareConfig } from '../../../platform/settings.js';
import { creditGiftcard } from '../../giftcards/spend.js';
import { releaseStock, type StockLine } from '../../inventory/service.js';
import { invoicesOfOrder } from '../../invoices/service.js';
import {
  addStatusHistory,
  lockOrderForCaller,
  nextIncrementId,
  recordProgress,
  setOrderGiftcards,
  type OrderItemRow,
  type OrderRow,
} from '../../orders/core.js';
import { orderChanged } from '../../orders/events.js';
import { itemLine, mailMoney, queueOrderMail } from '../../orders/mail.js';
import { creditMemoEvents } from '../events.js';
import { refused, stateAllows } from '../../orders/state.js';
import {
  itemRefund,
  memoTotals,
  refundable,
  refundableQty,
  refundableShipping,
  shippingRefund,
  splitRefund,
  type ItemRefund,
  type MemoTotals,
  type PriorRefunds,
} from '../amounts.js';
import { MEMO_STATE, getCreditMemo, priorRefunds } from '../read.js';
import { COMMENT_MAX, type CreditMemoCreateInput, type CreditMemoDto } from '../schemas.js';
import { creditMemoComments, creditMemoItems, creditMemos } from '../tables.js';

declareConfig({
  'sales_email/creditmemo/enabled': { type: 'boolean', default: true, label: 'Send Credit Memo Emails' },
});

const ZERO = dec(0);
/** well inside NUMERIC(20,4) */
const MAX_AMOUNT = 1_000_000_000_000;
const MAX_QTY = 99_999_999;
const QTY_PLACES = 4;

function invalid(field: string, message: string, constraint: string, reason = 'VALIDATION_FAILED'): AppError {
  return badRequest(message, { reason, details: { field, constraint } });
}

const isId = (v: unknown): v is number => typeof v === 'number' && Number.isInteger(v) && v >= 1 && v <= 2147483647;

interface RequestedItem {
  orderItemId: number;
  qty: Decimal;
  backToStock: boolean;
}

type RequestedInput = NonNullable<CreditMemoCreateInput['items']>[number];

interface CheckedInput {
  /** undefined: refund everything refundable */
  items?: RequestedItem[];
  comment?: string;
  adjustmentPositive: Decimal;
  adjustmentNegative: Decimal;
  shippingAmount?: Decimal;
  offline: boolean;
  notify: boolean;
}

/** An amount of money sent by the client: a finite number ≥ 0, rounded to cents. */
function amountOf(value: unknown, field: string): Decimal | undefined {
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'number' || !Number.isFinite(value)) throw invalid(field, `${field} must be a number`, 'type');
  if (value < 0) throw invalid(field, `${field} must be 0 or more`, 'minimum');
  if (value > MAX_AMOUNT) throw invalid(field, `${field} must be at most ${MAX_AMOUNT}`, 'maximum');
  return roundMoney(dec(String(value)));
}

/** Checks the body the way the REST schema does, for callers that bypass it (GraphQL, services). */
function checkInput(body: CreditMemoCreateInput): CheckedInput {
  if (!body || typeof body !== 'object') throw badRequest('The request body must be a JSON object', { reason: 'VALIDATION_FAILED' });
  let items: RequestedItem[] | undefined;
  if (body.items !== undefined && body.items !== null) {
    if (!Array.isArray(body.items)) throw invalid('items', 'items must be an array', 'type');
    if (body.items.length > 1000) throw invalid('items', 'items has at most 1000 entries', 'maxItems');
    const seen = new Set<number>();
    const checked = body.items.map((raw, i): RequestedItem => {
      const { orderItemId, qty, backToStock } = (raw ?? {}) as Partial<RequestedInput>;
      if (!isId(orderItemId)) {
        throw invalid(`items.${i}.orderItemId`, `items.${i}.orderItemId must be a positive integer`, 'minimum', 'INVALID_ORDER_ITEM');
      }
      if (typeof qty !== 'number' || !Number.isFinite(qty) || qty <= 0) {
        throw invalid(`items.${i}.qty`, `items.${i}.qty must be a number greater than 0`, 'exclusiveMinimum', 'INVALID_QTY');
      }
      const q = dec(String(qty));
      if (q.decimalPlaces() > QTY_PLACES || q.gt(MAX_QTY)) {
        throw invalid(
          `items.${i}.qty`,
          `items.${i}.qty must be at most ${MAX_QTY} with at most ${QTY_PLACES} decimal places`,
          'maximum',
          'INVALID_QTY',
        );
      }
      if (backToStock !== undefined && backToStock !== null && typeof backToStock !== 'boolean') {
        throw invalid(`items.${i}.backToStock`, `items.${i}.backToStock must be boolean`, 'type');
      }
      if (seen.has(orderItemId))
        throw invalid(`items.${i}.orderItemId`, `Order item ${orderItemId} is listed twice`, 'uniqueItems', 'INVALID_ORDER_ITEM');
      seen.add(orderItemId);
      return { orderItemId, qty: q, backToStock: backToStock === true };
    });
    if (checked.length) items = checked;
  }
  let comment: string | undefined;
  if (body.comment !== undefined && body.comment !== null) {
    if (typeof body.comment !== 'string') throw invalid('comment', 'comment must be a string', 'type');
    if (body.comment.length > COMMENT_MAX) throw invalid('comment', `comment has at most ${COMMENT_MAX} characters`, 'maxLength');
    comment = body.comment.trim() || undefined;
  }
  const bool = (v: unknown, field: string, dflt: boolean) => {
    if (v === undefined || v === null) return dflt;
    if (typeof v !== 'boolean') throw invalid(field, `${field} must be boolean`, 'type');
    return v;
  };
  return {
    items,
    comment,
    adjustmentPositive: amountOf(body.adjustmentPositive, 'adjustmentPositive') ?? ZERO,
    adjustmentNegative: amountOf(body.adjustmentNegative, 'adjustmentNegative') ?? ZERO,
    shippingAmount: amountOf(body.shippingAmount, 'shippingAmount'),
    offline: bool(body.offlineRefund, 'offlineRefund', true),
    notify: bool(body.notifyCustomer, 'notifyCustomer', true),
  };
}

const fmt = (d: Decimal) => d.toString();

/** The lines to refund: the ones asked for (checked against the order), or everything refundable. */
function refundLines(items: OrderItemRow[], requested: RequestedItem[] | undefined, prior: PriorRefunds): ItemRefund[] {
  if (!requested) {
    return items.filter((i) => refundableQty(i).gt(0)).map((i) => itemRefund(i, refundableQty(i), false, prior));
  }
  return requested.map((r, idx) => {
    const item = items.find((i) => i.id === r.orderItemId);
    if (!item) {
      throw badRequest(`Order item ${r.orderItemId} is not on this order`, {
        reason: 'INVALID_ORDER_ITEM',
        details: { field: `items.${idx}.orderItemId`, orderItemId: r.orderItemId },
      });
    }
    if (!item.isQtyDecimal && !r.qty.isInteger()) {
      throw badRequest(`The qty of '${item.sku}' must be a whole number`, {
        reason: 'INVALID_QTY',
        details: { field: `items.${idx}.qty`, orderItemId: item.id, qty: r.qty.toNumber() },
      });
    }
    const left = refundableQty(item);
    if (r.qty.gt(left)) {
      throw badRequest(`Cannot refund ${fmt(r.qty)} of '${item.sku}': ${fmt(left)} invoiced and not yet refunded`, {
        reason: 'QTY_ABOVE_REFUNDABLE',
        details: { field: `items.${idx}.qty`, orderItemId: item.id, qty: r.qty.toNumber(), refundable: left.toNumber() },
      });
    }
    return itemRefund(item, r.qty, r.backToStock, prior);
  });
}

/** What the lines marked backToStock return: qty × per of each stock part, in whole units. */
function stockLines(lines: ItemRefund[]): StockLine[] {
  const out: StockLine[] = [];
  for (const l of lines) {
    if (!l.backToStock) continue;
    for (const part of l.item.stockParts ?? []) {
      const qty = l.qty.mul(part.per);
      if (!qty.isInteger()) {
        throw badRequest(`Cannot return ${fmt(l.qty)} of '${l.item.sku}' to stock: stock is kept in whole units`, {
          reason: 'INVALID_QTY',
          details: { field: 'backToStock', orderItemId: l.item.id },
        });
      }
      if (qty.gt(0)) out.push({ productId: part.productId, qty: qty.toNumber() });
    }
  }
  return out;
}

/** Gives the base amounts back to the cards and returns the order's gift card record with baseRefunded raised. */
async function returnToGiftcards(tx: Ctx, order: OrderRow, toCards: { code: string; base: Decimal }[]): Promise<OrderRow['giftcards']> {
  const cards = order.giftcards.map((g) => ({ ...g }));
  for (const back of toCards) {
    // gift cards are kept in the base currency of their website, the currency the order records them in
    await creditGiftcard(tx, back.code, back.base, order.id, `Refund of order ${order.incrementId}`);
    const card = cards.find((c) => c.code === back.code)!;
    card.baseRefunded = dec(card.baseRefunded ?? 0)
      .add(back.base)
      .toFixed(4);
  }
  return cards;
}

const s = (d: Decimal) => d.toFixed(4);

function memoMail(order: OrderRow, incrementId: string, lines: ItemRefund[], totals: MemoTotals, comment: string | undefined) {
  const c = order.currency;
  return {
    template: 'sales/creditmemo',
    subject: `Credit memo ${incrementId} for order ${order.incrementId}`,
    intro: [
      `We have refunded ${mailMoney(totals.grandTotal.toFixed(2), c)} of your order ${order.incrementId} (credit memo ${incrementId}).`,
    ],
    lines: [
      ...lines.map((l) => itemLine(l.item, l.qty.toString(), l.rowTotal.toFixed(2), c)),
      ...(lines.length ? [''] : []),
      `Subtotal: ${mailMoney(totals.subtotal.toFixed(2), c)}`,
      ...(totals.discountAmount.gt(0) ? [`Discount: -${mailMoney(totals.discountAmount.toFixed(2), c)}`] : []),
      ...(totals.shippingAmount.gt(0) ? [`Shipping: ${mailMoney(totals.shippingAmount.toFixed(2), c)}`] : []),
      `Tax: ${mailMoney(totals.taxAmount.toFixed(2), c)}`,
      ...(totals.adjustmentPositive.gt(0) ? [`Adjustment refund: ${mailMoney(totals.adjustmentPositive.toFixed(2), c)}`] : []),
      ...(totals.adjustmentNegative.gt(0) ? [`Adjustment fee: -${mailMoney(totals.adjustmentNegative.toFixed(2), c)}`] : []),
      `Total refunded: ${mailMoney(totals.grandTotal.toFixed(2), c)}`,
    ],
    outro: comment ? [comment] : [],
  };
}

/**
 * POST /orders/{orderId}/credit-memos: refunds (offline) what the body names, or everything invoiced and not
 * yet refunded. 404 for an unknown order (or one outside the caller's store views); 400 when the order
 * cannot be refunded (canceled, closed, on hold, under review, nothing paid that is not refunded yet), for
 * an unknown item, a qty ≤ 0, fractional on a whole-unit item or above what is refundable, shipping above
 * what is refundable, a total ≤ 0 or above what can still be refunded, and for an online refund (every
 * payment method here is offline). Nothing changes when it refuses.
 */
export async function createCreditMemo(ctx: Ctx, orderId: number, body: CreditMemoCreateInput): Promise<CreditMemoDto> {
  const input = checkInput(body);
  const memoId = await withTx(ctx, async (tx) => {
    const locked = await lockOrderForCaller(tx, orderId);
    const { order, items } = locked;
    if (!stateAllows(order.state, 'refund')) throw refused(order.state, 'refund');
    const left = refundable(order);
    if (!items.some((i) => dec(i.qtyInvoiced).gt(0)) || left.total.lte(0)) {
      throw refused(order.state, 'refund', 'nothing was paid that is not refunded yet');
    }
    if (!input.offline) {
      throw badRequest(`${order.paymentTitle} cannot refund online; refund offline`, {
        reason: 'ONLINE_REFUND_UNAVAILABLE',
        details: { field: 'offlineRefund', paymentMethod: order.paymentMethod },
      });
    }

    const prior = await priorRefunds(tx, order.id);
    const lines = refundLines(items, input.items, prior);
    const shipLeft = refundableShipping(order);
    let shipping = input.items && prior.count > 0 ? ZERO : shipLeft.amount;
    if (input.shippingAmount !== undefined) {
      if (input.shippingAmount.gt(shipLeft.amount)) {
        throw badRequest(
          `Cannot refund ${input.shippingAmount.toFixed(2)} of shipping: ${shipLeft.amount.toFixed(2)} is invoiced and not yet refunded`,
          {
            reason: 'SHIPPING_ABOVE_REFUNDABLE',
            details: { field: 'shippingAmount', refundable: shipLeft.amount.toNumber() },
          },
        );
      }
      shipping = input.shippingAmount;
    }
    const ship = shippingRefund(order, items, shipping, prior);
    const totals = memoTotals(order, lines, ship, input.adjustmentPositive, input.adjustmentNegative);
    if (totals.grandTotal.lte(0)) {
      throw badRequest('Nothing to refund: the credit memo total must be greater than 0', {
        reason: 'NOTHING_TO_REFUND',
        details: { grandTotal: totals.grandTotal.toNumber() },
      });
    }
    if (totals.grandTotal.gt(left.total)) {
      throw badRequest(
        `The credit memo total ${totals.grandTotal.toFixed(2)} is above what can still be refunded (${left.total.toFixed(2)})`,
        {
          reason: 'REFUND_ABOVE_PAID',
          details: { grandTotal: totals.grandTotal.toNumber(), refundable: left.total.toNumber() },
        },
      );
    }
    const split = splitRefund(order, left, totals.grandTotal, totals.baseGrandTotal);

    // stock, then gift cards, then the order's counters (the order row is locked already)
    await releaseStock(tx, stockLines(lines));
    const cards = split.toCards.length ? await returnToGiftcards(tx, order, split.toCards) : undefined;
    const progressed = await recordProgress(tx, locked, {
      items: lines.map((l) => ({
        orderItemId: l.item.id,
        qtyRefunded: l.qty,
        amountRefunded: l.rowTotal,
        baseAmountRefunded: l.baseRowTotal,
        taxRefunded: l.taxAmount,
        baseTaxRefunded: l.baseTaxAmount,
        discountRefunded: l.discountAmount,
        baseDiscountRefunded: l.baseDiscountAmount,
      })),
      money: {
        subtotalRefunded: totals.subtotal,
        baseSubtotalRefunded: totals.baseSubtotal,
        totalRefunded: split.cash,
        baseTotalRefunded: split.baseCash,
        taxRefunded: totals.taxAmount,
        baseTaxRefunded: totals.baseTaxAmount,
        shippingRefunded: totals.shippingAmount,
        baseShippingRefunded: totals.baseShippingAmount,
        discountRefunded: totals.discountAmount,
        baseDiscountRefunded: totals.baseDiscountAmount,
        adjustmentPositive: totals.adjustmentPositive,
        baseAdjustmentPositive: totals.baseAdjustmentPositive,
        adjustmentNegative: totals.adjustmentNegative,
        baseAdjustmentNegative: totals.baseAdjustmentNegative,
      },
    });
    if (cards) await setOrderGiftcards(tx, order.id, cards);

    // the refund goes against the order's latest paid invoice
    const invoiceId = (await invoicesOfOrder(tx, order.id)).filter((i) => i.stateName === 'paid').at(-1)?.id ?? null;
    const mail = input.notify && tx.app.settings.getBool('sales_email/creditmemo/enabled', order.storeId);
    // the number last: its counter row stays locked until this transaction ends
    const incrementId = await nextIncrementId(tx, 'creditmemo', order.storeId);
    const [memo] = await tx.db
      .insert(creditMemos)
      .values({
        incrementId,
        orderId: order.id,
        invoiceId,
        storeId: order.storeId,
        state: MEMO_STATE.refunded,
        currency: order.currency,
        baseCurrency: order.baseCurrency,
        offline: true,
        subtotal: s(totals.subtotal),
        baseSubtotal: s(totals.baseSubtotal),
        subtotalInclTax: s(totals.subtotalInclTax),
        baseSubtotalInclTax: s(totals.baseSubtotalInclTax),
        taxAmount: s(totals.taxAmount),
        baseTaxAmount: s(totals.baseTaxAmount),
        shippingAmount: s(totals.shippingAmount),
        baseShippingAmount: s(totals.baseShippingAmount),
        shippingInclTax: s(totals.shippingInclTax),
        baseShippingInclTax: s(totals.baseShippingInclTax),
        shippingTaxAmount: s(totals.shippingTaxAmount),
        baseShippingTaxAmount: s(totals.baseShippingTaxAmount),
        discountAmount: s(totals.discountAmount),
        baseDiscountAmount: s(totals.baseDiscountAmount),
        adjustmentPositive: s(totals.adjustmentPositive),
        baseAdjustmentPositive: s(totals.baseAdjustmentPositive),
        adjustmentNegative: s(totals.adjustmentNegative),
        baseAdjustmentNegative: s(totals.baseAdjustmentNegative),
        grandTotal: s(totals.grandTotal),
        baseGrandTotal: s(totals.baseGrandTotal),
        discountDescription: order.couponCode,
        emailSent: mail,
        createdAt: tx.now,
        updatedAt: tx.now,
      })
      .returning({ id: creditMemos.id });
    if (lines.length) {
      await tx.db.insert(creditMemoItems).values(
        lines.map((l) => ({
          creditMemoId: memo.id,
          orderItemId: l.item.id,
          productId: l.item.productId,
          sku: l.item.sku,
          name: l.item.name,
          description: l.item.description,
          qty: l.qty.toFixed(QTY_PLACES),
          backToStock: l.backToStock,
          price: l.item.price,
          basePrice: l.item.basePrice,
          priceInclTax: l.item.priceInclTax,
          basePriceInclTax: l.item.basePriceInclTax,
          rowTotal: s(l.rowTotal),
          baseRowTotal: s(l.baseRowTotal),
          rowTotalInclTax: s(l.rowTotalInclTax),
          baseRowTotalInclTax: s(l.baseRowTotalInclTax),
          taxAmount: s(l.taxAmount),
          baseTaxAmount: s(l.baseTaxAmount),
          discountAmount: s(l.discountAmount),
          baseDiscountAmount: s(l.baseDiscountAmount),
        })),
      );
    }
    if (input.comment) {
      await tx.db.insert(creditMemoComments).values({
        creditMemoId: memo.id,
        comment: input.comment,
        isCustomerNotified: mail,
        isVisibleOnFront: false,
        createdAt: tx.now,
      });
    }
    await addStatusHistory(tx, progressed.order, {
      comment: `Refunded ${mailMoney(totals.grandTotal.toFixed(2), order.currency)} offline (credit memo ${incrementId}).`,
      entityName: 'creditmemo',
      isCustomerNotified: mail,
    });
    if (mail) await queueOrderMail(tx, order, memoMail(order, incrementId, lines, totals, input.comment));
    creditMemoEvents.emit(tx, 'creditmemo.created', { resource: 'creditmemo', id: memo.id, storeId: order.storeId }, () =>
      getCreditMemo(backOffice(tx), memo.id),
    );
    orderChanged(tx, order, progressed.order);
    return memo.id;
  });
  return getCreditMemo(ctx, memoId);
}
