/**
 * Invoices: billing a locked order (what placement with a capturing payment method and the invoice route call,
 * inside their own transaction), and the invoice mail. The route and the invoice's capture, void and cancel are in
 * lifecycle.ts. Reads, the wire shape and the PDF are in read.ts
 * and invoice-pdf.ts; their public functions are re-exported here.
 */
import { and, eq, ne, sql } from 'drizzle-orm';
import { backOffice, withTx, type Ctx } from '../../platform/context.js';
import { badRequest } from '../../platform/errors.js';
import { dec, roundMoney, type Decimal } from '../../platform/money.js';
import { insertFromJson, jsonRows } from '../../platform/json-rows.js';
import { declareConfig, declareConfigLabels } from '../../platform/settings.js';
import {
  addStatusHistory,
  nextIncrementId,
  recordProgress,
  type ItemDelta,
  type OrderItemRow,
  type OrderWithItems,
} from '../orders/core.js';
import { itemLine, mailMoney, orderMailOf, queueOrderMail, type OrderMail } from '../orders/mail.js';
import { writtenOrderId, writtenOrderItemId, type AlongsideWrite, type WrittenOrder } from '../orders/placement.js';
import { refused, stateAllows } from '../orders/state.js';
import { orderChanged } from '../orders/events.js';
import { invoiceEvents } from './events.js';
import { getInvoiceForOrder } from './read.js';
import { invoiceComments, invoiceItems, invoices } from './tables.js';

export { getInvoiceForOrder, invoicePdfForCaller, invoicesOfOrder, listInvoicesForCaller, type InvoiceRoute } from './read.js';

declareConfigLabels({ sales_email: 'Sales Emails', 'sales_email/invoice': 'Invoice' });
declareConfig({
  'sales_email/invoice/enabled': {
    type: 'boolean',
    default: true,
    label: 'Send Invoice Emails',
    comment: 'an invoice mail goes to the customer for every invoice',
  },
});

/** Invoice states as stored (and shown as `state`). */
/** invoice.created, with the invoice as the back office reads it (rendered just before the commit). */
export function emitInvoiceCreated(ctx: Ctx, invoiceId: number, storeId: number, orderId?: number): void {
  invoiceEvents.emit(ctx, 'invoice.created', { resource: 'invoice', id: invoiceId, storeId }, async () => {
    const id = orderId ?? (await ctx.db.select({ orderId: invoices.orderId }).from(invoices).where(eq(invoices.id, invoiceId)))[0].orderId;
    return getInvoiceForOrder(backOffice(ctx), id, invoiceId);
  });
}

export const INVOICE_STATE = { open: 1, paid: 2, canceled: 3 } as const;

/** How the invoice is settled: `offline` marks it paid at once, `not_capture` leaves it open. */
export type InvoiceCapture = 'offline' | 'not_capture';

export interface CreateInvoiceOptions {
  /** what to bill; omitted (or empty): everything left to invoice */
  items?: { orderItemId: number; qty: number }[];
  capture: InvoiceCapture;
  /** kept on the invoice and as the status-history note (default "Invoice #<incrementId> created") */
  comment?: string;
  /** false: no invoice mail even where mails are enabled */
  notifyCustomer?: boolean;
}

/** The money fields an order item and an invoice item share, pro-rated by quantity. */
const ITEM_MONEY = [
  'rowTotal',
  'baseRowTotal',
  'rowTotalInclTax',
  'baseRowTotalInclTax',
  'taxAmount',
  'baseTaxAmount',
  'discountAmount',
  'baseDiscountAmount',
] as const;
type ItemMoneyField = (typeof ITEM_MONEY)[number];
type ItemMoney = Record<ItemMoneyField, Decimal>;

const ZERO = dec(0);
const zeroMoney = (): ItemMoney => Object.fromEntries(ITEM_MONEY.map((k) => [k, ZERO])) as ItemMoney;
const max0 = (v: Decimal) => (v.isNegative() ? ZERO : v);
const min = (a: Decimal, b: Decimal) => (a.lt(b) ? a : b);
const db4 = (v: Decimal) => v.toFixed(4);

