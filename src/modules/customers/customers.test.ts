import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { eq, sql } from 'drizzle-orm';
import { API, buildTestApp, type TestApp } from '../../../test/helpers.js';
import { createApiUser, createRole } from '../auth/service.js';
import { createWebsite } from '../stores/service.js';
import { registerCustomer } from './service.js';
import { customers } from './tables.js';
import { rows } from '../../platform/db.js';

let t: TestApp;
let admin: string;
let jane: string;
before(async () => {
  t = await buildTestApp();
  admin = await t.tokens.admin();
  jane = await t.tokens.customer();
});
after(() => t.close());

async function customerCount(): Promise<number> {
  const [r] = await t.database.db.select({ n: sql<number>`count(*)::int` }).from(customers);
  return Number(r.n);
}

async function row(id: number) {
  const [r] = await t.database.db.select().from(customers).where(eq(customers.id, id));
  return r;
}

let seq = 0;
async function register(extra: Record<string, unknown> = {}, token?: string) {
  const body = { email: `person${++seq}@example.com`, password: 'Secret123', firstname: 'Ann', lastname: 'Lee', ...extra };
  const r = await t.req('POST', `${API}/customers`, { body, token });
  assert.equal(r.status, 201, r.text);
  return r.body;
}

function assertError(r: { status: number; body: any }, status: number, error?: string) {
  assert.equal(r.status, status, JSON.stringify(r.body));
  assert.equal(typeof r.body.message, 'string');
  if (error) assert.equal(r.body.error, error);
  if (status !== 401) assert.equal(r.body.code, status);
}

