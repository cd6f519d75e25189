/** The guest order lookup is limited to 30 attempts an hour per IP (api/rate_limit/guest_order_lookup); every attempt counts. */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { API, buildTestApp, type TestApp } from '../../../test/helpers.js';
import { placeTestOrder } from '../../../test/fixtures/checkout.js';
import { deleteConfig, setConfig } from '../stores/service.js';

let t: TestApp;
before(async () => {
  t = await buildTestApp({ env: { RATE_LIMITS: '1' } });
});
after(() => t.close());

let nextIp = 10;
const freshIp = () => `127.0.5.${nextIp++}`;

async function lookup(ip: string, incrementId: string, token?: string) {
  const r = await t.app.inject({
    method: 'GET',
    url: `${API}/orders/${incrementId}/details`,
    remoteAddress: ip,
    headers: token ? { 'x-order-token': token } : {},
  });
  return { status: r.statusCode, body: JSON.parse(r.body) as Record<string, unknown> };
}

test('the 31st attempt from one IP within an hour is a 429, even with the right token; other IPs are unaffected', async () => {
  const o = await placeTestOrder(t);
  const ip = freshIp();
  for (let i = 0; i < 30; i++) {
    const r = await lookup(ip, o.incrementId, i % 2 ? 'f'.repeat(64) : undefined);
    assert.equal(r.status, 404, `attempt ${i + 1}`);
  }
  const limited = await lookup(ip, o.incrementId, o.accessToken);
  assert.equal(limited.status, 429);
  assert.deepEqual(limited.body, { error: 'too_many_requests', message: 'Too many requests. Please try again later.', code: 429 });
  const elsewhere = await lookup(freshIp(), o.incrementId, o.accessToken);
  assert.equal(elsewhere.status, 200, 'the refused attempt did not spend the token');
});

test('successful reads count too', async () => {
  const ip = freshIp();
  for (let i = 0; i < 30; i++) {
    const o = await placeTestOrder(t);
    assert.equal((await lookup(ip, o.incrementId, o.accessToken)).status, 200, `read ${i + 1}`);
  }
  const o = await placeTestOrder(t);
  assert.equal((await lookup(ip, o.incrementId, o.accessToken)).status, 429);
});

test('GraphQL guestOrder counts against the same limit', async () => {
  const ip = freshIp();
  for (let i = 0; i < 30; i++) assert.equal((await lookup(ip, '1')).status, 404);
  const o = await placeTestOrder(t);
  const r = await t.app.inject({
    method: 'POST',
    url: '/api/graphql',
    remoteAddress: ip,
    headers: { 'content-type': 'application/json' },
    payload: JSON.stringify({ query: `query { guestOrder(incrementId: "${o.incrementId}", accessToken: "${o.accessToken}") { id } }` }),
  });
  assert.equal(JSON.parse(r.body).errors?.[0].extensions.status, 429);
});

test('the limit comes from store config; 0 disables it', async () => {
  await setConfig(t.database.db, t.services.settings, 'api/rate_limit/guest_order_lookup', '2');
  try {
    const ip = freshIp();
    assert.equal((await lookup(ip, '1')).status, 404);
    assert.equal((await lookup(ip, '1')).status, 404);
    assert.equal((await lookup(ip, '1')).status, 429);
    await setConfig(t.database.db, t.services.settings, 'api/rate_limit/guest_order_lookup', '0');
    const ip2 = freshIp();
    for (let i = 0; i < 40; i++) assert.equal((await lookup(ip2, '1')).status, 404);
  } finally {
    await deleteConfig(t.database.db, t.services.settings, 'api/rate_limit/guest_order_lookup');
  }
});
