/**
 * Staff passkeys (WebAuthn) over HTTP with a software authenticator: registration, listing, removal, the
 * passkey as second factor of the `admin_user` grant, and every way an assertion or a registration can be
 * wrong (origin, relying party, challenge replayed, reused at once, expired or of the other ceremony, unknown or
 * another user's credential, signature, counter, user verification): each refused, nothing changed.
 */
import assert from 'node:assert/strict';
import { after, before, beforeEach, describe, test } from 'node:test';
import { eq, sql } from 'drizzle-orm';
import { API, buildSecondApp, buildTestApp, type TestApp } from '../../../test/helpers.js';
import {
  createStaffUser,
  passkeyAssertion,
  registerPasskey,
  SoftAuthenticator,
  staffSignIn,
  UP,
  type TestStaffUser,
} from '../../../test/fixtures/webauthn.js';
import { deleteConfig, setConfig } from '../stores/service.js';
import type { Ctx } from '../../platform/context.js';
import { AppError } from '../../platform/errors.js';
import { adminPasskeys, adminUsers, adminWebauthnChallenges } from './tables.js';
import { verifyStaffPasskey } from './passkeys.js';

const ORIGIN = 'http://shop.test';

let t: TestApp;
let apiAdmin: string;
let customer: string;

before(async () => {
  t = await buildTestApp();
  apiAdmin = await t.tokens.admin();
  customer = await t.tokens.customer();
});
after(() => t.close());

async function tokenOf(user: TestStaffUser, passkey?: unknown): Promise<string> {
  const r = await staffSignIn(t, user, passkey);
  assert.equal(r.status, 200, r.text);
  return r.body.token as string;
}

/** The stored state of a user's passkeys (what a refused attempt must leave as it was). */
async function stored(userId: number) {
  const rows = await t.database.db
    .select({ id: adminPasskeys.id, signCount: adminPasskeys.signCount, lastUsedAt: adminPasskeys.lastUsedAt, name: adminPasskeys.name })
    .from(adminPasskeys)
    .where(eq(adminPasskeys.userId, userId))
    .orderBy(adminPasskeys.id);
  return rows.map((r) => ({ ...r, lastUsedAt: r.lastUsedAt?.toISOString() ?? null }));
}

/** A staff user with one registered passkey, and a token signed in before the passkey existed. */
async function staffWithPasskey(opts: { permissions?: string[]; fixedCounter?: boolean } = {}) {
  const user = await createStaffUser(t, { permissions: opts.permissions });
  const token = await tokenOf(user);
  const auth = new SoftAuthenticator(ORIGIN, { fixedCounter: opts.fixedCounter });
  const passkey = await registerPasskey(t, token, auth);
  return { user, token, auth, passkey };
}

/** The failed sign-ins of the tests below must not lock the account the next test signs in with. */
async function clearFailures(userId: number) {
  await t.database.db.update(adminUsers).set({ failedLogins: 0, lockedUntil: null }).where(eq(adminUsers.id, userId));
}

function assertTwofaInvalid(r: { status: number; body: any; text: string }) {
  assert.equal(r.status, 401, r.text);
  assert.equal(r.body.error, 'twofa_invalid', r.text);
  assert.equal(r.body.token, undefined);
}

