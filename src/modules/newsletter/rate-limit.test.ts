/** newsletter_subscribe: 5 an hour per IP and per email; newsletter_unsubscribe: 10 an hour per IP (api/rate_limit/*). */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { API, buildTestApp, type TestApp } from '../../../test/helpers.js';
import { deleteConfig, setConfig } from '../stores/service.js';

let t: TestApp;
before(async () => {
  t = await buildTestApp({ env: { RATE_LIMITS: '1' } });
});
after(() => t.close());

let nextIp = 10;
const freshIp = () => `127.0.7.${nextIp++}`;
let seq = 0;
const freshEmail = () => `rl${++seq}@example.com`;

async function post(path: string, ip: string, body: unknown) {
  const r = await t.app.inject({
    method: 'POST',
    url: `${API}${path}`,
    remoteAddress: ip,
    headers: { 'content-type': 'application/json' },
    payload: JSON.stringify(body),
  });
  return { status: r.statusCode, body: JSON.parse(r.body) as Record<string, unknown> };
}

test('the 6th subscribe from one IP within an hour is a 429; other IPs are unaffected', async () => {
  const ip = freshIp();
  for (let i = 0; i < 5; i++)
    assert.equal((await post('/newsletter/subscribe', ip, { email: freshEmail() })).status, 201, `attempt ${i + 1}`);
  const limited = await post('/newsletter/subscribe', ip, { email: freshEmail() });
  assert.equal(limited.status, 429);
  assert.deepEqual(limited.body, { error: 'too_many_requests', message: 'Too many requests. Please try again later.', code: 429 });
  assert.equal((await post('/newsletter/subscribe', freshIp(), { email: freshEmail() })).status, 201);
});

test('one email is limited across addresses', async () => {
  const email = freshEmail();
  for (let i = 0; i < 5; i++) assert.equal((await post('/newsletter/subscribe', freshIp(), { email })).status, 201, `attempt ${i + 1}`);
  assert.equal((await post('/newsletter/subscribe', freshIp(), { email })).status, 429);
  assert.equal((await post('/newsletter/subscribe', freshIp(), { email: freshEmail() })).status, 201);
});

test('the 11th unsubscribe from one IP within an hour is a 429, refused attempts included', async () => {
  const ip = freshIp();
  // without the mailed code each attempt is refused (400), and still counts: codes cannot be guessed at speed
  for (let i = 0; i < 10; i++)
    assert.equal(
      (await post('/newsletter/unsubscribe', ip, { email: freshEmail(), code: 'f'.repeat(32) })).status,
      400,
      `attempt ${i + 1}`,
    );
  assert.equal((await post('/newsletter/unsubscribe', ip, { email: freshEmail(), code: 'f'.repeat(32) })).status, 429);
  assert.equal((await post('/newsletter/unsubscribe', freshIp(), { email: freshEmail(), code: 'f'.repeat(32) })).status, 400);
});

test('the limit comes from store config; 0 disables it', async () => {
  const path = 'api/rate_limit/newsletter_subscribe';
  await setConfig(t.database.db, t.services.settings, path, '1');
  try {
    const ip = freshIp();
    assert.equal((await post('/newsletter/subscribe', ip, { email: freshEmail() })).status, 201);
    assert.equal((await post('/newsletter/subscribe', ip, { email: freshEmail() })).status, 429);
    await setConfig(t.database.db, t.services.settings, path, '0');
    for (let i = 0; i < 8; i++) assert.equal((await post('/newsletter/subscribe', ip, { email: freshEmail() })).status, 201);
  } finally {
    await deleteConfig(t.database.db, t.services.settings, path);
  }
});
