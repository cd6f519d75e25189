/**
 * Passwords: change (signed in), forgot (a single-use reset link by mail) and reset with the mailed token.
 * Reset tokens are random and stored only as their SHA-256; the mail is queued in the transaction that
 * stores the token, so that there is never a mail without a token or a token without its mail. A changed or
 * reset password ends every token of the customer issued before it (a new login gets a new one).
 */
import { and, eq, gt, inArray, isNull } from 'drizzle-orm';
import { hashSecret, randomToken, sha256Hex, verifySecret } from '../../platform/auth/secrets.js';
import { withTx, type Ctx } from '../../platform/context.js';
import { badRequest, conflict, notFound } from '../../platform/errors.js';
import { queueMail } from '../../platform/outbox.js';
import { configuredRule } from '../../platform/rate-limit.js';
import { declareConfig } from '../../platform/settings.js';
import { credentialsChanged } from '../../platform/auth/subjects.js';
import { checkPassword, normEmail, requireFields } from './fields.js';
import type { ForgotPasswordBody, PasswordChangeBody, ResetPasswordBody, SuccessReplyDto } from './schemas.js';
import { assertCustomerInScope, selfId } from './service.js';
import { customers, passwordResets } from './tables.js';

declareConfig({
  'customer/password/reset_link_expiration_period_hours': {
    type: 'integer',
    default: 1,
    label: 'Recovery Link Expiration Period (hours)',
    min: 1,
    max: 720,
  },
  'api/rate_limit/forgot_password': {
    type: 'integer',
    default: 5,
    label: 'Password Reset Requests',
    comment: 'per IP and per email, per hour; 0: no limit',
    min: 0,
    scopes: ['default'],
  },
  'api/rate_limit/reset_password': {
    type: 'integer',
    default: 10,
    label: 'Password Resets',
    comment: 'per IP, per hour; 0: no limit',
    min: 0,
    scopes: ['default'],
  },
  'api/rate_limit/change_password': {
    type: 'integer',
    default: 10,
    label: 'Password Changes',
    comment: 'per IP and per customer, per hour; 0: no limit',
    min: 0,
    scopes: ['default'],
  },
});

const HOUR = 3600;

function rule(ctx: Ctx, name: string) {
  return configuredRule(ctx.app.settings, name, HOUR, ctx.store.storeId);
}

/** POST /customers/me/password. */
export async function changePassword(ctx: Ctx, body: PasswordChangeBody): Promise<SuccessReplyDto> {
  const id = selfId(ctx);
  const limit = rule(ctx, 'change_password');
  await ctx.app.limiter.consume(limit, `ip:${ctx.ip}`);
  await ctx.app.limiter.consume(limit, `customer:${id}`);
  requireFields(body, ['currentPassword', 'newPassword']);
  const [c] = await ctx.db.select({ hash: customers.passwordHash }).from(customers).where(eq(customers.id, id));
  if (!c) throw notFound('Customer not found');
  // wrong guesses here are held by the change_password limit above (per customer and per IP, an hour)
  if (!(await verifySecret(String(body.currentPassword), c.hash, ctx.log))) {
    throw badRequest('The current password is incorrect', { reason: 'INVALID_CURRENT_PASSWORD', details: { field: 'currentPassword' } });
  }
  checkPassword(ctx, String(body.newPassword), 'newPassword');
  const passwordHash = await hashSecret(String(body.newPassword));
  await withTx(ctx, async (tx) => {
    await tx.db.update(customers).set({ passwordHash, updatedAt: ctx.now }).where(eq(customers.id, id));
    await credentialsChanged(tx.db, `customer_${id}`, ctx.now);
  });
  return { success: true, message: 'Your password has been changed' };
}

function storeName(ctx: Ctx, storeId: number): string {
  const s = ctx.app.settings;
  return s.get('general/store_information/name', storeId) || s.store(storeId)?.name || 'our store';
}

/** Stores a new reset token of the customer and queues the mail with its link to the store view's reset page. */
async function mailResetLink(
  ctx: Ctx,
  c: { id: number; email: string; firstname: string; lastname: string },
  storeId: number,
  opening: string,
): Promise<void> {
  const token = randomToken();
  const hours = Math.max(1, ctx.app.settings.getInt('customer/password/reset_link_expiration_period_hours', storeId));
  const link = `${ctx.app.settings.baseUrl(storeId)}customer/account/resetpassword?token=${token}&email=${encodeURIComponent(c.email)}`;
  await withTx(ctx, async (tx) => {
    await tx.db.insert(passwordResets).values({
      tokenHash: sha256Hex(token),
      customerId: c.id,
      expiresAt: new Date(ctx.now.getTime() + hours * HOUR * 1000),
      createdAt: ctx.now,
    });
    await queueMail(tx, {
      to: c.email,
      subject: `Reset your ${storeName(ctx, storeId)} password`,
      template: 'customer/password_reset',
      storeId,
      text: [
        `Hello ${c.firstname} ${c.lastname},`,
        '',
        `${opening} To choose a new password, open this link:`,
        '',
        link,
        '',
        `The link works once and expires in ${hours} hour${hours === 1 ? '' : 's'}. If you did not ask for this, ignore this mail; your password stays as it is.`,
      ].join('\n'),
    });
  });
}