describe('registration', () => {
  test('options, register, list: the key is never shown; the options exclude what is registered', async () => {
    const user = await createStaffUser(t);
    const token = await tokenOf(user);
    const o = await t.req('POST', `${API}/admin-users/me/passkeys/options`, { token });
    assert.equal(o.status, 200, o.text);
    assert.equal(o.headers['cache-control'], 'no-store');
    assert.equal(o.body.rp.id, 'shop.test');
    assert.equal(o.body.user.name, user.username);
    assert.match(o.body.challenge, /^[A-Za-z0-9_-]{43}$/);
    assert.deepEqual(o.body.excludeCredentials, []);
    assert.equal(o.body.authenticatorSelection.userVerification, 'required');
    assert.ok(o.body.pubKeyCredParams.some((p: { alg: number }) => p.alg === -7));

    const auth = new SoftAuthenticator(ORIGIN);
    const r = await t.req('POST', `${API}/admin-users/me/passkeys`, { token, body: { name: ' Laptop ', response: auth.create(o.body) } });
    assert.equal(r.status, 201, r.text);
    assert.equal(r.body.name, 'Laptop');
    assert.deepEqual(r.body.transports, ['internal', 'hybrid']);
    assert.equal(r.body.lastUsedAt, undefined);
    assert.match(r.body.createdAt, /^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d$/);

    const list = await t.req('GET', `${API}/admin-users/me/passkeys`, { token });
    assert.equal(list.status, 200, list.text);
    assert.deepEqual(
      list.body.member.map((p: Record<string, unknown>) => Object.keys(p).sort()),
      [['createdAt', 'id', 'name', 'transports']],
    );
    assert.equal(list.body.member[0].id, r.body.id);
    assert.ok(!list.text.includes(auth.id), 'the credential id is not listed');

    const gql = await t.gql('{ myAdminPasskeys { edges { node { _id name lastUsedAt } } } }', token);
    assert.deepEqual(gql.data.myAdminPasskeys.edges, [{ node: { _id: r.body.id, name: 'Laptop', lastUsedAt: null } }]);
    const refused = await t.gql('{ myAdminPasskeys { edges { node { id } } } }', apiAdmin);
    assert.equal(refused.errors[0].extensions.code, 'STAFF_USER_REQUIRED');

    const again = await t.req('POST', `${API}/admin-users/me/passkeys/options`, { token });
    assert.deepEqual(
      again.body.excludeCredentials.map((c: { id: string }) => c.id),
      [auth.id],
    );
  });

  test('a credential registered already (by anyone) is 409; the second user keeps none', async () => {
    const { auth } = await staffWithPasskey();
    const other = await createStaffUser(t);
    const token = await tokenOf(other);
    const o = await t.req('POST', `${API}/admin-users/me/passkeys/options`, { token });
    const r = await t.req('POST', `${API}/admin-users/me/passkeys`, { token, body: { name: 'Copy', response: auth.create(o.body) } });
    assert.equal(r.status, 409, r.text);
    assert.deepEqual(await stored(other.id), []);
  });

  test('refused registrations: 400, nothing stored', async () => {
    const user = await createStaffUser(t);
    const token = await tokenOf(user);
    const options = async () => (await t.req('POST', `${API}/admin-users/me/passkeys/options`, { token })).body;
    const register = (response: unknown, name: unknown = 'Key') =>
      t.req('POST', `${API}/admin-users/me/passkeys`, { token, body: { name, response } });
    const auth = () => new SoftAuthenticator(ORIGIN);

    const cases: [string, () => Promise<unknown>][] = [
      ['wrong origin', async () => auth().create(await options(), { origin: 'https://evil.test' })],
      ['wrong rp id', async () => auth().create(await options(), { rpId: 'evil.test' })],
      ['no user verification', async () => auth().create(await options(), { flags: UP | 0x40 })],
      ['an authentication type', async () => auth().create(await options(), { type: 'webauthn.get' })],
      ['a challenge never issued', async () => auth().create(await options(), { challenge: 'bm90LWlzc3VlZC1ieS10aGUtc2VydmVy' })],
      ['not a registration response', async () => ({ id: 'abc', type: 'public-key', response: {} })],
      [
        'a sign-in challenge',
        async () => {
          const o = await t.req('POST', `${API}/auth/passkey/options`, { body: {} });
          return auth().create({ ...(await options()), challenge: o.body.challenge });
        },
      ],
    ];
    for (const [what, response] of cases) {
      const r = await register(await response());
      assert.equal(r.status, 400, `${what}: ${r.text}`);
      assert.equal(r.body.error, 'passkey_invalid', what);
    }

    // the same answer twice: the challenge was used
    const a = auth();
    const response = a.create(await options());
    assert.equal((await register(response)).status, 201);
    const replay = await register({ ...response });
    assert.equal(replay.status, 400, replay.text);

    // another user's challenge
    const other = await createStaffUser(t);
    const otherToken = await tokenOf(other);
    const theirs = (await t.req('POST', `${API}/admin-users/me/passkeys/options`, { token: otherToken })).body;
    assert.equal((await register(auth().create(theirs))).status, 400);

    for (const name of ['', '   ', 'x'.repeat(101), 5])
      assert.equal((await register(auth().create(await options()), name)).status, 400, `name ${name}`);
    const missing = await t.req('POST', `${API}/admin-users/me/passkeys`, { token, body: { name: 'No response' } });
    assert.equal(missing.status, 400);
    const malformed = await t.req('POST', `${API}/admin-users/me/passkeys`, {
      token,
      raw: '{"name":',
      headers: { 'content-type': 'application/json' },
    });
    assert.equal(malformed.status, 400);

    assert.equal((await stored(user.id)).length, 1, 'only the one good registration');
    assert.deepEqual(await stored(other.id), []);
  });
});

