/**
 * Invoicing from the back office, as Maho's invoice API does it: create an invoice of an order (all of what is
 * left, or some quantities), and move an invoice through its states.
 *
 * - capture: an open invoice (created with `not_capture`) becomes paid; the order's paid totals grow by its grand
 *   total. Every payment method here is offline, so capturing records that the money arrived; an invoice paid
 *   this way may be voided (its `canVoidFlag` is set).
 * - void: a paid invoice whose capture may be undone (`canVoidFlag`: captured through this API, not paid at
 *   creation, as Maho refuses to void an offline payment) becomes canceled; the order's paid totals shrink, and
 *   what it invoiced goes back as for a cancel.
 * - cancel: an open invoice becomes canceled; the order items' invoiced quantities and money and the order's
 *   invoiced totals go back, so the items can be invoiced again.
 *
 * A canceled invoice no longer counts for the order's gift cards: the card money it took is taken by the next
 * invoice, or given back to the cards if the order is canceled (Maho leaves card balances alone on an invoice's
 * cancel). Stock is not touched by invoices. A processing order stays processing after a cancel or void (Maho).
 * Each refusal is a 400 (404 for an unknown invoice or order) and changes nothing; all of it runs under the
 * order's row lock, so it serializes with the order's other documents.
 */
import { and, asc, eq } from 'drizzle-orm';
import { backOffice, withTx, type Ctx } from '../../platform/context.js';
import { badRequest } from '../../platform/errors.js';
import { dec, type Decimal } from '../../platform/money.js';
import {
  addStatusHistory,
  lockOrderForCaller,
  recordProgress,
  type ItemDelta,
  type OrderMoneyDelta,
  type OrderWithItems,
} from '../orders/core.js';
import { orderChanged } from '../orders/events.js';
import { invoiceEvents } from './events.js';
import { getInvoiceForOrder, invoiceNotFound } from './read.js';
import type { InvoiceCreateInput, InvoiceDto } from './schemas.js';
import { createInvoice, INVOICE_STATE } from './service.js';
import { invoiceItems, invoices } from './tables.js';

const INT_MAX = 2147483647;

/**
 * POST /orders/{orderId}/invoices: bills `items` (omitted or empty: everything left) of the order. `capture`
 * offline (the default, as Maho for an offline method) pays the invoice at once, `not_capture` leaves it open,
 * `online` is refused (no method here captures through a gateway). The invoice mail goes out only with
 * `notifyCustomer: true` (and `sales_email/invoice/enabled`). Answers with the new invoice.
 */
export async function createInvoiceForOrder(ctx: Ctx, orderId: number, body: InvoiceCreateInput): Promise<InvoiceDto> {
  const capture = body.capture ?? 'offline';
  const invoiceId = await withTx(ctx, async (tx) => {
    const locked = await lockOrderForCaller(tx, orderId);
    if (capture === 'online') {
      throw badRequest("The order's payment method does not support online capture", {
        reason: 'ONLINE_CAPTURE_UNAVAILABLE',
        details: { capture, paymentMethod: locked.order.paymentMethod },
      });
    }
    const created = await createInvoice(tx, locked, {
      items: body.items,
      capture,
      comment: body.comment,
      notifyCustomer: body.notifyCustomer === true,
    });
    return created.invoiceId;
  });
  return getInvoiceForOrder(ctx, orderId, invoiceId);
}

export type InvoiceAction = 'capture' | 'void' | 'cancel';

const PAST: Record<InvoiceAction, string> = { capture: 'captured', void: 'voided', cancel: 'canceled' };

type InvoiceRow = typeof invoices.$inferSelect;

function allowed(action: InvoiceAction, invoice: InvoiceRow): boolean {
  switch (action) {
    case 'capture':
    case 'cancel':
      return invoice.state === INVOICE_STATE.open;
    case 'void':
      return invoice.state === INVOICE_STATE.paid && invoice.canVoidFlag;
  }
}

function notAllowed(action: InvoiceAction, invoice: InvoiceRow, why?: string) {
  const state = invoice.state === INVOICE_STATE.open ? 'open' : invoice.state === INVOICE_STATE.paid ? 'paid' : 'canceled';
  return badRequest(`The invoice cannot be ${PAST[action]} in its current state${why ? `: ${why}` : ''}`, {
    reason: 'INVOICE_ACTION_NOT_ALLOWED',
    details: { invoiceId: invoice.id, state, action },
  });
}

async function invoiceOrderId(ctx: Ctx, invoiceId: number): Promise<number> {
  if (!Number.isInteger(invoiceId) || invoiceId < 1 || invoiceId > INT_MAX) throw invoiceNotFound();
  const [row] = await ctx.db.select({ orderId: invoices.orderId }).from(invoices).where(eq(invoices.id, invoiceId));
  if (!row) throw invoiceNotFound();
  return row.orderId;
}

