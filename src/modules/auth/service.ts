/**
 * Tokens: the three grants of POST /auth/token (with their rate limits), refresh, logout (revocation stored in
 * the database so every process refuses a logged-out token) and the per-request principal check. The management
 * of API roles, API users and OAuth clients is in accounts.ts, re-exported here.
 */
import { and, eq, lt, sql, type SQL } from 'drizzle-orm';
import { withTx, type Actor, type Ctx } from '../../platform/context.js';
import type { Db } from '../../platform/db.js';
import { statement } from '../../platform/db.js';
import { AppError } from '../../platform/errors.js';
import { verifySecretAndUpgrade } from '../../platform/auth/secrets.js';
import type { TokenClaims } from '../../platform/auth/tokens.js';
import { isEmailAddress } from '../../platform/format.js';
import { authenticateCustomer, getCustomerIdentity } from '../customers/service.js';
import { guardAttempt } from '../../platform/auth/attempts.js';
import { subjectValidAfter } from '../../platform/tables.js';
import { apiRoles, apiUsers, oauthClients, revokedTokens } from './tables.js';
import type { TokenRequest, TokenResponse } from './schemas.js';
import { authenticateStaff, staffStanding, type StaffPrincipal } from './staff-signin.js';
import { endStaffSessions, selfStaffId } from './staff-service.js';

const authError = (message: string) =>
  new AppError('authentication_error', message, { reason: 'INVALID_TOKEN', headers: { 'www-authenticate': 'Bearer' } });

const invalidRequest = (message: string) => new AppError('bad_request', message, { error: 'invalid_request' });

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

export interface ApiPrincipal {
  principal: 'api_user' | 'oauth_client' | 'admin_user';
  id: number;
  username: string;
  permissions: string[];
  allowedStoreIds: number[] | null;
}

/** Seconds since the epoch, as tokens count time. */
const seconds = (d: Date) => Math.floor(d.getTime() / 1000);

/**
 * The login time of a session (`auth_time`, kept across refreshes) and when its tokens must end: a new login
 * starts a session; a refresh continues one, and is refused once the session is older than the absolute
 * lifetime (TOKEN_SESSION_MAX_AGE), however often it was refreshed.
 */
function session(ctx: Ctx, authTime?: number): { authTime: number; notAfter: number } {
  const maxAge = ctx.app.config.tokenSessionMaxAgeSeconds;
  const since = authTime ?? seconds(ctx.now);
  if (seconds(ctx.now) >= since + maxAge) throw authError('Session has expired; sign in again');
  return { authTime: since, notAfter: since + maxAge };
}

async function issueForPrincipal(ctx: Ctx, p: ApiPrincipal, authTime?: number): Promise<TokenResponse> {
  const s = session(ctx, authTime);
  const claims: Omit<TokenClaims, 'jti' | 'exp' | 'iat' | 'nbf' | 'iss' | 'aud'> = {
    sub: `${p.principal}_${p.id}`,
    type: 'api_user',
    username: p.username,
    roles: [],
    permissions: p.permissions,
    auth_time: s.authTime,
  };
  if (p.principal === 'api_user') claims.api_user_id = p.id;
  else if (p.principal === 'oauth_client') claims.oauth_client_id = p.id;
  else claims.admin_user_id = p.id;
  if (p.allowedStoreIds) claims.allowed_store_ids = p.allowedStoreIds;
  const issued = await ctx.app.tokens.issue(claims, ctx.now, { notAfter: s.notAfter });
  const who = 'profile' in p ? { adminUser: (p as StaffPrincipal).profile } : { apiUser: { id: p.id, username: p.username } };
  return tokenResponse(issued, { ...who, permissions: p.permissions });
}

/**
 * A token for a staff user, signed in now or continuing a session begun at `authTime` (seconds): read afresh, so
 * that a refresh carries the current role; 401 when the user is gone or inactive.
 */
