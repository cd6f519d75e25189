/**
 * Stock over GraphQL, as Maho names it: updateStock and bulkUpdateStock (also the spec's updateStockBulk) with
 * `input` and a `stock` payload, and the reads stock(id:) (by SKU) and stocks (a connection); admin grants only.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { API, buildTestApp, type TestApp } from '../../../test/helpers.js';
import { createTestProduct } from '../../../test/fixtures/catalog.js';

let t: TestApp;
let admin: string;
let customer: string;
let readOnly: string;
let writeOnly: string;
const skus: string[] = [];

const gql = (query: string, token?: string, variables?: Record<string, unknown>) => t.gql(query, token, variables);

before(async () => {
  t = await buildTestApp();
  admin = await t.tokens.admin();
  customer = await t.tokens.customer();
  readOnly = await t.tokens.apiUser(['inventory/read']);
  writeOnly = await t.tokens.apiUser(['inventory/write']);
  for (let i = 0; i < 3; i++) {
    const p = await createTestProduct(t, { sku: `gql-stock-${i}` });
    skus.push(p.sku as string);
    const r = await t.req('PUT', `${API}/inventory`, { token: admin, body: { sku: p.sku, qty: 10 + i } });
    assert.equal(r.status, 200, r.text);
  }
});
after(() => t.close());

describe('stock over GraphQL', () => {
  test('updateStock answers the stock record in the payload', async () => {
    const r = await gql(
      `mutation { updateStock(input: {sku: "${skus[0]}", qty: 25, maxSaleQty: 5, clientMutationId: "s"}) {
        clientMutationId stock { sku qty previousQty isInStock manageStock maxSaleQty success } } }`,
      writeOnly,
    );
    assert.equal(r.errors, undefined, JSON.stringify(r.errors));
    assert.deepEqual(r.data.updateStock, {
      clientMutationId: 's',
      stock: { sku: skus[0], qty: 25, previousQty: 10, isInStock: true, manageStock: true, maxSaleQty: 5, success: true },
    });
    // a null on a clearable key clears it; elsewhere it reads as not sent
    const cleared = await gql(
      `mutation { updateStock(input: {sku: "${skus[0]}", maxSaleQty: null, qty: null, isInStock: true}) { stock { qty maxSaleQty } } }`,
      admin,
    );
    assert.equal(cleared.errors, undefined, JSON.stringify(cleared.errors));
    assert.equal(cleared.data.updateStock.stock.qty, 25);
    const read = await gql(`{ stock(id: "${skus[0]}") { sku qty maxSaleQty } }`, admin);
    assert.deepEqual(read.data.stock, { sku: skus[0], qty: 25, maxSaleQty: null });
  });

  test('bulkUpdateStock and its alias updateStockBulk apply every item', async () => {
    for (const name of ['bulkUpdateStock', 'updateStockBulk']) {
      const r = await gql(`mutation ($items: Iterable!) { ${name}(input: {items: $items}) { stock { sku qty success results } } }`, admin, {
        items: [
          { sku: skus[1], qty: 7 },
          { sku: skus[2], qty: 0 },
        ],
      });
      assert.equal(r.errors, undefined, JSON.stringify(r.errors));
      const s = r.data[name].stock;
      assert.equal(s.sku, 'bulk');
      assert.equal(s.success, true);
      assert.deepEqual(
        s.results.map((x: any) => [x.sku, x.qty, x.isInStock, x.success]),
        [
          [skus[1], 7, true, true],
          [skus[2], 0, false, true],
        ],
      );
    }
  });

  test('stock by SKU or IRI form; stocks as a paginated connection', async () => {
    const one = await gql(`{ stock(id: "/api/rest/v2/inventory/${skus[1]}") { sku qty isInStock manageStock minSaleQty } }`, readOnly);
    assert.equal(one.errors, undefined, JSON.stringify(one.errors));
    assert.deepEqual(one.data.stock, { sku: skus[1], qty: 7, isInStock: true, manageStock: true, minSaleQty: 1 });
    const none = await gql('{ stock(id: "no-such-sku") { sku } }', admin);
    assert.equal(none.data.stock, null);
    assert.equal(none.errors[0].extensions.status, 404);

    const all = await gql('{ stocks { totalCount edges { node { sku } } } }', readOnly);
    assert.equal(all.errors, undefined, JSON.stringify(all.errors));
    const total = all.data.stocks.totalCount;
    assert.ok(total >= 3);
    const first = await gql(
      '{ stocks(first: 2) { edges { cursor node { sku } } pageInfo { endCursor hasNextPage hasPreviousPage } } }',
      admin,
    );
    assert.equal(first.data.stocks.edges.length, 2);
    assert.equal(first.data.stocks.pageInfo.hasNextPage, total > 2);
    const next = await gql(
      `{ stocks(first: 100, after: "${first.data.stocks.pageInfo.endCursor}") { edges { node { sku } } pageInfo { hasPreviousPage } } }`,
      admin,
    );
    assert.equal(next.data.stocks.edges.length, total - 2);
    assert.equal(next.data.stocks.pageInfo.hasPreviousPage, true);
    const last = await gql('{ stocks(last: 1) { edges { node { sku } } } }', admin);
    assert.deepEqual(last.data.stocks.edges, [{ node: all.data.stocks.edges[total - 1].node }]);
    const bad = await gql('{ stocks(after: "zzz") { totalCount } }', admin);
    assert.equal(bad.errors[0].extensions.status, 400);
  });

  test('access: anonymous 401, customer and wrong grant 403, for reads and writes', async () => {
    const cases: [string, string | undefined, number][] = [
      [`{ stock(id: "${skus[0]}") { sku } }`, undefined, 401],
      [`{ stock(id: "${skus[0]}") { sku } }`, customer, 403],
      ['{ stocks { totalCount } }', writeOnly, 403],
      [`mutation { updateStock(input: {sku: "${skus[0]}", qty: 1}) { stock { sku } } }`, undefined, 401],
      [`mutation { updateStock(input: {sku: "${skus[0]}", qty: 1}) { stock { sku } } }`, readOnly, 403],
      [`mutation { bulkUpdateStock(input: {items: [{sku: "${skus[0]}", qty: 1}]}) { stock { sku } } }`, customer, 403],
    ];
    for (const [q, token, status] of cases) {
      const r = await gql(q, token);
      assert.equal(r.errors?.[0]?.extensions?.status, status, `${q}: ${JSON.stringify(r.errors)}`);
      assert.equal(Object.values(r.data ?? { x: null })[0], null);
    }
  });

  test('bad input is a 400 naming the field (bulk: the item index), never a 500', async () => {
    const neg = await gql(`mutation { updateStock(input: {sku: "${skus[0]}", qty: -1}) { stock { sku } } }`, admin);
    assert.equal(neg.data.updateStock, null);
    assert.equal(neg.errors[0].extensions.status, 400);
    assert.match(neg.errors[0].message, /qty/);
    const none = await gql(`mutation { updateStock(input: {sku: "${skus[0]}"}) { stock { sku } } }`, admin);
    assert.equal(none.errors[0].extensions.status, 400);
    const unknown = await gql('mutation { updateStock(input: {sku: "gql-nope", qty: 1}) { stock { sku } } }', admin);
    assert.equal(unknown.errors[0].extensions.status, 404);
    const dec = await gql(`mutation { updateStock(input: {sku: "${skus[0]}", qty: 1.5}) { stock { sku } } }`, admin);
    assert.equal(dec.errors[0].extensions.code, 'GRAPHQL_VALIDATION_FAILED');

    const badItem = await gql(
      `mutation { bulkUpdateStock(input: {items: [{sku: "${skus[0]}", qty: 1}, {sku: "${skus[1]}", qty: "5"}]}) { stock { sku } } }`,
      admin,
    );
    assert.equal(badItem.data.bulkUpdateStock, null);
    assert.equal(badItem.errors[0].extensions.status, 400);
    assert.match(badItem.errors[0].message, /^Item at index 1: qty/);
    const noSku = await gql('mutation { updateStockBulk(input: {items: [{qty: 1}]}) { stock { sku } } }', admin);
    assert.match(noSku.errors[0].message, /^Item at index 0: sku is required/);
    const notList = await gql('mutation { bulkUpdateStock(input: {items: {sku: "x"}}) { stock { sku } } }', admin);
    assert.equal(notList.errors[0].extensions.status, 400);
    const empty = await gql('mutation { bulkUpdateStock(input: {items: []}) { stock { sku } } }', admin);
    assert.equal(empty.errors[0].extensions.status, 400);
  });
});
