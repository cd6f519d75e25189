/**
 * API roles and API users managed over HTTP: the answers (a key shown once, never a hash), the key working for the
 * api_user grant and a reset ending the old key's tokens, the rules (permissions, unique names, a role in use,
 * nobody deletes or deactivates themselves, store views), access for every kind of caller, bad input as 4xx that
 * changes nothing, and the GraphQL fields.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { count, eq } from 'drizzle-orm';
import { API, buildTestApp, type TestApp } from '../../../test/helpers.js';
import { apiRoles, apiUsers } from './tables.js';

let t: TestApp;
let admin: string;
before(async () => {
  t = await buildTestApp();
  admin = await t.tokens.admin();
});
after(() => t.close());

const rows = async () => ({
  roles: Number((await t.database.db.select({ n: count() }).from(apiRoles))[0].n),
  users: Number((await t.database.db.select({ n: count() }).from(apiUsers))[0].n),
});

let seq = 0;
const uniq = () => `a${String(++seq).padStart(4, '0')}x${Date.now() % 100000}`;
const json = { accept: 'application/json' };

async function role(permissions: string[]): Promise<number> {
  const r = await t.req('POST', `${API}/api-roles`, { token: admin, body: { name: `Role ${uniq()}`, permissions } });
  assert.equal(r.status, 201, r.text);
  return r.body.id;
}

async function apiUser(roleId: number, extra: Record<string, unknown> = {}): Promise<{ id: number; username: string; apiKey: string }> {
  const username = uniq();
  const r = await t.req('POST', `${API}/api-users`, { token: admin, body: { username, roleId, ...extra } });
  assert.equal(r.status, 201, r.text);
  return { id: r.body.id, username, apiKey: r.body.apiKey };
}

const signIn = (username: string, apiKey: string) =>
  t.req('POST', `${API}/auth/token`, { body: { grant_type: 'api_user', username, api_key: apiKey } });

/** Waits into the next second: a token of the second a credential changed in stays valid. */
const nextSecond = () => new Promise((r) => setTimeout(r, 1000 - (Date.now() % 1000) + 10));

/** A staff user's token with a role of these permissions. */
async function staff(permissions: string[]): Promise<string> {
  const r = await t.req('POST', `${API}/admin-roles`, { token: admin, body: { name: `Staff ${uniq()}`, permissions } });
  assert.equal(r.status, 201, r.text);
  const username = uniq();
  const u = await t.req('POST', `${API}/admin-users`, {
    token: admin,
    body: { username, email: `${username}@example.com`, password: 'Secret123', roleId: r.body.id },
  });
  assert.equal(u.status, 201, u.text);
  const s = await t.req('POST', `${API}/auth/token`, { body: { grant_type: 'admin_user', username, password: 'Secret123' } });
  assert.equal(s.status, 200, s.text);
  return s.body.token;
}

