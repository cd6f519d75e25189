/**
 * Orders (ids and increment ids kept) with their addresses, payment, items (sales-items.ts) and status history;
 * then their invoices, shipments and credit memos (sales-documents.ts).
 *
 * An order of a store view that was not imported (or no longer exists) is skipped, and with it its items,
 * history and documents. An order whose customer was not imported becomes a guest order (no customer id,
 * customer_is_guest set): it keeps the customer's email and name, and joins an account created from it later
 * like any guest order. Products need not have been imported: items keep the source's product ids.
 *
 * Magento keeps a configurable or bundle product as a parent item with child items; here that is one order
 * item with the parent's id (see sales-common.ts), and documents' rows of child items go to that item too.
 */
import { sql } from 'drizzle-orm';
import { rows } from '../../platform/db.js';
import { dec } from '../../platform/money.js';
import { DEFAULT_STATUS, STATUSES, type OrderState } from '../../modules/orders/state.js';
import { orderStatusHistory, orders, type OrderAddress, type OrderGiftcard } from '../../modules/orders/tables.js';
import {
  assertImportable,
  count,
  existingIds,
  imported,
  intArray,
  upsert,
  upsertKept,
  WriteBehind,
  type EntityImporter,
  type ImportContext,
} from '../context.js';
import { bool, date, decimal, int, str, text, trimmed, type SourceRow } from '../source.js';
import { DOCUMENT_IMPORTERS } from './sales-documents.js';
import { orderItemsImporter } from './sales-items.js';
import {
  checkCounts,
  childrenOf,
  columnList,
  continueNumbering,
  countChildren,
  countSince,
  discount,
  fixed,
  giftMessages,
  importableOrdersWhere,
  isRecord,
  money,
  parentBatches,
  readAhead,
  unserialize,
} from './sales-common.js';
import { ORDER_COLUMNS, PAYMENT_COLUMNS } from './sales-columns.js';

const BUILT_IN_STATUSES = new Set(Object.values(STATUSES).flatMap((s) => Object.keys(s)));

/**
 * Statuses are built in here (state.ts): the source's list is only compared with ours. An order keeps its
 * status code whatever it is; a custom status is shown by its code, without Magento's label.
 */
export const orderStatusesImporter: EntityImporter = {
  name: 'order statuses',
  group: 'sales',
  count: (ctx) => countSince(ctx, 'sales_order_status'),
  async run(ctx, stats, tick) {
    if (!ctx.source.hasTable('sales_order_status')) return;
    const all = await ctx.source.query('SELECT status, label FROM sales_order_status ORDER BY status');
    stats.found = all.length;
    for (const s of all) {
      if (BUILT_IN_STATUSES.has(String(s.status))) stats.unchanged++;
      else ctx.report.skip(stats, s.status, 'custom status: orders keep its code, its label is not kept (statuses are built in)');
    }
    tick(all.length);
  },
};

/** Stores, customer groups and payment titles: what every order batch looks up. */
interface OrderLookups {
  stores: Map<number, number>;
  groups: Set<number>;
  title: (method: string, storeId: number, payment: SourceRow | undefined) => string;
}

/** Titles of payment methods Magento ships, for orders whose method has no title configured any more. */
const DEFAULT_TITLES: Record<string, string> = {
  checkmo: 'Check / Money order',
  banktransfer: 'Bank Transfer Payment',
  cashondelivery: 'Cash On Delivery',
  purchaseorder: 'Purchase Order',
  free: 'No Payment Information Required',
  ccsave: 'Credit Card (saved)',
  paypal_express: 'PayPal Express Checkout',
  paypal_standard: 'PayPal Website Payments Standard',
  authorizenet: 'Credit Card (Authorize.net)',
};

