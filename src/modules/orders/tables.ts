/**
 * Orders: what a placed cart became, frozen (prices, addresses, tax, discounts), and how far it has got
 * (qty invoiced, shipped, refunded and canceled per item; money invoiced, paid and refunded per order).
 * Invoices, shipments and credit memos keep their own tables and move these counters through the orders
 * service, never by writing here.
 */
import { sql } from 'drizzle-orm';
import {
  bigint,
  bigserial,
  boolean,
  date,
  index,
  integer,
  jsonb,
  numeric,
  pgTable,
  primaryKey,
  serial,
  text,
  timestamp,
  uniqueIndex,
} from 'drizzle-orm/pg-core';
import type { CartAddress } from '../carts/tables.js';

const money = (name: string) => numeric(name, { precision: 20, scale: 4 }).notNull().default('0');
const qty = (name: string) => numeric(name, { precision: 12, scale: 4 }).notNull().default('0');

/** An order address: the cart's, with the email. */
export type OrderAddress = CartAddress;

/** A gift card that paid part of the order, in the order's and the base currency. */
export interface OrderGiftcard {
  code: string;
  amount: string;
  baseAmount: string;
  /** base amount given back to the card by cancellations and credit memos */
  baseRefunded?: string;
}

/** One product a line takes from stock, per unit of the line (what cancellations and refunds return). */
export interface StockPart {
  productId: number;
  per: string;
}