interface Line {
  item: OrderItemRow;
  qty: Decimal;
  money: ItemMoney;
}

/** What is left to invoice of an item: ordered − invoiced − canceled. */
function leftToInvoice(item: OrderItemRow): Decimal {
  return max0(dec(item.qtyOrdered).sub(item.qtyInvoiced).sub(item.qtyCanceled));
}

/** The requested quantities, checked against the order; refuses anything the order cannot bill. */
function chooseLines(locked: OrderWithItems, requested: CreateInvoiceOptions['items']): { item: OrderItemRow; qty: Decimal }[] {
  const state = locked.order.state;
  if (!requested?.length) {
    return locked.items.map((item) => ({ item, qty: leftToInvoice(item) })).filter((l) => l.qty.gt(0));
  }
  const seen = new Set<number>();
  const lines: { item: OrderItemRow; qty: Decimal }[] = [];
  for (const r of requested) {
    const item = locked.items.find((i) => i.id === r.orderItemId);
    if (!item) {
      throw badRequest(`Order item ${r.orderItemId} is not on this order`, {
        reason: 'INVOICE_ITEM_NOT_FOUND',
        details: { orderItemId: r.orderItemId },
      });
    }
    if (seen.has(item.id)) {
      throw badRequest(`Order item ${item.id} is listed more than once`, {
        reason: 'INVOICE_ITEM_DUPLICATE',
        details: { orderItemId: item.id },
      });
    }
    seen.add(item.id);
    if (typeof r.qty !== 'number' || !Number.isFinite(r.qty) || r.qty <= 0) {
      throw badRequest(`The quantity to invoice of item ${item.id} must be above 0`, {
        reason: 'INVALID_QTY',
        details: { orderItemId: item.id },
      });
    }
    const qty = dec(r.qty);
    if ((!item.isQtyDecimal && !qty.isInteger()) || qty.decimalPlaces() > 4) {
      throw badRequest(`Item ${item.id} (${item.sku}) can only be invoiced in whole units`, {
        reason: 'INVALID_QTY',
        details: { orderItemId: item.id },
      });
    }
    const left = leftToInvoice(item);
    if (qty.gt(left)) {
      throw refused(
        state,
        'invoice',
        `only ${left.toString()} of item ${item.id} (${item.sku}) is left to invoice, ${qty.toString()} asked`,
      );
    }
    lines.push({ item, qty });
  }
  return lines;
}

/** Money of each order item already on (not canceled) invoices, and what those invoices took at order level. */
async function billedSoFar(ctx: Ctx, orderId: number) {
  const notCanceled = and(eq(invoices.orderId, orderId), ne(invoices.state, INVOICE_STATE.canceled));
  const sum = (c: (typeof invoiceItems)[ItemMoneyField]) => sql<string>`coalesce(sum(${c}), 0)`;
  const rows = await ctx.db
    .select({
      orderItemId: invoiceItems.orderItemId,
      rowTotal: sum(invoiceItems.rowTotal),
      baseRowTotal: sum(invoiceItems.baseRowTotal),
      rowTotalInclTax: sum(invoiceItems.rowTotalInclTax),
      baseRowTotalInclTax: sum(invoiceItems.baseRowTotalInclTax),
      taxAmount: sum(invoiceItems.taxAmount),
      baseTaxAmount: sum(invoiceItems.baseTaxAmount),
      discountAmount: sum(invoiceItems.discountAmount),
      baseDiscountAmount: sum(invoiceItems.baseDiscountAmount),
    })
    .from(invoiceItems)
    .innerJoin(invoices, eq(invoices.id, invoiceItems.invoiceId))
    .where(notCanceled)
    .groupBy(invoiceItems.orderItemId);
  const items = new Map<number, ItemMoney>();
  for (const r of rows) items.set(r.orderItemId, Object.fromEntries(ITEM_MONEY.map((k) => [k, dec(r[k])])) as ItemMoney);
  const head = await invoicedHead(ctx, orderId);
  return { items, count: head.count, giftcard: head.giftcard, baseGiftcard: head.baseGiftcard };
}

