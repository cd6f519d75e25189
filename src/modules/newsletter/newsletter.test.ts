import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { desc, eq, sql } from 'drizzle-orm';
import { API, buildTestApp, type TestApp } from '../../../test/helpers.js';
import { sha256Hex } from '../../platform/auth/secrets.js';
import { mailOutbox } from '../../platform/tables.js';
import { deleteConfig, setConfig } from '../stores/service.js';
import { MESSAGES, unsubscribeCode } from './service.js';
import { newsletterSubscribers } from './tables.js';

let t: TestApp;
let admin: string;
let apiUser: string;
before(async () => {
  t = await buildTestApp();
  admin = await t.tokens.admin();
  apiUser = await t.tokens.apiUser(['newsletter/all', 'customers/all']);
});
after(() => t.close());

let seq = 0;
async function newCustomer(): Promise<{ id: number; email: string; token: string }> {
  const email = `nl${++seq}-${Date.now()}@example.com`;
  const r = await t.req('POST', `${API}/customers`, { body: { email, password: 'Secret123', firstname: 'News', lastname: 'Reader' } });
  assert.equal(r.status, 201, r.text);
  return { id: r.body.id, email, token: await t.tokens.customer(email, 'Secret123') };
}
const guestEmail = () => `guest${++seq}-${Date.now()}@example.com`;

async function rowsOf(email: string) {
  return t.database.db
    .select()
    .from(newsletterSubscribers)
    .where(sql`lower(${newsletterSubscribers.email}) = ${email.toLowerCase()}`);
}
async function mailsTo(email: string) {
  return t.database.db.select().from(mailOutbox).where(eq(mailOutbox.toAddress, email)).orderBy(desc(mailOutbox.id));
}
async function withConfig(path: string, value: string, fn: () => Promise<void>) {
  await setConfig(t.database.db, t.services.settings, path, value);
  try {
    await fn();
  } finally {
    await deleteConfig(t.database.db, t.services.settings, path);
  }
}
const subscribe = (body: unknown, token?: string) => t.req('POST', `${API}/newsletter/subscribe`, { body, token });
const unsubscribe = (body: unknown, token?: string) => t.req('POST', `${API}/newsletter/unsubscribe`, { body, token });
const me = async (token: string) => (await t.req('GET', `${API}/customers/me`, { token })).body;

describe('guest subscribe', () => {
  test('subscribes the email sent; the reply has no ids', async () => {
    const email = guestEmail();
    const r = await subscribe({ email: `  ${email.toUpperCase()} ` });
    assert.equal(r.status, 201, r.text);
    assert.deepEqual(r.body, {
      email,
      storeId: 1,
      status: 'subscribed',
      isSubscribed: true,
      confirmationRequired: false,
      message: MESSAGES.subscribed,
    });
    const [row] = await rowsOf(email);
    assert.equal(row.status, 'subscribed');
    assert.equal(row.customerId, null);
  });

  test('the reply for an already subscribed email is identical to a first subscription', async () => {
    const email = guestEmail();
    const first = await subscribe({ email });
    const again = await subscribe({ email });
    assert.equal(again.status, 201);
    assert.deepEqual(again.body, first.body);
    assert.equal((await rowsOf(email)).length, 1);
  });

  test('bad input: missing, invalid email, unknown store; nothing stored', async () => {
    const missing = await subscribe({});
    assert.equal(missing.status, 400);
    const invalid = await subscribe({ email: 'not-an-email' });
    assert.equal(invalid.status, 400);
    assert.equal(invalid.body.message, 'Invalid email address');
    const email = guestEmail();
    const store = await subscribe({ email, storeId: 9999 });
    assert.equal(store.status, 400);
    assert.equal((await rowsOf(email)).length, 0);
    assert.equal((await subscribe({ email: 42 })).status, 400);
  });

  test('guest subscription switched off: 400 for guests, customers still subscribe', async () => {
    await withConfig('newsletter/subscription/allow_guest_subscribe', '0', async () => {
      const email = guestEmail();
      const r = await subscribe({ email });
      assert.equal(r.status, 400);
      assert.equal((await rowsOf(email)).length, 0);
      const c = await newCustomer();
      const ok = await subscribe({}, c.token);
      assert.equal(ok.status, 201, ok.text);
      assert.equal(ok.body.status, 'subscribed');
    });
  });

  test('a guest subscribing the email of a customer links the row, and the customer shows subscribed', async () => {
    const c = await newCustomer();
    const r = await subscribe({ email: c.email });
    assert.equal(r.status, 201);
    assert.equal(r.body.customerId, undefined);
    const [row] = await rowsOf(c.email);
    assert.equal(row.customerId, c.id);
    assert.equal((await me(c.token)).isSubscribed, true);
  });

  test('an account created later with a subscribed email (any case) takes the subscription over', async () => {
    const email = guestEmail();
    assert.equal((await subscribe({ email })).status, 201);
    const [before] = await rowsOf(email);
    assert.equal(before.customerId, null);
    const r = await t.req('POST', `${API}/customers`, {
      body: { email: email.toUpperCase(), password: 'Secret123', firstname: 'Late', lastname: 'Joiner' },
    });
    assert.equal(r.status, 201, r.text);
    const [after] = await rowsOf(email);
    assert.equal(after.customerId, r.body.id);
    assert.equal(r.body.isSubscribed, true);
    const token = await t.tokens.customer(email, 'Secret123');
    assert.equal((await me(token)).isSubscribed, true);
    const st = await t.req('GET', `${API}/newsletter/status`, { token });
    assert.equal(st.body.status, 'subscribed');
  });
});

