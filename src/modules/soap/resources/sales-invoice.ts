/**
 * `sales_order_invoice` (`order_invoice`) of the Magento 1 API: list (with Magento's filters), info (with items and
 * comments), create (all of an order, or an order item → qty map), addComment, capture, void and cancel, over the
 * invoices service. Invoices and orders are named by their increment ids.
 */
import type { Ctx } from '../../../platform/context.js';
import { AppError } from '../../../platform/errors.js';
import { createInvoiceForOrder, invoiceAction, type InvoiceAction } from '../../invoices/lifecycle.js';
import { addInvoiceComment, invoiceByIncrementId, invoiceRowsWhere, type LegacyInvoice } from '../../invoices/legacy.js';
import type { InvoiceRow } from '../../invoices/read.js';
import { findOrder } from '../../orders/core.js';
import { orderByIncrementId } from '../../orders/legacy.js';
import { isRecord } from '../encoding.js';
import { filterSql, FilterError, parseFilters, type FilterColumn } from '../filters.js';
import { defineResource, magentoDate, resourceFault, type LegacyValue } from '../resources.js';

type Rec = Map<string, LegacyValue>;
const flag = (b: boolean) => (b ? 1 : 0);

/** A row of Magento's invoice list: the fields its collection selects, and `invoice_id`. */
function listRecord(h: InvoiceRow): Rec {
  return new Map<string, LegacyValue>([
    ['order_id', h.orderId],
    ['increment_id', h.incrementId],
    ['created_at', magentoDate(h.createdAt)],
    ['state', h.state],
    ['grand_total', h.grandTotal],
    ['order_currency_code', h.currency],
    ['invoice_id', h.id],
  ]);
}

/** The invoice as Magento's sales_flat_invoice row. */
function invoiceFields(h: InvoiceRow): [string, LegacyValue][] {
  return [
    ['store_id', h.storeId],
    ['base_grand_total', h.baseGrandTotal],
    ['shipping_tax_amount', h.shippingTaxAmount],
    ['tax_amount', h.taxAmount],
    ['base_tax_amount', h.baseTaxAmount],
    ['base_shipping_tax_amount', h.baseShippingTaxAmount],
    ['base_discount_amount', h.baseDiscountAmount],
    ['grand_total', h.grandTotal],
    ['shipping_amount', h.shippingAmount],
    ['subtotal_incl_tax', h.subtotalInclTax],
    ['base_subtotal_incl_tax', h.baseSubtotalInclTax],
    ['base_shipping_amount', h.baseShippingAmount],
    ['total_qty', h.totalQty],
    ['subtotal', h.subtotal],
    ['base_subtotal', h.baseSubtotal],
    ['discount_amount', h.discountAmount],
    ['is_used_for_refund', flag(h.isUsedForRefund)],
    ['order_id', h.orderId],
    ['email_sent', flag(h.emailSent)],
    ['can_void_flag', flag(h.canVoidFlag)],
    ['state', h.state],
    ['store_currency_code', h.baseCurrency],
    ['transaction_id', h.transactionId],
    ['order_currency_code', h.currency],
    ['base_currency_code', h.baseCurrency],
    ['global_currency_code', h.baseCurrency],
    ['increment_id', h.incrementId],
    ['created_at', magentoDate(h.createdAt)],
    ['updated_at', magentoDate(h.updatedAt)],
    ['shipping_incl_tax', h.shippingInclTax],
    ['base_shipping_incl_tax', h.baseShippingInclTax],
    ['discount_description', h.discountDescription],
    ['invoice_id', h.id],
  ];
}

async function infoRecord(ctx: Ctx, { invoice: h, items, comments }: LegacyInvoice): Promise<Rec> {
  const order = (await findOrder(ctx, h.orderId))?.order;
  const billing = order?.billingAddress;
  return new Map<string, LegacyValue>([
    ...invoiceFields(h),
    ['order_increment_id', order?.incrementId ?? null],
    ['order_created_at', magentoDate(order?.createdAt)],
    ['billing_firstname', billing?.firstName ?? null],
    ['billing_middlename', null],
    ['billing_lastname', billing?.lastName ?? null],
    [
      'items',
      items.map(
        (i) =>
          new Map<string, LegacyValue>([
            ['parent_id', i.invoiceId],
            ['base_price', i.basePrice],
            ['tax_amount', i.taxAmount],
            ['base_row_total', i.baseRowTotal],
            ['discount_amount', i.discountAmount],
            ['row_total', i.rowTotal],
            ['base_discount_amount', i.baseDiscountAmount],
            ['price_incl_tax', i.priceInclTax],
            ['base_tax_amount', i.baseTaxAmount],
            ['base_price_incl_tax', i.basePriceInclTax],
            ['qty', i.qty],
            ['base_cost', null],
            ['price', i.price],
            ['base_row_total_incl_tax', i.baseRowTotalInclTax],
            ['row_total_incl_tax', i.rowTotalInclTax],
            ['product_id', i.productId],
            ['order_item_id', i.orderItemId],
            ['additional_data', null],
            ['description', null],
            ['sku', i.sku],
            ['name', i.name],
            ['item_id', i.id],
          ]),
      ),
    ],
    [
      'comments',
      comments.map(
        (c) =>
          new Map<string, LegacyValue>([
            ['parent_id', c.invoiceId],
            ['is_customer_notified', flag(c.isCustomerNotified)],
            ['is_visible_on_front', flag(c.isVisibleOnFront)],
            ['comment', c.comment],
            ['created_at', magentoDate(c.createdAt)],
            ['comment_id', c.id],
          ]),
      ),
    ],
  ]);
}

