import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { desc, eq } from 'drizzle-orm';
import { API, buildTestApp, type TestApp } from '../../../test/helpers.js';
import { sha256Hex } from '../../platform/auth/secrets.js';
import { mailOutbox } from '../../platform/tables.js';
import { customers, passwordResets } from './tables.js';

let t: TestApp;
let admin: string;
before(async () => {
  t = await buildTestApp();
  admin = await t.tokens.admin();
});
after(() => t.close());

let seq = 0;
async function newCustomer(app: TestApp = t): Promise<{ id: number; email: string; token: string }> {
  const email = `pw${++seq}@example.com`;
  const r = await app.req('POST', `${API}/customers`, { body: { email, password: 'Original1', firstname: 'Pat', lastname: 'Word' } });
  assert.equal(r.status, 201, r.text);
  return { id: r.body.id, email, token: await app.tokens.customer(email, 'Original1') };
}

async function canLogin(email: string, password: string): Promise<boolean> {
  const r = await t.req('POST', `${API}/auth/token`, { body: { email, password } });
  return r.status === 200;
}

async function passwordHash(id: number): Promise<string> {
  const [r] = await t.database.db.select({ h: customers.passwordHash }).from(customers).where(eq(customers.id, id));
  return r.h;
}

async function mailsTo(email: string) {
  return t.database.db.select().from(mailOutbox).where(eq(mailOutbox.toAddress, email)).orderBy(desc(mailOutbox.id));
}

/** Asks for a reset link and returns the token from the mail. */
async function resetToken(email: string): Promise<string> {
  const r = await t.req('POST', `${API}/customers/forgot-password`, { body: { email } });
  assert.equal(r.status, 201, r.text);
  const [mail] = await mailsTo(email);
  const m = /[?&]token=([a-f0-9]{64})&email=([^\s&]+)/.exec(mail.textBody);
  assert.ok(m, mail.textBody);
  return m[1];
}

function assertError(r: { status: number; body: any }, status: number, error?: string) {
  assert.equal(r.status, status, JSON.stringify(r.body));
  assert.equal(typeof r.body.message, 'string');
  if (error) assert.equal(r.body.error, error);
}

describe('POST /customers/me/password', () => {
  test('changes the password', async () => {
    const c = await newCustomer();
    const r = await t.req('POST', `${API}/customers/me/password`, {
      token: c.token,
      body: { currentPassword: 'Original1', newPassword: 'Changed22' },
    });
    assert.equal(r.status, 201, r.text);
    assert.equal(r.body.success, true);
    assert.equal(typeof r.body.message, 'string');
    assert.equal(await canLogin(c.email, 'Original1'), false);
    assert.equal(await canLogin(c.email, 'Changed22'), true);
  });

  test('wrong current password, too short, missing or mistyped → 400 and the password stays', async () => {
    const c = await newCustomer();
    const before = await passwordHash(c.id);
    for (const [body, msg] of [
      [{ currentPassword: 'wrong-one', newPassword: 'Changed22' }, /current password/],
      [{ currentPassword: 'Original1', newPassword: 'short' }, /at least 7/],
      [{ currentPassword: 'Original1' }, /Missing required fields: newPassword/],
      [{ newPassword: 'Changed22' }, /currentPassword/],
      [{ currentPassword: 'Original1', newPassword: 12345678 }, undefined],
      [{ currentPassword: 'Original1', newPassword: 'x'.repeat(257) }, undefined],
    ] as const) {
      const r = await t.req('POST', `${API}/customers/me/password`, { token: c.token, body });
      assertError(r, 400, 'bad_request');
      if (msg) assert.match(r.body.message, msg);
    }
    assertError(
      await t.req('POST', `${API}/customers/me/password`, { token: c.token, raw: '{', headers: { 'content-type': 'application/json' } }),
      400,
    );
    assert.equal(await passwordHash(c.id), before);
  });

  test('access: anonymous 401, admin 403', async () => {
    const body = { currentPassword: 'Original1', newPassword: 'Changed22' };
    assertError(await t.req('POST', `${API}/customers/me/password`, { body }), 401, 'unauthorized');
    const r = await t.req('POST', `${API}/customers/me/password`, { token: admin, body });
    assertError(r, 403, 'forbidden');
    assert.equal(r.body.message, 'Customer identity required');
  });
});

