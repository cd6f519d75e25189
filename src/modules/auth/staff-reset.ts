/**
 * Staff password reset by mail: a one-time link (a random token, stored as its sha-256 with an expiry) to the
 * back office's reset page. Asking for one answers the same whether or not the user exists; setting the new
 * password spends the token (a second use is refused), unlocks the account and ends every session of the user.
 * The mail is queued in the transaction that stores the token.
 */
import { and, eq, gt } from 'drizzle-orm';
import { hashSecret, randomToken, sha256Hex } from '../../platform/auth/secrets.js';
import { assertGlobalWriter, withTx, type Ctx } from '../../platform/context.js';
import { badRequest, conflict, notFound } from '../../platform/errors.js';
import { queueMail } from '../../platform/outbox.js';
import { configuredRule } from '../../platform/rate-limit.js';
import { declareConfig } from '../../platform/settings.js';
import { adminUsers } from './tables.js';
import { checkStaffPassword, endStaffSessions } from './staff-service.js';
import type { PasswordResetConfirm, PasswordResetRequest, StaffReplyDto } from './staff-schemas.js';

declareConfig({
  'admin/emails/password_reset_link_expiration_period': {
    type: 'integer',
    default: 2,
    label: 'Recovery Link Expiration Period (hours)',
    min: 1,
    max: 168,
    scopes: ['default'],
  },
  'api/rate_limit/admin_forgot_password': {
    type: 'integer',
    default: 5,
    label: 'Staff Password Reset Requests',
    comment: 'per client address and per account, per hour',
    min: 1,
    scopes: ['default'],
  },
  'api/rate_limit/admin_reset_password': {
    type: 'integer',
    default: 10,
    label: 'Staff Password Resets',
    comment: 'per client address, per hour',
    min: 1,
    scopes: ['default'],
  },
});

const HOUR = 3600;
const SENT: StaffReplyDto = { success: true, message: 'If the account exists, a password reset link is on its way to its email address' };

/** The back office's address: the public URL and the path it is served under (ADMIN_PATH, `/admin` by default). */
function backOfficeUrl(ctx: Ctx): string {
  const base = (ctx.app.config.publicUrl ?? ctx.app.settings.baseUrl()).replace(/\/+$/, '');
  return `${base}${ctx.app.config.adminPath}`;
}

async function mailResetLink(ctx: Ctx, u: { id: number; email: string; firstName: string; lastName: string; username: string }) {
  const token = randomToken();
  const hours = Math.max(1, ctx.app.settings.getInt('admin/emails/password_reset_link_expiration_period'));
  const link = `${backOfficeUrl(ctx)}/reset-password?token=${token}`;
  await withTx(ctx, async (tx) => {
    await tx.db
      .update(adminUsers)
      .set({ resetTokenHash: sha256Hex(token), resetTokenExpiresAt: new Date(ctx.now.getTime() + hours * HOUR * 1000) })
      .where(eq(adminUsers.id, u.id));
    await queueMail(tx, {
      to: u.email,
      subject: 'Reset your back-office password',
      template: 'admin/password_reset',
      text: [
        `Hello ${`${u.firstName} ${u.lastName}`.trim() || u.username},`,
        '',
        `Someone asked to reset the password of the back-office account ${u.username}. To choose a new password, open this link:`,
        '',
        link,
        '',
        `The link works once and expires in ${hours} hour${hours === 1 ? '' : 's'}. If you did not ask for this, ignore this mail; your password stays as it is.`,
      ].join('\n'),
    });
  });
}

const userFields = {
  id: adminUsers.id,
  email: adminUsers.email,
  firstName: adminUsers.firstName,
  lastName: adminUsers.lastName,
  username: adminUsers.username,
  isActive: adminUsers.isActive,
};

/** POST /admin-users/password-reset (public): the same answer whether or not the account exists. */
export async function requestPasswordReset(ctx: Ctx, body: PasswordResetRequest): Promise<StaffReplyDto> {
  const username = body.username?.trim();
  const email = body.email?.trim().toLowerCase();
  if (!username && !email) throw badRequest('A user name or an email is required', { details: { field: 'username' } });
  const limit = configuredRule(ctx.app.settings, 'admin_forgot_password', HOUR);
  await ctx.app.limiter.consume(limit, `ip:${ctx.ip}`);
  await ctx.app.limiter.consume(limit, `admin:${(username ?? email)!.toLowerCase()}`);
  const [u] = await ctx.db
    .select(userFields)
    .from(adminUsers)
    .where(username ? eq(adminUsers.username, username) : eq(adminUsers.email, email!));
  if (u?.isActive) await mailResetLink(ctx, u);
  return SENT;
}

/** POST /admin-users/{id}/password-reset: an admin sends a user the reset link. */
export async function sendPasswordReset(ctx: Ctx, id: number): Promise<StaffReplyDto> {
  assertGlobalWriter(ctx, 'staff accounts');
  const [u] = await ctx.db.select(userFields).from(adminUsers).where(eq(adminUsers.id, id));
  if (!u) throw notFound('Admin user not found');
  if (!u.isActive) throw conflict('The account is inactive; activate it first', { reason: 'USER_INACTIVE' });
  await mailResetLink(ctx, u);
  return { success: true, message: 'A password reset link was sent to the user' };
}

/** POST /admin-users/password-reset/confirm (public): spends the token once, in one statement. */
export async function confirmPasswordReset(ctx: Ctx, body: PasswordResetConfirm): Promise<StaffReplyDto> {
  await ctx.app.limiter.consume(configuredRule(ctx.app.settings, 'admin_reset_password', HOUR), `ip:${ctx.ip}`);
  checkStaffPassword(ctx, body.password);
  const passwordHash = await hashSecret(body.password);
  const tokenHash = sha256Hex(body.token.trim());
  await withTx(ctx, async (tx) => {
    const res = await tx.db
      .update(adminUsers)
      .set({ passwordHash, resetTokenHash: null, resetTokenExpiresAt: null, failedLogins: 0, lockedUntil: null, updatedAt: ctx.now })
      .where(and(eq(adminUsers.resetTokenHash, tokenHash), gt(adminUsers.resetTokenExpiresAt, ctx.now), eq(adminUsers.isActive, true)))
      .returning({ id: adminUsers.id });
    if (!res.length) {
      throw badRequest('The password reset link is invalid or has expired', { reason: 'INVALID_RESET_TOKEN', details: { field: 'token' } });
    }
    await endStaffSessions(tx.db, res[0].id, ctx.now);
  });
  return { success: true, message: 'The password has been reset; sign in with the new one' };
}
