/** POST /contact is limited to 5 an hour per IP and store, and per email (api/rate_limit/contact). */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { API, buildTestApp, type TestApp } from '../../../test/helpers.js';
import { setConfig } from '../stores/service.js';

let t: TestApp;
before(async () => {
  t = await buildTestApp({ env: { RATE_LIMITS: '1' } });
});
after(() => t.close());

let nextIp = 10;
const freshIp = () => `127.0.4.${nextIp++}`;
let seq = 0;
const freshEmail = () => `rl${++seq}@example.com`;

async function send(ip: string, email: string, extra: Record<string, unknown> = {}) {
  const body = { name: 'Rate Tester', email, comment: 'hi', ...extra };
  const r = await t.app.inject({
    method: 'POST',
    url: `${API}/contact`,
    remoteAddress: ip,
    headers: { 'content-type': 'application/json' },
    payload: JSON.stringify(body),
  });
  return { status: r.statusCode, body: JSON.parse(r.body) as Record<string, unknown> };
}

test('the 6th message from one IP within an hour is a 429; other IPs are unaffected', async () => {
  const ip = freshIp();
  for (let i = 0; i < 5; i++) assert.equal((await send(ip, freshEmail())).status, 201, `message ${i + 1}`);
  const limited = await send(ip, freshEmail());
  assert.equal(limited.status, 429);
  assert.equal(limited.body.error, 'too_many_requests');
  assert.equal((await send(freshIp(), freshEmail())).status, 201);
});

test('one email is limited across addresses; invalid submissions do not count', async () => {
  const email = freshEmail();
  const ip = freshIp();
  for (let i = 0; i < 8; i++) assert.equal((await send(ip, email, { comment: '' })).status, 422);
  for (let i = 0; i < 5; i++) assert.equal((await send(freshIp(), email)).status, 201, `message ${i + 1}`);
  assert.equal((await send(freshIp(), email.toUpperCase())).status, 429);
});

test('the limit comes from store config; 0 disables it', async () => {
  await setConfig(t.database.db, t.services.settings, 'api/rate_limit/contact', '0');
  const ip = freshIp();
  for (let i = 0; i < 8; i++) assert.equal((await send(ip, freshEmail())).status, 201);
});