describe('sign-in with a passkey as second factor', () => {
  let user: TestStaffUser;
  let auth: SoftAuthenticator;
  before(async () => {
    ({ user, auth } = await staffWithPasskey());
  });
  beforeEach(() => clearFailures(user.id));

  test('the password alone asks for the second factor; with a passkey assertion the grant answers a working token', async () => {
    const first = await staffSignIn(t, user);
    assert.equal(first.status, 401, first.text);
    assert.equal(first.body.error, 'twofa_required');
    assert.ok(first.body.details.methods.includes('passkey'));

    const before = await stored(user.id);
    const r = await staffSignIn(t, user, await passkeyAssertion(t, auth, user.username));
    assert.equal(r.status, 200, r.text);
    const after = await stored(user.id);
    assert.equal(after[0].signCount, auth.counter);
    assert.ok(after[0].signCount > before[0].signCount);
    assert.ok(after[0].lastUsedAt);

    const list = await t.req('GET', `${API}/admin-users/me/passkeys`, { token: r.body.token });
    assert.equal(list.status, 200, list.text);
    assert.ok(list.body.member[0].lastUsedAt);
  });

  test('with options of no user name (a discoverable credential)', async () => {
    const o = await t.req('POST', `${API}/auth/passkey/options`, { body: {} });
    assert.equal(o.status, 200, o.text);
    assert.deepEqual(o.body.allowCredentials, []);
    assert.equal(o.body.rpId, 'shop.test');
    assert.equal(o.body.userVerification, 'required');
    const r = await staffSignIn(t, user, auth.get(o.body));
    assert.equal(r.status, 200, r.text);
  });

  test('refused assertions: 401 twofa_invalid, the passkey unchanged', async () => {
    const stranger = new SoftAuthenticator(ORIGIN);
    const { auth: othersKey } = await staffWithPasskey();
    const signCount = async () => (await stored(user.id))[0].signCount;
    assert.ok((await signCount()) > 0);
    const cases: [string, () => Promise<unknown>][] = [
      ['wrong origin', () => passkeyAssertion(t, auth, user.username, { origin: 'https://evil.test' })],
      ['wrong rp id', () => passkeyAssertion(t, auth, user.username, { rpId: 'evil.test' })],
      ['no user verification', () => passkeyAssertion(t, auth, user.username, { flags: UP })],
      ['a registration type', () => passkeyAssertion(t, auth, user.username, { type: 'webauthn.create' })],
      ['tampered signature', () => passkeyAssertion(t, auth, user.username, { tamperSignature: true })],
      ['unknown credential', () => passkeyAssertion(t, stranger)],
      ["another user's credential", () => passkeyAssertion(t, othersKey)],
      ['counter equal to the stored one', async () => passkeyAssertion(t, auth, user.username, { counter: await signCount() })],
      ['counter going backwards', async () => passkeyAssertion(t, auth, user.username, { counter: (await signCount()) - 1 })],
      ['a challenge never issued', async () => auth.get({ challenge: 'bm90LWlzc3VlZC1ieS10aGUtc2VydmVy' })],
      [
        'a registration challenge',
        async () => {
          const token = await tokenOf(await createStaffUser(t));
          const o = await t.req('POST', `${API}/admin-users/me/passkeys/options`, { token });
          return auth.get({ challenge: o.body.challenge });
        },
      ],
      [
        'an expired challenge',
        async () => {
          const o = await t.req('POST', `${API}/auth/passkey/options`, { body: {} });
          await t.database.db
            .update(adminWebauthnChallenges)
            .set({ expiresAt: new Date(Date.now() - 1000) })
            .where(eq(adminWebauthnChallenges.challenge, o.body.challenge));
          return auth.get(o.body);
        },
      ],
      ['not an assertion', async () => ({ id: auth.id, type: 'public-key', response: { clientDataJSON: 'e30' } })],
      ['a string', async () => 'passkey'],
    ];
    for (const [what, assertion] of cases) {
      await clearFailures(user.id);
      const before = await stored(user.id);
      const r = await staffSignIn(t, user, await assertion());
      assert.equal(r.status, 401, `${what}: ${r.text}`);
      assertTwofaInvalid(r);
      assert.deepEqual(await stored(user.id), before, what);
    }
  });

  test("options for another user's name: that user's credential does not sign this one in", async () => {
    const { user: other } = await staffWithPasskey();
    const assertion = await passkeyAssertion(t, auth, other.username);
    assertTwofaInvalid(await staffSignIn(t, user, assertion));
  });

  test('an assertion is used once: replayed, or sent twice at once, one sign-in gets through', async () => {
    const assertion = await passkeyAssertion(t, auth, user.username);
    assert.equal((await staffSignIn(t, user, assertion)).status, 200);
    const before = await stored(user.id);
    assertTwofaInvalid(await staffSignIn(t, user, assertion));
    assert.deepEqual(await stored(user.id), before);

    await clearFailures(user.id);
    const twice = await passkeyAssertion(t, auth, user.username);
    const results = await Promise.all([staffSignIn(t, user, twice), staffSignIn(t, user, twice)]);
    assert.deepEqual(results.map((r) => r.status).sort(), [200, 401]);
  });

  test('an authenticator that keeps no counter (always 0) signs in again and again', async () => {
    const { user: u, auth: a } = await staffWithPasskey({ fixedCounter: true });
    for (let i = 0; i < 2; i++) assert.equal((await staffSignIn(t, u, await passkeyAssertion(t, a, u.username))).status, 200);
    assert.equal((await stored(u.id))[0].signCount, 0);
  });

  test('a challenge issued by one process is used in another', async () => {
    const second = await buildSecondApp(t);
    try {
      const o = await second.app.inject({ method: 'POST', url: `${API}/auth/passkey/options`, payload: {} });
      assert.equal(o.statusCode, 200, o.body);
      const r = await staffSignIn(t, user, auth.get(JSON.parse(o.body)));
      assert.equal(r.status, 200, r.text);
    } finally {
      await second.app.close();
    }
  });
});

