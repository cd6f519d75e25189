/**
 * `sales_order` (`order`) of the Magento 1 API: list (the flat order rows, with Magento's filters over its order
 * fields and the billing and shipping names), info (the order with its addresses, items, payment and status
 * history), addComment, hold, unhold and cancel, over the orders service. Orders are named by their increment id.
 */
import { sql } from 'drizzle-orm';
import type { Ctx } from '../../../platform/context.js';
import { dec } from '../../../platform/money.js';
import type { OrderAddress, OrderItemRow, OrderRow } from '../../orders/core.js';
import { orderByIncrementId, orderRowsWhere, type LegacyOrder, type OrderColumns, type OrderHistoryRow } from '../../orders/legacy.js';
import { addOrderComment, cancelOrder, holdOrder, unholdOrder } from '../../orders/service.js';
import { filterSql, FilterError, parseFilters, type FilterColumn } from '../filters.js';
import { defineResource, magentoDate, resourceFault, serviceFault, type LegacyValue } from '../resources.js';

type Rec = Map<string, LegacyValue>;
const flag = (b: boolean | null | undefined) => (b ? 1 : 0);
const money = (v: string | null | undefined) => v ?? null;
const due = (total: string, paid: string) => {
  const d = dec(total).sub(paid);
  return (d.isNegative() ? dec(0) : d).toFixed(4);
};

/** A value as PHP's serialize() writes it: Magento keeps an item's product_options so, and clients unserialize them. */
export function phpSerialize(v: unknown): string {
  if (v === null || v === undefined) return 'N;';
  if (typeof v === 'boolean') return `b:${v ? 1 : 0};`;
  if (typeof v === 'number') return Number.isInteger(v) ? `i:${v};` : `d:${v};`;
  if (typeof v === 'string') return `s:${Buffer.byteLength(v, 'utf8')}:"${v}";`;
  const entries: [string | number, unknown][] = Array.isArray(v) ? v.map((x, i) => [i, x]) : Object.entries(v as object);
  const key = (k: string | number) => (typeof k === 'number' || /^(0|[1-9]\d{0,17})$/.test(k) ? `i:${k};` : phpSerialize(k));
  return `a:${entries.length}:{${entries.map(([k, x]) => key(k) + phpSerialize(x)).join('')}}`;
}

