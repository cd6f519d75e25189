/** Health and readiness probes, and the request id every reply carries. */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { API, buildTestApp, type TestApp } from '../helpers.js';

let t: TestApp;
before(async () => {
  t = await buildTestApp();
});
after(() => t.close());

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

describe('health and readiness', () => {
  test('GET /health is 200 without touching anything else', async () => {
    const r = await t.req('GET', '/health');
    assert.equal(r.status, 200);
    // outside production it names the process (which worker of a cluster answered)
    assert.deepEqual(r.body, { status: 'ok', process: process.pid });
  });

  test('GET /ready is 200 and names the database kind', async () => {
    const r = await t.req('GET', '/ready');
    assert.equal(r.status, 200);
    assert.deepEqual(r.body, { status: 'ready', database: t.database.kind });
    assert.equal(t.database.kind, process.env.TEST_DATABASE_URL ? 'postgres' : 'pglite');
  });

  test('the probes need no token and ignore a bad one', async () => {
    for (const url of ['/health', '/ready']) {
      const r = await t.req('GET', url, { token: 'not-a-jwt' });
      assert.equal(r.status, 200, url);
    }
  });
});

describe('request id', () => {
  test('a well-formed X-Request-Id is echoed', async () => {
    const r = await t.req('GET', `${API}/store-config`, { headers: { 'x-request-id': 'client-abc_123.4' } });
    assert.equal(r.headers['x-request-id'], 'client-abc_123.4');
  });

  test('without one, a fresh UUID is generated for each request', async () => {
    const a = await t.req('GET', `${API}/store-config`);
    const b = await t.req('GET', `${API}/store-config`);
    assert.match(String(a.headers['x-request-id']), UUID);
    assert.match(String(b.headers['x-request-id']), UUID);
    assert.notEqual(a.headers['x-request-id'], b.headers['x-request-id']);
  });

  test('a malformed or oversized X-Request-Id is replaced, not echoed', async () => {
    for (const given of ['has space', 'semi;colon', '<script>', 'x'.repeat(129), '']) {
      const r = await t.req('GET', `${API}/store-config`, { headers: { 'x-request-id': given } });
      assert.match(String(r.headers['x-request-id']), UUID, JSON.stringify(given));
    }
  });

  test('error replies, unknown routes and non-API routes carry the id too', async () => {
    const cases = [
      await t.req('GET', `${API}/nowhere`, { headers: { 'x-request-id': 'req-404' } }),
      await t.req('POST', `${API}/auth/token`, { raw: '{bad', headers: { 'content-type': 'application/json', 'x-request-id': 'req-400' } }),
      await t.req('GET', '/health', { headers: { 'x-request-id': 'req-health' } }),
      await t.req('POST', '/api/graphql', { body: { query: '{ apiVersion }' }, headers: { 'x-request-id': 'req-gql' } }),
    ];
    assert.deepEqual(
      cases.map((r) => r.headers['x-request-id']),
      ['req-404', 'req-400', 'req-health', 'req-gql'],
    );
  });
});
