/**
 * Order lifecycle actions (wire reference §3.1): hold, unhold, cancel and status-history comments. Each runs
 * in one transaction on the locked order, adds a status-history row and answers with the whole order as it
 * now is (its new history entry first). A transition the state does not allow is the 409 of `refused`, and
 * changes nothing.
 */
import { withTx, type Ctx } from '../../platform/context.js';
import { badRequest } from '../../platform/errors.js';
import { Decimal, dec, roundMoney } from '../../platform/money.js';
import { releaseCoupon } from '../coupons/usage.js';
import { creditGiftcard } from '../giftcards/spend.js';
import { releaseStock, type StockLine } from '../inventory/service.js';
import type { OrderActionInput, OrderCommentInput } from './action-schemas.js';
import {
  addStatusHistory,
  findOrder,
  lockOrder,
  markReservationsReleased,
  orderNotFound,
  recordProgress,
  setOrderGiftcards,
  setOrderState,
  type ItemDelta,
  type OrderItemRow,
  type OrderMoneyDelta,
  type OrderRow,
  type OrderWithItems,
} from './core.js';
import { emitOrderEvent, orderChanged } from './events.js';
import { itemLine, mailMoney, queueOrderMail } from './mail.js';
import type { OrderDto } from './schemas.js';
import { assertOrderAccess, orderDetail } from './detail.js';
import { DEFAULT_STATUS, assertAllowed, isStatusOfState, refused, settledState, statusLabel, type OrderState } from './state.js';

const ZERO = dec(0);

const MAX_REASON = 1000;
const MAX_COMMENT = 10000;

/** A reason or comment as text: trimmed, blank reads as none; longer than `max` is a 400 (GraphQL has no schema limit). */
function text(v: string | undefined, field: string, max: number): string | undefined {
  const s = v?.trim();
  if (s && s.length > max) {
    throw badRequest(`${field} must have at most ${max} characters`, {
      reason: 'VALIDATION_FAILED',
      details: { field, constraint: 'maxLength' },
    });
  }
  return s ? s : undefined;
}

/** "Order held" or "Order held: <reason>". */
function withReason(what: string, reason: string | undefined): string {
  return reason ? `${what}: ${reason}` : what;
}

/**
 * Runs `fn` on the order locked in a new transaction, after the access check, and answers with the whole
 * order as `fn` left it (read in the same transaction).
 */
async function onLockedOrder(ctx: Ctx, orderId: number, fn: (tx: Ctx, locked: OrderWithItems) => Promise<void>): Promise<OrderDto> {
  return withTx(ctx, async (tx) => {
    const locked = await lockOrder(tx, orderId);
    if (!locked) throw orderNotFound();
    assertOrderAccess(tx, locked.order);
    await fn(tx, locked);
    const now = (await findOrder(tx, orderId))!;
    orderChanged(tx, locked.order, now.order);
    return orderDetail(tx, now.order, now.items);
  });
}

/** POST /orders/{id}/hold: remembers the state and status, then puts the order on hold. */
export function holdOrder(ctx: Ctx, orderId: number, input: OrderActionInput = {}): Promise<OrderDto> {
  const reason = text(input.reason, 'reason', MAX_REASON);
  return onLockedOrder(ctx, orderId, async (tx, { order }) => {
    assertAllowed(order.state, 'hold');
    const held = await setOrderState(tx, order, {
      state: 'holded',
      status: DEFAULT_STATUS.holded,
      holdBeforeState: order.state,
      holdBeforeStatus: order.status,
    });
    await addStatusHistory(tx, held, { comment: withReason('Order held', reason) });
  });
}

/** POST /orders/{id}/unhold: gives the order back the state and status it had before the hold. */
export function unholdOrder(ctx: Ctx, orderId: number, input: OrderActionInput = {}): Promise<OrderDto> {
  const reason = text(input.reason, 'reason', MAX_REASON);
  return onLockedOrder(ctx, orderId, async (tx, { order, items }) => {
    assertAllowed(order.state, 'unhold');
    // an order held before the memory existed goes where its quantities put it
    const state =
      order.holdBeforeState ??
      settledState('new', items.map(progressOf), { totalPaid: Number(order.totalPaid), totalRefunded: Number(order.totalRefunded) });
    const status = order.holdBeforeStatus ?? DEFAULT_STATUS[state as OrderState] ?? state;
    const released = await setOrderState(tx, order, { state, status, holdBeforeState: null, holdBeforeStatus: null });
    await addStatusHistory(tx, released, { comment: withReason('Order released from hold', reason) });
  });
}

function progressOf(i: OrderItemRow) {
  return {
    qtyOrdered: Number(i.qtyOrdered),
    qtyInvoiced: Number(i.qtyInvoiced),
    qtyShipped: Number(i.qtyShipped),
    qtyRefunded: Number(i.qtyRefunded),
    qtyCanceled: Number(i.qtyCanceled),
    isVirtual: i.isVirtual,
  };
}

