/** Newsletter subscribers: one row per email and store view, linked to the customer account when there is one. */
import { sql } from 'drizzle-orm';
import { index, integer, pgTable, serial, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';

export const newsletterSubscribers = pgTable(
  'newsletter_subscribers',
  {
    id: serial('id').primaryKey(),
    /** stored lower-case */
    email: text('email').notNull(),
    customerId: integer('customer_id'),
    storeId: integer('store_id').notNull(),
    /** subscribed, not_active (waiting for confirmation), unsubscribed, unconfirmed */
    status: text('status').notNull(),
    /** sha256 (hex) of the confirmation code mailed for double opt-in; null once confirmed */
    confirmCodeHash: text('confirm_code_hash'),
    changeStatusAt: timestamp('change_status_at', { withTimezone: true }).notNull().defaultNow(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('newsletter_subscribers_email_store_uq').on(sql`lower(${t.email})`, t.storeId),
    index('newsletter_subscribers_customer_idx').on(t.customerId),
  ],
);