describe('API roles', () => {
  test('install made Administrators with all; create, read, list, search, update, delete', async () => {
    const list = await t.req('GET', `${API}/api-roles`, { token: admin, headers: json });
    assert.equal(list.status, 200, list.text);
    const administrators = list.body.find((r: { name: string }) => r.name === 'Administrators');
    assert.deepEqual(administrators.permissions, ['all']);
    assert.ok(administrators.userCount >= 1, 'the demo API user');
    assert.ok(administrators.clientCount >= 1, 'the demo OAuth client');
    const created = await t.req('POST', `${API}/api-roles`, {
      token: admin,
      body: { name: ' ERP sync ', permissions: ['orders/read', 'products/all', 'orders/read'] },
    });
    assert.equal(created.status, 201, created.text);
    assert.equal(created.body.name, 'ERP sync');
    assert.deepEqual(created.body.permissions, ['orders/read', 'products/all']);
    assert.equal(created.body.userCount, 0);
    const id = created.body.id;
    assert.equal((await t.req('GET', `${API}/api-roles/${id}`, { token: admin })).body.name, 'ERP sync');
    const found = await t.req('GET', `${API}/api-roles?search=erp`, { token: admin });
    assert.deepEqual(
      found.body.member.map((r: { id: number }) => r.id),
      [id],
    );
    const upd = await t.req('PUT', `${API}/api-roles/${id}`, { token: admin, body: { name: 'ERP', permissions: ['orders/all'] } });
    assert.equal(upd.status, 200, upd.text);
    assert.equal(upd.body.name, 'ERP');
    assert.deepEqual(upd.body.permissions, ['orders/all']);
    assert.equal((await t.req('DELETE', `${API}/api-roles/${id}`, { token: admin })).status, 204);
    assert.equal((await t.req('GET', `${API}/api-roles/${id}`, { token: admin })).status, 404);
    assert.equal((await t.req('DELETE', `${API}/api-roles/${id}`, { token: admin })).status, 404);
  });

  test('a new permission of a role holds at the next request of its users', async () => {
    const roleId = await role(['orders/read']);
    const u = await apiUser(roleId);
    const token = (await signIn(u.username, u.apiKey)).body.token;
    assert.equal((await t.req('GET', `${API}/api-roles`, { token })).status, 403);
    assert.equal(
      (await t.req('PUT', `${API}/api-roles/${roleId}`, { token: admin, body: { permissions: ['admin-roles/read'] } })).status,
      200,
    );
    assert.equal((await t.req('GET', `${API}/api-roles`, { token })).status, 200);
  });

  test('unknown permissions 400, taken name 409, role in use 409; nothing changes', async () => {
    const before = await rows();
    const bad = await t.req('POST', `${API}/api-roles`, { token: admin, body: { name: 'X', permissions: ['orders/fly'] } });
    assert.equal(bad.status, 400);
    assert.match(bad.body.message, /orders\/fly/);
    assert.equal(bad.body.details.field, 'permissions');
    const taken = await t.req('POST', `${API}/api-roles`, { token: admin, body: { name: 'Administrators', permissions: [] } });
    assert.equal(taken.status, 409);
    assert.equal(taken.body.details.field, 'name');
    assert.equal((await t.req('POST', `${API}/api-roles`, { token: admin, body: { name: 'X' } })).status, 400);
    assert.equal((await t.req('POST', `${API}/api-roles`, { token: admin, body: { name: '   ', permissions: [] } })).status, 400);
    assert.equal((await t.req('POST', `${API}/api-roles`, { token: admin, body: { name: 5, permissions: [] } })).status, 400);
    assert.equal((await t.req('POST', `${API}/api-roles`, { token: admin, body: { name: 'X', permissions: 'all' } })).status, 400);
    const malformed = await t.req('POST', `${API}/api-roles`, {
      token: admin,
      raw: '{"name":',
      headers: { 'content-type': 'application/json' },
    });
    assert.equal(malformed.status, 400);
    assert.equal((await t.req('GET', `${API}/api-roles/abc`, { token: admin })).status, 400);
    assert.equal((await t.req('GET', `${API}/api-roles/0`, { token: admin })).status, 400);
    assert.equal((await t.req('PUT', `${API}/api-roles/999999`, { token: admin, body: { name: 'Nope' } })).status, 404);
    assert.deepEqual(await rows(), before);
    const id = await role(['orders/read']);
    await apiUser(id);
    const inUse = await t.req('DELETE', `${API}/api-roles/${id}`, { token: admin });
    assert.equal(inUse.status, 409, inUse.text);
    assert.equal((await t.req('GET', `${API}/api-roles/${id}`, { token: admin })).status, 200);
    assert.equal((await t.req('PUT', `${API}/api-roles/${id}`, { token: admin, body: { name: 'Administrators' } })).status, 409);
    assert.equal((await t.req('PUT', `${API}/api-roles/${id}`, { token: admin, body: { permissions: ['nope'] } })).status, 400);
  });

  test('access: anonymous 401, customer 403, without admin-roles 403, read is not write, with it 2xx', async () => {
    const customer = await t.tokens.customer();
    const apiWithout = await t.tokens.apiUser(['admin-users/all']);
    const apiRead = await t.tokens.apiUser(['admin-roles/read']);
    const staffRead = await staff(['admin-roles/read']);
    const staffAll = await staff(['admin-roles/all']);
    const target = await role([]);
    const calls: [string, string, unknown?][] = [
      ['GET', `${API}/api-roles`],
      ['GET', `${API}/api-roles/${target}`],
      ['POST', `${API}/api-roles`, { name: `New ${uniq()}`, permissions: ['orders/read'] }],
      ['PUT', `${API}/api-roles/${target}`, { permissions: ['orders/all'] }],
      ['DELETE', `${API}/api-roles/${target}`],
    ];
    for (const [method, url, body] of calls) {
      const what = `${method} ${url}`;
      assert.equal((await t.req(method, url, { body })).status, 401, what);
      assert.equal((await t.req(method, url, { token: customer, body })).status, 403, what);
      assert.equal((await t.req(method, url, { token: apiWithout, body })).status, 403, what);
      const reads = method === 'GET';
      assert.equal((await t.req(method, url, { token: apiRead, body })).status === 403, !reads, what);
      assert.equal((await t.req(method, url, { token: staffRead, body })).status === 403, !reads, what);
    }
    for (const [method, url, body] of calls) {
      const r = await t.req(method, url, { token: staffAll, body });
      assert.ok(r.status < 300, `${method} ${url}: ${r.status} ${r.text}`);
    }
  });
});

