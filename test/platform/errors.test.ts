/**
 * Error rendering shared by every route: bad bodies, wrong media types, oversized bodies, unknown routes and
 * hostile paths all get a 4xx in the `{error, message, code}` JSON shape, never HTML and never a 5xx.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { API, buildTestApp, type Res, type TestApp } from '../helpers.js';

let t: TestApp;
let port: number;

before(async () => {
  t = await buildTestApp({ env: { BODY_LIMIT: '2048' } });
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  port = (t.app.server.address() as AddressInfo).port;
});
after(() => t.close());

function assertError(
  r: { status: number; headers: Res['headers']; text: string },
  status: number,
  error?: string,
): Record<string, unknown> {
  assert.equal(r.status, status, r.text);
  assert.match(String(r.headers['content-type']), /^application\/json/);
  const body = JSON.parse(r.text) as Record<string, unknown>;
  assert.equal(typeof body.error, 'string');
  assert.equal(typeof body.message, 'string');
  assert.equal(body.code, status);
  if (error) assert.equal(body.error, error);
  return body;
}

const TOKEN = `${API}/auth/token`;
const SWITCH = `${API}/stores/switch/default`;
const json = { 'content-type': 'application/json' };

describe('request bodies', () => {
  for (const url of [TOKEN, SWITCH]) {
    test(`malformed JSON on ${url} is a 400 "Invalid JSON in request body"`, async () => {
      for (const raw of ['{bad', '{"email": "a@b.c",}', "{'a': 1}", '{"a": 1', 'tru']) {
        const r = await t.req('POST', url, { raw, headers: json });
        const body = assertError(r, 400, 'bad_request');
        assert.equal(body.message, 'Invalid JSON in request body');
      }
    });

    test(`an empty body with a JSON content type on ${url} is a 400`, async () => {
      for (const raw of ['', '   ']) {
        const r = await t.req('POST', url, { raw, headers: json });
        const body = assertError(r, 400, 'bad_request');
        assert.equal(body.message, 'Invalid JSON in request body');
      }
    });
  }

  test('a JSON array, string, number or null where an object is expected is a 400', async () => {
    for (const raw of ['[]', '[{"email":"customer@example.com","password":"Password123!"}]', '"text"', '42', 'null', 'true']) {
      const r = await t.req('POST', TOKEN, { raw, headers: json });
      const body = assertError(r, 400, 'bad_request');
      assert.equal(body.message, 'The request body must be a JSON object', raw);
    }
  });

  test('a POST without any body where an object is expected is a 400', async () => {
    assertError(await t.req('POST', TOKEN, {}), 400, 'bad_request');
  });

  test('text/plain on a POST is a 415', async () => {
    const r = await t.req('POST', TOKEN, {
      raw: '{"email":"customer@example.com","password":"Password123!"}',
      headers: { 'content-type': 'text/plain' },
    });
    assertError(r, 415, 'unsupported_media_type');
  });

  test('XML, multipart and other media types on a POST are a 415', async () => {
    for (const ct of ['application/xml', 'multipart/form-data; boundary=x', 'text/html', 'application/octet-stream']) {
      const r = await t.req('POST', TOKEN, { raw: 'email=a', headers: { 'content-type': ct } });
      assertError(r, 415, 'unsupported_media_type');
    }
  });

  test('a body without a Content-Type is a 415', async () => {
    const r = await t.req('POST', TOKEN, { raw: '{"email":"customer@example.com","password":"Password123!"}' });
    assertError(r, 415, 'unsupported_media_type');
  });

  test('application/ld+json and a charset parameter are accepted as JSON', async () => {
    const body = JSON.stringify({ email: 'customer@example.com', password: 'Password123!' });
    for (const ct of ['application/ld+json', 'application/json; charset=utf-8', 'Application/JSON']) {
      const r = await t.req('POST', TOKEN, { raw: body, headers: { 'content-type': ct } });
      assert.equal(r.status, 200, `${ct}: ${r.text}`);
      assert.equal(typeof r.body.token, 'string');
    }
  });

  test('a body over BODY_LIMIT is a 413; one just under it is parsed', async () => {
    const big = await t.req('POST', TOKEN, { body: { email: 'customer@example.com', password: 'x'.repeat(3000) } });
    assertError(big, 413, 'payload_too_large');
    const padding = 'x'.repeat(2048 - JSON.stringify({ email: 'customer@example.com', password: 'Password123!', pad: '' }).length);
    const fits = await t.req('POST', TOKEN, { body: { email: 'customer@example.com', password: 'Password123!', pad: padding } });
    assert.equal(fits.status, 200, fits.text);
  });
});

describe('unknown routes', () => {
  for (const [method, url] of [
    ['GET', `${API}/no-such-thing`],
    ['POST', `${API}/no-such-thing`],
    ['DELETE', `${API}/stores`],
    ['PUT', `${API}/store-config`],
    ['GET', '/no-such-page'],
    ['GET', '/api/rest/v1/products'],
  ] as const) {
    test(`${method} ${url} is a 404 in the error shape`, async () => {
      const r = await t.req(method, url, method === 'GET' || method === 'DELETE' ? {} : { body: {} });
      const body = assertError(r, 404, 'not_found');
      assert.equal(body.message, 'Not Found');
    });
  }

  test('a browser asking for HTML still gets JSON', async () => {
    const r = await t.req('GET', `${API}/nothing-here`, { headers: { accept: 'text/html,application/xhtml+xml' } });
    assertError(r, 404, 'not_found');
    assert.doesNotMatch(r.text, /<html/i);
  });
});

/** A request over a real socket, with the path sent exactly as given (no client-side normalisation). */
function raw(method: string, path: string, body?: string): Promise<{ status: number; headers: Res['headers']; text: string }> {
  return new Promise((resolve, reject) => {
    const req = http.request(
      { host: '127.0.0.1', port, method, path, headers: body === undefined ? {} : { 'content-type': 'application/json' } },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, text: Buffer.concat(chunks).toString('utf8') }));
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

describe('hostile paths (real socket)', () => {
  const paths = [
    '/api/rest/v2/../../etc/passwd',
    '/api/rest/v2/%2e%2e/%2e%2e/etc/passwd',
    '/api/rest/v2/%2E%2E%2F%2E%2E%2Fetc%2Fpasswd/config',
    '/api/rest/v2/..%2f..%2fetc%2fpasswd',
    '/api/rest/v2/stores/switch/..%2F..%2Fetc',
    '/api/rest/v2/%00/config',
    '/api/rest/v2/default%00/config',
    '/api/rest/v2/store-config%00',
    '/api/rest/v2/%zz/config',
    '/api/rest/v2/%c0%ae%c0%ae/config',
    '/api/rest/v2/%ff%fe/config',
    '/api/rest/v2//store-config',
    `/api/rest/v2/${'a'.repeat(501)}/config`,
    `/api/rest/v2/${'%41'.repeat(3000)}/config`,
    `/api/rest/v2/stores?store=${'b'.repeat(5000)}`,
    '/api/rest/v2/stores?store=%00',
    '/api/rest/v2/stores?store=%zz',
  ];
  for (const path of paths) {
    test(`GET ${path.length > 70 ? `${path.slice(0, 60)}…(${path.length})` : path} is a 4xx in the error shape`, async () => {
      const r = await raw('GET', path);
      assert.ok(r.status >= 400 && r.status < 500, `status ${r.status}: ${r.text.slice(0, 200)}`);
      assertError(r, r.status);
    });
  }

  test('POST with a hostile store code is a 4xx in the error shape', async () => {
    for (const code of ['..%2F..', '%00', 'a%00b', 'x'.repeat(400), '%E2%80%AE']) {
      const r = await raw('POST', `/api/rest/v2/stores/switch/${code}`, '{}');
      assert.ok(r.status >= 400 && r.status < 500, `${code}: ${r.status} ${r.text.slice(0, 200)}`);
      assertError(r, r.status);
    }
  });

  test('a request line longer than the server accepts is refused with a 4xx, not a 5xx', async () => {
    const r = await raw('GET', `/api/rest/v2/stores?x=${'y'.repeat(40_000)}`);
    assert.ok(r.status >= 400 && r.status < 500, String(r.status));
  });
});

describe('text the database cannot store', () => {
  test('a NUL character in a body field is a 400 and nothing is written', async () => {
    const admin = await t.tokens.admin();
    const r = await t.req('POST', `${API}/products`, { token: admin, body: { sku: 'nul-test', name: 'Bad\u0000name', price: 1 } });
    assertError(r, 400, 'bad_request');
    const list = await t.req('GET', `${API}/products`, {
      token: admin,
      query: { sku: 'nul-test' },
      headers: { accept: 'application/json' },
    });
    assert.deepEqual(list.body, []);
    const reg = await t.req('POST', `${API}/customers`, {
      body: { email: 'nul@example.com', password: 'Password123!', firstname: 'A\u0000', lastname: 'B' },
    });
    assertError(reg, 400, 'bad_request');
  });

  test('a NUL character or a dangling escape in a search parameter is a 400', async () => {
    for (const url of [`${API}/products?search=%00`, `${API}/products?sku=a%00`, `${API}/categories?search=%00`]) {
      assertError(await t.req('GET', url), 400, 'bad_request');
    }
    const admin = await t.tokens.admin();
    for (const search of ['%00', 'abc%5C']) {
      const r = await t.req('GET', `${API}/product-attributes?search=${search}`, { token: admin });
      assert.ok(r.status === 200 || r.status === 400, `${search}: ${r.status} ${r.text}`);
    }
  });

  test('GraphQL reports the same error with status 400', async () => {
    const admin = await t.tokens.admin();
    const r = await t.req('POST', '/api/graphql', {
      token: admin,
      body: { query: 'query($c: String!) { productAttribute(code: $c) { attributeCode } }', variables: { c: 'a\u0000' } },
    });
    assert.equal(r.status, 200, r.text);
    assert.equal(r.body.errors?.[0]?.extensions?.status, 400, r.text);
  });
});