describe('POST /customers', () => {
  test('registers a customer with the full read shape', async () => {
    const r = await t.req('POST', `${API}/customers`, {
      body: {
        email: '  New.Person@Example.COM ',
        password: 'Secret123',
        firstname: 'Max',
        lastname: 'Muster',
        prefix: 'Dr.',
        middlename: 'J',
        gender: 1,
        dob: '1990-05-17',
        unknownKey: 'dropped',
      },
    });
    assert.equal(r.status, 201, r.text);
    const c = r.body;
    assert.equal(c.email, 'new.person@example.com');
    assert.equal(c.fullName, 'Dr. Max J Muster');
    assert.equal(c.gender, 1);
    assert.equal(c.dob, '1990-05-17');
    assert.equal(c.isSubscribed, false);
    assert.equal(c.isConfirmed, true);
    assert.equal(c.isActive, true);
    assert.equal(c.groupId, 1);
    assert.equal(c.websiteId, 1);
    assert.equal(c.storeId, 1);
    assert.equal(c.createdIn, 'Default Store View');
    assert.equal(c.disableAutoGroupChange, false);
    assert.deepEqual(c.addresses, []);
    assert.match(c.createdAt, /^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d$/);
    for (const k of ['password', 'passwordHash', 'suffix', 'taxvat', 'defaultBillingAddress', 'unknownKey']) assert.ok(!(k in c), k);
    const login = await t.req('POST', `${API}/auth/token`, { body: { email: 'new.person@example.com', password: 'Secret123' } });
    assert.equal(login.status, 200);
    assert.equal(login.body.customer.id, c.id);
  });

  test('anonymous callers cannot set admin-only fields', async () => {
    const c = await register({ groupId: 2, isActive: false, taxvat: 'DE123', disableAutoGroupChange: true, websiteId: 1 });
    assert.equal(c.groupId, 1);
    assert.equal(c.isActive, true);
    assert.equal(c.taxvat, undefined);
    assert.equal(c.disableAutoGroupChange, false);
  });

  test('a customer token registers like an anonymous caller', async () => {
    const c = await register({ groupId: 3 }, jane);
    assert.equal(c.groupId, 1);
  });

  test('admin callers may set admin-only fields', async () => {
    const c = await register({ groupId: 2, isActive: false, taxvat: 'DE123', disableAutoGroupChange: true, websiteId: 1 }, admin);
    assert.equal(c.groupId, 2);
    assert.equal(c.isActive, false);
    assert.equal(c.taxvat, 'DE123');
    assert.equal(c.disableAutoGroupChange, true);
    const login = await t.req('POST', `${API}/auth/token`, { body: { email: c.email, password: 'Secret123' } });
    assert.equal(login.status, 401, 'an inactive account cannot sign in');
  });

  test('an API caller without customers/create may register but not set admin-only fields', async () => {
    const token = await t.tokens.apiUser(['products/read']);
    const before = await customerCount();
    const r = await t.req('POST', `${API}/customers`, {
      token,
      body: { email: 'limited@example.com', password: 'Secret123', firstname: 'A', lastname: 'B', groupId: 2 },
    });
    assertError(r, 403, 'forbidden');
    assert.equal(await customerCount(), before);
    const c = await register({}, token);
    assert.equal(c.groupId, 1);
    const writer = await t.tokens.apiUser(['customers/write']);
    assert.equal((await register({ groupId: 3 }, writer)).groupId, 3);
  });

  test('unknown group or website → 400, nothing created', async () => {
    const before = await customerCount();
    for (const extra of [{ groupId: 999 }, { groupId: 0 }, { websiteId: 42 }, { websiteId: 0 }]) {
      const r = await t.req('POST', `${API}/customers`, {
        token: admin,
        body: { email: 'badgroup@example.com', password: 'Secret123', firstname: 'A', lastname: 'B', ...extra },
      });
      assertError(r, 400, 'bad_request');
    }
    assert.equal(await customerCount(), before);
  });

  test('duplicate email in the website → 409, whatever the case', async () => {
    const before = await customerCount();
    const r = await t.req('POST', `${API}/customers`, {
      body: { email: 'Customer@Example.com', password: 'Secret123', firstname: 'A', lastname: 'B' },
    });
    assertError(r, 409, 'conflict');
    assert.equal(await customerCount(), before);
  });

  test('bad input → 400 and nothing created', async () => {
    const base = { email: 'bad@example.com', password: 'Secret123', firstname: 'A', lastname: 'B' };
    const before = await customerCount();
    const cases: [unknown, RegExp?][] = [
      [{}, /Missing required fields: email, password, firstname, lastname/],
      [{ ...base, email: undefined, lastname: '  ' }, /Missing required fields: email, lastname/],
      [{ ...base, email: 'not-an-email' }, /email/i],
      [{ ...base, password: 'short' }, /at least 7/],
      [{ ...base, password: 'x'.repeat(300) }],
      [{ ...base, firstname: 123 }],
      [{ ...base, email: ['a@b.c'] }],
      [{ ...base, gender: 7 }],
      [{ ...base, gender: 'male' }],
      [{ ...base, dob: '2020-02-30' }, /dob/],
      [{ ...base, dob: '3000-01-01' }, /future/],
      [{ ...base, dob: 'yesterday' }, /dob/],
      [{ ...base, isActive: 'yes' }],
      [[base]],
      ['just a string'],
    ];
    for (const [body, msg] of cases) {
      const r = await t.req('POST', `${API}/customers`, { body });
      assertError(r, 400, 'bad_request');
      if (msg) assert.match(r.body.message, msg);
    }
    const raw = await t.req('POST', `${API}/customers`, { raw: '{"email":', headers: { 'content-type': 'application/json' } });
    assertError(raw, 400, 'bad_request');
    assert.equal(await customerCount(), before);
  });

  test('the minimum password length comes from config', async () => {
    const { setConfig } = await import('../stores/service.js');
    await setConfig(t.database.db, t.services.settings, 'customer/password/minimum_password_length', '12');
    try {
      const r = await t.req('POST', `${API}/customers`, {
        body: { email: 'longpw@example.com', password: 'Secret12345', firstname: 'A', lastname: 'B' },
      });
      assertError(r, 400);
      assert.match(r.body.message, /at least 12/);
    } finally {
      await setConfig(t.database.db, t.services.settings, 'customer/password/minimum_password_length', null);
    }
  });
});

