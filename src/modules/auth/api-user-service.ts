/**
 * API roles and API users managed over the API by admins holding `admin-roles` / `admin-users` (the operator
 * commands and the importer write the same tables through accounts.ts). An API key is made by the server, stored
 * as a scrypt hash only, and answered once: by the create and by a key reset, which ends the tokens and SOAP
 * sessions opened with the old key. Like staff accounts, these belong to no store view: a token limited to some
 * store views may read them, never change them (a limited caller could otherwise make an unlimited one).
 */
import { and, asc, count, desc, eq, ilike, or, sql, type SQL } from 'drizzle-orm';
import { hashSecret } from '../../platform/auth/secrets.js';
import { isValidPermission } from '../../platform/auth/access.js';
import { credentialsChanged } from '../../platform/auth/subjects.js';
import { AppError, badRequest, conflict, notFound } from '../../platform/errors.js';
import { assertGlobalWriter, withTx, type Ctx } from '../../platform/context.js';
import type { Db } from '../../platform/db.js';
import { compact, isEmailAddress, likeEscape, wireDateTime } from '../../platform/format.js';
import type { CollectionResult, Page } from '../../platform/pagination.js';
import { generateSecret } from './accounts.js';
import { apiRoles, apiUsers, oauthClients } from './tables.js';
import type {
  ApiRoleCreate,
  ApiRoleDto,
  ApiRoleListQuery,
  ApiRoleUpdate,
  ApiUserCreate,
  ApiUserDto,
  ApiUserListQuery,
  ApiUserUpdate,
} from './api-user-schemas.js';

const WHAT = 'API users and roles';

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

function checkEmail(email: string | null | undefined): string | null | undefined {
  if (email === null || email === undefined) return email;
  const e = email.trim().toLowerCase();
  if (!isEmailAddress(e)) throw badRequest('Invalid email address', { reason: 'INVALID_EMAIL', details: { field: 'email' } });
  return e;
}

// ---- roles

const roleColumns = {
  id: apiRoles.id,
  name: apiRoles.name,
  permissions: apiRoles.permissions,
  createdAt: apiRoles.createdAt,
  userCount: sql<number>`(SELECT count(*)::int FROM api_users u WHERE u.role_id = "api_roles"."id")`,
  clientCount: sql<number>`(SELECT count(*)::int FROM oauth_clients c WHERE c.role_id = "api_roles"."id")`,
};

type RoleRow = { id: number; name: string; permissions: string[]; createdAt: Date; userCount: number; clientCount: number };

function roleDto(r: RoleRow): ApiRoleDto {
  return {
    id: r.id,
    name: r.name,
    permissions: r.permissions,
    userCount: Number(r.userCount),
    clientCount: Number(r.clientCount),
    createdAt: wireDateTime(r.createdAt)!,
  };
}

export async function listApiRoles(ctx: Ctx, q: ApiRoleListQuery, page: Page): Promise<CollectionResult<ApiRoleDto>> {
  const cond = q.search !== undefined ? ilike(apiRoles.name, `%${likeEscape(q.search)}%`) : undefined;
  const [rows, [{ n }]] = await Promise.all([
    ctx.db.select(roleColumns).from(apiRoles).where(cond).orderBy(asc(apiRoles.name)).limit(page.size).offset(page.offset),
    ctx.db.select({ n: count() }).from(apiRoles).where(cond),
  ]);
  return { items: rows.map(roleDto), total: Number(n) };
}

export async function getApiRole(ctx: Ctx, id: number): Promise<ApiRoleDto> {
  const [r] = await ctx.db.select(roleColumns).from(apiRoles).where(eq(apiRoles.id, id));
  if (!r) throw notFound('API role not found');
  return roleDto(r);
}

async function assertRoleNameFree(db: Db, name: string, except?: number): Promise<void> {
  const [r] = await db.select({ id: apiRoles.id }).from(apiRoles).where(eq(apiRoles.name, name));
  if (r && r.id !== except) {
    throw conflict(`An API role named ${name} already exists`, { reason: 'ROLE_NAME_TAKEN', details: { field: 'name' } });
  }
}

function roleName(name: string): string {
  const n = name.trim();
  if (!n) throw badRequest('A role name is 1 to 64 characters', { details: { field: 'name' } });
  return n;
}

export async function createApiRole(ctx: Ctx, body: ApiRoleCreate): Promise<ApiRoleDto> {
  assertGlobalWriter(ctx, WHAT);
  const name = roleName(body.name);
  const permissions = checkPermissions(body.permissions);
  await assertRoleNameFree(ctx.db, name);
  const [row] = await ctx.db.insert(apiRoles).values({ name, permissions, createdAt: ctx.now }).returning({ id: apiRoles.id });
  return getApiRole(ctx, row.id);
}