export async function issueForStaff(ctx: Ctx, id: number, authTime?: number): Promise<TokenResponse> {
  const p = await staffStanding(ctx, id);
  if (!p) throw authError('Account is inactive');
  return issueForPrincipal(ctx, p, authTime);
}

/** The staff sign-in (user name, password, second factor): the user, signed in now. */
export async function signInStaff(ctx: Ctx, body: TokenRequest): Promise<{ principal: StaffPrincipal; token: TokenResponse }> {
  const principal = await authenticateStaff(ctx, {
    username: str(body.username),
    password: str(body.password),
    twofaCode: str(body.twofa_code) ?? str(body.twofaCode),
    passkey: body.passkey,
  });
  return { principal, token: await issueForPrincipal(ctx, principal) };
}

export async function issueForCustomer(ctx: Ctx, c: { id: number; email: string; firstname: string; lastname: string }, authTime?: number) {
  const s = session(ctx, authTime);
  const issued = await ctx.app.tokens.issue(
    { sub: `customer_${c.id}`, type: 'customer', customer_id: c.id, email: c.email, roles: ['ROLE_CUSTOMER'], auth_time: s.authTime },
    ctx.now,
    { notAfter: s.notAfter },
  );
  return tokenResponse(issued, { customer: { id: c.id, email: c.email, firstName: c.firstname, lastName: c.lastname } });
}

function str(v: unknown): string | undefined {
  return typeof v === 'string' && v.length ? v : undefined;
}

/** `%xx` escapes as RFC 6749 2.3.1 asks; a value that is not validly escaped is taken as it is. */
function formDecode(v: string): string {
  try {
    return decodeURIComponent(v);
  } catch {
    return v;
  }
}

/** OAuth clients may send their credentials as HTTP Basic (`Authorization: Basic base64(id:secret)`). */
export function basicCredentials(authorization: string | undefined): { id: string; secret: string } | undefined {
  const m = /^Basic\s+([A-Za-z0-9+/=]+)\s*$/i.exec(authorization ?? '');
  if (!m) return undefined;
  const decoded = Buffer.from(m[1], 'base64').toString('utf8');
  const i = decoded.indexOf(':');
  if (i < 0) return undefined;
  return { id: formDecode(decoded.slice(0, i)), secret: formDecode(decoded.slice(i + 1)) };
}

export async function issueToken(ctx: Ctx, body: TokenRequest, authorization?: string): Promise<TokenResponse> {
  const basic = basicCredentials(authorization);
  const grant = str(body.grant_type) ?? str(body.grantType) ?? (basic ? 'client_credentials' : 'customer');
  switch (grant) {
    case 'customer':
    case 'password': {
      const email = str(body.email) ?? str(body.username);
      const password = str(body.password);
      if (!email || !password) throw invalidRequest('Email and password are required');
      if (email.length > 254 || !isEmailAddress(email)) throw invalidRequest('Invalid email format');
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
        () => authenticateClient(ctx, clientId, secret),
        () => new AppError('unauthorized', 'Invalid client credentials', { error: 'invalid_client' }),
      );
      return issueForPrincipal(ctx, principal);
    }
    case 'admin_user':
      return (await signInStaff(ctx, body)).token;
    case 'api_user': {
      const username = str(body.username);
      const apiKey = str(body.api_key) ?? str(body.apiKey);
      if (!username || !apiKey) throw invalidRequest('username and api_key are required');
      return issueForPrincipal(ctx, await verifyApiUser(ctx, username, apiKey));
    }
    default:
      throw new AppError('bad_request', `Unsupported grant_type: ${grant}`, { error: 'unsupported_grant_type' });
  }
}

/**
 * The API user credential check with its rate limits: the principal, or 401 (wrong name, key or inactive
 * user) or 429. The api_user token grant and the legacy SOAP login both go through it.
 */
export function verifyApiUser(ctx: Ctx, username: string, apiKey: string): Promise<ApiPrincipal> {
  return guardAttempt(
    ctx,
    `api_user:${username}`,
    () => authenticateApiUser(ctx, username, apiKey),
    () => new AppError('unauthorized', 'Invalid API user credentials', { error: 'invalid_client' }),
  );
}

