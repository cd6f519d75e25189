/**
 * A credential change ends what the old credential opened: customer tokens after a password change or reset, API
 * user tokens and SOAP sessions after a new API key, OAuth client tokens after a new secret. A token taken after
 * the change, even in the same second, works. A refreshed session keeps its login time and ends when it is older
 * than the absolute lifetime (TOKEN_SESSION_MAX_AGE).
 */
import assert from 'node:assert/strict';
import crypto from 'node:crypto';
import { after, before, describe, test } from 'node:test';
import { desc, eq } from 'drizzle-orm';
import { decodeJwt } from 'jose';
import { ConfigError, loadConfig } from '../../platform/config.js';
import { mailOutbox } from '../../platform/tables.js';
import { envelope, login as soapLogin, post, startSoapApp } from '../../../test/fixtures/soap.js';
import { API, type Res, type TestApp } from '../../../test/helpers.js';
import { createApiUser, createOauthClient, setApiUserKey, setOauthClientSecret } from './service.js';

let t: TestApp;
let base: string;
before(async () => {
  ({ t, base } = await startSoapApp());
});
after(() => t.close());

/**
 * Waits for the next whole second. A token's issue time is in whole seconds, and a change refuses the tokens
 * issued in seconds before its own: one taken in the same second as the change stays valid.
 */
async function nextSecond(): Promise<void> {
  const s = Math.floor(Date.now() / 1000);
  while (Math.floor(Date.now() / 1000) === s) await new Promise((r) => setTimeout(r, 25));
}

function assertRefused(r: Res): void {
  assert.equal(r.status, 401, r.text);
  assert.equal(r.body.error, 'authentication_error', r.text);
}

const me = (token: string) => t.req('GET', `${API}/customers/me`, { token });
const storeConfig = (token: string) => t.req('GET', `${API}/store-config`, { token });
const refresh = (token: string) => t.req('POST', `${API}/auth/refresh`, { token, body: {} });
const token = (body: Record<string, string>) => t.req('POST', `${API}/auth/token`, { body });

let seq = 0;
async function newCustomer(): Promise<{ email: string; token: string }> {
  const email = `cred${++seq}-${crypto.randomBytes(3).toString('hex')}@example.com`;
  const r = await t.req('POST', `${API}/customers`, { body: { email, password: 'Original1', firstname: 'Cre', lastname: 'Dential' } });
  assert.equal(r.status, 201, r.text);
  return { email, token: await t.tokens.customer(email, 'Original1') };
}

describe('customer password', () => {
  test('a token taken before a password change is refused after it; one taken after works', async () => {
    const c = await newCustomer();
    const other = await t.tokens.customer(c.email, 'Original1');
    await nextSecond();
    const r = await t.req('POST', `${API}/customers/me/password`, {
      token: c.token,
      body: { currentPassword: 'Original1', newPassword: 'Changed22' },
    });
    assert.equal(r.status, 201, r.text);
    // taken at once, most likely in the very second of the change
    const fresh = await t.tokens.customer(c.email, 'Changed22');
    assert.equal((await me(fresh)).status, 200);
    assertRefused(await me(c.token));
    assertRefused(await me(other));
    assertRefused(await refresh(other));
    assert.equal((await refresh(fresh)).status, 200);
  });

  test('a token taken before a password reset is refused after it', async () => {
    const c = await newCustomer();
    await nextSecond();
    assert.equal((await t.req('POST', `${API}/customers/forgot-password`, { body: { email: c.email } })).status, 201);
    const [mail] = await t.database.db.select().from(mailOutbox).where(eq(mailOutbox.toAddress, c.email)).orderBy(desc(mailOutbox.id));
    const resetToken = /[?&]token=([a-f0-9]{64})/.exec(mail.textBody)?.[1];
    assert.ok(resetToken, mail.textBody);
    const r = await t.req('POST', `${API}/customers/reset-password`, { body: { email: c.email, resetToken, newPassword: 'ResetPass3' } });
    assert.equal(r.status, 201, r.text);
    assertRefused(await me(c.token));
    assert.equal((await me(await t.tokens.customer(c.email, 'ResetPass3'))).status, 200);
  });

  test('a failed change (wrong current password) leaves the tokens alone', async () => {
    const c = await newCustomer();
    await nextSecond();
    const r = await t.req('POST', `${API}/customers/me/password`, {
      token: c.token,
      body: { currentPassword: 'wrong-one', newPassword: 'Changed22' },
    });
    assert.equal(r.status, 400, r.text);
    assert.equal((await me(c.token)).status, 200);
  });
});