describe('verifyStaffPasskey', () => {
  test('answers the user id; with another userId, or anything malformed, a 401 twofa_invalid', async () => {
    const { user, auth } = await staffWithPasskey();
    const ctx = {
      db: t.database.db,
      now: new Date(),
      app: t.services,
      log: { info() {}, warn() {}, error() {} },
      actor: { kind: 'anonymous' },
      ip: '127.0.0.1',
    } as unknown as Ctx;
    assert.equal(await verifyStaffPasskey(ctx, await passkeyAssertion(t, auth, user.username), user.id), user.id);
    assert.equal(await verifyStaffPasskey(ctx, await passkeyAssertion(t, auth)), user.id);
    for (const bad of [undefined, null, 42, [], {}, { id: auth.id }]) {
      await assert.rejects(
        verifyStaffPasskey(ctx, bad),
        (e: unknown) => e instanceof AppError && e.status === 401 && e.error === 'twofa_invalid',
      );
    }
    const before = await stored(user.id);
    await assert.rejects(
      verifyStaffPasskey(ctx, await passkeyAssertion(t, auth, user.username), user.id + 1000),
      (e: unknown) => e instanceof AppError && e.status === 401 && e.error === 'twofa_invalid',
    );
    assert.deepEqual(await stored(user.id), before);
  });
});

