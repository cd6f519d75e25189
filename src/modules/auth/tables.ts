import { bigint, boolean, index, integer, pgTable, serial, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';

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

/** Back-office (staff) roles: the same permission strings as API roles. */
export const adminRoles = pgTable('admin_roles', {
  id: serial('id').primaryKey(),
  name: text('name').notNull().unique(),
  /** `all`, `<resource>/all` or `<resource>/<read|write|create|delete>` */
  permissions: text('permissions').array().notNull().default([]),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});

/** Back-office (staff) users: who signs in to run the shop. */
export const adminUsers = pgTable(
  'admin_users',
  {
    id: serial('id').primaryKey(),
    username: text('username').notNull().unique(),
    email: text('email').notNull(),
    /** scrypt (or an imported legacy hash, upgraded at the next sign-in); null: no password sign-in */
    passwordHash: text('password_hash'),
    firstName: text('first_name').notNull().default(''),
    lastName: text('last_name').notNull().default(''),
    isActive: boolean('is_active').notNull().default(true),
    /** the back office's language for this user, e.g. `en_US`, `de_DE` */
    locale: text('locale').notNull().default('en_US'),
    roleId: integer('role_id')
      .notNull()
      .references(() => adminRoles.id),
    /** store views this user is limited to; null: every store view */
    allowedStoreIds: integer('allowed_store_ids').array(),
    /** failed sign-ins since the last good one; the account locks at the configured count */
    failedLogins: integer('failed_logins').notNull().default(0),
    lockedUntil: timestamp('locked_until', { withTimezone: true }),
    lastLoginAt: timestamp('last_login_at', { withTimezone: true }),
    loginCount: integer('login_count').notNull().default(0),
    /** TOTP (RFC 6238) secret, encrypted with the server's key; required at sign-in once enabled */
    twofaSecret: text('twofa_secret'),
    twofaEnabled: boolean('twofa_enabled').notNull().default(false),
    /** a new secret (sealed) waiting for its first code before it replaces `twofa_secret` */
    twofaPendingSecret: text('twofa_pending_secret'),
    /** the 30-second step of the last TOTP code accepted: a code is accepted once */
    twofaLastStep: bigint('twofa_last_step', { mode: 'number' }),
    /** sha-256 of the one-time password reset token, and when it stops working */
    resetTokenHash: text('reset_token_hash'),
    resetTokenExpiresAt: timestamp('reset_token_expires_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex('admin_users_email_idx').on(t.email), index('admin_users_role_idx').on(t.roleId)],
);

/** One-time TOTP recovery codes of a staff user, hashed; a used code keeps its row with `used_at`. */
export const adminRecoveryCodes = pgTable(
  'admin_recovery_codes',
  {
    id: serial('id').primaryKey(),
    userId: integer('user_id')
      .notNull()
      .references(() => adminUsers.id, { onDelete: 'cascade' }),
    codeHash: text('code_hash').notNull(),
    usedAt: timestamp('used_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('admin_recovery_codes_user_idx').on(t.userId)],
);

/** WebAuthn credentials (passkeys) registered by staff users. */
export const adminPasskeys = pgTable(
  'admin_passkeys',
  {
    id: serial('id').primaryKey(),
    userId: integer('user_id')
      .notNull()
      .references(() => adminUsers.id, { onDelete: 'cascade' }),
    /** the credential id, base64url */
    credentialId: text('credential_id').notNull().unique(),
    /** the COSE public key, base64url */
    publicKey: text('public_key').notNull(),
    signCount: bigint('sign_count', { mode: 'number' }).notNull().default(0),
    transports: text('transports').array(),
    name: text('name').notNull().default(''),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    lastUsedAt: timestamp('last_used_at', { withTimezone: true }),
  },
  (t) => [index('admin_passkeys_user_idx').on(t.userId)],
);

/**
 * Web back-office sessions: a refresh token kept in an HttpOnly cookie (stored as its sha-256) with the CSRF
 * token its refreshes must present (sha-256 too). A refresh rotates the token; a session ends at `expires_at`
 * (its absolute lifetime from the sign-in), on sign-out, and on every credential change of its user.
 */
export const adminSessions = pgTable(
  'admin_sessions',
  {
    id: serial('id').primaryKey(),
    userId: integer('user_id')
      .notNull()
      .references(() => adminUsers.id, { onDelete: 'cascade' }),
    tokenHash: text('token_hash').notNull().unique(),
    csrfHash: text('csrf_hash').notNull(),
    userAgent: text('user_agent'),
    /** the sign-in the session began with: its tokens carry it as `auth_time` */
    authTime: timestamp('auth_time', { withTimezone: true }).notNull(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    lastUsedAt: timestamp('last_used_at', { withTimezone: true }).notNull().defaultNow(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('admin_sessions_user_idx').on(t.userId)],
);

/**
 * WebAuthn challenges this server issued and nobody has used yet: a ceremony consumes its row (one-time), so a
 * replayed or concurrently reused response finds none; kept in the database so any process can finish what
 * another began. Expired rows are pruned when new ones are issued.
 */
export const adminWebauthnChallenges = pgTable(
  'admin_webauthn_challenges',
  {
    /** base64url, as the client sends it back in clientDataJSON */
    challenge: text('challenge').primaryKey(),
    /** `register` or `authenticate` */
    purpose: text('purpose').notNull(),
    /** the staff user the ceremony is for; null: an authentication with a discoverable credential (any user) */
    userId: integer('user_id').references(() => adminUsers.id, { onDelete: 'cascade' }),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('admin_webauthn_challenges_expires_idx').on(t.expiresAt)],
);
