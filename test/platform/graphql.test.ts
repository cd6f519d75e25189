/** The GraphQL endpoint's own behaviour: the base schema, and errors reported as GraphQL errors, never a 5xx. */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { buildTestApp, type TestApp } from '../helpers.js';

let t: TestApp;
before(async () => {
  t = await buildTestApp();
});
after(() => t.close());

const gql = (query: string, opts: { token?: string; variables?: Record<string, unknown> } = {}) =>
  t.req('POST', '/api/graphql', { token: opts.token, body: { query, variables: opts.variables } });

describe('GraphQL', () => {
  test('POST { apiVersion } answers "2"', async () => {
    const r = await gql('{ apiVersion }');
    assert.equal(r.status, 200);
    assert.deepEqual(r.body, { data: { apiVersion: '2' } });
  });

  test('GET with the query in the URL works too', async () => {
    const r = await t.req('GET', `/api/graphql?query=${encodeURIComponent('{ apiVersion }')}`);
    assert.equal(r.status, 200);
    assert.deepEqual(r.body, { data: { apiVersion: '2' } });
  });

  test('the base mutation works for an anonymous caller', async () => {
    const r = await gql('mutation { ping }');
    assert.deepEqual(r.body, { data: { ping: true } });
  });

  test('a syntax error is a GraphQL error that says where, not a 5xx', async () => {
    const r = await gql('{ apiVersion ');
    assert.ok(r.status < 500, String(r.status));
    assert.equal(r.body.data, null);
    assert.equal(r.body.errors.length, 1);
    assert.match(r.body.errors[0].message, /^Syntax Error/);
    assert.equal(r.body.errors[0].extensions.code, 'GRAPHQL_PARSE_FAILED');
    assert.deepEqual(r.body.errors[0].locations, [{ line: 1, column: 14 }]);
  });

  test('an unknown field is a validation error naming the field', async () => {
    const r = await gql('{ apiVersion noSuchField }');
    assert.ok(r.status < 500, String(r.status));
    assert.equal(r.body.data, null);
    assert.match(r.body.errors[0].message, /noSuchField/);
    assert.equal(r.body.errors[0].extensions.code, 'GRAPHQL_VALIDATION_FAILED');
  });

  test('a missing or empty query is an error response, not a 5xx', async () => {
    for (const body of [{}, { query: '' }, { query: 42 }]) {
      const r = await t.req('POST', '/api/graphql', { body });
      assert.ok(r.status >= 200 && r.status < 500, `${JSON.stringify(body)}: ${r.status} ${r.text}`);
      assert.ok(Array.isArray(r.body.errors) && r.body.errors.length > 0, r.text);
    }
  });

  test('malformed JSON is an error response, not a 5xx', async () => {
    const r = await t.req('POST', '/api/graphql', { raw: '{"query": ', headers: { 'content-type': 'application/json' } });
    assert.ok(r.status < 500, String(r.status));
    assert.match(r.text, /Invalid JSON in request body/);
  });

  test('a bad bearer token is an authentication error in extensions.code', async () => {
    const r = await gql('{ apiVersion }', { token: 'not-a-jwt' });
    assert.ok(r.status < 500);
    assert.equal(r.body.errors[0].extensions.status, 401);
  });

  test('a valid token is accepted', async () => {
    const r = await gql('{ apiVersion }', { token: await t.tokens.customer() });
    assert.deepEqual(r.body, { data: { apiVersion: '2' } });
  });
});
