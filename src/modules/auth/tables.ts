import { boolean, index, integer, pgTable, serial, text, timestamp } from 'drizzle-orm/pg-core';

export const apiRoles = pgTable('api_roles', {
  id: serial('id').primaryKey(),
  name: text('name').notNull().unique(),
  /** `all`, `<resource>/all` or `<resource>/<read|write|create|delete>` */
  permissions: text('permissions').array().notNull().default([]),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
});

export const apiUsers = pgTable('api_users', {
  id: serial('id').primaryKey(),
  username: text('username').notNull().unique(),
  email: text('email'),
  apiKeyHash: text('api_key_hash').notNull(),
  roleId: integer('role_id')
    .notNull()
    .references(() => apiRoles.id),
  isActive: boolean('is_active').notNull().default(true),
  allowedStoreIds: integer('allowed_store_ids').array(),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});

export const oauthClients = pgTable('oauth_clients', {
  id: serial('id').primaryKey(),
  clientId: text('client_id').notNull().unique(),
  name: text('name').notNull(),
  secretHash: text('secret_hash').notNull(),
  roleId: integer('role_id')
    .notNull()
    .references(() => apiRoles.id),
  isActive: boolean('is_active').notNull().default(true),
  allowedStoreIds: integer('allowed_store_ids').array(),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
});

/** Token ids revoked before their expiry (logout, refresh); rows can go once expired. */
export const revokedTokens = pgTable(
  'revoked_tokens',
  {
    jti: text('jti').primaryKey(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
  },
  (t) => [index('revoked_tokens_expires_idx').on(t.expiresAt)],
);