/** The list's filter fields: Magento's invoice columns (and `invoice_id`). */
function columns(t: Parameters<Parameters<typeof invoiceRowsWhere>[1]>[0]): Record<string, FilterColumn> {
  const num = (column: FilterColumn['column']): FilterColumn => ({ column, type: 'number' });
  return {
    invoice_id: num(t.id),
    entity_id: num(t.id),
    increment_id: { column: t.incrementId },
    order_id: num(t.orderId),
    store_id: num(t.storeId),
    state: num(t.state),
    grand_total: num(t.grandTotal),
    base_grand_total: num(t.baseGrandTotal),
    subtotal: num(t.subtotal),
    base_subtotal: num(t.baseSubtotal),
    tax_amount: num(t.taxAmount),
    shipping_amount: num(t.shippingAmount),
    discount_amount: num(t.discountAmount),
    total_qty: num(t.totalQty),
    order_currency_code: { column: t.currency },
    base_currency_code: { column: t.baseCurrency },
    transaction_id: { column: t.transactionId },
    email_sent: { column: t.emailSent, type: 'bool' },
    can_void_flag: { column: t.canVoidFlag, type: 'bool' },
    is_used_for_refund: { column: t.isUsedForRefund, type: 'bool' },
    created_at: { column: t.createdAt, type: 'date' },
    updated_at: { column: t.updatedAt, type: 'date' },
  };
}

const refOf = (ref: LegacyValue | undefined) =>
  typeof ref === 'string' ? ref : typeof ref === 'number' && Number.isInteger(ref) ? String(ref) : '';

/** The invoice an `invoiceIncrementId` argument names, as the caller may see it; `not_exists` otherwise. */
async function invoiceArg(ctx: Ctx, ref: LegacyValue | undefined): Promise<LegacyInvoice> {
  const number = refOf(ref);
  const found = number ? await invoiceByIncrementId(ctx, number) : undefined;
  if (!found) throw resourceFault(salesOrderInvoice, 'not_exists');
  return found;
}

const truthy = (v: LegacyValue | undefined) => v === true || v === 1 || v === '1' || v === 'true';

const invalid = (message: string) => resourceFault(salesOrderInvoice, 'data_invalid', message);

/**
 * The items of a create: Magento's map of order item id → qty (a V2 client's list of {order_item_id, qty} too).
 * A quantity of 0 leaves the item out, as Magento does; none given (or an empty map) is everything left.
 */
function itemsQty(v: LegacyValue | undefined): { orderItemId: number; qty: number }[] | undefined {
  if (v === undefined || v === null || v === '' || (Array.isArray(v) && !v.length)) return undefined;
  let pairs: [LegacyValue, LegacyValue | undefined][];
  if (isRecord(v)) pairs = [...v];
  else if (Array.isArray(v) && v.every(isRecord)) pairs = v.map((p) => [p.get('order_item_id') ?? null, p.get('qty')]);
  else throw invalid('The items to invoice are a map of order item id to quantity.');
  if (!pairs.length) return undefined;
  const out: { orderItemId: number; qty: number }[] = [];
  for (const [id, q] of pairs) {
    const orderItemId = Number(id);
    const qty = typeof q === 'number' ? q : typeof q === 'string' && q.trim() !== '' ? Number(q) : NaN;
    if (!Number.isInteger(orderItemId) || orderItemId < 1 || orderItemId > 2147483647) throw invalid(`Unknown order item: ${String(id)}.`);
    if (!Number.isFinite(qty) || qty < 0) throw invalid(`Invalid quantity for order item ${orderItemId}.`);
    if (qty > 0) out.push({ orderItemId, qty });
  }
  if (!out.length) throw invalid('Cannot create an invoice without products.');
  return out;
}