/** The order's own fields, as Magento's sales_flat_order row (`order_id` for its entity id). */
function orderFields(ctx: Ctx, o: OrderRow): [string, LegacyValue][] {
  return [
    ['state', o.state],
    ['status', o.status],
    ['coupon_code', o.couponCode],
    ['protect_code', null],
    ['shipping_description', o.shippingDescription],
    ['is_virtual', flag(o.isVirtual)],
    ['store_id', o.storeId],
    ['customer_id', o.customerId],
    ['base_discount_amount', money(o.baseDiscountAmount)],
    ['base_discount_invoiced', money(o.baseDiscountInvoiced)],
    ['base_discount_refunded', money(o.baseDiscountRefunded)],
    ['base_grand_total', money(o.baseGrandTotal)],
    ['base_shipping_amount', money(o.baseShippingAmount)],
    ['base_shipping_invoiced', money(o.baseShippingInvoiced)],
    ['base_shipping_refunded', money(o.baseShippingRefunded)],
    ['base_shipping_tax_amount', money(o.baseShippingTaxAmount)],
    ['base_subtotal', money(o.baseSubtotal)],
    ['base_subtotal_canceled', money(o.baseSubtotalCanceled)],
    ['base_subtotal_invoiced', money(o.baseSubtotalInvoiced)],
    ['base_subtotal_refunded', money(o.baseSubtotalRefunded)],
    ['base_tax_amount', money(o.baseTaxAmount)],
    ['base_tax_invoiced', money(o.baseTaxInvoiced)],
    ['base_tax_refunded', money(o.baseTaxRefunded)],
    ['base_to_global_rate', '1.0000'],
    ['base_to_order_rate', o.baseToOrderRate],
    ['base_total_canceled', money(o.baseTotalCanceled)],
    ['base_total_invoiced', money(o.baseTotalInvoiced)],
    ['base_total_offline_refunded', money(o.baseTotalRefunded)],
    ['base_total_paid', money(o.baseTotalPaid)],
    ['base_total_qty_ordered', null],
    ['base_total_refunded', money(o.baseTotalRefunded)],
    ['discount_amount', money(o.discountAmount)],
    ['discount_invoiced', money(o.discountInvoiced)],
    ['discount_refunded', money(o.discountRefunded)],
    ['grand_total', money(o.grandTotal)],
    ['shipping_amount', money(o.shippingAmount)],
    ['shipping_invoiced', money(o.shippingInvoiced)],
    ['shipping_refunded', money(o.shippingRefunded)],
    ['shipping_tax_amount', money(o.shippingTaxAmount)],
    ['subtotal', money(o.subtotal)],
    ['subtotal_canceled', money(o.subtotalCanceled)],
    ['subtotal_invoiced', money(o.subtotalInvoiced)],
    ['subtotal_refunded', money(o.subtotalRefunded)],
    ['tax_amount', money(o.taxAmount)],
    ['tax_invoiced', money(o.taxInvoiced)],
    ['tax_refunded', money(o.taxRefunded)],
    ['total_canceled', money(o.totalCanceled)],
    ['total_invoiced', money(o.totalInvoiced)],
    ['total_offline_refunded', money(o.totalRefunded)],
    ['total_paid', money(o.totalPaid)],
    ['total_qty_ordered', o.totalQtyOrdered],
    ['total_refunded', money(o.totalRefunded)],
    ['customer_is_guest', flag(o.customerIsGuest)],
    ['customer_note_notify', null],
    ['customer_group_id', o.customerGroupId],
    ['email_sent', flag(o.emailSent)],
    ['quote_id', o.quoteId],
    ['adjustment_negative', money(o.adjustmentNegative)],
    ['adjustment_positive', money(o.adjustmentPositive)],
    ['base_adjustment_negative', money(o.baseAdjustmentNegative)],
    ['base_adjustment_positive', money(o.baseAdjustmentPositive)],
    ['base_subtotal_incl_tax', money(o.baseSubtotalInclTax)],
    ['base_total_due', due(o.baseGrandTotal, o.baseTotalPaid)],
    ['subtotal_incl_tax', money(o.subtotalInclTax)],
    ['total_due', due(o.grandTotal, o.totalPaid)],
    ['weight', o.weight],
    ['increment_id', o.incrementId],
    ['applied_rule_ids', o.appliedRuleIds.length ? o.appliedRuleIds.join(',') : null],
    ['base_currency_code', o.baseCurrency],
    ['customer_email', o.customerEmail],
    ['customer_firstname', o.customerFirstname],
    ['customer_lastname', o.customerLastname],
    ['discount_description', o.couponCode ?? o.couponRuleName],
    ['global_currency_code', o.baseCurrency],
    ['hold_before_state', o.holdBeforeState],
    ['hold_before_status', o.holdBeforeStatus],
    ['order_currency_code', o.currency],
    ['remote_ip', o.remoteIp],
    ['shipping_method', o.shippingMethod],
    ['store_currency_code', o.baseCurrency],
    ['store_name', ctx.app.settings.store(o.storeId)?.name ?? null],
    ['x_forwarded_for', o.xForwardedFor],
    ['customer_note', o.customerNote],
    ['created_at', magentoDate(o.createdAt)],
    ['updated_at', magentoDate(o.updatedAt)],
    ['total_item_count', o.totalItemCount],
    ['shipping_incl_tax', money(o.shippingInclTax)],
    ['base_shipping_incl_tax', money(o.baseShippingInclTax)],
    ['coupon_rule_name', o.couponRuleName],
    ['gift_message_id', null],
    ...(o.giftMessage ? [['gift_message', o.giftMessage.message] as [string, LegacyValue]] : []),
    ['order_id', o.id],
  ];
}

