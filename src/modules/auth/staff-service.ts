/**
 * Staff (back-office) roles and users: what an admin with `admin-roles` / `admin-users` manages, and a staff
 * user's own account. Passwords are checked as Maho checks an admin password (a minimum length, letters and
 * digits) and stored as scrypt hashes; no answer carries a hash or a secret. A change of password, a
 * deactivation or a deletion ends the user's tokens and back-office sessions at once, in every process. Staff
 * accounts belong to no store view: a token limited to some store views may read them, never change them (a
 * limited admin could otherwise make an unlimited one).
 */
import { and, asc, count, eq, ilike, or, sql, type SQL } from 'drizzle-orm';
import { hashSecret, verifySecret } from '../../platform/auth/secrets.js';
import { isValidPermission } from '../../platform/auth/access.js';
import { credentialsChanged } from '../../platform/auth/subjects.js';
import { AppError, badRequest, conflict, forbidden, notFound } from '../../platform/errors.js';
import type { Ctx } from '../../platform/context.js';
import { assertGlobalWriter, withTx } from '../../platform/context.js';
import type { Db } from '../../platform/db.js';
import { compact, isEmailAddress, likeEscape, wireDateTime } from '../../platform/format.js';
import type { Page } from '../../platform/pagination.js';
import { configuredRule } from '../../platform/rate-limit.js';
import { declareConfig } from '../../platform/settings.js';
import { adminRoles, adminSessions, adminUsers } from './tables.js';
import type {
  AdminRoleCreate,
  AdminRoleDto,
  AdminRoleUpdate,
  AdminUserCreate,
  AdminUserDto,
  AdminUserListQuery,
  AdminUserUpdate,
  MyAccountUpdate,
} from './staff-schemas.js';

declareConfig({
  'admin/security/min_admin_password_length': {
    type: 'integer',
    default: 8,
    label: 'Minimum Admin Password Length',
    comment: 'never below 8',
    min: 8,
    max: 256,
    scopes: ['default'],
  },
  'api/rate_limit/admin_current_password': {
    type: 'integer',
    default: 10,
    label: 'Staff Current-Password Checks',
    comment: "checks of a staff user's current password (account changes, turning off TOTP), per user, per hour",
    min: 1,
    scopes: ['default'],
  },
});

/** The subject of a staff user's tokens, as `auth_subject_valid_after` and the token's `sub` name it. */
export const staffSubject = (id: number) => `admin_user_${id}`;

/** Maho's rule for an admin password: long enough, with letters and digits. */
export function checkStaffPassword(ctx: Ctx, password: string, field = 'password'): void {
  const min = Math.max(8, ctx.app.settings.getInt('admin/security/min_admin_password_length') || 0);
  const details = { field };
  if ([...password].length < min)
    throw badRequest(`The password must have at least ${min} characters`, { reason: 'WEAK_PASSWORD', details });
  if (!/\p{L}/u.test(password) || !/\p{Nd}/u.test(password)) {
    throw badRequest('The password must include both letters and digits', { reason: 'WEAK_PASSWORD', details });
  }
}

function normEmail(email: string, field = 'email'): string {
  const e = email.trim().toLowerCase();
  if (!isEmailAddress(e)) throw badRequest('Invalid email address', { reason: 'INVALID_EMAIL', details: { field } });
  return e;
}

function checkPermissions(permissions: string[]): string[] {
  const bad = permissions.filter((p) => !isValidPermission(p));
  if (bad.length) throw badRequest(`Unknown permission(s): ${bad.join(', ')}`, { details: { field: 'permissions' } });
  return [...new Set(permissions)];
}

function checkStoreIds(ctx: Ctx, ids: number[] | null | undefined): number[] | null | undefined {
  if (!ids) return ids;
  const unknown = ids.filter((id) => !ctx.app.settings.store(id));
  if (unknown.length) throw badRequest(`Unknown store view id(s): ${unknown.join(', ')}`, { details: { field: 'allowedStoreIds' } });
  return [...new Set(ids)];
}

// ---- roles

const roleColumns = {
  id: adminRoles.id,
  name: adminRoles.name,
  permissions: adminRoles.permissions,
  createdAt: adminRoles.createdAt,
  updatedAt: adminRoles.updatedAt,
  userCount: sql<number>`(SELECT count(*)::int FROM admin_users u WHERE u.role_id = "admin_roles"."id")`,
};

