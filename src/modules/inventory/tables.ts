/**
 * Stock: one row per product that keeps stock. Carts check it, orders reserve from it and cancellations and
 * refunds return to it, always through the atomic functions of this module's service.
 */
import { boolean, integer, pgTable, timestamp } from 'drizzle-orm/pg-core';
import { products } from '../catalog/tables.js';

export const stockItems = pgTable('stock_items', {
  productId: integer('product_id')
    .primaryKey()
    .references(() => products.id, { onDelete: 'cascade' }),
  /** 0 to 99,999,999 */
  qty: integer('qty').notNull().default(0),
  isInStock: boolean('is_in_stock').notNull().default(false),
  manageStock: boolean('manage_stock').notNull().default(true),
  /** the qty at or below which the item goes out of stock */
  minQty: integer('min_qty').notNull().default(0),
  minSaleQty: integer('min_sale_qty').notNull().default(1),
  /** null: no maximum */
  maxSaleQty: integer('max_sale_qty'),
  /** 0 no backorders, 1 allow below zero, 2 allow and notify */
  backorders: integer('backorders').notNull().default(0),
  notifyStockQty: integer('notify_stock_qty'),
  /** null: any qty */
  qtyIncrements: integer('qty_increments'),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});