const name = (a: OrderAddress | null, part: 'firstName' | 'lastName') => a?.[part] ?? null;
const fullName = (a: OrderAddress | null) => (a ? `${a.firstName} ${a.lastName}` : null);

/** A row of Magento's order list: the order's fields with the billing and shipping names. */
function listRecord(ctx: Ctx, o: OrderRow): Rec {
  return new Map([
    ...orderFields(ctx, o),
    ['billing_firstname', name(o.billingAddress, 'firstName')],
    ['billing_lastname', name(o.billingAddress, 'lastName')],
    ['shipping_firstname', name(o.shippingAddress, 'firstName')],
    ['shipping_lastname', name(o.shippingAddress, 'lastName')],
    ['billing_name', fullName(o.billingAddress)],
    ['shipping_name', fullName(o.shippingAddress)],
  ]);
}

/** An order address as Magento's sales_flat_order_address row; none (a virtual order's shipping) is an empty list. */
function addressRecord(o: OrderRow, type: 'billing' | 'shipping'): LegacyValue {
  const a = type === 'billing' ? o.billingAddress : o.shippingAddress;
  if (!a) return [];
  return new Map<string, LegacyValue>([
    ['parent_id', o.id],
    ['customer_address_id', a.customerAddressId ?? null],
    ['quote_address_id', null],
    ['region_id', a.regionId ?? null],
    ['customer_id', o.customerId],
    ['fax', null],
    ['region', a.region ?? null],
    ['postcode', a.postcode],
    ['lastname', a.lastName],
    ['street', a.street.join('\n')],
    ['city', a.city],
    ['email', a.email ?? o.customerEmail],
    ['telephone', a.telephone],
    ['country_id', a.countryId],
    ['firstname', a.firstName],
    ['address_type', type],
    ['prefix', null],
    ['middlename', null],
    ['suffix', null],
    ['company', a.company ?? null],
    ['vat_id', null],
    // one address of each type per order: the order's id and the type name it, as the entity id named Magento's
    ['address_id', type === 'billing' ? o.id * 2 - 1 : o.id * 2],
  ]);
}

