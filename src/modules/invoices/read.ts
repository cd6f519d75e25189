/**
 * Reading invoices: the wire shape (wire reference §2.9), an order's invoices, one invoice of an order, and
 * the two ways callers reach them (`/orders/{id}/invoices`: the order's customer or an admin, a foreign order
 * is 403; `/customers/me/orders/{id}/invoices`: the customer's own orders only, anything else is 404).
 */
import { and, asc, eq, inArray } from 'drizzle-orm';
import { together, type Ctx } from '../../platform/context.js';
import { forbidden, notFound } from '../../platform/errors.js';
import { compact, wireDateTime } from '../../platform/format.js';
import { toWire } from '../../platform/money.js';
import type { CollectionResult } from '../../platform/pagination.js';
import { findOrder, mayAccessOrder, orderNotFound, seesInternalComments, type OrderRow, type OrderWithItems } from '../orders/core.js';
import { renderInvoicePdf } from './invoice-pdf.js';
import type { InvoiceDto } from './schemas.js';
import { invoiceComments, invoiceItems, invoices } from './tables.js';

export type InvoiceRow = typeof invoices.$inferSelect;
type InvoiceItemRow = typeof invoiceItems.$inferSelect;
type InvoiceCommentRow = typeof invoiceComments.$inferSelect;

const STATE_NAMES: Record<number, InvoiceDto['stateName']> = { 1: 'open', 2: 'paid', 3: 'canceled' };

export const invoiceNotFound = () => notFound('Invoice not found', { reason: 'INVOICE_NOT_FOUND' });

const m = (v: string) => toWire(v);

function invoiceDto(h: InvoiceRow, orderIncrementId: string, items: InvoiceItemRow[], comments: InvoiceCommentRow[]): InvoiceDto {
  return compact({
    id: h.id,
    incrementId: h.incrementId,
    orderId: h.orderId,
    orderIncrementId,
    storeId: h.storeId,
    grandTotal: m(h.grandTotal),
    subtotal: m(h.subtotal),
    taxAmount: m(h.taxAmount),
    shippingAmount: m(h.shippingAmount),
    discountAmount: m(h.discountAmount),
    subtotalInclTax: m(h.subtotalInclTax),
    shippingInclTax: m(h.shippingInclTax),
    shippingTaxAmount: m(h.shippingTaxAmount),
    giftcardAmount: m(h.giftcardAmount),
    totalQty: toWire(h.totalQty),
    baseGrandTotal: m(h.baseGrandTotal),
    baseSubtotal: m(h.baseSubtotal),
    baseTaxAmount: m(h.baseTaxAmount),
    baseShippingAmount: m(h.baseShippingAmount),
    baseDiscountAmount: m(h.baseDiscountAmount),
    baseSubtotalInclTax: m(h.baseSubtotalInclTax),
    baseShippingInclTax: m(h.baseShippingInclTax),
    baseShippingTaxAmount: m(h.baseShippingTaxAmount),
    baseGiftcardAmount: m(h.baseGiftcardAmount),
    transactionId: h.transactionId,
    currency: h.currency,
    baseCurrencyCode: h.baseCurrency,
    state: h.state,
    stateName: STATE_NAMES[h.state] ?? 'open',
    emailSent: h.emailSent,
    canVoidFlag: h.canVoidFlag,
    isUsedForRefund: h.isUsedForRefund,
    discountDescription: h.discountDescription,
    createdAt: wireDateTime(h.createdAt)!,
    updatedAt: wireDateTime(h.updatedAt)!,
    items: items.map((i) => ({
      id: i.id,
      orderItemId: i.orderItemId,
      productId: i.productId,
      sku: i.sku,
      name: i.name,
      qty: toWire(i.qty),
      price: m(i.price),
      priceInclTax: m(i.priceInclTax),
      rowTotal: m(i.rowTotal),
      rowTotalInclTax: m(i.rowTotalInclTax),
      taxAmount: m(i.taxAmount),
      discountAmount: m(i.discountAmount),
      basePrice: m(i.basePrice),
      basePriceInclTax: m(i.basePriceInclTax),
      baseRowTotal: m(i.baseRowTotal),
      baseRowTotalInclTax: m(i.baseRowTotalInclTax),
      baseTaxAmount: m(i.baseTaxAmount),
      baseDiscountAmount: m(i.baseDiscountAmount),
    })),
    comments: comments.map((c) => ({
      id: c.id,
      comment: c.comment,
      createdAt: wireDateTime(c.createdAt)!,
      isCustomerNotified: c.isCustomerNotified,
      isVisibleOnFront: c.isVisibleOnFront,
    })),
  });
}

/**
 * The given invoice rows with their items and comments, in the order of `heads` (two statements, whatever their
 * number); `orderNumber` gives the increment id of an invoice's order.
 */