export async function updateApiRole(ctx: Ctx, id: number, body: ApiRoleUpdate): Promise<ApiRoleDto> {
  assertGlobalWriter(ctx, WHAT);
  const set: Partial<typeof apiRoles.$inferInsert> = {};
  if (body.name !== undefined) {
    set.name = roleName(body.name);
    await assertRoleNameFree(ctx.db, set.name, id);
  }
  if (body.permissions !== undefined) set.permissions = checkPermissions(body.permissions);
  if (!Object.keys(set).length) return getApiRole(ctx, id);
  // the holders' tokens carry the new permissions at their next request: they are read afresh each time
  const res = await ctx.db.update(apiRoles).set(set).where(eq(apiRoles.id, id)).returning({ id: apiRoles.id });
  if (!res.length) throw notFound('API role not found');
  return getApiRole(ctx, id);
}

export async function deleteApiRole(ctx: Ctx, id: number): Promise<void> {
  assertGlobalWriter(ctx, WHAT);
  await withTx(ctx, async (tx) => {
    const [role] = await tx.db.select({ id: apiRoles.id }).from(apiRoles).where(eq(apiRoles.id, id)).for('update');
    if (!role) throw notFound('API role not found');
    const [{ users }] = await tx.db.select({ users: count() }).from(apiUsers).where(eq(apiUsers.roleId, id));
    const [{ clients }] = await tx.db.select({ clients: count() }).from(oauthClients).where(eq(oauthClients.roleId, id));
    if (Number(users) + Number(clients) > 0) {
      throw conflict(`The role is held by ${users} API user(s) and ${clients} OAuth client(s); give them another role first`, {
        reason: 'ROLE_IN_USE',
      });
    }
    await tx.db.delete(apiRoles).where(eq(apiRoles.id, id));
  });
}

// ---- users

const userColumns = {
  id: apiUsers.id,
  username: apiUsers.username,
  email: apiUsers.email,
  roleId: apiUsers.roleId,
  role: apiRoles.name,
  isActive: apiUsers.isActive,
  allowedStoreIds: apiUsers.allowedStoreIds,
  createdAt: apiUsers.createdAt,
  updatedAt: apiUsers.updatedAt,
};

type UserRow = {
  id: number;
  username: string;
  email: string | null;
  roleId: number;
  role: string;
  isActive: boolean;
  allowedStoreIds: number[] | null;
  createdAt: Date;
  updatedAt: Date;
};

function userDto(u: UserRow, apiKey?: string): ApiUserDto {
  return compact({
    ...u,
    apiKey,
    createdAt: wireDateTime(u.createdAt)!,
    updatedAt: wireDateTime(u.updatedAt)!,
  }) as ApiUserDto;
}

const usersWithRole = (db: Db) => db.select(userColumns).from(apiUsers).innerJoin(apiRoles, eq(apiRoles.id, apiUsers.roleId));

const SORT_COLUMNS = {
  username: apiUsers.username,
  email: apiUsers.email,
  createdAt: apiUsers.createdAt,
  updatedAt: apiUsers.updatedAt,
};

export async function listApiUsers(ctx: Ctx, q: ApiUserListQuery, page: Page): Promise<CollectionResult<ApiUserDto>> {
  const where: SQL[] = [];
  if (q.roleId !== undefined) where.push(eq(apiUsers.roleId, q.roleId));
  if (q.isActive !== undefined) where.push(eq(apiUsers.isActive, q.isActive));
  if (q.search !== undefined) {
    const like = `%${likeEscape(q.search)}%`;
    where.push(or(ilike(apiUsers.username, like), ilike(apiUsers.email, like))!);
  }
  const cond = where.length ? and(...where) : undefined;
  const dir = q.sortDir === 'desc' ? desc : asc;
  const order = [dir(SORT_COLUMNS[q.sortBy ?? 'username']), asc(apiUsers.id)];
  const [rows, [{ n }]] = await Promise.all([
    usersWithRole(ctx.db)
      .where(cond)
      .orderBy(...order)
      .limit(page.size)
      .offset(page.offset),
    ctx.db.select({ n: count() }).from(apiUsers).where(cond),
  ]);
  return { items: rows.map((r) => userDto(r)), total: Number(n) };
}

export async function getApiUser(ctx: Ctx, id: number, apiKey?: string): Promise<ApiUserDto> {
  const [u] = await usersWithRole(ctx.db).where(eq(apiUsers.id, id));
  if (!u) throw notFound('API user not found');
  return userDto(u, apiKey);
}

