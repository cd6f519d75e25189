/** Bearer tokens in use: refresh, logout, revocation across instances, expiry and every kind of bad token. */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { SignJWT, decodeJwt } from 'jose';
import type { BuiltApp } from '../../app.js';
import { createTokenService } from '../../platform/auth/tokens.js';
import { API, buildSecondApp, buildTestApp, type Res, type TestApp } from '../../../test/helpers.js';
import { setSubjectBlocked } from '../../platform/auth/subjects.js';

let t: TestApp;
before(async () => {
  t = await buildTestApp();
});
after(() => t.close());

const ISSUER = 'http://shop.test/';
const secret = () => new TextEncoder().encode(t.services.config.jwtSecret);
const CUSTOMER_CLAIMS = {
  sub: 'customer_1',
  type: 'customer' as const,
  customer_id: 1,
  email: 'customer@example.com',
  roles: ['ROLE_CUSTOMER'],
};

/** A token signed with the test secret, with any claims and header. */
function sign(claims: Record<string, unknown>, opts: { alg?: string; key?: Uint8Array } = {}) {
  return new SignJWT(claims).setProtectedHeader({ alg: opts.alg ?? 'HS256', typ: 'JWT' }).sign(opts.key ?? secret());
}

const storeConfig = (token: string) => t.req('GET', `${API}/store-config`, { token });

function assertAuthError(r: Res, messagePart?: RegExp): void {
  assert.equal(r.status, 401, r.text);
  assert.equal(r.body.error, 'authentication_error', r.text);
  assert.equal('code' in r.body, false, 'a 401 body carries no code');
  assert.match(String(r.headers['www-authenticate']), /^Bearer/);
  if (messagePart) assert.match(r.body.message, messagePart);
}

describe('refresh', () => {
  test('returns a new customer token and revokes the old one', async () => {
    const old = await t.tokens.customer();
    const r = await t.req('POST', `${API}/auth/refresh`, { token: old, body: { ignored: true } });
    assert.equal(r.status, 200, r.text);
    assert.notEqual(r.body.token, old);
    assert.equal(r.body.access_token, r.body.token);
    assert.equal(r.body.tokenType, 'Bearer');
    assert.equal(r.body.token_type, 'Bearer');
    assert.equal(r.body.expiresIn, 3600);
    assert.equal(r.body.expires_in, 3600);
    assert.deepEqual(r.body.customer, { id: 1, email: 'customer@example.com', firstName: 'Jane', lastName: 'Doe' });
    assert.notEqual(decodeJwt(r.body.token).jti, decodeJwt(old).jti);

    assertAuthError(await storeConfig(old), /^Token has been revoked$/);
    assertAuthError(await t.req('POST', `${API}/auth/refresh`, { token: old, body: {} }), /revoked/);
    assert.equal((await storeConfig(r.body.token)).status, 200);
  });

  test('works without a body', async () => {
    const r = await t.app.inject({
      method: 'POST',
      url: `${API}/auth/refresh`,
      headers: { authorization: `Bearer ${await t.tokens.customer()}` },
    });
    assert.equal(r.statusCode, 200, r.body);
  });

  test('an API user token is refreshed with its user and permissions', async () => {
    const r = await t.req('POST', `${API}/auth/refresh`, { token: await t.tokens.admin(), body: {} });
    assert.equal(r.status, 200, r.text);
    assert.equal(r.body.apiUser.username, 'demo-admin');
    assert.deepEqual(r.body.permissions, ['all']);
    assert.equal(decodeJwt(r.body.token).type, 'api_user');
  });

  test('an OAuth client token is refreshed too', async () => {
    const r = await t.req('POST', `${API}/auth/refresh`, { token: await t.tokens.client(), body: {} });
    assert.equal(r.status, 200, r.text);
    assert.equal(r.body.apiUser.username, 'demo-client');
  });

  test('two concurrent refreshes of one token: exactly one gets a new token', async () => {
    const old = await t.tokens.customer();
    const results = await Promise.all([1, 2, 3].map(() => t.req('POST', `${API}/auth/refresh`, { token: old, body: {} })));
    const statuses = results.map((r) => r.status).sort();
    assert.deepEqual(statuses, [200, 401, 401], results.map((r) => r.text).join('\n'));
  });

  test('without a token is 401 unauthorized', async () => {
    const r = await t.req('POST', `${API}/auth/refresh`, { body: {} });
    assert.equal(r.status, 401);
    assert.equal(r.body.error, 'unauthorized');
    assert.equal(r.body.message, 'Authentication required');
    assert.match(String(r.headers['www-authenticate']), /^Bearer/);
  });
});

