/**
 * The staff sign-in (`grant_type: admin_user`): user name and password, then the second factor when the user has
 * one (a TOTP code, accepted once; an unused recovery code, spent; or a passkey assertion). Failed attempts count
 * towards a lockout (`admin/security/lockout_failures` failures lock the account for
 * `admin/security/lockout_threshold` minutes, the right password included) on top of the login rate limits; a
 * good sign-in clears the count and records when it happened.
 */
import { and, eq, isNull, or, lt, sql } from 'drizzle-orm';
import { guardAttempt } from '../../platform/auth/attempts.js';
import { sha256Hex, verifySecretAndUpgrade } from '../../platform/auth/secrets.js';
import { openTotpSecret, verifyTotp } from '../../platform/auth/totp.js';
import type { Ctx } from '../../platform/context.js';
import { AppError } from '../../platform/errors.js';
import { wireDateTime } from '../../platform/format.js';
import { declareConfig } from '../../platform/settings.js';
import { verifyStaffPasskey } from './passkeys.js';
import { adminRecoveryCodes, adminRoles, adminUsers } from './tables.js';

declareConfig({
  'admin/security/lockout_failures': {
    type: 'integer',
    default: 6,
    label: 'Maximum Login Failures to Lock Account',
    comment: 'failed staff sign-ins in a row that lock the account; 0: never',
    min: 0,
    max: 100,
    scopes: ['default'],
  },
  'admin/security/lockout_threshold': {
    type: 'integer',
    default: 30,
    label: 'Lockout Time (minutes)',
    min: 1,
    max: 10_080,
    scopes: ['default'],
  },
});

export interface StaffProfile {
  id: number;
  username: string;
  email: string;
  firstName: string;
  lastName: string;
  locale: string;
  role: string;
}

export interface StaffPrincipal {
  principal: 'admin_user';
  id: number;
  username: string;
  permissions: string[];
  allowedStoreIds: number[] | null;
  profile: StaffProfile;
}

export interface StaffCredentials {
  username?: string;
  password?: string;
  twofaCode?: string;
  passkey?: unknown;
}

const invalidCredentials = () => new AppError('unauthorized', 'Invalid user name or password', { error: 'invalid_credentials' });
const twofaInvalid = () => new AppError('unauthorized', 'The second factor is wrong or was already used', { error: 'twofa_invalid' });
const accountLocked = (until: Date) =>
  new AppError('unauthorized', 'The account is locked after too many failed sign-ins; try again later or reset the password', {
    error: 'account_locked',
    details: { lockedUntil: wireDateTime(until) },
  });

const staffRow = (ctx: Ctx) =>
  ctx.db
    .select({
      id: adminUsers.id,
      username: adminUsers.username,
      email: adminUsers.email,
      firstName: adminUsers.firstName,
      lastName: adminUsers.lastName,
      locale: adminUsers.locale,
      role: adminRoles.name,
      hash: adminUsers.passwordHash,
      isActive: adminUsers.isActive,
      lockedUntil: adminUsers.lockedUntil,
      twofaEnabled: adminUsers.twofaEnabled,
      twofaSecret: adminUsers.twofaSecret,
      twofaLastStep: adminUsers.twofaLastStep,
      permissions: adminRoles.permissions,
      allowedStoreIds: adminUsers.allowedStoreIds,
      passkeys: sql<number>`(SELECT count(*)::int FROM admin_passkeys k WHERE k.user_id = "admin_users"."id")`,
    })
    .from(adminUsers)
    .innerJoin(adminRoles, eq(adminRoles.id, adminUsers.roleId));

type StaffRow = Awaited<ReturnType<ReturnType<typeof staffRow>['where']>>[number];

/** Counts a failed attempt; the one reaching the configured count locks the account (and starts the count again). */
async function recordFailure(ctx: Ctx, id: number): Promise<Date | undefined> {
  const max = ctx.app.settings.getInt('admin/security/lockout_failures');
  const minutes = Math.max(1, ctx.app.settings.getInt('admin/security/lockout_threshold'));
  const until = new Date(ctx.now.getTime() + minutes * 60_000);
  const locks = max > 0 ? sql`${adminUsers.failedLogins} + 1 >= ${max}` : sql`false`;
  const [r] = await ctx.db
    .update(adminUsers)
    .set({
      failedLogins: sql`CASE WHEN ${locks} THEN 0 ELSE ${adminUsers.failedLogins} + 1 END`,
      lockedUntil: sql`CASE WHEN ${locks} THEN ${until.toISOString()}::timestamptz ELSE ${adminUsers.lockedUntil} END`,
    })
    .where(eq(adminUsers.id, id))
    .returning({ lockedUntil: adminUsers.lockedUntil });
  return r?.lockedUntil && r.lockedUntil > ctx.now ? r.lockedUntil : undefined;
}

/** The second factors the user has, as `twofa_required` lists them. */
function methodsOf(u: StaffRow): string[] {
  const m: string[] = [];
  if (u.twofaEnabled) m.push('totp');
  if (Number(u.passkeys) > 0) m.push('passkey');
  return m;
}

/**
 * A TOTP code, accepted once: the matched step is stored only if it is later than the last accepted one, in one
 * statement, so that of two sign-ins racing with the same code one wins.
 */
