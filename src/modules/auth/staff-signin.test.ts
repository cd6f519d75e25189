/**
 * Staff sign-in (`grant_type: admin_user`): password, the TOTP second factor (a code accepted once, one step
 * either side; recovery codes spent), lockout after the configured failures, the login record, and staff tokens
 * going through every back-office operation with their role's permissions; refresh and logout of a staff token.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { eq } from 'drizzle-orm';
import { Secret, TOTP } from 'otpauth';
import { API, buildTestApp, type TestApp } from '../../../test/helpers.js';
import { adminRecoveryCodes, adminUsers } from './tables.js';

let t: TestApp;
before(async () => {
  t = await buildTestApp();
});
after(() => t.close());

const signIn = (body: Record<string, unknown>) => t.req('POST', `${API}/auth/token`, { body: { grant_type: 'admin_user', ...body } });

let seq = 0;
/** A staff user with a role holding `permissions`; answers the user's id and a token. */
async function staffUser(permissions: string[], o: { allowedStoreIds?: number[] } = {}) {
  const admin = await adminToken();
  const name = `staff-${++seq}-${Date.now() % 100000}`;
  const role = await t.req('POST', `${API}/admin-roles`, { token: admin, body: { name: `role-${name}`, permissions } });
  assert.equal(role.status, 201, role.text);
  const user = await t.req('POST', `${API}/admin-users`, {
    token: admin,
    body: { username: name, email: `${name}@example.com`, password: 'Secret123', roleId: role.body.id, allowedStoreIds: o.allowedStoreIds },
  });
  assert.equal(user.status, 201, user.text);
  const r = await signIn({ username: name, password: 'Secret123' });
  assert.equal(r.status, 200, r.text);
  return { id: user.body.id as number, username: name, token: r.body.token as string, roleId: role.body.id as number };
}

let demoToken: string | undefined;
async function adminToken(): Promise<string> {
  demoToken ??= (await signIn({ username: 'admin', password: 'Admin123!' })).body.token;
  return demoToken!;
}

const code = (secret: string, at = Date.now()) => new TOTP({ secret: Secret.fromBase32(secret) }).generate({ timestamp: at });

/** Waits until at least `ms` remain in the current 30-second step, so that a code generated now stays current. */
async function awayFromStepEnd(ms = 3000): Promise<void> {
  while (30_000 - (Date.now() % 30_000) < ms) await new Promise((r) => setTimeout(r, 200));
}