describe('customer subscribe', () => {
  test('subscribes the account email (a body email is ignored); isSubscribed on /customers/me', async () => {
    const c = await newCustomer();
    assert.equal((await me(c.token)).isSubscribed, false);
    const other = guestEmail();
    const r = await subscribe({ email: other }, c.token);
    assert.equal(r.status, 201, r.text);
    assert.equal(r.body.email, c.email);
    assert.equal(r.body.customerId, c.id);
    assert.equal(typeof r.body.subscriberId, 'number');
    assert.equal(r.body.status, 'subscribed');
    assert.equal(r.body.isSubscribed, true);
    assert.equal(r.body.message, MESSAGES.subscribed);
    assert.match(r.body.changeStatusAt, /^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d$/);
    assert.equal((await rowsOf(other)).length, 0);
    assert.equal((await me(c.token)).isSubscribed, true);

    const again = await subscribe({}, c.token);
    assert.equal(again.status, 201);
    assert.equal(again.body.message, 'You are already subscribed to our newsletter.');
    assert.equal(again.body.subscriberId, r.body.subscriberId);
  });
});

describe('double opt-in', () => {
  test('a guest subscription stays not_active until the mailed code is confirmed', async () => {
    await withConfig('newsletter/subscription/confirm', '1', async () => {
      const email = guestEmail();
      const r = await subscribe({ email });
      assert.equal(r.status, 201, r.text);
      assert.deepEqual(r.body, {
        email,
        storeId: 1,
        status: 'not_active',
        isSubscribed: false,
        confirmationRequired: true,
        message: MESSAGES.confirmationSent,
      });
      const [row] = await rowsOf(email);
      assert.equal(row.status, 'not_active');
      const [mail] = await mailsTo(email);
      assert.equal(mail.template, 'newsletter/confirm');
      const code = /[?&]code=([a-f0-9]{64})/.exec(mail.textBody)?.[1];
      assert.ok(code, mail.textBody);
      assert.equal(row.confirmCodeHash, sha256Hex(code), 'only the hash is stored');

      const wrong = await t.req('POST', `${API}/newsletter/confirm`, { body: { email, code: 'f'.repeat(64) } });
      assert.equal(wrong.status, 400);
      const wrongEmail = await t.req('POST', `${API}/newsletter/confirm`, { body: { email: guestEmail(), code } });
      assert.equal(wrongEmail.status, 400);
      assert.equal((await rowsOf(email))[0].status, 'not_active');
      assert.equal((await t.req('POST', `${API}/newsletter/confirm`, { body: { email } })).status, 400);

      const ok = await t.req('POST', `${API}/newsletter/confirm`, { body: { email, code } });
      assert.equal(ok.status, 201, ok.text);
      assert.equal(ok.body.status, 'subscribed');
      assert.equal(ok.body.isSubscribed, true);
      const [after] = await rowsOf(email);
      assert.equal(after.status, 'subscribed');
      assert.equal(after.confirmCodeHash, null);
      assert.equal((await t.req('POST', `${API}/newsletter/confirm`, { body: { email, code } })).status, 400, 'a code works once');

      // already subscribed: the same reply as a new subscription, no new mail, still subscribed
      const again = await subscribe({ email });
      assert.deepEqual(again.body, r.body);
      assert.equal((await mailsTo(email)).length, 1);
      assert.equal((await rowsOf(email))[0].status, 'subscribed');
    });
  });

  test('a customer is not subscribed until confirming', async () => {
    await withConfig('newsletter/subscription/confirm', '1', async () => {
      const c = await newCustomer();
      const r = await subscribe({}, c.token);
      assert.equal(r.status, 201);
      assert.equal(r.body.status, 'not_active');
      assert.equal(r.body.confirmationRequired, true);
      assert.equal((await me(c.token)).isSubscribed, false);
      const [mail] = await mailsTo(c.email);
      const code = /[?&]code=([a-f0-9]{64})/.exec(mail.textBody)![1];
      const ok = await t.req('POST', `${API}/newsletter/confirm`, { body: { code } });
      assert.equal(ok.status, 201);
      assert.equal((await me(c.token)).isSubscribed, true);
      const st = await t.req('GET', `${API}/newsletter/status`, { token: c.token });
      assert.equal(st.body.status, 'subscribed');
    });
  });
});

