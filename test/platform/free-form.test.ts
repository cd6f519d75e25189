/**
 * Free-form JSON is capped: values without a schema at 10 levels and 16 KB (a 400 naming the field, nothing
 * stored), and every JSON body at 32 levels before it is parsed, so that 50,000 levels get a 400, never a 5xx.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { sql } from 'drizzle-orm';
import { graphql, GraphQLObjectType, GraphQLSchema } from 'graphql';
import { rows } from '../../src/platform/db.js';
import { documentDepth, jsonScalar } from '../../src/platform/graphql.js';
import { createTestProduct } from '../fixtures/catalog.js';
import { TEST_ADDRESS } from '../fixtures/checkout.js';
import { API, buildTestApp, type Res, type TestApp } from '../helpers.js';

let t: TestApp;
let admin: string;
let sku: string;
before(async () => {
  t = await buildTestApp();
  admin = await t.tokens.admin();
  sku = (await createTestProduct(t, { price: 10, stockData: { qty: 100, isInStock: true } })).sku as string;
});
after(() => t.close());

/** A value `levels` objects deep: {"a":{"a":...1}}. */
function nested(levels: number): unknown {
  let v: unknown = 1;
  for (let i = 0; i < levels; i++) v = { a: v };
  return v;
}

/** JSON text 50,000 arrays deep, as a raw body with `head` before it. */
const DEEP = (head: string) => `${head}${'['.repeat(50_000)}${']'.repeat(50_000)}}`;

function assertBad(r: Res, message?: RegExp) {
  assert.equal(r.status, 400, r.text);
  assert.equal(r.body.error, 'bad_request');
  assert.equal(r.body.code, 400);
  if (message) assert.match(r.body.message, message);
}

async function cart(): Promise<string> {
  const m = (await t.req('POST', `${API}/guest-carts`, { body: {} })).body.maskedId as string;
  assert.equal((await t.req('POST', `${API}/guest-carts/${m}/items`, { body: { sku, qty: 1 } })).status, 200);
  assert.equal((await t.req('PUT', `${API}/guest-carts/${m}/shipping-address`, { body: TEST_ADDRESS })).status, 200);
  return m;
}

const json = { 'content-type': 'application/json' };

describe('payment method additionalData', () => {
  test('10 levels are kept; 11 levels, 16 KB and 50,000 levels are a 400 and nothing is stored', async () => {
    const m = await cart();
    const url = `${API}/guest-carts/${m}/payment-method`;
    const ok = await t.req('PUT', url, { body: { methodCode: 'checkmo', additionalData: nested(10) } });
    assert.equal(ok.status, 200, ok.text);
    const stored = async () =>
      (await rows<{ d: unknown }>(t.database.db, sql`SELECT payment_data AS d FROM carts WHERE masked_id = ${m}`))[0].d;
    const before = await stored();
    const eleven = await t.req('PUT', url, { body: { methodCode: 'checkmo', additionalData: nested(11) } });
    assertBad(eleven, /^additionalData is nested too deeply \(at most 10 levels\)$/);
    assert.deepEqual(eleven.body.details, { field: 'additionalData', constraint: 'x-free-form', in: 'body' });
    assertBad(
      await t.req('PUT', url, { body: { methodCode: 'checkmo', additionalData: { big: 'x'.repeat(17 * 1024) } } }),
      /additionalData is too large/,
    );
    const deep = await t.req('PUT', url, { raw: DEEP('{"methodCode":"checkmo","additionalData":{"a":'), headers: json });
    assertBad(deep, /^additionalData is nested too deeply \(a request body may nest at most 32 levels\)$/);
    assert.deepEqual(deep.body.details, { field: 'additionalData', constraint: 'maxDepth', in: 'body', maxDepth: 32 });
    assertBad(await t.req('PUT', url, { raw: DEEP('{"methodCode":'), headers: json }), /^methodCode is nested too deeply/);
    const root = await t.req('PUT', url, { raw: `${'['.repeat(50_000)}${']'.repeat(50_000)}`, headers: json });
    assertBad(root, /^The request body is nested too deeply \(at most 32 levels\)$/);
    assert.equal(root.body.details.field, 'body');
    assert.deepEqual(await stored(), before);
  });
});

