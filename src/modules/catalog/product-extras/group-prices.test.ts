import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { asc, eq } from 'drizzle-orm';
import { API, buildTestApp, type Res, type TestApp } from '../../../../test/helpers.js';
import { createTestProduct } from '../../../../test/fixtures/catalog.js';
import { createWebsite } from '../../stores/service.js';
import { tierPrices } from '../tables.js';

let t: TestApp;
let admin: string;
let customer: string;
let reader: string;
let writer: string;
let unrelated: string;
let site2: number;

before(async () => {
  t = await buildTestApp();
  admin = await t.tokens.admin();
  customer = await t.tokens.customer(); // the demo customer is in group 1 (General)
  reader = await t.tokens.apiUser(['products/read']);
  writer = await t.tokens.apiUser(['products/write']);
  unrelated = await t.tokens.apiUser(['orders/read']);
  ({ websiteId: site2 } = await createWebsite(t.database.db, t.services.settings, {
    code: 'gp_outlet',
    name: 'Outlet',
    storeCode: 'gp_outlet',
    storeName: 'Outlet',
  }));
});
after(() => t.close());

const JSON_ONLY = { accept: 'application/json' };
const url = (id: number) => `${API}/products/${id}/group-prices`;

function assertError(r: Res, status: number, error?: string) {
  assert.equal(r.status, status, r.text);
  if (error) assert.equal(r.body.error, error, r.text);
  assert.equal(typeof r.body.message, 'string');
}

async function stored(productId: number) {
  return t.database.db
    .select({
      customerGroupId: tierPrices.customerGroupId,
      websiteId: tierPrices.websiteId,
      qty: tierPrices.qty,
      price: tierPrices.price,
      isGroupPrice: tierPrices.isGroupPrice,
    })
    .from(tierPrices)
    .where(eq(tierPrices.productId, productId))
    .orderBy(asc(tierPrices.id));
}

