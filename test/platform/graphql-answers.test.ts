/**
 * GraphQL answers kept serialized (src/platform/graphql-answers.ts): a query asked again over a page a cache
 * shares answers exactly what executing it answers, follows every write at once, keeps each caller's own prices
 * and access, each set of variables apart, and the limits of the document with those variables.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { countStatements } from '../../src/platform/db.js';
import { createTestProduct } from '../fixtures/catalog.js';
import { API, buildTestApp, type Res, type TestApp } from '../helpers.js';

let t: TestApp;
let admin: string;
let customer: string;
const made: Record<string, any>[] = [];

const FIELDS = 'id _id sku name urlKey price finalPrice stockStatus categoryIds thumbnailUrl';
const LIST = `{ products(first: 20) { totalCount pageInfo { hasNextPage endCursor } edges { cursor node { ${FIELDS} } } } }`;

const post = (query: string, opts: { token?: string; variables?: Record<string, unknown> } = {}): Promise<Res> =>
  t.req('POST', '/api/graphql', { token: opts.token, body: { query, ...(opts.variables ? { variables: opts.variables } : {}) } });

/** Asks `query` `n` times and answers the replies' texts, each checked to be a 200 without errors. */
async function asked(query: string, n: number, opts: { token?: string; variables?: Record<string, unknown> } = {}): Promise<string[]> {
  const texts: string[] = [];
  for (let i = 0; i < n; i++) {
    const r = await post(query, opts);
    assert.equal(r.status, 200, r.text);
    assert.equal(r.body.errors, undefined, r.text);
    texts.push(r.text);
  }
  return texts;
}

before(async () => {
  t = await buildTestApp();
  admin = await t.tokens.admin();
  customer = await t.tokens.customer();
  for (let i = 0; i < 4; i++) made.push(await createTestProduct(t, { name: `Kept answer ${i}`, price: 30 + i }));
});
after(() => t.close());

