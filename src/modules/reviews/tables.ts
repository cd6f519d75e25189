/** Product reviews with per-rating votes; only approved reviews are public and count in a product's summary. */
import { index, integer, pgTable, primaryKey, serial, text, timestamp } from 'drizzle-orm/pg-core';
import { sql } from 'drizzle-orm';
import { products } from '../catalog/tables.js';
import { customers } from '../customers/tables.js';

/** Rating dimensions shoppers vote on (Quality, Value, Price). */
export const ratings = pgTable('ratings', {
  id: serial('id').primaryKey(),
  code: text('code').notNull().unique(),
  position: integer('position').notNull().default(0),
});

export const reviews = pgTable(
  'reviews',
  {
    id: serial('id').primaryKey(),
    productId: integer('product_id')
      .notNull()
      .references(() => products.id, { onDelete: 'cascade' }),
    /** null for reviews posted by an API user on nobody's behalf */
    customerId: integer('customer_id').references(() => customers.id, { onDelete: 'set null' }),
    /** approved, pending, not_approved */
    status: text('status').notNull().default('pending'),
    nickname: text('nickname').notNull(),
    title: text('title').notNull(),
    detail: text('detail').notNull(),
    /** store views the review shows in */
    storeIds: integer('store_ids')
      .array()
      .notNull()
      .default(sql`'{}'::int[]`),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('reviews_product_idx').on(t.productId, t.status), index('reviews_customer_idx').on(t.customerId)],
);

export const reviewVotes = pgTable(
  'review_votes',
  {
    reviewId: integer('review_id')
      .notNull()
      .references(() => reviews.id, { onDelete: 'cascade' }),
    ratingId: integer('rating_id')
      .notNull()
      .references(() => ratings.id, { onDelete: 'cascade' }),
    /** 1 to 5 */
    value: integer('value').notNull(),
  },
  (t) => [primaryKey({ columns: [t.reviewId, t.ratingId] })],
);