export async function acceptTotp(ctx: Ctx, u: { id: number; twofaSecret: string | null; twofaLastStep: number | null }, code: string) {
  if (!u.twofaSecret) return false;
  let secret: string;
  try {
    secret = openTotpSecret(ctx.app.config, u.twofaSecret);
  } catch (err) {
    ctx.log.error({ err, adminUserId: u.id }, 'the TOTP secret of a staff user cannot be opened with the configured keys');
    return false;
  }
  const step = verifyTotp(secret, code, ctx.now, u.twofaLastStep);
  if (step === undefined) return false;
  const res = await ctx.db
    .update(adminUsers)
    .set({ twofaLastStep: step })
    .where(and(eq(adminUsers.id, u.id), or(isNull(adminUsers.twofaLastStep), lt(adminUsers.twofaLastStep, step))))
    .returning({ id: adminUsers.id });
  return res.length > 0;
}

/** Recovery codes are compared as upper case without dashes or spaces. */
export const recoveryCodeHash = (code: string) => sha256Hex(code.replace(/[\s-]/g, '').toUpperCase());

/** Spends an unused recovery code of the user; false when none matches. */
export async function spendRecoveryCode(ctx: Ctx, userId: number, code: string): Promise<boolean> {
  const res = await ctx.db
    .update(adminRecoveryCodes)
    .set({ usedAt: ctx.now })
    .where(
      and(
        eq(adminRecoveryCodes.userId, userId),
        eq(adminRecoveryCodes.codeHash, recoveryCodeHash(code)),
        isNull(adminRecoveryCodes.usedAt),
      ),
    )
    .returning({ id: adminRecoveryCodes.id });
  return res.length > 0;
}

/** A code the user typed: a 6-digit TOTP code, or one of their recovery codes. */
export async function acceptSecondFactorCode(
  ctx: Ctx,
  u: { id: number; twofaSecret: string | null; twofaLastStep: number | null },
  code: string,
): Promise<boolean> {
  const c = code.trim();
  if (/^\d{6}$/.test(c)) return acceptTotp(ctx, u, c);
  return c.length >= 8 && c.length <= 32 && spendRecoveryCode(ctx, u.id, c);
}

async function secondFactor(ctx: Ctx, u: StaffRow, cred: StaffCredentials): Promise<boolean> {
  if (cred.passkey !== undefined && cred.passkey !== null) {
    if (!Number(u.passkeys)) return false;
    try {
      return (await verifyStaffPasskey(ctx, cred.passkey, u.id)) === u.id;
    } catch (err) {
      if (err instanceof AppError && err.status < 500) return false;
      throw err;
    }
  }
  return acceptSecondFactorCode(ctx, u, cred.twofaCode ?? '');
}

/** Checks the credentials (under the login rate limits and the lockout); the staff user, or a 401/429. */
export async function authenticateStaff(ctx: Ctx, cred: StaffCredentials): Promise<StaffPrincipal> {
  const username = cred.username ?? '';
  const password = cred.password ?? '';
  if (!username || !password) {
    throw new AppError('bad_request', 'username and password are required', { error: 'invalid_request' });
  }
  if (password.length > 256 || username.length > 254) throw invalidCredentials();
  let failure: AppError | undefined;
  return guardAttempt(
    ctx,
    `admin_user:${username}`,
    async () => {
      const [u] = await staffRow(ctx).where(eq(adminUsers.username, username));
      if (u?.lockedUntil && u.lockedUntil > ctx.now) {
        failure = accountLocked(u.lockedUntil);
        return undefined;
      }
      const { ok, rehash } = await verifySecretAndUpgrade(password, u?.hash, ctx.log);
      if (!u || !ok || !u.isActive) {
        if (u && !ok) {
          const lockedUntil = await recordFailure(ctx, u.id);
          if (lockedUntil) failure = accountLocked(lockedUntil);
        }
        return undefined;
      }
      const methods = methodsOf(u);
      if (methods.length) {
        const given = (cred.twofaCode !== undefined && cred.twofaCode !== '') || (cred.passkey !== undefined && cred.passkey !== null);
        if (!given) {
          // the password was right: nothing to count, the client asks for the second factor
          throw new AppError('unauthorized', 'A second factor is required', { error: 'twofa_required', details: { methods } });
        }
        if (!(await secondFactor(ctx, u, cred))) {
          const lockedUntil = await recordFailure(ctx, u.id);
          failure = lockedUntil ? accountLocked(lockedUntil) : twofaInvalid();
          return undefined;
        }
      }
      await ctx.db
        .update(adminUsers)
        .set({
          failedLogins: 0,
          lockedUntil: null,
          lastLoginAt: ctx.now,
          loginCount: sql`${adminUsers.loginCount} + 1`,
          // an imported (legacy) hash is replaced by scrypt; guarded by the old value as the API users' rehash is
          ...(rehash && u.hash
            ? { passwordHash: sql`CASE WHEN ${adminUsers.passwordHash} = ${u.hash} THEN ${rehash} ELSE ${adminUsers.passwordHash} END` }
            : {}),
        })
        .where(eq(adminUsers.id, u.id));
      return principalOf(u);
    },
    () => failure ?? invalidCredentials(),
  );
}

/** A staff user's current standing, for a refresh: undefined when gone or inactive. */
export async function staffStanding(ctx: Ctx, id: number): Promise<StaffPrincipal | undefined> {
  const [u] = await staffRow(ctx).where(eq(adminUsers.id, id));
  if (!u || !u.isActive) return undefined;
  return principalOf(u);
}

/** The principal a staff row signs in as, with the profile the token answer carries. */
function principalOf(u: StaffRow): StaffPrincipal {
  const { id, username, email, firstName, lastName, locale, role } = u;
  return {
    principal: 'admin_user',
    id,
    username,
    permissions: u.permissions,
    allowedStoreIds: u.allowedStoreIds,
    profile: { id, username, email, firstName, lastName, locale, role },
  };
}