async function orderLookups(ctx: ImportContext): Promise<OrderLookups> {
  const stores = new Map(
    (await rows<{ id: number; website: number }>(ctx.db, sql`SELECT id, website_id AS website FROM stores`)).map((r) => [
      Number(r.id),
      Number(r.website),
    ]),
  );
  const groups = new Set((await rows<{ id: number }>(ctx.db, sql`SELECT id FROM customer_groups`)).map((r) => Number(r.id)));
  // payment/<method>/title per scope, as the source configures it
  const titles = new Map<string, string>();
  if (ctx.source.hasTable('core_config_data')) {
    for (const r of await ctx.source.query("SELECT scope, scope_id, path, value FROM core_config_data WHERE path LIKE 'payment/%/title'")) {
      const v = text(r.value);
      if (v) titles.set(`${r.scope}/${r.scope_id}/${String(r.path).split('/')[1]}`, v);
    }
  }
  const title = (method: string, storeId: number, payment: SourceRow | undefined) => {
    const configured =
      titles.get(`stores/${storeId}/${method}`) ??
      titles.get(`websites/${stores.get(storeId)}/${method}`) ??
      titles.get(`default/0/${method}`);
    if (configured) return configured;
    const info = unserialize(payment?.additional_information);
    return (isRecord(info) ? text(info.method_title) : null) ?? DEFAULT_TITLES[method] ?? method;
  };
  return { stores, groups, title };
}

function addressOf(a: SourceRow | undefined, email: string): OrderAddress | null {
  if (!a) return null;
  return {
    firstName: text(a.firstname) ?? '',
    lastName: text(a.lastname) ?? '',
    company: text(a.company),
    street: (str(a.street) ?? '')
      .split('\n')
      .map((s) => s.trim())
      .filter(Boolean),
    city: text(a.city) ?? '',
    postcode: text(a.postcode) ?? '',
    countryId: trimmed(a.country_id) ?? '',
    region: text(a.region),
    regionId: int(a.region_id) || null,
    telephone: text(a.telephone) ?? '',
    email: trimmed(a.email) ?? email,
    customerAddressId: int(a.customer_address_id) || null,
  };
}

/** The address of a type: the one the order names, else the first of that type. */
function addressOfType(list: SourceRow[], type: string, id: unknown): SourceRow | undefined {
  return list.find((a) => Number(a.entity_id) === Number(id) && a.address_type === type) ?? list.find((a) => a.address_type === type);
}

/**
 * Maho's giftcard_codes: {"CODE": amount applied, in the base currency}; a plain list of codes carries the
 * order's gift card amount on its first card.
 */
function giftcardsOf(o: SourceRow): OrderGiftcard[] {
  const parsed = unserialize(o.giftcard_codes);
  const rate = dec(decimal(o.base_to_order_rate) ?? '1');
  const total = { amount: money(o.giftcard_amount), base: money(o.base_giftcard_amount) };
  if (Array.isArray(parsed)) {
    const codes = parsed.map((c) => trimmed(c)).filter((c): c is string => !!c);
    return codes.map((code, i) => ({
      code,
      amount: i ? '0.0000' : fixed(dec(total.amount)),
      baseAmount: i ? '0.0000' : fixed(dec(total.base)),
    }));
  }
  if (!isRecord(parsed)) return [];
  const entries = Object.entries(parsed).filter(([, v]) => decimal(String(v)) !== null);
  return entries.map(([code, v]) => {
    const base = dec(String(v)).toDecimalPlaces(4);
    const amount = entries.length === 1 ? dec(total.amount) : base.mul(rate.isZero() ? 1 : rate).toDecimalPlaces(2);
    return { code, amount: fixed(amount), baseAmount: fixed(base) };
  });
}

