/** POST /customers/me/revocation-requests is limited per IP (revocation/abuse/ip_rate_limit_per_hour, default 5 an hour). */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { count } from 'drizzle-orm';
import { API, buildTestApp, type TestApp } from '../../../test/helpers.js';
import { placeTestOrder } from '../../../test/fixtures/checkout.js';
import { deleteConfig, setConfig } from '../stores/service.js';
import { revocationRequests } from './tables.js';

let t: TestApp;
let customer: string;
let orderId: number;
before(async () => {
  t = await buildTestApp({ env: { RATE_LIMITS: '1' } });
  const email = `rv-rl-${Date.now()}@example.com`;
  const r = await t.req('POST', `${API}/customers`, { body: { email, password: 'Secret123', firstname: 'Rate', lastname: 'Limited' } });
  assert.equal(r.status, 201, r.text);
  customer = await t.tokens.customer(email, 'Secret123');
  orderId = (await placeTestOrder(t, { customerToken: customer })).id;
});
after(() => t.close());

let nextIp = 10;
const freshIp = () => `127.0.7.${nextIp++}`;

async function submit(ip: string, body: unknown = { orderId }) {
  const r = await t.app.inject({
    method: 'POST',
    url: `${API}/customers/me/revocation-requests`,
    remoteAddress: ip,
    headers: { 'content-type': 'application/json', authorization: `Bearer ${customer}` },
    payload: JSON.stringify(body),
  });
  return r.statusCode;
}

async function rowCount(): Promise<number> {
  const [r] = await t.database.db.select({ n: count() }).from(revocationRequests);
  return r.n;
}

test('the 6th submission from one IP within an hour is a 429 and writes nothing; other IPs are unaffected', async () => {
  const ip = freshIp();
  for (let i = 0; i < 5; i++) assert.equal(await submit(ip), 201, `submission ${i + 1}`);
  const before = await rowCount();
  assert.equal(await submit(ip), 429);
  assert.equal(await rowCount(), before);
  assert.equal(await submit(freshIp()), 201);
});

test('requests missing the order do not count', async () => {
  const ip = freshIp();
  for (let i = 0; i < 7; i++) assert.equal(await submit(ip, {}), 400);
  assert.equal(await submit(ip), 201);
});

test('the limit comes from store config; 0 disables it', async () => {
  const path = 'revocation/abuse/ip_rate_limit_per_hour';
  try {
    await setConfig(t.database.db, t.services.settings, path, '1');
    const ip = freshIp();
    assert.equal(await submit(ip), 201);
    assert.equal(await submit(ip), 429);
    await setConfig(t.database.db, t.services.settings, path, '0');
    const open = freshIp();
    for (let i = 0; i < 8; i++) assert.equal(await submit(open), 201);
  } finally {
    await deleteConfig(t.database.db, t.services.settings, path);
  }
});
