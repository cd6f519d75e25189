/** POST /coupons/validate is limited to 20 attempts a minute per IP, and per customer (api/rate_limit/coupon_validate). */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { API, buildTestApp, type TestApp } from '../../../test/helpers.js';
import { deleteConfig, setConfig } from '../stores/service.js';

let t: TestApp;
let customer: string;
let admin: string;
before(async () => {
  t = await buildTestApp({ env: { RATE_LIMITS: '1' } });
  customer = await t.tokens.customer();
  admin = await t.tokens.admin();
});
after(() => t.close());

let nextIp = 10;
const freshIp = () => `127.0.3.${nextIp++}`;

async function validate(ip: string, body: unknown, token?: string) {
  const headers: Record<string, string> = { 'content-type': 'application/json' };
  if (token) headers.authorization = `Bearer ${token}`;
  const r = await t.app.inject({
    method: 'POST',
    url: `${API}/coupons/validate`,
    remoteAddress: ip,
    headers,
    payload: JSON.stringify(body),
  });
  return { status: r.statusCode, body: JSON.parse(r.body) as Record<string, unknown> };
}

test('the 21st attempt from one IP within a minute is a 429; other IPs are unaffected', async () => {
  const ip = freshIp();
  for (let i = 0; i < 20; i++) {
    const r = await validate(ip, { code: i % 2 ? 'WELCOME10' : `GUESS${i}` });
    assert.equal(r.status, 201, `attempt ${i + 1}`);
  }
  const limited = await validate(ip, { code: 'WELCOME10' });
  assert.equal(limited.status, 429);
  assert.deepEqual(limited.body, { error: 'too_many_requests', message: 'Too many requests. Please try again later.', code: 429 });
  assert.equal((await validate(freshIp(), { code: 'WELCOME10' })).status, 201);
});

test('a customer is limited across addresses', async () => {
  for (let i = 0; i < 20; i++) assert.equal((await validate(freshIp(), { code: 'WELCOME10' }, customer)).status, 201, `attempt ${i + 1}`);
  assert.equal((await validate(freshIp(), { code: 'WELCOME10' }, customer)).status, 429);
  assert.equal((await validate(freshIp(), { code: 'WELCOME10' })).status, 201, 'a guest on a new address is not');
});

test('malformed requests do not count; admins are not limited', async () => {
  const ip = freshIp();
  for (let i = 0; i < 25; i++) assert.equal((await validate(ip, { code: '' })).status, 400);
  assert.equal((await validate(ip, { code: 'WELCOME10' })).status, 201);
  const adminIp = freshIp();
  for (let i = 0; i < 25; i++) assert.equal((await validate(adminIp, { code: 'WELCOME10' }, admin)).status, 201);
});

test('the limit comes from store config; 0 disables it', async () => {
  await setConfig(t.database.db, t.services.settings, 'api/rate_limit/coupon_validate', '2');
  try {
    const ip = freshIp();
    assert.equal((await validate(ip, { code: 'X1' })).status, 201);
    assert.equal((await validate(ip, { code: 'X2' })).status, 201);
    assert.equal((await validate(ip, { code: 'X3' })).status, 429);
    await setConfig(t.database.db, t.services.settings, 'api/rate_limit/coupon_validate', '0');
    const ip2 = freshIp();
    for (let i = 0; i < 30; i++) assert.equal((await validate(ip2, { code: 'WELCOME10' })).status, 201);
  } finally {
    await deleteConfig(t.database.db, t.services.settings, 'api/rate_limit/coupon_validate');
  }
});

test('GraphQL validateCoupon counts against the same limit', async () => {
  const ip = freshIp();
  for (let i = 0; i < 20; i++) assert.equal((await validate(ip, { code: 'WELCOME10' })).status, 201);
  const r = await t.app.inject({
    method: 'POST',
    url: '/api/graphql',
    remoteAddress: ip,
    headers: { 'content-type': 'application/json' },
    payload: JSON.stringify({ query: 'mutation { validateCoupon(input: {code: "WELCOME10"}) { coupon { isValid } } }' }),
  });
  const body = JSON.parse(r.body);
  assert.equal(body.errors?.[0].extensions.status, 429);
});
