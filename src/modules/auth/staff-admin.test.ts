/**
 * Staff roles and users managed over HTTP: the answers (never a hash or a secret), the rules (permissions,
 * password strength, unique names and emails, a role in use, nobody deletes or deactivates themselves), access
 * for every kind of caller, bad input as 4xx that changes nothing, the own account, and the GraphQL fields.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { count } from 'drizzle-orm';
import { API, buildTestApp, type TestApp } from '../../../test/helpers.js';
import { adminRoles, adminUsers } from './tables.js';

let t: TestApp;
let admin: string;
before(async () => {
  t = await buildTestApp();
  const r = await t.req('POST', `${API}/auth/token`, { body: { grant_type: 'admin_user', username: 'admin', password: 'Admin123!' } });
  assert.equal(r.status, 200, r.text);
  admin = r.body.token;
});
after(() => t.close());

const rows = async () => ({
  roles: Number((await t.database.db.select({ n: count() }).from(adminRoles))[0].n),
  users: Number((await t.database.db.select({ n: count() }).from(adminUsers))[0].n),
});

let seq = 0;
const uniq = () => `u${++seq}x${Date.now() % 100000}`;

async function role(permissions: string[]): Promise<number> {
  const r = await t.req('POST', `${API}/admin-roles`, { token: admin, body: { name: `Role ${uniq()}`, permissions } });
  assert.equal(r.status, 201, r.text);
  return r.body.id;
}

async function user(roleId: number, password = 'Secret123'): Promise<{ id: number; username: string; token: string }> {
  const username = uniq();
  const r = await t.req('POST', `${API}/admin-users`, {
    token: admin,
    body: { username, email: `${username}@Example.com`, password, roleId, firstName: 'Ann', lastName: 'Staff' },
  });
  assert.equal(r.status, 201, r.text);
  const s = await t.req('POST', `${API}/auth/token`, { body: { grant_type: 'admin_user', username, password } });
  assert.equal(s.status, 200, s.text);
  return { id: r.body.id, username, token: s.body.token };
}

describe('admin roles', () => {
  test('install made Administrators with all; create, read, list, update, delete', async () => {
    const list = await t.req('GET', `${API}/admin-roles`, { token: admin, headers: { accept: 'application/json' } });
    assert.equal(list.status, 200, list.text);
    const administrators = list.body.find((r: { name: string }) => r.name === 'Administrators');
    assert.deepEqual(administrators.permissions, ['all']);
    assert.ok(administrators.userCount >= 1);
    const created = await t.req('POST', `${API}/admin-roles`, {
      token: admin,
      body: { name: 'Support', permissions: ['orders/read', 'customers/all', 'orders/read'] },
    });
    assert.equal(created.status, 201, created.text);
    assert.deepEqual(created.body.permissions, ['orders/read', 'customers/all']);
    assert.equal(created.body.userCount, 0);
    const id = created.body.id;
    assert.equal((await t.req('GET', `${API}/admin-roles/${id}`, { token: admin })).body.name, 'Support');
    const upd = await t.req('PUT', `${API}/admin-roles/${id}`, {
      token: admin,
      body: { name: 'Support desk', permissions: ['orders/all'] },
    });
    assert.equal(upd.status, 200, upd.text);
    assert.equal(upd.body.name, 'Support desk');
    assert.equal((await t.req('DELETE', `${API}/admin-roles/${id}`, { token: admin })).status, 204);
    assert.equal((await t.req('GET', `${API}/admin-roles/${id}`, { token: admin })).status, 404);
    assert.equal((await t.req('DELETE', `${API}/admin-roles/${id}`, { token: admin })).status, 404);
  });

  test('unknown permissions 400, taken name 409, role in use 409; nothing changes', async () => {
    const before = await rows();
    const bad = await t.req('POST', `${API}/admin-roles`, { token: admin, body: { name: 'X', permissions: ['orders/fly'] } });
    assert.equal(bad.status, 400);
    assert.match(bad.body.message, /orders\/fly/);
    assert.equal(
      (await t.req('POST', `${API}/admin-roles`, { token: admin, body: { name: 'Administrators', permissions: [] } })).status,
      409,
    );
    assert.equal((await t.req('POST', `${API}/admin-roles`, { token: admin, body: { name: 'X' } })).status, 400);
    assert.equal((await t.req('POST', `${API}/admin-roles`, { token: admin, body: { name: '', permissions: [] } })).status, 400);
    assert.equal((await t.req('POST', `${API}/admin-roles`, { token: admin, body: { name: 5, permissions: [] } })).status, 400);
    assert.equal(
      (await t.req('POST', `${API}/admin-roles`, { token: admin, raw: '{"name":', headers: { 'content-type': 'application/json' } }))
        .status,
      400,
    );
    assert.equal((await t.req('GET', `${API}/admin-roles/abc`, { token: admin })).status, 400);
    assert.deepEqual(await rows(), before);
    const id = await role(['orders/read']);
    await user(id);
    const inUse = await t.req('DELETE', `${API}/admin-roles/${id}`, { token: admin });
    assert.equal(inUse.status, 409, inUse.text);
    assert.equal((await t.req('PUT', `${API}/admin-roles/${id}`, { token: admin, body: { name: 'Administrators' } })).status, 409);
    assert.equal((await t.req('PUT', `${API}/admin-roles/${id}`, { token: admin, body: { permissions: ['nope'] } })).status, 400);
  });

  test('access: anonymous 401, customer 403, API user or staff without admin-roles 403, with it 200', async () => {
    const customer = await t.tokens.customer();
    const apiWithout = await t.tokens.apiUser(['orders/read']);
    const apiWith = await t.tokens.apiUser(['admin-roles/read']);
    const staffWithout = (await user(await role(['orders/read']))).token;
    const staffWith = (await user(await role(['admin-roles/read']))).token;
    const url = `${API}/admin-roles`;
    assert.equal((await t.req('GET', url)).status, 401);
    assert.equal((await t.req('GET', url, { token: customer })).status, 403);
    assert.equal((await t.req('GET', url, { token: apiWithout })).status, 403);
    assert.equal((await t.req('GET', url, { token: staffWithout })).status, 403);
    assert.equal((await t.req('GET', url, { token: apiWith })).status, 200);
    assert.equal((await t.req('GET', url, { token: staffWith })).status, 200);
    // read is not write
    assert.equal((await t.req('POST', url, { token: staffWith, body: { name: 'Nope', permissions: [] } })).status, 403);
    assert.equal((await t.req('POST', url, { token: apiWith, body: { name: 'Nope', permissions: [] } })).status, 403);
  });
});

describe('admin users', () => {
  test('create answers no hash or secret; email lower-cased; list filters; get; update; delete', async () => {
    const roleId = await role(['orders/read']);
    const u = await user(roleId);
    const got = await t.req('GET', `${API}/admin-users/${u.id}`, { token: admin });
    assert.equal(got.status, 200, got.text);
    assert.equal(got.body.email, `${u.username}@example.com`);
    assert.equal(got.body.role.startsWith('Role '), true);
    assert.equal(got.body.twofaEnabled, false);
    assert.equal(got.body.passkeys, 0);
    assert.equal(got.body.loginCount, 1);
    for (const k of ['passwordHash', 'password', 'twofaSecret', 'resetTokenHash']) assert.equal(k in got.body, false, k);
    const byName = await t.req('GET', `${API}/admin-users?username=${u.username}`, {
      token: admin,
      headers: { accept: 'application/json' },
    });
    assert.deepEqual(
      byName.body.map((x: { id: number }) => x.id),
      [u.id],
    );
    const byRole = await t.req('GET', `${API}/admin-users?roleId=${roleId}&isActive=true`, { token: admin });
    assert.equal(byRole.body.totalItems, 1);
    const bySearch = await t.req('GET', `${API}/admin-users?search=${u.username.slice(0, 5)}`, { token: admin });
    assert.ok(bySearch.body.totalItems >= 1);
    const upd = await t.req('PUT', `${API}/admin-users/${u.id}`, { token: admin, body: { firstName: 'Bea', locale: 'de_DE' } });
    assert.equal(upd.status, 200, upd.text);
    assert.equal(upd.body.firstName, 'Bea');
    assert.equal(upd.body.locale, 'de_DE');
    assert.equal((await t.req('DELETE', `${API}/admin-users/${u.id}`, { token: admin })).status, 204);
    assert.equal((await t.req('GET', `${API}/admin-users/${u.id}`, { token: admin })).status, 404);
  });

  test('the list sorts by user name, email, last sign-in or creation, either way; an unknown sort is 400', async () => {
    const roleId = await role(['orders/read']);
    const a = await user(roleId);
    const b = await user(roleId);
    // b signs in again later: its last sign-in is the newer
    await new Promise((r) => setTimeout(r, 1000 - (Date.now() % 1000) + 10));
    assert.equal(
      (await t.req('POST', `${API}/auth/token`, { body: { grant_type: 'admin_user', username: b.username, password: 'Secret123' } }))
        .status,
      200,
    );
    const ids = async (query: string) => {
      const r = await t.req('GET', `${API}/admin-users?roleId=${roleId}&${query}`, { token: admin });
      assert.equal(r.status, 200, r.text);
      return r.body.member.map((u: { id: number }) => u.id);
    };
    const byName = [a, b].sort((x, y) => (x.username < y.username ? -1 : 1)).map((u) => u.id);
    assert.deepEqual(await ids(''), byName);
    assert.deepEqual(await ids('sortBy=username&sortDir=desc'), [...byName].reverse());
    assert.deepEqual(await ids('sortBy=email&sortDir=asc'), byName);
    assert.deepEqual(await ids('sortBy=lastLoginAt&sortDir=desc'), [b.id, a.id]);
    assert.deepEqual(await ids('sortBy=createdAt&sortDir=desc'), [b.id, a.id]);
    assert.equal((await t.req('GET', `${API}/admin-users?sortBy=passwordHash`, { token: admin })).status, 400);
    assert.equal((await t.req('GET', `${API}/admin-users?sortDir=up`, { token: admin })).status, 400);
  });

  test('weak passwords 400; taken user name or email 409; unknown role or store 400; nothing changes', async () => {
    const roleId = await role(['orders/read']);
    const u = await user(roleId);
    const before = await rows();
    const base = { username: uniq(), email: `${uniq()}@example.com`, password: 'Secret123', roleId };
    for (const password of ['short1', 'lettersonly', '1234567890']) {
      const r = await t.req('POST', `${API}/admin-users`, { token: admin, body: { ...base, password } });
      assert.equal(r.status, 400, `${password}: ${r.text}`);
      assert.equal(r.body.details.field, 'password');
    }
    assert.equal((await t.req('POST', `${API}/admin-users`, { token: admin, body: { ...base, username: u.username } })).status, 409);
    const email = await t.req('POST', `${API}/admin-users`, {
      token: admin,
      body: { ...base, email: `${u.username.toUpperCase()}@example.com` },
    });
    assert.equal(email.status, 409, email.text);
    assert.equal((await t.req('POST', `${API}/admin-users`, { token: admin, body: { ...base, roleId: 999999 } })).status, 400);
    assert.equal((await t.req('POST', `${API}/admin-users`, { token: admin, body: { ...base, allowedStoreIds: [999] } })).status, 400);
    assert.equal((await t.req('POST', `${API}/admin-users`, { token: admin, body: { ...base, email: 'not-an-email' } })).status, 400);
    assert.equal((await t.req('POST', `${API}/admin-users`, { token: admin, body: { ...base, username: 'has space' } })).status, 400);
    assert.equal((await t.req('POST', `${API}/admin-users`, { token: admin, body: { ...base, roleId: 'x' } })).status, 400);
    assert.equal((await t.req('PUT', `${API}/admin-users/${u.id}`, { token: admin, body: { password: 'weak' } })).status, 400);
    assert.equal((await t.req('PUT', `${API}/admin-users/999999`, { token: admin, body: { firstName: 'x' } })).status, 404);
    assert.equal((await t.req('GET', `${API}/admin-users?isActive=maybe`, { token: admin })).status, 400);
    assert.deepEqual(await rows(), before);
  });

  test('nobody deletes or deactivates themselves (409); an admin password change ends the user token', async () => {
    const me = await t.req('GET', `${API}/admin-users/me`, { token: admin });
    assert.equal((await t.req('DELETE', `${API}/admin-users/${me.body.id}`, { token: admin })).status, 409);
    assert.equal((await t.req('PUT', `${API}/admin-users/${me.body.id}`, { token: admin, body: { isActive: false } })).status, 409);
    const u = await user(await role(['orders/read']));
    await new Promise((r) => setTimeout(r, 1000 - (Date.now() % 1000) + 10));
    assert.equal((await t.req('PUT', `${API}/admin-users/${u.id}`, { token: admin, body: { password: 'Another123' } })).status, 200);
    assert.equal((await t.req('GET', `${API}/admin-users/me`, { token: u.token })).status, 401);
  });

  test('access for every user operation', async () => {
    const customer = await t.tokens.customer();
    const apiRead = await t.tokens.apiUser(['admin-users/read']);
    const staffRead = (await user(await role(['admin-users/read']))).token;
    const staffAll = (await user(await role(['admin-users/all']))).token;
    const target = await user(await role(['orders/read']));
    const body = { username: uniq(), email: `${uniq()}@example.com`, password: 'Secret123', roleId: await role([]) };
    const calls: [string, string, unknown?][] = [
      ['GET', `${API}/admin-users`],
      ['GET', `${API}/admin-users/${target.id}`],
      ['POST', `${API}/admin-users`, body],
      ['PUT', `${API}/admin-users/${target.id}`, { firstName: 'Z' }],
      ['POST', `${API}/admin-users/${target.id}/password-reset`, {}],
      ['DELETE', `${API}/admin-users/${target.id}`],
    ];
    for (const [method, url, b] of calls) {
      assert.equal((await t.req(method, url, { body: b })).status, 401, `${method} ${url}`);
      assert.equal((await t.req(method, url, { token: customer, body: b })).status, 403, `${method} ${url}`);
      const reads = method === 'GET';
      assert.equal((await t.req(method, url, { token: apiRead, body: b })).status === 403, !reads, `${method} ${url}`);
      assert.equal((await t.req(method, url, { token: staffRead, body: b })).status === 403, !reads, `${method} ${url}`);
    }
    for (const [method, url, b] of calls) {
      const r = await t.req(method, url, { token: staffAll, body: b });
      assert.ok(r.status < 300, `${method} ${url}: ${r.status} ${r.text}`);
    }
  });
});

describe('own account', () => {
  test('GET/PUT /admin-users/me: names and locale freely; email and password need the current password', async () => {
    const u = await user(await role(['orders/read']));
    const me = await t.req('GET', `${API}/admin-users/me`, { token: u.token });
    assert.equal(me.body.id, u.id);
    const names = await t.req('PUT', `${API}/admin-users/me`, { token: u.token, body: { firstName: 'New', locale: 'fr_FR' } });
    assert.equal(names.status, 200, names.text);
    assert.equal(names.body.locale, 'fr_FR');
    const noCurrent = await t.req('PUT', `${API}/admin-users/me`, { token: u.token, body: { password: 'Brandnew123' } });
    assert.equal(noCurrent.status, 400);
    const wrong = await t.req('PUT', `${API}/admin-users/me`, {
      token: u.token,
      body: { password: 'Brandnew123', currentPassword: 'nope' },
    });
    assert.equal(wrong.status, 400);
    assert.equal(wrong.body.details.field, 'currentPassword');
    const weak = await t.req('PUT', `${API}/admin-users/me`, { token: u.token, body: { password: 'weak', currentPassword: 'Secret123' } });
    assert.equal(weak.status, 400);
    assert.equal((await t.req('PUT', `${API}/admin-users/me`, { token: u.token, body: { locale: 'english' } })).status, 400);
    await new Promise((r) => setTimeout(r, 1000 - (Date.now() % 1000) + 10));
    const ok = await t.req('PUT', `${API}/admin-users/me`, {
      token: u.token,
      body: { password: 'Brandnew123', currentPassword: 'Secret123' },
    });
    assert.equal(ok.status, 200, ok.text);
    const signIn = (password: string) =>
      t.req('POST', `${API}/auth/token`, { body: { grant_type: 'admin_user', username: u.username, password } });
    assert.equal((await signIn('Secret123')).status, 401);
    assert.equal((await signIn('Brandnew123')).status, 200);
    assert.equal((await t.req('GET', `${API}/admin-users/me`, { token: u.token })).status, 401, 'the old token ended');
  });

  test('the own account is for staff tokens: anonymous 401, customer 403, API user 403', async () => {
    assert.equal((await t.req('GET', `${API}/admin-users/me`)).status, 401);
    assert.equal((await t.req('GET', `${API}/admin-users/me`, { token: await t.tokens.customer() })).status, 403);
    assert.equal((await t.req('GET', `${API}/admin-users/me`, { token: await t.tokens.admin() })).status, 403);
    assert.equal((await t.req('PUT', `${API}/admin-users/me`, { token: await t.tokens.admin(), body: { firstName: 'x' } })).status, 403);
  });
});

describe('GraphQL', () => {
  test('adminUsers, adminRole and myAdminAccount', async () => {
    const r = await t.gql('{ adminUsers { totalCount edges { node { username role } } } myAdminAccount { username role } }', admin);
    assert.equal(r.errors, undefined, JSON.stringify(r.errors));
    assert.equal(r.data.myAdminAccount.username, 'admin');
    assert.ok(r.data.adminUsers.edges.some((e: { node: { username: string } }) => e.node.username === 'admin'));
    const denied = await t.gql('{ adminRoles { totalCount } }', await t.tokens.apiUser(['orders/read']));
    assert.ok(denied.errors?.length);
  });
});
