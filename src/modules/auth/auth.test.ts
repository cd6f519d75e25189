/** POST /auth/token: the three grants, the response shape, the JWT claims and the refusals. */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { decodeJwt, decodeProtectedHeader } from 'jose';
import { API, buildTestApp, type Res, type TestApp } from '../../../test/helpers.js';
import { createApiUser, createOauthClient, createRole, setApiUserActive, setApiUserKey, setOauthClientActive } from './service.js';

let t: TestApp;
before(async () => {
  t = await buildTestApp();
});
after(() => t.close());

const token = (body: unknown) => t.req('POST', `${API}/auth/token`, { body });
const raw = (payload: string, contentType: string, headers: Record<string, string> = {}) =>
  t.req('POST', `${API}/auth/token`, { raw: payload, headers: { 'content-type': contentType, ...headers } });

const CUSTOMER = { email: 'customer@example.com', password: 'Password123!' };
const API_USER = { grant_type: 'api_user', username: 'demo-admin', api_key: 'demo-admin-key' };
const CLIENT = { grant_type: 'client_credentials', client_id: 'demo-client', client_secret: 'demo-client-secret' };

function assertTokenEnvelope(r: Res): void {
  assert.equal(r.status, 200, r.text);
  assert.equal(typeof r.body.token, 'string');
  assert.equal(r.body.tokenType, 'Bearer');
  assert.equal(r.body.expiresIn, 3600);
  assert.equal(r.body.access_token, r.body.token);
  assert.equal(r.body.token_type, 'Bearer');
  assert.equal(r.body.expires_in, 3600);
  assert.equal('refresh_token' in r.body, false);
  assert.equal(r.headers['cache-control'], 'no-store');
}

function assertError(r: Res, status: number, error: string): void {
  assert.equal(r.status, status, r.text);
  assert.equal(r.body.error, error, r.text);
  assert.equal(typeof r.body.message, 'string');
}

describe('customer grant', () => {
  test('is the default grant and returns the customer', async () => {
    const r = await token(CUSTOMER);
    assertTokenEnvelope(r);
    assert.deepEqual(r.body.customer, { id: 1, email: 'customer@example.com', firstName: 'Jane', lastName: 'Doe' });
    assert.equal(r.body.apiUser, undefined);
    assert.equal(r.body.permissions, undefined);
  });

  test('grant_type customer, its alias password, and grantType are accepted', async () => {
    for (const body of [
      { grant_type: 'customer', ...CUSTOMER },
      { grant_type: 'password', ...CUSTOMER },
      { grantType: 'customer', ...CUSTOMER },
    ]) {
      const r = await token(body);
      assertTokenEnvelope(r);
      assert.equal(r.body.customer.id, 1);
    }
  });

  test('username is an alias of email, and the email is matched case-insensitively', async () => {
    const r = await token({ username: 'customer@example.com', password: CUSTOMER.password });
    assertTokenEnvelope(r);
    assert.equal(r.body.customer.email, 'customer@example.com');
    assertTokenEnvelope(await token({ email: 'Customer@Example.COM', password: CUSTOMER.password }));
  });

  test('the JWT carries the customer claims', async () => {
    const r = await token(CUSTOMER);
    assert.deepEqual(decodeProtectedHeader(r.body.token), { alg: 'HS256', typ: 'JWT' });
    const c = decodeJwt(r.body.token);
    assert.equal(c.iss, 'http://shop.test/');
    assert.equal(c.aud, 'maho-api');
    assert.match(String(c.jti), /^[0-9a-f]{32}$/);
    assert.equal(c.sub, 'customer_1');
    assert.equal(c.type, 'customer');
    assert.equal(c.customer_id, 1);
    assert.equal(c.email, 'customer@example.com');
    assert.deepEqual(c.roles, ['ROLE_CUSTOMER']);
    assert.equal(c.permissions, undefined);
    assert.equal(typeof c.iat, 'number');
    assert.equal(c.nbf, c.iat);
    assert.equal(c.exp, Number(c.iat) + 3600);
    assert.ok(Math.abs(Number(c.iat) - Date.now() / 1000) < 60);
  });

  test('every token has its own jti', async () => {
    const a = decodeJwt((await token(CUSTOMER)).body.token);
    const b = decodeJwt((await token(CUSTOMER)).body.token);
    assert.notEqual(a.jti, b.jti);
  });

  test('wrong password or unknown email is 401 invalid_credentials', async () => {
    const wrong = await token({ ...CUSTOMER, password: 'nope-nope' });
    assertError(wrong, 401, 'invalid_credentials');
    assert.equal(wrong.body.message, 'Invalid email or password');
    const unknown = await token({ email: 'nobody@example.com', password: 'Password123!' });
    assertError(unknown, 401, 'invalid_credentials');
    assert.equal(unknown.body.message, wrong.body.message);
  });

  test('missing email or password is 400 invalid_request', async () => {
    assertError(await token({ email: CUSTOMER.email }), 400, 'invalid_request');
    assertError(await token({ password: CUSTOMER.password }), 400, 'invalid_request');
    assertError(await token({}), 400, 'invalid_request');
    assertError(await token({ email: '', password: '' }), 400, 'invalid_request');
  });

  test('a malformed email is 400 invalid_request', async () => {
    for (const email of ['not-an-email', 'a@b', 'a b@example.com', `${'x'.repeat(250)}@example.com`]) {
      const r = await token({ email, password: 'Password123!' });
      assertError(r, 400, 'invalid_request');
    }
  });
});

