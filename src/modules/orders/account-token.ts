/**
 * The accountToken of a guest order read (wire reference §2.6): base64(JSON {orderId, email, timestamp,
 * action: 'create_account'}) + "." + HMAC-SHA256 (hex) of the first part, keyed by the app's JWT secret,
 * valid for an hour. POST /customers/create-from-order turns it into an account.
 */
import crypto from 'node:crypto';
import type { Ctx } from '../../platform/context.js';
import { deriveKey } from '../../platform/keys.js';

/** Seconds an account token stays valid. */
export const ACCOUNT_TOKEN_TTL = 3600;
/** How far in the future a timestamp may lie (clocks of several processes differ a little). */
const CLOCK_SKEW = 60;

export interface AccountTokenClaims {
  orderId: number;
  email: string;
  /** seconds since the epoch */
  timestamp: number;
  action: 'create_account';
}

function mac(ctx: Ctx, payload: string): string {
  return crypto.createHmac('sha256', deriveKey(ctx.app.config.jwtSecret, 'order-account-token')).update(payload).digest('hex');
}

/** A token for creating an account from the order, signed now. */
export function signAccountToken(ctx: Ctx, order: { id: number; customerEmail: string }): string {
  const claims: AccountTokenClaims = {
    orderId: order.id,
    email: order.customerEmail,
    timestamp: Math.floor(ctx.now.getTime() / 1000),
    action: 'create_account',
  };
  const payload = Buffer.from(JSON.stringify(claims)).toString('base64');
  return `${payload}.${mac(ctx, payload)}`;
}

/** The token's claims when its signature holds, it is for creating an account and it is not expired; else undefined. */
export function verifyAccountToken(ctx: Ctx, token: string): AccountTokenClaims | undefined {
  const dot = token.lastIndexOf('.');
  if (dot < 1) return undefined;
  const payload = token.slice(0, dot);
  const sig = token.slice(dot + 1);
  if (!/^[0-9a-f]{64}$/.test(sig) || !/^[A-Za-z0-9+/]+={0,2}$/.test(payload)) return undefined;
  if (!crypto.timingSafeEqual(Buffer.from(sig, 'hex'), Buffer.from(mac(ctx, payload), 'hex'))) return undefined;
  let claims: Partial<AccountTokenClaims>;
  try {
    claims = JSON.parse(Buffer.from(payload, 'base64').toString('utf8')) as Partial<AccountTokenClaims>;
  } catch {
    return undefined;
  }
  if (!claims || typeof claims !== 'object' || claims.action !== 'create_account') return undefined;
  const { orderId, email, timestamp } = claims;
  if (!Number.isInteger(orderId) || orderId! < 1 || orderId! > 2147483647) return undefined;
  if (typeof email !== 'string' || !email || typeof timestamp !== 'number' || !Number.isFinite(timestamp)) return undefined;
  const now = ctx.now.getTime() / 1000;
  if (timestamp > now + CLOCK_SKEW || now - timestamp > ACCOUNT_TOKEN_TTL) return undefined;
  return { orderId: orderId!, email, timestamp, action: 'create_account' };
}