describe('GraphQL answers asked again', () => {
  test('a listing asked again answers what it answered the first time, in the statements of the REST list', async () => {
    const texts = await asked(LIST, 4);
    assert.ok(texts.every((x) => x === texts[0]));
    const page = JSON.parse(texts[0]).data.products;
    assert.equal(page.totalCount, made.length);
    assert.deepEqual(page.edges.map((e: { node: { sku: string } }) => e.node.sku).sort(), made.map((p) => p.sku).sort());
    assert.equal(page.edges[0].node.id, `${API}/products/${page.edges[0].node._id}`);
    await t.req('GET', `${API}/products?page=1`);
    const rest = await countStatements(() => t.req('GET', `${API}/products?page=1`));
    const graphql = await countStatements(() => post(LIST));
    assert.equal(graphql.result.text, texts[0]);
    assert.equal(graphql.n, rest.n);
  });

  test('a write to the catalog shows in the next answer', async () => {
    const before = (await asked(LIST, 3))[2];
    const r = await t.req('PUT', `${API}/products/${made[0].id}`, { token: admin, body: { name: 'Kept answer renamed', price: 12.5 } });
    assert.equal(r.status, 200, r.text);
    const texts = await asked(LIST, 3);
    assert.notEqual(texts[0], before);
    assert.ok(texts.every((x) => x === texts[0]));
    const node = JSON.parse(texts[0]).data.products.edges.find((e: { node: { _id: number } }) => e.node._id === made[0].id).node;
    assert.equal(node.name, 'Kept answer renamed');
    assert.equal(node.price, 12.5);
    assert.ok(!texts[0].includes('"Kept answer 0"'));
  });

  test("a signed-in customer gets the prices of the customer's group, not the answer kept for anonymous shoppers", async () => {
    const r = await t.req('PUT', `${API}/products/${made[1].id}/group-prices`, {
      token: admin,
      body: [{ customerGroupId: 1, price: 21.25 }],
    });
    assert.equal(r.status, 200, r.text);
    const price = (text: string) =>
      JSON.parse(text).data.products.edges.find((e: { node: { _id: number } }) => e.node._id === made[1].id).node.finalPrice;
    const anonymous = await asked(LIST, 3);
    assert.equal(price(anonymous[2]), 31);
    const signedIn = await asked(LIST, 3, { token: customer });
    assert.ok(signedIn.every((x) => price(x) === 21.25));
    assert.equal(price((await asked(LIST, 1))[0]), 31);
  });

  test('each set of variables has its own answer, and keeps the limits of the document with its values', async () => {
    // 30 fields a product: a page of 5 is well within the cost limit, a page of 100 is past it
    const fields = Array.from({ length: 30 }, (_, i) => `f${i}: sku`).join(' ');
    const query = `query Page($n: Int) { products(first: $n) { edges { node { ${fields} } } } }`;
    const size = (text: string) => JSON.parse(text).data.products.edges.length;
    for (let round = 0; round < 3; round++) {
      for (const n of [2, 3]) {
        const texts = await asked(query, 2, { variables: { n } });
        assert.ok(texts.every((x) => size(x) === n));
      }
    }
    for (let i = 0; i < 2; i++) {
      const r = await post(query, { variables: { n: 100 } });
      assert.equal(r.status, 200, r.text);
      assert.equal(r.body.data, null, r.text);
      assert.equal(r.body.errors[0].extensions.code, 'GRAPHQL_VALIDATION_FAILED');
      assert.match(r.body.errors[0].message, /costs more than 2000/);
    }
    assert.equal(size((await asked(query, 1, { variables: { n: 2 } }))[0]), 2);
  });

  test('a list asked by one caller still refuses another who may not read it, and answers the first again', async () => {
    const query = '{ orders(first: 5) { totalCount edges { node { id incrementId } } } }';
    const texts = await asked(query, 3, { token: admin });
    assert.ok(texts.every((x) => x === texts[0]));
    for (const token of [undefined, customer]) {
      const r = await post(query, { token });
      assert.equal(r.status, 200, r.text);
      assert.equal(r.body.data?.orders ?? null, null, r.text);
      assert.equal(r.body.errors.length, 1, r.text);
      assert.equal(r.body.errors[0].extensions.status, token ? 403 : 401, r.text);
      assert.deepEqual(r.body.errors[0].path, ['orders']);
    }
    assert.equal((await asked(query, 1, { token: admin }))[0], texts[0]);
  });

  test('several root fields, aliases, fragments and a root field of another kind each answer their own part', async () => {
    const query = `query Two {
      apiVersion
      one: products(first: 1) { edges { node { ...Listed } } }
      two: products(first: 2, sortDir: "desc") { totalCount edges { node { ...Listed __typename } } }
    }
    fragment Listed on Product { _id sku name }`;
    const texts = await asked(query, 3);
    assert.ok(texts.every((x) => x === texts[0]));
    const data = JSON.parse(texts[0]).data;
    assert.equal(data.apiVersion, '2');
    assert.equal(data.one.edges.length, 1);
    assert.equal(data.two.edges.length, 2);
    assert.equal(data.two.edges[0].node.__typename, 'Product');
    assert.notEqual(data.one.edges[0].node._id, data.two.edges[0].node._id);
    const kept = await asked(query.replace('apiVersion', ''), 3);
    assert.ok(kept.every((x) => x === kept[0]));
    assert.deepEqual(JSON.parse(kept[0]).data, { one: data.one, two: data.two });
  });

  test('the operation a body names is the one answered', async () => {
    const query = `query A { products(first: 1) { edges { node { sku } } } }
      query B { products(first: 2) { edges { node { sku } } } }`;
    for (let i = 0; i < 3; i++) {
      for (const [operationName, n] of [
        ['A', 1],
        ['B', 2],
      ] as const) {
        const r = await t.req('POST', '/api/graphql', { body: { query, operationName } });
        assert.equal(r.status, 200, r.text);
        assert.equal(r.body.data.products.edges.length, n, r.text);
      }
    }
  });
});
