/**
 * What one GraphQL request may ask for: depth 12, cost 2,000 (a list's fields counted once per item of its page),
 * 100 aliases, 64 KB of document; introspection on
 * outside production (and off when switched off); only GraphQL source text is executed; a bad token is HTTP 401
 * for the whole request and a body too large HTTP 413.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { getIntrospectionQuery } from 'graphql';
import { API, buildTestApp, type Res, type TestApp } from '../helpers.js';

let t: TestApp;
before(async () => {
  t = await buildTestApp();
});
after(() => t.close());

const gql = (query: string, token?: string, variables?: Record<string, unknown>) =>
  t.req('POST', '/api/graphql', { token, body: { query, variables } });

function refused(r: Res, message: RegExp) {
  assert.equal(r.status, 200, r.text);
  assert.equal(r.body.data, null, r.text);
  assert.ok(
    r.body.errors.some((e: { message: string }) => message.test(e.message)),
    r.text.slice(0, 500),
  );
  for (const e of r.body.errors) assert.equal(e.extensions.status, 400);
}

describe('limits', () => {
  test('100 aliases run; 101 are refused', async () => {
    const aliases = (n: number) => `{ ${Array.from({ length: n }, (_, i) => `a${i}: apiVersion`).join(' ')} }`;
    const ok = await gql(aliases(100));
    assert.equal(ok.body.errors, undefined, ok.text.slice(0, 300));
    assert.equal(ok.body.data.a99, '2');
    refused(await gql(aliases(101)), /more than 100 aliases/);
  });

  test('3,000 aliases of an introspection field are refused at once, without running them', async () => {
    const q = `{ ${Array.from({ length: 3000 }, (_, i) => `s${i}: __schema { types { name fields { name } } }`).join(' ')} }`;
    const r = await gql(q);
    refused(r, /aliases|larger than/);
    assert.ok(r.text.length < 10_000, 'no schema was answered');
  });

  test('a cost over 2,000 is refused: 2,001 fields, or fragments spread over and over', async () => {
    refused(await gql(`{ ${'apiVersion '.repeat(2001)}}`), /costs more than 2000/);
    // (graphql-js itself gives up comparing a field with hundreds of twins: such a query is refused whatever its cost)
    const ok = await gql(`{ ${'apiVersion '.repeat(500)}}`);
    assert.equal(ok.body.errors, undefined, ok.text.slice(0, 300));
    // 2^20 fields through 20 fragments that each spread the next twice
    const fragments = Array.from({ length: 20 }, (_, i) => `fragment F${i} on Query { ...F${i + 1} ...F${i + 1} }`).join(' ');
    const bomb = `query { ...F0 } ${fragments} fragment F20 on Query { apiVersion }`;
    refused(await gql(bomb), /costs more than 2000/);
    // a cycle of fragments ends too
    refused(await gql('query { ...A } fragment A on Query { ...B } fragment B on Query { ...A }'), /./);
  });

  test("a list's fields cost once per item of the page it asks for: 100 aliases of products(first: 100) are refused", async () => {
    const aliases = Array.from({ length: 100 }, (_, i) => `p${i}: products(first: 100) { edges { node { sku } } }`).join(' ');
    const r = await gql(`{ ${aliases} }`);
    refused(r, /costs more than 2000/);
    assert.ok(r.text.length < 2_000, 'no product was answered');
    // the same through a variable, and through a fragment
    refused(await gql(`query($n: Int) { ${aliases.replace(/first: 100/g, 'first: $n')} }`, undefined, { n: 100 }), /costs more than 2000/);
    refused(
      await gql(
        `{ ${Array.from({ length: 30 }, (_, i) => `p${i}: products(pageSize: 100) { ...P }`).join(' ')} } fragment P on ProductConnection { edges { node { sku name } } }`,
      ),
      /costs more than 2000/,
    );
    // one full page costs 1 + 100 × (edges, node, 17 fields) = 1,901 and runs; an 18th field is refused
    const fields =
      'id _id sku name type status isActive visibility price urlKey createdAt updatedAt weight specialPrice shortDescription description metaTitle';
    const page = await gql(`{ products(first: 100) { edges { node { ${fields} } } } }`);
    assert.equal(page.body.errors, undefined, page.text.slice(0, 300));
    refused(await gql(`{ products(first: 100) { edges { node { ${fields} metaKeywords } } } }`), /costs more than 2000/);
    // a size past the operation's largest page is counted as the largest page, as it is answered
    const huge = await gql('{ products(first: 1000000) { edges { node { sku name } } } }');
    assert.equal(
      huge.body.errors?.find((e: { message: string }) => /costs/.test(e.message)),
      undefined,
      huge.text.slice(0, 300),
    );
    // the page size of a variable is its value: a small page of many fields runs, a large one is refused
    const many = 'sku name type status isActive visibility price urlKey';
    const small = await gql(`query($n: Int) { products(pageSize: $n) { edges { node { ${many} } } } }`, undefined, { n: 5 });
    assert.equal(small.body.errors, undefined, small.text.slice(0, 300));
    refused(
      await gql(
        `query($n: Int) { a: products(pageSize: $n) { edges { node { ${many} } } } b: products(pageSize: $n) { edges { node { ${many} } } } }`,
        undefined,
        { n: 100 },
      ),
      /costs more than 2000/,
    );
  });

  test('ordinary storefront queries fit: a product list of 20, the category tree, a cart', async () => {
    const list = await gql('{ products(pageSize: 20) { totalCount edges { node { id sku name price urlKey type status } } } }');
    assert.equal(list.body.errors, undefined, list.text.slice(0, 300));
    // the categories' default page is 100
    const tree = await gql('{ categories { totalCount edges { node { id name urlKey level productCount children } } } }');
    assert.equal(tree.body.errors, undefined, tree.text.slice(0, 300));
    const cart = await t.req('POST', `${API}/guest-carts`, { body: {} });
    assert.equal(cart.status, 201, cart.text);
    const read = await gql(`{ guestCart: cart(id: "${cart.body.maskedId}") { maskedId items prices isActive } }`);
    assert.equal(
      read.body.errors?.find((e: { message: string }) => /costs/.test(e.message)),
      undefined,
      read.text.slice(0, 300),
    );
  });

  test('a selection deeper than 12 levels is refused', async () => {
    const deep = (n: number) => `{ ${'a { '.repeat(n - 1)}b${' }'.repeat(n - 1)} }`;
    refused(await gql(deep(13)), /nested more than 12 levels/);
    const r = await gql(deep(12));
    assert.ok(!r.body.errors.some((e: { message: string }) => /levels/.test(e.message)), r.text.slice(0, 300));
  });

  test('a document over 64 KB is refused', async () => {
    refused(await gql(`{ apiVersion ${' '.repeat(65 * 1024)}}`), /larger than 65536 bytes/);
  });
});

describe('introspection', () => {
  test("a client's full schema query fits the limits outside production", async () => {
    const r = await gql(getIntrospectionQuery());
    assert.equal(r.body.errors, undefined, r.text.slice(0, 300));
    assert.ok(r.body.data.__schema.types.some((x: { name: string }) => x.name === 'Order'));
    const type = await gql('{ __type(name: "Order") { fields { name } } }');
    assert.ok(type.body.data.__type.fields.length > 10);
  });

  test('GRAPHQL_INTROSPECTION=0 turns it off; __typename still works', async () => {
    const off = await buildTestApp({ env: { GRAPHQL_INTROSPECTION: '0' } });
    try {
      const r = await off.req('POST', '/api/graphql', { body: { query: '{ __schema { queryType { name } } }' } });
      assert.equal(r.body.data, null);
      assert.match(r.body.errors[0].message, /introspection/i);
      const typename = await off.req('POST', '/api/graphql', { body: { query: '{ __typename }' } });
      assert.deepEqual(typename.body, { data: { __typename: 'Query' } });
    } finally {
      await off.close();
    }
  });
});

describe('only GraphQL source text', () => {
  test('a query that is JSON is a parse error, never executed and never a 5xx', async () => {
    const ast = JSON.stringify({
      kind: 'Document',
      definitions: [
        {
          kind: 'OperationDefinition',
          operation: 'query',
          selectionSet: { kind: 'SelectionSet', selections: [{ kind: 'Field', name: { kind: 'Name', value: 'apiVersion' } }] },
        },
      ],
    });
    for (const query of ['0', '{}', 'null', '[]', '"x"', ast]) {
      const r = await gql(query);
      assert.equal(r.status, 200, r.text);
      assert.equal(r.body.data, null, `${query}: ${r.text}`);
      assert.equal(r.body.errors[0].extensions.code, 'GRAPHQL_PARSE_FAILED', `${query}: ${r.text}`);
    }
    const get = await t.req('GET', `/api/graphql?query=${encodeURIComponent('{}')}`);
    assert.equal(get.body.errors[0].extensions.code, 'GRAPHQL_PARSE_FAILED', get.text);
  });
});

describe('HTTP statuses', () => {
  test('an invalid or expired token is HTTP 401 for the whole request, even for { __typename }', async () => {
    for (const token of ['not-a-jwt', 'eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxIn0.c2lnbmF0dXJl']) {
      const r = await gql('{ __typename }', token);
      assert.equal(r.status, 401, r.text);
      assert.equal(r.body.data, null);
      assert.equal(r.body.errors[0].extensions.status, 401);
    }
    // no token: public fields answer
    assert.deepEqual((await gql('{ __typename }')).body, { data: { __typename: 'Query' } });
  });

  test('a body over BODY_LIMIT is HTTP 413', async () => {
    const r = await t.req('POST', '/api/graphql', {
      raw: JSON.stringify({ query: `{ apiVersion }`, variables: { x: 'y'.repeat(1_100_000) } }),
      headers: { 'content-type': 'application/json' },
    });
    assert.equal(r.status, 413, r.text.slice(0, 300));
  });
});