describe('GET /customers', () => {
  before(async () => {
    const ctx = t.systemCtx();
    for (let i = 1; i <= 18; i++) {
      await registerCustomer(ctx, {
        email: `list${i}@shop.test`,
        password: 'Secret123',
        firstname: `Lister${i}`,
        lastname: i % 2 ? 'Odd' : 'Even',
      });
    }
  });

  test('pages of 15 by default, sorted by id, list items without addresses', async () => {
    const r = await t.req('GET', `${API}/customers`, { token: admin });
    assert.equal(r.status, 200);
    assert.equal(r.body['@type'], 'Collection');
    assert.equal(r.body.totalItems, await customerCount());
    assert.equal(r.body.member.length, 15);
    const ids = r.body.member.map((c: { id: number }) => c.id);
    assert.deepEqual(
      ids,
      [...ids].sort((a, b) => a - b),
    );
    assert.equal(ids[0], 1);
    assert.ok(r.body.view.next);
    for (const c of r.body.member) {
      assert.deepEqual(c.addresses, []);
      assert.ok(!('defaultShippingAddress' in c));
    }
    assert.equal(r.headers['cache-control'], 'no-store');
  });

  test('itemsPerPage and page', async () => {
    const r = await t.req('GET', `${API}/customers?itemsPerPage=5&page=2`, { token: admin, headers: { accept: 'application/json' } });
    assert.equal(r.status, 200);
    assert.ok(Array.isArray(r.body));
    assert.equal(r.body.length, 5);
    const all = await t.req('GET', `${API}/customers?itemsPerPage=100`, { token: admin });
    assert.deepEqual(
      r.body.map((c: { id: number }) => c.id),
      all.body.member.slice(5, 10).map((c: { id: number }) => c.id),
    );
  });

  test('filters', async () => {
    const get = async (q: string) => {
      const r = await t.req('GET', `${API}/customers?${q}&itemsPerPage=100`, { token: admin });
      assert.equal(r.status, 200, r.text);
      return r.body.member.map((c: { email: string }) => c.email) as string[];
    };
    assert.deepEqual(await get('email=LIST3@shop.test'), ['list3@shop.test']);
    assert.deepEqual(await get('email=list3'), []);
    assert.deepEqual(await get('search=lister1'), [
      'list1@shop.test',
      ...[10, 11, 12, 13, 14, 15, 16, 17, 18].map((i) => `list${i}@shop.test`),
    ]);
    assert.deepEqual(await get('search=list12%40shop'), ['list12@shop.test']);
    assert.deepEqual(await get('search=Lister2%20Even'), ['list2@shop.test']);
    assert.deepEqual(await get('search=%25'), []);
    assert.deepEqual(await get('firstname=lister4'), ['list4@shop.test']);
    assert.equal((await get('lastname=even')).length, 9);
    assert.deepEqual(await get('lastname=odd&firstname=Lister5'), ['list5@shop.test']);
    assert.deepEqual(await get('telephone=555-0100'), []);
  });

  test('the default billing address is in list items; telephone filter', async () => {
    const token = await t.tokens.customer('list7@shop.test', 'Secret123');
    const a = await t.req('POST', `${API}/customers/me/addresses`, {
      token,
      body: {
        firstname: 'L',
        lastname: 'S',
        street: ['1 Main St'],
        city: 'Austin',
        postcode: '73301',
        countryId: 'US',
        region: 'NY',
        telephone: '555-0100',
      },
    });
    assert.equal(a.status, 201, a.text);
    const r = await t.req('GET', `${API}/customers?telephone=555-0100`, { token: admin });
    assert.equal(r.body.totalItems, 1);
    const c = r.body.member[0];
    assert.equal(c.email, 'list7@shop.test');
    assert.equal(c.defaultBillingAddress.id, a.body.id);
    assert.deepEqual(c.addresses, []);
    assert.ok(!('defaultShippingAddress' in c));
  });

  test('access: anonymous 401, customer 403, API user needs customers/read', async () => {
    assertError(await t.req('GET', `${API}/customers`), 401, 'unauthorized');
    assertError(await t.req('GET', `${API}/customers`, { token: jane }), 403, 'forbidden');
    assertError(
      await t.req('GET', `${API}/customers`, { token: await t.tokens.apiUser(['products/read', 'addresses/read']) }),
      403,
      'forbidden',
    );
    const r = await t.req('GET', `${API}/customers`, { token: await t.tokens.apiUser(['customers/read']) });
    assert.equal(r.status, 200);
  });

  test('bad query → 400', async () => {
    assertError(await t.req('GET', `${API}/customers?page=abc`, { token: admin }), 400, 'bad_request');
    assertError(await t.req('GET', `${API}/customers?email=${'a'.repeat(300)}`, { token: admin }), 400, 'bad_request');
  });
});

