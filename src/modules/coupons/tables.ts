/**
 * Cart price rules and their coupon codes. A rule holds the discount (action and amount) and its conditions;
 * a coupon is a code that triggers a rule and carries its own usage limits. Usage is counted per coupon and
 * per customer by atomic statements when an order is placed and returned when it is cancelled.
 */
import { sql } from 'drizzle-orm';
import {
  boolean,
  check,
  date,
  index,
  integer,
  numeric,
  pgTable,
  primaryKey,
  serial,
  text,
  timestamp,
  uniqueIndex,
} from 'drizzle-orm/pg-core';

const money = (name: string) => numeric(name, { precision: 20, scale: 4 });

export const salesRules = pgTable('sales_rules', {
  id: serial('id').primaryKey(),
  name: text('name').notNull(),
  description: text('description'),
  isActive: boolean('is_active').notNull().default(true),
  fromDate: date('from_date', { mode: 'string' }),
  toDate: date('to_date', { mode: 'string' }),
  websiteIds: integer('website_ids')
    .array()
    .notNull()
    .default(sql`'{1}'::int[]`),
  customerGroupIds: integer('customer_group_ids')
    .array()
    .notNull()
    .default(sql`'{}'::int[]`),
  /** by_percent, by_fixed, cart_fixed, buy_x_get_y */
  action: text('action').notNull(),
  /** percent for by_percent; base-currency amount for by_fixed and cart_fixed; Y (free units) for buy_x_get_y */
  discountAmount: money('discount_amount').notNull(),
  /** most units of an item the discount applies to; null: all */
  discountQty: numeric('discount_qty', { precision: 12, scale: 4 }),
  /** buy_x_get_y: X, the units to buy */
  discountStep: integer('discount_step').notNull().default(0),
  /** base subtotal the cart must reach; null: none */
  minimumSubtotal: money('minimum_subtotal'),
  sortOrder: integer('sort_order').notNull().default(0),
  stopRulesProcessing: boolean('stop_rules_processing').notNull().default(false),
  /** 0 no, 1 matching items ship free, 2 the whole shipment ships free */
  simpleFreeShipping: integer('simple_free_shipping').notNull().default(0),
  applyToShipping: boolean('apply_to_shipping').notNull().default(false),
  timesUsed: integer('times_used').notNull().default(0),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});

export const coupons = pgTable(
  'coupons',
  {
    id: serial('id').primaryKey(),
    ruleId: integer('rule_id')
      .notNull()
      .references(() => salesRules.id, { onDelete: 'cascade' }),
    code: text('code').notNull(),
    /** uses of this code in all; null: unlimited */
    usageLimit: integer('usage_limit'),
    /** uses of this code per customer; null: unlimited */
    usagePerCustomer: integer('usage_per_customer'),
    timesUsed: integer('times_used').notNull().default(0),
    expirationDate: timestamp('expiration_date', { withTimezone: true }),
    /** 0 manual, 1 generated */
    type: integer('type').notNull().default(0),
    isPrimary: boolean('is_primary').notNull().default(true),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('coupons_code_uq').on(sql`lower(${t.code})`),
    index('coupons_rule_idx').on(t.ruleId),
    check('coupons_times_used_ck', sql`${t.timesUsed} >= 0 AND (${t.usageLimit} IS NULL OR ${t.timesUsed} <= ${t.usageLimit})`),
  ],
);

/** Uses of a coupon by one customer (guests are counted by the coupon's total only). */
export const couponUsages = pgTable(
  'coupon_usages',
  {
    couponId: integer('coupon_id')
      .notNull()
      .references(() => coupons.id, { onDelete: 'cascade' }),
    customerId: integer('customer_id').notNull(),
    timesUsed: integer('times_used').notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.couponId, t.customerId] }), check('coupon_usages_times_used_ck', sql`${t.timesUsed} >= 0`)],
);