describe('place-order paymentData', () => {
  test('deep or large paymentData is a 400 and no order is written', async () => {
    const m = await cart();
    const [{ n: orders }] = await rows<{ n: string }>(t.database.db, sql`SELECT count(*)::text AS n FROM orders`);
    const place = {
      billingAddress: { sameAsShipping: true },
      shippingMethod: 'flatrate_flatrate',
      paymentMethod: 'checkmo',
      guestEmail: 'ff@example.com',
    };
    const url = `${API}/guest-carts/${m}/place-order`;
    assertBad(await t.req('POST', url, { body: { ...place, paymentData: nested(11) } }), /paymentData is nested too deeply/);
    assertBad(await t.req('POST', url, { body: { ...place, paymentData: { note: 'y'.repeat(20_000) } } }), /paymentData is too large/);
    assertBad(
      await t.req('POST', url, { raw: DEEP(`${JSON.stringify(place).slice(0, -1)},"paymentData":{"a":`), headers: json }),
      /^paymentData is nested too deeply/,
    );
    assertBad(
      await t.req('POST', `${API}/orders`, { body: { cartId: m, ...place, paymentData: nested(12) } }),
      /paymentData is nested too deeply/,
    );
    const [{ n: after }] = await rows<{ n: string }>(t.database.db, sql`SELECT count(*)::text AS n FROM orders`);
    assert.equal(after, orders);
    const ok = await t.req('POST', url, { body: { ...place, paymentData: nested(3) } });
    assert.equal(ok.status, 201, ok.text);
  });
});

describe('other free-form values', () => {
  test('contact form extra fields and product customAttributesWrite values are capped', async () => {
    const contact = { name: 'Deep', email: 'deep@example.com', comment: 'hi' };
    assertBad(await t.req('POST', `${API}/contact`, { body: { ...contact, extra: nested(11) } }), /extra is nested too deeply/);
    assertBad(await t.req('POST', `${API}/contact`, { raw: DEEP('{"name":"x","extra":{"a":'), headers: json }), /nested too deeply/);
    const product = { sku: `ff-${Date.now()}`, name: 'Deep product', price: 1 };
    const r = await t.req('POST', `${API}/products`, { token: admin, body: { ...product, customAttributesWrite: { note: nested(11) } } });
    assertBad(r, /customAttributesWrite\.note is nested too deeply/);
    assertBad(
      await t.req('POST', `${API}/products`, { token: admin, raw: DEEP(`{"sku":"x","customAttributesWrite":{"note":`), headers: json }),
    );
    const [{ n }] = await rows<{ n: string }>(t.database.db, sql`SELECT count(*)::text AS n FROM products WHERE sku = ${product.sku}`);
    assert.equal(n, '0');
  });

  test('a field with a schema given 50,000 levels is a 400; JSON-LD and merge-patch bodies too; GraphQL variables too', async () => {
    const m = await cart();
    assertBad(await t.req('POST', `${API}/guest-carts/${m}/items`, { raw: DEEP('{"sku":'), headers: json }), /nested too deeply/);
    for (const type of ['application/ld+json', 'application/merge-patch+json']) {
      assertBad(
        await t.req('POST', `${API}/guest-carts/${m}/items`, { raw: DEEP('{"sku":'), headers: { 'content-type': type } }),
        /nested too deeply/,
      );
    }
    // 32 levels of a schema'd value are parsed, then refused by the schema
    assertBad(await t.req('POST', `${API}/guest-carts/${m}/items`, { body: { sku: nested(31) } }));
    const g = await t.req('POST', '/api/graphql', { raw: DEEP('{"query":"{ apiVersion }","variables":{"x":'), headers: json });
    assert.ok(g.status < 500, g.text);
    assert.equal(g.body.data ?? null, null);
    assert.match(JSON.stringify(g.body.errors), /nested too deeply/);
  });

  test('brackets inside strings do not count', async () => {
    const m = await cart();
    const r = await t.req('PUT', `${API}/guest-carts/${m}/payment-method`, {
      body: { methodCode: 'checkmo', additionalData: { note: '['.repeat(5000) + '"\\{' } },
    });
    assert.equal(r.status, 200, r.text);
  });
});