/** What is left to invoice of an item: ordered − invoiced − canceled (never below 0). */
function leftToInvoice(i: OrderItemRow): Decimal {
  const left = dec(i.qtyOrdered).sub(i.qtyInvoiced).sub(i.qtyCanceled);
  return left.isNegative() ? ZERO : left;
}

/**
 * What a cancellation takes of an item: what is left to invoice, but never what has already left the
 * warehouse (shipped, not yet invoiced: an offline payment is invoiced by staff, often after shipping), as Maho's
 * min(qty to invoice, qty to ship). Virtual items are never shipped.
 */
function qtyToCancel(i: OrderItemRow): Decimal {
  const toInvoice = leftToInvoice(i);
  if (i.isVirtual) return toInvoice;
  const toShip = dec(i.qtyOrdered).sub(i.qtyShipped).sub(i.qtyRefunded).sub(i.qtyCanceled);
  const q = Decimal.min(toInvoice, toShip);
  return q.isNegative() ? ZERO : q;
}

/** `total − done − canceled` of an order money column pair, rounded, never below 0. */
function remaining(total: string, done: string, canceled: string): Decimal {
  const v = roundMoney(dec(total).sub(done).sub(canceled));
  return v.isNegative() ? ZERO : v;
}

/**
 * The money a cancellation takes. When it leaves nothing to invoice, all that was not invoiced (as Maho:
 * subtotal − subtotal invoiced, grand total − total invoiced). When shipped but uninvoiced quantities stay,
 * the canceled share of each line (its row total, and row total + tax − discount for the grand total).
 */
function canceledMoney(order: OrderRow, canceled: { item: OrderItemRow; qty: Decimal }[], leavesNothing: boolean): OrderMoneyDelta {
  if (leavesNothing) {
    return {
      subtotalCanceled: remaining(order.subtotal, order.subtotalInvoiced, order.subtotalCanceled),
      baseSubtotalCanceled: remaining(order.baseSubtotal, order.baseSubtotalInvoiced, order.baseSubtotalCanceled),
      totalCanceled: remaining(order.grandTotal, order.totalInvoiced, order.totalCanceled),
      baseTotalCanceled: remaining(order.baseGrandTotal, order.baseTotalInvoiced, order.baseTotalCanceled),
    };
  }
  const sum = { sub: ZERO, baseSub: ZERO, total: ZERO, baseTotal: ZERO };
  for (const { item: i, qty } of canceled) {
    const share = qty.div(i.qtyOrdered);
    sum.sub = sum.sub.add(roundMoney(dec(i.rowTotal).mul(share)));
    sum.baseSub = sum.baseSub.add(roundMoney(dec(i.baseRowTotal).mul(share)));
    sum.total = sum.total.add(roundMoney(dec(i.rowTotal).add(i.taxAmount).sub(i.discountAmount).mul(share)));
    sum.baseTotal = sum.baseTotal.add(roundMoney(dec(i.baseRowTotal).add(i.baseTaxAmount).sub(i.baseDiscountAmount).mul(share)));
  }
  return { subtotalCanceled: sum.sub, baseSubtotalCanceled: sum.baseSub, totalCanceled: sum.total, baseTotalCanceled: sum.baseTotal };
}

/**
 * POST /orders/{id}/cancel (admin/API, or a customer on their own order). Cancels what is left to invoice of
 * every item (except what was already shipped); the order becomes canceled when nothing was invoiced or
 * shipped (else it stays where its invoiced and shipped quantities put it). Once per order, the stock of the
 * canceled quantities, the gift card money no invoice took, and (when nothing was invoiced or shipped) the
 * coupon use are given back. The customer is mailed.
 */
export function cancelOrder(ctx: Ctx, orderId: number, input: OrderActionInput = {}): Promise<OrderDto> {
  const reason = text(input.reason, 'reason', MAX_REASON);
  return onLockedOrder(ctx, orderId, async (tx, locked) => {
    const { order, items } = locked;
    assertAllowed(order.state, 'cancel');
    if (!items.some((i) => leftToInvoice(i).gt(0))) throw refused(order.state, 'cancel', 'every item is already invoiced');
    const canceled = items.map((i) => ({ item: i, qty: qtyToCancel(i) })).filter((c) => c.qty.gt(0));
    if (!canceled.length) throw refused(order.state, 'cancel', 'what is left to invoice has already been shipped');

    const leavesNothing = items.every((i) =>
      leftToInvoice(i)
        .sub(canceled.find((c) => c.item.id === i.id)?.qty ?? ZERO)
        .lte(0),
    );
    const money = canceledMoney(order, canceled, leavesNothing);
    const after = await recordProgress(tx, locked, {
      items: canceled.map((c): ItemDelta => ({ orderItemId: c.item.id, qtyCanceled: c.qty })),
      money,
    });
    if (await markReservationsReleased(tx, order.id)) await giveBack(tx, locked, canceled);

    // a customer's own cancel, reason included, is theirs to see in their account
    await addStatusHistory(tx, after.order, {
      comment: withReason('Order canceled', reason),
      isCustomerNotified: true,
      isVisibleOnFront: tx.actor.kind === 'customer',
    });
    emitOrderEvent(tx, 'order.canceled', order);
    await queueOrderMail(tx, order, {
      template: 'sales/order_canceled',
      subject: `Order ${order.incrementId} canceled`,
      intro: [`Your order ${order.incrementId} has been canceled.`, ...(reason ? [`Reason: ${reason}`] : [])],
      lines: canceled.map((c) => itemLine(c.item, c.qty.toString(), roundMoney(dec(c.item.price).mul(c.qty)).toFixed(2), order.currency)),
      outro: [`Amount canceled: ${mailMoney(money.totalCanceled!.toFixed(2), order.currency)}`],
    });
  });
}