interface RoleRow {
  userCount: number;
  id: number;
  name: string;
  permissions: string[];
  createdAt: Date;
  updatedAt: Date;
}

function roleDto(r: RoleRow): AdminRoleDto {
  return {
    id: r.id,
    name: r.name,
    permissions: r.permissions,
    userCount: Number(r.userCount),
    createdAt: wireDateTime(r.createdAt)!,
    updatedAt: wireDateTime(r.updatedAt)!,
  };
}

export async function listAdminRoles(ctx: Ctx, page: Page): Promise<{ items: AdminRoleDto[]; total: number }> {
  const [rows, [{ n }]] = await Promise.all([
    ctx.db.select(roleColumns).from(adminRoles).orderBy(asc(adminRoles.name)).limit(page.size).offset(page.offset),
    ctx.db.select({ n: count() }).from(adminRoles),
  ]);
  return { items: rows.map(roleDto), total: Number(n) };
}

export async function getAdminRole(ctx: Ctx, id: number): Promise<AdminRoleDto> {
  const [r] = await ctx.db.select(roleColumns).from(adminRoles).where(eq(adminRoles.id, id));
  if (!r) throw notFound('Admin role not found');
  return roleDto(r);
}

async function assertRoleNameFree(db: Db, name: string, except?: number): Promise<void> {
  const [r] = await db.select({ id: adminRoles.id }).from(adminRoles).where(eq(adminRoles.name, name));
  if (r && r.id !== except) throw conflict(`An admin role named ${name} already exists`, { reason: 'ROLE_NAME_TAKEN' });
}

export async function createAdminRole(ctx: Ctx, body: AdminRoleCreate): Promise<AdminRoleDto> {
  assertGlobalWriter(ctx, 'staff accounts');
  const name = body.name.trim();
  if (!name) throw badRequest('A role name is 1 to 64 characters', { details: { field: 'name' } });
  const permissions = checkPermissions(body.permissions);
  await assertRoleNameFree(ctx.db, name);
  const [row] = await ctx.db
    .insert(adminRoles)
    .values({ name, permissions, createdAt: ctx.now, updatedAt: ctx.now })
    .returning({ id: adminRoles.id });
  return getAdminRole(ctx, row.id);
}

export async function updateAdminRole(ctx: Ctx, id: number, body: AdminRoleUpdate): Promise<AdminRoleDto> {
  assertGlobalWriter(ctx, 'staff accounts');
  const set: Partial<typeof adminRoles.$inferInsert> = { updatedAt: ctx.now };
  if (body.name !== undefined) {
    set.name = body.name.trim();
    if (!set.name) throw badRequest('A role name is 1 to 64 characters', { details: { field: 'name' } });
    await assertRoleNameFree(ctx.db, set.name, id);
  }
  if (body.permissions !== undefined) set.permissions = checkPermissions(body.permissions);
  const res = await ctx.db.update(adminRoles).set(set).where(eq(adminRoles.id, id)).returning({ id: adminRoles.id });
  if (!res.length) throw notFound('Admin role not found');
  return getAdminRole(ctx, id);
}

export async function deleteAdminRole(ctx: Ctx, id: number): Promise<void> {
  assertGlobalWriter(ctx, 'staff accounts');
  await withTx(ctx, async (tx) => {
    const [role] = await tx.db.select({ id: adminRoles.id }).from(adminRoles).where(eq(adminRoles.id, id)).for('update');
    if (!role) throw notFound('Admin role not found');
    const [{ n }] = await tx.db.select({ n: count() }).from(adminUsers).where(eq(adminUsers.roleId, id));
    if (Number(n) > 0) throw conflict(`The role is held by ${n} staff user(s); give them another role first`, { reason: 'ROLE_IN_USE' });
    await tx.db.delete(adminRoles).where(eq(adminRoles.id, id));
  });
}

// ---- users

const userColumns = {
  id: adminUsers.id,
  username: adminUsers.username,
  email: adminUsers.email,
  firstName: adminUsers.firstName,
  lastName: adminUsers.lastName,
  isActive: adminUsers.isActive,
  locale: adminUsers.locale,
  roleId: adminUsers.roleId,
  role: adminRoles.name,
  permissions: adminRoles.permissions,
  allowedStoreIds: adminUsers.allowedStoreIds,
  twofaEnabled: adminUsers.twofaEnabled,
  failedLogins: adminUsers.failedLogins,
  lockedUntil: adminUsers.lockedUntil,
  lastLoginAt: adminUsers.lastLoginAt,
  loginCount: adminUsers.loginCount,
  createdAt: adminUsers.createdAt,
  updatedAt: adminUsers.updatedAt,
  passkeys: sql<number>`(SELECT count(*)::int FROM admin_passkeys k WHERE k.user_id = "admin_users"."id")`,
};

