import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { eq, sql } from 'drizzle-orm';
import { API, buildTestApp, type TestApp } from '../../../test/helpers.js';
import { getCountry } from '../directory/service.js';
import { customerAddresses, customers } from './tables.js';

let t: TestApp;
let admin: string;
let california: number;
let newYork: number;
before(async () => {
  t = await buildTestApp();
  admin = await t.tokens.admin();
  const us = getCountry(t.systemCtx(), 'US');
  california = us.availableRegions.find((r) => r.code === 'CA')!.id;
  newYork = us.availableRegions.find((r) => r.code === 'NY')!.id;
});
after(() => t.close());

let seq = 0;
/** A fresh customer: its id and token. */
async function newCustomer(): Promise<{ id: number; token: string }> {
  const email = `addr${++seq}@example.com`;
  const r = await t.req('POST', `${API}/customers`, { body: { email, password: 'Secret123', firstname: 'Ada', lastname: 'Byron' } });
  assert.equal(r.status, 201, r.text);
  return { id: r.body.id, token: await t.tokens.customer(email, 'Secret123') };
}

const valid = () => ({
  firstname: 'Ada',
  lastname: 'Byron',
  street: ['1 Infinite Loop', 'Suite 2'],
  city: 'Cupertino',
  regionId: california,
  postcode: '95014',
  countryId: 'US',
  telephone: '555-0101',
});

async function addressCount(customerId: number): Promise<number> {
  const [r] = await t.database.db
    .select({ n: sql<number>`count(*)::int` })
    .from(customerAddresses)
    .where(eq(customerAddresses.customerId, customerId));
  return Number(r.n);
}

async function defaults(customerId: number) {
  const [r] = await t.database.db
    .select({ billing: customers.defaultBillingId, shipping: customers.defaultShippingId })
    .from(customers)
    .where(eq(customers.id, customerId));
  return r;
}

async function addressRow(id: number) {
  const [r] = await t.database.db.select().from(customerAddresses).where(eq(customerAddresses.id, id));
  return r;
}

function assertError(r: { status: number; body: any }, status: number, error?: string) {
  assert.equal(r.status, status, JSON.stringify(r.body));
  assert.equal(typeof r.body.message, 'string');
  if (error) assert.equal(r.body.error, error);
}

