import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { asc, eq } from 'drizzle-orm';
import { API, buildTestApp, type Res, type TestApp } from '../../../../test/helpers.js';
import { createTestProduct } from '../../../../test/fixtures/catalog.js';
import { products, tierPrices } from '../tables.js';

let t: TestApp;
let admin: string;
let customer: string;
let reader: string;
let writer: string;
let deleter: string;
let unrelated: string;

before(async () => {
  t = await buildTestApp();
  admin = await t.tokens.admin();
  customer = await t.tokens.customer();
  reader = await t.tokens.apiUser(['products/read']);
  writer = await t.tokens.apiUser(['products/write']);
  unrelated = await t.tokens.apiUser(['orders/read']);
  deleter = await t.tokens.apiUser(['products/delete']);
});
after(() => t.close());

const JSON_ONLY = { accept: 'application/json' };

function assertError(r: Res, status: number, error?: string) {
  assert.equal(r.status, status, r.text);
  if (error) assert.equal(r.body.error, error, r.text);
  assert.equal(typeof r.body.message, 'string');
}

async function stored(productId: number) {
  return t.database.db
    .select({ customerGroupId: tierPrices.customerGroupId, websiteId: tierPrices.websiteId, qty: tierPrices.qty, price: tierPrices.price })
    .from(tierPrices)
    .where(eq(tierPrices.productId, productId))
    .orderBy(asc(tierPrices.id));
}

const url = (id: number) => `${API}/products/${id}/tier-prices`;