/** An order line as Magento's sales_flat_order_item row; options as Magento serializes them. */
function itemRecord(o: OrderRow, i: OrderItemRow): Rec {
  const options: Record<string, unknown> = { info_buyRequest: { ...i.buyRequest, qty: Number(i.qtyOrdered) } };
  const shown = (i.productOptions as { options?: unknown[] }).options;
  if (Array.isArray(shown) && shown.length) options.options = shown;
  return new Map<string, LegacyValue>([
    ['item_id', i.id],
    ['order_id', o.id],
    ['parent_item_id', null],
    ['quote_item_id', null],
    ['store_id', o.storeId],
    ['created_at', magentoDate(i.createdAt)],
    ['updated_at', magentoDate(i.createdAt)],
    ['product_id', i.productId],
    ['product_type', i.productType],
    ['product_options', phpSerialize(options)],
    ['weight', i.weight],
    ['is_virtual', flag(i.isVirtual)],
    ['sku', i.sku],
    ['name', i.name],
    ['description', i.description],
    ['applied_rule_ids', null],
    ['additional_data', null],
    ['free_shipping', flag(i.freeShipping)],
    ['is_qty_decimal', flag(i.isQtyDecimal)],
    ['no_discount', flag(i.noDiscount)],
    ['qty_backordered', i.qtyBackordered],
    ['qty_canceled', i.qtyCanceled],
    ['qty_invoiced', i.qtyInvoiced],
    ['qty_ordered', i.qtyOrdered],
    ['qty_refunded', i.qtyRefunded],
    ['qty_shipped', i.qtyShipped],
    ['base_cost', null],
    ['price', i.price],
    ['base_price', i.basePrice],
    ['original_price', i.originalPrice],
    ['base_original_price', i.baseOriginalPrice],
    ['tax_percent', i.taxPercent],
    ['tax_amount', i.taxAmount],
    ['base_tax_amount', i.baseTaxAmount],
    ['tax_invoiced', i.taxInvoiced],
    ['base_tax_invoiced', i.baseTaxInvoiced],
    ['discount_percent', i.discountPercent],
    ['discount_amount', i.discountAmount],
    ['base_discount_amount', i.baseDiscountAmount],
    ['discount_invoiced', i.discountInvoiced],
    ['base_discount_invoiced', i.baseDiscountInvoiced],
    ['amount_refunded', i.amountRefunded],
    ['base_amount_refunded', i.baseAmountRefunded],
    ['row_total', i.rowTotal],
    ['base_row_total', i.baseRowTotal],
    ['row_invoiced', i.rowInvoiced],
    ['base_row_invoiced', i.baseRowInvoiced],
    ['row_weight', i.rowWeight],
    ['price_incl_tax', i.priceInclTax],
    ['base_price_incl_tax', i.basePriceInclTax],
    ['row_total_incl_tax', i.rowTotalInclTax],
    ['base_row_total_incl_tax', i.baseRowTotalInclTax],
    ['tax_refunded', i.taxRefunded],
    ['base_tax_refunded', i.baseTaxRefunded],
    ['discount_refunded', i.discountRefunded],
    ['base_discount_refunded', i.baseDiscountRefunded],
    ['gift_message_id', null],
    ...(i.giftMessage ? [['gift_message', i.giftMessage.message] as [string, LegacyValue]] : []),
  ]);
}

/** The order's payment as Magento's sales_flat_order_payment row (one per order: `payment_id` is the order's id). */
function paymentRecord(o: OrderRow): Rec {
  const data = o.paymentData ?? {};
  const po = typeof data.poNumber === 'string' ? data.poNumber : typeof data.po_number === 'string' ? data.po_number : null;
  const info = new Map<string, LegacyValue>(
    Object.entries(data).flatMap(([k, v]) =>
      v === null || ['string', 'number', 'boolean'].includes(typeof v) ? [[k, v as LegacyValue] as [string, LegacyValue]] : [],
    ),
  );
  return new Map<string, LegacyValue>([
    ['parent_id', o.id],
    ['base_shipping_amount', o.baseShippingAmount],
    ['shipping_amount', o.shippingAmount],
    ['base_amount_paid', o.baseTotalPaid],
    ['amount_paid', o.totalPaid],
    ['base_amount_ordered', o.baseGrandTotal],
    ['amount_ordered', o.grandTotal],
    ['base_amount_refunded', o.baseTotalRefunded],
    ['amount_refunded', o.totalRefunded],
    ['base_amount_canceled', o.baseTotalCanceled],
    ['amount_canceled', o.totalCanceled],
    ['method', o.paymentMethod],
    ['po_number', po],
    ['cc_type', null],
    ['cc_last4', null],
    ['cc_owner', null],
    ['cc_exp_month', null],
    ['cc_exp_year', null],
    ['last_trans_id', null],
    ['additional_information', info],
    ['method_title', o.paymentTitle],
    ['payment_id', o.id],
  ]);
}

function historyRecord(h: OrderHistoryRow): Rec {
  return new Map<string, LegacyValue>([
    ['parent_id', h.orderId],
    ['is_customer_notified', flag(h.isCustomerNotified)],
    ['is_visible_on_front', flag(h.isVisibleOnFront)],
    ['comment', h.comment],
    ['status', h.status],
    ['created_at', magentoDate(h.createdAt)],
    ['entity_name', h.entityName],
  ]);
}