describe('api_user grant', () => {
  test('returns the API user and its permissions', async () => {
    const r = await token(API_USER);
    assertTokenEnvelope(r);
    assert.equal(typeof r.body.apiUser.id, 'number');
    assert.deepEqual(r.body.apiUser, { id: r.body.apiUser.id, username: 'demo-admin' });
    assert.deepEqual(r.body.permissions, ['all']);
    assert.equal(r.body.customer, undefined);
  });

  test('apiKey is an alias of api_key', async () => {
    assertTokenEnvelope(await token({ grant_type: 'api_user', username: 'demo-admin', apiKey: 'demo-admin-key' }));
  });

  test('the JWT carries the API user claims', async () => {
    const r = await token(API_USER);
    const c = decodeJwt(r.body.token);
    assert.equal(c.sub, `api_user_${r.body.apiUser.id}`);
    assert.equal(c.api_user_id, r.body.apiUser.id);
    assert.equal(c.type, 'api_user');
    assert.equal(c.username, 'demo-admin');
    assert.deepEqual(c.roles, []);
    assert.deepEqual(c.permissions, ['all']);
    assert.equal(c.allowed_store_ids, undefined);
    assert.equal(c.iss, 'http://shop.test/');
    assert.equal(c.aud, 'maho-api');
    assert.match(String(c.jti), /^[0-9a-f]{32}$/);
    assert.equal(c.exp, Number(c.iat) + 3600);
    assert.equal(c.nbf, c.iat);
  });

  test('a store-restricted API user has allowed_store_ids in its token', async () => {
    await createRole(t.database.db, 'Store 1 readers', ['stores/read']);
    await createApiUser(t.database.db, { username: 'store-one', apiKey: 'store-one-key', role: 'Store 1 readers', allowedStoreIds: [1] });
    const r = await token({ grant_type: 'api_user', username: 'store-one', api_key: 'store-one-key' });
    assertTokenEnvelope(r);
    assert.deepEqual(r.body.permissions, ['stores/read']);
    assert.deepEqual(decodeJwt(r.body.token).allowed_store_ids, [1]);
  });

  test('a wrong key or unknown user is 401 invalid_client', async () => {
    assertError(await token({ ...API_USER, api_key: 'wrong-key-123' }), 401, 'invalid_client');
    assertError(await token({ ...API_USER, username: 'nobody' }), 401, 'invalid_client');
  });

  test('missing username or api_key is 400 invalid_request', async () => {
    assertError(await token({ grant_type: 'api_user', username: 'demo-admin' }), 400, 'invalid_request');
    assertError(await token({ grant_type: 'api_user', api_key: 'demo-admin-key' }), 400, 'invalid_request');
  });

  test('an inactive API user cannot log in, and its existing token stops working', async () => {
    await createApiUser(t.database.db, { username: 'leaver', apiKey: 'leaver-key-1', role: 'Administrators' });
    const login = { grant_type: 'api_user', username: 'leaver', api_key: 'leaver-key-1' };
    const before = await token(login);
    assertTokenEnvelope(before);
    assert.equal((await t.req('POST', `${API}/auth/refresh`, { token: before.body.token, body: {} })).status, 200);
    const live = (await token(login)).body.token;

    await setApiUserActive(t.database.db, 'leaver', false);
    assertError(await token(login), 401, 'invalid_client');
    const refused = await t.req('GET', `${API}/store-config`, { token: live });
    assertError(refused, 401, 'authentication_error');

    await setApiUserActive(t.database.db, 'leaver', true);
    assertTokenEnvelope(await token(login));
  });
});