interface UserRow {
  id: number;
  username: string;
  email: string;
  firstName: string;
  lastName: string;
  isActive: boolean;
  locale: string;
  roleId: number;
  role: string;
  permissions: string[];
  allowedStoreIds: number[] | null;
  twofaEnabled: boolean;
  failedLogins: number;
  lockedUntil: Date | null;
  lastLoginAt: Date | null;
  loginCount: number;
  createdAt: Date;
  updatedAt: Date;
  passkeys: number;
}

function userDto(ctx: Ctx, u: UserRow): AdminUserDto {
  const locked = !!u.lockedUntil && u.lockedUntil > ctx.now;
  return compact({
    ...u,
    passkeys: Number(u.passkeys),
    locked,
    lockedUntil: locked ? wireDateTime(u.lockedUntil) : undefined,
    lastLoginAt: wireDateTime(u.lastLoginAt),
    createdAt: wireDateTime(u.createdAt)!,
    updatedAt: wireDateTime(u.updatedAt)!,
  }) as AdminUserDto;
}

const usersWithRole = (db: Db) => db.select(userColumns).from(adminUsers).innerJoin(adminRoles, eq(adminRoles.id, adminUsers.roleId));

const USER_SORTS = {
  username: adminUsers.username,
  email: adminUsers.email,
  lastLoginAt: adminUsers.lastLoginAt,
  createdAt: adminUsers.createdAt,
};

/** The list's order: the column asked for (never signed in last when ascending by sign-in), then the id. */
function userOrder(q: AdminUserListQuery): SQL[] {
  const col = USER_SORTS[q.sortBy ?? 'username'];
  const first = q.sortDir === 'desc' ? sql`${col} DESC NULLS LAST` : sql`${col} ASC NULLS FIRST`;
  return [first, asc(adminUsers.id)];
}

export async function listAdminUsers(ctx: Ctx, q: AdminUserListQuery, page: Page): Promise<{ items: AdminUserDto[]; total: number }> {
  const where: SQL[] = [];
  if (q.username !== undefined) where.push(eq(adminUsers.username, q.username));
  if (q.email !== undefined) where.push(eq(adminUsers.email, q.email.trim().toLowerCase()));
  if (q.roleId !== undefined) where.push(eq(adminUsers.roleId, q.roleId));
  if (q.isActive !== undefined) where.push(eq(adminUsers.isActive, q.isActive));
  if (q.search !== undefined) {
    const like = `%${likeEscape(q.search)}%`;
    where.push(
      or(
        ilike(adminUsers.username, like),
        ilike(adminUsers.email, like),
        ilike(sql`${adminUsers.firstName} || ' ' || ${adminUsers.lastName}`, like),
      )!,
    );
  }
  const cond = where.length ? and(...where) : undefined;
  const [rows, [{ n }]] = await Promise.all([
    usersWithRole(ctx.db)
      .where(cond)
      .orderBy(...userOrder(q))
      .limit(page.size)
      .offset(page.offset),
    ctx.db.select({ n: count() }).from(adminUsers).where(cond),
  ]);
  return { items: rows.map((r) => userDto(ctx, r)), total: Number(n) };
}

export async function getAdminUser(ctx: Ctx, id: number): Promise<AdminUserDto> {
  const [u] = await usersWithRole(ctx.db).where(eq(adminUsers.id, id));
  if (!u) throw notFound('Admin user not found');
  return userDto(ctx, u);
}

async function assertRoleExists(db: Db, roleId: number): Promise<void> {
  const [r] = await db.select({ id: adminRoles.id }).from(adminRoles).where(eq(adminRoles.id, roleId));
  if (!r) throw badRequest('Unknown admin role', { reason: 'UNKNOWN_ROLE', details: { field: 'roleId' } });
}