for (const base of ['/customers/me/addresses', '/addresses']) {
  describe(`${base}`, () => {
    test('create: the first address becomes default billing and shipping', async () => {
      const c = await newCustomer();
      const r = await t.req('POST', `${API}${base}`, { token: c.token, body: { ...valid(), company: 'Analytical', unknown: 1, id: 99 } });
      assert.equal(r.status, 201, r.text);
      const a = r.body;
      assert.equal(a.customerId, c.id);
      assert.notEqual(a.id, 99);
      assert.deepEqual(a.street, ['1 Infinite Loop', 'Suite 2']);
      assert.equal(a.region, 'California');
      assert.equal(a.regionId, california);
      assert.equal(a.countryId, 'US');
      assert.equal(a.company, 'Analytical');
      assert.equal(a.isDefaultBilling, true);
      assert.equal(a.isDefaultShipping, true);
      assert.match(a.createdAt, /^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d$/);
      for (const k of ['fax', 'vatId', 'prefix', 'unknown']) assert.ok(!(k in a), k);
      assert.deepEqual(await defaults(c.id), { billing: a.id, shipping: a.id });

      const second = await t.req('POST', `${API}${base}`, {
        token: c.token,
        body: { ...valid(), street: 'Line A\nLine B', region: 'ny', regionId: undefined },
      });
      assert.equal(second.status, 201, second.text);
      assert.deepEqual(second.body.street, ['Line A', 'Line B']);
      assert.equal(second.body.regionId, newYork);
      assert.equal(second.body.isDefaultBilling, false);
      assert.equal(second.body.isDefaultShipping, false);

      const third = await t.req('POST', `${API}${base}`, { token: c.token, body: { ...valid(), isDefaultShipping: true } });
      assert.equal(third.body.isDefaultShipping, true);
      assert.equal(third.body.isDefaultBilling, false);
      assert.deepEqual(await defaults(c.id), { billing: a.id, shipping: third.body.id });

      const me = await t.req('GET', `${API}/customers/me`, { token: c.token });
      assert.equal(me.body.defaultBillingAddress.id, a.id);
      assert.equal(me.body.defaultShippingAddress.id, third.body.id);
      assert.deepEqual(
        me.body.addresses.map((x: { id: number }) => x.id),
        [a.id, second.body.id, third.body.id],
      );
    });

    test('create: missing fields are listed; bad values → 400; nothing stored', async () => {
      const c = await newCustomer();
      const missing = await t.req('POST', `${API}${base}`, {
        token: c.token,
        body: { firstname: 'Ada', street: [], city: ' ', countryId: 'US' },
      });
      assertError(missing, 400, 'bad_request');
      assert.equal(missing.body.message, 'Missing required fields: lastname, street, city, postcode, telephone');
      const cases: unknown[] = [
        {},
        { ...valid(), street: ['a', 'b', 'c', 'd', 'e'] },
        { ...valid(), street: 'a\nb\nc\nd\ne' },
        { ...valid(), street: [1] },
        { ...valid(), countryId: 'XX' },
        { ...valid(), regionId: 999999 },
        { ...valid(), regionId: 'CA' },
        { ...valid(), regionId: undefined, region: 'Atlantis' },
        { ...valid(), regionId: undefined },
        { ...valid(), firstname: 42 },
        { ...valid(), isDefaultBilling: 'yes' },
        { ...valid(), telephone: 'x'.repeat(41) },
        [valid()],
      ];
      for (const body of cases) {
        assertError(await t.req('POST', `${API}${base}`, { token: c.token, body }), 400, 'bad_request');
      }
      assertError(
        await t.req('POST', `${API}${base}`, { token: c.token, raw: '{"firstname"', headers: { 'content-type': 'application/json' } }),
        400,
      );
      assert.equal(await addressCount(c.id), 0);
      assert.deepEqual(await defaults(c.id), { billing: null, shipping: null });
    });

    test("list, get: own only; another customer's address is 404", async () => {
      const c = await newCustomer();
      const other = await newCustomer();
      const mine = (await t.req('POST', `${API}${base}`, { token: c.token, body: valid() })).body;
      const theirs = (await t.req('POST', `${API}${base}`, { token: other.token, body: valid() })).body;
      const list = await t.req('GET', `${API}${base}`, { token: c.token });
      assert.equal(list.status, 200);
      assert.equal(list.body['@type'], 'Collection');
      assert.equal(list.body.totalItems, 1);
      assert.ok(!('view' in list.body), 'unpaginated');
      assert.deepEqual(list.body.member[0], mine);
      const plain = await t.req('GET', `${API}${base}`, { token: c.token, headers: { accept: 'application/json' } });
      assert.deepEqual(plain.body, [mine]);
      const one = await t.req('GET', `${API}${base}/${mine.id}`, { token: c.token });
      assert.equal(one.status, 200);
      assert.deepEqual(one.body, mine);
      assertError(await t.req('GET', `${API}${base}/${theirs.id}`, { token: c.token }), 404, 'not_found');
      assertError(await t.req('GET', `${API}${base}/999999`, { token: c.token }), 404, 'not_found');
      assertError(await t.req('GET', `${API}${base}/abc`, { token: c.token }), 400, 'bad_request');
      const empty = await newCustomer();
      assert.deepEqual((await t.req('GET', `${API}${base}`, { token: empty.token })).body.member, []);
    });

    test('update: partial; defaults move and clear', async () => {
      const c = await newCustomer();
      const a = (await t.req('POST', `${API}${base}`, { token: c.token, body: valid() })).body;
      const b = (await t.req('POST', `${API}${base}`, { token: c.token, body: valid() })).body;
      const r = await t.req('PUT', `${API}${base}/${a.id}`, {
        token: c.token,
        body: { city: 'San Jose', fax: '555-9', id: b.id, customerId: 1 },
      });
      assert.equal(r.status, 200, r.text);
      assert.equal(r.body.id, a.id);
      assert.equal(r.body.customerId, c.id);
      assert.equal(r.body.city, 'San Jose');
      assert.equal(r.body.fax, '555-9');
      assert.deepEqual(r.body.street, a.street);
      assert.equal(r.body.regionId, california);
      assert.equal(r.body.isDefaultBilling, true);

      const region = await t.req('PUT', `${API}${base}/${a.id}`, { token: c.token, body: { region: 'New York', fax: null } });
      assert.equal(region.body.regionId, newYork);
      assert.equal(region.body.region, 'New York');
      assert.ok(!('fax' in region.body));

      const moved = await t.req('PUT', `${API}${base}/${b.id}`, { token: c.token, body: { isDefaultBilling: true } });
      assert.equal(moved.body.isDefaultBilling, true);
      assert.equal(moved.body.isDefaultShipping, false);
      assert.deepEqual(await defaults(c.id), { billing: b.id, shipping: a.id });
      const cleared = await t.req('PUT', `${API}${base}/${a.id}`, { token: c.token, body: { isDefaultShipping: false } });
      assert.equal(cleared.body.isDefaultShipping, false);
      assert.deepEqual(await defaults(c.id), { billing: b.id, shipping: null });
      const notDefault = await t.req('PUT', `${API}${base}/${a.id}`, { token: c.token, body: { isDefaultBilling: false } });
      assert.equal(notDefault.status, 200);
      assert.deepEqual(await defaults(c.id), { billing: b.id, shipping: null });
    });

    test('update: refusals change nothing', async () => {
      const c = await newCustomer();
      const other = await newCustomer();
      const a = (await t.req('POST', `${API}${base}`, { token: c.token, body: valid() })).body;
      const theirs = (await t.req('POST', `${API}${base}`, { token: other.token, body: valid() })).body;
      const before = await addressRow(a.id);
      for (const body of [
        { firstname: '' },
        { telephone: null },
        { street: [] },
        { street: ['1', '2', '3', '4', '5'] },
        { countryId: 'XX' },
        { countryId: null },
        { regionId: 999999 },
        { regionId: null, city: 'Changed' },
        { city: 5 },
      ]) {
        assertError(await t.req('PUT', `${API}${base}/${a.id}`, { token: c.token, body }), 400, 'bad_request');
      }
      assert.deepEqual(await addressRow(a.id), before);
      const theirsBefore = await addressRow(theirs.id);
      assertError(
        await t.req('PUT', `${API}${base}/${theirs.id}`, { token: c.token, body: { city: 'Stolen', isDefaultBilling: true } }),
        404,
        'not_found',
      );
      assert.deepEqual(await addressRow(theirs.id), theirsBefore);
      assert.deepEqual(await defaults(c.id), { billing: a.id, shipping: a.id });
      assertError(await t.req('PUT', `${API}${base}/999999`, { token: c.token, body: { city: 'X' } }), 404);
    });

    test("delete: 204; the default it was is cleared; another customer's is 404", async () => {
      const c = await newCustomer();
      const other = await newCustomer();
      const a = (await t.req('POST', `${API}${base}`, { token: c.token, body: valid() })).body;
      const b = (await t.req('POST', `${API}${base}`, { token: c.token, body: { ...valid(), isDefaultShipping: true } })).body;
      const theirs = (await t.req('POST', `${API}${base}`, { token: other.token, body: valid() })).body;
      assertError(await t.req('DELETE', `${API}${base}/${theirs.id}`, { token: c.token }), 404, 'not_found');
      assert.ok(await addressRow(theirs.id));
      const del = await t.req('DELETE', `${API}${base}/${a.id}`, { token: c.token });
      assert.equal(del.status, 204);
      assert.equal(del.text, '');
      assert.deepEqual(await defaults(c.id), { billing: null, shipping: b.id });
      assertError(await t.req('GET', `${API}${base}/${a.id}`, { token: c.token }), 404);
      assertError(await t.req('DELETE', `${API}${base}/${a.id}`, { token: c.token }), 404);
      assert.equal(await addressCount(c.id), 1);
    });

    test('access: anonymous 401; admin and API tokens 403', async () => {
      const c = await newCustomer();
      const a = (await t.req('POST', `${API}${base}`, { token: c.token, body: valid() })).body;
      const client = await t.tokens.client();
      const before = await addressRow(a.id);
      for (const [method, path, body] of [
        ['GET', base, undefined],
        ['POST', base, valid()],
        ['GET', `${base}/${a.id}`, undefined],
        ['PUT', `${base}/${a.id}`, { city: 'X' }],
        ['DELETE', `${base}/${a.id}`, undefined],
      ] as const) {
        assertError(await t.req(method, `${API}${path}`, { body }), 401, 'unauthorized');
        for (const token of [admin, client]) {
          const r = await t.req(method, `${API}${path}`, { token, body });
          assertError(r, 403, 'forbidden');
          assert.equal(r.body.message, 'Customer identity required');
        }
      }
      assert.deepEqual(await addressRow(a.id), before);
      assert.equal(await addressCount(c.id), 1);
    });
  });
}

