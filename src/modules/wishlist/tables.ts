/** Wishlists: one list per customer, an item per product (with the options chosen, when any). */
import { index, integer, jsonb, pgTable, serial, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';

export const wishlistItems = pgTable(
  'wishlist_items',
  {
    id: serial('id').primaryKey(),
    customerId: integer('customer_id').notNull(),
    productId: integer('product_id').notNull(),
    storeId: integer('store_id').notNull(),
    qty: integer('qty').notNull().default(1),
    description: text('description'),
    /** what to add to the cart with the product (configurable choice, custom options, ...): the cart's add-item body */
    buyRequest: jsonb('buy_request').$type<Record<string, unknown>>().notNull().default({}),
    addedAt: timestamp('added_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('wishlist_items_customer_product_uq').on(t.customerId, t.productId),
    index('wishlist_items_customer_idx').on(t.customerId),
  ],
);