export const orders = pgTable(
  'orders',
  {
    id: serial('id').primaryKey(),
    incrementId: text('increment_id').notNull(),
    storeId: integer('store_id').notNull(),
    quoteId: integer('quote_id'),
    customerId: integer('customer_id'),
    customerEmail: text('customer_email').notNull(),
    customerFirstname: text('customer_firstname'),
    customerLastname: text('customer_lastname'),
    customerGroupId: integer('customer_group_id').notNull().default(0),
    customerIsGuest: boolean('customer_is_guest').notNull().default(false),
    customerNote: text('customer_note'),
    state: text('state').notNull(),
    status: text('status').notNull(),
    holdBeforeState: text('hold_before_state'),
    holdBeforeStatus: text('hold_before_status'),
    /** the order's currency, the base currency and how many of the first one base unit is worth */
    currency: text('currency').notNull(),
    baseCurrency: text('base_currency').notNull(),
    baseToOrderRate: numeric('base_to_order_rate', { precision: 20, scale: 8 }).notNull().default('1'),
    billingAddress: jsonb('billing_address').$type<OrderAddress>(),
    shippingAddress: jsonb('shipping_address').$type<OrderAddress>(),
    /** carrier_method */
    shippingMethod: text('shipping_method'),
    shippingDescription: text('shipping_description'),
    paymentMethod: text('payment_method').notNull(),
    paymentTitle: text('payment_title').notNull(),
    paymentData: jsonb('payment_data').$type<Record<string, unknown>>().notNull().default({}),
    couponCode: text('coupon_code'),
    couponId: integer('coupon_id'),
    couponRuleName: text('coupon_rule_name'),
    appliedRuleIds: integer('applied_rule_ids')
      .array()
      .notNull()
      .default(sql`'{}'::int[]`),
    giftcards: jsonb('giftcards').$type<OrderGiftcard[]>().notNull().default([]),
    giftMessage: jsonb('gift_message').$type<{ sender: string; recipient: string; message: string }>(),
    isVirtual: boolean('is_virtual').notNull().default(false),
    weight: numeric('weight', { precision: 12, scale: 4 }),
    totalItemCount: integer('total_item_count').notNull().default(0),
    totalQtyOrdered: qty('total_qty_ordered'),
    // amounts, in the order's currency and (base_*) in the base currency
    subtotal: money('subtotal'),
    baseSubtotal: money('base_subtotal'),
    subtotalInclTax: money('subtotal_incl_tax'),
    baseSubtotalInclTax: money('base_subtotal_incl_tax'),
    discountAmount: money('discount_amount'),
    baseDiscountAmount: money('base_discount_amount'),
    shippingAmount: money('shipping_amount'),
    baseShippingAmount: money('base_shipping_amount'),
    shippingInclTax: money('shipping_incl_tax'),
    baseShippingInclTax: money('base_shipping_incl_tax'),
    shippingTaxAmount: money('shipping_tax_amount'),
    baseShippingTaxAmount: money('base_shipping_tax_amount'),
    taxAmount: money('tax_amount'),
    baseTaxAmount: money('base_tax_amount'),
    giftcardAmount: money('giftcard_amount'),
    baseGiftcardAmount: money('base_giftcard_amount'),
    grandTotal: money('grand_total'),
    baseGrandTotal: money('base_grand_total'),
    // progress
    subtotalInvoiced: money('subtotal_invoiced'),
    baseSubtotalInvoiced: money('base_subtotal_invoiced'),
    totalInvoiced: money('total_invoiced'),
    baseTotalInvoiced: money('base_total_invoiced'),
    totalPaid: money('total_paid'),
    baseTotalPaid: money('base_total_paid'),
    subtotalRefunded: money('subtotal_refunded'),
    baseSubtotalRefunded: money('base_subtotal_refunded'),
    totalRefunded: money('total_refunded'),
    baseTotalRefunded: money('base_total_refunded'),
    subtotalCanceled: money('subtotal_canceled'),
    baseSubtotalCanceled: money('base_subtotal_canceled'),
    totalCanceled: money('total_canceled'),
    baseTotalCanceled: money('base_total_canceled'),
    taxInvoiced: money('tax_invoiced'),
    baseTaxInvoiced: money('base_tax_invoiced'),
    taxRefunded: money('tax_refunded'),
    baseTaxRefunded: money('base_tax_refunded'),
    shippingInvoiced: money('shipping_invoiced'),
    baseShippingInvoiced: money('base_shipping_invoiced'),
    shippingRefunded: money('shipping_refunded'),
    baseShippingRefunded: money('base_shipping_refunded'),
    discountInvoiced: money('discount_invoiced'),
    baseDiscountInvoiced: money('base_discount_invoiced'),
    discountRefunded: money('discount_refunded'),
    baseDiscountRefunded: money('base_discount_refunded'),
    adjustmentPositive: money('adjustment_positive'),
    baseAdjustmentPositive: money('base_adjustment_positive'),
    adjustmentNegative: money('adjustment_negative'),
    baseAdjustmentNegative: money('base_adjustment_negative'),
    /** stock, the coupon use and gift card debits were given back (a cancellation); never twice */
    reservationsReleased: boolean('reservations_released').notNull().default(false),
    /** sha256 (hex) of the guest's one-time X-Order-Token; null once used, and for customer orders */
    accessTokenHash: text('access_token_hash'),
    emailSent: boolean('email_sent').notNull().default(false),
    remoteIp: text('remote_ip'),
    xForwardedFor: text('x_forwarded_for'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('orders_increment_id_uq').on(t.incrementId),
    index('orders_customer_idx').on(t.customerId, t.createdAt),
    index('orders_created_idx').on(t.createdAt),
    index('orders_store_created_idx').on(t.storeId, t.createdAt),
    index('orders_email_idx').on(sql`lower(${t.customerEmail})`),
    index('orders_status_idx').on(t.status),
  ],
);

export const orderItems = pgTable(
  'order_items',
  {
    id: serial('id').primaryKey(),
    orderId: integer('order_id')
      .notNull()
      .references(() => orders.id, { onDelete: 'cascade' }),
    productId: integer('product_id').notNull(),
    /** configurable: the child that was bought */
    childProductId: integer('child_product_id'),
    productType: text('product_type').notNull(),
    sku: text('sku').notNull(),
    name: text('name').notNull(),
    description: text('description'),
    /** what the shopper chose, and the options as shown ([{label, value}]) */
    buyRequest: jsonb('buy_request').$type<Record<string, unknown>>().notNull().default({}),
    productOptions: jsonb('product_options').$type<Record<string, unknown>>().notNull().default({}),
    stockParts: jsonb('stock_parts').$type<StockPart[]>().notNull().default([]),
    giftMessage: jsonb('gift_message').$type<{ sender: string; recipient: string; message: string }>(),
    isVirtual: boolean('is_virtual').notNull().default(false),
    isQtyDecimal: boolean('is_qty_decimal').notNull().default(false),
    freeShipping: boolean('free_shipping').notNull().default(false),
    noDiscount: boolean('no_discount').notNull().default(false),
    weight: numeric('weight', { precision: 12, scale: 4 }),
    rowWeight: numeric('row_weight', { precision: 12, scale: 4 }),
    qtyOrdered: qty('qty_ordered'),
    qtyInvoiced: qty('qty_invoiced'),
    qtyShipped: qty('qty_shipped'),
    qtyRefunded: qty('qty_refunded'),
    qtyCanceled: qty('qty_canceled'),
    qtyBackordered: numeric('qty_backordered', { precision: 12, scale: 4 }),
    price: money('price'),
    basePrice: money('base_price'),
    originalPrice: money('original_price'),
    baseOriginalPrice: money('base_original_price'),
    priceInclTax: money('price_incl_tax'),
    basePriceInclTax: money('base_price_incl_tax'),
    rowTotal: money('row_total'),
    baseRowTotal: money('base_row_total'),
    rowTotalInclTax: money('row_total_incl_tax'),
    baseRowTotalInclTax: money('base_row_total_incl_tax'),
    taxPercent: money('tax_percent'),
    taxAmount: money('tax_amount'),
    baseTaxAmount: money('base_tax_amount'),
    discountPercent: money('discount_percent'),
    discountAmount: money('discount_amount'),
    baseDiscountAmount: money('base_discount_amount'),
    taxInvoiced: money('tax_invoiced'),
    baseTaxInvoiced: money('base_tax_invoiced'),
    discountInvoiced: money('discount_invoiced'),
    baseDiscountInvoiced: money('base_discount_invoiced'),
    rowInvoiced: money('row_invoiced'),
    baseRowInvoiced: money('base_row_invoiced'),
    taxRefunded: money('tax_refunded'),
    baseTaxRefunded: money('base_tax_refunded'),
    discountRefunded: money('discount_refunded'),
    baseDiscountRefunded: money('base_discount_refunded'),
    amountRefunded: money('amount_refunded'),
    baseAmountRefunded: money('base_amount_refunded'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    // the lines of an order, and what the reports read of them (bestsellers, tax) without visiting the table
    index('order_items_order_report_idx').on(
      t.orderId,
      t.productId,
      t.qtyOrdered,
      t.baseRowTotal,
      t.baseDiscountAmount,
      t.taxPercent,
      t.baseTaxAmount,
    ),
  ],
);

export const orderStatusHistory = pgTable(
  'order_status_history',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    orderId: integer('order_id')
      .notNull()
      .references(() => orders.id, { onDelete: 'cascade' }),
    comment: text('comment'),
    status: text('status').notNull(),
    /** what the entry is about: order, invoice, shipment, creditmemo */
    entityName: text('entity_name').notNull().default('order'),
    isCustomerNotified: boolean('is_customer_notified').notNull().default(false),
    isVisibleOnFront: boolean('is_visible_on_front').notNull().default(false),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('order_status_history_order_idx').on(t.orderId)],
);

/**
 * The last increment id given per kind of document (order, invoice, shipment, creditmemo) and store view,
 * raised by one statement outside the document's transaction (see nextIncrementId).
 */
export const salesSequences = pgTable(
  'sales_sequences',
  {
    entity: text('entity').notNull(),
    storeId: integer('store_id').notNull(),
    lastValue: integer('last_value').notNull(),
  },
  (t) => [primaryKey({ columns: [t.entity, t.storeId] })],
);

/*
 * The sales reports' daily aggregates (report-aggregates.ts): per time zone and report day (the local day in that
 * zone), per store view, what the reports sum. Built in the background from orders; a report reads them for the
 * days that are built and have no mark, and the orders themselves for the other days.
 */
const sum = (name: string) => numeric(name).notNull();

/**
 * When an order changed (its creation instant): filled by statement triggers on orders and order_items, emptied by
 * the aggregates pass. Append-only with no unique key, so placing orders never waits on another placement.
 */
export const reportMarks = pgTable('report_marks', {
  id: bigserial('id', { mode: 'number' }).primaryKey(),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
});

/** The days whose aggregates are built, per zone (days without orders too). */
export const reportDays = pgTable(
  'report_days',
  {
    zone: text('zone').notNull(),
    day: date('day', { mode: 'string' }).notNull(),
  },
  (t) => [primaryKey({ columns: [t.zone, t.day] })],
);

/** One row every aggregates pass updates first: passes of several processes run one after the other. */
export const reportAggregateState = pgTable('report_aggregate_state', {
  id: integer('id').primaryKey(),
  passes: bigint('passes', { mode: 'number' }).notNull().default(0),
  passedAt: timestamp('passed_at', { withTimezone: true }),
});

/** Sales per day: `local_day` is the date the orders show in the zone (the report day but for a DST change at midnight). */
export const reportSalesDays = pgTable(
  'report_sales_days',
  {
    zone: text('zone').notNull(),
    day: date('day', { mode: 'string' }).notNull(),
    localDay: date('local_day', { mode: 'string' }).notNull(),
    storeId: integer('store_id').notNull(),
    orders: integer('orders').notNull(),
    revenue: sum('revenue'),
    subtotal: sum('subtotal'),
    tax: sum('tax'),
    shipping: sum('shipping'),
    discounts: sum('discounts'),
    refunds: sum('refunds'),
  },
  (t) => [index('report_sales_days_zone_day_idx').on(t.zone, t.day)],
);

/** Coupon use per day and code (upper case). */
export const reportCouponDays = pgTable(
  'report_coupon_days',
  {
    zone: text('zone').notNull(),
    day: date('day', { mode: 'string' }).notNull(),
    localDay: date('local_day', { mode: 'string' }).notNull(),
    storeId: integer('store_id').notNull(),
    code: text('code').notNull(),
    ruleName: text('rule_name'),
    uses: integer('uses').notNull(),
    discount: sum('discount'),
    revenue: sum('revenue'),
  },
  (t) => [index('report_coupon_days_zone_day_idx').on(t.zone, t.day)],
);

/** Tax per day and percent (rounded to 4 places; null for shipping tax on free shipping), with the orders charged. */
export const reportTaxDays = pgTable(
  'report_tax_days',
  {
    zone: text('zone').notNull(),
    day: date('day', { mode: 'string' }).notNull(),
    localDay: date('local_day', { mode: 'string' }).notNull(),
    storeId: integer('store_id').notNull(),
    percent: numeric('percent'),
    tax: sum('tax'),
    orders: integer('orders').notNull(),
  },
  (t) => [index('report_tax_days_zone_day_idx').on(t.zone, t.day)],
);

/** Products sold per day: quantity, revenue, orders, and the latest line (its name and SKU are the report's). */
export const reportBestsellerDays = pgTable(
  'report_bestseller_days',
  {
    zone: text('zone').notNull(),
    day: date('day', { mode: 'string' }).notNull(),
    storeId: integer('store_id').notNull(),
    productId: integer('product_id').notNull(),
    qty: sum('qty'),
    revenue: sum('revenue'),
    orders: integer('orders').notNull(),
    lastItemId: integer('last_item_id').notNull(),
  },
  (t) => [index('report_bestseller_days_zone_day_idx').on(t.zone, t.day)],
);

/**
 * The same per month (first day), for months whose days are all built: a product sold on most days has one row
 * a month instead of thirty (a year of bestsellers reads twelve months, not every sale).
 */
export const reportBestsellerMonths = pgTable(
  'report_bestseller_months',
  {
    zone: text('zone').notNull(),
    month: date('month', { mode: 'string' }).notNull(),
    storeId: integer('store_id').notNull(),
    productId: integer('product_id').notNull(),
    qty: sum('qty'),
    revenue: sum('revenue'),
    orders: integer('orders').notNull(),
    lastItemId: integer('last_item_id').notNull(),
  },
  (t) => [index('report_bestseller_months_zone_month_idx').on(t.zone, t.month)],
);