describe('API user key', () => {
  test('tokens and SOAP sessions opened with the old key end; the new key opens new ones', async () => {
    const username = `cred-user-${crypto.randomBytes(3).toString('hex')}`;
    await createApiUser(t.database.db, { username, apiKey: 'first-key-1', role: 'Administrators' });
    const old = (await token({ grant_type: 'api_user', username, api_key: 'first-key-1' })).body.token as string;
    const session = await soapLogin(base, username, 'first-key-1');
    const call = (s: string) =>
      post(
        base,
        '/api/soap/',
        envelope(
          `<ns1:call><sessionId xsi:type="xsd:string">${s}</sessionId><resourcePath xsi:type="xsd:string">customer_address.list</resourcePath><args xsi:type="xsd:int">1</args></ns1:call>`,
        ),
      );
    assert.equal((await call(session)).fault, undefined);
    await nextSecond();

    await setApiUserKey(t.database.db, username, 'second-key-2');
    assertRefused(await storeConfig(old));
    assertRefused(await refresh(old));
    assert.equal((await call(session)).fault?.[0], '5', 'the SOAP session has ended');

    const fresh = (await token({ grant_type: 'api_user', username, api_key: 'second-key-2' })).body.token as string;
    assert.equal((await storeConfig(fresh)).status, 200);
    assert.equal((await call(await soapLogin(base, username, 'second-key-2'))).fault, undefined);
  });

  test("another API user's tokens and sessions are not affected", async () => {
    const admin = await t.tokens.admin();
    const session = await soapLogin(base);
    await nextSecond();
    const bystander = `bystander-${crypto.randomBytes(3).toString('hex')}`;
    await createApiUser(t.database.db, { username: bystander, apiKey: 'some-key-1', role: 'Administrators' });
    await setApiUserKey(t.database.db, bystander, 'other-key-2');
    await setApiUserKey(t.database.db, bystander, 'third-key-3');
    assert.equal((await token({ grant_type: 'api_user', username: bystander, api_key: 'third-key-3' })).status, 200);
    assert.equal((await storeConfig(admin)).status, 200);
    const r = await post(
      base,
      '/api/soap/',
      envelope(
        `<ns1:call><sessionId xsi:type="xsd:string">${session}</sessionId><resourcePath xsi:type="xsd:string">customer_address.list</resourcePath><args xsi:type="xsd:int">1</args></ns1:call>`,
      ),
    );
    assert.equal(r.fault, undefined, r.text);
  });
});

describe('OAuth client secret', () => {
  test('tokens taken with the old secret end; the old secret is refused, the new one works', async () => {
    const clientId = `cred-client-${crypto.randomBytes(3).toString('hex')}`;
    await createOauthClient(t.database.db, { clientId, secret: 'first-secret-1', role: 'Administrators' });
    const creds = (secret: string) => ({ grant_type: 'client_credentials', client_id: clientId, client_secret: secret });
    const old = (await token(creds('first-secret-1'))).body.token as string;
    await nextSecond();
    await setOauthClientSecret(t.database.db, clientId, 'second-secret-2');
    assertRefused(await storeConfig(old));
    assert.equal((await token(creds('first-secret-1'))).status, 401);
    const fresh = await token(creds('second-secret-2'));
    assert.equal(fresh.status, 200, fresh.text);
    assert.equal((await storeConfig(fresh.body.token)).status, 200);
  });

  test('an unknown client or a short secret is refused', async () => {
    await assert.rejects(setOauthClientSecret(t.database.db, 'no-such-client', 'long-enough-secret'), /not found/);
    await assert.rejects(setOauthClientSecret(t.database.db, 'demo-client', 'short'), /at least 12/);
  });
});

describe('absolute session lifetime', () => {
  const DAY = 86_400;
  /** A customer token whose session began `age` seconds ago (as if refreshed ever since). */
  const aged = async (age: number) => {
    const now = Math.floor(Date.now() / 1000);
    const claims = {
      sub: 'customer_1',
      type: 'customer' as const,
      customer_id: 1,
      email: 'customer@example.com',
      roles: ['ROLE_CUSTOMER'],
      auth_time: now - age,
    };
    return (await t.services.tokens.issue(claims)).token;
  };

  test('refreshes keep the login time', async () => {
    const first = await t.tokens.customer();
    const loginTime = decodeJwt(first).auth_time;
    assert.equal(loginTime, decodeJwt(first).iat);
    const second = (await refresh(first)).body.token as string;
    const third = (await refresh(second)).body.token as string;
    assert.equal(decodeJwt(second).auth_time, loginTime);
    assert.equal(decodeJwt(third).auth_time, loginTime);

    const admin = (await refresh(await t.tokens.admin())).body.token as string;
    assert.equal(typeof decodeJwt(admin).auth_time, 'number');
  });

  test('a refresh past the lifetime (30 days by default) is refused; the token itself still works until it expires', async () => {
    const old = await aged(30 * DAY + 10);
    assertRefused(await refresh(old));
    assert.equal((await me(old)).status, 200);
  });

  test('a refresh near the end of the lifetime gets a token that expires with the session', async () => {
    const r = await refresh(await aged(30 * DAY - 100));
    assert.equal(r.status, 200, r.text);
    assert.ok(r.body.expiresIn <= 100 && r.body.expiresIn > 80, String(r.body.expiresIn));
    const c = decodeJwt(r.body.token);
    assert.equal(c.exp! - c.iat!, r.body.expiresIn);
  });

  test('TOKEN_SESSION_MAX_AGE sets the lifetime, in seconds', () => {
    assert.equal(loadConfig({ NODE_ENV: 'test' }).tokenSessionMaxAgeSeconds, 30 * DAY);
    assert.equal(loadConfig({ NODE_ENV: 'test', TOKEN_SESSION_MAX_AGE: '3600' }).tokenSessionMaxAgeSeconds, 3600);
    assert.throws(() => loadConfig({ NODE_ENV: 'test', TOKEN_SESSION_MAX_AGE: 'soon' }), ConfigError);
    assert.throws(() => loadConfig({ NODE_ENV: 'test', TOKEN_SESSION_MAX_AGE: '10' }), ConfigError);
  });
});
