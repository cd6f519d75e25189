/**
 * Tokens: the three grants of POST /auth/token, refresh, logout (revocation stored in the database so every
 * process refuses a logged-out token), the per-request principal check, and the management of API roles,
 * API users and OAuth clients used by the CLI.
 */
import { eq, lt, sql } from 'drizzle-orm';
import type { Actor, Ctx } from '../../platform/context.js';
import type { Db } from '../../platform/db.js';
import { rows } from '../../platform/db.js';
import { AppError, badRequest, conflict, notFound } from '../../platform/errors.js';
import { hashSecret, verifySecret } from '../../platform/auth/secrets.js';
import { isValidPermission } from '../../platform/auth/access.js';
import type { TokenClaims } from '../../platform/auth/tokens.js';
import { configuredRule } from '../../platform/rate-limit.js';
import { declareDefaults } from '../../platform/settings.js';
import { authenticateCustomer, getCustomerIdentity } from '../customers/service.js';
import { apiRoles, apiUsers, blockedSubjects, oauthClients, revokedTokens } from './tables.js';
import type { TokenRequest, TokenResponse } from './schemas.js';

declareDefaults({
  /** failed /auth/token attempts per client IP per minute */
  'api/rate_limit/auth_token_ip': 10,
  /** failed /auth/token attempts per account (email, client_id, username) per minute */
  'api/rate_limit/customer_login': 5,
});

const authError = (message: string) =>
  new AppError('authentication_error', message, { reason: 'INVALID_TOKEN', headers: { 'www-authenticate': 'Bearer' } });

const invalidRequest = (message: string) => new AppError('bad_request', message, { error: 'invalid_request' });

const EMAIL_RE = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

function tokenResponse(issued: { token: string; expiresIn: number }, extra: Partial<TokenResponse>): TokenResponse {
  return {
    token: issued.token,
    tokenType: 'Bearer',
    expiresIn: issued.expiresIn,
    access_token: issued.token,
    token_type: 'Bearer',
    expires_in: issued.expiresIn,
    ...extra,
  };
}

interface ApiPrincipal {
  principal: 'api_user' | 'oauth_client';
  id: number;
  username: string;
  permissions: string[];
  allowedStoreIds: number[] | null;
}

async function issueForPrincipal(ctx: Ctx, p: ApiPrincipal): Promise<TokenResponse> {
  const claims: Omit<TokenClaims, 'jti' | 'exp' | 'iat' | 'nbf' | 'iss' | 'aud'> = {
    sub: p.principal === 'api_user' ? `api_user_${p.id}` : `oauth_client_${p.id}`,
    type: 'api_user',
    username: p.username,
    roles: [],
    permissions: p.permissions,
  };
  if (p.principal === 'api_user') claims.api_user_id = p.id;
  else claims.oauth_client_id = p.id;
  if (p.allowedStoreIds) claims.allowed_store_ids = p.allowedStoreIds;
  const issued = await ctx.app.tokens.issue(claims, ctx.now);
  return tokenResponse(issued, { apiUser: { id: p.id, username: p.username }, permissions: p.permissions });
}

async function issueForCustomer(ctx: Ctx, c: { id: number; email: string; firstname: string; lastname: string }) {
  const issued = await ctx.app.tokens.issue(
    { sub: `customer_${c.id}`, type: 'customer', customer_id: c.id, email: c.email, roles: ['ROLE_CUSTOMER'] },
    ctx.now,
  );
  return tokenResponse(issued, { customer: { id: c.id, email: c.email, firstName: c.firstname, lastName: c.lastname } });
}

/**
 * Failed attempts are counted per client IP and per account; once either count reaches its limit, every
 * attempt in the window is refused with 429, right credentials included.
 */
async function guardAttempt<T>(ctx: Ctx, account: string, attempt: () => Promise<T | undefined>, fail: () => AppError): Promise<T> {
  const { limiter, settings } = ctx.app;
  const ipRule = configuredRule(settings, 'auth_token_ip', 60, ctx.store.storeId);
  const accountRule = configuredRule(settings, 'customer_login', 60, ctx.store.storeId);
  const accountKey = account.toLowerCase();
  if ((await limiter.blocked(ipRule, ctx.ip)) || (await limiter.blocked(accountRule, accountKey))) {
    throw new AppError('too_many_requests', 'Too many requests. Please try again later.', { reason: 'RATE_LIMITED' });
  }
  const result = await attempt();
  if (result === undefined) {
    await Promise.all([limiter.hit(ipRule, ctx.ip), limiter.hit(accountRule, accountKey)]);
    throw fail();
  }
  return result;
}

function str(v: unknown): string | undefined {
  return typeof v === 'string' && v.length ? v : undefined;
}

