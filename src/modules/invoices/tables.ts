/**
 * Invoices: what an order billed, per item and in total. The back office creates them (POST
 * /orders/{orderId}/invoices), or placement does for a payment method configured to capture at once.
 */
import { bigserial, boolean, index, integer, numeric, pgTable, serial, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import { orderItems, orders } from '../orders/tables.js';

const money = (name: string) => numeric(name, { precision: 20, scale: 4 }).notNull().default('0');

export const invoices = pgTable(
  'invoices',
  {
    id: serial('id').primaryKey(),
    incrementId: text('increment_id').notNull(),
    orderId: integer('order_id')
      .notNull()
      .references(() => orders.id, { onDelete: 'cascade' }),
    storeId: integer('store_id').notNull(),
    /** 1 open, 2 paid, 3 canceled */
    state: integer('state').notNull(),
    currency: text('currency').notNull(),
    baseCurrency: text('base_currency').notNull(),
    totalQty: numeric('total_qty', { precision: 12, scale: 4 }).notNull().default('0'),
    subtotal: money('subtotal'),
    baseSubtotal: money('base_subtotal'),
    subtotalInclTax: money('subtotal_incl_tax'),
    baseSubtotalInclTax: money('base_subtotal_incl_tax'),
    taxAmount: money('tax_amount'),
    baseTaxAmount: money('base_tax_amount'),
    shippingAmount: money('shipping_amount'),
    baseShippingAmount: money('base_shipping_amount'),
    shippingInclTax: money('shipping_incl_tax'),
    baseShippingInclTax: money('base_shipping_incl_tax'),
    shippingTaxAmount: money('shipping_tax_amount'),
    baseShippingTaxAmount: money('base_shipping_tax_amount'),
    discountAmount: money('discount_amount'),
    baseDiscountAmount: money('base_discount_amount'),
    giftcardAmount: money('giftcard_amount'),
    baseGiftcardAmount: money('base_giftcard_amount'),
    grandTotal: money('grand_total'),
    baseGrandTotal: money('base_grand_total'),
    discountDescription: text('discount_description'),
    transactionId: text('transaction_id'),
    emailSent: boolean('email_sent').notNull().default(false),
    /** a paid invoice may be voided: set when POST /invoices/{id}/capture paid it, never for one paid at creation */
    canVoidFlag: boolean('can_void_flag').notNull().default(false),
    isUsedForRefund: boolean('is_used_for_refund').notNull().default(false),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex('invoices_increment_id_uq').on(t.incrementId), index('invoices_order_idx').on(t.orderId)],
);

export const invoiceItems = pgTable(
  'invoice_items',
  {
    id: serial('id').primaryKey(),
    invoiceId: integer('invoice_id')
      .notNull()
      .references(() => invoices.id, { onDelete: 'cascade' }),
    orderItemId: integer('order_item_id')
      .notNull()
      .references(() => orderItems.id, { onDelete: 'cascade' }),
    productId: integer('product_id').notNull(),
    sku: text('sku').notNull(),
    name: text('name').notNull(),
    qty: numeric('qty', { precision: 12, scale: 4 }).notNull(),
    price: money('price'),
    basePrice: money('base_price'),
    priceInclTax: money('price_incl_tax'),
    basePriceInclTax: money('base_price_incl_tax'),
    rowTotal: money('row_total'),
    baseRowTotal: money('base_row_total'),
    rowTotalInclTax: money('row_total_incl_tax'),
    baseRowTotalInclTax: money('base_row_total_incl_tax'),
    taxAmount: money('tax_amount'),
    baseTaxAmount: money('base_tax_amount'),
    discountAmount: money('discount_amount'),
    baseDiscountAmount: money('base_discount_amount'),
  },
  (t) => [index('invoice_items_invoice_idx').on(t.invoiceId)],
);

export const invoiceComments = pgTable(
  'invoice_comments',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    invoiceId: integer('invoice_id')
      .notNull()
      .references(() => invoices.id, { onDelete: 'cascade' }),
    comment: text('comment').notNull(),
    isCustomerNotified: boolean('is_customer_notified').notNull().default(false),
    isVisibleOnFront: boolean('is_visible_on_front').notNull().default(false),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('invoice_comments_invoice_idx').on(t.invoiceId)],
);
