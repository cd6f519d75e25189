/**
 * Legacy API sessions: `login` with an API user's name and key (the REST api_user credentials, checked and
 * rate-limited by the auth service), an opaque id of 32 hex characters, a sliding idle lifetime, and
 * `endSession`. Sessions live in the database, so any process serves them; every change is one statement. A new
 * API key ends the sessions opened before it. A session keeps data between calls (Magento's API session data,
 * such as the catalog's current store view): read with the session at `resume`, written by `keepInSession`.
 */
import crypto from 'node:crypto';
import { and, eq, gt, lte, sql } from 'drizzle-orm';
import type { Ctx } from '../../platform/context.js';
import { AppError } from '../../platform/errors.js';
import { declareConfig } from '../../platform/settings.js';
import { apiUserStanding, verifyApiUser } from '../auth/service.js';
import { configuredRule } from '../../platform/rate-limit.js';
import { clientFault, fault } from './faults.js';
import { CONFIG } from './names.js';
import { soapSessions } from './tables.js';

declareConfig({
  [CONFIG.sessionTimeout]: { type: 'integer', default: 3600, label: 'Client Session Timeout (sec.)', min: 60, scopes: ['default'] },
  [CONFIG.wsi]: { type: 'boolean', default: false, label: 'WS-I Compliance', scopes: ['default'] },
  'api/rate_limit/soap_calls': {
    type: 'integer',
    default: 600,
    label: 'SOAP Calls',
    comment: 'resource calls per API user a minute, each entry of a V1 multiCall counted; 0: no limit',
    min: 0,
    scopes: ['default'],
  },
});

/** Most calls one V1 multiCall may carry; a longer one is refused before any runs. */
export const MULTICALL_MAX = 100;

/**
 * Counts the request's `calls` resource calls (1, or each entry of a multiCall) against the session's API user's
 * api/rate_limit/soap_calls, all or none: when they do not all fit in the last minute's budget the whole request
 * is a client fault, nothing runs and nothing is counted, so the client may retry it (or a shorter multiCall) as
 * the window frees.
 */
async function countCalls(ctx: Ctx, calls: number): Promise<void> {
  if (ctx.actor.kind !== 'admin') return;
  const rule = configuredRule(ctx.app.settings, 'soap_calls', 60, ctx.store.storeId);
  if (await ctx.app.limiter.take(rule, `api_user:${ctx.actor.id}`, calls)) return;
  throw clientFault(
    calls > rule.limit
      ? `Too many requests: ${calls} calls in one request, at most ${rule.limit} a minute are allowed`
      : 'Too many requests. Please try again later.',
  );
}

const hashOf = (id: string) => crypto.createHash('sha256').update(id).digest('hex');

/** The session behind a resumed context: its row and the data it keeps, shared by every call of the request. */
interface SessionState {
  hash: string;
  data: Record<string, unknown>;
}

/** Where a resumed context carries its session; a symbol, so that contexts derived by spreading keep it. */
const SESSION = Symbol('legacy API session');
type SessionCtx = Ctx & { readonly [SESSION]?: SessionState };

/** What the session of `ctx` keeps under `key`; undefined when nothing is kept or `ctx` was not resumed from a session. */
export function keptInSession(ctx: Ctx, key: string): unknown {
  return (ctx as SessionCtx)[SESSION]?.data[key];
}

/**
 * Keeps `value` under `key` in the session of `ctx`, for the rest of this request (a multiCall's later calls) and
 * the session's next ones: one statement, merged into the row's data so that other keys written meanwhile stay.
 */
export async function keepInSession(ctx: Ctx, key: string, value: string | number | boolean | null): Promise<void> {
  const state = (ctx as SessionCtx)[SESSION];
  if (!state) throw new Error('keepInSession: the context has no legacy API session');
  await ctx.db
    .update(soapSessions)
    .set({ data: sql`${soapSessions.data} || jsonb_build_object(${key}::text, ${JSON.stringify(value)}::jsonb)` })
    .where(eq(soapSessions.idHash, state.hash));
  state.data[key] = value;
}