describe('bodies without a schema of their own', () => {
  test('the ignored bodies of /auth/refresh and /auth/logout are capped like any free-form value', async () => {
    const token = await t.tokens.customer();
    const r = await t.req('POST', `${API}/auth/logout`, { token, body: nested(11) });
    assertBad(r, /^body is nested too deeply \(at most 10 levels\)$/);
    assert.equal(r.body.details.field, 'body');
    assertBad(await t.req('POST', `${API}/auth/refresh`, { token, raw: DEEP('{"a":'), headers: json }), /nested too deeply/);
    const ok = await t.req('POST', `${API}/auth/refresh`, { token, body: nested(10) });
    assert.equal(ok.status, 200, ok.text);
  });
});

describe('GraphQL', () => {
  const gql = (query: string) => t.req('POST', '/api/graphql', { body: { query } });

  test('a query nested 50,000 deep (selections, list or object literals) is an error before parsing, never a 5xx', async () => {
    for (const query of [
      `{ apiVersion(x: ${'['.repeat(50_000)}1${']'.repeat(50_000)}) }`,
      `{ apiVersion(x: ${'{a: '.repeat(50_000)}1${'}'.repeat(50_000)}) }`,
      `query ${'{ a '.repeat(50_000)}${'}'.repeat(50_000)}`,
    ]) {
      const r = await gql(query);
      assert.equal(r.status, 200, r.text.slice(0, 300));
      assert.equal(r.body.data, null);
      assert.equal(r.body.errors[0].message, 'The query is nested too deeply (at most 64 levels of braces and brackets)');
      assert.equal(r.body.errors[0].extensions.code, 'GRAPHQL_VALIDATION_FAILED');
    }
    const get = await t.req('GET', `/api/graphql?query=${encodeURIComponent(`{ apiVersion(x: ${'['.repeat(50_000)}) }`)}`);
    assert.match(get.body.errors[0].message, /nested too deeply/);
  });

  test('braces in strings, block strings and comments do not count', async () => {
    const many = '{['.repeat(100);
    const r = await gql(`# ${many}\n{ apiVersion }`);
    assert.deepEqual(r.body, { data: { apiVersion: '2' } });
    assert.equal(documentDepth(`{ a(s: "${many}\\"${many}", b: """${many} \\""" ${many}""") }`), 1);
    assert.equal(documentDepth(`{ a { b(x: [[{c: 1}]]) } }`), 5);
  });

  describe('the JSON scalar as an input', () => {
    // no field of the API takes JSON input today; a schema of one field checks the scalar Mercurius is given
    const schema = new GraphQLSchema({
      query: new GraphQLObjectType({
        name: 'Query',
        fields: { echo: { type: jsonScalar, args: { v: { type: jsonScalar } }, resolve: (_: unknown, a: { v: unknown }) => a.v } },
      }),
    });
    const literal = (levels: number) => `${'{a: '.repeat(levels)}1${'}'.repeat(levels)}`;

    test('variables: 10 levels pass, 11 levels, 16 KB and 50,000 levels are refused naming the variable', async () => {
      const run = (v: unknown) => graphql({ schema, source: 'query ($v: JSON) { echo(v: $v) }', variableValues: { v } });
      assert.deepEqual(JSON.parse(JSON.stringify((await run(nested(10))).data)), { echo: nested(10) });
      for (const [v, why] of [
        [nested(11), /^Variable "\$v" got invalid value .*; A JSON value is nested too deeply \(at most 10 levels\)$/s],
        [
          { big: 'x'.repeat(17 * 1024) },
          /^Variable "\$v" got invalid value .*; A JSON value is too large \(at most 16384 bytes of JSON\)$/s,
        ],
        [nested(50_000), /A JSON value is nested too deeply/],
      ] as const) {
        const r = await run(v);
        assert.equal(r.data, undefined);
        assert.match(r.errors?.[0]?.message ?? '', why);
      }
    });

    test('literals: 10 levels pass, 11 levels are refused', async () => {
      const ok = await graphql({ schema, source: `{ echo(v: ${literal(10)}) }` });
      assert.deepEqual(JSON.parse(JSON.stringify(ok.data)), { echo: nested(10) });
      const bad = await graphql({ schema, source: `{ echo(v: ${literal(11)}) }` });
      assert.match(bad.errors?.[0]?.message ?? '', /A JSON value is nested too deeply \(at most 10 levels\)/);
    });
  });
});