describe('logout', () => {
  test('revokes the current token only (201)', async () => {
    const tok = await t.tokens.customer();
    const other = await t.tokens.customer();
    const r = await t.req('POST', `${API}/auth/logout`, { token: tok, body: {} });
    assert.equal(r.status, 201, r.text);
    assert.deepEqual(r.body, { success: true, message: 'Successfully logged out' });
    assertAuthError(await storeConfig(tok), /^Token has been revoked$/);
    assertAuthError(await t.req('POST', `${API}/auth/logout`, { token: tok, body: {} }), /revoked/);
    assertAuthError(await t.req('POST', `${API}/auth/refresh`, { token: tok, body: {} }), /revoked/);
    assert.equal((await storeConfig(other)).status, 200);
  });

  test('works for API user tokens', async () => {
    const tok = await t.tokens.admin();
    assert.equal((await t.req('POST', `${API}/auth/logout`, { token: tok, body: {} })).status, 201);
    assertAuthError(await storeConfig(tok), /revoked/);
  });

  test('without a token is 401 unauthorized with WWW-Authenticate', async () => {
    const r = await t.req('POST', `${API}/auth/logout`, { body: {} });
    assert.equal(r.status, 401);
    assert.equal(r.body.error, 'unauthorized');
    assert.equal('code' in r.body, false);
    assert.match(String(r.headers['www-authenticate']), /^Bearer/);
  });
});

describe('blocked subjects', () => {
  test("a blocked customer's existing tokens are refused until unblocked", async () => {
    const tok = await t.tokens.customer();
    await setSubjectBlocked(t.systemCtx(), 'customer_1', true);
    assertAuthError(await storeConfig(tok), /inactive/);
    await setSubjectBlocked(t.systemCtx(), 'customer_1', false);
    assert.equal((await storeConfig(tok)).status, 200);
  });
});

