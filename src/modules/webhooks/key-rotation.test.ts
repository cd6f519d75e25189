/**
 * The key the signing secrets are stored under follows JWT_SECRET (or WEBHOOK_ENCRYPTION_KEY). Rotating it with the
 * old value kept as a previous key loses no subscription: the stored secrets are sealed again under the new key at
 * start, after which the previous key can go.
 */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { sql } from 'drizzle-orm';
import { Webhook } from 'standardwebhooks';
import type { BuiltApp } from '../../app.js';
import { API, buildSecondApp, buildTestApp, type TestApp } from '../../../test/helpers.js';
import { rows } from '../../platform/db.js';
import { startReceiver, type Receiver } from '../../../test/fixtures/webhooks.js';
import { webhookDeliverer } from './background.js';

const OLD = 'old-jwt-secret-0123456789abcdef-0123456789';
const NEW = 'new-jwt-secret-0123456789abcdef-0123456789';

let t: TestApp;
let rx: Receiver;
before(async () => {
  t = await buildTestApp({ env: { JWT_SECRET: OLD } });
  rx = await startReceiver();
});
after(async () => {
  await rx.close();
  await t.close();
});

async function ping(app: BuiltApp, id: number): Promise<{ status: number; body: any }> {
  const login = await app.app.inject({
    method: 'POST',
    url: `${API}/auth/token`,
    headers: { 'content-type': 'application/json' },
    payload: JSON.stringify({ grant_type: 'api_user', username: 'demo-admin', api_key: 'demo-admin-key' }),
  });
  const token = JSON.parse(login.body).token as string;
  const r = await app.app.inject({ method: 'POST', url: `${API}/webhooks/${id}/ping`, headers: { authorization: `Bearer ${token}` } });
  return { status: r.statusCode, body: JSON.parse(r.body) };
}

const storedSecret = async (id: number) =>
  (await rows<{ secret: string }>(t.database.db, sql`SELECT secret FROM webhook_subscriptions WHERE id = ${id}`))[0].secret;

test('rotating JWT_SECRET with JWT_SECRET_PREVIOUS keeps every subscription signing with its own secret', async () => {
  const made = await t.req('POST', `${API}/webhooks`, {
    token: await t.tokens.admin(),
    body: { url: rx.url('/rot'), events: ['customer.created'] },
  });
  assert.equal(made.status, 201, made.text);
  const sealedBefore = await storedSecret(made.body.id);

  const rotated = await buildSecondApp(t, { JWT_SECRET: NEW, JWT_SECRET_PREVIOUS: OLD });
  try {
    assert.equal(await rotated.services.background(webhookDeliverer).resealed, 1, 'the stored secret is sealed under the new key at start');
    const r = await ping(rotated, made.body.id);
    assert.equal(r.body.status, 'succeeded', JSON.stringify(r.body));
  } finally {
    await rotated.app.close();
  }
  assert.notEqual(await storedSecret(made.body.id), sealedBefore);

  // the previous key is no longer needed
  const after = await buildSecondApp(t, { JWT_SECRET: NEW });
  try {
    const r = await ping(after, made.body.id);
    assert.equal(r.body.status, 'succeeded', JSON.stringify(r.body));
  } finally {
    await after.app.close();
  }
  const got = await rx.waitFor(2, '/rot');
  for (const r of got)
    assert.equal(
      (new Webhook(made.body.secret).verify(r.body, r.headers as Record<string, string>) as { type: string }).type,
      'webhook.ping',
    );
});