describe('sign-in options', () => {
  test('a name that does not exist, or has no passkey, is answered like one that has: a stable stand-in credential', async () => {
    const { user, auth } = await staffWithPasskey();
    const plain = await createStaffUser(t);
    const ask = async (username: string) => (await t.req('POST', `${API}/auth/passkey/options`, { body: { username } })).body;
    const real = await ask(user.username);
    const none = await ask(plain.username);
    const unknown = await ask('nobody-at-all');
    assert.deepEqual(
      real.allowCredentials.map((c: { id: string }) => c.id),
      [auth.id],
    );
    for (const o of [real, none, unknown]) {
      assert.deepEqual(Object.keys(o).sort(), Object.keys(real).sort());
      assert.equal(o.allowCredentials.length, 1);
      assert.deepEqual(Object.keys(o.allowCredentials[0]).sort(), ['id', 'type']);
    }
    assert.equal((await ask('nobody-at-all')).allowCredentials[0].id, unknown.allowCredentials[0].id);
    assert.notEqual(none.allowCredentials[0].id, unknown.allowCredentials[0].id);
  });

  test('bad input is a 400; extra keys are dropped', async () => {
    for (const body of [{ username: 5 }, { username: 'x'.repeat(255) }, 'text']) {
      const r = await t.req('POST', `${API}/auth/passkey/options`, { body });
      assert.equal(r.status, 400, `${JSON.stringify(body)}: ${r.text}`);
    }
    assert.equal((await t.req('POST', `${API}/auth/passkey/options`, { body: { other: 1 } })).status, 200);
    assert.equal((await t.req('POST', `${API}/auth/passkey/options`, { body: {} })).status, 200);
  });

  test('expired challenges are pruned when new ones are issued', async () => {
    await t.database.db
      .insert(adminWebauthnChallenges)
      .values({ challenge: 'expired-challenge', purpose: 'authenticate', expiresAt: new Date(Date.now() - 60_000) });
    await t.req('POST', `${API}/auth/passkey/options`, { body: {} });
    const left = await t.database.db.execute(sql`SELECT 1 FROM admin_webauthn_challenges WHERE challenge = 'expired-challenge'`);
    assert.equal((left as unknown as { rows: unknown[] }).rows.length, 0);
  });

  test('rate limited per client address', async () => {
    const limited = await buildSecondApp(t, { RATE_LIMITS: '1' });
    try {
      await setConfig(t.database.db, limited.services.settings, 'api/rate_limit/passkey_options', '2');
      const ask = () => limited.app.inject({ method: 'POST', url: `${API}/auth/passkey/options`, payload: {}, remoteAddress: '127.0.9.9' });
      assert.equal((await ask()).statusCode, 200);
      assert.equal((await ask()).statusCode, 200);
      const r = await ask();
      assert.equal(r.statusCode, 429, r.body);
    } finally {
      await deleteConfig(t.database.db, limited.services.settings, 'api/rate_limit/passkey_options');
      await limited.app.close();
    }
  });
});

describe('removal', () => {
  test('a staff user removes their own passkey; then the password alone signs in', async () => {
    const { user, token, passkey } = await staffWithPasskey();
    const { passkey: theirs, user: other } = await staffWithPasskey();
    const del = (id: unknown) => t.req('DELETE', `${API}/admin-users/me/passkeys/${id}`, { token });
    assert.equal((await del(theirs.id)).status, 404, "another user's passkey");
    assert.equal((await del(999999)).status, 404);
    assert.equal((await del('abc')).status, 400);
    assert.equal((await stored(other.id)).length, 1);

    const r = await del(passkey.id);
    assert.equal(r.status, 204, r.text);
    assert.equal(r.text, '');
    assert.deepEqual(await stored(user.id), []);
    assert.equal((await del(passkey.id)).status, 404);
    assert.equal((await staffSignIn(t, user)).status, 200);
  });

  test("a removed passkey's assertion no longer signs in", async () => {
    const { user, token, auth, passkey } = await staffWithPasskey();
    const second = new SoftAuthenticator(ORIGIN);
    await registerPasskey(t, token, second, 'Phone');
    assert.equal((await t.req('DELETE', `${API}/admin-users/me/passkeys/${passkey.id}`, { token })).status, 204);
    assertTwofaInvalid(await staffSignIn(t, user, await passkeyAssertion(t, auth, user.username)));
    await clearFailures(user.id);
    assert.equal((await staffSignIn(t, user, await passkeyAssertion(t, second, user.username))).status, 200);
  });
});