describe('operator changes (the CLI calls these)', () => {
  test('a replaced API key: the old one stops working, the new one works', async () => {
    await createApiUser(t.database.db, { username: 'rotating', apiKey: 'first-key-1', role: 'Administrators' });
    await setApiUserKey(t.database.db, 'rotating', 'second-key-2');
    assert.equal((await token({ grant_type: 'api_user', username: 'rotating', api_key: 'first-key-1' })).status, 401);
    assertTokenEnvelope(await token({ grant_type: 'api_user', username: 'rotating', api_key: 'second-key-2' }));
  });

  test('a disabled OAuth client cannot get a token and its tokens are refused', async () => {
    await createOauthClient(t.database.db, { clientId: 'paused', secret: 'paused-secret-1', role: 'Administrators' });
    const creds = { grant_type: 'client_credentials', client_id: 'paused', client_secret: 'paused-secret-1' };
    const live = (await token(creds)).body.token as string;
    await setOauthClientActive(t.database.db, 'paused', false);
    assertError(await token(creds), 401, 'invalid_client');
    assertError(await t.req('GET', `${API}/store-config`, { token: live }), 401, 'authentication_error');
    await setOauthClientActive(t.database.db, 'paused', true);
    assert.equal((await t.req('GET', `${API}/store-config`, { token: live })).status, 200);
  });

  test('refused management input', async () => {
    const db = t.database.db;
    const code = async (p: Promise<unknown>) =>
      p.then(
        () => 'ok',
        (err: { status?: number }) => err.status,
      );
    assert.equal(await code(createRole(db, 'Bad', ['customers/update'])), 400);
    assert.equal(await code(createRole(db, '  ', ['all'])), 400);
    assert.equal(await code(createRole(db, 'Administrators', ['all'])), 409);
    assert.equal(await code(createApiUser(db, { username: 'demo-admin', apiKey: 'whatever-key', role: 'Administrators' })), 409);
    assert.equal(await code(createApiUser(db, { username: 'x y', apiKey: 'whatever-key', role: 'Administrators' })), 400);
    assert.equal(await code(createApiUser(db, { username: 'short-key', apiKey: 'short', role: 'Administrators' })), 400);
    assert.equal(await code(createApiUser(db, { username: 'no-role', apiKey: 'whatever-key', role: 'Nope' })), 404);
    assert.equal(
      await code(createApiUser(db, { username: 'no-stores', apiKey: 'whatever-key', role: 'Administrators', allowedStoreIds: [] })),
      400,
    );
    assert.equal(await code(createOauthClient(db, { clientId: 'demo-client', secret: 'long-enough-secret', role: 'Administrators' })), 409);
    assert.equal(await code(createOauthClient(db, { clientId: 'short-secret', secret: 'short', role: 'Administrators' })), 400);
    assert.equal(await code(setApiUserKey(db, 'nobody', 'whatever-key')), 404);
    assert.equal(await code(setApiUserActive(db, 'nobody', false)), 404);
    assert.equal(await code(setOauthClientActive(db, 'nobody', false)), 404);
  });
});

