/**
 * A staff user's own TOTP second factor: a setup hands out a new secret (kept pending, sealed, until a first
 * code proves the authenticator has it), enabling it answers ten recovery codes once (stored as sha-256), and
 * disabling it takes the current password or a code.
 */
import crypto from 'node:crypto';
import { and, eq } from 'drizzle-orm';
import { newTotpSecret, openTotpSecret, sealTotpSecret, totpUri, verifyTotp } from '../../platform/auth/totp.js';
import { withTx, type Ctx } from '../../platform/context.js';
import { badRequest, conflict } from '../../platform/errors.js';
import { adminRecoveryCodes, adminUsers } from './tables.js';
import { assertCurrentPassword, selfStaffId } from './staff-service.js';
import { acceptSecondFactorCode, recoveryCodeHash } from './staff-signin.js';
import type { TwofaCode, TwofaDisable } from './staff-schemas.js';

const RECOVERY_CODES = 10;
const ALPHABET = 'ABCDEFGHJKLMNPQRSTUVWXYZ23456789';

/** `XXXXX-XXXXX` from an alphabet without look-alikes (about 50 bits). */
function recoveryCode(): string {
  const bytes = crypto.randomBytes(10);
  const chars = [...bytes].map((b) => ALPHABET[b % ALPHABET.length]);
  return `${chars.slice(0, 5).join('')}-${chars.slice(5).join('')}`;
}

const invalidCode = () => badRequest('The code is wrong or was already used', { reason: 'TWOFA_INVALID', details: { field: 'code' } });

async function me(ctx: Ctx) {
  const id = selfStaffId(ctx);
  const [u] = await ctx.db
    .select({
      id: adminUsers.id,
      username: adminUsers.username,
      twofaEnabled: adminUsers.twofaEnabled,
      twofaSecret: adminUsers.twofaSecret,
      twofaPendingSecret: adminUsers.twofaPendingSecret,
      twofaLastStep: adminUsers.twofaLastStep,
    })
    .from(adminUsers)
    .where(eq(adminUsers.id, id));
  if (!u) throw badRequest('Account not found');
  return u;
}

function issuer(ctx: Ctx): string {
  const s = ctx.app.settings;
  const name = s.get('general/store_information/name', ctx.store.storeId) || s.store(ctx.store.storeId)?.name;
  return name ? `${name} admin` : 'Admin';
}

/** POST /admin-users/me/twofa/setup: a new secret, pending until enabled with a code. */
export async function setupTwofa(ctx: Ctx): Promise<{ secret: string; uri: string }> {
  const u = await me(ctx);
  if (u.twofaEnabled)
    throw conflict('Two-factor sign-in is on already; turn it off first to use another authenticator', { reason: 'TWOFA_ENABLED' });
  const secret = newTotpSecret();
  await ctx.db
    .update(adminUsers)
    .set({ twofaPendingSecret: sealTotpSecret(ctx.app.config, secret), updatedAt: ctx.now })
    .where(eq(adminUsers.id, u.id));
  return { secret, uri: totpUri(secret, issuer(ctx), u.username) };
}

async function newRecoveryCodes(ctx: Ctx, userId: number): Promise<string[]> {
  const codes = Array.from({ length: RECOVERY_CODES }, recoveryCode);
  await ctx.db.delete(adminRecoveryCodes).where(eq(adminRecoveryCodes.userId, userId));
  await ctx.db.insert(adminRecoveryCodes).values(codes.map((c) => ({ userId, codeHash: recoveryCodeHash(c), createdAt: ctx.now })));
  return codes;
}

/** POST /admin-users/me/twofa/enable: the pending secret becomes the user's with a current code from it. */
export async function enableTwofa(ctx: Ctx, body: TwofaCode): Promise<{ recoveryCodes: string[] }> {
  const u = await me(ctx);
  if (u.twofaEnabled) throw conflict('Two-factor sign-in is on already', { reason: 'TWOFA_ENABLED' });
  if (!u.twofaPendingSecret)
    throw conflict('Set up an authenticator first (POST /admin-users/me/twofa/setup)', { reason: 'TWOFA_NOT_SET_UP' });
  const step = verifyTotp(openTotpSecret(ctx.app.config, u.twofaPendingSecret), body.code.trim(), ctx.now);
  if (step === undefined) throw invalidCode();
  return withTx(ctx, async (tx) => {
    const res = await tx.db
      .update(adminUsers)
      .set({ twofaSecret: u.twofaPendingSecret, twofaPendingSecret: null, twofaEnabled: true, twofaLastStep: step, updatedAt: ctx.now })
      .where(and(eq(adminUsers.id, u.id), eq(adminUsers.twofaEnabled, false), eq(adminUsers.twofaPendingSecret, u.twofaPendingSecret!)))
      .returning({ id: adminUsers.id });
    if (!res.length) throw conflict('Two-factor sign-in changed meanwhile; try again', { reason: 'TWOFA_CHANGED' });
    return { recoveryCodes: await newRecoveryCodes(tx, u.id) };
  });
}

/** POST /admin-users/me/twofa/disable: with the current password, or a current code (or a recovery code). */
export async function disableTwofa(ctx: Ctx, body: TwofaDisable): Promise<{ twofaEnabled: boolean }> {
  const u = await me(ctx);
  if (!body.currentPassword && !body.code) {
    throw badRequest('The current password or a code is required', {
      reason: 'CONFIRMATION_REQUIRED',
      details: { field: 'currentPassword' },
    });
  }
  if (body.currentPassword) await assertCurrentPassword(ctx, u.id, body.currentPassword);
  else if (!u.twofaEnabled || !(await acceptSecondFactorCode(ctx, u, body.code!))) throw invalidCode();
  await withTx(ctx, async (tx) => {
    await tx.db
      .update(adminUsers)
      .set({ twofaEnabled: false, twofaSecret: null, twofaPendingSecret: null, twofaLastStep: null, updatedAt: ctx.now })
      .where(eq(adminUsers.id, u.id));
    await tx.db.delete(adminRecoveryCodes).where(eq(adminRecoveryCodes.userId, u.id));
  });
  return { twofaEnabled: false };
}

/** POST /admin-users/me/twofa/recovery-codes: a new set; the old codes stop working. */
export async function regenerateRecoveryCodes(ctx: Ctx): Promise<{ recoveryCodes: string[] }> {
  const u = await me(ctx);
  if (!u.twofaEnabled) throw conflict('Two-factor sign-in is off', { reason: 'TWOFA_DISABLED' });
  return withTx(ctx, async (tx) => ({ recoveryCodes: await newRecoveryCodes(tx, u.id) }));
}