/**
 * POST /customers/forgot-password. The reply is the same whether or not an account exists; when an active
 * one does, a reset token is stored and the link mailed.
 */
export async function forgotPassword(ctx: Ctx, body: ForgotPasswordBody): Promise<{ email: string }> {
  const limit = rule(ctx, 'forgot_password');
  await ctx.app.limiter.consume(limit, `ip:${ctx.ip}`);
  requireFields(body, ['email']);
  const email = normEmail(String(body.email));
  await ctx.app.limiter.consume(limit, `email:${ctx.store.websiteId}:${email}`);
  const [c] = await ctx.db
    .select({ id: customers.id, firstname: customers.firstname, lastname: customers.lastname, isActive: customers.isActive })
    .from(customers)
    .where(and(eq(customers.websiteId, ctx.store.websiteId), eq(customers.email, email)));
  if (c?.isActive) {
    const opening = `Someone asked to reset the password of your account at ${storeName(ctx, ctx.store.storeId)}.`;
    await mailResetLink(ctx, { ...c, email }, ctx.store.storeId, opening);
  }
  return { email };
}

/**
 * POST /customers/{id}/password-reset (the back office): mails the customer a reset link to the store view the
 * account was created in (else its website's default), as the forgot-password form would. An inactive account
 * cannot sign in, so it gets no link (409).
 */
export async function sendPasswordReset(ctx: Ctx, id: number): Promise<SuccessReplyDto> {
  await assertCustomerInScope(ctx, id);
  const [c] = await ctx.db
    .select({
      id: customers.id,
      email: customers.email,
      firstname: customers.firstname,
      lastname: customers.lastname,
      isActive: customers.isActive,
      storeId: customers.storeId,
      websiteId: customers.websiteId,
    })
    .from(customers)
    .where(eq(customers.id, id));
  if (!c) throw notFound('Customer not found');
  if (!c.isActive) throw conflict('The account is inactive: activate it before sending a reset link', { reason: 'CUSTOMER_INACTIVE' });
  const storeId = accountStore(ctx, c.storeId, c.websiteId);
  const opening = `The team of ${storeName(ctx, storeId)} sends you a link to choose a new password for your account.`;
  await mailResetLink(ctx, c, storeId, opening);
  return { success: true, message: `A password reset link was sent to ${c.email}` };
}

/** The store view of an account's mails: the one it was created in while it exists, else its website's default. */
function accountStore(ctx: Ctx, storeId: number | null, websiteId: number): number {
  const r = ctx.app.settings;
  if (storeId !== null && r.store(storeId)) return storeId;
  const website = r.website(websiteId);
  const group = website?.defaultGroupId ? r.group(website.defaultGroupId) : undefined;
  return group?.defaultStoreId ?? ctx.store.storeId;
}

const invalidToken = () =>
  badRequest('The password reset link is invalid or has expired', { reason: 'INVALID_RESET_TOKEN', details: { field: 'resetToken' } });

/**
 * POST /customers/reset-password. The token is spent by one atomic UPDATE, so that of two requests racing
 * with it only one succeeds; the customer's other reset tokens are spent with it.
 */
export async function resetPassword(ctx: Ctx, body: ResetPasswordBody): Promise<SuccessReplyDto> {
  await ctx.app.limiter.consume(rule(ctx, 'reset_password'), `ip:${ctx.ip}`);
  const input = { ...body, resetToken: body.resetToken ?? body.token };
  requireFields(input, ['email', 'resetToken', 'newPassword']);
  const email = normEmail(String(input.email));
  const newPassword = String(input.newPassword);
  checkPassword(ctx, newPassword, 'newPassword');
  const tokenHash = sha256Hex(String(input.resetToken).trim());
  const passwordHash = await hashSecret(newPassword);
  await withTx(ctx, async (tx) => {
    const owner = tx.db
      .select({ id: customers.id })
      .from(customers)
      .where(and(eq(customers.websiteId, ctx.store.websiteId), eq(customers.email, email)));
    const spent = await tx.db
      .update(passwordResets)
      .set({ usedAt: ctx.now })
      .where(
        and(
          eq(passwordResets.tokenHash, tokenHash),
          isNull(passwordResets.usedAt),
          gt(passwordResets.expiresAt, ctx.now),
          inArray(passwordResets.customerId, owner),
        ),
      )
      .returning({ customerId: passwordResets.customerId });
    if (!spent.length) throw invalidToken();
    const customerId = spent[0].customerId;
    await tx.db.update(customers).set({ passwordHash, updatedAt: ctx.now }).where(eq(customers.id, customerId));
    await credentialsChanged(tx.db, `customer_${customerId}`, ctx.now);
    await tx.db
      .update(passwordResets)
      .set({ usedAt: ctx.now })
      .where(and(eq(passwordResets.customerId, customerId), isNull(passwordResets.usedAt)));
  });
  return { success: true, message: 'Your password has been reset' };
}
