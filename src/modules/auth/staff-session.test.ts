/**
 * The web back office's cookie session (sign-in, refresh with the CSRF header, rotation, sign-out), signing out
 * everywhere across two app instances on one database, and the staff password reset by mail.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { desc, eq } from 'drizzle-orm';
import type { BuiltApp } from '../../app.js';
import { mailOutbox } from '../../platform/tables.js';
import { API, buildSecondApp, buildTestApp, type Res, type TestApp } from '../../../test/helpers.js';
import { adminSessions, adminUsers } from './tables.js';

let t: TestApp;
let admin: string;
before(async () => {
  t = await buildTestApp();
  admin = (await t.req('POST', `${API}/auth/token`, { body: { grant_type: 'admin_user', username: 'admin', password: 'Admin123!' } })).body
    .token;
});
after(() => t.close());

let seq = 0;
async function staff(): Promise<{ id: number; username: string; email: string }> {
  const username = `sess${++seq}x${Date.now() % 100000}`;
  const roles = await t.req('GET', `${API}/admin-roles`, { token: admin, headers: { accept: 'application/json' } });
  const roleId = roles.body.find((r: { name: string }) => r.name === 'Administrators').id;
  const r = await t.req('POST', `${API}/admin-users`, {
    token: admin,
    body: { username, email: `${username}@example.com`, password: 'Secret123', roleId },
  });
  assert.equal(r.status, 201, r.text);
  return { id: r.body.id, username, email: `${username}@example.com` };
}

const cookieOf = (r: Res) => {
  const h = r.headers['set-cookie'];
  const v = String(Array.isArray(h) ? h[0] : h);
  return { header: v, value: /^admin_session=([^;]*)/.exec(v)?.[1] };
};

const login = (username: string, password = 'Secret123') =>
  t.req('POST', `${API}/auth/admin/login`, { body: { username, password }, headers: { 'user-agent': 'test-browser' } });
const refresh = (cookie?: string, csrf?: string) =>
  t.req('POST', `${API}/auth/admin/refresh`, {
    headers: { ...(cookie ? { cookie: `other=1; admin_session=${cookie}` } : {}), ...(csrf ? { 'x-csrf-token': csrf } : {}) },
  });

async function nextSecond(): Promise<void> {
  const s = Math.floor(Date.now() / 1000);
  while (Math.floor(Date.now() / 1000) === s) await new Promise((r) => setTimeout(r, 25));
}

describe('cookie session', () => {
  test('sign-in sets the HttpOnly, Secure, SameSite=Strict cookie on the session path and answers a CSRF token', async () => {
    const u = await staff();
    const r = await login(u.username);
    assert.equal(r.status, 200, r.text);
    assert.ok(r.body.token);
    assert.match(r.body.csrfToken, /^[a-f0-9]{64}$/);
    const c = cookieOf(r);
    assert.match(c.header, /HttpOnly/);
    assert.match(c.header, /Secure/);
    assert.match(c.header, /SameSite=Strict/);
    assert.match(c.header, /Path=\/api\/rest\/v2\/auth\/admin(;|$)/);
    const [row] = await t.database.db.select().from(adminSessions).where(eq(adminSessions.userId, u.id));
    assert.equal(row.userAgent, 'test-browser');
    assert.notEqual(row.tokenHash, c.value, 'stored hashed');
    assert.notEqual(row.csrfHash, r.body.csrfToken);
  });

  test('refresh: 401 without a live cookie, 403 without the matching CSRF header, else a new token and a rotated cookie', async () => {
    const u = await staff();
    const r = await login(u.username);
    const cookie = cookieOf(r).value!;
    const csrf = r.body.csrfToken;
    assert.equal((await refresh(undefined, csrf)).status, 401);
    assert.equal((await refresh('0'.repeat(64), csrf)).status, 401);
    assert.equal((await refresh(cookie)).status, 403);
    assert.equal((await refresh(cookie, 'f'.repeat(64))).status, 403);
    const ok = await refresh(cookie, csrf);
    assert.equal(ok.status, 200, ok.text);
    assert.equal(ok.body.adminUser.username, u.username);
    const rotated = cookieOf(ok).value!;
    assert.notEqual(rotated, cookie);
    assert.equal((await t.req('GET', `${API}/admin-users/me`, { token: ok.body.token })).status, 200);
    // the old cookie value was spent by the rotation
    assert.equal((await refresh(cookie, csrf)).status, 401);
    assert.equal((await refresh(rotated, csrf)).status, 200);
  });

  test('two refreshes with the same cookie at once: one wins', async () => {
    const u = await staff();
    const r = await login(u.username);
    const cookie = cookieOf(r).value!;
    const both = await Promise.all([refresh(cookie, r.body.csrfToken), refresh(cookie, r.body.csrfToken)]);
    assert.deepEqual(both.map((x) => x.status).sort(), [200, 401]);
  });

  test('logout ends the session and clears the cookie; a deactivated user cannot refresh', async () => {
    const u = await staff();
    const r = await login(u.username);
    const cookie = cookieOf(r).value!;
    const refused = await t.req('POST', `${API}/auth/admin/logout`, { headers: { cookie: `admin_session=${cookie}` } });
    assert.equal(refused.status, 403);
    const out = await t.req('POST', `${API}/auth/admin/logout`, {
      headers: { cookie: `admin_session=${cookie}`, 'x-csrf-token': r.body.csrfToken },
    });
    assert.equal(out.status, 204);
    assert.match(cookieOf(out).header, /Max-Age=0/);
    assert.equal((await refresh(cookie, r.body.csrfToken)).status, 401);
    assert.equal((await t.req('POST', `${API}/auth/admin/logout`)).status, 204);

    const again = await login(u.username);
    assert.equal((await t.req('PUT', `${API}/admin-users/${u.id}`, { token: admin, body: { isActive: false } })).status, 200);
    assert.equal((await refresh(cookieOf(again).value, again.body.csrfToken)).status, 401);
  });

  test('the cookie sign-in takes the same credentials and second factor as the grant; bad input is 400', async () => {
    const u = await staff();
    const wrong = await login(u.username, 'Wrong1234');
    assert.equal(wrong.status, 401);
    assert.equal(wrong.body.error, 'invalid_credentials');
    assert.equal(wrong.headers['set-cookie'], undefined);
    assert.equal((await t.req('POST', `${API}/auth/admin/login`, { body: { username: u.username } })).status, 400);
    assert.equal((await t.req('POST', `${API}/auth/admin/login`, { body: { username: 1, password: 2 } })).status, 400);
  });
});

describe('sign out everywhere', () => {
  test('ends every token and cookie session of the user, in another app instance too', async () => {
    const u = await staff();
    const bearer = (
      await t.req('POST', `${API}/auth/token`, { body: { grant_type: 'admin_user', username: u.username, password: 'Secret123' } })
    ).body.token;
    const web = await login(u.username);
    let second: BuiltApp | undefined;
    try {
      second = await buildSecondApp(t);
      const other = (
        await second.app.inject({
          method: 'POST',
          url: `${API}/auth/token`,
          payload: { grant_type: 'admin_user', username: u.username, password: 'Secret123' },
        })
      ).json().token as string;
      const onSecond = (token: string) =>
        second!.app.inject({ method: 'GET', url: `${API}/admin-users/me`, headers: { authorization: `Bearer ${token}` } });
      assert.equal((await onSecond(bearer)).statusCode, 200);
      await nextSecond();
      const r = await t.req('POST', `${API}/admin-users/me/sign-out-everywhere`, { token: web.body.token, body: {} });
      assert.equal(r.status, 200, r.text);
      assert.equal((await onSecond(bearer)).statusCode, 401);
      assert.equal((await onSecond(other)).statusCode, 401);
      assert.equal((await onSecond(web.body.token)).statusCode, 401);
      assert.equal((await t.req('GET', `${API}/admin-users/me`, { token: bearer })).status, 401);
      assert.equal((await refresh(cookieOf(web).value, web.body.csrfToken)).status, 401);
      const rows = await t.database.db.select().from(adminSessions).where(eq(adminSessions.userId, u.id));
      assert.equal(rows.length, 0);
      // a new sign-in works at once
      assert.equal((await login(u.username)).status, 200);
    } finally {
      await second?.app.close();
    }
  });

  test('only a staff token may call it', async () => {
    const url = `${API}/admin-users/me/sign-out-everywhere`;
    assert.equal((await t.req('POST', url, { body: {} })).status, 401);
    assert.equal((await t.req('POST', url, { token: await t.tokens.customer(), body: {} })).status, 403);
    assert.equal((await t.req('POST', url, { token: await t.tokens.admin(), body: {} })).status, 403);
  });
});

describe('password reset by mail', () => {
  const lastMail = async (to: string) =>
    (await t.database.db.select().from(mailOutbox).where(eq(mailOutbox.toAddress, to)).orderBy(desc(mailOutbox.id)))[0];
  const tokenIn = (text: string) => /\/admin\/reset-password\?token=([a-f0-9]{64})/.exec(text)?.[1];

  test('the same answer for a known and an unknown user; the link works once, unlocks and ends the sessions', async () => {
    const u = await staff();
    const bearer = (
      await t.req('POST', `${API}/auth/token`, { body: { grant_type: 'admin_user', username: u.username, password: 'Secret123' } })
    ).body.token;
    const known = await t.req('POST', `${API}/admin-users/password-reset`, { body: { username: u.username } });
    const unknown = await t.req('POST', `${API}/admin-users/password-reset`, { body: { username: 'no-such-user' } });
    assert.equal(known.status, 202, known.text);
    assert.equal(unknown.status, 202);
    assert.deepEqual(known.body, unknown.body);
    const mail = await lastMail(u.email);
    assert.ok(mail.textBody.includes('http://shop.test/admin/reset-password?token='), mail.textBody);
    const token = tokenIn(mail.textBody)!;
    const [row] = await t.database.db.select().from(adminUsers).where(eq(adminUsers.id, u.id));
    assert.notEqual(row.resetTokenHash, token);
    assert.ok(row.resetTokenExpiresAt! > new Date(Date.now() + 3600_000), 'two hours by default');
    await t.database.db
      .update(adminUsers)
      .set({ lockedUntil: new Date(Date.now() + 3600_000) })
      .where(eq(adminUsers.id, u.id));
    const weak = await t.req('POST', `${API}/admin-users/password-reset/confirm`, { body: { token, password: 'weak' } });
    assert.equal(weak.status, 400);
    await nextSecond();
    const ok = await t.req('POST', `${API}/admin-users/password-reset/confirm`, { body: { token, password: 'NewSecret9' } });
    assert.equal(ok.status, 200, ok.text);
    const twice = await t.req('POST', `${API}/admin-users/password-reset/confirm`, { body: { token, password: 'Other1234' } });
    assert.equal(twice.status, 400);
    assert.equal((await t.req('GET', `${API}/admin-users/me`, { token: bearer })).status, 401);
    const signIn = await t.req('POST', `${API}/auth/token`, {
      body: { grant_type: 'admin_user', username: u.username, password: 'NewSecret9' },
    });
    assert.equal(signIn.status, 200, 'unlocked, new password');
  });

  test('by email; an admin can send the link; bad input is 400; an expired link is refused', async () => {
    const u = await staff();
    assert.equal((await t.req('POST', `${API}/admin-users/password-reset`, { body: { email: u.email.toUpperCase() } })).status, 202);
    assert.ok(tokenIn((await lastMail(u.email)).textBody));
    assert.equal((await t.req('POST', `${API}/admin-users/password-reset`, { body: {} })).status, 400);
    assert.equal((await t.req('POST', `${API}/admin-users/password-reset`, { body: { username: 5 } })).status, 400);
    assert.equal((await t.req('POST', `${API}/admin-users/password-reset/confirm`, { body: { token: 'x' } })).status, 400);
    const sent = await t.req('POST', `${API}/admin-users/${u.id}/password-reset`, { token: admin, body: {} });
    assert.equal(sent.status, 202, sent.text);
    const token = tokenIn((await lastMail(u.email)).textBody)!;
    assert.equal((await t.req('POST', `${API}/admin-users/999999/password-reset`, { token: admin, body: {} })).status, 404);
    await t.database.db
      .update(adminUsers)
      .set({ resetTokenExpiresAt: new Date(Date.now() - 1000) })
      .where(eq(adminUsers.id, u.id));
    const expired = await t.req('POST', `${API}/admin-users/password-reset/confirm`, { body: { token, password: 'NewSecret9' } });
    assert.equal(expired.status, 400);
  });
});
