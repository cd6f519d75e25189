/** Credit memos (refunds) of an order: what was refunded per item, adjustments, and the comments. */
import { bigserial, boolean, index, integer, numeric, pgTable, serial, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import { invoices } from '../invoices/tables.js';
import { orderItems, orders } from '../orders/tables.js';

const money = (name: string) => numeric(name, { precision: 20, scale: 4 }).notNull().default('0');

export const creditMemos = pgTable(
  'credit_memos',
  {
    id: serial('id').primaryKey(),
    incrementId: text('increment_id').notNull(),
    orderId: integer('order_id')
      .notNull()
      .references(() => orders.id, { onDelete: 'cascade' }),
    invoiceId: integer('invoice_id').references(() => invoices.id, { onDelete: 'set null' }),
    storeId: integer('store_id').notNull(),
    /** 1 open, 2 refunded, 3 canceled */
    state: integer('state').notNull(),
    currency: text('currency').notNull(),
    baseCurrency: text('base_currency').notNull(),
    /** refunded offline (true) or through the payment method */
    offline: boolean('offline').notNull().default(true),
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
    adjustmentPositive: money('adjustment_positive'),
    baseAdjustmentPositive: money('base_adjustment_positive'),
    adjustmentNegative: money('adjustment_negative'),
    baseAdjustmentNegative: money('base_adjustment_negative'),
    grandTotal: money('grand_total'),
    baseGrandTotal: money('base_grand_total'),
    discountDescription: text('discount_description'),
    transactionId: text('transaction_id'),
    creditmemoStatus: integer('creditmemo_status'),
    emailSent: boolean('email_sent').notNull().default(false),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex('credit_memos_increment_id_uq').on(t.incrementId), index('credit_memos_order_idx').on(t.orderId)],
);

export const creditMemoItems = pgTable(
  'credit_memo_items',
  {
    id: serial('id').primaryKey(),
    creditMemoId: integer('credit_memo_id')
      .notNull()
      .references(() => creditMemos.id, { onDelete: 'cascade' }),
    orderItemId: integer('order_item_id')
      .notNull()
      .references(() => orderItems.id, { onDelete: 'cascade' }),
    productId: integer('product_id').notNull(),
    sku: text('sku').notNull(),
    name: text('name').notNull(),
    description: text('description'),
    qty: numeric('qty', { precision: 12, scale: 4 }).notNull(),
    backToStock: boolean('back_to_stock').notNull().default(false),
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
  (t) => [index('credit_memo_items_memo_idx').on(t.creditMemoId)],
);

export const creditMemoComments = pgTable(
  'credit_memo_comments',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    creditMemoId: integer('credit_memo_id')
      .notNull()
      .references(() => creditMemos.id, { onDelete: 'cascade' }),
    comment: text('comment').notNull(),
    isCustomerNotified: boolean('is_customer_notified').notNull().default(false),
    isVisibleOnFront: boolean('is_visible_on_front').notNull().default(false),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('credit_memo_comments_memo_idx').on(t.creditMemoId)],
);