describe('unsubscribe', () => {
  test('a guest unsubscribes with the code from the mail; an email alone, or a code for an unknown email, is refused alike', async () => {
    const email = guestEmail();
    await subscribe({ email });
    assert.equal((await unsubscribe({ email })).status, 400);
    assert.equal((await rowsOf(email))[0].status, 'subscribed');
    const r = await unsubscribe({ email, code: unsubscribeCode(t.systemCtx(), (await rowsOf(email))[0]) });
    assert.equal(r.status, 201, r.text);
    assert.equal((await rowsOf(email))[0].status, 'unsubscribed');
    const never = guestEmail();
    const wrong = await unsubscribe({ email, code: 'f'.repeat(32) });
    const r2 = await unsubscribe({ email: never, code: 'f'.repeat(32) });
    assert.equal(r2.status, 400);
    assert.deepEqual(r2.body, wrong.body);
    assert.equal((await rowsOf(never)).length, 0);
  });

  test('a customer token unsubscribes the account email', async () => {
    const c = await newCustomer();
    await subscribe({}, c.token);
    assert.equal((await me(c.token)).isSubscribed, true);
    const r = await unsubscribe({ email: guestEmail() }, c.token);
    assert.equal(r.status, 201);
    assert.equal(r.body.email, c.email);
    assert.equal((await me(c.token)).isSubscribed, false);
    const st = await t.req('GET', `${API}/newsletter/status`, { token: c.token });
    assert.equal(st.body.status, 'unsubscribed');
    assert.equal(st.body.isSubscribed, false);
  });

  test('bad input: missing or invalid email', async () => {
    assert.equal((await unsubscribe({})).status, 400);
    const bad = await unsubscribe({ email: 'nope' });
    assert.equal(bad.status, 400);
    assert.equal(bad.body.message, 'Invalid email address');
  });
});

describe('status', () => {
  test('customers only: anonymous 401, admin and API tokens 403', async () => {
    assert.equal((await t.req('GET', `${API}/newsletter/status`)).status, 401);
    assert.equal((await t.req('GET', `${API}/newsletter/status`, { token: admin })).status, 403);
    assert.equal((await t.req('GET', `${API}/newsletter/status`, { token: apiUser })).status, 403);
  });

  test('a customer who never subscribed is unknown; then subscribed', async () => {
    const c = await newCustomer();
    const r = await t.req('GET', `${API}/newsletter/status`, { token: c.token });
    assert.equal(r.status, 200);
    assert.deepEqual(r.body, {
      email: c.email,
      customerId: c.id,
      storeId: 1,
      status: 'unknown',
      isSubscribed: false,
      confirmationRequired: false,
    });
    const s = await subscribe({}, c.token);
    const r2 = await t.req('GET', `${API}/newsletter/status`, { token: c.token });
    assert.equal(r2.body.status, 'subscribed');
    assert.equal(r2.body.subscriberId, s.body.subscriberId);
    assert.equal(r2.body.isSubscribed, true);
  });
});