function orderRow(
  o: SourceRow,
  addresses: SourceRow[],
  payment: SourceRow | undefined,
  look: OrderLookups,
  customerId: number | null,
  gift: { sender: string; recipient: string; message: string } | undefined,
): typeof orders.$inferInsert {
  const storeId = Number(o.store_id);
  const billingRow = addressOfType(addresses, 'billing', o.billing_address_id);
  const shippingRow = addressOfType(addresses, 'shipping', o.shipping_address_id);
  const email = trimmed(o.customer_email) ?? trimmed(billingRow?.email) ?? trimmed(shippingRow?.email) ?? '';
  const state = trimmed(o.state) ?? 'new';
  const status = trimmed(o.status) ?? DEFAULT_STATUS[state as OrderState] ?? state;
  const method = trimmed(payment?.method) ?? 'unknown';
  const currency = trimmed(o.order_currency_code) ?? trimmed(o.base_currency_code) ?? trimmed(o.global_currency_code) ?? 'USD';
  const rate = decimal(o.base_to_order_rate);
  const createdAt = date(o.created_at) ?? new Date(0);
  const group = int(o.customer_group_id) ?? 0;
  return {
    id: Number(o.entity_id),
    incrementId: String(o.increment_id).trim(),
    storeId,
    // carts are not imported: Magento's quote id would name one of ours
    quoteId: null,
    customerId,
    customerEmail: email,
    customerFirstname: text(o.customer_firstname) ?? text(billingRow?.firstname),
    customerLastname: text(o.customer_lastname) ?? text(billingRow?.lastname),
    customerGroupId: look.groups.has(group) ? group : 0,
    customerIsGuest: customerId === null,
    customerNote: text(o.customer_note),
    state,
    status,
    holdBeforeState: trimmed(o.hold_before_state),
    holdBeforeStatus: trimmed(o.hold_before_status),
    currency,
    baseCurrency: trimmed(o.base_currency_code) ?? currency,
    baseToOrderRate: rate && !dec(rate).isZero() ? rate : '1',
    billingAddress: addressOf(billingRow, email),
    shippingAddress: addressOf(shippingRow, email),
    shippingMethod: trimmed(o.shipping_method),
    shippingDescription: text(o.shipping_description),
    paymentMethod: method,
    paymentTitle: look.title(method, storeId, payment),
    paymentData: paymentDataOf(payment),
    couponCode: trimmed(o.coupon_code),
    couponId: null,
    couponRuleName: text(o.coupon_rule_name),
    appliedRuleIds: [
      ...new Set(
        (str(o.applied_rule_ids) ?? '')
          .split(',')
          .map((s) => int(s.trim()))
          .filter((n): n is number => n !== null && n > 0 && n <= 2147483647),
      ),
    ],
    giftcards: giftcardsOf(o),
    giftMessage: gift ?? null,
    isVirtual: bool(o.is_virtual),
    weight: decimal(o.weight),
    totalItemCount: int(o.total_item_count) ?? 0,
    totalQtyOrdered: money(o.total_qty_ordered),
    subtotal: money(o.subtotal),
    baseSubtotal: money(o.base_subtotal),
    subtotalInclTax: money(o.subtotal_incl_tax),
    baseSubtotalInclTax: money(o.base_subtotal_incl_tax),
    discountAmount: discount(o.discount_amount),
    baseDiscountAmount: discount(o.base_discount_amount),
    shippingAmount: money(o.shipping_amount),
    baseShippingAmount: money(o.base_shipping_amount),
    shippingInclTax: money(o.shipping_incl_tax),
    baseShippingInclTax: money(o.base_shipping_incl_tax),
    shippingTaxAmount: money(o.shipping_tax_amount),
    baseShippingTaxAmount: money(o.base_shipping_tax_amount),
    taxAmount: money(o.tax_amount),
    baseTaxAmount: money(o.base_tax_amount),
    giftcardAmount: money(o.giftcard_amount),
    baseGiftcardAmount: money(o.base_giftcard_amount),
    grandTotal: money(o.grand_total),
    baseGrandTotal: money(o.base_grand_total),
    subtotalInvoiced: money(o.subtotal_invoiced),
    baseSubtotalInvoiced: money(o.base_subtotal_invoiced),
    totalInvoiced: money(o.total_invoiced),
    baseTotalInvoiced: money(o.base_total_invoiced),
    totalPaid: money(o.total_paid),
    baseTotalPaid: money(o.base_total_paid),
    subtotalRefunded: money(o.subtotal_refunded),
    baseSubtotalRefunded: money(o.base_subtotal_refunded),
    totalRefunded: money(o.total_refunded),
    baseTotalRefunded: money(o.base_total_refunded),
    subtotalCanceled: money(o.subtotal_canceled),
    baseSubtotalCanceled: money(o.base_subtotal_canceled),
    totalCanceled: money(o.total_canceled),
    baseTotalCanceled: money(o.base_total_canceled),
    taxInvoiced: money(o.tax_invoiced),
    baseTaxInvoiced: money(o.base_tax_invoiced),
    taxRefunded: money(o.tax_refunded),
    baseTaxRefunded: money(o.base_tax_refunded),
    shippingInvoiced: money(o.shipping_invoiced),
    baseShippingInvoiced: money(o.base_shipping_invoiced),
    shippingRefunded: money(o.shipping_refunded),
    baseShippingRefunded: money(o.base_shipping_refunded),
    discountInvoiced: discount(o.discount_invoiced),
    baseDiscountInvoiced: discount(o.base_discount_invoiced),
    discountRefunded: discount(o.discount_refunded),
    baseDiscountRefunded: discount(o.base_discount_refunded),
    adjustmentPositive: money(o.adjustment_positive),
    baseAdjustmentPositive: money(o.base_adjustment_positive),
    adjustmentNegative: money(o.adjustment_negative),
    baseAdjustmentNegative: money(o.base_adjustment_negative),
    // Magento gave stock back when it canceled the order
    reservationsReleased: state === 'canceled',
    // guest access tokens are not carried over: guests look their orders up with a token given at placement
    accessTokenHash: null,
    emailSent: bool(o.email_sent),
    remoteIp: trimmed(o.remote_ip),
    xForwardedFor: trimmed(o.x_forwarded_for),
    createdAt,
    updatedAt: date(o.updated_at) ?? createdAt,
  };
}