/** How many invoices (not canceled) the order has, and what they took of its gift cards. */
async function invoicedHead(ctx: Ctx, orderId: number) {
  const [head] = await ctx.db
    .select({
      count: sql<string>`count(*)`,
      giftcard: sql<string>`coalesce(sum(${invoices.giftcardAmount}), 0)`,
      baseGiftcard: sql<string>`coalesce(sum(${invoices.baseGiftcardAmount}), 0)`,
    })
    .from(invoices)
    .where(and(eq(invoices.orderId, orderId), ne(invoices.state, INVOICE_STATE.canceled)));
  return { count: Number(head.count), giftcard: dec(head.giftcard), baseGiftcard: dec(head.baseGiftcard) };
}

/**
 * What the order's invoices (not canceled) took of its gift cards, in the order's and the base currency: the
 * part of the cards a cancellation cannot give back. Read it on the locked order (invoices lock it too).
 */
export async function giftcardsInvoiced(ctx: Ctx, orderId: number): Promise<{ amount: Decimal; base: Decimal }> {
  const head = await invoicedHead(ctx, orderId);
  return { amount: head.giftcard, base: head.baseGiftcard };
}

/**
 * An item's amounts for `qty` more units: the item's amount pro-rated by the quantity invoiced once this
 * invoice exists, rounded to 2 places, less what earlier invoices took. The invoice that completes the item
 * therefore takes exactly what is left, and the invoices of an item always add up to the item.
 */
function proRate(item: OrderItemRow, qty: Decimal, prior: ItemMoney | undefined): ItemMoney {
  const ordered = dec(item.qtyOrdered);
  const after = dec(item.qtyInvoiced).add(qty);
  const out = zeroMoney();
  for (const k of ITEM_MONEY) {
    const amount = dec(item[k]);
    const share = after.gte(ordered) ? amount : roundMoney(amount.mul(after).div(ordered));
    out[k] = max0(share.sub(prior?.[k] ?? ZERO));
  }
  return out;
}

/**
 * Bills items of an order the caller has locked (lockOrder) in its open transaction: writes the invoice with
 * its items, moves the order's invoiced (and, when captured offline, paid) counters and its state through
 * recordProgress, notes it in the status history, and queues the invoice mail unless
 * `sales_email/invoice/enabled` is 0 or notifyCustomer is false. Shipping and the gift cards go on the first
 * invoice (a gift card amount larger than that invoice carries over to the next). Refuses with a 400 an order
 * whose state does not allow invoicing, an unknown item, a quantity of 0 or less, a fraction of a unit on a
 * whole-unit item, more than is left, or nothing to invoice; nothing is written then.
 */
export async function createInvoice(
  ctx: Ctx,
  locked: OrderWithItems,
  opts: CreateInvoiceOptions,
): Promise<{ invoiceId: number; order: OrderWithItems }> {
  const order = locked.order;
  if (!stateAllows(order.state, 'invoice')) throw refused(order.state, 'invoice');
  if (opts.capture !== 'offline' && opts.capture !== 'not_capture') {
    throw badRequest(`Unknown capture mode: ${String(opts.capture)}`, { reason: 'INVALID_CAPTURE' });
  }
  const chosen = chooseLines(locked, opts.items);
  if (!chosen.length) throw refused(order.state, 'invoice', 'nothing is left to invoice');

  return withTx(ctx, async (tx) => {
    const prior = await billedSoFar(tx, order.id);
    const plan = planInvoice(tx, locked, chosen, prior, opts);
    const incrementId = await nextIncrementId(tx, 'invoice', order.storeId);
    const [invoice] = await tx.db
      .insert(invoices)
      .values(invoiceRow(tx, plan, order, incrementId))
      .returning({ id: invoices.id });
    await tx.db.insert(invoiceItems).values(invoiceItemRows(plan, invoice.id));
    const updated = await recordProgress(tx, locked, plan.progress);
    await addStatusHistory(tx, updated.order, invoiceHistory(plan, incrementId));
    if (plan.comment)
      await tx.db
        .insert(invoiceComments)
        .values({ invoiceId: invoice.id, comment: plan.comment, isCustomerNotified: plan.mail, createdAt: tx.now });
    if (plan.mail) await queueOrderMail(tx, updated.order, invoiceMail(plan, order, incrementId));
    emitInvoiceCreated(tx, invoice.id, order.storeId, order.id);
    orderChanged(tx, order, updated.order);
    return { invoiceId: invoice.id, order: updated };
  });
}

