/** Failed /auth/token attempts are limited per client IP (10 a minute) and per account (5 a minute). */
import crypto from 'node:crypto';
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { deleteConfig, setConfig } from '../stores/service.js';
import { registerCustomer } from '../customers/service.js';
import { API, buildSecondApp, buildTestApp, type TestApp } from '../../../test/helpers.js';
import { createApiUser, createOauthClient } from './service.js';

let t: TestApp;
before(async () => {
  t = await buildTestApp({ env: { RATE_LIMITS: '1' } });
});
after(() => t.close());

let nextIp = 10;
/** A client address no other test uses (inject simulates it; nothing goes on the network). */
const freshIp = () => `127.0.1.${nextIp++}`;

async function login(ip: string, body: Record<string, string>) {
  const r = await t.app.inject({
    method: 'POST',
    url: `${API}/auth/token`,
    remoteAddress: ip,
    headers: { 'content-type': 'application/json' },
    payload: JSON.stringify(body),
  });
  return { status: r.statusCode, body: JSON.parse(r.body) as Record<string, unknown>, headers: r.headers };
}

const customer = (email: string, password: string) => ({ email, password });
const apiUser = (username: string, apiKey: string) => ({ grant_type: 'api_user', username, api_key: apiKey });
const client = (id: string, secret: string) => ({ grant_type: 'client_credentials', client_id: id, client_secret: secret });

function assertLimited(r: { status: number; body: Record<string, unknown>; headers: Record<string, unknown> }): void {
  assert.equal(r.status, 429, JSON.stringify(r.body));
  assert.deepEqual(r.body, { error: 'too_many_requests', message: 'Too many requests. Please try again later.', code: 429 });
}

describe('per client IP', () => {
  test('after 10 failed attempts from one IP even the right password is 429; other IPs are unaffected', async () => {
    const ip = freshIp();
    for (let i = 0; i < 10; i++) {
      const r = await login(ip, customer(`nobody${i}@example.com`, 'wrong-password'));
      assert.equal(r.status, 401, `attempt ${i + 1}`);
    }
    assertLimited(await login(ip, customer('customer@example.com', 'Password123!')));
    assertLimited(await login(ip, apiUser('demo-admin', 'demo-admin-key')));
    assertLimited(await login(ip, client('demo-client', 'demo-client-secret')));

    const other = await login(freshIp(), customer('customer@example.com', 'Password123!'));
    assert.equal(other.status, 200, 'the accounts are not locked, only the address');
  });

  test('successful logins do not count', async () => {
    const ip = freshIp();
    for (let i = 0; i < 12; i++) assert.equal((await login(ip, customer('customer@example.com', 'Password123!'))).status, 200);
  });

  test('input errors (400) do not count', async () => {
    const ip = freshIp();
    for (let i = 0; i < 12; i++) assert.equal((await login(ip, { email: 'not-an-email', password: 'x' })).status, 400);
    assert.equal((await login(ip, customer('customer@example.com', 'Password123!'))).status, 200);
  });
});

describe('per account', () => {
  test('after 5 failed attempts on a customer account, from any addresses, the right password is 429', async () => {
    await registerCustomer(t.systemCtx(), { email: 'limited@example.com', password: 'Limited123!', firstname: 'Lim', lastname: 'Ited' });
    for (let i = 0; i < 5; i++) {
      assert.equal((await login(freshIp(), customer('limited@example.com', 'wrong-password'))).status, 401, `attempt ${i + 1}`);
    }
    assertLimited(await login(freshIp(), customer('limited@example.com', 'Limited123!')));
    assertLimited(await login(freshIp(), customer('LIMITED@example.com', 'Limited123!')));
    assert.equal((await login(freshIp(), customer('customer@example.com', 'Password123!'))).status, 200, 'other accounts are unaffected');
  });

  test('four failures still let the right password in', async () => {
    await registerCustomer(t.systemCtx(), { email: 'almost@example.com', password: 'Almost123!', firstname: 'Al', lastname: 'Most' });
    for (let i = 0; i < 4; i++) assert.equal((await login(freshIp(), customer('almost@example.com', 'wrong-password'))).status, 401);
    assert.equal((await login(freshIp(), customer('almost@example.com', 'Almost123!'))).status, 200);
  });

  test('API users and OAuth clients are limited by username and client id', async () => {
    await createApiUser(t.database.db, { username: 'guessed', apiKey: 'guessed-key-1', role: 'Administrators' });
    await createOauthClient(t.database.db, { clientId: 'guessed-client', secret: 'guessed-client-secret', role: 'Administrators' });
    for (let i = 0; i < 5; i++) {
      assert.equal((await login(freshIp(), apiUser('guessed', 'wrong-key-123'))).status, 401);
      assert.equal((await login(freshIp(), client('guessed-client', 'wrong-secret-123'))).status, 401);
    }
    assertLimited(await login(freshIp(), apiUser('guessed', 'guessed-key-1')));
    assertLimited(await login(freshIp(), client('guessed-client', 'guessed-client-secret')));
    assert.equal((await login(freshIp(), apiUser('demo-admin', 'demo-admin-key'))).status, 200);
  });
});

