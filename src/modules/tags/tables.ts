/**
 * Product tags (Magento's Mage_Tag): words customers attach to products. A tag is one row per name (names are
 * unique in any case), with its status; each use of it is a relation of the tag, a product, a store view and the
 * customer who tagged (none when staff assigned it). The summaries are the per store view figures the lists read
 * (store view 0: every store view), rewritten by every write that changes a tag's relations or base popularity.
 */
import { sql } from 'drizzle-orm';
import { boolean, index, integer, pgTable, primaryKey, serial, text, timestamp, unique, uniqueIndex } from 'drizzle-orm/pg-core';
import { products } from '../catalog/tables.js';
import { customers } from '../customers/tables.js';
import { stores } from '../stores/tables.js';

export const tags = pgTable(
  'tags',
  {
    id: serial('id').primaryKey(),
    name: text('name').notNull(),
    /** approved, pending, disabled */
    status: text('status').notNull().default('pending'),
    /** who first used the tag and where (null: made by staff, or that customer or store view is gone) */
    firstCustomerId: integer('first_customer_id').references(() => customers.id, { onDelete: 'set null' }),
    firstStoreId: integer('first_store_id').references(() => stores.id, { onDelete: 'set null' }),
  },
  (t) => [uniqueIndex('tags_name_uq').on(sql`lower(${t.name})`), index('tags_status_idx').on(t.status)],
);

export const tagRelations = pgTable(
  'tag_relations',
  {
    id: serial('id').primaryKey(),
    tagId: integer('tag_id')
      .notNull()
      .references(() => tags.id, { onDelete: 'cascade' }),
    /** null: assigned by staff */
    customerId: integer('customer_id').references(() => customers.id, { onDelete: 'cascade' }),
    productId: integer('product_id')
      .notNull()
      .references(() => products.id, { onDelete: 'cascade' }),
    storeId: integer('store_id')
      .notNull()
      .references(() => stores.id, { onDelete: 'cascade' }),
    /** false once the customer removed the tag; tagging again makes it active again */
    active: boolean('active').notNull().default(true),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    // a customer tags a product with a tag once per store view; staff assign it once (nulls count as equal)
    unique('tag_relations_uq').on(t.tagId, t.customerId, t.productId, t.storeId).nullsNotDistinct(),
    index('tag_relations_product_idx').on(t.productId, t.storeId),
    index('tag_relations_customer_idx').on(t.customerId),
    index('tag_relations_store_idx').on(t.storeId),
  ],
);

/** A tag's figures in a store view (0: every store view), from its active relations. */
export const tagSummaries = pgTable(
  'tag_summaries',
  {
    tagId: integer('tag_id')
      .notNull()
      .references(() => tags.id, { onDelete: 'cascade' }),
    storeId: integer('store_id').notNull(),
    customers: integer('customers').notNull().default(0),
    products: integer('products').notNull().default(0),
    /** the customers' uses, plus the base popularity staff gave the tag in the store view */
    popularity: integer('popularity').notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.tagId, t.storeId] }), index('tag_summaries_store_idx').on(t.storeId, t.popularity)],
);

/** The popularity staff give a tag in a store view, added to its customers' uses there. */
export const tagProperties = pgTable(
  'tag_properties',
  {
    tagId: integer('tag_id')
      .notNull()
      .references(() => tags.id, { onDelete: 'cascade' }),
    storeId: integer('store_id')
      .notNull()
      .references(() => stores.id, { onDelete: 'cascade' }),
    basePopularity: integer('base_popularity').notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.tagId, t.storeId] })],
);