type Prior = Awaited<ReturnType<typeof billedSoFar>>;
type InvoicePlan = ReturnType<typeof planInvoice>;

/** What an invoice of `chosen` bills, given what earlier invoices took: its amounts, lines and the order's progress. */
function planInvoice(
  ctx: Ctx,
  locked: OrderWithItems,
  chosen: { item: OrderItemRow; qty: Decimal }[],
  prior: Prior,
  opts: CreateInvoiceOptions,
) {
  const order = locked.order;
  const lines: Line[] = chosen.map(({ item, qty }) => ({ item, qty, money: proRate(item, qty, prior.items.get(item.id)) }));

  const sum = (k: ItemMoneyField) => lines.reduce((s, l) => s.add(l.money[k]), ZERO);
  const items = zeroMoney();
  for (const k of ITEM_MONEY) items[k] = sum(k);
  const totalQty = lines.reduce((s, l) => s.add(l.qty), ZERO);

  // shipping, its tax and the part of the order's discount that is not on any item (the shipping discount): on
  // the first invoice, or on the next one when the invoice that took them was canceled (which gives them back)
  const first = dec(order.shippingInvoiced).isZero() && (prior.count === 0 || dec(order.shippingAmount).gt(0));
  const itemDiscounts = locked.items.reduce((s, i) => s.add(i.discountAmount), ZERO);
  const baseItemDiscounts = locked.items.reduce((s, i) => s.add(i.baseDiscountAmount), ZERO);
  const ship = first
    ? {
        amount: dec(order.shippingAmount),
        base: dec(order.baseShippingAmount),
        inclTax: dec(order.shippingInclTax),
        baseInclTax: dec(order.baseShippingInclTax),
        tax: dec(order.shippingTaxAmount),
        baseTax: dec(order.baseShippingTaxAmount),
        discount: max0(dec(order.discountAmount).sub(itemDiscounts)),
        baseDiscount: max0(dec(order.baseDiscountAmount).sub(baseItemDiscounts)),
      }
    : { amount: ZERO, base: ZERO, inclTax: ZERO, baseInclTax: ZERO, tax: ZERO, baseTax: ZERO, discount: ZERO, baseDiscount: ZERO };

  const taxAmount = roundMoney(items.taxAmount.add(ship.tax));
  const baseTaxAmount = roundMoney(items.baseTaxAmount.add(ship.baseTax));
  const discountAmount = roundMoney(items.discountAmount.add(ship.discount));
  const baseDiscountAmount = roundMoney(items.baseDiscountAmount.add(ship.baseDiscount));
  const subtotal = roundMoney(items.rowTotal);
  const baseSubtotal = roundMoney(items.baseRowTotal);
  const due = max0(subtotal.add(ship.amount).add(taxAmount).sub(discountAmount));
  const baseDue = max0(baseSubtotal.add(ship.base).add(baseTaxAmount).sub(baseDiscountAmount));
  const giftcardAmount = min(max0(dec(order.giftcardAmount).sub(prior.giftcard)), due);
  const baseGiftcardAmount = min(max0(dec(order.baseGiftcardAmount).sub(prior.baseGiftcard)), baseDue);
  const grandTotal = roundMoney(due.sub(giftcardAmount));
  const baseGrandTotal = roundMoney(baseDue.sub(baseGiftcardAmount));
  const paid = opts.capture === 'offline';

  const comment = opts.comment?.trim() || undefined;
  const mail = opts.notifyCustomer !== false && ctx.app.settings.getBool('sales_email/invoice/enabled', order.storeId);
  const itemDeltas: ItemDelta[] = lines.map(({ item, qty, money }) => ({
    orderItemId: item.id,
    qtyInvoiced: qty,
    rowInvoiced: money.rowTotal,
    baseRowInvoiced: money.baseRowTotal,
    taxInvoiced: money.taxAmount,
    baseTaxInvoiced: money.baseTaxAmount,
    discountInvoiced: money.discountAmount,
    baseDiscountInvoiced: money.baseDiscountAmount,
  }));
  const progress = {
    items: itemDeltas,
    money: {
      subtotalInvoiced: subtotal,
      baseSubtotalInvoiced: baseSubtotal,
      totalInvoiced: grandTotal,
      baseTotalInvoiced: baseGrandTotal,
      taxInvoiced: taxAmount,
      baseTaxInvoiced: baseTaxAmount,
      shippingInvoiced: ship.amount,
      baseShippingInvoiced: ship.base,
      discountInvoiced: discountAmount,
      baseDiscountInvoiced: baseDiscountAmount,
      ...(paid ? { totalPaid: grandTotal, baseTotalPaid: baseGrandTotal } : {}),
    },
  };
  return {
    lines,
    items,
    totalQty,
    ship,
    taxAmount,
    baseTaxAmount,
    discountAmount,
    baseDiscountAmount,
    subtotal,
    baseSubtotal,
    giftcardAmount,
    baseGiftcardAmount,
    grandTotal,
    baseGrandTotal,
    paid,
    comment,
    mail,
    progress,
  };
}