export async function issueToken(ctx: Ctx, body: TokenRequest, basic?: { id: string; secret: string }): Promise<TokenResponse> {
  const grant = str(body.grant_type) ?? str(body.grantType) ?? (basic ? 'client_credentials' : 'customer');
  switch (grant) {
    case 'customer':
    case 'password': {
      const email = str(body.email) ?? str(body.username);
      const password = str(body.password);
      if (!email || !password) throw invalidRequest('Email and password are required');
      if (email.length > 254 || !EMAIL_RE.test(email)) throw invalidRequest('Invalid email format');
      if (password.length > 256) throw new AppError('unauthorized', 'Invalid email or password', { error: 'invalid_credentials' });
      const customer = await guardAttempt(
        ctx,
        `customer:${email}`,
        () => authenticateCustomer(ctx, email, password),
        () => new AppError('unauthorized', 'Invalid email or password', { error: 'invalid_credentials' }),
      );
      return issueForCustomer(ctx, customer);
    }
    case 'client_credentials': {
      const clientId = str(body.client_id) ?? basic?.id;
      const secret = str(body.client_secret) ?? basic?.secret;
      if (!clientId || !secret) throw invalidRequest('client_id and client_secret are required');
      const principal = await guardAttempt(
        ctx,
        `client:${clientId}`,
        () => authenticateClient(ctx.db, clientId, secret),
        () => new AppError('unauthorized', 'Invalid client credentials', { error: 'invalid_client' }),
      );
      return issueForPrincipal(ctx, principal);
    }
    case 'api_user': {
      const username = str(body.username);
      const apiKey = str(body.api_key) ?? str(body.apiKey);
      if (!username || !apiKey) throw invalidRequest('username and api_key are required');
      const principal = await guardAttempt(
        ctx,
        `api_user:${username}`,
        () => authenticateApiUser(ctx.db, username, apiKey),
        () => new AppError('unauthorized', 'Invalid API user credentials', { error: 'invalid_client' }),
      );
      return issueForPrincipal(ctx, principal);
    }
    default:
      throw new AppError('bad_request', `Unsupported grant_type: ${grant}`, { error: 'unsupported_grant_type' });
  }
}

async function authenticateApiUser(db: Db, username: string, apiKey: string): Promise<ApiPrincipal | undefined> {
  const [u] = await db
    .select({ id: apiUsers.id, username: apiUsers.username, hash: apiUsers.apiKeyHash, isActive: apiUsers.isActive, permissions: apiRoles.permissions, allowed: apiUsers.allowedStoreIds })
    .from(apiUsers)
    .innerJoin(apiRoles, eq(apiRoles.id, apiUsers.roleId))
    .where(eq(apiUsers.username, username));
  const ok = await verifySecret(apiKey, u?.hash);
  if (!u || !ok || !u.isActive) return undefined;
  return { principal: 'api_user', id: u.id, username: u.username, permissions: u.permissions, allowedStoreIds: u.allowed };
}

async function authenticateClient(db: Db, clientId: string, secret: string): Promise<ApiPrincipal | undefined> {
  const [c] = await db
    .select({ id: oauthClients.id, clientId: oauthClients.clientId, hash: oauthClients.secretHash, isActive: oauthClients.isActive, permissions: apiRoles.permissions, allowed: oauthClients.allowedStoreIds })
    .from(oauthClients)
    .innerJoin(apiRoles, eq(apiRoles.id, oauthClients.roleId))
    .where(eq(oauthClients.clientId, clientId));
  const ok = await verifySecret(secret, c?.hash);
  if (!c || !ok || !c.isActive) return undefined;
  return { principal: 'oauth_client', id: c.id, username: c.clientId, permissions: c.permissions, allowedStoreIds: c.allowed };
}

/** Revokes the current token until its expiry. */
async function revoke(ctx: Ctx, jti: string, exp: number): Promise<void> {
  await ctx.db.insert(revokedTokens).values({ jti, expiresAt: new Date(exp * 1000) }).onConflictDoNothing();
}

/** A new token for the same principal; the presented one is revoked. */
export async function refreshToken(ctx: Ctx): Promise<TokenResponse> {
  const a = ctx.actor;
  if (a.kind === 'anonymous') throw authError('Authentication required');
  if (a.kind === 'customer') {
    const c = await getCustomerIdentity(ctx, a.customerId);
    if (!c) throw authError('Account is inactive');
    await revoke(ctx, a.jti, a.exp);
    return issueForCustomer(ctx, c);
  }
  await revoke(ctx, a.jti, a.exp);
  return issueForPrincipal(ctx, {
    principal: a.principal,
    id: a.id,
    username: a.username,
    permissions: a.permissions,
    allowedStoreIds: a.allowedStoreIds ?? null,
  });
}

