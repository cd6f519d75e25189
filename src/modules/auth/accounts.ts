/**
 * API roles, API users and OAuth clients: what operators manage (CLI), the install roles and the demo accounts
 * (an API user, an OAuth client and the staff user `admin`).
 * Secrets are stored as scrypt hashes only; a generated one is shown once by the caller.
 */
import { eq } from 'drizzle-orm';
import type { Ctx } from '../../platform/context.js';
import type { Db } from '../../platform/db.js';
import { badRequest, conflict, notFound } from '../../platform/errors.js';
import { hashSecret, randomToken } from '../../platform/auth/secrets.js';
import { isValidPermission } from '../../platform/auth/access.js';
import { credentialsChanged } from '../../platform/auth/subjects.js';
import { adminRoles, adminUsers, apiRoles, apiUsers, oauthClients } from './tables.js';

function checkPermissions(permissions: string[]): void {
  const bad = permissions.filter((p) => !isValidPermission(p));
  if (bad.length) throw badRequest(`Unknown permission(s): ${bad.join(', ')}`);
}

/** A store allowlist is one or more store view ids; absent means every store. */
function checkStoreIds(ids: number[] | undefined): number[] | undefined {
  if (ids === undefined) return undefined;
  if (!ids.length) throw badRequest('A store allowlist names at least one store view id');
  if (ids.some((id) => !Number.isSafeInteger(id) || id < 0)) throw badRequest('Store view ids are whole numbers');
  return [...new Set(ids)];
}

/** A random API key or client secret: 32 bytes as 64 hex characters. */
export function generateSecret(): string {
  return randomToken(32);
}

export async function createRole(db: Db, name: string, permissions: string[]): Promise<number> {
  const roleName = name.trim();
  if (!roleName || roleName.length > 64) throw badRequest('A role name is 1 to 64 characters');
  checkPermissions(permissions);
  const [exists] = await db.select({ id: apiRoles.id }).from(apiRoles).where(eq(apiRoles.name, roleName));
  if (exists) throw conflict(`Role already exists: ${roleName}`);
  const [row] = await db
    .insert(apiRoles)
    .values({ name: roleName, permissions: [...new Set(permissions)] })
    .returning({ id: apiRoles.id });
  return row.id;
}

export async function roleIdByName(db: Db, name: string): Promise<number> {
  const [r] = await db.select({ id: apiRoles.id }).from(apiRoles).where(eq(apiRoles.name, name));
  if (!r) throw notFound(`Role not found: ${name}`);
  return r.id;
}

export async function listRoles(db: Db) {
  return db.select().from(apiRoles).orderBy(apiRoles.name);
}

export async function setRolePermissions(db: Db, name: string, permissions: string[]): Promise<void> {
  checkPermissions(permissions);
  const res = await db
    .update(apiRoles)
    .set({ permissions: [...new Set(permissions)] })
    .where(eq(apiRoles.name, name))
    .returning({ id: apiRoles.id });
  if (!res.length) throw notFound(`Role not found: ${name}`);
}

export async function createApiUser(
  db: Db,
  input: { username: string; apiKey: string; role: string; email?: string; allowedStoreIds?: number[] },
): Promise<number> {
  if (!/^[A-Za-z0-9._@-]{2,64}$/.test(input.username)) throw badRequest('A username is 2 to 64 letters, digits, . _ @ or -');
  if (input.apiKey.length < 8) throw badRequest('An API key has at least 8 characters');
  const allowedStoreIds = checkStoreIds(input.allowedStoreIds);
  const roleId = await roleIdByName(db, input.role);
  const [exists] = await db.select({ id: apiUsers.id }).from(apiUsers).where(eq(apiUsers.username, input.username));
  if (exists) throw conflict(`API user already exists: ${input.username}`);
  const [row] = await db
    .insert(apiUsers)
    .values({ username: input.username, email: input.email, apiKeyHash: await hashSecret(input.apiKey), roleId, allowedStoreIds })
    .returning({ id: apiUsers.id });
  return row.id;
}

export async function createOauthClient(
  db: Db,
  input: { clientId: string; secret: string; role: string; name?: string; allowedStoreIds?: number[] },
): Promise<number> {
  if (!/^[A-Za-z0-9._-]{2,128}$/.test(input.clientId)) throw badRequest('A client id is 2 to 128 letters, digits, . _ or -');
  if (input.secret.length < 12) throw badRequest('A client secret has at least 12 characters');
  const allowedStoreIds = checkStoreIds(input.allowedStoreIds);
  const roleId = await roleIdByName(db, input.role);
  const [exists] = await db.select({ id: oauthClients.id }).from(oauthClients).where(eq(oauthClients.clientId, input.clientId));
  if (exists) throw conflict(`OAuth client already exists: ${input.clientId}`);
  const [row] = await db
    .insert(oauthClients)
    .values({
      clientId: input.clientId,
      name: input.name ?? input.clientId,
      secretHash: await hashSecret(input.secret),
      roleId,
      allowedStoreIds,
    })
    .returning({ id: oauthClients.id });
  return row.id;
}