describe('bad tokens', () => {
  test('an expired token is 401 with a message containing "expired"', async () => {
    const tokens = createTokenService({ secret: t.services.config.jwtSecret, issuer: ISSUER, ttlSeconds: 60 });
    const issued = await tokens.issue(CUSTOMER_CLAIMS, new Date(Date.now() - 2 * 3600 * 1000));
    const r = await storeConfig(issued.token);
    assertAuthError(r, /expired/);
    assertAuthError(await t.req('POST', `${API}/auth/refresh`, { token: issued.token, body: {} }), /expired/);
  });

  test('the same claims, signed right and unexpired, are accepted (the control case)', async () => {
    const tokens = createTokenService({ secret: t.services.config.jwtSecret, issuer: ISSUER, ttlSeconds: 60 });
    const issued = await tokens.issue(CUSTOMER_CLAIMS);
    assert.equal((await storeConfig(issued.token)).status, 200);
  });

  test('a bad signature, wrong issuer, wrong audience or other algorithm is 401 even on a public endpoint', async () => {
    const now = Math.floor(Date.now() / 1000);
    const base = { ...CUSTOMER_CLAIMS, iss: ISSUER, aud: 'maho-api', jti: 'a'.repeat(32), iat: now, nbf: now, exp: now + 600 };
    assert.equal((await storeConfig(await sign(base))).status, 200, 'the unaltered token is accepted');
    const cases: [string, string][] = [
      ['bad signature', await sign(base, { key: new TextEncoder().encode('another-secret-of-at-least-32-characters!') })],
      ['wrong issuer', await sign({ ...base, iss: 'http://evil.test/' })],
      ['wrong audience', await sign({ ...base, aud: 'other-api' })],
      ['HS512', await sign(base, { alg: 'HS512' })],
      ['not yet valid', await sign({ ...base, nbf: now + 600 })],
      ['no jti', await sign({ ...base, jti: undefined })],
      ['no sub', await sign({ ...base, sub: undefined })],
      ['unknown type', await sign({ ...base, sub: 'admin_1', type: 'admin' })],
      ['customer sub, api type', await sign({ ...base, type: 'api_user' })],
      ['unknown api user', await sign({ ...base, sub: 'api_user_999999', type: 'api_user', permissions: ['all'] })],
      ['unknown oauth client', await sign({ ...base, sub: 'oauth_client_999999', type: 'api_user', permissions: ['all'] })],
    ];
    for (const [label, tok] of cases) {
      const r = await storeConfig(tok);
      assert.equal(r.status, 401, `${label}: ${r.text}`);
      assertAuthError(r);
    }
  });

  test('permissions and store scope come from the database, not from the token claims', async () => {
    const now = Math.floor(Date.now() / 1000);
    const adminTok = await t.tokens.admin();
    const c = decodeJwt(adminTok);
    // a re-signed copy claiming a store scope it does not have still resolves to the stored principal
    const forged = await sign({ ...c, jti: 'b'.repeat(32), iat: now, nbf: now, exp: now + 600, permissions: [], allowed_store_ids: [99] });
    const r = await t.req('GET', `${API}/store-config`, { token: forged, query: { store: 'german' } });
    assert.equal(r.status, 200, 'permissions and store scope come from the database, not the token');
  });

  test('alg none and garbage are 401 Malformed token', async () => {
    const enc = (o: unknown) => Buffer.from(JSON.stringify(o)).toString('base64url');
    const now = Math.floor(Date.now() / 1000);
    const none = `${enc({ alg: 'none', typ: 'JWT' })}.${enc({ ...CUSTOMER_CLAIMS, iss: ISSUER, aud: 'maho-api', jti: 'c'.repeat(32), iat: now, nbf: now, exp: now + 600 })}.`;
    for (const tok of [none, 'garbage', 'a.b.c', 'a.b', `${none}x.y`]) assertAuthError(await storeConfig(tok));
    assertAuthError(await storeConfig(none), /Malformed token/);
  });

  test('"Authorization: Bearer" without a token is 401', async () => {
    for (const value of ['Bearer', 'Bearer ', 'bearer']) {
      const r = await t.req('GET', `${API}/store-config`, { headers: { authorization: value } });
      assertAuthError(r);
    }
  });

  test('a token that is not a JWT refuses the request on a public endpoint', async () => {
    assertAuthError(await t.req('GET', `${API}/stores`, { token: 'not-a-jwt' }));
  });
});

describe('a second instance on the same database', () => {
  let second: BuiltApp;
  before(async () => {
    second = await buildSecondApp(t);
  });
  after(() => second.app.close());

  const onSecond = async (method: 'GET' | 'POST', url: string, tok: string) => {
    const r = await second.app.inject({
      method,
      url,
      headers: { authorization: `Bearer ${tok}`, 'content-type': 'application/json' },
      payload: method === 'POST' ? '{}' : undefined,
    });
    return { status: r.statusCode, body: JSON.parse(r.body) as Record<string, unknown> };
  };

  test('accepts a token issued by the first', async () => {
    assert.equal((await onSecond('GET', `${API}/store-config`, await t.tokens.customer())).status, 200);
    assert.equal((await onSecond('GET', `${API}/store-config`, await t.tokens.admin())).status, 200);
  });

  test('refuses a token logged out on the first', async () => {
    const tok = await t.tokens.customer();
    assert.equal((await t.req('POST', `${API}/auth/logout`, { token: tok, body: {} })).status, 201);
    const r = await onSecond('GET', `${API}/store-config`, tok);
    assert.equal(r.status, 401);
    assert.equal(r.body.message, 'Token has been revoked');
  });

  test('the first refuses a token refreshed on the second', async () => {
    const tok = await t.tokens.admin();
    const r = await onSecond('POST', `${API}/auth/refresh`, tok);
    assert.equal(r.status, 200);
    assertAuthError(await storeConfig(tok), /revoked/);
    assert.equal((await storeConfig(String(r.body.token))).status, 200);
  });
});