describe('API users', () => {
  test('create answers the key once, never a hash; the key signs in; get and list show no key', async () => {
    const roleId = await role(['orders/read']);
    const username = uniq();
    const r = await t.req('POST', `${API}/api-users`, {
      token: admin,
      body: { username, email: ' ERP@Example.com ', roleId, allowedStoreIds: [1, 1] },
    });
    assert.equal(r.status, 201, r.text);
    assert.equal(r.headers['cache-control'], 'no-store');
    assert.match(r.body.apiKey, /^[0-9a-f]{64}$/);
    assert.equal(r.body.email, 'erp@example.com');
    assert.deepEqual(r.body.allowedStoreIds, [1]);
    assert.equal(r.body.isActive, true);
    assert.equal(r.body.role.startsWith('Role '), true);
    for (const k of ['apiKeyHash', 'api_key_hash', 'hash']) assert.equal(k in r.body, false, k);
    const [stored] = await t.database.db.select({ hash: apiUsers.apiKeyHash }).from(apiUsers).where(eq(apiUsers.id, r.body.id));
    assert.notEqual(stored.hash, r.body.apiKey);
    assert.equal(stored.hash.includes(r.body.apiKey), false);

    const token = await signIn(username, r.body.apiKey);
    assert.equal(token.status, 200, token.text);
    assert.deepEqual(token.body.permissions, ['orders/read']);
    assert.equal((await t.req('GET', `${API}/orders`, { token: token.body.token })).status, 200);

    const got = await t.req('GET', `${API}/api-users/${r.body.id}`, { token: admin });
    assert.equal(got.status, 200, got.text);
    assert.equal('apiKey' in got.body, false);
    const listed = await t.req('GET', `${API}/api-users?search=${username}`, { token: admin, headers: json });
    assert.equal(listed.body.length, 1);
    assert.equal('apiKey' in listed.body[0], false);
    assert.equal(JSON.stringify(listed.body).includes(stored.hash), false);
  });

  test('list filters by role, active and search, and sorts', async () => {
    const roleId = await role(['orders/read']);
    const a = await apiUser(roleId, { email: 'zed@example.com' });
    const b = await apiUser(roleId, { email: 'amy@example.com', isActive: false });
    const byRole = await t.req('GET', `${API}/api-users?roleId=${roleId}`, { token: admin });
    assert.equal(byRole.status, 200, byRole.text);
    assert.equal(byRole.body.totalItems, 2);
    assert.deepEqual(
      byRole.body.member.map((u: { id: number }) => u.id),
      [a.id, b.id],
      'by user name',
    );
    const byEmail = await t.req('GET', `${API}/api-users?roleId=${roleId}&sortBy=email&sortDir=asc`, { token: admin });
    assert.deepEqual(
      byEmail.body.member.map((u: { id: number }) => u.id),
      [b.id, a.id],
    );
    const newest = await t.req('GET', `${API}/api-users?roleId=${roleId}&sortBy=createdAt&sortDir=desc`, { token: admin });
    assert.deepEqual(
      newest.body.member.map((u: { id: number }) => u.id),
      [b.id, a.id],
    );
    const inactive = await t.req('GET', `${API}/api-users?roleId=${roleId}&isActive=false`, { token: admin });
    assert.deepEqual(
      inactive.body.member.map((u: { id: number }) => u.id),
      [b.id],
    );
    const search = await t.req('GET', `${API}/api-users?search=ZED@`, { token: admin });
    assert.deepEqual(
      search.body.member.map((u: { id: number }) => u.id),
      [a.id],
    );
    const paged = await t.req('GET', `${API}/api-users?roleId=${roleId}&itemsPerPage=1&page=2`, { token: admin });
    assert.deepEqual(
      paged.body.member.map((u: { id: number }) => u.id),
      [b.id],
    );
  });

  test('update: deactivating ends the sign-in and the tokens; a new role applies at once; email removable', async () => {
    const roleId = await role(['orders/read']);
    const u = await apiUser(roleId, { email: 'x@example.com' });
    const token = (await signIn(u.username, u.apiKey)).body.token;
    const other = await role(['admin-roles/read']);
    const moved = await t.req('PUT', `${API}/api-users/${u.id}`, { token: admin, body: { roleId: other, email: null } });
    assert.equal(moved.status, 200, moved.text);
    assert.equal(moved.body.roleId, other);
    assert.equal('email' in moved.body, false);
    assert.equal((await t.req('GET', `${API}/orders`, { token })).status, 403);
    assert.equal((await t.req('GET', `${API}/api-roles`, { token })).status, 200);
    const off = await t.req('PUT', `${API}/api-users/${u.id}`, { token: admin, body: { isActive: false } });
    assert.equal(off.status, 200, off.text);
    assert.equal(off.body.isActive, false);
    assert.equal((await t.req('GET', `${API}/api-roles`, { token })).status, 401);
    assert.equal((await signIn(u.username, u.apiKey)).status, 401);
    assert.equal((await t.req('PUT', `${API}/api-users/${u.id}`, { token: admin, body: { isActive: true } })).status, 200);
    assert.equal((await signIn(u.username, u.apiKey)).status, 200);
  });

  test('a key reset answers a new key once; the old key and its tokens stop working', async () => {
    const u = await apiUser(await role(['orders/read']));
    const old = (await signIn(u.username, u.apiKey)).body.token;
    await nextSecond();
    const r = await t.req('POST', `${API}/api-users/${u.id}/key`, { token: admin, body: {} });
    assert.equal(r.status, 200, r.text);
    assert.equal(r.headers['cache-control'], 'no-store');
    assert.match(r.body.apiKey, /^[0-9a-f]{64}$/);
    assert.notEqual(r.body.apiKey, u.apiKey);
    assert.equal((await t.req('GET', `${API}/orders`, { token: old })).status, 401);
    assert.equal((await signIn(u.username, u.apiKey)).status, 401);
    assert.equal((await signIn(u.username, r.body.apiKey)).status, 200);
    assert.equal((await t.req('POST', `${API}/api-users/999999/key`, { token: admin, body: {} })).status, 404);
  });

  test('delete: its tokens end, the name is free again', async () => {
    const u = await apiUser(await role(['orders/read']));
    const token = (await signIn(u.username, u.apiKey)).body.token;
    assert.equal((await t.req('DELETE', `${API}/api-users/${u.id}`, { token: admin })).status, 204);
    assert.equal((await t.req('GET', `${API}/orders`, { token })).status, 401);
    assert.equal((await t.req('GET', `${API}/api-users/${u.id}`, { token: admin })).status, 404);
    assert.equal((await t.req('DELETE', `${API}/api-users/${u.id}`, { token: admin })).status, 404);
    const again = await t.req('POST', `${API}/api-users`, { token: admin, body: { username: u.username, roleId: await role([]) } });
    assert.equal(again.status, 201, again.text);
  });

  test('nobody deletes or deactivates the API user they are signed in as (409)', async () => {
    const u = await apiUser(await role(['admin-users/all']));
    const token = (await signIn(u.username, u.apiKey)).body.token;
    assert.equal((await t.req('DELETE', `${API}/api-users/${u.id}`, { token })).status, 409);
    assert.equal((await t.req('PUT', `${API}/api-users/${u.id}`, { token, body: { isActive: false } })).status, 409);
    assert.equal((await t.req('GET', `${API}/api-users/${u.id}`, { token })).body.isActive, true);
  });

  test('bad input: 400 or 409 at the field, 404 for a missing user; nothing changes', async () => {
    const roleId = await role(['orders/read']);
    const u = await apiUser(roleId);
    const before = await rows();
    const post = (body: unknown) => t.req('POST', `${API}/api-users`, { token: admin, body });
    const base = { username: uniq(), roleId };
    const taken = await post({ ...base, username: u.username });
    assert.equal(taken.status, 409);
    assert.equal(taken.body.details.field, 'username');
    const unknownRole = await post({ ...base, roleId: 999999 });
    assert.equal(unknownRole.status, 400);
    assert.equal(unknownRole.body.details.field, 'roleId');
    const unknownStore = await post({ ...base, allowedStoreIds: [999] });
    assert.equal(unknownStore.status, 400);
    assert.equal(unknownStore.body.details.field, 'allowedStoreIds');
    const email = await post({ ...base, email: 'not-an-email' });
    assert.equal(email.status, 400);
    assert.equal(email.body.details.field, 'email');
    for (const body of [
      { ...base, username: 'has space' },
      { ...base, username: 'x' },
      { ...base, roleId: 'x' },
      { ...base, allowedStoreIds: [] },
      { username: uniq() },
      { ...base, isActive: 'yes' },
    ]) {
      assert.equal((await post(body)).status, 400, JSON.stringify(body));
    }
    const malformed = await t.req('POST', `${API}/api-users`, {
      token: admin,
      raw: '{"username":',
      headers: { 'content-type': 'application/json' },
    });
    assert.equal(malformed.status, 400);
    assert.equal((await t.req('PUT', `${API}/api-users/999999`, { token: admin, body: { email: 'a@b.co' } })).status, 404);
    assert.equal((await t.req('PUT', `${API}/api-users/${u.id}`, { token: admin, body: { roleId: 999999 } })).status, 400);
    assert.equal((await t.req('GET', `${API}/api-users?isActive=maybe`, { token: admin })).status, 400);
    assert.equal((await t.req('GET', `${API}/api-users?sortBy=apiKeyHash`, { token: admin })).status, 400);
    assert.equal((await t.req('GET', `${API}/api-users/abc`, { token: admin })).status, 400);
    assert.deepEqual(await rows(), before);
    const [still] = await t.database.db.select({ roleId: apiUsers.roleId }).from(apiUsers).where(eq(apiUsers.id, u.id));
    assert.equal(still.roleId, roleId);
  });

  test('access for every user operation; a token limited to store views reads but never writes', async () => {
    const customer = await t.tokens.customer();
    const apiWithout = await t.tokens.apiUser(['admin-roles/all']);
    const apiRead = await t.tokens.apiUser(['admin-users/read']);
    const staffRead = await staff(['admin-users/read']);
    const staffAll = await staff(['admin-users/all']);
    const scoped = await t.tokens.apiUser(['all'], { allowedStoreIds: [1] });
    const roleId = await role([]);
    const target = await apiUser(roleId);
    const calls: [string, string, unknown?][] = [
      ['GET', `${API}/api-users`],
      ['GET', `${API}/api-users/${target.id}`],
      ['POST', `${API}/api-users`, { username: uniq(), roleId }],
      ['PUT', `${API}/api-users/${target.id}`, { email: 'new@example.com' }],
      ['POST', `${API}/api-users/${target.id}/key`, {}],
      ['DELETE', `${API}/api-users/${target.id}`],
    ];
    for (const [method, url, body] of calls) {
      const what = `${method} ${url}`;
      assert.equal((await t.req(method, url, { body })).status, 401, what);
      assert.equal((await t.req(method, url, { token: customer, body })).status, 403, what);
      assert.equal((await t.req(method, url, { token: apiWithout, body })).status, 403, what);
      const reads = method === 'GET';
      assert.equal((await t.req(method, url, { token: apiRead, body })).status === 403, !reads, what);
      assert.equal((await t.req(method, url, { token: staffRead, body })).status === 403, !reads, what);
      assert.equal((await t.req(method, url, { token: scoped, body })).status === 403, !reads, `${what} (store-limited)`);
    }
    const [kept] = await t.database.db.select({ hash: apiUsers.apiKeyHash }).from(apiUsers).where(eq(apiUsers.id, target.id));
    assert.equal((await signIn(target.username, target.apiKey)).status, 200, 'the refused key reset changed nothing');
    assert.ok(kept.hash);
    for (const [method, url, body] of calls) {
      const r = await t.req(method, url, { token: staffAll, body });
      assert.ok(r.status < 300, `${method} ${url}: ${r.status} ${r.text}`);
    }
  });
});