function infoRecord(ctx: Ctx, { order, items, history }: LegacyOrder): Rec {
  return new Map<string, LegacyValue>([
    ...orderFields(ctx, order),
    ['shipping_address', addressRecord(order, 'shipping')],
    ['billing_address', addressRecord(order, 'billing')],
    ['items', items.map((i) => itemRecord(order, i))],
    ['payment', paymentRecord(order)],
    ['status_history', history.map(historyRecord)],
  ]);
}

/** The list's filter fields: Magento's order columns (and `order_id`), and the billing and shipping names. */
function columns({ table: t, address }: OrderColumns): Record<string, FilterColumn> {
  const num = (column: FilterColumn['column']): FilterColumn => ({ column, type: 'number' });
  const out: Record<string, FilterColumn> = {
    order_id: num(t.id),
    entity_id: num(t.id),
    increment_id: { column: t.incrementId },
    state: { column: t.state },
    status: { column: t.status },
    store_id: num(t.storeId),
    customer_id: num(t.customerId),
    customer_email: { column: t.customerEmail },
    customer_firstname: { column: t.customerFirstname },
    customer_lastname: { column: t.customerLastname },
    customer_group_id: num(t.customerGroupId),
    customer_is_guest: { column: t.customerIsGuest, type: 'bool' },
    quote_id: num(t.quoteId),
    coupon_code: { column: t.couponCode },
    shipping_method: { column: t.shippingMethod },
    order_currency_code: { column: t.currency },
    base_currency_code: { column: t.baseCurrency },
    is_virtual: { column: t.isVirtual, type: 'bool' },
    email_sent: { column: t.emailSent, type: 'bool' },
    total_item_count: num(t.totalItemCount),
    total_qty_ordered: num(t.totalQtyOrdered),
    created_at: { column: t.createdAt, type: 'date' },
    updated_at: { column: t.updatedAt, type: 'date' },
  };
  const amounts: [string, FilterColumn['column']][] = [
    ['grand_total', t.grandTotal],
    ['base_grand_total', t.baseGrandTotal],
    ['subtotal', t.subtotal],
    ['base_subtotal', t.baseSubtotal],
    ['tax_amount', t.taxAmount],
    ['base_tax_amount', t.baseTaxAmount],
    ['shipping_amount', t.shippingAmount],
    ['base_shipping_amount', t.baseShippingAmount],
    ['discount_amount', t.discountAmount],
    ['base_discount_amount', t.baseDiscountAmount],
    ['total_paid', t.totalPaid],
    ['base_total_paid', t.baseTotalPaid],
    ['total_invoiced', t.totalInvoiced],
    ['base_total_invoiced', t.baseTotalInvoiced],
    ['total_refunded', t.totalRefunded],
    ['base_total_refunded', t.baseTotalRefunded],
    ['total_canceled', t.totalCanceled],
    ['base_total_canceled', t.baseTotalCanceled],
  ];
  for (const [field, column] of amounts) out[field] = num(column);
  for (const type of ['billing', 'shipping'] as const) {
    out[`${type}_firstname`] = { column: address(type, 'firstName') };
    out[`${type}_lastname`] = { column: address(type, 'lastName') };
    out[`${type}_telephone`] = { column: address(type, 'telephone') };
    out[`${type}_postcode`] = { column: address(type, 'postcode') };
    out[`${type}_name`] = { column: sql`(${address(type, 'firstName')} || ' ' || ${address(type, 'lastName')})` };
  }
  return out;
}

/** A service error as the resource's fault: a missing order as `not_exists`, a refused change as `status_not_changed`. */
function asFault(err: unknown): never {
  return serviceFault(salesOrder, err, { missing: 'not_exists', hideForbidden: true, invalid: 'status_not_changed' });
}

/** The order an `orderIncrementId` argument names, as the caller may see it; `not_exists` otherwise. */
async function orderArg(ctx: Ctx, ref: LegacyValue | undefined): Promise<LegacyOrder> {
  const number = typeof ref === 'string' ? ref : typeof ref === 'number' && Number.isInteger(ref) ? String(ref) : '';
  const found = number ? await orderByIncrementId(ctx, number) : undefined;
  if (!found) throw resourceFault(salesOrder, 'not_exists');
  return found;
}