/**
 * An API user's current standing (active flag, role permissions, store scope), for callers holding a session;
 * `validAfter`: sessions opened before it (the last change of the user's key) have ended.
 */
export async function apiUserStanding(
  db: Db,
  id: number,
): Promise<(Omit<ApiPrincipal, 'principal'> & { isActive: boolean; validAfter: Date | null }) | undefined> {
  const [u] = await db
    .select({
      id: apiUsers.id,
      username: apiUsers.username,
      isActive: apiUsers.isActive,
      permissions: apiRoles.permissions,
      allowedStoreIds: apiUsers.allowedStoreIds,
      validAfter: subjectValidAfter.validAfter,
    })
    .from(apiUsers)
    .innerJoin(apiRoles, eq(apiRoles.id, apiUsers.roleId))
    .leftJoin(subjectValidAfter, eq(subjectValidAfter.subject, sql`'api_user_' || ${apiUsers.id}`))
    .where(eq(apiUsers.id, id));
  return u;
}

/** Stores the fresh hash of a legacy (imported) or weaker credential; a failure only leaves the old one in place. */
async function storeRehash(ctx: Ctx, write: () => Promise<unknown>, subject: string): Promise<void> {
  try {
    await write();
  } catch (err) {
    ctx.log.warn({ err, subject }, 'could not store the upgraded credential hash');
  }
}

async function authenticateApiUser(ctx: Ctx, username: string, apiKey: string): Promise<ApiPrincipal | undefined> {
  const [u] = await ctx.db
    .select({
      id: apiUsers.id,
      username: apiUsers.username,
      hash: apiUsers.apiKeyHash,
      isActive: apiUsers.isActive,
      permissions: apiRoles.permissions,
      allowed: apiUsers.allowedStoreIds,
    })
    .from(apiUsers)
    .innerJoin(apiRoles, eq(apiRoles.id, apiUsers.roleId))
    .where(eq(apiUsers.username, username));
  const { ok, rehash } = await verifySecretAndUpgrade(apiKey, u?.hash, ctx.log);
  if (!u || !ok || !u.isActive) return undefined;
  if (rehash) {
    // guarded by the old value: of two concurrent logins, the first write wins and the second changes nothing
    await storeRehash(
      ctx,
      () =>
        ctx.db
          .update(apiUsers)
          .set({ apiKeyHash: rehash })
          .where(and(eq(apiUsers.id, u.id), eq(apiUsers.apiKeyHash, u.hash))),
      `api_user_${u.id}`,
    );
  }
  return { principal: 'api_user', id: u.id, username: u.username, permissions: u.permissions, allowedStoreIds: u.allowed };
}

async function authenticateClient(ctx: Ctx, clientId: string, secret: string): Promise<ApiPrincipal | undefined> {
  const [c] = await ctx.db
    .select({
      id: oauthClients.id,
      clientId: oauthClients.clientId,
      hash: oauthClients.secretHash,
      isActive: oauthClients.isActive,
      permissions: apiRoles.permissions,
      allowed: oauthClients.allowedStoreIds,
    })
    .from(oauthClients)
    .innerJoin(apiRoles, eq(apiRoles.id, oauthClients.roleId))
    .where(eq(oauthClients.clientId, clientId));
  const { ok, rehash } = await verifySecretAndUpgrade(secret, c?.hash, ctx.log);
  if (!c || !ok || !c.isActive) return undefined;
  if (rehash) {
    await storeRehash(
      ctx,
      () =>
        ctx.db
          .update(oauthClients)
          .set({ secretHash: rehash })
          .where(and(eq(oauthClients.id, c.id), eq(oauthClients.secretHash, c.hash))),
      `oauth_client_${c.id}`,
    );
  }
  return { principal: 'oauth_client', id: c.id, username: c.clientId, permissions: c.permissions, allowedStoreIds: c.allowed };
}

