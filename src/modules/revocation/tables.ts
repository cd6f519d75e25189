/** EU contract revocation declarations: one row per declaration, always written, even when its mails are suppressed. */
import { boolean, index, integer, pgTable, serial, text, timestamp } from 'drizzle-orm/pg-core';

export const revocationRequests = pgTable(
  'revocation_requests',
  {
    id: serial('id').primaryKey(),
    orderId: integer('order_id').notNull(),
    orderReference: text('order_reference').notNull(),
    reason: text('reason'),
    customerName: text('customer_name').notNull(),
    /** stored lower-case: where the receipt goes */
    email: text('email').notNull(),
    /** the order's customer; a customer's declarations are those with their id (a guest's have none) */
    customerId: integer('customer_id'),
    /** true when the order's owner submitted it while signed in */
    verified: boolean('verified').notNull().default(false),
    storeId: integer('store_id').notNull(),
    receivedAt: timestamp('received_at', { withTimezone: true }).notNull().defaultNow(),
    /** null until processed: accepted, rejected, info_requested */
    processedStatus: text('processed_status'),
    processedAt: timestamp('processed_at', { withTimezone: true }),
    adminNote: text('admin_note'),
    /** set when the customer's receipt mail was not sent (rate_limit_recipient) */
    suppressedAt: timestamp('suppressed_at', { withTimezone: true }),
    suppressedReason: text('suppressed_reason'),
    ip: text('ip'),
    userAgent: text('user_agent'),
    /** how it arrived: api or web_form */
    channel: text('channel').notNull().default('api'),
  },
  (t) => [
    index('revocation_requests_email_idx').on(t.email),
    index('revocation_requests_order_idx').on(t.orderId),
    index('revocation_requests_customer_idx').on(t.customerId),
  ],
);