describe('configuration', () => {
  test('a limit of 0 disables the rule', async () => {
    const db = t.database.db;
    const registry = t.services.settings;
    await setConfig(db, registry, 'api/rate_limit/auth_token_ip', '0');
    await setConfig(db, registry, 'api/rate_limit/customer_login', '0');
    try {
      const ip = freshIp();
      for (let i = 0; i < 12; i++) assert.equal((await login(ip, customer('customer@example.com', 'wrong-password'))).status, 401);
      assert.equal((await login(ip, customer('customer@example.com', 'Password123!'))).status, 200);
    } finally {
      await deleteConfig(db, registry, 'api/rate_limit/auth_token_ip');
      await deleteConfig(db, registry, 'api/rate_limit/customer_login');
    }
  });

  test('a configured limit replaces the default', async () => {
    const db = t.database.db;
    const registry = t.services.settings;
    await setConfig(db, registry, 'api/rate_limit/auth_token_ip', '2');
    try {
      const ip = freshIp();
      for (let i = 0; i < 2; i++) assert.equal((await login(ip, customer(`x${i}@example.com`, 'wrong-password'))).status, 401);
      assertLimited(await login(ip, customer('customer@example.com', 'Password123!')));
    } finally {
      await deleteConfig(db, registry, 'api/rate_limit/auth_token_ip');
    }
  });
});

describe('rate limits switched off (RATE_LIMITS=0, the test default)', () => {
  test('no attempt is refused', async () => {
    const off = await buildTestApp();
    try {
      for (let i = 0; i < 12; i++) {
        const r = await off.req('POST', `${API}/auth/token`, { body: customer('customer@example.com', 'wrong-password') });
        assert.equal(r.status, 401);
      }
      assert.equal((await off.req('POST', `${API}/auth/token`, { body: customer('customer@example.com', 'Password123!') })).status, 200);
    } finally {
      await off.close();
    }
  });
});

describe('two instances with REDIS_URL share the counts', { skip: process.env.REDIS_URL ? false : 'REDIS_URL is not set' }, () => {
  test('failures spread over both instances lock the account on both', async () => {
    const env = { RATE_LIMITS: '1', REDIS_URL: process.env.REDIS_URL ?? '' };
    const a = await buildTestApp({ env });
    const b = await buildSecondApp(a, env);
    try {
      // names and addresses of this run only: the Redis server outlives it
      const run = crypto.randomBytes(4).toString('hex');
      const username = `shared-${run}`;
      await createApiUser(a.database.db, { username, apiKey: 'shared-key-1', role: 'Administrators' });
      const ip = (i: number) => `127.${crypto.randomBytes(1)[0]}.${crypto.randomBytes(1)[0]}.${i + 1}`;
      const attempt = async (app: typeof b.app, i: number, apiKey: string) =>
        (
          await app.inject({
            method: 'POST',
            url: `${API}/auth/token`,
            remoteAddress: ip(i),
            headers: { 'content-type': 'application/json' },
            payload: JSON.stringify(apiUser(username, apiKey)),
          })
        ).statusCode;
      for (let i = 0; i < 5; i++) assert.equal(await attempt(i % 2 ? a.app : b.app, i, 'wrong-key-123'), 401);
      assert.equal(await attempt(a.app, 10, 'shared-key-1'), 429);
      assert.equal(await attempt(b.app, 11, 'shared-key-1'), 429);
    } finally {
      await b.app.close();
      await a.close();
    }
  });
});