describe('GET /customers/{id} and /customers/me', () => {
  test('a customer reads itself; another id is 403', async () => {
    const me = await t.req('GET', `${API}/customers/me`, { token: jane });
    assert.equal(me.status, 200);
    assert.equal(me.body.email, 'customer@example.com');
    assert.equal(me.body.fullName, 'Jane Doe');
    assert.equal(me.headers['cache-control'], 'private, no-cache');
    const own = await t.req('GET', `${API}/customers/${me.body.id}`, { token: jane });
    assert.equal(own.status, 200);
    assert.deepEqual(own.body, me.body);
    const other = await register();
    assertError(await t.req('GET', `${API}/customers/${other.id}`, { token: jane }), 403, 'forbidden');
    assertError(await t.req('GET', `${API}/customers/999999`, { token: jane }), 403, 'forbidden');
  });

  test('admin reads any customer; unknown → 404', async () => {
    const c = await register();
    const r = await t.req('GET', `${API}/customers/${c.id}`, { token: admin });
    assert.equal(r.status, 200);
    assert.equal(r.body.email, c.email);
    assertError(await t.req('GET', `${API}/customers/999999`, { token: admin }), 404, 'not_found');
    assertError(await t.req('GET', `${API}/customers/${c.id}`, { token: await t.tokens.apiUser(['orders/read']) }), 403, 'forbidden');
    assert.equal((await t.req('GET', `${API}/customers/${c.id}`, { token: await t.tokens.apiUser(['customers/all']) })).status, 200);
  });

  test('bad ids → 400; anonymous → 401', async () => {
    for (const id of ['abc', '0', '-1', '1.5', '99999999999']) {
      assertError(await t.req('GET', `${API}/customers/${id}`, { token: admin }), 400, 'bad_request');
    }
    assertError(await t.req('GET', `${API}/customers/1`), 401, 'unauthorized');
    assertError(await t.req('GET', `${API}/customers/me`), 401, 'unauthorized');
  });

  test('/customers/me needs a customer identity', async () => {
    for (const token of [admin, await t.tokens.client()]) {
      const r = await t.req('GET', `${API}/customers/me`, { token });
      assertError(r, 403, 'forbidden');
      assert.equal(r.body.message, 'Customer identity required');
    }
  });
});

