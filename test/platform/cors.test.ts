/** CORS: configured origins only, the API's own request headers allowed, no credentials. */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { API, buildTestApp, type TestApp } from '../helpers.js';

const SHOP = 'https://shop.example';
const LOCAL = 'http://localhost:3000';
const EVIL = 'https://evil.example';

let t: TestApp;
let closed: TestApp;
before(async () => {
  t = await buildTestApp({ env: { CORS_ORIGINS: `${SHOP}, ${LOCAL}/` } });
  closed = await buildTestApp();
});
after(async () => {
  await t.close();
  await closed.close();
});

const preflight = (app: TestApp, origin: string, method = 'POST', headers = 'content-type') =>
  app.req('OPTIONS', `${API}/stores/switch/default`, {
    headers: { origin, 'access-control-request-method': method, 'access-control-request-headers': headers },
  });

const list = (v: unknown) =>
  String(v ?? '')
    .split(',')
    .map((s) => s.trim().toLowerCase())
    .filter(Boolean);

describe('CORS with CORS_ORIGINS set', () => {
  test('a preflight from a configured origin is allowed with the API headers and methods', async () => {
    const r = await preflight(
      t,
      SHOP,
      'POST',
      'authorization,content-type,x-store-code,x-currency-code,x-idempotency-key,x-order-token,if-none-match',
    );
    assert.equal(r.status, 204);
    assert.equal(r.headers['access-control-allow-origin'], SHOP);
    const allowed = list(r.headers['access-control-allow-headers']);
    for (const h of [
      'authorization',
      'content-type',
      'x-store-code',
      'x-currency-code',
      'x-idempotency-key',
      'x-order-token',
      'if-none-match',
    ]) {
      assert.ok(allowed.includes(h), `${h} allowed`);
    }
    const methods = list(r.headers['access-control-allow-methods']);
    for (const m of ['get', 'post', 'put', 'delete']) assert.ok(methods.includes(m), `${m} allowed`);
    assert.equal(r.headers['access-control-allow-credentials'], undefined);
  });

  test('every configured origin is allowed (a trailing slash in the setting is fine)', async () => {
    const r = await preflight(t, LOCAL);
    assert.equal(r.headers['access-control-allow-origin'], LOCAL);
  });

  test('a simple request from a configured origin gets the origin and the exposed headers, without credentials', async () => {
    const r = await t.req('GET', `${API}/stores`, { headers: { origin: SHOP } });
    assert.equal(r.status, 200);
    assert.equal(r.headers['access-control-allow-origin'], SHOP);
    assert.equal(r.headers['access-control-allow-credentials'], undefined);
    const exposed = list(r.headers['access-control-expose-headers']);
    for (const h of ['etag', 'x-request-id', 'x-idempotency-replayed']) assert.ok(exposed.includes(h), `${h} exposed`);
  });

  test('a reply that depends on the Origin says so in Vary, so shared caches keep them apart', async () => {
    const r = await t.req('GET', `${API}/stores`, { headers: { origin: SHOP } });
    assert.ok(list(r.headers.vary).includes('origin'), `Vary: ${r.headers.vary}`);
  });

  test('error replies to a configured origin are readable by the browser', async () => {
    const r = await t.req('GET', `${API}/no-such-route`, { headers: { origin: SHOP } });
    assert.equal(r.status, 404);
    assert.equal(r.headers['access-control-allow-origin'], SHOP);
  });

  test('another origin gets no Access-Control-Allow-Origin, on preflight or request', async () => {
    const p = await preflight(t, EVIL);
    assert.equal(p.headers['access-control-allow-origin'], undefined);
    const r = await t.req('GET', `${API}/stores`, { headers: { origin: EVIL } });
    assert.equal(r.headers['access-control-allow-origin'], undefined);
    for (const lookalike of [`${SHOP}.evil.example`, 'http://shop.example', `${SHOP}:8443`, 'null']) {
      const x = await t.req('GET', `${API}/stores`, { headers: { origin: lookalike } });
      assert.equal(x.headers['access-control-allow-origin'], undefined, lookalike);
    }
  });
});

describe('CORS without CORS_ORIGINS', () => {
  test('no origin is allowed', async () => {
    const p = await preflight(closed, SHOP);
    assert.equal(p.headers['access-control-allow-origin'], undefined);
    const r = await closed.req('GET', `${API}/stores`, { headers: { origin: SHOP } });
    assert.equal(r.status, 200);
    assert.equal(r.headers['access-control-allow-origin'], undefined);
  });
});