describe('GraphQL', () => {
  test('apiUsers, apiRoles, createApiUser with its key and resetApiUserKey', async () => {
    const roleId = await role(['orders/read']);
    const username = uniq();
    const created = await t.gql(
      `mutation($input: createApiUserInput!) { createApiUser(input: $input) { apiUser { id username role apiKey } } }`,
      admin,
      { input: { username, roleId } },
    );
    assert.equal(created.errors, undefined, JSON.stringify(created.errors));
    const user = created.data.createApiUser.apiUser;
    assert.match(user.apiKey, /^[0-9a-f]{64}$/);
    assert.equal((await signIn(username, user.apiKey)).status, 200);
    const listed = await t.gql('{ apiUsers { totalCount edges { node { username apiKey } } } apiRoles { totalCount } }', admin);
    assert.equal(listed.errors, undefined, JSON.stringify(listed.errors));
    const node = listed.data.apiUsers.edges.find((e: { node: { username: string } }) => e.node.username === username).node;
    assert.equal(node.apiKey, null);
    assert.ok(listed.data.apiRoles.totalCount >= 2);
    const reset = await t.gql('mutation($id: ID!) { resetApiUserKey(input: { id: $id }) { apiUser { apiKey } } }', admin, { id: user.id });
    assert.equal(reset.errors, undefined, JSON.stringify(reset.errors));
    assert.notEqual(reset.data.resetApiUserKey.apiUser.apiKey, user.apiKey);
    const denied = await t.gql('{ apiUsers { totalCount } }', await t.tokens.apiUser(['orders/read']));
    assert.ok(denied.errors?.length);
  });
});