export async function setApiUserActive(db: Db, username: string, active: boolean): Promise<void> {
  const res = await db
    .update(apiUsers)
    .set({ isActive: active, updatedAt: new Date() })
    .where(eq(apiUsers.username, username))
    .returning({ id: apiUsers.id });
  if (!res.length) throw notFound(`API user not found: ${username}`);
}

/** A new key; the user's tokens and SOAP sessions opened with the old one end at once. */
export async function setApiUserKey(db: Db, username: string, apiKey: string): Promise<void> {
  if (apiKey.length < 8) throw badRequest('An API key has at least 8 characters');
  const apiKeyHash = await hashSecret(apiKey);
  await db.transaction(async (tx) => {
    const now = new Date();
    const res = await tx
      .update(apiUsers)
      .set({ apiKeyHash, updatedAt: now })
      .where(eq(apiUsers.username, username))
      .returning({ id: apiUsers.id });
    if (!res.length) throw notFound(`API user not found: ${username}`);
    await credentialsChanged(tx, `api_user_${res[0].id}`, now);
  });
}

/** A new client secret; the client's tokens taken with the old one end at once. */
export async function setOauthClientSecret(db: Db, clientId: string, secret: string): Promise<void> {
  if (secret.length < 12) throw badRequest('A client secret has at least 12 characters');
  const secretHash = await hashSecret(secret);
  await db.transaction(async (tx) => {
    const res = await tx
      .update(oauthClients)
      .set({ secretHash })
      .where(eq(oauthClients.clientId, clientId))
      .returning({ id: oauthClients.id });
    if (!res.length) throw notFound(`OAuth client not found: ${clientId}`);
    await credentialsChanged(tx, `oauth_client_${res[0].id}`, new Date());
  });
}

export async function setOauthClientActive(db: Db, clientId: string, active: boolean): Promise<void> {
  const res = await db
    .update(oauthClients)
    .set({ isActive: active })
    .where(eq(oauthClients.clientId, clientId))
    .returning({ id: oauthClients.id });
  if (!res.length) throw notFound(`OAuth client not found: ${clientId}`);
}

export async function listApiUsers(db: Db) {
  return db
    .select({
      id: apiUsers.id,
      username: apiUsers.username,
      email: apiUsers.email,
      role: apiRoles.name,
      isActive: apiUsers.isActive,
      allowedStoreIds: apiUsers.allowedStoreIds,
    })
    .from(apiUsers)
    .innerJoin(apiRoles, eq(apiRoles.id, apiUsers.roleId))
    .orderBy(apiUsers.username);
}

export async function listOauthClients(db: Db) {
  return db
    .select({
      id: oauthClients.id,
      clientId: oauthClients.clientId,
      name: oauthClients.name,
      role: apiRoles.name,
      isActive: oauthClients.isActive,
      allowedStoreIds: oauthClients.allowedStoreIds,
    })
    .from(oauthClients)
    .innerJoin(apiRoles, eq(apiRoles.id, oauthClients.roleId))
    .orderBy(oauthClients.clientId);
}

/** Install data: the Administrators roles (every permission), of API users and of staff users. */
export async function install(db: Db): Promise<void> {
  await db
    .insert(apiRoles)
    .values({ name: 'Administrators', permissions: ['all'] })
    .onConflictDoNothing();
  await db
    .insert(adminRoles)
    .values({ name: 'Administrators', permissions: ['all'] })
    .onConflictDoNothing();
}

export const DEMO_CREDENTIALS = {
  apiUser: { username: 'demo-admin', apiKey: 'demo-admin-key' },
  oauthClient: { clientId: 'demo-client', secret: 'demo-client-secret' },
  staffUser: { username: 'admin', password: 'Admin123!', email: 'admin@example.com' },
};

export async function seedDemo(ctx: Ctx): Promise<void> {
  await createApiUser(ctx.db, { ...DEMO_CREDENTIALS.apiUser, role: 'Administrators', email: 'admin@example.com' });
  await createOauthClient(ctx.db, { ...DEMO_CREDENTIALS.oauthClient, role: 'Administrators', name: 'Demo integration' });
  const [role] = await ctx.db.select({ id: adminRoles.id }).from(adminRoles).where(eq(adminRoles.name, 'Administrators'));
  if (role) {
    const { username, password, email } = DEMO_CREDENTIALS.staffUser;
    await ctx.db
      .insert(adminUsers)
      .values({ username, email, passwordHash: await hashSecret(password), firstName: 'Demo', lastName: 'Admin', roleId: role.id })
      .onConflictDoNothing();
  }
}