describe('group prices', () => {
  test('PUT replaces the set and answers it; GET lists it for back-office readers; "all" and 32000 are every group', async () => {
    const p = await createTestProduct(t, { price: 30 });
    const r = await t.req('PUT', url(p.id), {
      token: admin,
      body: [
        { customerGroupId: 1, websiteId: 1, price: 24.95 },
        { customerGroupId: 'all', price: 27.5 },
        { customer_group_id: 2, website_id: 0, price: 20 },
      ],
    });
    assert.equal(r.status, 200, r.text);
    assert.equal(r.body.totalItems, 3);
    assert.deepEqual(r.body.member, [
      { id: `${p.id}_0`, customerGroupId: 'all', websiteId: 0, price: 27.5 },
      { id: `${p.id}_1`, customerGroupId: 2, websiteId: 0, price: 20 },
      { id: `${p.id}_2`, customerGroupId: 1, websiteId: 1, price: 24.95 },
    ]);
    const g = await t.req('GET', url(p.id), { token: reader, headers: JSON_ONLY });
    assert.equal(g.status, 200, g.text);
    assert.deepEqual(g.body, r.body.member);
    const rows = await stored(p.id);
    assert.ok(rows.every((x) => x.isGroupPrice && Number(x.qty) === 1));

    // a second PUT replaces (not adds), and {groupPrices: [...]} is accepted
    const again = await t.req('PUT', url(p.id), { token: writer, body: { groupPrices: [{ customerGroupId: 32000, price: 14.95 }] } });
    assert.equal(again.status, 200, again.text);
    assert.deepEqual(again.body.member, [{ id: `${p.id}_0`, customerGroupId: 'all', websiteId: 0, price: 14.95 }]);
    assert.equal((await stored(p.id)).length, 1);
  });

  test('tier prices and group prices are separate sets in one table', async () => {
    const p = await createTestProduct(t, { price: 30 });
    await t.req('POST', `${API}/products/${p.id}/tier-prices`, { token: admin, body: [{ qty: 5, price: 25 }] });
    await t.req('PUT', url(p.id), { token: admin, body: [{ customerGroupId: 1, price: 26 }] });
    const tiers = await t.req('GET', `${API}/products/${p.id}/tier-prices`, { token: admin, headers: JSON_ONLY });
    assert.deepEqual(tiers.body, [{ id: `${p.id}_0`, customerGroupId: 'all', websiteId: 0, qty: 5, price: 25 }]);
    // replacing tiers keeps the group prices, clearing group prices keeps the tiers
    await t.req('POST', `${API}/products/${p.id}/tier-prices`, { token: admin, body: [{ qty: 10, price: 20 }] });
    let g = await t.req('GET', url(p.id), { token: admin, headers: JSON_ONLY });
    assert.deepEqual(g.body, [{ id: `${p.id}_0`, customerGroupId: 1, websiteId: 0, price: 26 }]);
    const d = await t.req('DELETE', url(p.id), { token: writer });
    assert.equal(d.status, 204, d.text);
    g = await t.req('GET', url(p.id), { token: admin, headers: JSON_ONLY });
    assert.deepEqual(g.body, []);
    const rows = await stored(p.id);
    assert.deepEqual(
      rows.map((x) => [Number(x.qty), Number(x.price), x.isGroupPrice]),
      [[10, 20, false]],
    );
  });

  test('storefront callers see the rows that price them: their group or all groups, on their website', async () => {
    const p = await createTestProduct(t, { price: 30 });
    await t.req('PUT', url(p.id), {
      token: admin,
      body: [
        { customerGroupId: 'all', price: 28 },
        { customerGroupId: 1, price: 25 },
        { customerGroupId: 2, price: 20 },
        { customerGroupId: 1, websiteId: site2, price: 22 },
      ],
    });
    const anon = await t.req('GET', url(p.id), { headers: JSON_ONLY });
    assert.equal(anon.status, 200, anon.text);
    assert.deepEqual(
      anon.body.map((x: { customerGroupId: unknown }) => x.customerGroupId),
      ['all'],
    );
    const mine = await t.req('GET', url(p.id), { token: customer, headers: JSON_ONLY });
    assert.deepEqual(
      mine.body.map((x: { customerGroupId: unknown; price: number }) => [x.customerGroupId, x.price]),
      [
        ['all', 28],
        [1, 25],
      ],
    );
  });

  test('a customer of the group sees the group price in the product read and in cart totals; others do not', async () => {
    const p = await createTestProduct(t, { price: 30, stockData: { qty: 100 } });
    const put = await t.req('PUT', url(p.id), { token: admin, body: [{ customerGroupId: 1, price: 19.99 }] });
    assert.equal(put.status, 200, put.text);

    const asCustomer = await t.req('GET', `${API}/products/${p.id}`, { token: customer, headers: JSON_ONLY });
    assert.equal(asCustomer.status, 200, asCustomer.text);
    assert.equal(asCustomer.body.finalPrice, 19.99);
    assert.equal(asCustomer.body.price, 30);
    assert.deepEqual(asCustomer.body.tierPrices ?? [], [], 'a group price is not a tier price of the read');
    const asGuest = await t.req('GET', `${API}/products/${p.id}`, { headers: JSON_ONLY });
    assert.equal(asGuest.body.finalPrice, 30);

    const cart = await t.req('POST', `${API}/carts`, { token: customer, body: {} });
    assert.ok(cart.status === 200 || cart.status === 201, cart.text);
    let c = await t.req('POST', `${API}/carts/${cart.body.id}/items`, { token: customer, body: { sku: p.sku, qty: 2 } });
    assert.equal(c.status, 200, c.text);
    assert.equal(c.body.items.find((i: { sku: string }) => i.sku === p.sku).price, 19.99);
    c = await t.req('GET', `${API}/carts/${cart.body.id}`, { token: customer, headers: JSON_ONLY });
    assert.equal(c.body.prices.subtotal, 39.98);

    const guest = await t.req('POST', `${API}/guest-carts`, { body: {} });
    const gc = await t.req('POST', `${API}/guest-carts/${guest.body.maskedId}/items`, { body: { sku: p.sku, qty: 2 } });
    assert.equal(gc.status, 200, gc.text);
    assert.equal(gc.body.items[0].price, 30);

    // the lowest of special, tier and group price applies
    await t.req('POST', `${API}/products/${p.id}/tier-prices`, { token: admin, body: [{ customerGroupId: 1, qty: 2, price: 18 }] });
    c = await t.req('GET', `${API}/carts/${cart.body.id}`, { token: customer, headers: JSON_ONLY });
    assert.equal(c.body.prices.subtotal, 36);
    await t.req('DELETE', `${API}/products/${p.id}/tier-prices`, { token: admin });
    await t.req('DELETE', url(p.id), { token: admin });
    c = await t.req('GET', `${API}/carts/${cart.body.id}`, { token: customer, headers: JSON_ONLY });
    assert.equal(c.body.prices.subtotal, 60);
  });

  test('authorization: PUT and DELETE need products/write', async () => {
    const p = await createTestProduct(t, { price: 30 });
    const body = [{ price: 1 }];
    assertError(await t.req('PUT', url(p.id), { body }), 401);
    assertError(await t.req('PUT', url(p.id), { token: customer, body }), 403);
    assertError(await t.req('PUT', url(p.id), { token: reader, body }), 403);
    assertError(await t.req('PUT', url(p.id), { token: unrelated, body }), 403);
    assertError(await t.req('DELETE', url(p.id)), 401);
    assertError(await t.req('DELETE', url(p.id), { token: customer }), 403);
    assertError(await t.req('DELETE', url(p.id), { token: reader }), 403);
    assert.deepEqual(await stored(p.id), []);
  });

  test('a store-restricted token writes the rows of its websites and keeps the others', async () => {
    const p = await createTestProduct(t, { price: 30, websiteIds: [1, site2] });
    await t.req('PUT', url(p.id), {
      token: admin,
      body: [
        { customerGroupId: 1, websiteId: 1, price: 21.5 },
        { customerGroupId: 1, websiteId: site2, price: 23 },
      ],
    });
    const scoped = await t.tokens.apiUser(['products/write', 'products/read'], { allowedStoreIds: [1] });
    assertError(await t.req('PUT', url(p.id), { token: scoped, body: [{ websiteId: site2, price: 1 }] }), 403);
    assertError(await t.req('PUT', url(p.id), { token: scoped, body: [{ websiteId: 0, price: 1 }] }), 403);
    const r = await t.req('PUT', url(p.id), { token: scoped, body: [{ customerGroupId: 2, websiteId: 1, price: 19 }] });
    assert.equal(r.status, 200, r.text);
    assert.deepEqual(
      (await stored(p.id)).map((x) => [x.customerGroupId, x.websiteId, Number(x.price)]).sort(),
      [
        [1, site2, 23],
        [2, 1, 19],
      ].sort(),
    );
    const d = await t.req('DELETE', url(p.id), { token: scoped });
    assert.equal(d.status, 204);
    assert.deepEqual(
      (await stored(p.id)).map((x) => [x.customerGroupId, x.websiteId, Number(x.price)]),
      [[1, site2, 23]],
    );
  });

  test('bad input is a 400 and changes nothing; an unknown product is a 404', async () => {
    const p = await createTestProduct(t, { price: 30 });
    await t.req('PUT', url(p.id), { token: admin, body: [{ customerGroupId: 1, price: 5 }] });
    const before = await stored(p.id);
    for (const body of [
      [{ price: -1 }],
      [{ customerGroupId: 1 }],
      [{ price: 'x' }],
      [{ customerGroupId: 9999, price: 1 }],
      [{ websiteId: 999, price: 1 }],
      [{ customerGroupId: 'some', price: 1 }],
      [
        { customerGroupId: 1, price: 1 },
        { customerGroupId: 1, websiteId: 0, price: 2 },
      ],
      [{ price: 1.23456 }],
      [{ price: 1e15 }],
      'prices',
      { groupPrices: 'x' },
    ]) {
      const r = await t.req('PUT', url(p.id), { token: admin, body });
      assertError(r, 400);
    }
    const raw = await t.req('PUT', url(p.id), { token: admin, raw: '[{"price": 1', headers: { 'content-type': 'application/json' } });
    assertError(raw, 400);
    assert.deepEqual(await stored(p.id), before);
    assertError(await t.req('GET', url(999999), { token: admin }), 404);
    assertError(await t.req('PUT', url(999999), { token: admin, body: [] }), 404);
    assertError(await t.req('DELETE', url(999999), { token: admin }), 404);
    assertError(await t.req('GET', `${API}/products/abc/group-prices`, { token: admin }), 400);
  });

  test('GraphQL: productGroupPrices, replaceProductGroupPrices and clearProductGroupPrices', async () => {
    const p = await createTestProduct(t, { price: 30 });
    const set = await t.gql(
      `mutation { replaceProductGroupPrices(input: {productId: ${p.id}, groupPrices: [{customerGroupId: 1, price: 12.5}]}) { groupPrices { customerGroupId websiteId price } } }`,
      admin,
    );
    assert.equal(set.errors, undefined, JSON.stringify(set.errors));
    assert.deepEqual(set.data.replaceProductGroupPrices.groupPrices, [{ customerGroupId: 1, websiteId: 0, price: 12.5 }]);
    const read = await t.gql(`{ productGroupPrices(productId: ${p.id}) { edges { node { customerGroupId price } } } }`, admin);
    assert.equal(read.errors, undefined, JSON.stringify(read.errors));
    assert.deepEqual(read.data.productGroupPrices.edges, [{ node: { customerGroupId: 1, price: 12.5 } }]);
    const clear = await t.gql(`mutation { clearProductGroupPrices(input: {productId: ${p.id}}) { clientMutationId } }`, admin);
    assert.equal(clear.errors, undefined, JSON.stringify(clear.errors));
    assert.deepEqual(await stored(p.id), []);
  });
});
