/**
 * Web back-office sessions: after a staff sign-in that asks for one, a refresh token lives in an HttpOnly,
 * Secure, SameSite=Strict cookie limited to /api/rest/v2/auth/admin, and the page keeps the CSRF token the
 * sign-in answered. A refresh needs both (the cookie alone, which a browser sends by itself, is not enough) and
 * rotates the refresh token: of two refreshes with the same token one wins. Both tokens are stored as sha-256
 * only. A session ends with its absolute lifetime (from the sign-in), at sign-out, and with every credential
 * change of its user (its rows are deleted).
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import { and, eq, gt, lt } from 'drizzle-orm';
import { randomToken, safeEqual, sha256Hex } from '../../platform/auth/secrets.js';
import type { Ctx } from '../../platform/context.js';
import { AppError } from '../../platform/errors.js';
import { adminSessions } from './tables.js';

export const SESSION_COOKIE = 'admin_session';
export const SESSION_PATH = '/api/rest/v2/auth/admin';

const noSession = () =>
  new AppError('unauthorized', 'No valid back-office session; sign in again', { error: 'invalid_session', reason: 'INVALID_SESSION' });
const badCsrf = () =>
  new AppError('forbidden', 'The X-CSRF-Token header is missing or does not match the session', { reason: 'CSRF_MISMATCH' });

/** The refresh token the request's cookie carries, if any. */
export function sessionCookie(req: FastifyRequest): string | undefined {
  for (const part of (req.headers.cookie ?? '').split(';')) {
    const i = part.indexOf('=');
    if (i > 0 && part.slice(0, i).trim() === SESSION_COOKIE) {
      const v = part.slice(i + 1).trim();
      return /^[a-f0-9]{64}$/.test(v) ? v : undefined;
    }
  }
  return undefined;
}

export function setSessionCookie(reply: FastifyReply, token: string, maxAgeSeconds: number): void {
  reply.header(
    'set-cookie',
    `${SESSION_COOKIE}=${token}; Path=${SESSION_PATH}; Max-Age=${Math.max(0, maxAgeSeconds)}; HttpOnly; Secure; SameSite=Strict`,
  );
  reply.header('cache-control', 'no-store');
}

export function clearSessionCookie(reply: FastifyReply): void {
  reply.header('set-cookie', `${SESSION_COOKIE}=; Path=${SESSION_PATH}; Max-Age=0; HttpOnly; Secure; SameSite=Strict`);
  reply.header('cache-control', 'no-store');
}

/** Opens a session for a signed-in staff user: the refresh token (for the cookie) and the CSRF token (for the page). */
export async function openStaffSession(
  ctx: Ctx,
  userId: number,
  authTime: Date,
  userAgent: string | undefined,
): Promise<{ refreshToken: string; csrfToken: string; maxAgeSeconds: number }> {
  const refreshToken = randomToken(32);
  const csrfToken = randomToken(32);
  const maxAge = ctx.app.config.tokenSessionMaxAgeSeconds;
  const expiresAt = new Date(authTime.getTime() + maxAge * 1000);
  // ended sessions of anyone go with each new one
  await ctx.db.delete(adminSessions).where(lt(adminSessions.expiresAt, ctx.now));
  await ctx.db.insert(adminSessions).values({
    userId,
    tokenHash: sha256Hex(refreshToken),
    csrfHash: sha256Hex(csrfToken),
    userAgent: userAgent?.slice(0, 512),
    authTime,
    expiresAt,
    lastUsedAt: ctx.now,
    createdAt: ctx.now,
  });
  return { refreshToken, csrfToken, maxAgeSeconds: Math.floor((expiresAt.getTime() - ctx.now.getTime()) / 1000) };
}

/**
 * Checks the cookie's session (401 without a live one) and the CSRF header (403), and rotates the refresh token.
 * Answers the user, the session's sign-in time and the new refresh token.
 */
export async function rotateStaffSession(
  ctx: Ctx,
  refreshToken: string | undefined,
  csrfToken: string | undefined,
): Promise<{ userId: number; authTime: Date; refreshToken: string; maxAgeSeconds: number }> {
  if (!refreshToken) throw noSession();
  const oldHash = sha256Hex(refreshToken);
  const [s] = await ctx.db
    .select()
    .from(adminSessions)
    .where(and(eq(adminSessions.tokenHash, oldHash), gt(adminSessions.expiresAt, ctx.now)));
  if (!s) throw noSession();
  if (!csrfToken || !safeEqual(sha256Hex(csrfToken), s.csrfHash)) throw badCsrf();
  const next = randomToken(32);
  const res = await ctx.db
    .update(adminSessions)
    .set({ tokenHash: sha256Hex(next), lastUsedAt: ctx.now })
    .where(and(eq(adminSessions.id, s.id), eq(adminSessions.tokenHash, oldHash)))
    .returning({ id: adminSessions.id });
  if (!res.length) throw noSession();
  return {
    userId: s.userId,
    authTime: s.authTime,
    refreshToken: next,
    maxAgeSeconds: Math.floor((s.expiresAt.getTime() - ctx.now.getTime()) / 1000),
  };
}

/**
 * Ends the cookie's session. Without a session there is nothing to end (the cookie is cleared all the same);
 * with one, the CSRF header must match (403), so that no other page can sign the user out.
 */
export async function closeStaffSession(ctx: Ctx, refreshToken: string | undefined, csrfToken: string | undefined): Promise<void> {
  if (!refreshToken) return;
  const [s] = await ctx.db
    .select()
    .from(adminSessions)
    .where(eq(adminSessions.tokenHash, sha256Hex(refreshToken)));
  if (!s) return;
  if (!csrfToken || !safeEqual(sha256Hex(csrfToken), s.csrfHash)) throw badCsrf();
  await ctx.db.delete(adminSessions).where(eq(adminSessions.id, s.id));
}