describe('/customers/{customerId}/addresses (admin)', () => {
  test('list and create with addresses permissions', async () => {
    const c = await newCustomer();
    const reader = await t.tokens.apiUser(['addresses/read']);
    const writer = await t.tokens.apiUser(['addresses/write']);
    const empty = await t.req('GET', `${API}/customers/${c.id}/addresses`, { token: reader });
    assert.equal(empty.status, 200);
    assert.deepEqual(empty.body.member, []);
    const created = await t.req('POST', `${API}/customers/${c.id}/addresses`, { token: writer, body: valid() });
    assert.equal(created.status, 201, created.text);
    assert.equal(created.body.customerId, c.id);
    assert.equal(created.body.isDefaultBilling, true);
    const list = await t.req('GET', `${API}/customers/${c.id}/addresses`, { token: admin, headers: { accept: 'application/json' } });
    assert.deepEqual(list.body, [created.body]);
    const own = await t.req('GET', `${API}/customers/me/addresses/${created.body.id}`, { token: c.token });
    assert.deepEqual(own.body, created.body);
  });

  test('refusals', async () => {
    const c = await newCustomer();
    const other = await newCustomer();
    assertError(await t.req('GET', `${API}/customers/999999/addresses`, { token: admin }), 404, 'not_found');
    assertError(await t.req('POST', `${API}/customers/999999/addresses`, { token: admin, body: valid() }), 404, 'not_found');
    assertError(
      await t.req('GET', `${API}/customers/${c.id}/addresses`, { token: await t.tokens.apiUser(['customers/read']) }),
      403,
      'forbidden',
    );
    assertError(
      await t.req('POST', `${API}/customers/${c.id}/addresses`, { token: await t.tokens.apiUser(['addresses/read']), body: valid() }),
      403,
    );
    assertError(await t.req('GET', `${API}/customers/${c.id}/addresses`, { token: c.token }), 403, 'forbidden');
    assertError(await t.req('GET', `${API}/customers/${c.id}/addresses`, { token: other.token }), 403, 'forbidden');
    assertError(await t.req('POST', `${API}/customers/${c.id}/addresses`, { token: c.token, body: valid() }), 403);
    assertError(await t.req('GET', `${API}/customers/${c.id}/addresses`), 401, 'unauthorized');
    const missing = await t.req('POST', `${API}/customers/${c.id}/addresses`, { token: admin, body: { firstname: 'A', lastname: 'B' } });
    assertError(missing, 400);
    assert.equal(missing.body.message, 'Missing required fields: street, city, postcode, countryId, telephone');
    assertError(await t.req('GET', `${API}/customers/abc/addresses`, { token: admin }), 400);
    assert.equal(await addressCount(c.id), 0);
  });
});
