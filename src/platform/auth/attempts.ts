/**
 * The login limit: failed credential checks counted per client IP and per account. Every credential check takes
 * part (the auth module's logins, the customers module's current password before a change), so it lives here,
 * below both.
 */
import type { Ctx } from '../context.js';
import { AppError } from '../errors.js';
import { configuredRule } from '../rate-limit.js';
import { declareConfig } from '../settings.js';

declareConfig({
  'api/rate_limit/auth_token_ip': {
    type: 'integer',
    default: 10,
    label: 'Failed Sign-ins per IP',
    comment: 'failed /auth/token attempts per client IP per minute; 0: no limit',
    min: 0,
    scopes: ['default'],
  },
  'api/rate_limit/customer_login': {
    type: 'integer',
    default: 5,
    label: 'Failed Sign-ins per Account',
    comment: 'failed /auth/token attempts per account (email, client_id, username) per minute; 0: no limit',
    min: 0,
    scopes: ['default'],
  },
});

/**
 * Runs a credential check under the login limit. Failed attempts are counted per client IP and per account;
 * once either count reaches its limit, every attempt in the window is refused with 429, right credentials
 * included. Each attempt takes its slot in both counts before the check runs and gives it back when the check
 * succeeds (or cannot be made), so that attempts sent at once cannot all pass a limit checked beforehand: an
 * attempt in flight holds its slot.
 */
export async function guardAttempt<T>(ctx: Ctx, account: string, attempt: () => Promise<T | undefined>, fail: () => AppError): Promise<T> {
  const { limiter, settings } = ctx.app;
  const ipRule = configuredRule(settings, 'auth_token_ip', 60, ctx.store.storeId);
  const accountRule = configuredRule(settings, 'customer_login', 60, ctx.store.storeId);
  const accountKey = account.toLowerCase();
  const limited = () => new AppError('too_many_requests', 'Too many requests. Please try again later.', { reason: 'RATE_LIMITED' });
  if (!(await limiter.take(ipRule, ctx.ip))) throw limited();
  if (!(await limiter.take(accountRule, accountKey))) {
    await limiter.release(ipRule, ctx.ip);
    throw limited();
  }
  const giveBack = () => Promise.all([limiter.release(ipRule, ctx.ip), limiter.release(accountRule, accountKey)]);
  let result: T | undefined;
  try {
    result = await attempt();
  } catch (err) {
    await giveBack();
    throw err;
  }
  if (result === undefined) throw fail();
  await giveBack();
  return result;
}