/** POST /invoices/{id}/capture|void|cancel. Answers with the invoice as it now is. */
export async function invoiceAction(ctx: Ctx, invoiceId: number, action: InvoiceAction): Promise<InvoiceDto> {
  const orderId = await invoiceOrderId(ctx, invoiceId);
  await withTx(ctx, async (tx) => {
    // the order first (the lock every document of the order takes), then the invoice as it is under that lock
    const locked = await lockOrderForCaller(tx, orderId);
    const [invoice] = await tx.db.select().from(invoices).where(eq(invoices.id, invoiceId)).for('update');
    if (!invoice || invoice.orderId !== orderId) throw invoiceNotFound();
    if (!allowed(action, invoice)) throw notAllowed(action, invoice);

    const grand = dec(invoice.grandTotal);
    const baseGrand = dec(invoice.baseGrandTotal);
    let change: { items?: ItemDelta[]; money: OrderMoneyDelta };
    if (action === 'capture') {
      change = { money: { totalPaid: grand, baseTotalPaid: baseGrand } };
    } else {
      const lines = await tx.db.select().from(invoiceItems).where(eq(invoiceItems.invoiceId, invoice.id)).orderBy(asc(invoiceItems.id));
      change = reversal(invoice, lines, action === 'void');
      const refundedBlock = refundedConflict(locked, change, action === 'void');
      if (refundedBlock) throw notAllowed(action, invoice, refundedBlock);
    }

    await tx.db
      .update(invoices)
      .set({
        state: action === 'capture' ? INVOICE_STATE.paid : INVOICE_STATE.canceled,
        canVoidFlag: action === 'capture',
        updatedAt: tx.now,
      })
      .where(and(eq(invoices.id, invoice.id), eq(invoices.state, invoice.state)));
    const updated = await recordProgress(tx, locked, change);
    await addStatusHistory(tx, updated.order, {
      comment: historyComment(action, invoice, updated.order.currency),
      entityName: 'invoice',
      isCustomerNotified: false,
    });
    invoiceEvents.emit(tx, 'invoice.updated', { resource: 'invoice', id: invoice.id, storeId: invoice.storeId }, () =>
      getInvoiceForOrder(backOffice(tx), orderId, invoice.id),
    );
    orderChanged(tx, locked.order, updated.order);
  });
  return getInvoiceForOrder(ctx, orderId, invoiceId);
}

const neg = (v: string) => dec(v).neg();

/** What an invoice's cancel (and void) takes back: everything its creation added to the items and the order. */
function reversal(invoice: InvoiceRow, lines: (typeof invoiceItems.$inferSelect)[], paid: boolean) {
  const items: ItemDelta[] = lines.map((l) => ({
    orderItemId: l.orderItemId,
    qtyInvoiced: neg(l.qty),
    rowInvoiced: neg(l.rowTotal),
    baseRowInvoiced: neg(l.baseRowTotal),
    taxInvoiced: neg(l.taxAmount),
    baseTaxInvoiced: neg(l.baseTaxAmount),
    discountInvoiced: neg(l.discountAmount),
    baseDiscountInvoiced: neg(l.baseDiscountAmount),
  }));
  const money: OrderMoneyDelta = {
    subtotalInvoiced: neg(invoice.subtotal),
    baseSubtotalInvoiced: neg(invoice.baseSubtotal),
    totalInvoiced: neg(invoice.grandTotal),
    baseTotalInvoiced: neg(invoice.baseGrandTotal),
    taxInvoiced: neg(invoice.taxAmount),
    baseTaxInvoiced: neg(invoice.baseTaxAmount),
    shippingInvoiced: neg(invoice.shippingAmount),
    baseShippingInvoiced: neg(invoice.baseShippingAmount),
    discountInvoiced: neg(invoice.discountAmount),
    baseDiscountInvoiced: neg(invoice.baseDiscountAmount),
    ...(paid ? { totalPaid: neg(invoice.grandTotal), baseTotalPaid: neg(invoice.baseGrandTotal) } : {}),
  };
  return { items, money };
}

/**
 * Why the reversal cannot happen: refunds already took what it would take back (an item would have more
 * refunded than invoiced, or the order more refunded than paid). Undefined when nothing stands in the way.
 */
function refundedConflict(
  locked: OrderWithItems,
  change: { items?: ItemDelta[]; money: OrderMoneyDelta },
  paid: boolean,
): string | undefined {
  for (const d of change.items ?? []) {
    const item = locked.items.find((i) => i.id === d.orderItemId);
    if (
      item &&
      dec(item.qtyInvoiced)
        .add(d.qtyInvoiced ?? 0)
        .lt(item.qtyRefunded)
    ) {
      return `order item ${item.id} (${item.sku}) was refunded`;
    }
  }
  const order = locked.order;
  if (
    paid &&
    dec(order.totalPaid)
      .add(change.money.totalPaid as Decimal)
      .lt(order.totalRefunded)
  ) {
    return 'the order has refunds that its remaining payments do not cover';
  }
  return undefined;
}

function historyComment(action: InvoiceAction, invoice: InvoiceRow, currency: string): string {
  const amount = `${dec(invoice.grandTotal).toFixed(2)} ${currency}`;
  if (action === 'capture') return `Invoice #${invoice.incrementId} captured: ${amount} paid`;
  if (action === 'void') return `Invoice #${invoice.incrementId} voided: ${amount} no longer paid`;
  return `Invoice #${invoice.incrementId} canceled`;
}
