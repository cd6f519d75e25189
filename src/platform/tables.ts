/**
 * Tables that belong to the platform itself: install state, mail outbox, idempotency records, what token
 * checks read of every subject (blocked subjects, credential changes), and the activity log of back-office writes.
 */
import { bigserial, index, integer, jsonb, pgTable, primaryKey, text, timestamp } from 'drizzle-orm/pg-core';

export const installState = pgTable('install_state', {
  module: text('module').primaryKey(),
  version: integer('version').notNull(),
  installedAt: timestamp('installed_at', { withTimezone: true }).notNull().defaultNow(),
});

export const mailOutbox = pgTable(
  'mail_outbox',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    toAddress: text('to_address').notNull(),
    subject: text('subject').notNull(),
    textBody: text('text_body').notNull(),
    htmlBody: text('html_body'),
    template: text('template').notNull(),
    storeId: integer('store_id'),
    /** pending → sent | failed (gave up) | logged (demo mode without SMTP) */
    status: text('status').notNull().default('pending'),
    attempts: integer('attempts').notNull().default(0),
    nextAttemptAt: timestamp('next_attempt_at', { withTimezone: true }).notNull().defaultNow(),
    lastError: text('last_error'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    sentAt: timestamp('sent_at', { withTimezone: true }),
  },
  (t) => [index('mail_outbox_due_idx').on(t.status, t.nextAttemptAt)],
);

export const idempotencyKeys = pgTable(
  'idempotency_keys',
  {
    scope: text('scope').notNull(),
    key: text('key').notNull(),
    method: text('method').notNull(),
    path: text('path').notNull(),
    /** null while the first request is still running */
    status: integer('status'),
    contentType: text('content_type'),
    body: text('body'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
  },
  (t) => [primaryKey({ columns: [t.scope, t.key, t.method, t.path] }), index('idempotency_expires_idx').on(t.expiresAt)],
);

/** Subjects (`customer_5`) whose every token is refused, e.g. a deactivated customer. */
export const blockedSubjects = pgTable('auth_blocked_subjects', {
  subject: text('subject').primaryKey(),
  reason: text('reason').notNull(),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
});

/**
 * Subjects whose credentials changed (a password, an API key, a client secret): their tokens issued, and SOAP
 * sessions opened, before `valid_after` are refused.
 */
export const subjectValidAfter = pgTable('auth_subject_valid_after', {
  subject: text('subject').primaryKey(),
  validAfter: timestamp('valid_after', { withTimezone: true }).notNull(),
});

/**
 * Every back-office write (by an API user, OAuth client or staff user) that succeeded: who, what, where, when and
 * the fields sent (secrets redacted, large values cut). Written by the operation runtime (activity-log.ts), in the
 * write's own transaction when it has one; rows older than `admin/activity_log/retention_days` are pruned.
 */
export const activityLog = pgTable(
  'activity_log',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    /** api_user | oauth_client | admin_user */
    principalType: text('principal_type').notNull(),
    principalId: integer('principal_id').notNull(),
    username: text('username').notNull(),
    /** the operation id (`products.update`), or the legacy method of a SOAP call (`customer_address.create`) */
    operation: text('operation').notNull(),
    /** rest | graphql | mcp | soap */
    protocol: text('protocol').notNull(),
    method: text('method').notNull(),
    /** the REST path the call stands for (GraphQL and MCP calls too); none for SOAP */
    path: text('path'),
    /** what was changed: the first segment of the path (`products`), and its id when known */
    resource: text('resource'),
    resourceId: text('resource_id'),
    storeId: integer('store_id'),
    ip: text('ip'),
    /** the fields sent, redacted and truncated; null when the write took none */
    fields: jsonb('fields').$type<unknown>(),
  },
  (t) => [
    index('activity_log_created_idx').on(t.createdAt),
    index('activity_log_principal_idx').on(t.principalType, t.principalId, t.id),
    index('activity_log_operation_idx').on(t.operation, t.id),
    index('activity_log_resource_idx').on(t.resource, t.resourceId, t.id),
    index('activity_log_store_idx').on(t.storeId, t.id),
  ],
);