describe('tier prices', () => {
  test('POST replaces the set and GET lists it with "productId_index" ids and "all" for every group', async () => {
    const p = await createTestProduct(t, { price: 20 });
    const before = (await t.database.db.select({ u: products.updatedAt }).from(products).where(eq(products.id, p.id)))[0].u;
    const r = await t.req('POST', url(p.id), {
      token: admin,
      body: [
        { customerGroupId: 1, websiteId: 1, qty: 5, price: 18.5 },
        { customerGroupId: 'all', qty: 10, price: 15 },
        { customerGroupId: 32000, qty: 2, price: 19 },
        { qty: 20, price: 12.1234 },
      ],
    });
    assert.equal(r.status, 201, r.text);
    assert.equal(r.body['@type'], 'Collection');
    assert.equal(r.body.totalItems, 4);
    assert.deepEqual(r.body.member, [
      { id: `${p.id}_0`, customerGroupId: 'all', websiteId: 0, qty: 2, price: 19 },
      { id: `${p.id}_1`, customerGroupId: 'all', websiteId: 0, qty: 10, price: 15 },
      { id: `${p.id}_2`, customerGroupId: 'all', websiteId: 0, qty: 20, price: 12.1234 },
      { id: `${p.id}_3`, customerGroupId: 1, websiteId: 1, qty: 5, price: 18.5 },
    ]);
    const g = await t.req('GET', url(p.id), { token: admin, headers: JSON_ONLY });
    assert.equal(g.status, 200);
    assert.deepEqual(g.body, r.body.member);
    const rows = await stored(p.id);
    assert.equal(rows.filter((x) => x.customerGroupId === null).length, 3, 'all groups are stored as null');
    const after = (await t.database.db.select({ u: products.updatedAt }).from(products).where(eq(products.id, p.id)))[0].u;
    assert.ok(after.getTime() >= before.getTime());
  });

  test('{tierPrices: [...]} is accepted, PUT is an alias, and a new set replaces the old one entirely', async () => {
    const p = await createTestProduct(t);
    let r = await t.req('POST', url(p.id), { token: admin, body: { tierPrices: [{ customerGroupId: 2, qty: 3, price: 9 }] } });
    assert.equal(r.status, 201, r.text);
    assert.equal(r.body.totalItems, 1);
    r = await t.req('PUT', url(p.id), {
      token: admin,
      body: [
        { customerGroupId: 0, qty: 4, price: 8 },
        { customerGroupId: 3, qty: 4, price: 8 },
      ],
    });
    assert.equal(r.status, 200, r.text);
    assert.deepEqual(
      r.body.member.map((m: { customerGroupId: unknown }) => m.customerGroupId),
      [0, 3],
    );
    assert.equal((await stored(p.id)).length, 2);
    r = await t.req('POST', url(p.id), { token: admin, body: [] });
    assert.equal(r.status, 201);
    assert.equal((await stored(p.id)).length, 0);
  });

  test('DELETE clears all (204), also when there are none', async () => {
    const p = await createTestProduct(t);
    await t.req('POST', url(p.id), { token: admin, body: [{ qty: 2, price: 5 }] });
    let r = await t.req('DELETE', url(p.id), { token: admin });
    assert.equal(r.status, 204);
    assert.equal(r.text, '');
    assert.equal((await stored(p.id)).length, 0);
    r = await t.req('DELETE', url(p.id), { token: admin });
    assert.equal(r.status, 204);
  });

  test('tier prices may be set on any product type', async () => {
    const p = await createTestProduct(t, { type: 'virtual' });
    const r = await t.req('POST', url(p.id), { token: admin, body: [{ qty: 2, price: 5 }] });
    assert.equal(r.status, 201, r.text);
  });

  test('4 decimal places are kept exactly', async () => {
    const p = await createTestProduct(t);
    const r = await t.req('POST', url(p.id), {
      token: admin,
      body: [
        { qty: 1.5, price: 9.9999 },
        { qty: 2.0001, price: 0.0001 },
      ],
      headers: JSON_ONLY,
    });
    assert.equal(r.status, 201, r.text);
    assert.deepEqual(
      r.body.map((x: { qty: number; price: number }) => [x.qty, x.price]),
      [
        [1.5, 9.9999],
        [2.0001, 0.0001],
      ],
    );
  });

  describe('refused input changes nothing', () => {
    let id: number;
    before(async () => {
      id = (await createTestProduct(t)).id;
      const r = await t.req('POST', url(id), { token: admin, body: [{ qty: 2, price: 9 }] });
      assert.equal(r.status, 201);
    });
    const cases: [string, unknown, RegExp][] = [
      ['qty 0', [{ qty: 0, price: 1 }], /qty must be greater than 0/],
      ['negative qty', [{ qty: -1, price: 1 }], /qty/],
      ['qty too large', [{ qty: 1e9, price: 1 }], /qty must be at most/],
      ['negative price', [{ qty: 1, price: -0.01 }], /price must be at least 0/],
      ['price too large', [{ qty: 1, price: 1e15 }], /price must be at most/],
      // the column keeps 4 decimal places: more is refused rather than rounded away (1e-9 would be stored as 0)
      ['a price of 1e-9', [{ qty: 1, price: 1e-9 }], /\[0\]\.price must have at most 4 decimal places/],
      ['a price with 5 decimal places', [{ qty: 1, price: 9.99999 }], /price must have at most 4 decimal places/],
      ['a qty with 5 decimal places', [{ qty: 1.00001, price: 1 }], /\[0\]\.qty must have at most 4 decimal places/],
      ['missing qty', [{ price: 1 }], /qty/],
      ['missing price', [{ qty: 1 }], /price/],
      ['qty as a string', [{ qty: '2', price: 1 }], /qty/],
      ['unknown customer group', [{ customerGroupId: 999, qty: 1, price: 1 }], /customer group 999 does not exist/],
      ['negative customer group', [{ customerGroupId: -1, qty: 1, price: 1 }], /customer group/],
      ['group as another string', [{ customerGroupId: 'some', qty: 1, price: 1 }], /customerGroupId/],
      ['unknown website', [{ websiteId: 999, qty: 1, price: 1 }], /website 999 does not exist/],
      [
        'duplicate group, website and qty',
        [
          { customerGroupId: 1, qty: 2, price: 1 },
          { customerGroupId: 1, websiteId: 0, qty: 2.0, price: 3 },
        ],
        /already given/,
      ],
      [
        'duplicate "all" given two ways',
        [
          { customerGroupId: 'all', qty: 2, price: 1 },
          { customerGroupId: 32000, qty: 2, price: 3 },
        ],
        /already given/,
      ],
      ['a bare object', { qty: 1, price: 1 }, /./],
      ['a string', 'x', /./],
    ];
    for (const [name, body, msg] of cases) {
      test(`${name} → 400`, async () => {
        const r = await t.req('POST', url(id), { token: admin, body });
        assertError(r, 400, 'bad_request');
        assert.match(r.body.message, msg);
        const rows = await stored(id);
        assert.equal(rows.length, 1);
        assert.equal(Number(rows[0].price), 9);
      });
    }
    test('malformed JSON → 400', async () => {
      const r = await t.req('POST', url(id), { token: admin, raw: '[{"qty": 1,', headers: { 'content-type': 'application/json' } });
      assertError(r, 400, 'bad_request');
      assert.equal((await stored(id)).length, 1);
    });
  });

  test('unknown product → 404 on every route', async () => {
    for (const method of ['GET', 'POST', 'PUT', 'DELETE']) {
      const r = await t.req(method, url(999999), { token: admin, body: method === 'POST' || method === 'PUT' ? [] : undefined });
      assertError(r, 404, 'not_found');
    }
    const r = await t.req('GET', `${API}/products/abc/tier-prices`, { token: admin });
    assertError(r, 400);
  });

  describe('access', () => {
    let id: number;
    before(async () => {
      id = (await createTestProduct(t)).id;
      await t.req('POST', url(id), { token: admin, body: [{ qty: 2, price: 9 }] });
    });
    test('GET needs products/read: anonymous 401, customer 403, unrelated grant 403, reader 200', async () => {
      assertError(await t.req('GET', url(id)), 401, 'unauthorized');
      assertError(await t.req('GET', url(id), { token: customer }), 403, 'forbidden');
      assertError(await t.req('GET', url(id), { token: unrelated }), 403, 'forbidden');
      const r = await t.req('GET', url(id), { token: reader });
      assert.equal(r.status, 200);
      assert.equal(r.body.totalItems, 1);
    });
    test('writes need products/write: anonymous 401, customer 403, reader 403; nothing changes', async () => {
      for (const method of ['POST', 'PUT', 'DELETE']) {
        const body = method === 'DELETE' ? undefined : [{ qty: 5, price: 1 }];
        assertError(await t.req(method, url(id), { body }), 401, 'unauthorized');
        assertError(await t.req(method, url(id), { token: customer, body }), 403, 'forbidden');
        assertError(await t.req(method, url(id), { token: reader, body }), 403, 'forbidden');
        // clearing tier prices changes the product: products/delete alone is not enough, for DELETE either
        assertError(await t.req(method, url(id), { token: deleter, body }), 403, 'forbidden');
      }
      const rows = await stored(id);
      assert.equal(rows.length, 1);
      assert.equal(Number(rows[0].qty), 2);
    });
    test('an API user with products/write may replace and clear', async () => {
      let r = await t.req('POST', url(id), { token: writer, body: [{ qty: 3, price: 7 }] });
      assert.equal(r.status, 201, r.text);
      r = await t.req('DELETE', url(id), { token: writer });
      assert.equal(r.status, 204);
    });
  });
});
