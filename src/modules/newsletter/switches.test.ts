/**
 * newsletter/general/active = 0 (advertised as newsletterEnabled in the store config) turns the storefront's
 * newsletter operations off (404 NEWSLETTER_DISABLED); the back office still reads its subscribers.
 * Unsubscribing needs the subscriber's own proof, as Maho's unsubscribe link (id + code) does: the unsubscribe
 * code the subscriber got by mail (or the confirmation code of a pending subscription), or the subscriber's own
 * login. An email alone is refused and changes nothing.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { desc, eq, sql } from 'drizzle-orm';
import { API, buildTestApp, type TestApp } from '../../../test/helpers.js';
import { mailOutbox } from '../../platform/tables.js';
import { deleteConfig, setConfig } from '../stores/service.js';
import { unsubscribeCode } from './service.js';
import { newsletterSubscribers } from './tables.js';

let t: TestApp;
let admin: string;
before(async () => {
  t = await buildTestApp();
  admin = await t.tokens.admin();
});
after(() => t.close());

let seq = 0;
const guestEmail = () => `switch${++seq}-${Date.now()}@example.com`;
const subscribe = (body: unknown, token?: string) => t.req('POST', `${API}/newsletter/subscribe`, { body, token });
const unsubscribe = (body: unknown, token?: string) => t.req('POST', `${API}/newsletter/unsubscribe`, { body, token });
async function rowOf(email: string) {
  const [row] = await t.database.db
    .select()
    .from(newsletterSubscribers)
    .where(sql`lower(${newsletterSubscribers.email}) = ${email}`);
  return row;
}
async function withConfig(path: string, value: string, fn: () => Promise<void>) {
  await setConfig(t.database.db, t.services.settings, path, value);
  try {
    await fn();
  } finally {
    await deleteConfig(t.database.db, t.services.settings, path);
  }
}

describe('newsletter switch', () => {
  test('with newsletter/general/active = 0 the storefront operations are a 404 and change nothing', async () => {
    const email = guestEmail();
    assert.equal((await subscribe({ email })).status, 201);
    const customer = await t.tokens.customer();
    await withConfig('newsletter/general/active', '0', async () => {
      assert.equal((await t.req('GET', `${API}/store-config`)).body.newsletterEnabled, false);
      const calls: [string, string, unknown, string?][] = [
        ['POST', '/newsletter/subscribe', { email: guestEmail() }],
        ['POST', '/newsletter/subscribe', {}, customer],
        ['POST', '/newsletter/confirm', { code: 'x'.repeat(64) }],
        ['POST', '/newsletter/unsubscribe', {}, customer],
        ['GET', '/newsletter/status', undefined, customer],
      ];
      for (const [method, path, body, token] of calls) {
        const r = await t.req(method, `${API}${path}`, { body, token });
        assert.equal(r.status, 404, `${method} ${path}: ${r.text}`);
        assert.equal(r.body.error, 'not_found');
        assert.match(r.body.message, /newsletter is disabled/i);
      }
      const gql = await t.gql(`mutation { subscribeNewsletter(input: {email: "${guestEmail()}"}) { newsletter { status } } }`);
      assert.equal(gql.errors?.[0]?.extensions?.code, 'NEWSLETTER_DISABLED', JSON.stringify(gql));
      // the back office still reads the list
      const list = await t.req('GET', `${API}/newsletter/subscribers`, { token: admin, query: { email } });
      assert.equal(list.status, 200);
      assert.equal(list.body.member[0].status, 'subscribed');
    });
    assert.equal((await rowOf(email)).status, 'subscribed');
  });
});

describe('unsubscribe needs proof', () => {
  test('an anonymous call with just an email, or a wrong code, is refused and changes nothing', async () => {
    const email = guestEmail();
    assert.equal((await subscribe({ email })).status, 201);
    const row = await rowOf(email);
    for (const body of [
      { email },
      { email, code: '' },
      { email, code: 'f'.repeat(32) },
      { subscriberId: row.id, code: 'f'.repeat(32) },
      { subscriberId: row.id },
    ]) {
      const r = await unsubscribe(body);
      assert.equal(r.status, 400, `${JSON.stringify(body)}: ${r.text}`);
      assert.equal(r.body.error, 'bad_request');
    }
    // another subscriber's code does not unsubscribe this one
    const other = guestEmail();
    await subscribe({ email: other });
    const otherCode = unsubscribeCode(t.systemCtx(), await rowOf(other));
    assert.equal((await unsubscribe({ email, code: otherCode })).status, 400);
    assert.equal((await unsubscribe({ subscriberId: row.id, code: otherCode })).status, 400);
    assert.equal((await rowOf(email)).status, 'subscribed');
    const gql = await t.gql(`mutation { unsubscribeNewsletter(input: {email: "${email}"}) { newsletter { status } } }`);
    assert.equal(gql.errors?.[0]?.extensions?.status, 400, JSON.stringify(gql));
    assert.equal((await rowOf(email)).status, 'subscribed');
  });

  test("the subscriber's unsubscribe code unsubscribes, by email or by subscriber id", async () => {
    const email = guestEmail();
    await subscribe({ email });
    const code = unsubscribeCode(t.systemCtx(), await rowOf(email));
    const r = await unsubscribe({ email: email.toUpperCase(), code });
    assert.equal(r.status, 201, r.text);
    assert.equal(r.body.status, 'unsubscribed');
    assert.equal(r.body.subscriberId, undefined);
    assert.equal((await rowOf(email)).status, 'unsubscribed');

    const second = guestEmail();
    await subscribe({ email: second });
    const row = await rowOf(second);
    const byId = await unsubscribe({ subscriberId: row.id, code: unsubscribeCode(t.systemCtx(), row) });
    assert.equal(byId.status, 201, byId.text);
    assert.equal(byId.body.email, second);
    assert.equal((await rowOf(second)).status, 'unsubscribed');
  });

  test('the confirmation mail carries the unsubscribe link; the confirmation code also unsubscribes a pending subscription', async () => {
    await withConfig('newsletter/subscription/confirm', '1', async () => {
      const email = guestEmail();
      assert.equal((await subscribe({ email })).status, 201);
      const [mail] = await t.database.db.select().from(mailOutbox).where(eq(mailOutbox.toAddress, email)).orderBy(desc(mailOutbox.id));
      const row = await rowOf(email);
      const link = /newsletter\/subscriber\/unsubscribe\?id=(\d+)&code=([a-f0-9]+)/.exec(mail.textBody);
      assert.ok(link, mail.textBody);
      assert.equal(Number(link[1]), row.id);
      assert.equal(link[2], unsubscribeCode(t.systemCtx(), row));

      const confirmCode = /[?&]code=([a-f0-9]{64})/.exec(mail.textBody)![1];
      const r = await unsubscribe({ email, code: confirmCode });
      assert.equal(r.status, 201, r.text);
      assert.equal((await rowOf(email)).status, 'unsubscribed');
    });
  });

  test("a customer's login unsubscribes the account email without a code", async () => {
    const email = `switch-customer-${Date.now()}@example.com`;
    const made = await t.req('POST', `${API}/customers`, { body: { email, password: 'Secret123', firstname: 'N', lastname: 'L' } });
    assert.equal(made.status, 201, made.text);
    const token = await t.tokens.customer(email, 'Secret123');
    await subscribe({}, token);
    const victim = guestEmail();
    await subscribe({ email: victim });
    const r = await unsubscribe({ email: victim }, token);
    assert.equal(r.status, 201, r.text);
    assert.equal(r.body.email, email);
    assert.equal((await rowOf(email)).status, 'unsubscribed');
    assert.equal((await rowOf(victim)).status, 'subscribed');
  });
});