export async function withDetails(ctx: Ctx, heads: InvoiceRow[], orderNumber: (orderId: number) => string): Promise<InvoiceDto[]> {
  if (!heads.length) return [];
  const ids = heads.map((h) => h.id);
  const [items, comments] = await together(ctx, [
    () => ctx.db.select().from(invoiceItems).where(inArray(invoiceItems.invoiceId, ids)).orderBy(asc(invoiceItems.id)),
    () =>
      ctx.db
        .select()
        .from(invoiceComments)
        .where(inArray(invoiceComments.invoiceId, ids))
        .orderBy(asc(invoiceComments.createdAt), asc(invoiceComments.id)),
  ] as const);
  return heads.map((h) =>
    invoiceDto(
      h,
      orderNumber(h.orderId),
      items.filter((i) => i.invoiceId === h.id),
      comments.filter((c) => c.invoiceId === h.id),
    ),
  );
}

async function invoicesOf(ctx: Ctx, order: Pick<OrderRow, 'id' | 'incrementId'>): Promise<InvoiceDto[]> {
  const heads = await ctx.db
    .select()
    .from(invoices)
    .where(eq(invoices.orderId, order.id))
    .orderBy(asc(invoices.createdAt), asc(invoices.id));
  return withDetails(ctx, heads, () => order.incrementId);
}

async function invoiceOf(ctx: Ctx, order: Pick<OrderRow, 'id' | 'incrementId'>, invoiceId: number): Promise<InvoiceDto> {
  if (!Number.isInteger(invoiceId) || invoiceId < 1 || invoiceId > 2147483647) throw invoiceNotFound();
  const heads = await ctx.db
    .select()
    .from(invoices)
    .where(and(eq(invoices.id, invoiceId), eq(invoices.orderId, order.id)));
  if (!heads.length) throw invoiceNotFound();
  return (await withDetails(ctx, heads, () => order.incrementId))[0];
}

/** Every invoice of an order, oldest first ([] for an unknown order). No access check. */
export async function invoicesOfOrder(ctx: Ctx, orderId: number): Promise<InvoiceDto[]> {
  const found = await findOrder(ctx, orderId);
  return found ? invoicesOf(ctx, found.order) : [];
}

/** One invoice of an order; 404 when the order is unknown or the invoice is not on it. No access check. */
export async function getInvoiceForOrder(ctx: Ctx, orderId: number, invoiceId: number): Promise<InvoiceDto> {
  const found = await findOrder(ctx, orderId);
  if (!found) throw orderNotFound();
  return invoiceOf(ctx, found.order, invoiceId);
}

/**
 * How the caller reached the invoices: `orders` (/orders/{id}/invoices: the order's customer, or an admin/API
 * principal in the order's store views; anyone else gets 403) or `me` (/customers/me/orders/{id}/invoices:
 * the customer's own orders; anything else is 404 like a missing order).
 */
export type InvoiceRoute = 'orders' | 'me';

async function orderForCaller(ctx: Ctx, orderId: number, route: InvoiceRoute): Promise<OrderWithItems> {
  const found = await findOrder(ctx, orderId);
  if (route === 'me') {
    if (!found || ctx.actor.kind !== 'customer' || found.order.customerId !== ctx.actor.customerId) throw orderNotFound();
    return found;
  }
  if (!found) throw orderNotFound();
  if (!mayAccessOrder(ctx, found.order)) throw forbidden('Access denied: not your order', { reason: 'ORDER_ACCESS_DENIED' });
  return found;
}

/**
 * The invoices of an order the caller may see, oldest first and all of them, each with `pdfUrl` =
 * `<listPath>/<id>/pdf` (listPath: the path the list was asked at). A customer sees only the comments visible
 * on the storefront.
 */
export async function listInvoicesForCaller(
  ctx: Ctx,
  orderId: number,
  route: InvoiceRoute,
  listPath: string,
): Promise<CollectionResult<InvoiceDto>> {
  const { order } = await orderForCaller(ctx, orderId, route);
  const base = listPath.replace(/\/+$/, '');
  const internal = seesInternalComments(ctx);
  const items = (await invoicesOf(ctx, order)).map((i) => ({
    ...i,
    comments: internal ? i.comments : i.comments.filter((c) => c.isVisibleOnFront),
    pdfUrl: `${base}/${i.id}/pdf`,
  }));
  return { items, total: items.length };
}

/** The PDF of one invoice of an order the caller may see (404 when the invoice is not on that order). */
export async function invoicePdfForCaller(
  ctx: Ctx,
  orderId: number,
  invoiceId: number,
  route: InvoiceRoute,
): Promise<{ filename: string; body: Buffer }> {
  const { order } = await orderForCaller(ctx, orderId, route);
  const invoice = await invoiceOf(ctx, order, invoiceId);
  return { filename: `invoice_${invoice.incrementId}.pdf`, body: await renderInvoicePdf(ctx, order, invoice) };
}
