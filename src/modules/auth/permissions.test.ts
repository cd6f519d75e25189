/**
 * The permission model: `authorize` as a unit, then through the request hook (real tokens, permissions and store
 * scope re-read from the database) on probe routes that declare the access rules modules use.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { Actor } from '../../platform/context.js';
import { AppError } from '../../platform/errors.js';
import { access, authorize, hasPermission, isValidPermission, type Access } from '../../platform/auth/access.js';
import { API, buildTestApp, type TestApp } from '../../../test/helpers.js';
import { createApiUser, createOauthClient, createRole, setRolePermissions } from './service.js';

const anonymous: Actor = { kind: 'anonymous' };
const customer: Actor = { kind: 'customer', customerId: 1, email: 'c@example.com', jti: 'j', exp: 0 };
const admin = (permissions: string[], allowedStoreIds?: number[]): Actor => ({
  kind: 'admin',
  principal: 'api_user',
  id: 1,
  username: 'u',
  permissions,
  allowedStoreIds,
  jti: 'j',
  exp: 0,
});

function outcome(actor: Actor, rule: Access): string {
  try {
    authorize(actor, rule);
    return 'ok';
  } catch (err) {
    assert.ok(err instanceof AppError);
    return `${err.status} ${err.error}`;
  }
}

describe('authorize (unit)', () => {
  test('public and order-token routes let everyone in', () => {
    for (const a of [anonymous, customer, admin([])]) {
      assert.equal(outcome(a, access.public), 'ok');
      assert.equal(outcome(a, access.orderToken), 'ok');
    }
  });

  test('authenticated: any identity, anonymous is 401 unauthorized', () => {
    assert.equal(outcome(anonymous, access.authenticated), '401 unauthorized');
    assert.equal(outcome(customer, access.authenticated), 'ok');
    assert.equal(outcome(admin([]), access.authenticated), 'ok');
  });

  test('customer: a customer identity; API tokens are 403', () => {
    assert.equal(outcome(anonymous, access.customer), '401 unauthorized');
    assert.equal(outcome(customer, access.customer), 'ok');
    assert.equal(outcome(admin(['all']), access.customer), '403 forbidden');
  });

  test('admin: the permission is needed; a customer is 403, anonymous 401', () => {
    const rule = access.admin('customer-groups', 'create');
    assert.equal(outcome(anonymous, rule), '401 unauthorized');
    assert.equal(outcome(customer, rule), '403 forbidden');
    assert.equal(outcome(admin(['customers/read']), rule), '403 forbidden');
    assert.equal(outcome(admin(['customer-groups/create']), rule), 'ok');
    assert.equal(outcome(admin(['all']), rule), 'ok');
  });

  test('customerOrAdmin: any customer; an API principal with the permission', () => {
    const rule = access.customerOrAdmin('carts', 'read');
    assert.equal(outcome(anonymous, rule), '401 unauthorized');
    assert.equal(outcome(customer, rule), 'ok');
    assert.equal(outcome(admin(['orders/read']), rule), '403 forbidden');
    assert.equal(outcome(admin(['carts/read']), rule), 'ok');
  });

  test('a role with only customers/read can read customers but not create customer groups', () => {
    const role = ['customers/read'];
    assert.equal(outcome(admin(role), access.admin('customers', 'read')), 'ok');
    assert.equal(outcome(admin(role), access.admin('customers', 'write')), '403 forbidden');
    assert.equal(outcome(admin(role), access.admin('customer-groups', 'create')), '403 forbidden');
    assert.equal(outcome(admin(role), access.admin('customer-groups', 'read')), '403 forbidden');
  });

  test('write implies create, not delete nor read', () => {
    const p = ['cms-pages/write'];
    assert.equal(hasPermission(p, 'cms-pages', 'write'), true);
    assert.equal(hasPermission(p, 'cms-pages', 'create'), true);
    assert.equal(hasPermission(p, 'cms-pages', 'delete'), false);
    assert.equal(hasPermission(p, 'cms-pages', 'read'), false);
    assert.equal(hasPermission(p, 'cms-blocks', 'create'), false);
  });

  test('<resource>/all grants every operation of that resource only; all grants everything', () => {
    for (const op of ['read', 'write', 'create', 'delete'] as const) {
      assert.equal(hasPermission(['orders/all'], 'orders', op), true);
      assert.equal(hasPermission(['orders/all'], 'invoices', op), false);
      assert.equal(hasPermission(['all'], 'invoices', op), true);
    }
    assert.equal(hasPermission([], 'orders', 'read'), false);
  });

  test('create does not imply write, and delete implies nothing else', () => {
    assert.equal(hasPermission(['coupons/create'], 'coupons', 'write'), false);
    assert.equal(hasPermission(['coupons/delete'], 'coupons', 'read'), false);
    assert.equal(hasPermission(['coupons/delete'], 'coupons', 'write'), false);
  });

  test('valid permission strings', () => {
    for (const p of ['all', 'products/read', 'customer-groups/write', 'tax-rules/all', 'credit-memos/delete', 'stores/read']) {
      assert.equal(isValidPermission(p), true, p);
    }
    for (const p of ['', 'ALL', 'products', 'products/', 'products/update', 'nothing/read', 'products/read/x', '/read', 'all/read']) {
      assert.equal(isValidPermission(p), false, p);
    }
  });
});

describe('permissions through the request hook', () => {
  let t: TestApp;
  const probes: [string, Access][] = [
    ['customers-read', access.admin('customers', 'read')],
    ['customer-groups-create', access.admin('customer-groups', 'create')],
    ['cms-pages-create', access.admin('cms-pages', 'create')],
    ['cms-pages-delete', access.admin('cms-pages', 'delete')],
    ['customer-only', access.customer],
    ['carts-read', access.customerOrAdmin('carts', 'read')],
  ];
  const login = async (username: string, apiKey: string) => {
    const r = await t.req('POST', `${API}/auth/token`, { body: { grant_type: 'api_user', username, api_key: apiKey } });
    assert.equal(r.status, 200, r.text);
    return r.body.token as string;
  };
  const probe = (name: string, token?: string, query?: Record<string, string>) =>
    t.req('GET', `${API}/test-probe/${name}`, { token, query });

  before(async () => {
    t = await buildTestApp();
    // probe routes declare the same rules as module routes and go through the same hook
    for (const [name, rule] of probes) {
      t.app.get(`${API}/test-probe/${name}`, { schema: { operationId: `probe.${name}` }, config: { access: rule } }, async (req) => ({
        actor: req.ctx.actor.kind,
        store: req.ctx.store.storeCode,
      }));
    }
    const db = t.database.db;
    await createRole(db, 'Customer readers', ['customers/read']);
    await createRole(db, 'CMS writers', ['cms-pages/write']);
    await createRole(db, 'CMS all', ['cms-pages/all']);
    await createApiUser(db, { username: 'reader', apiKey: 'reader-key-1', role: 'Customer readers' });
    await createApiUser(db, { username: 'writer', apiKey: 'writer-key-1', role: 'CMS writers' });
    await createApiUser(db, { username: 'cms-all', apiKey: 'cms-all-key-1', role: 'CMS all' });
    await createApiUser(db, { username: 'default-only', apiKey: 'default-only-key', role: 'Administrators', allowedStoreIds: [1] });
    await createOauthClient(db, {
      clientId: 'german-client',
      secret: 'german-client-secret',
      role: 'Customer readers',
      allowedStoreIds: [2],
    });
  });
  after(() => t.close());

  test('a role with only customers/read reads customers and gets 403 creating customer groups', async () => {
    const tok = await login('reader', 'reader-key-1');
    const ok = await probe('customers-read', tok);
    assert.equal(ok.status, 200, ok.text);
    assert.equal(ok.body.actor, 'admin');
    const denied = await probe('customer-groups-create', tok);
    assert.equal(denied.status, 403);
    assert.equal(denied.body.error, 'forbidden');
    assert.equal(denied.body.code, 403);
    assert.match(denied.body.message, /customer-groups\/create/);
  });

  test('write implies create but not delete', async () => {
    const tok = await login('writer', 'writer-key-1');
    assert.equal((await probe('cms-pages-create', tok)).status, 200);
    assert.equal((await probe('cms-pages-delete', tok)).status, 403);
  });

  test('<resource>/all grants create and delete of that resource only', async () => {
    const tok = await login('cms-all', 'cms-all-key-1');
    assert.equal((await probe('cms-pages-create', tok)).status, 200);
    assert.equal((await probe('cms-pages-delete', tok)).status, 200);
    assert.equal((await probe('customers-read', tok)).status, 403);
  });

  test('all grants everything; API tokens are 403 on customer-only routes', async () => {
    const tok = await t.tokens.admin();
    for (const name of ['customers-read', 'customer-groups-create', 'cms-pages-delete', 'carts-read']) {
      assert.equal((await probe(name, tok)).status, 200, name);
    }
    const r = await probe('customer-only', tok);
    assert.equal(r.status, 403);
    assert.equal(r.body.message, 'Customer identity required');
  });

  test('a customer is 403 on admin routes and allowed on customer routes', async () => {
    const tok = await t.tokens.customer();
    assert.equal((await probe('customers-read', tok)).status, 403);
    assert.equal((await probe('customer-only', tok)).status, 200);
    assert.equal((await probe('carts-read', tok)).status, 200);
  });

  test('no credentials on a protected route is 401 unauthorized with WWW-Authenticate', async () => {
    for (const [name] of probes) {
      const r = await probe(name);
      assert.equal(r.status, 401, name);
      assert.equal(r.body.error, 'unauthorized');
      assert.equal(r.body.message, 'Authentication required');
      assert.match(String(r.headers['www-authenticate']), /^Bearer/);
    }
  });

  test('a role change applies to tokens already issued', async () => {
    await createRole(t.database.db, 'Changing', ['customers/read']);
    await createApiUser(t.database.db, { username: 'changing', apiKey: 'changing-key', role: 'Changing' });
    const tok = await login('changing', 'changing-key');
    assert.equal((await probe('customer-groups-create', tok)).status, 403);
    await setRolePermissions(t.database.db, 'Changing', ['customers/read', 'customer-groups/write']);
    assert.equal((await probe('customer-groups-create', tok)).status, 200);
    await setRolePermissions(t.database.db, 'Changing', []);
    assert.equal((await probe('customers-read', tok)).status, 403);
  });

  test('a store-restricted API user is 403 outside its stores, on public routes too', async () => {
    const tok = await login('default-only', 'default-only-key');
    assert.equal((await t.req('GET', `${API}/store-config`, { token: tok })).status, 200);
    assert.equal((await t.req('GET', `${API}/store-config`, { token: tok, query: { store: 'default' } })).status, 200);
    const outside = await t.req('GET', `${API}/store-config`, { token: tok, query: { store: 'german' } });
    assert.equal(outside.status, 403);
    assert.equal(outside.body.error, 'forbidden');
    const viaHeader = await probe('customers-read', tok, undefined);
    assert.equal(viaHeader.status, 200);
    const r = await t.req('GET', `${API}/test-probe/customers-read`, { token: tok, headers: { 'x-store-code': 'german' } });
    assert.equal(r.status, 403);
    // the same request without the token is the public store config
    assert.equal((await t.req('GET', `${API}/store-config`, { query: { store: 'german' } })).status, 200);
  });

  test('a store-restricted OAuth client is limited to its stores', async () => {
    const r = await t.req('POST', `${API}/auth/token`, {
      body: { grant_type: 'client_credentials', client_id: 'german-client', client_secret: 'german-client-secret' },
    });
    assert.equal(r.status, 200, r.text);
    const tok = r.body.token as string;
    assert.equal((await probe('customers-read', tok, { store: 'german' })).status, 200);
    assert.equal((await probe('customers-read', tok)).status, 403, 'the default store is outside its list');
  });
});

describe('permissions on real routes (customers, customer groups)', () => {
  let t: TestApp;
  const login = async (username: string, apiKey: string) => {
    const r = await t.req('POST', `${API}/auth/token`, { body: { grant_type: 'api_user', username, api_key: apiKey } });
    assert.equal(r.status, 200, r.text);
    return r.body.token as string;
  };
  const groupCodes = async () => {
    const r = await t.req('GET', `${API}/customer-groups`, { token: await t.tokens.admin(), headers: { accept: 'application/json' } });
    assert.equal(r.status, 200, r.text);
    return (r.body as { code: string }[]).map((g) => g.code).sort();
  };

  before(async () => {
    t = await buildTestApp();
    const db = t.database.db;
    await createRole(db, 'Customer readers', ['customers/read']);
    await createRole(db, 'Group writers', ['customer-groups/write', 'customer-groups/read']);
    await createRole(db, 'Group admins', ['customer-groups/all']);
    await createApiUser(db, { username: 'reader', apiKey: 'reader-key-1', role: 'Customer readers' });
    await createApiUser(db, { username: 'group-writer', apiKey: 'group-writer-key', role: 'Group writers' });
    await createApiUser(db, { username: 'group-admin', apiKey: 'group-admin-key', role: 'Group admins' });
    await createApiUser(db, { username: 'german-reader', apiKey: 'german-reader-key', role: 'Customer readers', allowedStoreIds: [2] });
  });
  after(() => t.close());

  test('customers/read can list customers but gets 403 creating a customer group, which is not created', async () => {
    const tok = await login('reader', 'reader-key-1');
    const list = await t.req('GET', `${API}/customers`, { token: tok });
    assert.equal(list.status, 200, list.text);
    const before = await groupCodes();
    const r = await t.req('POST', `${API}/customer-groups`, { token: tok, body: { code: 'Readers made this' } });
    assert.equal(r.status, 403, r.text);
    assert.equal(r.body.error, 'forbidden');
    assert.deepEqual(await groupCodes(), before);
    assert.equal((await t.req('GET', `${API}/customer-groups`, { token: tok })).status, 403);
  });

  test('customer-groups/write creates but cannot delete; customer-groups/all deletes', async () => {
    const writer = await login('group-writer', 'group-writer-key');
    const created = await t.req('POST', `${API}/customer-groups`, { token: writer, body: { code: 'Writers' } });
    assert.equal(created.status, 201, created.text);
    const id = created.body.id as number;
    const denied = await t.req('DELETE', `${API}/customer-groups/${id}`, { token: writer });
    assert.equal(denied.status, 403, denied.text);
    assert.ok((await groupCodes()).includes('Writers'), 'still there');
    assert.equal((await t.req('GET', `${API}/customers`, { token: writer })).status, 403, 'no customers grant');

    const adminTok = await login('group-admin', 'group-admin-key');
    assert.equal((await t.req('DELETE', `${API}/customer-groups/${id}`, { token: adminTok })).status, 204);
    assert.ok(!(await groupCodes()).includes('Writers'));
  });

  test('a customer token gets 403 on the admin customer list; no token is 401', async () => {
    assert.equal((await t.req('GET', `${API}/customers`, { token: await t.tokens.customer() })).status, 403);
    const anon = await t.req('GET', `${API}/customers`);
    assert.equal(anon.status, 401);
    assert.equal(anon.body.error, 'unauthorized');
  });

  test('a store-restricted API user reads customers in its store only', async () => {
    const tok = await login('german-reader', 'german-reader-key');
    assert.equal((await t.req('GET', `${API}/customers`, { token: tok, query: { store: 'german' } })).status, 200);
    const outside = await t.req('GET', `${API}/customers`, { token: tok });
    assert.equal(outside.status, 403);
    assert.equal(outside.body.error, 'forbidden');
  });
});