describe('client_credentials grant', () => {
  test('returns the client as apiUser and its permissions', async () => {
    const r = await token(CLIENT);
    assertTokenEnvelope(r);
    assert.deepEqual(r.body.apiUser, { id: r.body.apiUser.id, username: 'demo-client' });
    assert.deepEqual(r.body.permissions, ['all']);
    const c = decodeJwt(r.body.token);
    assert.equal(c.sub, `oauth_client_${r.body.apiUser.id}`);
    assert.equal(c.oauth_client_id, r.body.apiUser.id);
    assert.equal(c.type, 'api_user');
    assert.equal(c.username, 'demo-client');
    assert.deepEqual(c.roles, []);
    assert.deepEqual(c.permissions, ['all']);
  });

  test('accepts a form-urlencoded body', async () => {
    const r = await raw(
      'grant_type=client_credentials&client_id=demo-client&client_secret=demo-client-secret',
      'application/x-www-form-urlencoded',
    );
    assertTokenEnvelope(r);
    assert.equal(r.body.apiUser.username, 'demo-client');
  });

  test('a form-urlencoded customer login works too', async () => {
    const r = await raw(
      `username=${encodeURIComponent(CUSTOMER.email)}&password=${encodeURIComponent(CUSTOMER.password)}`,
      'application/x-www-form-urlencoded; charset=utf-8',
    );
    assertTokenEnvelope(r);
    assert.equal(r.body.customer.id, 1);
  });

  test('accepts HTTP Basic client credentials, with or without grant_type', async () => {
    const basic = `Basic ${Buffer.from('demo-client:demo-client-secret').toString('base64')}`;
    const withGrant = await raw('grant_type=client_credentials', 'application/x-www-form-urlencoded', { authorization: basic });
    assertTokenEnvelope(withGrant);
    assert.equal(withGrant.body.apiUser.username, 'demo-client');
    const jsonNoGrant = await t.req('POST', `${API}/auth/token`, { body: {}, headers: { authorization: basic } });
    assertTokenEnvelope(jsonNoGrant);
  });

  test('wrong Basic credentials are 401 invalid_client; badly escaped ones are taken as they are', async () => {
    const wrong = `Basic ${Buffer.from('demo-client:not-the-secret').toString('base64')}`;
    assertError(
      await raw('grant_type=client_credentials', 'application/x-www-form-urlencoded', { authorization: wrong }),
      401,
      'invalid_client',
    );
    const badEscape = `Basic ${Buffer.from('%zz:%zz').toString('base64')}`;
    assertError(
      await t.req('POST', `${API}/auth/token`, { body: { grant_type: 'client_credentials' }, headers: { authorization: badEscape } }),
      401,
      'invalid_client',
    );
  });

  test('a wrong secret or unknown client is 401 invalid_client', async () => {
    const wrong = await token({ ...CLIENT, client_secret: 'not-the-secret' });
    assertError(wrong, 401, 'invalid_client');
    assertError(await token({ ...CLIENT, client_id: 'nobody' }), 401, 'invalid_client');
  });

  test('missing client_id or client_secret is 400 invalid_request', async () => {
    assertError(await token({ grant_type: 'client_credentials', client_id: 'demo-client' }), 400, 'invalid_request');
    assertError(await token({ grant_type: 'client_credentials', client_secret: 'demo-client-secret' }), 400, 'invalid_request');
  });
});

describe('refused requests', () => {
  test('an unknown grant is 400 unsupported_grant_type', async () => {
    const r = await token({ grant_type: 'authorization_code', code: 'x' });
    assertError(r, 400, 'unsupported_grant_type');
    assertError(await token({ grant_type: 'refresh_token', refresh_token: 'x' }), 400, 'unsupported_grant_type');
  });

  test('wrong JSON types are 400 bad_request', async () => {
    for (const body of [
      { email: 123, password: 'Password123!' },
      { email: CUSTOMER.email, password: true },
      { email: [CUSTOMER.email], password: CUSTOMER.password },
      { grant_type: null, ...CUSTOMER },
      { ...API_USER, api_key: { key: 'demo-admin-key' } },
    ]) {
      const r = await token(body);
      assertError(r, 400, 'bad_request');
    }
  });

  test('a body that is not an object is 400', async () => {
    for (const payload of ['[]', 'null', '"customer"', '42']) assertError(await raw(payload, 'application/json'), 400, 'bad_request');
  });

  test('malformed or empty JSON is 400 "Invalid JSON in request body"', async () => {
    for (const payload of ['{"email": "customer@example.com", ', '{email: 1}', '']) {
      const r = await raw(payload, 'application/json');
      assertError(r, 400, 'bad_request');
      assert.equal(r.body.message, 'Invalid JSON in request body');
    }
  });

  test('a body of another media type is 415', async () => {
    assertError(await raw('<email>x</email>', 'application/xml'), 415, 'unsupported_media_type');
  });

  test('unknown fields are ignored', async () => {
    const r = await token({ ...CUSTOMER, twofa_code: '123456', maskedId: 'f'.repeat(32), extra: { a: 1 } });
    assertTokenEnvelope(r);
  });

  test('over-long values are refused with a 4xx', async () => {
    const r = await token({ email: CUSTOMER.email, password: 'x'.repeat(5000) });
    assert.equal(r.status, 400, r.text);
    assert.equal(r.body.error, 'bad_request');
  });
});