function timeoutMs(ctx: Ctx): number {
  return Math.max(1, ctx.app.settings.getInt(CONFIG.sessionTimeout, ctx.store.storeId) || 3600) * 1000;
}

/** Opens a session; purges the user's expired ones on the way. Faults: 6 without credentials, 2 when refused. */
export async function login(ctx: Ctx, username: unknown, apiKey: unknown): Promise<string> {
  if (typeof username !== 'string' || typeof apiKey !== 'string' || !username || !apiKey) throw fault('paramMissing');
  let userId: number;
  try {
    userId = (await verifyApiUser(ctx, username, apiKey)).id;
  } catch (err) {
    if (err instanceof AppError && err.kind === 'too_many_requests') throw fault('accessDenied', err.message);
    if (err instanceof AppError && err.status < 500) throw fault('accessDenied');
    throw err;
  }
  const cutoff = new Date(ctx.now.getTime() - timeoutMs(ctx));
  await ctx.db.delete(soapSessions).where(and(eq(soapSessions.apiUserId, userId), lte(soapSessions.lastUsedAt, cutoff)));
  const id = crypto.randomBytes(16).toString('hex');
  await ctx.db.insert(soapSessions).values({ idHash: hashOf(id), apiUserId: userId, createdAt: ctx.now, lastUsedAt: ctx.now });
  return id;
}

/**
 * The request's context acting as the session's API user, with permissions read afresh; the session's idle
 * clock restarts, and the `calls` the request makes are counted against the user's rate limit. Faults: 5 for
 * an unknown or expired session or one opened before the user's key last changed, 2 for a user since
 * deactivated or a store the user may not act in, a client fault past the rate limit.
 */
export async function resume(ctx: Ctx, sessionId: unknown, calls = 1): Promise<Ctx> {
  if (typeof sessionId !== 'string' || !/^[0-9a-f]{32}$/i.test(sessionId.trim())) throw fault('sessionExpired');
  const hash = hashOf(sessionId.trim().toLowerCase());
  const ms = timeoutMs(ctx);
  const [s] = await ctx.db
    .update(soapSessions)
    .set({ lastUsedAt: ctx.now })
    .where(and(eq(soapSessions.idHash, hash), gt(soapSessions.lastUsedAt, new Date(ctx.now.getTime() - ms))))
    .returning({ apiUserId: soapSessions.apiUserId, createdAt: soapSessions.createdAt, data: soapSessions.data });
  if (!s) throw fault('sessionExpired');
  const user = await apiUserStanding(ctx.db, s.apiUserId);
  if (user?.validAfter && s.createdAt < user.validAfter) {
    await endSession(ctx, sessionId);
    throw fault('sessionExpired');
  }
  if (!user || !user.isActive) throw fault('accessDenied');
  const allowed = user.allowedStoreIds ?? undefined;
  if (allowed && !allowed.includes(ctx.store.storeId)) throw fault('accessDenied');
  const session: SessionCtx = {
    ...ctx,
    [SESSION]: { hash, data: { ...s.data } },
    actor: {
      kind: 'admin',
      principal: 'api_user',
      id: user.id,
      username: user.username,
      permissions: user.permissions,
      allowedStoreIds: allowed,
      jti: `soap_${hash.slice(0, 32)}`,
      exp: Math.floor((ctx.now.getTime() + ms) / 1000),
    },
  };
  await countCalls(session, calls);
  return session;
}

/**
 * `startSession`: a new session id that is not signed in, as Magento answers it; calls with it fault 5 until
 * `login` (which opens a session of its own). Nothing is stored.
 */
export function startSession(): string {
  return crypto.randomBytes(16).toString('hex');
}

/** Closes a session; an unknown id is no error. */
export async function endSession(ctx: Ctx, sessionId: unknown): Promise<true> {
  if (typeof sessionId === 'string' && sessionId.trim()) {
    await ctx.db.delete(soapSessions).where(eq(soapSessions.idHash, hashOf(sessionId.trim().toLowerCase())));
  }
  return true;
}

/** Whether `/api/v2_soap/?wsdl` serves the WS-I document. */
export function wsiMode(ctx: Ctx): boolean {
  return ctx.app.settings.getBool(CONFIG.wsi, ctx.store.storeId);
}