export async function logout(ctx: Ctx): Promise<{ success: boolean; message: string }> {
  const a = ctx.actor;
  if (a.kind === 'anonymous') throw authError('Authentication required');
  await revoke(ctx, a.jti, a.exp);
  return { success: true, message: 'Successfully logged out' };
}

interface PrincipalRow extends Record<string, unknown> {
  revoked: boolean;
  blocked: boolean;
  username?: string | null;
  is_active?: boolean | null;
  permissions?: string[] | null;
  allowed_store_ids?: number[] | null;
}

/**
 * Checks, on every authenticated request and in one query, that the token is not revoked and its subject
 * is still allowed; API principals' permissions and store scope are read afresh from the database.
 */
export async function resolvePrincipal(db: Db, claims: TokenClaims): Promise<Actor> {
  const m = /^(customer|api_user|oauth_client)_(\d+)$/.exec(claims.sub);
  if (!m) throw authError('Invalid or expired token');
  const kind = m[1];
  const id = Number(m[2]);
  if (kind === 'customer') {
    if (claims.type !== 'customer') throw authError('Invalid or expired token');
    const [r] = await rows<PrincipalRow>(
      db,
      sql`SELECT EXISTS (SELECT 1 FROM revoked_tokens WHERE jti = ${claims.jti}) AS revoked,
                 EXISTS (SELECT 1 FROM auth_blocked_subjects WHERE subject = ${claims.sub}) AS blocked`,
    );
    if (r.revoked) throw authError('Token has been revoked');
    if (r.blocked) throw authError('Account is inactive');
    return { kind: 'customer', customerId: id, email: String(claims.email ?? ''), jti: claims.jti, exp: claims.exp };
  }
  const table = kind === 'api_user' ? sql`api_users` : sql`oauth_clients`;
  const nameCol = kind === 'api_user' ? sql`p.username` : sql`p.client_id`;
  const [r] = await rows<PrincipalRow>(
    db,
    sql`SELECT EXISTS (SELECT 1 FROM revoked_tokens WHERE jti = ${claims.jti}) AS revoked, false AS blocked,
               ${nameCol} AS username, p.is_active, r.permissions, p.allowed_store_ids
          FROM ${table} p JOIN api_roles r ON r.id = p.role_id WHERE p.id = ${id}`,
  );
  if (!r) throw authError('Invalid or expired token');
  if (r.revoked) throw authError('Token has been revoked');
  if (!r.is_active) throw authError('Account is inactive');
  return {
    kind: 'admin',
    principal: kind === 'api_user' ? 'api_user' : 'oauth_client',
    id,
    username: String(r.username),
    permissions: r.permissions ?? [],
    allowedStoreIds: r.allowed_store_ids ?? undefined,
    jti: claims.jti,
    exp: claims.exp,
  };
}

/** Every token of the subject is refused until unblocked (a deactivated customer). */
export async function setSubjectBlocked(ctx: Ctx, subject: string, blocked: boolean, reason = 'inactive'): Promise<void> {
  if (blocked) await ctx.db.insert(blockedSubjects).values({ subject, reason }).onConflictDoNothing();
  else await ctx.db.delete(blockedSubjects).where(eq(blockedSubjects.subject, subject));
}

export async function purgeExpiredRevocations(db: Db): Promise<void> {
  await db.delete(revokedTokens).where(lt(revokedTokens.expiresAt, new Date()));
}

// ---- management (CLI, demo seed, tests) ----

function checkPermissions(permissions: string[]): void {
  const bad = permissions.filter((p) => !isValidPermission(p));
  if (bad.length) throw badRequest(`Unknown permission(s): ${bad.join(', ')}`);
}

export async function createRole(db: Db, name: string, permissions: string[]): Promise<number> {
  checkPermissions(permissions);
  const [row] = await db.insert(apiRoles).values({ name, permissions }).returning({ id: apiRoles.id });
  return row.id;
}

export async function roleIdByName(db: Db, name: string): Promise<number> {
  const [r] = await db.select({ id: apiRoles.id }).from(apiRoles).where(eq(apiRoles.name, name));
  if (!r) throw notFound(`Role not found: ${name}`);
  return r.id;
}

export async function listRoles(db: Db) {
  return db.select().from(apiRoles).orderBy(apiRoles.name);
}

export async function setRolePermissions(db: Db, name: string, permissions: string[]): Promise<void> {
  checkPermissions(permissions);
  const res = await db.update(apiRoles).set({ permissions }).where(eq(apiRoles.name, name)).returning({ id: apiRoles.id });
  if (!res.length) throw notFound(`Role not found: ${name}`);
}

