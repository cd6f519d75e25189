/** The current password a signed-in customer confirms before the account's sign-in email changes. */
import { verifySecret } from '../../platform/auth/secrets.js';
import type { Ctx } from '../../platform/context.js';
import { badRequest } from '../../platform/errors.js';
import { guardAttempt } from '../../platform/auth/attempts.js';

const field = { details: { field: 'currentPassword' } };

/**
 * Confirms the customer's current password (`currentPassword`), as Magento's account page asks for it before
 * the email changes. A wrong one counts against the account's login limit, as a failed login does (the check
 * is a way to guess the password); missing or wrong is a 400.
 */
export async function confirmCurrentPassword(ctx: Ctx, account: { email: string; hash: string }, given: unknown): Promise<void> {
  if (typeof given !== 'string' || !given) {
    throw badRequest('The current password is required to change the email', { reason: 'CURRENT_PASSWORD_REQUIRED', ...field });
  }
  await guardAttempt(
    ctx,
    `customer:${account.email}`,
    async () => ((await verifySecret(given, account.hash, ctx.log)) ? true : undefined),
    () => badRequest('The current password is incorrect', { reason: 'INVALID_CURRENT_PASSWORD', ...field }),
  );
}