async function assertUnique(db: Db, fields: { username?: string; email?: string }, except?: number): Promise<void> {
  const conds: SQL[] = [];
  if (fields.username !== undefined) conds.push(eq(adminUsers.username, fields.username));
  if (fields.email !== undefined) conds.push(eq(adminUsers.email, fields.email));
  if (!conds.length) return;
  const rows = await db
    .select({ id: adminUsers.id, username: adminUsers.username, email: adminUsers.email })
    .from(adminUsers)
    .where(or(...conds));
  for (const r of rows) {
    if (r.id === except) continue;
    if (fields.username !== undefined && r.username === fields.username) {
      throw conflict('The user name is taken', { reason: 'USERNAME_TAKEN', details: { field: 'username' } });
    }
    throw conflict('The email is taken by another staff user', { reason: 'EMAIL_TAKEN', details: { field: 'email' } });
  }
}

export async function createAdminUser(ctx: Ctx, body: AdminUserCreate): Promise<AdminUserDto> {
  assertGlobalWriter(ctx, 'staff accounts');
  const email = normEmail(body.email);
  checkStaffPassword(ctx, body.password);
  const allowedStoreIds = checkStoreIds(ctx, body.allowedStoreIds);
  await assertRoleExists(ctx.db, body.roleId);
  await assertUnique(ctx.db, { username: body.username, email });
  const passwordHash = await hashSecret(body.password);
  const [row] = await ctx.db
    .insert(adminUsers)
    .values({
      username: body.username,
      email,
      passwordHash,
      firstName: body.firstName?.trim() ?? '',
      lastName: body.lastName?.trim() ?? '',
      isActive: body.isActive ?? true,
      locale: body.locale ?? 'en_US',
      roleId: body.roleId,
      allowedStoreIds: allowedStoreIds ?? null,
      createdAt: ctx.now,
      updatedAt: ctx.now,
    })
    .returning({ id: adminUsers.id });
  return getAdminUser(ctx, row.id);
}

/** The signed-in staff user's id; any other caller is refused (403). */
export function selfStaffId(ctx: Ctx): number {
  const a = ctx.actor;
  if (a.kind === 'admin' && a.principal === 'admin_user') return a.id;
  throw forbidden('Only a signed-in staff user has an own back-office account', { reason: 'STAFF_USER_REQUIRED' });
}

const isSelf = (ctx: Ctx, id: number) => ctx.actor.kind === 'admin' && ctx.actor.principal === 'admin_user' && ctx.actor.id === id;

/** Ends every token and back-office session of a staff user, in the caller's transaction. */
export async function endStaffSessions(db: Db, userId: number, at: Date): Promise<void> {
  await credentialsChanged(db, staffSubject(userId), at);
  await db.delete(adminSessions).where(eq(adminSessions.userId, userId));
}

export async function updateAdminUser(ctx: Ctx, id: number, body: AdminUserUpdate): Promise<AdminUserDto> {
  assertGlobalWriter(ctx, 'staff accounts');
  const set: Partial<typeof adminUsers.$inferInsert> = { updatedAt: ctx.now };
  if (body.isActive === false && isSelf(ctx, id)) {
    throw new AppError('conflict', 'You cannot deactivate your own account', { reason: 'SELF_DEACTIVATION' });
  }
  if (body.email !== undefined) set.email = normEmail(body.email);
  if (body.username !== undefined) set.username = body.username;
  if (body.password !== undefined) {
    checkStaffPassword(ctx, body.password);
    set.passwordHash = await hashSecret(body.password);
  }
  if (body.firstName !== undefined) set.firstName = body.firstName.trim();
  if (body.lastName !== undefined) set.lastName = body.lastName.trim();
  if (body.locale !== undefined) set.locale = body.locale;
  if (body.isActive !== undefined) set.isActive = body.isActive;
  if (body.allowedStoreIds !== undefined) set.allowedStoreIds = checkStoreIds(ctx, body.allowedStoreIds);
  if (body.roleId !== undefined) {
    await assertRoleExists(ctx.db, body.roleId);
    set.roleId = body.roleId;
  }
  if (body.unlock) Object.assign(set, { failedLogins: 0, lockedUntil: null });
  await assertUnique(ctx.db, { username: set.username, email: set.email }, id);
  await withTx(ctx, async (tx) => {
    const res = await tx.db.update(adminUsers).set(set).where(eq(adminUsers.id, id)).returning({ id: adminUsers.id });
    if (!res.length) throw notFound('Admin user not found');
    if (set.passwordHash || body.isActive === false) await endStaffSessions(tx.db, id, ctx.now);
  });
  return getAdminUser(ctx, id);
}

