/** Shipments of an order: what was sent (per item), the tracking numbers and the comments. */
import { bigserial, boolean, index, integer, jsonb, numeric, pgTable, serial, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import { orderItems, orders } from '../orders/tables.js';

export const shipments = pgTable(
  'shipments',
  {
    id: serial('id').primaryKey(),
    incrementId: text('increment_id').notNull(),
    orderId: integer('order_id')
      .notNull()
      .references(() => orders.id, { onDelete: 'cascade' }),
    storeId: integer('store_id').notNull(),
    totalQty: numeric('total_qty', { precision: 12, scale: 4 }).notNull().default('0'),
    totalWeight: numeric('total_weight', { precision: 12, scale: 4 }),
    shipmentStatus: integer('shipment_status'),
    packages: jsonb('packages').$type<unknown[]>().notNull().default([]),
    emailSent: boolean('email_sent').notNull().default(false),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex('shipments_increment_id_uq').on(t.incrementId), index('shipments_order_idx').on(t.orderId)],
);

export const shipmentItems = pgTable(
  'shipment_items',
  {
    id: serial('id').primaryKey(),
    shipmentId: integer('shipment_id')
      .notNull()
      .references(() => shipments.id, { onDelete: 'cascade' }),
    orderItemId: integer('order_item_id')
      .notNull()
      .references(() => orderItems.id, { onDelete: 'cascade' }),
    productId: integer('product_id').notNull(),
    sku: text('sku').notNull(),
    name: text('name').notNull(),
    description: text('description'),
    qty: numeric('qty', { precision: 12, scale: 4 }).notNull(),
    price: numeric('price', { precision: 20, scale: 4 }).notNull().default('0'),
    rowTotal: numeric('row_total', { precision: 20, scale: 4 }).notNull().default('0'),
    weight: numeric('weight', { precision: 12, scale: 4 }),
  },
  (t) => [index('shipment_items_shipment_idx').on(t.shipmentId)],
);

export const shipmentTracks = pgTable(
  'shipment_tracks',
  {
    id: serial('id').primaryKey(),
    shipmentId: integer('shipment_id')
      .notNull()
      .references(() => shipments.id, { onDelete: 'cascade' }),
    orderId: integer('order_id').notNull(),
    carrierCode: text('carrier_code').notNull(),
    title: text('title').notNull(),
    trackNumber: text('track_number').notNull(),
    description: text('description'),
    weight: numeric('weight', { precision: 12, scale: 4 }),
    qty: numeric('qty', { precision: 12, scale: 4 }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('shipment_tracks_shipment_idx').on(t.shipmentId)],
);

export const shipmentComments = pgTable(
  'shipment_comments',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    shipmentId: integer('shipment_id')
      .notNull()
      .references(() => shipments.id, { onDelete: 'cascade' }),
    comment: text('comment').notNull(),
    isCustomerNotified: boolean('is_customer_notified').notNull().default(false),
    isVisibleOnFront: boolean('is_visible_on_front').notNull().default(false),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('shipment_comments_shipment_idx').on(t.shipmentId)],
);
