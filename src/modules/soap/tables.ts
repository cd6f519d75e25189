import { index, integer, jsonb, pgTable, text, timestamp } from 'drizzle-orm/pg-core';
import { apiUsers } from '../auth/tables.js';

/**
 * Open legacy SOAP sessions, shared by V1, V2 and WS-I and by every process. The id handed to the client is
 * stored only as its SHA-256 hash; a session expires once idle for longer than `api/config/session_timeout`.
 * `data` is what the session keeps between calls, as Magento's API session does (the catalog's current store
 * views, by session field name).
 */
export const soapSessions = pgTable(
  'soap_sessions',
  {
    idHash: text('id_hash').primaryKey(),
    apiUserId: integer('api_user_id')
      .notNull()
      .references(() => apiUsers.id, { onDelete: 'cascade' }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    lastUsedAt: timestamp('last_used_at', { withTimezone: true }).notNull().defaultNow(),
    data: jsonb('data').$type<Record<string, unknown>>().notNull().default({}),
  },
  (t) => [index('soap_sessions_user_idx').on(t.apiUserId, t.lastUsedAt)],
);