/**
 * Gives back what placing the order took and the canceled part no longer needs: stock of the canceled
 * quantities, the gift card money no invoice took, and the coupon use unless part of the order was invoiced
 * or shipped (that part keeps its discount).
 */
async function giveBack(tx: Ctx, { order, items }: OrderWithItems, canceled: { item: OrderItemRow; qty: Decimal }[]): Promise<void> {
  // as placement reserved: each stock part's per-unit qty times the line qty, rounded up to whole units
  const lines: StockLine[] = canceled.flatMap((c) =>
    c.item.stockParts.map((p) => ({ productId: p.productId, qty: Math.ceil(dec(p.per).mul(c.qty).toNumber()) })).filter((l) => l.qty > 0),
  );
  if (lines.length) await releaseStock(tx, lines);
  const started = items.some((i) => dec(i.qtyInvoiced).gt(0) || dec(i.qtyShipped).gt(0));
  if (order.couponId !== null && !started) await releaseCoupon(tx, order.couponId, order.customerId);
  if (order.giftcards.length) await giveBackGiftcards(tx, order);
}

/**
 * Credits the cards with what the order's invoices did not take of them (the card amount of the order less the
 * card amounts of its invoices), and lowers the order's card amount to what the invoices took, so that a later
 * invoice takes nothing that was given back. Invoices take the cards in the order they were applied, so what
 * is left is on the last ones: they get it back first, each at most what it paid and has not got back yet.
 */
async function giveBackGiftcards(tx: Ctx, order: OrderRow): Promise<void> {
  const invoiced = await tx.app.orderParts.giftcardsInvoiced(tx, order.id);
  const unused = dec(order.giftcardAmount).sub(invoiced.amount);
  let baseUnused = dec(order.baseGiftcardAmount).sub(invoiced.base);
  if (!unused.gt(0) && !baseUnused.gt(0)) return;
  const cards = order.giftcards.map((g) => ({ ...g }));
  for (const g of [...cards].reverse()) {
    if (!baseUnused.gt(0)) break;
    const back = Decimal.min(dec(g.baseAmount).sub(g.baseRefunded ?? 0), baseUnused);
    if (!back.gt(0)) continue;
    await creditGiftcard(tx, g.code, back, order.id, `Order ${order.incrementId} canceled`);
    g.baseRefunded = dec(g.baseRefunded ?? 0)
      .add(back)
      .toFixed(4);
    baseUnused = baseUnused.sub(back);
  }
  await setOrderGiftcards(tx, order.id, cards, {
    giftcardAmount: Decimal.min(order.giftcardAmount, invoiced.amount).toFixed(4),
    baseGiftcardAmount: Decimal.min(order.baseGiftcardAmount, invoiced.base).toFixed(4),
  });
}

/**
 * POST /orders/{id}/comments: a status-history comment (required; `note` is its alias), optionally visible to
 * the customer, mailed to them, and setting a new status of the order's current state (any other is a 400 and
 * changes nothing).
 */
export function addOrderComment(ctx: Ctx, orderId: number, input: OrderCommentInput): Promise<OrderDto> {
  const comment = text(input.comment, 'comment', MAX_COMMENT) ?? text(input.note, 'note', MAX_COMMENT);
  if (!comment)
    throw badRequest('comment is required', { reason: 'VALIDATION_FAILED', details: { field: 'comment', constraint: 'required' } });
  const wanted = input.status?.trim();
  return onLockedOrder(ctx, orderId, async (tx, { order }) => {
    let current = order;
    if (wanted !== undefined && wanted !== '') {
      if (!isStatusOfState(order.state, wanted)) {
        throw badRequest(`Status '${wanted}' does not belong to the order state '${order.state}'`, {
          reason: 'INVALID_ORDER_STATUS',
          details: { field: 'status', constraint: 'enum', state: order.state },
        });
      }
      if (wanted !== order.status) current = await setOrderState(tx, order, { state: order.state, status: wanted });
    }
    const notify = input.notifyCustomer === true;
    await addStatusHistory(tx, current, { comment, isCustomerNotified: notify, isVisibleOnFront: input.visibleOnFront === true });
    if (notify) {
      await queueOrderMail(tx, current, {
        template: 'sales/order_comment',
        subject: `Update to order ${current.incrementId}`,
        intro: [`Your order ${current.incrementId} is now: ${statusLabel(current.status)}.`, '', comment],
      });
    }
  });
}