function invoiceRow(ctx: Ctx, p: InvoicePlan, order: OrderWithItems['order'], incrementId: string) {
  return {
    incrementId,
    orderId: order.id,
    storeId: order.storeId,
    state: p.paid ? INVOICE_STATE.paid : INVOICE_STATE.open,
    currency: order.currency,
    baseCurrency: order.baseCurrency,
    totalQty: db4(p.totalQty),
    subtotal: db4(p.subtotal),
    baseSubtotal: db4(p.baseSubtotal),
    subtotalInclTax: db4(p.items.rowTotalInclTax),
    baseSubtotalInclTax: db4(p.items.baseRowTotalInclTax),
    taxAmount: db4(p.taxAmount),
    baseTaxAmount: db4(p.baseTaxAmount),
    shippingAmount: db4(p.ship.amount),
    baseShippingAmount: db4(p.ship.base),
    shippingInclTax: db4(p.ship.inclTax),
    baseShippingInclTax: db4(p.ship.baseInclTax),
    shippingTaxAmount: db4(p.ship.tax),
    baseShippingTaxAmount: db4(p.ship.baseTax),
    discountAmount: db4(p.discountAmount),
    baseDiscountAmount: db4(p.baseDiscountAmount),
    giftcardAmount: db4(p.giftcardAmount),
    baseGiftcardAmount: db4(p.baseGiftcardAmount),
    grandTotal: db4(p.grandTotal),
    baseGrandTotal: db4(p.baseGrandTotal),
    discountDescription: p.discountAmount.gt(0) ? (order.couponCode ?? order.couponRuleName) : null,
    emailSent: p.mail,
    createdAt: ctx.now,
    updatedAt: ctx.now,
  };
}

/** The invoice's items; `orderItemId` maps a line's order item to the id to store (placement: its index). */
function invoiceItemRows(p: InvoicePlan, invoiceId: number, orderItemId: (item: OrderItemRow) => number = (item) => item.id) {
  return p.lines.map(({ item, qty, money }) => ({
    invoiceId,
    orderItemId: orderItemId(item),
    productId: item.productId,
    sku: item.sku,
    name: item.name,
    qty: db4(qty),
    price: item.price,
    basePrice: item.basePrice,
    priceInclTax: item.priceInclTax,
    basePriceInclTax: item.basePriceInclTax,
    ...(Object.fromEntries(ITEM_MONEY.map((k) => [k, db4(money[k])])) as Record<ItemMoneyField, string>),
  }));
}

