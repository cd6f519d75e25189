/** The public GraphQL balance check is limited per client IP: api/rate_limit/giftcard_balance, 10 a minute. */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { buildTestApp, type TestApp } from '../../../test/helpers.js';
import { deleteConfig, setConfig } from '../stores/service.js';

let t: TestApp;
before(async () => {
  t = await buildTestApp({ env: { RATE_LIMITS: '1' } });
});
after(() => t.close());

let nextIp = 10;
const freshIp = () => `127.0.2.${nextIp++}`;
const Q = 'query($c: String!) { checkGiftcardBalance(code: $c) { code balance } }';

async function check(ip: string, code: string) {
  const r = await t.app.inject({
    method: 'POST',
    url: '/api/graphql',
    remoteAddress: ip,
    headers: { 'content-type': 'application/json' },
    payload: JSON.stringify({ query: Q, variables: { c: code } }),
  });
  assert.equal(r.statusCode, 200, r.body);
  return JSON.parse(r.body) as {
    data: { checkGiftcardBalance: { balance: number } } | null;
    errors?: { message: string; extensions: { code: string; status: number } }[];
  };
}

test('the 11th check within a minute from one IP is refused; found or not, every check counts', async () => {
  const ip = freshIp();
  for (let i = 0; i < 10; i++) {
    const r = i % 2 ? await check(ip, `NOPE-${i}`) : await check(ip, 'GC-DEMO-0000-0000-0001');
    if (i % 2) assert.equal(r.errors?.[0].extensions.status, 404, `check ${i + 1}`);
    else assert.equal(r.data?.checkGiftcardBalance.balance, 50, `check ${i + 1}`);
  }
  const limited = await check(ip, 'GC-DEMO-0000-0000-0001');
  assert.equal(limited.data?.checkGiftcardBalance, null);
  assert.equal(limited.errors?.[0].extensions.status, 429);
  assert.equal(limited.errors?.[0].extensions.code, 'RATE_LIMITED');
  assert.equal(limited.errors?.[0].message, 'Too many requests. Please try again later.');
  assert.equal((await check(freshIp(), 'GC-DEMO-0000-0000-0001')).data?.checkGiftcardBalance.balance, 50, 'other IPs are unaffected');
});

test('the limit is configurable; 0 disables it', async () => {
  await setConfig(t.database.db, t.services.settings, 'api/rate_limit/giftcard_balance', '2');
  try {
    const ip = freshIp();
    assert.equal((await check(ip, 'GC-DEMO-0000-0000-0001')).errors, undefined);
    assert.equal((await check(ip, 'GC-DEMO-0000-0000-0001')).errors, undefined);
    assert.equal((await check(ip, 'GC-DEMO-0000-0000-0001')).errors?.[0].extensions.status, 429);
    await setConfig(t.database.db, t.services.settings, 'api/rate_limit/giftcard_balance', '0');
    for (let i = 0; i < 15; i++) assert.equal((await check(ip, 'GC-DEMO-0000-0000-0001')).errors, undefined, `check ${i + 1}`);
  } finally {
    await deleteConfig(t.database.db, t.services.settings, 'api/rate_limit/giftcard_balance');
  }
});