describe('PUT /customers/me', () => {
  test('partial update of profile fields', async () => {
    const c = await register({ middlename: 'Q', gender: 2, dob: '1980-01-02' });
    const token = await t.tokens.customer(c.email, 'Secret123');
    const r = await t.req('PUT', `${API}/customers/me`, { token, body: { firstname: ' Anna ', suffix: 'Jr.' } });
    assert.equal(r.status, 200, r.text);
    assert.equal(r.body.firstname, 'Anna');
    assert.equal(r.body.lastname, 'Lee');
    assert.equal(r.body.middlename, 'Q');
    assert.equal(r.body.suffix, 'Jr.');
    assert.equal(r.body.fullName, 'Anna Q Lee Jr.');
    assert.equal(r.body.dob, '1980-01-02');
    const cleared = await t.req('PUT', `${API}/customers/me`, { token, body: { dob: '', gender: 0, middlename: null } });
    assert.equal(cleared.status, 200);
    for (const k of ['dob', 'gender', 'middlename']) assert.ok(!(k in cleared.body), k);
  });

  test('email change: lower-cased, unique in the website, usable for sign-in', async () => {
    const c = await register();
    const token = await t.tokens.customer(c.email, 'Secret123');
    const dup = await t.req('PUT', `${API}/customers/me`, {
      token,
      body: { email: 'CUSTOMER@example.com', firstname: 'Changed', currentPassword: 'Secret123' },
    });
    assertError(dup, 409, 'conflict');
    assert.equal((await row(c.id)).firstname, 'Ann');
    const same = await t.req('PUT', `${API}/customers/me`, { token, body: { email: c.email.toUpperCase() } });
    assert.equal(same.status, 200);
    const r = await t.req('PUT', `${API}/customers/me`, {
      token,
      body: { email: 'Renamed.Person@Example.com', currentPassword: 'Secret123' },
    });
    assert.equal(r.status, 200);
    assert.equal(r.body.email, 'renamed.person@example.com');
    assert.equal(
      (await t.req('POST', `${API}/auth/token`, { body: { email: 'renamed.person@example.com', password: 'Secret123' } })).status,
      200,
    );
  });

  test('admin-only fields are ignored', async () => {
    const c = await register();
    const token = await t.tokens.customer(c.email, 'Secret123');
    const r = await t.req('PUT', `${API}/customers/me`, {
      token,
      body: { groupId: 2, isActive: false, taxvat: 'X1', websiteId: 5, disableAutoGroupChange: true, id: 1, lastname: 'Kept' },
    });
    assert.equal(r.status, 200, r.text);
    assert.equal(r.body.id, c.id);
    assert.equal(r.body.groupId, 1);
    assert.equal(r.body.isActive, true);
    assert.equal(r.body.taxvat, undefined);
    assert.equal(r.body.disableAutoGroupChange, false);
    assert.equal(r.body.lastname, 'Kept');
  });

  test('bad input → 400 and nothing changes', async () => {
    const c = await register();
    const token = await t.tokens.customer(c.email, 'Secret123');
    const before = await row(c.id);
    for (const body of [
      { firstname: '' },
      { lastname: null },
      { email: 'nope' },
      { email: null },
      { dob: '2999-12-31' },
      { dob: '1999-13-01' },
      { gender: -1 },
      { firstname: 5 },
      [],
    ]) {
      assertError(await t.req('PUT', `${API}/customers/me`, { token, body }), 400, 'bad_request');
    }
    assertError(
      await t.req('PUT', `${API}/customers/me`, { token, raw: '{"firstname":', headers: { 'content-type': 'application/json' } }),
      400,
    );
    assert.deepEqual(await row(c.id), before);
  });

  test('access: anonymous 401, admin 403', async () => {
    assertError(await t.req('PUT', `${API}/customers/me`, { body: { firstname: 'X' } }), 401);
    const r = await t.req('PUT', `${API}/customers/me`, { token: admin, body: { firstname: 'X' } });
    assertError(r, 403, 'forbidden');
    assert.equal(r.body.message, 'Customer identity required');
  });
});