export async function createApiUser(
  db: Db,
  input: { username: string; apiKey: string; role: string; email?: string; allowedStoreIds?: number[] },
): Promise<number> {
  if (!/^[A-Za-z0-9._@-]{2,64}$/.test(input.username)) throw badRequest('A username is 2 to 64 letters, digits, . _ @ or -');
  if (input.apiKey.length < 8) throw badRequest('An API key has at least 8 characters');
  const roleId = await roleIdByName(db, input.role);
  const [exists] = await db.select({ id: apiUsers.id }).from(apiUsers).where(eq(apiUsers.username, input.username));
  if (exists) throw conflict(`API user already exists: ${input.username}`);
  const [row] = await db
    .insert(apiUsers)
    .values({ username: input.username, email: input.email, apiKeyHash: await hashSecret(input.apiKey), roleId, allowedStoreIds: input.allowedStoreIds })
    .returning({ id: apiUsers.id });
  return row.id;
}

export async function createOauthClient(
  db: Db,
  input: { clientId: string; secret: string; role: string; name?: string; allowedStoreIds?: number[] },
): Promise<number> {
  if (!/^[A-Za-z0-9._-]{2,128}$/.test(input.clientId)) throw badRequest('A client id is 2 to 128 letters, digits, . _ or -');
  if (input.secret.length < 12) throw badRequest('A client secret has at least 12 characters');
  const roleId = await roleIdByName(db, input.role);
  const [exists] = await db.select({ id: oauthClients.id }).from(oauthClients).where(eq(oauthClients.clientId, input.clientId));
  if (exists) throw conflict(`OAuth client already exists: ${input.clientId}`);
  const [row] = await db
    .insert(oauthClients)
    .values({ clientId: input.clientId, name: input.name ?? input.clientId, secretHash: await hashSecret(input.secret), roleId, allowedStoreIds: input.allowedStoreIds })
    .returning({ id: oauthClients.id });
  return row.id;
}

export async function setApiUserActive(db: Db, username: string, active: boolean): Promise<void> {
  const res = await db.update(apiUsers).set({ isActive: active, updatedAt: new Date() }).where(eq(apiUsers.username, username)).returning({ id: apiUsers.id });
  if (!res.length) throw notFound(`API user not found: ${username}`);
}

export async function setApiUserKey(db: Db, username: string, apiKey: string): Promise<void> {
  if (apiKey.length < 8) throw badRequest('An API key has at least 8 characters');
  const res = await db.update(apiUsers).set({ apiKeyHash: await hashSecret(apiKey), updatedAt: new Date() }).where(eq(apiUsers.username, username)).returning({ id: apiUsers.id });
  if (!res.length) throw notFound(`API user not found: ${username}`);
}

export async function setOauthClientActive(db: Db, clientId: string, active: boolean): Promise<void> {
  const res = await db.update(oauthClients).set({ isActive: active }).where(eq(oauthClients.clientId, clientId)).returning({ id: oauthClients.id });
  if (!res.length) throw notFound(`OAuth client not found: ${clientId}`);
}

export async function listApiUsers(db: Db) {
  return db
    .select({ id: apiUsers.id, username: apiUsers.username, email: apiUsers.email, role: apiRoles.name, isActive: apiUsers.isActive, allowedStoreIds: apiUsers.allowedStoreIds })
    .from(apiUsers)
    .innerJoin(apiRoles, eq(apiRoles.id, apiUsers.roleId))
    .orderBy(apiUsers.username);
}

export async function listOauthClients(db: Db) {
  return db
    .select({ id: oauthClients.id, clientId: oauthClients.clientId, name: oauthClients.name, role: apiRoles.name, isActive: oauthClients.isActive })
    .from(oauthClients)
    .innerJoin(apiRoles, eq(apiRoles.id, oauthClients.roleId))
    .orderBy(oauthClients.clientId);
}

/** Install data: the Administrators role (every permission). */
export async function install(db: Db): Promise<void> {
  await db.insert(apiRoles).values({ name: 'Administrators', permissions: ['all'] }).onConflictDoNothing();
}

export const DEMO_CREDENTIALS = {
  apiUser: { username: 'demo-admin', apiKey: 'demo-admin-key' },
  oauthClient: { clientId: 'demo-client', secret: 'demo-client-secret' },
};

export async function seedDemo(ctx: Ctx): Promise<void> {
  await createApiUser(ctx.db, { ...DEMO_CREDENTIALS.apiUser, role: 'Administrators', email: 'admin@example.com' });
  await createOauthClient(ctx.db, { ...DEMO_CREDENTIALS.oauthClient, role: 'Administrators', name: 'Demo integration' });
}