export async function deleteAdminUser(ctx: Ctx, id: number): Promise<void> {
  assertGlobalWriter(ctx, 'staff accounts');
  if (isSelf(ctx, id)) throw new AppError('conflict', 'You cannot delete your own account', { reason: 'SELF_DELETION' });
  await withTx(ctx, async (tx) => {
    const res = await tx.db.delete(adminUsers).where(eq(adminUsers.id, id)).returning({ id: adminUsers.id });
    if (!res.length) throw notFound('Admin user not found');
    await credentialsChanged(tx.db, staffSubject(id), ctx.now);
  });
}

// ---- own account

export function getMyAccount(ctx: Ctx): Promise<AdminUserDto> {
  return getAdminUser(ctx, selfStaffId(ctx));
}

/** The stored password hash of a staff user is checked against `password` (a wrong one is a 400 naming the field). */
export async function assertCurrentPassword(ctx: Ctx, id: number, password: string | undefined, field = 'currentPassword'): Promise<void> {
  if (!password) throw badRequest('The current password is required', { reason: 'CURRENT_PASSWORD_REQUIRED', details: { field } });
  // wrong guesses with a stolen token are held by this limit (per user, an hour)
  await ctx.app.limiter.consume(configuredRule(ctx.app.settings, 'admin_current_password', 3600), `admin_user:${id}`);
  const [u] = await ctx.db.select({ hash: adminUsers.passwordHash }).from(adminUsers).where(eq(adminUsers.id, id));
  if (!u || !(await verifySecret(password, u.hash ?? undefined, ctx.log))) {
    throw badRequest('The current password is incorrect', { reason: 'INVALID_CURRENT_PASSWORD', details: { field } });
  }
}

export async function updateMyAccount(ctx: Ctx, body: MyAccountUpdate): Promise<AdminUserDto> {
  const id = selfStaffId(ctx);
  const set: Partial<typeof adminUsers.$inferInsert> = { updatedAt: ctx.now };
  if (body.email !== undefined) set.email = normEmail(body.email);
  if (body.firstName !== undefined) set.firstName = body.firstName.trim();
  if (body.lastName !== undefined) set.lastName = body.lastName.trim();
  if (body.locale !== undefined) set.locale = body.locale;
  if (body.password !== undefined) checkStaffPassword(ctx, body.password);
  if (body.password !== undefined || body.email !== undefined) await assertCurrentPassword(ctx, id, body.currentPassword);
  if (body.password !== undefined) set.passwordHash = await hashSecret(body.password);
  await assertUnique(ctx.db, { email: set.email }, id);
  await withTx(ctx, async (tx) => {
    await tx.db.update(adminUsers).set(set).where(eq(adminUsers.id, id));
    // a new password ends the other sessions; the caller signs in again with it
    if (set.passwordHash) await endStaffSessions(tx.db, id, ctx.now);
  });
  return getAdminUser(ctx, id);
}

// ---- operator commands (by user name)

export async function adminRoleIdByName(db: Db, name: string): Promise<number> {
  const [r] = await db.select({ id: adminRoles.id }).from(adminRoles).where(eq(adminRoles.name, name));
  if (!r) throw notFound(`Admin role not found: ${name}`);
  return r.id;
}

async function staffIdByName(db: Db, username: string): Promise<number> {
  const [u] = await db.select({ id: adminUsers.id }).from(adminUsers).where(eq(adminUsers.username, username));
  if (!u) throw notFound(`Admin user not found: ${username}`);
  return u.id;
}

/** A new password set by an operator: the account is unlocked and every session of the user ends. */
export async function setStaffPassword(ctx: Ctx, username: string, password: string): Promise<void> {
  const id = await staffIdByName(ctx.db, username);
  checkStaffPassword(ctx, password);
  const passwordHash = await hashSecret(password);
  await withTx(ctx, async (tx) => {
    await tx.db
      .update(adminUsers)
      .set({ passwordHash, failedLogins: 0, lockedUntil: null, resetTokenHash: null, resetTokenExpiresAt: null, updatedAt: ctx.now })
      .where(eq(adminUsers.id, id));
    await endStaffSessions(tx.db, id, ctx.now);
  });
}

/** Activates or deactivates a user by name; a deactivation ends every session of the user. */
export async function setStaffActive(ctx: Ctx, username: string, active: boolean): Promise<void> {
  const id = await staffIdByName(ctx.db, username);
  await withTx(ctx, async (tx) => {
    await tx.db.update(adminUsers).set({ isActive: active, updatedAt: ctx.now }).where(eq(adminUsers.id, id));
    if (!active) await endStaffSessions(tx.db, id, ctx.now);
  });
}