function invoiceHistory(p: InvoicePlan, incrementId: string) {
  return { comment: p.comment ?? `Invoice #${incrementId} created`, entityName: 'invoice' as const, isCustomerNotified: p.mail };
}

function invoiceMail(p: InvoicePlan, order: OrderWithItems['order'], incrementId: string): OrderMail {
  const c = order.currency;
  const totals = [
    `Subtotal: ${mailMoney(p.subtotal.toString(), c)}`,
    ...(p.discountAmount.gt(0) ? [`Discount: -${mailMoney(p.discountAmount.toString(), c)}`] : []),
    ...(p.ship.amount.gt(0) ? [`Shipping: ${mailMoney(p.ship.amount.toString(), c)}`] : []),
    `Tax: ${mailMoney(p.taxAmount.toString(), c)}`,
    ...(p.giftcardAmount.gt(0) ? [`Gift cards: -${mailMoney(p.giftcardAmount.toString(), c)}`] : []),
    `Grand total: ${mailMoney(p.grandTotal.toString(), c)}`,
  ];
  return {
    template: 'sales/invoice',
    subject: `Invoice #${incrementId} for order #${order.incrementId}`,
    intro: [`Here is invoice #${incrementId} for your order #${order.incrementId}${p.paid ? ', paid' : ''}.`],
    lines: [...p.lines.map((l) => itemLine(l.item, l.qty.toString(), l.money.rowTotal.toString(), c)), '', ...totals],
    outro: p.comment ? [p.comment] : undefined,
  };
}

/**
 * The invoice of everything a new order holds, for placement, which writes the order already invoiced: the
 * invoice's row and items as writes alongside the order's (writeOrder, which names the order and its items),
 * the order's progress, the history entry, the mail (undefined when none goes out) and the invoice's id among
 * what writeOrder answers. `placed` is the order as it would be inserted, items in insertion order. No query;
 * refuses as createInvoice does.
 */
export function invoiceAtPlacement(ctx: Ctx, placed: OrderWithItems, incrementId: string, capture: InvoiceCapture) {
  const order = placed.order;
  if (!stateAllows(order.state, 'invoice')) throw refused(order.state, 'invoice');
  const chosen = chooseLines(placed, undefined);
  if (!chosen.length) throw refused(order.state, 'invoice', 'nothing is left to invoice');
  const plan = planInvoice(ctx, placed, chosen, { items: new Map(), count: 0, giftcard: ZERO, baseGiftcard: ZERO }, { capture });
  const index = new Map(placed.items.map((item, i) => [item, i]));
  const row = invoiceRow(ctx, plan, order, incrementId);
  // the invoice's items name their order item by its index among the order's, which the statement turns into its id
  const items = invoiceItemRows(plan, 0, (item) => index.get(item)!);
  // the columns the rows give (the same for every invoice; the others take their defaults)
  const columns = { row: Object.keys(row) as (keyof typeof row)[], items: Object.keys(items[0]) as (keyof (typeof items)[0])[] };
  const writes: AlongsideWrite[] = [
    {
      name: 'inv',
      build: () => insertFromJson(invoices, 'inv_rows', { columns: columns.row, set: { orderId: writtenOrderId }, returning: sql`id` }),
      values: { inv_rows: jsonRows(invoices, [row]) },
      answer: sql`(SELECT id FROM inv)`,
    },
    {
      name: 'ii',
      build: () =>
        insertFromJson(invoiceItems, 'ii_rows', {
          columns: columns.items,
          set: { invoiceId: sql`(SELECT id FROM inv)`, orderItemId: writtenOrderItemId(sql`x.order_item_id`) },
        }),
      values: { ii_rows: jsonRows(invoiceItems, items) },
    },
  ];
  return {
    writes,
    invoiceId: (written: WrittenOrder) => Number(written.answers.inv),
    progress: plan.progress,
    history: invoiceHistory(plan, incrementId),
    mail: plan.mail
      ? (progressed: OrderWithItems['order']) => orderMailOf(ctx, progressed, invoiceMail(plan, order, incrementId))
      : undefined,
  };
}