/** Revokes a token until its expiry; false when it already was (another request got there first). */
async function revoke(ctx: Ctx, jti: string, exp: number): Promise<boolean> {
  const res = await ctx.db
    .insert(revokedTokens)
    .values({ jti, expiresAt: new Date(exp * 1000) })
    .onConflictDoNothing()
    .returning({ jti: revokedTokens.jti });
  return res.length > 0;
}

/**
 * A new token for the same principal and session (its login time carried over); the presented one is revoked.
 * A token is exchanged once: of two concurrent refreshes with the same token one gets the new token, the other
 * 401. A session older than the absolute lifetime is not refreshed (401).
 */
export async function refreshToken(ctx: Ctx): Promise<TokenResponse> {
  const a = ctx.actor;
  if (a.kind === 'anonymous') throw authError('Authentication required');
  const authTime = a.authTime;
  session(ctx, authTime);
  if (a.kind === 'customer') {
    const c = await getCustomerIdentity(ctx, a.customerId);
    if (!c) throw authError('Account is inactive');
    if (!(await revoke(ctx, a.jti, a.exp))) throw authError('Token has been revoked');
    return issueForCustomer(ctx, c, authTime);
  }
  if (!(await revoke(ctx, a.jti, a.exp))) throw authError('Token has been revoked');
  if (a.principal === 'admin_user') return issueForStaff(ctx, a.id, authTime);
  const principal = {
    principal: a.principal,
    id: a.id,
    username: a.username,
    permissions: a.permissions,
    allowedStoreIds: a.allowedStoreIds ?? null,
  };
  return issueForPrincipal(ctx, principal, authTime);
}

export async function logout(ctx: Ctx): Promise<{ success: boolean; message: string }> {
  const a = ctx.actor;
  if (a.kind === 'anonymous') throw authError('Authentication required');
  await revoke(ctx, a.jti, a.exp);
  return { success: true, message: 'Successfully logged out' };
}

/**
 * Ends every token and back-office session of the signed-in staff user, in every process: the tokens issued
 * before now are stale, the sessions are deleted, and the token of this request is revoked with them.
 */
export async function signOutEverywhere(ctx: Ctx): Promise<{ success: boolean; message: string }> {
  const id = selfStaffId(ctx);
  const a = ctx.actor;
  await withTx(ctx, async (tx) => {
    await endStaffSessions(tx.db, id, ctx.now);
    if (a.kind === 'admin') await revoke(tx, a.jti, a.exp);
  });
  return { success: true, message: 'Every session of the account has ended' };
}

interface PrincipalRow extends Record<string, unknown> {
  revoked: boolean;
  blocked: boolean;
  /** issued before the subject's credentials last changed */
  stale: boolean;
  username?: string | null;
  is_active?: boolean | null;
  permissions?: string[] | null;
  allowed_store_ids?: number[] | null;
}

/**
 * A token issued (`iat`, whole seconds) in a second before the subject's credentials changed is stale. The
 * change's time is kept exact; a token of the change's own second stays valid, so that one taken right after
 * the change (in the same second) works.
 */
const stale = () =>
  sql`EXISTS (SELECT 1 FROM auth_subject_valid_after WHERE subject = ${sql.placeholder('sub')}
                AND valid_after >= to_timestamp(${sql.placeholder('iat')}::float8 + 1))`;

/**
 * Checks, on every authenticated request and in one query, that the token is not revoked nor older than its
 * subject's last credential change, and that its subject is still allowed; API principals' permissions and
 * store scope are read afresh from the database. Every authenticated request runs one of these, so they are
 * prepared statements.
 */
const customerTokenState = statement<PrincipalRow>(
  'auth_customer_token_state',
  () => sql`SELECT EXISTS (SELECT 1 FROM revoked_tokens WHERE jti = ${sql.placeholder('jti')}) AS revoked,
                   EXISTS (SELECT 1 FROM auth_blocked_subjects WHERE subject = ${sql.placeholder('sub')}) AS blocked,
                   ${stale()} AS stale`,
  { memo: true },
);