/** What an order shows of its payment besides the method (never card numbers or secrets). */
function paymentDataOf(p: SourceRow | undefined): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  if (!p) return out;
  const po = text(p.po_number);
  if (po) out.poNumber = po;
  const ccType = trimmed(p.cc_type);
  if (ccType) out.ccType = ccType;
  const last4 = trimmed(p.cc_last4);
  if (last4 && /^\d{4}$/.test(last4)) out.ccLast4 = last4;
  return out;
}

/** Skip reason of an order, if any. */
function orderSkip(o: SourceRow, stores: Map<number, number>): string | undefined {
  if (int(o.store_id) === null) return 'no store view (deleted in the source)';
  if (!stores.has(Number(o.store_id))) return 'its store view was not imported';
  if (!trimmed(o.increment_id)) return 'no increment id';
  return undefined;
}

export const ordersImporter: EntityImporter = {
  name: 'orders',
  group: 'sales',
  fills: ['orders'],
  count: (ctx) => countSince(ctx, 'sales_flat_order'),
  async run(ctx, stats, tick) {
    if (!ctx.source.hasTable('sales_flat_order')) return;
    await assertImportable(ctx.db, 'orders', 'orders');
    const look = await orderLookups(ctx);
    const behind = new WriteBehind();
    const load = (batch: SourceRow[]) => {
      const ids = batch.map((o) => Number(o.entity_id));
      return Promise.all([
        childrenOf(ctx, 'sales_flat_order_address', 'parent_id', ids),
        childrenOf(
          ctx,
          'sales_flat_order_payment',
          'parent_id',
          ids,
          'entity_id',
          columnList(ctx, 'sales_flat_order_payment', PAYMENT_COLUMNS),
        ),
        giftMessages(
          ctx,
          batch.map((o) => o.gift_message_id),
        ),
        behind.read(() =>
          existingIds(
            ctx.db,
            'customers',
            batch.map((o) => int(o.customer_id)).filter((c): c is number => !!c),
          ),
        ),
      ]);
    };
    try {
      for await (const [batch, [addresses, payments, gifts, customers]] of readAhead(
        parentBatches(ctx, 'sales_flat_order', columnList(ctx, 'sales_flat_order', ORDER_COLUMNS)),
        load,
      )) {
        stats.found += batch.length;
        const values: (typeof orders.$inferInsert)[] = [];
        for (const o of batch) {
          const id = Number(o.entity_id);
          const reason = orderSkip(o, look.stores);
          if (reason) {
            ctx.report.skip(stats, id, reason);
            continue;
          }
          const customerId = int(o.customer_id);
          values.push(
            orderRow(
              o,
              addresses.get(id) ?? [],
              payments.get(id)?.[0],
              look,
              customerId && customers.has(customerId) ? customerId : null,
              gifts.get(int(o.gift_message_id) ?? 0),
            ),
          );
        }
        const done = stats.found;
        await behind.add(async () => {
          await upsertKept(ctx.db, stats, orders, 'orders', values);
          tick(done);
        });
      }
    } finally {
      await behind.flush();
    }
    ctx.sequences.add('orders');
    await continueNumbering(ctx, 'order', 'orders');
  },
  async verify(ctx) {
    if (!ctx.source.hasTable('sales_flat_order')) return;
    const where = await importableOrdersWhere(ctx);
    await checkCounts(
      ctx,
      'orders',
      'orders',
      'orders',
      `SELECT COUNT(*) AS n, SUM(o.base_grand_total) AS total FROM sales_flat_order o WHERE ${where}`,
      'base_grand_total',
    );
    const [s] = await ctx.source.query<{ n: string | number }>(
      `SELECT COUNT(*) AS n FROM sales_flat_order_item i JOIN sales_flat_order o ON o.entity_id = i.order_id
        WHERE ${where} AND (i.parent_item_id IS NULL OR NOT EXISTS (SELECT 1 FROM sales_flat_order_item p WHERE p.item_id = i.parent_item_id))`,
    );
    const [t] = await rows<{ n: number }>(
      ctx.db,
      sql`SELECT count(*)::int AS n FROM order_items i WHERE ${imported('orders', sql`i.order_id`)}`,
    );
    ctx.report.check('order lines (items less configurable and bundle children)', Number(s?.n ?? 0), t.n);
  },
};