const truthy = (v: LegacyValue | undefined) => v === true || v === 1 || v === '1' || v === 'true';

async function change(ctx: Ctx, ref: LegacyValue | undefined, run: (id: number) => Promise<unknown>): Promise<true> {
  const { order } = await orderArg(ctx, ref);
  try {
    await run(order.id);
  } catch (err) {
    asFault(err);
  }
  return true;
}

export const salesOrder = defineResource({
  name: 'sales_order',
  title: 'Order API',
  aliases: ['order'],
  faults: {
    not_exists: ['100', 'Requested order not exists.'],
    filters_invalid: ['101', 'Invalid filters given. Details in error message.'],
    data_invalid: ['102', 'Invalid data given. Details in error message.'],
    status_not_changed: ['103', 'Order status not changed. Details in error message.'],
  },
  methods: {
    list: {
      title: 'Retrieve list of orders by filters',
      permission: ['orders', 'read'],
      params: ['filters'],
      run: async (ctx, [filters]) => {
        let rows: OrderRow[];
        try {
          const parsed = parseFilters(filters);
          rows = await orderRowsWhere(ctx, (c) => filterSql(parsed, columns(c)));
        } catch (err) {
          if (err instanceof FilterError) throw resourceFault(salesOrder, 'filters_invalid', err.message);
          throw err;
        }
        return rows.map((o) => listRecord(ctx, o));
      },
    },
    info: {
      title: 'Retrieve order information',
      permission: ['orders', 'read'],
      params: ['orderIncrementId'],
      run: async (ctx, [ref]) => infoRecord(ctx, await orderArg(ctx, ref)),
    },
    addComment: {
      title: 'Add comment to order',
      permission: ['orders', 'write'],
      params: ['orderIncrementId', 'status', 'comment', 'notify'],
      run: async (ctx, [ref, status, comment, notify]) => {
        if (status !== undefined && status !== null && typeof status !== 'string')
          throw resourceFault(salesOrder, 'data_invalid', 'The status must be a string.');
        if (comment !== undefined && comment !== null && typeof comment !== 'string' && typeof comment !== 'number')
          throw resourceFault(salesOrder, 'data_invalid', 'The comment must be a string.');
        const text = comment === undefined || comment === null ? '' : String(comment);
        if (!text.trim()) throw resourceFault(salesOrder, 'data_invalid', 'The comment is required.');
        return change(ctx, ref, (id) =>
          addOrderComment(ctx, id, { comment: text, status: status ?? undefined, notifyCustomer: truthy(notify) }),
        );
      },
    },
    hold: {
      title: 'Hold order',
      permission: ['orders', 'write'],
      params: ['orderIncrementId'],
      run: (ctx, [ref]) => change(ctx, ref, (id) => holdOrder(ctx, id)),
    },
    unhold: {
      title: 'Unhold order',
      permission: ['orders', 'write'],
      params: ['orderIncrementId'],
      run: (ctx, [ref]) => change(ctx, ref, (id) => unholdOrder(ctx, id)),
    },
    cancel: {
      title: 'Cancel order',
      permission: ['orders', 'write'],
      params: ['orderIncrementId'],
      run: async (ctx, [ref]) => {
        const { order } = await orderArg(ctx, ref);
        if (order.state === 'canceled') throw resourceFault(salesOrder, 'status_not_changed');
        let state: string;
        try {
          state = (await cancelOrder(ctx, order.id)).state;
        } catch (err) {
          asFault(err);
        }
        // as Magento: what was left is canceled, but an order that keeps invoiced or shipped items is no canceled order
        if (state !== 'canceled') throw resourceFault(salesOrder, 'status_not_changed');
        return true;
      },
    },
  },
});
