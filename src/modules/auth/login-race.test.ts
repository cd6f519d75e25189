/**
 * Login limits hold under parallel attempts: every attempt takes its slot before the credentials are checked, so
 * of many wrong attempts sent at once no more than the limit are checked (401); the rest are refused (429).
 * With REDIS_URL set the counts live in Redis, as in production behind a load balancer.
 */
import crypto from 'node:crypto';
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { registerCustomer } from '../customers/service.js';
import { setConfig } from '../stores/service.js';
import { envelope, post, startSoapApp } from '../../../test/fixtures/soap.js';
import { API, buildTestApp, type TestApp } from '../../../test/helpers.js';
import { createApiUser, createOauthClient } from './service.js';

/** Rate limits on; in Redis when the environment names one. */
const env = { RATE_LIMITS: '1', ...(process.env.REDIS_URL ? { REDIS_URL: process.env.REDIS_URL } : {}) };
/** Names and addresses of this run only: a Redis server outlives it. */
const run = crypto.randomBytes(4).toString('hex');
const freshIp = () => `10.${crypto.randomBytes(1)[0]}.${crypto.randomBytes(1)[0]}.${1 + (crypto.randomBytes(1)[0] % 250)}`;

const ATTEMPTS = 50;

let t: TestApp;
before(async () => {
  t = await buildTestApp({ env });
});
after(() => t.close());

async function attempt(ip: string, body: Record<string, string>): Promise<number> {
  const r = await t.app.inject({
    method: 'POST',
    url: `${API}/auth/token`,
    remoteAddress: ip,
    headers: { 'content-type': 'application/json' },
    payload: JSON.stringify(body),
  });
  return r.statusCode;
}

/** Statuses of attempts sent all at once, counted. */
async function burst(bodies: Record<string, string>[], ip: (i: number) => string): Promise<Record<number, number>> {
  const statuses = await Promise.all(bodies.map((b, i) => attempt(ip(i), b)));
  const counts: Record<number, number> = {};
  for (const s of statuses) counts[s] = (counts[s] ?? 0) + 1;
  return counts;
}

const times = <T>(n: number, f: (i: number) => T): T[] => Array.from({ length: n }, (_, i) => f(i));

describe('parallel wrong attempts on one account check at most the account limit (5)', () => {
  test('customer', async () => {
    const email = `race-${run}@example.com`;
    await registerCustomer(t.systemCtx(), { email, password: 'Right-pass-1', firstname: 'Ra', lastname: 'Ce' });
    const counts = await burst(
      times(ATTEMPTS, () => ({ email, password: 'wrong-password' })),
      () => freshIp(),
    );
    assert.deepEqual(counts, { 401: 5, 429: ATTEMPTS - 5 });
    assert.equal(await attempt(freshIp(), { email, password: 'Right-pass-1' }), 429, 'the account is locked for the window');
  });

  test('API user', async () => {
    const username = `race-user-${run}`;
    await createApiUser(t.database.db, { username, apiKey: 'right-key-123', role: 'Administrators' });
    const counts = await burst(
      times(ATTEMPTS, () => ({ grant_type: 'api_user', username, api_key: 'wrong-key-123' })),
      () => freshIp(),
    );
    assert.deepEqual(counts, { 401: 5, 429: ATTEMPTS - 5 });
    assert.equal(await attempt(freshIp(), { grant_type: 'api_user', username, api_key: 'right-key-123' }), 429);
  });

  test('client credentials', async () => {
    const clientId = `race-client-${run}`;
    await createOauthClient(t.database.db, { clientId, secret: 'right-secret-123', role: 'Administrators' });
    const wrong = { grant_type: 'client_credentials', client_id: clientId, client_secret: 'wrong-secret-123' };
    const counts = await burst(
      times(ATTEMPTS, () => wrong),
      () => freshIp(),
    );
    assert.deepEqual(counts, { 401: 5, 429: ATTEMPTS - 5 });
    assert.equal(await attempt(freshIp(), { ...wrong, client_secret: 'right-secret-123' }), 429);
  });
});

describe('parallel wrong attempts from one address check at most the address limit (10)', () => {
  test('on as many accounts as attempts', async () => {
    const ip = freshIp();
    const counts = await burst(
      times(ATTEMPTS, (i) => ({ email: `nobody-${run}-${i}@example.com`, password: 'wrong-password' })),
      () => ip,
    );
    assert.deepEqual(counts, { 401: 10, 429: ATTEMPTS - 10 });
    assert.equal(await attempt(ip, { email: 'customer@example.com', password: 'Password123!' }), 429);
    assert.equal(
      await attempt(freshIp(), { email: 'customer@example.com', password: 'Password123!' }),
      200,
      'other addresses are unaffected',
    );
  });
});

describe('the slot of a successful attempt is given back', () => {
  test('right credentials, one after another, never run into the limit', async () => {
    const email = `again-${run}@example.com`;
    await registerCustomer(t.systemCtx(), { email, password: 'Right-pass-1', firstname: 'Ag', lastname: 'Ain' });
    const ip = freshIp();
    for (let i = 0; i < 12; i++) assert.equal(await attempt(ip, { email, password: 'Right-pass-1' }), 200, `login ${i + 1}`);
    for (let i = 0; i < 4; i++) assert.equal(await attempt(ip, { email, password: 'wrong-password' }), 401);
    assert.equal(await attempt(ip, { email, password: 'Right-pass-1' }), 200, 'four failures leave the fifth slot');
  });
});

describe('SOAP login', () => {
  test('parallel wrong keys on one API user check at most the account limit', async () => {
    const soap = await startSoapApp(env);
    try {
      // real sockets all come from 127.0.0.1: lift the address rule so that only the account's counts
      await setConfig(soap.t.database.db, soap.t.services.settings, 'api/rate_limit/auth_token_ip', '1000');
      const username = `race-soap-${run}`;
      await createApiUser(soap.t.database.db, { username, apiKey: 'right-key-123', role: 'Administrators' });
      const login = (key: string) =>
        post(
          soap.base,
          '/api/soap/',
          envelope(
            `<ns1:login><username xsi:type="xsd:string">${username}</username><apiKey xsi:type="xsd:string">${key}</apiKey></ns1:login>`,
          ),
        );
      const replies = await Promise.all(times(ATTEMPTS, () => login('wrong-key-123')));
      const counts: Record<string, number> = {};
      for (const r of replies) {
        assert.ok(r.fault, r.text);
        counts[r.fault[1]] = (counts[r.fault[1]] ?? 0) + 1;
      }
      assert.deepEqual(counts, { 'Access denied.': 5, 'Too many requests. Please try again later.': ATTEMPTS - 5 });
      assert.equal((await login('right-key-123')).fault?.[1], 'Too many requests. Please try again later.');
    } finally {
      await soap.t.close();
    }
  });
});
