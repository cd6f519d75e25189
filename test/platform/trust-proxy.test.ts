/**
 * Behind a proxy the client's address comes from X-Forwarded-For, but only the hops the proxy setting trusts:
 * a client that writes its own X-Forwarded-For entries cannot step past the per-IP limits.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { API, buildTestApp, type TestApp } from '../helpers.js';

/** ten failed logins a minute per client address (api/rate_limit/auth_token_ip) */
const IP_LIMIT = 10;

async function failedLogins(t: TestApp, proxy: string, client: string, n: number): Promise<number[]> {
  const statuses: number[] = [];
  for (let i = 0; i < n; i++) {
    const r = await t.app.inject({
      method: 'POST',
      url: `${API}/auth/token`,
      remoteAddress: proxy,
      // what the client wrote itself, then what the proxy appended: the address it saw
      headers: { 'content-type': 'application/json', 'x-forwarded-for': `198.51.100.${i}, ${client}` },
      // a new account each time, so that only the per-address count can refuse
      payload: JSON.stringify({ email: `nobody-${proxy}-${i}@example.com`, password: 'wrong-password' }),
    });
    statuses.push(r.statusCode);
  }
  return statuses;
}

describe('TRUST_PROXY', () => {
  for (const setting of ['1', '10.9.0.0/16']) {
    describe(`= ${setting}`, () => {
      let t: TestApp;
      before(async () => {
        t = await buildTestApp({ env: { RATE_LIMITS: '1', TRUST_PROXY: setting } });
      });
      after(() => t.close());

      test('the address the proxy saw counts, not the ones the client wrote', async () => {
        const statuses = await failedLogins(t, '10.9.0.1', '203.0.113.7', IP_LIMIT + 2);
        assert.deepEqual(statuses.slice(0, IP_LIMIT), Array(IP_LIMIT).fill(401));
        assert.deepEqual(statuses.slice(IP_LIMIT), [429, 429], 'spoofed leading entries do not reset the count');
        // another client behind the same proxy has its own count
        assert.equal((await failedLogins(t, '10.9.0.1', '203.0.113.8', 1))[0], 401);
      });
    });
  }

  test('a peer that is not a trusted proxy is the client itself, whatever it forwards', async () => {
    const t = await buildTestApp({ env: { RATE_LIMITS: '1', TRUST_PROXY: '10.9.0.0/16' } });
    try {
      const statuses = await failedLogins(t, '192.0.2.50', '203.0.113.9', IP_LIMIT + 1);
      assert.equal(statuses[IP_LIMIT], 429, 'every attempt counted against the untrusted peer');
      assert.equal((await failedLogins(t, '10.9.0.1', '203.0.113.9', 1))[0], 401, 'the forwarded address was not charged');
    } finally {
      await t.close();
    }
  });
});