describe('PUT /customers/{id}', () => {
  test('admin updates admin-only fields', async () => {
    const c = await register();
    const r = await t.req('PUT', `${API}/customers/${c.id}`, {
      token: admin,
      body: { groupId: 3, taxvat: 'DE999', disableAutoGroupChange: true, websiteId: 1, lastname: 'Admin-Set' },
    });
    assert.equal(r.status, 200, r.text);
    assert.equal(r.body.groupId, 3);
    assert.equal(r.body.taxvat, 'DE999');
    assert.equal(r.body.disableAutoGroupChange, true);
    assert.equal(r.body.lastname, 'Admin-Set');
    const cleared = await t.req('PUT', `${API}/customers/${c.id}`, { token: admin, body: { taxvat: '' } });
    assert.ok(!('taxvat' in cleared.body));
  });

  test('deactivating makes every token of the customer fail; reactivating restores them', async () => {
    const c = await register();
    const token = await t.tokens.customer(c.email, 'Secret123');
    assert.equal((await t.req('GET', `${API}/customers/me`, { token })).status, 200);
    const off = await t.req('PUT', `${API}/customers/${c.id}`, { token: admin, body: { isActive: false } });
    assert.equal(off.status, 200);
    assert.equal(off.body.isActive, false);
    assertError(await t.req('GET', `${API}/customers/me`, { token }), 401, 'authentication_error');
    assertError(await t.req('POST', `${API}/auth/token`, { body: { email: c.email, password: 'Secret123' } }), 401);
    const on = await t.req('PUT', `${API}/customers/${c.id}`, { token: admin, body: { isActive: true } });
    assert.equal(on.body.isActive, true);
    assert.equal((await t.req('GET', `${API}/customers/me`, { token })).status, 200);
  });

  test('refusals change nothing', async () => {
    const c = await register();
    const before = await row(c.id);
    assertError(await t.req('PUT', `${API}/customers/${c.id}`, { token: admin, body: { websiteId: 2, firstname: 'X' } }), 400);
    assertError(await t.req('PUT', `${API}/customers/${c.id}`, { token: admin, body: { groupId: 777, firstname: 'X' } }), 400);
    assertError(await t.req('PUT', `${API}/customers/${c.id}`, { token: admin, body: { groupId: 0 } }), 400);
    assertError(await t.req('PUT', `${API}/customers/${c.id}`, { token: admin, body: { isActive: 'no' } }), 400);
    assertError(await t.req('PUT', `${API}/customers/${c.id}`, { token: admin, body: { email: 'customer@example.com' } }), 409);
    assertError(await t.req('PUT', `${API}/customers/${c.id}`, { token: jane, body: { firstname: 'X' } }), 403);
    assertError(
      await t.req('PUT', `${API}/customers/${c.id}`, { token: await t.tokens.apiUser(['customers/read']), body: { firstname: 'X' } }),
      403,
    );
    assertError(await t.req('PUT', `${API}/customers/${c.id}`, { body: { firstname: 'X' } }), 401);
    assert.deepEqual(await row(c.id), before);
    assertError(await t.req('PUT', `${API}/customers/999999`, { token: admin, body: { firstname: 'X' } }), 404, 'not_found');
    const writer = await t.tokens.apiUser(['customers/write']);
    assert.equal((await t.req('PUT', `${API}/customers/${c.id}`, { token: writer, body: { firstname: 'Y' } })).body.firstname, 'Y');
  });
});

describe('registration rate limit', () => {
  test('anonymous registrations per IP are limited; admin ones are not', async () => {
    const limited = await buildTestApp({ env: { RATE_LIMITS: '1' } });
    try {
      const post = (i: number, token?: string) =>
        limited.req('POST', `${API}/customers`, {
          token,
          body: { email: `rl${i}@example.com`, password: 'Secret123', firstname: 'R', lastname: 'L' },
        });
      for (let i = 0; i < 5; i++) assert.equal((await post(i)).status, 201);
      const r = await post(5);
      assert.equal(r.status, 429);
      assert.equal(r.body.error, 'too_many_requests');
      const adminToken = await limited.tokens.admin();
      assert.equal((await post(6, adminToken)).status, 201);
    } finally {
      await limited.close();
    }
  });
});