describe('POST /customers/forgot-password', () => {
  test('queues a reset mail with a single-use link; the token is stored hashed', async () => {
    const c = await newCustomer();
    const r = await t.req('POST', `${API}/customers/forgot-password`, { body: { email: ` ${c.email.toUpperCase()} ` } });
    assert.equal(r.status, 201);
    assert.deepEqual(r.body, { email: c.email });
    const [mail] = await mailsTo(c.email);
    assert.ok(mail, 'a mail is queued');
    assert.equal(mail.template, 'customer/password_reset');
    assert.equal(mail.storeId, 1);
    const m = /http:\/\/shop\.test\/customer\/account\/resetpassword\?token=([a-f0-9]{64})&email=([^\s]+)/.exec(mail.textBody);
    assert.ok(m, mail.textBody);
    assert.equal(decodeURIComponent(m[2]), c.email);
    const token = m[1];
    const rows = await t.database.db.select().from(passwordResets).where(eq(passwordResets.customerId, c.id));
    assert.equal(rows.length, 1);
    assert.equal(rows[0].tokenHash, sha256Hex(token));
    assert.equal(rows[0].usedAt, null);
    const ttl = rows[0].expiresAt.getTime() - rows[0].createdAt.getTime();
    assert.ok(Math.abs(ttl - 3600_000) < 5000, `expires after one hour (${ttl} ms)`);
    assert.ok(!JSON.stringify(rows).includes(token), 'the token itself is not stored');

    await t.mail.runOnce();
    const [sent] = await mailsTo(c.email);
    assert.equal(sent.status, 'logged', 'delivered (logged: no SMTP in tests)');
    assert.ok(sent.textBody.includes(token));
  });

  test('the same reply for an unknown email, and no mail', async () => {
    const r = await t.req('POST', `${API}/customers/forgot-password`, { body: { email: 'nobody@example.com' } });
    assert.equal(r.status, 201);
    assert.deepEqual(r.body, { email: 'nobody@example.com' });
    assert.equal((await mailsTo('nobody@example.com')).length, 0);
  });

  test('an inactive account gets no mail, with the same reply', async () => {
    const c = await newCustomer();
    assert.equal((await t.req('PUT', `${API}/customers/${c.id}`, { token: admin, body: { isActive: false } })).status, 200);
    const r = await t.req('POST', `${API}/customers/forgot-password`, { body: { email: c.email } });
    assert.equal(r.status, 201);
    assert.deepEqual(r.body, { email: c.email });
    assert.equal((await mailsTo(c.email)).length, 0);
  });

  test('bad input → 400, no mail', async () => {
    for (const body of [{}, { email: '' }, { email: 'not-an-email' }, { email: 5 }, { email: ['a@b.c'] }, 'x']) {
      assertError(await t.req('POST', `${API}/customers/forgot-password`, { body }), 400, 'bad_request');
    }
    assertError(
      await t.req('POST', `${API}/customers/forgot-password`, { raw: '{"email"', headers: { 'content-type': 'application/json' } }),
      400,
    );
  });
});

describe('POST /customers/reset-password', () => {
  test('sets the password once; the token is then spent', async () => {
    const c = await newCustomer();
    const token = await resetToken(c.email);
    const r = await t.req('POST', `${API}/customers/reset-password`, {
      body: { email: c.email, resetToken: token, newPassword: 'BrandNew1' },
    });
    assert.equal(r.status, 201, r.text);
    assert.equal(r.body.success, true);
    assert.equal(await canLogin(c.email, 'BrandNew1'), true);
    assert.equal(await canLogin(c.email, 'Original1'), false);
    const [row] = await t.database.db
      .select()
      .from(passwordResets)
      .where(eq(passwordResets.tokenHash, sha256Hex(token)));
    assert.ok(row.usedAt);
    const again = await t.req('POST', `${API}/customers/reset-password`, {
      body: { email: c.email, resetToken: token, newPassword: 'Another12' },
    });
    assertError(again, 400, 'bad_request');
    assert.equal(await canLogin(c.email, 'BrandNew1'), true);
  });

  test('`token` is accepted for resetToken; other tokens of the customer are spent too', async () => {
    const c = await newCustomer();
    const first = await resetToken(c.email);
    const second = await resetToken(c.email);
    assert.notEqual(first, second);
    const r = await t.req('POST', `${API}/customers/reset-password`, { body: { email: c.email, token: second, newPassword: 'ViaAlias1' } });
    assert.equal(r.status, 201, r.text);
    assertError(
      await t.req('POST', `${API}/customers/reset-password`, { body: { email: c.email, token: first, newPassword: 'Other1234' } }),
      400,
    );
    assert.equal(await canLogin(c.email, 'ViaAlias1'), true);
  });

  test('bad, foreign, expired tokens and bad input → 400, password unchanged, token not spent', async () => {
    const c = await newCustomer();
    const other = await newCustomer();
    const token = await resetToken(c.email);
    const before = await passwordHash(c.id);
    const otherBefore = await passwordHash(other.id);
    const cases: [unknown, RegExp?][] = [
      [{ email: c.email, resetToken: 'f'.repeat(64), newPassword: 'BrandNew1' }, /invalid or has expired/],
      [{ email: other.email, resetToken: token, newPassword: 'BrandNew1' }, /invalid or has expired/],
      [{ email: c.email, resetToken: token, newPassword: 'short' }, /at least 7/],
      [{ email: c.email, newPassword: 'BrandNew1' }, /Missing required fields: resetToken/],
      [{ resetToken: token }, /Missing required fields: email, newPassword/],
      [{ email: 'not-an-email', resetToken: token, newPassword: 'BrandNew1' }],
      [{ email: c.email, resetToken: 12, newPassword: 'BrandNew1' }],
      [{ email: c.email, resetToken: 'x'.repeat(200), newPassword: 'BrandNew1' }],
    ];
    for (const [body, msg] of cases) {
      const r = await t.req('POST', `${API}/customers/reset-password`, { body });
      assertError(r, 400, 'bad_request');
      if (msg) assert.match(r.body.message, msg);
    }
    assert.equal(await passwordHash(c.id), before);
    assert.equal(await passwordHash(other.id), otherBefore);
    const [row] = await t.database.db
      .select()
      .from(passwordResets)
      .where(eq(passwordResets.tokenHash, sha256Hex(token)));
    assert.equal(row.usedAt, null, 'refused attempts do not spend the token');
    await t.database.db
      .update(passwordResets)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(passwordResets.tokenHash, sha256Hex(token)));
    const expired = await t.req('POST', `${API}/customers/reset-password`, {
      body: { email: c.email, resetToken: token, newPassword: 'BrandNew1' },
    });
    assertError(expired, 400, 'bad_request');
    assert.equal(await passwordHash(c.id), before);
  });

  test('two requests racing with one token: exactly one succeeds', async () => {
    const c = await newCustomer();
    const token = await resetToken(c.email);
    const results = await Promise.all(
      ['RaceOne11', 'RaceTwo22', 'RaceThree3'].map((pw) =>
        t.req('POST', `${API}/customers/reset-password`, { body: { email: c.email, resetToken: token, newPassword: pw } }),
      ),
    );
    const ok = results.filter((r) => r.status === 201);
    assert.equal(ok.length, 1, results.map((r) => r.status).join(','));
    assert.ok(results.every((r) => r.status === 201 || r.status === 400));
    const winner = ['RaceOne11', 'RaceTwo22', 'RaceThree3'][results.indexOf(ok[0])];
    assert.equal(await canLogin(c.email, winner), true);
  });
});