const adminTokenState = (name: string, table: SQL, nameCol: SQL) =>
  statement<PrincipalRow>(
    name,
    () => sql`SELECT EXISTS (SELECT 1 FROM revoked_tokens WHERE jti = ${sql.placeholder('jti')}) AS revoked, false AS blocked,
                     ${stale()} AS stale, ${nameCol} AS username, p.is_active, r.permissions, p.allowed_store_ids
                FROM ${table} p JOIN api_roles r ON r.id = p.role_id WHERE p.id = ${sql.placeholder('id')}`,
    { memo: true },
  );
const apiUserTokenState = adminTokenState('auth_api_user_token_state', sql`api_users`, sql`p.username`);
const oauthClientTokenState = adminTokenState('auth_oauth_client_token_state', sql`oauth_clients`, sql`p.client_id`);
const staffTokenState = statement<PrincipalRow>(
  'auth_admin_user_token_state',
  () => sql`SELECT EXISTS (SELECT 1 FROM revoked_tokens WHERE jti = ${sql.placeholder('jti')}) AS revoked, false AS blocked,
                   ${stale()} AS stale, p.username, p.is_active, r.permissions, p.allowed_store_ids
              FROM admin_users p JOIN admin_roles r ON r.id = p.role_id WHERE p.id = ${sql.placeholder('id')}`,
  { memo: true },
);
const tokenState = { api_user: apiUserTokenState, oauth_client: oauthClientTokenState, admin_user: staffTokenState };

export async function resolvePrincipal(db: Db, claims: TokenClaims): Promise<Actor> {
  const m = /^(customer|api_user|oauth_client|admin_user)_(\d+)$/.exec(claims.sub);
  if (!m) throw authError('Invalid or expired token');
  const kind = m[1];
  const id = Number(m[2]);
  if (kind === 'customer') {
    if (claims.type !== 'customer') throw authError('Invalid or expired token');
    const [r] = await customerTokenState.run(db, { jti: claims.jti, sub: claims.sub, iat: claims.iat });
    if (r.revoked) throw authError('Token has been revoked');
    if (r.blocked) throw authError('Account is inactive');
    if (r.stale) throw authError('Token has been revoked: the credentials have changed');
    return {
      kind: 'customer',
      customerId: id,
      email: String(claims.email ?? ''),
      jti: claims.jti,
      exp: claims.exp,
      authTime: authTimeOf(claims),
    };
  }
  if (claims.type !== 'api_user') throw authError('Invalid or expired token');
  const principal = kind as keyof typeof tokenState;
  const [r] = await tokenState[principal].run(db, {
    jti: claims.jti,
    sub: claims.sub,
    iat: claims.iat,
    id,
  });
  if (!r) throw authError('Invalid or expired token');
  if (r.revoked) throw authError('Token has been revoked');
  if (!r.is_active) throw authError('Account is inactive');
  if (r.stale) throw authError('Token has been revoked: the credentials have changed');
  return {
    kind: 'admin',
    principal,
    id,
    username: String(r.username),
    permissions: r.permissions ?? [],
    allowedStoreIds: r.allowed_store_ids ?? undefined,
    jti: claims.jti,
    exp: claims.exp,
    authTime: authTimeOf(claims),
  };
}

/** The session's login time; a token issued before login times were carried began its session when issued. */
function authTimeOf(claims: TokenClaims): number {
  return typeof claims.auth_time === 'number' && Number.isSafeInteger(claims.auth_time) && claims.auth_time <= claims.iat
    ? claims.auth_time
    : claims.iat;
}

export async function purgeExpiredRevocations(db: Db): Promise<void> {
  await db.delete(revokedTokens).where(lt(revokedTokens.expiresAt, new Date()));
}

// roles, API users and OAuth clients (CLI, demo seed, tests) live in accounts.ts
export * from './accounts.js';