describe('an API user limited to the store views of one website', () => {
  test('lists, reads and changes only the customers of that website', async () => {
    const { storeId } = await createWebsite(t.database.db, t.services.settings, {
      code: 'outlet',
      name: 'Outlet',
      storeCode: 'outlet_en',
      storeName: 'Outlet English',
    });
    const home = await register({ email: 'scope-home@example.com' });
    const away = await registerCustomer(t.systemCtx(), {
      email: 'scope-away@example.com',
      password: 'Secret123',
      firstname: 'Out',
      lastname: 'Let',
      websiteId: t.services.settings.store(storeId)!.websiteId,
    });
    await createRole(t.database.db, 'outlet-staff', ['customers/all', 'addresses/all']);
    await createApiUser(t.database.db, {
      username: 'outlet-staff',
      apiKey: 'outlet-staff-key',
      role: 'outlet-staff',
      allowedStoreIds: [storeId],
    });
    const login = await t.req('POST', `${API}/auth/token`, {
      body: { grant_type: 'api_user', username: 'outlet-staff', api_key: 'outlet-staff-key' },
    });
    assert.equal(login.status, 200, login.text);
    const token = login.body.token as string;
    const q = { store: 'outlet_en', itemsPerPage: '100' };

    const list = await t.req('GET', `${API}/customers`, { token, query: q });
    assert.equal(list.status, 200, list.text);
    assert.deepEqual(
      list.body.member.map((c: { id: number }) => c.id),
      [away],
    );
    assert.equal((await t.req('GET', `${API}/customers/${away}`, { token, query: q })).status, 200);

    const before = await row(home.id);
    assertError(await t.req('GET', `${API}/customers/${home.id}`, { token, query: q }), 404, 'not_found');
    assertError(await t.req('PUT', `${API}/customers/${home.id}`, { token, query: q, body: { firstname: 'Nope' } }), 404, 'not_found');
    assertError(await t.req('GET', `${API}/customers/${home.id}/addresses`, { token, query: q }), 404, 'not_found');
    const address = {
      firstname: 'A',
      lastname: 'B',
      street: ['1 Main St'],
      city: 'Austin',
      postcode: '73301',
      countryId: 'US',
      regionId: 57,
      telephone: '555',
    };
    assertError(await t.req('POST', `${API}/customers/${home.id}/addresses`, { token, query: q, body: address }), 404, 'not_found');
    assert.deepEqual(await row(home.id), before);
    assert.equal((await t.req('POST', `${API}/customers/${away}/addresses`, { token, query: q, body: address })).status, 201);
  });
});

describe('DELETE /customers/{id}', () => {
  test('an admin with customers/delete deletes the account and its addresses; its tokens stop working; others are refused', async () => {
    const email = `leaving-${Date.now()}@example.com`;
    const id = await registerCustomer(t.systemCtx(), { email, password: 'Password123!', firstname: 'Lea', lastname: 'Ving' });
    const token = await t.tokens.customer(email, 'Password123!');
    const address = await t.req('POST', `${API}/customers/me/addresses`, {
      token,
      body: {
        firstname: 'Lea',
        lastname: 'Ving',
        street: ['1 Exit Lane'],
        city: 'Austin',
        postcode: '73301',
        countryId: 'US',
        region: 'TX',
        telephone: '555',
      },
    });
    assert.equal(address.status, 201, address.text);

    assert.equal((await t.req('DELETE', `${API}/customers/${id}`)).status, 401);
    assert.equal((await t.req('DELETE', `${API}/customers/${id}`, { token })).status, 403);
    assert.equal(
      (await t.req('DELETE', `${API}/customers/${id}`, { token: await t.tokens.apiUser(['customers/read', 'customers/write']) })).status,
      403,
    );
    assert.equal((await t.req('GET', `${API}/customers/me`, { token })).status, 200, 'nothing changed');

    assert.equal((await t.req('DELETE', `${API}/customers/${id}`, { token: await t.tokens.apiUser(['customers/delete']) })).status, 204);
    assert.equal((await t.req('GET', `${API}/customers/${id}`, { token: admin })).status, 404);
    assert.equal((await t.req('GET', `${API}/customers/me`, { token })).status, 401);
    const [{ n }] = await rows<{ n: number }>(
      t.database.db,
      sql`SELECT count(*)::int AS n FROM customer_addresses WHERE customer_id = ${id}`,
    );
    assert.equal(n, 0);
    assert.equal((await t.req('DELETE', `${API}/customers/${id}`, { token: admin })).status, 404);
    assert.equal((await t.req('DELETE', `${API}/customers/abc`, { token: admin })).status, 400);
    // the address may be registered again
    assert.equal(
      (await t.req('POST', `${API}/customers`, { body: { email, password: 'Password123!', firstname: 'Lea', lastname: 'Back' } })).status,
      201,
    );
  });
});