async function assertRoleExists(db: Db, roleId: number): Promise<void> {
  const [r] = await db.select({ id: apiRoles.id }).from(apiRoles).where(eq(apiRoles.id, roleId));
  if (!r) throw badRequest('Unknown API role', { reason: 'UNKNOWN_ROLE', details: { field: 'roleId' } });
}

async function assertUsernameFree(db: Db, username: string, except?: number): Promise<void> {
  const [r] = await db.select({ id: apiUsers.id }).from(apiUsers).where(eq(apiUsers.username, username));
  if (r && r.id !== except) throw conflict('The user name is taken', { reason: 'USERNAME_TAKEN', details: { field: 'username' } });
}

const isSelf = (ctx: Ctx, id: number) => ctx.actor.kind === 'admin' && ctx.actor.principal === 'api_user' && ctx.actor.id === id;

export async function createApiUser(ctx: Ctx, body: ApiUserCreate): Promise<ApiUserDto> {
  assertGlobalWriter(ctx, WHAT);
  const email = checkEmail(body.email);
  const allowedStoreIds = checkStoreIds(ctx, body.allowedStoreIds);
  await assertRoleExists(ctx.db, body.roleId);
  await assertUsernameFree(ctx.db, body.username);
  const apiKey = generateSecret();
  const [row] = await ctx.db
    .insert(apiUsers)
    .values({
      username: body.username,
      email: email ?? null,
      apiKeyHash: await hashSecret(apiKey),
      roleId: body.roleId,
      isActive: body.isActive ?? true,
      allowedStoreIds: allowedStoreIds ?? null,
      createdAt: ctx.now,
      updatedAt: ctx.now,
    })
    .returning({ id: apiUsers.id });
  return getApiUser(ctx, row.id, apiKey);
}

export async function updateApiUser(ctx: Ctx, id: number, body: ApiUserUpdate): Promise<ApiUserDto> {
  assertGlobalWriter(ctx, WHAT);
  if (body.isActive === false && isSelf(ctx, id)) {
    throw new AppError('conflict', 'You cannot deactivate the API user you are signed in as', { reason: 'SELF_DEACTIVATION' });
  }
  const set: Partial<typeof apiUsers.$inferInsert> = { updatedAt: ctx.now };
  if (body.username !== undefined) {
    await assertUsernameFree(ctx.db, body.username, id);
    set.username = body.username;
  }
  if (body.email !== undefined) set.email = checkEmail(body.email);
  if (body.allowedStoreIds !== undefined) set.allowedStoreIds = checkStoreIds(ctx, body.allowedStoreIds);
  if (body.isActive !== undefined) set.isActive = body.isActive;
  if (body.roleId !== undefined) {
    await assertRoleExists(ctx.db, body.roleId);
    set.roleId = body.roleId;
  }
  const res = await ctx.db.update(apiUsers).set(set).where(eq(apiUsers.id, id)).returning({ id: apiUsers.id });
  if (!res.length) throw notFound('API user not found');
  return getApiUser(ctx, id);
}

/** A new key made by the server, answered once; every token and SOAP session opened with the old one ends. */
export async function resetApiUserKey(ctx: Ctx, id: number): Promise<ApiUserDto> {
  assertGlobalWriter(ctx, WHAT);
  const apiKey = generateSecret();
  const apiKeyHash = await hashSecret(apiKey);
  await withTx(ctx, async (tx) => {
    const res = await tx.db
      .update(apiUsers)
      .set({ apiKeyHash, updatedAt: ctx.now })
      .where(eq(apiUsers.id, id))
      .returning({ id: apiUsers.id });
    if (!res.length) throw notFound('API user not found');
    await credentialsChanged(tx.db, `api_user_${id}`, ctx.now);
  });
  return getApiUser(ctx, id, apiKey);
}

export async function deleteApiUser(ctx: Ctx, id: number): Promise<void> {
  assertGlobalWriter(ctx, WHAT);
  if (isSelf(ctx, id)) {
    throw new AppError('conflict', 'You cannot delete the API user you are signed in as', { reason: 'SELF_DELETION' });
  }
  await withTx(ctx, async (tx) => {
    // its SOAP sessions go with it (foreign key); its tokens find no user any more
    const res = await tx.db.delete(apiUsers).where(eq(apiUsers.id, id)).returning({ id: apiUsers.id });
    if (!res.length) throw notFound('API user not found');
    await credentialsChanged(tx.db, `api_user_${id}`, ctx.now);
  });
}