describe('password rate limits', () => {
  let limited: TestApp;
  before(async () => {
    limited = await buildTestApp({ env: { RATE_LIMITS: '1' } });
  });
  after(() => limited.close());

  const inject = (url: string, body: unknown, ip: string, token?: string) =>
    limited.app.inject({
      method: 'POST',
      url: `${API}${url}`,
      payload: JSON.stringify(body),
      headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
      remoteAddress: ip,
    });

  test('forgot-password: 5 per IP and 5 per email an hour', async () => {
    for (let i = 0; i < 5; i++)
      assert.equal((await inject('/customers/forgot-password', { email: `ip${i}@example.com` }, '10.0.0.1')).statusCode, 201);
    const r = await inject('/customers/forgot-password', { email: 'ip9@example.com' }, '10.0.0.1');
    assert.equal(r.statusCode, 429);
    assert.equal(JSON.parse(r.body).error, 'too_many_requests');
    for (let i = 0; i < 5; i++)
      assert.equal((await inject('/customers/forgot-password', { email: 'Same@example.com' }, `10.0.1.${i}`)).statusCode, 201);
    assert.equal((await inject('/customers/forgot-password', { email: 'same@example.com' }, '10.0.1.99')).statusCode, 429);
    assert.equal((await inject('/customers/forgot-password', { email: 'fresh@example.com' }, '10.0.1.98')).statusCode, 201);
  });

  test('reset-password: 10 per IP an hour', async () => {
    const body = { email: 'x@example.com', resetToken: 'a'.repeat(64), newPassword: 'Whatever1' };
    for (let i = 0; i < 10; i++) assert.equal((await inject('/customers/reset-password', body, '10.0.2.1')).statusCode, 400);
    assert.equal((await inject('/customers/reset-password', body, '10.0.2.1')).statusCode, 429);
    assert.equal((await inject('/customers/reset-password', body, '10.0.2.2')).statusCode, 400);
  });

  test('change password: 10 per customer an hour, from any IP', async () => {
    const c = await newCustomer(limited);
    const body = { currentPassword: 'wrong-one', newPassword: 'Whatever1' };
    for (let i = 0; i < 10; i++) assert.equal((await inject('/customers/me/password', body, `10.0.3.${i}`, c.token)).statusCode, 400);
    assert.equal((await inject('/customers/me/password', body, '10.0.3.200', c.token)).statusCode, 429);
    const good = await inject('/customers/me/password', { currentPassword: 'Original1', newPassword: 'Whatever1' }, '10.0.3.201', c.token);
    assert.equal(good.statusCode, 429, 'refused even with the right password while limited');
  });
});