describe('authorization', () => {
  let owner: Awaited<ReturnType<typeof staffWithPasskey>>;
  let staffAll: string;
  let staffRead: string;
  let staffOther: string;
  before(async () => {
    owner = await staffWithPasskey();
    staffAll = await tokenOf(await createStaffUser(t));
    staffRead = await tokenOf(await createStaffUser(t, { permissions: ['admin-users/read'] }));
    staffOther = await tokenOf(await createStaffUser(t, { permissions: ['orders/all'] }));
  });

  test("one's own passkeys: anonymous 401; a customer, an API user, an OAuth client 403", async () => {
    const client = await t.tokens.client();
    const calls: [string, string, unknown?][] = [
      ['POST', '/admin-users/me/passkeys/options'],
      ['POST', '/admin-users/me/passkeys', { name: 'x', response: {} }],
      ['GET', '/admin-users/me/passkeys'],
      ['DELETE', `/admin-users/me/passkeys/${owner.passkey.id}`],
    ];
    for (const [method, url, body] of calls) {
      assert.equal((await t.req(method, `${API}${url}`, { body })).status, 401, `${method} ${url}`);
      for (const token of [customer, apiAdmin, client]) {
        const r = await t.req(method, `${API}${url}`, { token, body });
        assert.equal(r.status, 403, `${method} ${url}: ${r.text}`);
      }
    }
    assert.equal((await stored(owner.user.id)).length, 1);
  });

  test("another user's passkeys: admin-users read lists, write removes; anything less is refused", async () => {
    const list = `${API}/admin-users/${owner.user.id}/passkeys`;
    const one = `${list}/${owner.passkey.id}`;
    assert.equal((await t.req('GET', list)).status, 401);
    assert.equal((await t.req('DELETE', one)).status, 401);
    for (const token of [customer, staffOther, await t.tokens.apiUser(['orders/all'])]) {
      assert.equal((await t.req('GET', list, { token })).status, 403);
      assert.equal((await t.req('DELETE', one, { token })).status, 403);
    }
    assert.equal((await t.req('DELETE', one, { token: staffRead })).status, 403);
    // a token limited to some store views reads staff accounts, which every store view shares, and changes none
    const scoped = await t.tokens.apiUser(['all'], { allowedStoreIds: [1] });
    assert.equal((await t.req('GET', list, { token: scoped })).status, 200);
    const denied = await t.req('DELETE', one, { token: scoped });
    assert.equal(denied.status, 403, denied.text);
    assert.equal(denied.body.error, 'forbidden');

    for (const token of [staffRead, apiAdmin, await t.tokens.apiUser(['admin-users/read'])]) {
      const r = await t.req('GET', list, { token });
      assert.equal(r.status, 200, r.text);
      assert.deepEqual(
        r.body.member.map((p: { id: number }) => p.id),
        [owner.passkey.id],
      );
    }
    assert.equal((await t.req('GET', `${API}/admin-users/999999/passkeys`, { token: staffAll })).status, 404);
    assert.equal((await t.req('GET', `${API}/admin-users/abc/passkeys`, { token: staffAll })).status, 400);
    // the passkey under another user's id is not found, and stays
    const { user: other } = await staffWithPasskey();
    assert.equal((await t.req('DELETE', `${API}/admin-users/${other.id}/passkeys/${owner.passkey.id}`, { token: staffAll })).status, 404);
    assert.equal((await stored(owner.user.id)).length, 1);

    const r = await t.req('DELETE', one, { token: staffAll });
    assert.equal(r.status, 204, r.text);
    assert.deepEqual(await stored(owner.user.id), []);
  });
});

describe('relying party from configuration', () => {
  test('the configured origin and rp id are what ceremonies must name', async () => {
    const settings = t.services.settings;
    await setConfig(t.database.db, settings, 'admin/security/webauthn_origin', 'https://admin.shop.test');
    await setConfig(t.database.db, settings, 'admin/security/webauthn_rp_id', 'shop.test');
    await setConfig(t.database.db, settings, 'admin/security/webauthn_rp_name', 'Shop back office');
    try {
      const user = await createStaffUser(t);
      const token = await tokenOf(user);
      const o = await t.req('POST', `${API}/admin-users/me/passkeys/options`, { token });
      assert.deepEqual(o.body.rp, { id: 'shop.test', name: 'Shop back office' });
      const oldOrigin = new SoftAuthenticator(ORIGIN);
      const refused = await t.req('POST', `${API}/admin-users/me/passkeys`, {
        token,
        body: { name: 'Old', response: oldOrigin.create(o.body) },
      });
      assert.equal(refused.status, 400, refused.text);

      const auth = new SoftAuthenticator('https://admin.shop.test');
      await registerPasskey(t, token, auth);
      assert.equal((await staffSignIn(t, user, await passkeyAssertion(t, auth, user.username))).status, 200);
      await clearFailures(user.id);
      assertTwofaInvalid(await staffSignIn(t, user, await passkeyAssertion(t, auth, user.username, { origin: ORIGIN })));
    } finally {
      for (const p of ['webauthn_origin', 'webauthn_rp_id', 'webauthn_rp_name'])
        await deleteConfig(t.database.db, settings, `admin/security/${p}`);
    }
  });
});