export const orderHistoryImporter: EntityImporter = {
  name: 'order status history',
  group: 'sales',
  fills: ['order_status_history'],
  count: (ctx) => countChildren(ctx, 'sales_flat_order', 'sales_flat_order_status_history', 'parent_id'),
  async run(ctx, stats, tick) {
    if (!ctx.source.hasTable('sales_flat_order_status_history')) return;
    const behind = new WriteBehind();
    const load = (batch: SourceRow[]) => {
      const ids = batch.map((o) => Number(o.entity_id));
      return Promise.all([
        childrenOf(ctx, 'sales_flat_order_status_history', 'parent_id', ids),
        behind.read(() =>
          rows<{ id: number; status: string; createdAt: Date }>(
            ctx.db,
            sql`SELECT id, status, created_at AS "createdAt" FROM orders WHERE id = ANY(${intArray(ids)}::int[])`,
          ),
        ),
      ]);
    };
    try {
      for await (const [, [history, orderRows]] of readAhead(parentBatches(ctx, 'sales_flat_order'), load)) {
        const found = [...history.values()].flat();
        stats.found += found.length;
        const imported = new Map(orderRows.map((r) => [Number(r.id), r]));
        const values: (typeof orderStatusHistory.$inferInsert)[] = [];
        for (const h of found) {
          const order = imported.get(Number(h.parent_id));
          if (!order) {
            ctx.report.skip(stats, h.entity_id, 'its order was not imported');
            continue;
          }
          values.push({
            id: Number(h.entity_id),
            orderId: order.id,
            comment: text(h.comment),
            status: trimmed(h.status) ?? order.status,
            entityName: trimmed(h.entity_name) ?? 'order',
            // Magento: 1 notified, 0 not, 2 not applicable
            isCustomerNotified: Number(h.is_customer_notified) === 1,
            isVisibleOnFront: bool(h.is_visible_on_front),
            createdAt: date(h.created_at) ?? new Date(order.createdAt),
          });
        }
        const done = stats.found;
        await behind.add(async () => {
          count(stats, await upsert(ctx.db, orderStatusHistory, values, [orderStatusHistory.id]));
          tick(done);
        });
      }
    } finally {
      await behind.flush();
    }
    ctx.sequences.add('order_status_history');
  },
};

/** Orders and their documents, in dependency order. */
export const SALES_IMPORTERS: EntityImporter[] = [
  orderStatusesImporter,
  ordersImporter,
  orderItemsImporter,
  orderHistoryImporter,
  ...DOCUMENT_IMPORTERS,
];