async function enableTotp(token: string): Promise<{ secret: string; recoveryCodes: string[] }> {
  const setup = await t.req('POST', `${API}/admin-users/me/twofa/setup`, { token, body: {} });
  assert.equal(setup.status, 200, setup.text);
  assert.match(setup.body.uri, /^otpauth:\/\/totp\//);
  await awayFromStepEnd();
  const enable = await t.req('POST', `${API}/admin-users/me/twofa/enable`, { token, body: { code: code(setup.body.secret) } });
  assert.equal(enable.status, 200, enable.text);
  assert.equal(enable.body.recoveryCodes.length, 10);
  return { secret: setup.body.secret, recoveryCodes: enable.body.recoveryCodes };
}

describe('password sign-in', () => {
  test('the demo staff user signs in; the answer names the user and the permissions, and records the login', async () => {
    const r = await signIn({ username: 'admin', password: 'Admin123!' });
    assert.equal(r.status, 200, r.text);
    assert.equal(r.body.tokenType, 'Bearer');
    assert.equal(r.body.adminUser.username, 'admin');
    assert.equal(r.body.adminUser.email, 'admin@example.com');
    assert.equal(r.body.adminUser.role, 'Administrators');
    assert.deepEqual(r.body.permissions, ['all']);
    assert.equal(r.body.apiUser, undefined);
    const [u] = await t.database.db.select().from(adminUsers).where(eq(adminUsers.username, 'admin'));
    assert.ok(u.loginCount >= 1);
    assert.ok(u.lastLoginAt);
    const me = await t.req('GET', `${API}/admin-users/me`, { token: r.body.token });
    assert.equal(me.status, 200, me.text);
    assert.equal(me.body.username, 'admin');
    assert.equal(me.body.passwordHash, undefined);
    assert.equal(JSON.stringify(me.body).includes('scrypt'), false);
  });

  test('wrong password, unknown user and inactive user are invalid_credentials (401); missing fields 400', async () => {
    const s = await staffUser(['orders/read']);
    for (const body of [
      { username: s.username, password: 'Wrong1234' },
      { username: 'nobody-here', password: 'Secret123' },
    ]) {
      const r = await signIn(body);
      assert.equal(r.status, 401, r.text);
      assert.equal(r.body.error, 'invalid_credentials');
    }
    const admin = await adminToken();
    assert.equal((await t.req('PUT', `${API}/admin-users/${s.id}`, { token: admin, body: { isActive: false } })).status, 200);
    const r = await signIn({ username: s.username, password: 'Secret123' });
    assert.equal(r.status, 401);
    assert.equal(r.body.error, 'invalid_credentials');
    assert.equal((await signIn({ username: s.username })).status, 400);
    assert.equal((await signIn({ password: 'x' })).status, 400);
    assert.equal((await signIn({ username: 5, password: 'x' })).status, 400);
  });
});

describe('staff tokens on back-office operations', () => {
  test('a staff token carries its role: orders/read reads orders, not customers; every kind of caller is refused an admin op', async () => {
    const s = await staffUser(['orders/read']);
    assert.equal((await t.req('GET', `${API}/orders`, { token: s.token })).status, 200);
    const denied = await t.req('GET', `${API}/customers`, { token: s.token });
    assert.equal(denied.status, 403, denied.text);
    assert.equal((await t.req('GET', `${API}/admin-users`, { token: s.token })).status, 403);
    const admin = await adminToken();
    assert.equal((await t.req('GET', `${API}/customers`, { token: admin })).status, 200);
  });

  test("a role change applies to the user's live token at once; a deleted user's token is refused", async () => {
    const s = await staffUser(['orders/read']);
    const admin = await adminToken();
    assert.equal((await t.req('GET', `${API}/customers`, { token: s.token })).status, 403);
    const r = await t.req('PUT', `${API}/admin-roles/${s.roleId}`, { token: admin, body: { permissions: ['customers/read'] } });
    assert.equal(r.status, 200, r.text);
    assert.equal((await t.req('GET', `${API}/customers`, { token: s.token })).status, 200);
    assert.equal((await t.req('GET', `${API}/orders`, { token: s.token })).status, 403);
    assert.equal((await t.req('DELETE', `${API}/admin-users/${s.id}`, { token: admin })).status, 204);
    assert.equal((await t.req('GET', `${API}/customers`, { token: s.token })).status, 401);
  });

  test('a store-limited staff user gets its store scope', async () => {
    const s = await staffUser(['orders/read'], { allowedStoreIds: [1] });
    const me = await t.req('GET', `${API}/admin-users/me`, { token: s.token });
    assert.deepEqual(me.body.allowedStoreIds, [1]);
    const r = await t.req('GET', `${API}/orders?storeId=2`, { token: s.token });
    assert.ok(r.status === 403 || (r.status === 200 && r.body.totalItems === 0), r.text);
  });

  test('refresh gives a new staff token (the old one revoked) and logout revokes it', async () => {
    const s = await staffUser(['orders/read']);
    const r = await t.req('POST', `${API}/auth/refresh`, { token: s.token, body: {} });
    assert.equal(r.status, 200, r.text);
    assert.equal(r.body.adminUser.username, s.username);
    assert.equal((await t.req('GET', `${API}/orders`, { token: s.token })).status, 401);
    assert.equal((await t.req('GET', `${API}/orders`, { token: r.body.token })).status, 200);
    assert.equal((await t.req('POST', `${API}/auth/logout`, { token: r.body.token, body: {} })).status, 201);
    assert.equal((await t.req('GET', `${API}/orders`, { token: r.body.token })).status, 401);
  });
});

describe('TOTP second factor', () => {
  test('a TOTP user needs a code: twofa_required lists the methods; a code works once; a wrong one is twofa_invalid', async () => {
    const s = await staffUser(['orders/read']);
    const { secret } = await enableTotp(s.token);
    const none = await signIn({ username: s.username, password: 'Secret123' });
    assert.equal(none.status, 401, none.text);
    assert.equal(none.body.error, 'twofa_required');
    assert.deepEqual(none.body.details.methods, ['totp']);
    // the code that enabled TOTP was spent with it: wait for the next step's code
    const next = Math.ceil(Date.now() / 30_000) * 30_000;
    await new Promise((r) => setTimeout(r, next - Date.now() + 50));
    await awayFromStepEnd();
    const c = code(secret);
    const ok = await signIn({ username: s.username, password: 'Secret123', twofa_code: c });
    assert.equal(ok.status, 200, ok.text);
    const replay = await signIn({ username: s.username, password: 'Secret123', twofa_code: c });
    assert.equal(replay.status, 401);
    assert.equal(replay.body.error, 'twofa_invalid');
    const wrong = await signIn({ username: s.username, password: 'Secret123', twofa_code: c === '000000' ? '111111' : '000000' });
    assert.equal(wrong.body.error, 'twofa_invalid');
    // a right code with a wrong password is still invalid_credentials
    const badPass = await signIn({ username: s.username, password: 'Nope12345', twofa_code: code(secret) });
    assert.equal(badPass.body.error, 'invalid_credentials');
  });

  test("the previous step's code is accepted (clock drift), one two steps back is not", async () => {
    const s = await staffUser(['orders/read']);
    const { secret } = await enableTotp(s.token);
    await awayFromStepEnd();
    const old = await signIn({ username: s.username, password: 'Secret123', twofa_code: code(secret, Date.now() - 65_000) });
    assert.equal(old.body.error, 'twofa_invalid');
    const prevStepCode = code(secret, Date.now() - 30_000);
    // the step before the current one may be the one TOTP was enabled with (spent): then it is refused too
    const prev = await signIn({ username: s.username, password: 'Secret123', twofa_code: prevStepCode });
    assert.ok(prev.status === 200 || prev.body.error === 'twofa_invalid', prev.text);
  });

  test('a recovery code works once in place of a code; new codes replace the old; disable needs the password or a code', async () => {
    const s = await staffUser(['orders/read']);
    const { recoveryCodes } = await enableTotp(s.token);
    const ok = await signIn({ username: s.username, password: 'Secret123', twofa_code: recoveryCodes[0].toLowerCase() });
    assert.equal(ok.status, 200, ok.text);
    const again = await signIn({ username: s.username, password: 'Secret123', twofa_code: recoveryCodes[0] });
    assert.equal(again.body.error, 'twofa_invalid');
    const fresh = await t.req('POST', `${API}/admin-users/me/twofa/recovery-codes`, { token: ok.body.token, body: {} });
    assert.equal(fresh.status, 200, fresh.text);
    assert.equal((await signIn({ username: s.username, password: 'Secret123', twofa_code: recoveryCodes[1] })).body.error, 'twofa_invalid');
    const rows = await t.database.db.select().from(adminRecoveryCodes).where(eq(adminRecoveryCodes.userId, s.id));
    assert.equal(rows.length, 10);
    assert.ok(
      rows.every((r) => !fresh.body.recoveryCodes.includes(r.codeHash)),
      'stored hashed',
    );
    const noProof = await t.req('POST', `${API}/admin-users/me/twofa/disable`, { token: ok.body.token, body: {} });
    assert.equal(noProof.status, 400);
    const wrongPass = await t.req('POST', `${API}/admin-users/me/twofa/disable`, {
      token: ok.body.token,
      body: { currentPassword: 'nope' },
    });
    assert.equal(wrongPass.status, 400);
    const off = await t.req('POST', `${API}/admin-users/me/twofa/disable`, {
      token: ok.body.token,
      body: { currentPassword: 'Secret123' },
    });
    assert.equal(off.status, 200, off.text);
    assert.equal(off.body.twofaEnabled, false);
    assert.equal((await signIn({ username: s.username, password: 'Secret123' })).status, 200);
  });

  test('enable needs a setup and a right code; setup while on is 409; the secret is stored sealed', async () => {
    const s = await staffUser(['orders/read']);
    const early = await t.req('POST', `${API}/admin-users/me/twofa/enable`, { token: s.token, body: { code: '123456' } });
    assert.equal(early.status, 409, early.text);
    const setup = await t.req('POST', `${API}/admin-users/me/twofa/setup`, { token: s.token, body: {} });
    const wrong = await t.req('POST', `${API}/admin-users/me/twofa/enable`, { token: s.token, body: { code: 'abcdef' } });
    assert.equal(wrong.status, 400);
    assert.equal((await t.req('POST', `${API}/admin-users/me/twofa/enable`, { token: s.token, body: {} })).status, 400);
    await awayFromStepEnd();
    const on = await t.req('POST', `${API}/admin-users/me/twofa/enable`, { token: s.token, body: { code: code(setup.body.secret) } });
    assert.equal(on.status, 200, on.text);
    const [u] = await t.database.db.select().from(adminUsers).where(eq(adminUsers.id, s.id));
    assert.ok(u.twofaEnabled);
    assert.ok(u.twofaSecret && !u.twofaSecret.includes(setup.body.secret));
    assert.equal((await t.req('POST', `${API}/admin-users/me/twofa/setup`, { token: s.token, body: {} })).status, 409);
    assert.equal((await t.req('GET', `${API}/admin-users/${s.id}`, { token: await adminToken() })).body.twofaEnabled, true);
  });

  test('TOTP management is for staff tokens only: anonymous 401, customer and API user 403', async () => {
    const customer = await t.tokens.customer();
    const apiAdmin = await t.tokens.admin();
    for (const path of ['setup', 'enable', 'disable', 'recovery-codes']) {
      const url = `${API}/admin-users/me/twofa/${path}`;
      const body = path === 'enable' ? { code: '123456' } : {};
      assert.equal((await t.req('POST', url, { body })).status, 401);
      assert.equal((await t.req('POST', url, { token: customer, body })).status, 403);
      assert.equal((await t.req('POST', url, { token: apiAdmin, body })).status, 403);
    }
  });
});

describe('lockout', () => {
  test('the configured failures lock the account, the right password included; an admin unlock or the lock time ends it', async () => {
    const s = await staffUser(['orders/read']);
    for (let i = 0; i < 5; i++) {
      const r = await signIn({ username: s.username, password: `Wrong${i}xyz` });
      assert.equal(r.body.error, 'invalid_credentials', r.text);
    }
    const sixth = await signIn({ username: s.username, password: 'Wrong6xyz' });
    assert.equal(sixth.status, 401);
    assert.equal(sixth.body.error, 'account_locked');
    assert.ok(sixth.body.details.lockedUntil);
    const right = await signIn({ username: s.username, password: 'Secret123' });
    assert.equal(right.status, 401);
    assert.equal(right.body.error, 'account_locked');
    const admin = await adminToken();
    const shown = await t.req('GET', `${API}/admin-users/${s.id}`, { token: admin });
    assert.equal(shown.body.locked, true);
    assert.equal((await t.req('PUT', `${API}/admin-users/${s.id}`, { token: admin, body: { unlock: true } })).status, 200);
    assert.equal((await signIn({ username: s.username, password: 'Secret123' })).status, 200);
    // a lock whose time has passed lets the user in
    await t.database.db
      .update(adminUsers)
      .set({ lockedUntil: new Date(Date.now() - 1000) })
      .where(eq(adminUsers.id, s.id));
    assert.equal((await signIn({ username: s.username, password: 'Secret123' })).status, 200);
  });

  test('a good sign-in resets the count of failures', async () => {
    const s = await staffUser(['orders/read']);
    for (let i = 0; i < 5; i++) await signIn({ username: s.username, password: `Wrong${i}xyz` });
    assert.equal((await signIn({ username: s.username, password: 'Secret123' })).status, 200);
    const [u] = await t.database.db.select().from(adminUsers).where(eq(adminUsers.id, s.id));
    assert.equal(u.failedLogins, 0);
    for (let i = 0; i < 5; i++) await signIn({ username: s.username, password: `Wrong${i}xyz` });
    assert.equal((await signIn({ username: s.username, password: 'Secret123' })).status, 200);
  });

  test('wrong TOTP codes count towards the lockout', async () => {
    const s = await staffUser(['orders/read']);
    await enableTotp(s.token);
    let last;
    for (let i = 0; i < 6; i++) last = await signIn({ username: s.username, password: 'Secret123', twofa_code: 'ZZZZZ-ZZZZZ' });
    assert.equal(last!.body.error, 'account_locked');
  });
});