/** Magento's refusal of each invoice action. */
const REFUSED: Record<InvoiceAction, string> = {
  capture: 'Invoice cannot be captured.',
  void: 'Invoice cannot be voided.',
  cancel: 'Invoice cannot be canceled.',
};

function action(which: InvoiceAction) {
  return async (ctx: Ctx, [ref]: (LegacyValue | undefined)[]) => {
    const { invoice } = await invoiceArg(ctx, ref);
    try {
      await invoiceAction(ctx, invoice.id, which);
    } catch (err) {
      if (err instanceof AppError && err.status === 404) throw resourceFault(salesOrderInvoice, 'not_exists');
      if (err instanceof AppError && err.status < 500) {
        const detail = err.reason === 'INVOICE_ACTION_NOT_ALLOWED' ? REFUSED[which] : err.message;
        throw resourceFault(salesOrderInvoice, 'status_not_changed', detail);
      }
      throw err;
    }
    return true;
  };
}

export const salesOrderInvoice = defineResource({
  name: 'sales_order_invoice',
  title: 'Invoice API',
  aliases: ['order_invoice'],
  faults: {
    not_exists: ['100', 'Requested invoice does not exist.'],
    invalid_filter: ['101', 'Invalid filter given. Details in error message.'],
    data_invalid: ['102', 'Invalid data given. Details in error message.'],
    order_not_exists: ['103', 'Requested order not exists.'],
    status_not_changed: ['104', 'Invoice status not changed'],
  },
  methods: {
    list: {
      title: 'Retrieve list of invoices by filters',
      permission: ['invoices', 'read'],
      params: ['filters'],
      run: async (ctx, [filters]) => {
        let rows: InvoiceRow[];
        try {
          const parsed = parseFilters(filters);
          rows = await invoiceRowsWhere(ctx, (t) => filterSql(parsed, columns(t)));
        } catch (err) {
          if (err instanceof FilterError) throw resourceFault(salesOrderInvoice, 'invalid_filter', err.message);
          throw err;
        }
        return rows.map(listRecord);
      },
    },
    info: {
      title: 'Retrieve invoice information',
      permission: ['invoices', 'read'],
      params: ['invoiceIncrementId'],
      run: async (ctx, [ref]) => infoRecord(ctx, await invoiceArg(ctx, ref)),
    },
    create: {
      title: 'Create new invoice for order',
      permission: ['invoices', 'create'],
      params: ['orderIncrementId', 'itemsQty', 'comment', 'email', 'includeComment'],
      run: async (ctx, [ref, qtys, comment, email]) => {
        const number = refOf(ref);
        const found = number ? await orderByIncrementId(ctx, number) : undefined;
        if (!found) throw resourceFault(salesOrderInvoice, 'order_not_exists');
        if (comment !== undefined && comment !== null && typeof comment !== 'string') throw invalid('The comment must be a string.');
        const items = itemsQty(qtys);
        try {
          // every payment method here is offline: the invoice is paid at once, as Magento registers it for such a method
          const created = await createInvoiceForOrder(ctx, found.order.id, {
            items,
            capture: 'offline',
            comment: comment ?? undefined,
            notifyCustomer: truthy(email),
          });
          return created.incrementId;
        } catch (err) {
          if (err instanceof AppError && err.status === 404) throw resourceFault(salesOrderInvoice, 'order_not_exists');
          if (err instanceof AppError && err.reason === 'ORDER_NOT_INVOICEABLE') throw invalid('Cannot do invoice for order.');
          if (err instanceof AppError && err.status < 500) throw invalid(err.message);
          throw err;
        }
      },
    },
    addComment: {
      title: 'Add new comment to shipment',
      permission: ['invoices', 'write'],
      params: ['invoiceIncrementId', 'comment', 'email', 'includeComment'],
      run: async (ctx, [ref, comment, email, includeComment]) => {
        const { invoice } = await invoiceArg(ctx, ref);
        if (typeof comment !== 'string' && typeof comment !== 'number') throw invalid('The comment is required.');
        try {
          await addInvoiceComment(ctx, invoice.id, {
            comment: String(comment),
            notifyCustomer: truthy(email),
            includeComment: truthy(includeComment),
          });
        } catch (err) {
          if (err instanceof AppError && err.status === 404) throw resourceFault(salesOrderInvoice, 'not_exists');
          if (err instanceof AppError && err.status < 500) throw invalid(err.message);
          throw err;
        }
        return true;
      },
    },
    capture: { title: 'Capture invoice', permission: ['invoices', 'write'], params: ['invoiceIncrementId'], run: action('capture') },
    void: { title: 'Void invoice', permission: ['invoices', 'write'], params: ['invoiceIncrementId'], run: action('void') },
    cancel: { title: 'Cancel invoice', permission: ['invoices', 'write'], params: ['invoiceIncrementId'], run: action('cancel') },
  },
});
