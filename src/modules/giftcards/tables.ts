/**
 * Gift cards: a code with a balance in its currency, spent by orders and adjusted by the back office. The
 * balance can never go below zero (a CHECK constraint, and every debit is one conditional UPDATE); each
 * change writes a history row in the same transaction.
 */
import { sql } from 'drizzle-orm';
import { bigserial, check, index, integer, numeric, pgTable, serial, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';

const money = (name: string) => numeric(name, { precision: 20, scale: 4 });

export const giftcards = pgTable(
  'giftcards',
  {
    id: serial('id').primaryKey(),
    code: text('code').notNull(),
    balance: money('balance').notNull(),
    initialBalance: money('initial_balance').notNull(),
    currencyCode: text('currency_code').notNull(),
    /** active, used, expired, disabled */
    status: text('status').notNull().default('active'),
    expiresAt: timestamp('expires_at', { withTimezone: true }),
    websiteIds: integer('website_ids')
      .array()
      .notNull()
      .default(sql`'{1}'::int[]`),
    recipientName: text('recipient_name'),
    recipientEmail: text('recipient_email'),
    senderName: text('sender_name'),
    senderEmail: text('sender_email'),
    message: text('message'),
    purchaseOrderId: integer('purchase_order_id'),
    purchaseOrderItemId: integer('purchase_order_item_id'),
    emailScheduledAt: timestamp('email_scheduled_at', { withTimezone: true }),
    emailSentAt: timestamp('email_sent_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex('giftcards_code_uq').on(sql`upper(${t.code})`), check('giftcards_balance_ck', sql`${t.balance} >= 0`)],
);

export const giftcardHistory = pgTable(
  'giftcard_history',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    giftcardId: integer('giftcard_id')
      .notNull()
      .references(() => giftcards.id, { onDelete: 'cascade' }),
    /** created, used, refunded, adjusted, expired */
    action: text('action').notNull(),
    /** signed change of the balance */
    amount: money('amount').notNull(),
    balanceBefore: money('balance_before').notNull(),
    balanceAfter: money('balance_after').notNull(),
    orderId: integer('order_id'),
    comment: text('comment'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('giftcard_history_card_idx').on(t.giftcardId)],
);
