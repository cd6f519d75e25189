/**
 * Sign-in with an OpenID Connect ID token. The provider's keys are served by a local HTTP server (never the
 * internet); the `oidc` provider is configured to fetch them from 127.0.0.1, which the configuration must allow
 * (customer/social_login/allow_private_jwks_urls).
 */
import { after, before, beforeEach, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { and, eq, sql } from 'drizzle-orm';
import { SignJWT, exportJWK, generateKeyPair, type CryptoKey, type JWTPayload } from 'jose';
import { API, buildTestApp, type Res, type TestApp } from '../../../test/helpers.js';
import { customerSocialLogins, customers } from '../customers/tables.js';
import { deleteConfig, setConfig } from '../stores/service.js';

let t: TestApp;
let server: http.Server;
let jwksUrl: string;
let keyFetches = 0;
let key: CryptoKey;
let otherKey: CryptoKey;
const KID = 'test-key-1';
const ISSUER = 'https://idp.example.test';
const CLIENT = 'shop-client-id';
const TENANT = '9188040d-6c67-4c5b-b112-36a304b66dad';

async function config(path: string, value: string | undefined, app: TestApp = t) {
  if (value === undefined) await deleteConfig(app.database.db, app.services.settings, path);
  else await setConfig(app.database.db, app.services.settings, path, value);
}

const PROVIDER_CONFIG = () => ({
  'customer/social_login/oidc_enabled': '1',
  'customer/social_login/oidc_client_id': CLIENT,
  'customer/social_login/oidc_issuer': ISSUER,
  'customer/social_login/oidc_jwks_url': jwksUrl,
  'customer/social_login/microsoft_enabled': '1',
  'customer/social_login/microsoft_client_id': CLIENT,
  'customer/social_login/microsoft_jwks_url': jwksUrl,
  'customer/social_login/allow_private_jwks_urls': '1',
});

before(async () => {
  const pair = await generateKeyPair('RS256');
  key = pair.privateKey;
  otherKey = (await generateKeyPair('RS256')).privateKey;
  const jwk = { ...(await exportJWK(pair.publicKey)), kid: KID, alg: 'RS256', use: 'sig' };
  server = http.createServer((req, res) => {
    keyFetches++;
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ keys: [jwk] }));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  jwksUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/jwks`;
  t = await buildTestApp();
  for (const [path, value] of Object.entries(PROVIDER_CONFIG())) await config(path, value);
});
after(async () => {
  await t.close();
  await new Promise((resolve) => server.close(resolve));
});

/** Generous login limits for every test but the one about them. */
beforeEach(async () => {
  await config('api/rate_limit/auth_token_ip', '1000');
  await config('api/rate_limit/customer_login', '1000');
});

let seq = 0;
function idToken(claims: JWTPayload = {}, opts: { signWith?: CryptoKey; kid?: string; expiresIn?: string | number } = {}) {
  const n = ++seq;
  return new SignJWT({
    email: `social-${n}-${process.pid}@example.com`,
    email_verified: true,
    given_name: 'Sam',
    family_name: 'Social',
    ...claims,
  })
    .setProtectedHeader({ alg: 'RS256', kid: opts.kid ?? KID })
    .setIssuer(ISSUER)
    .setAudience(CLIENT)
    .setSubject(typeof claims.sub === 'string' ? claims.sub : `subject-${n}-${process.pid}`)
    .setIssuedAt()
    .setExpirationTime(opts.expiresIn ?? '10m')
    .sign(opts.signWith ?? key);
}

const signIn = (body: unknown) => t.req('POST', `${API}/customers/social-auth`, { body });

async function counts() {
  const [c] = await t.database.db.select({ n: sql<number>`count(*)::int` }).from(customers);
  const [l] = await t.database.db.select({ n: sql<number>`count(*)::int` }).from(customerSocialLogins);
  return { customers: c.n, links: l.n };
}

/** What each refusal says (the reason codes are the service's; the wire carries the message). */
const MESSAGES: Record<string, RegExp> = {
  EMAIL_NOT_VERIFIED: /not verified an email/,
  ID_TOKEN_BAD_SIGNATURE: /signature is not valid/,
  ID_TOKEN_UNKNOWN_KEY: /key the provider does not publish/,
  ID_TOKEN_WRONG_ISSUER: /not issued by the configured issuer/,
  ID_TOKEN_WRONG_AUDIENCE: /audience/,
  ID_TOKEN_EXPIRED: /expired/,
  ID_TOKEN_NONCE_MISMATCH: /nonce/,
  ID_TOKEN_MALFORMED: /malformed/,
  ID_TOKEN_INVALID_CLAIM: /claim is not valid|no subject/,
  PROVIDER_NOT_AVAILABLE: /sign-in method is not available/,
  PROVIDER_NOT_CONFIGURED: /sign-in method is not available/,
  ACCOUNT_INACTIVE: /not active/,
  REGISTRATION_NOT_ALLOWED: /not allowed/,
  PROVIDER_UNAVAILABLE: /temporarily unavailable/,
};

function assertError(r: Res, status: number, reason?: string) {
  assert.equal(r.status, status, r.text);
  assert.equal(typeof r.body.message, 'string');
  if (reason) assert.match(r.body.message, MESSAGES[reason], `${reason}: ${r.text}`);
}

describe('POST /customers/social-auth', () => {
  test('a new identity with a verified email creates an active customer, linked, and answers a customer token', async () => {
    const before = await counts();
    const token = await idToken({ email: `New.Person-${process.pid}@Example.com` });
    const r = await signIn({ provider: 'oidc', providerToken: token });
    assert.equal(r.status, 200, r.text);
    assert.equal(r.body.provider, 'oidc');
    assert.equal(r.body.isNewCustomer, true);
    assert.equal(r.body.tokenType, 'Bearer');
    assert.equal(r.body.token_type, 'Bearer');
    assert.equal(typeof r.body.expiresIn, 'number');
    assert.deepEqual(
      { ...r.body.customer, id: undefined },
      { id: undefined, email: `new.person-${process.pid}@example.com`, firstName: 'Sam', lastName: 'Social' },
    );
    const me = await t.req('GET', `${API}/customers/me`, { token: r.body.token });
    assert.equal(me.status, 200, me.text);
    assert.equal(me.body.id, r.body.customer.id);
    const after = await counts();
    assert.deepEqual(after, { customers: before.customers + 1, links: before.links + 1 });

    // the same identity signs in as the same customer, even with another address
    const again = await signIn({ provider: 'oidc', idToken: await idToken({ sub: subjectOf(token), email: 'changed@example.com' }) });
    assert.equal(again.status, 200, again.text);
    assert.equal(again.body.isNewCustomer, false);
    assert.equal(again.body.customer.id, r.body.customer.id);
    assert.deepEqual(await counts(), after);
  });

  test('a verified email of an existing customer links the identity to that customer', async () => {
    const [demo] = await t.database.db.select().from(customers).where(eq(customers.email, 'customer@example.com'));
    const token = await idToken({ email: 'Customer@Example.com' });
    const r = await signIn({ provider: 'oidc', providerToken: token });
    assert.equal(r.status, 200, r.text);
    assert.equal(r.body.isNewCustomer, false);
    assert.equal(r.body.customer.id, demo.id);
    const links = await t.database.db
      .select()
      .from(customerSocialLogins)
      .where(and(eq(customerSocialLogins.customerId, demo.id), eq(customerSocialLogins.subject, subjectOf(token))));
    assert.equal(links.length, 1);
    assert.equal(links[0].provider, 'oidc');
  });

  test('an unverified email neither links nor creates; a linked identity still signs in', async () => {
    const before = await counts();
    for (const claims of [
      { email_verified: false },
      { email_verified: 'false' },
      { email_verified: undefined },
      { email: 'customer@example.com', email_verified: false },
      { email: undefined },
    ]) {
      assertError(await signIn({ provider: 'oidc', providerToken: await idToken(claims) }), 401, 'EMAIL_NOT_VERIFIED');
    }
    assert.deepEqual(await counts(), before);
    const first = await idToken();
    const created = await signIn({ provider: 'oidc', providerToken: first });
    assert.equal(created.status, 200, created.text);
    const later = await signIn({ provider: 'oidc', providerToken: await idToken({ sub: subjectOf(first), email_verified: false }) });
    assert.equal(later.status, 200, later.text);
    assert.equal(later.body.customer.id, created.body.customer.id);
  });

  test('tokens that fail verification are a 401 naming why, and create nothing', async () => {
    const before = await counts();
    const wrong = async (claims: JWTPayload, build?: (b: SignJWT) => SignJWT) => {
      let b = new SignJWT({ email: 'wrong@example.com', email_verified: true, ...claims })
        .setProtectedHeader({ alg: 'RS256', kid: KID })
        .setSubject('wrong-subject')
        .setIssuedAt()
        .setExpirationTime('10m');
      b = build ? build(b) : b.setIssuer(ISSUER).setAudience(CLIENT);
      return b.sign(key);
    };
    const cases: [string, string, string?][] = [
      [await idToken({}, { signWith: otherKey }), 'ID_TOKEN_BAD_SIGNATURE'],
      [await idToken({}, { kid: 'unknown-kid', signWith: otherKey }), 'ID_TOKEN_UNKNOWN_KEY'],
      [await wrong({}, (b) => b.setIssuer('https://evil.example').setAudience(CLIENT)), 'ID_TOKEN_WRONG_ISSUER'],
      [await wrong({}, (b) => b.setIssuer(ISSUER).setAudience('another-client')), 'ID_TOKEN_WRONG_AUDIENCE'],
      [await idToken({}, { expiresIn: Math.floor(Date.now() / 1000) - 3600 }), 'ID_TOKEN_EXPIRED'],
      [await idToken({ nonce: 'n-1' }), 'ID_TOKEN_NONCE_MISMATCH', 'n-2'],
      [await idToken({}), 'ID_TOKEN_NONCE_MISMATCH', 'n-3'],
      ['not.a.jwt', 'ID_TOKEN_MALFORMED'],
      ['garbage', 'ID_TOKEN_MALFORMED'],
    ];
    for (const [token, reason, nonce] of cases) {
      const r = await signIn({ provider: 'oidc', providerToken: token, ...(nonce ? { nonce } : {}) });
      assertError(r, 401, reason);
      assert.equal(r.body.error, 'invalid_grant', r.text);
      assert.equal(r.body.token, undefined);
    }
    // a token without expiry is refused too
    const noExp = await new SignJWT({ email: 'x@example.com', email_verified: true })
      .setProtectedHeader({ alg: 'RS256', kid: KID })
      .setIssuer(ISSUER)
      .setAudience(CLIENT)
      .setSubject('no-exp')
      .sign(key);
    assertError(await signIn({ provider: 'oidc', providerToken: noExp }), 401, 'ID_TOKEN_INVALID_CLAIM');
    assert.deepEqual(await counts(), before);
    // the matching nonce passes
    const ok = await signIn({ provider: 'oidc', providerToken: await idToken({ nonce: 'n-4' }), nonce: 'n-4' });
    assert.equal(ok.status, 200, ok.text);
  });

  test('unknown, disabled or unconfigured providers and bad bodies are a 400', async () => {
    const token = await idToken();
    const before = await counts();
    assertError(await signIn({ provider: 'facebook', providerToken: token }), 400, 'PROVIDER_NOT_AVAILABLE');
    assertError(await signIn({ provider: 'google', providerToken: token }), 400, 'PROVIDER_NOT_AVAILABLE');
    await config('customer/social_login/apple_enabled', '1');
    assertError(await signIn({ provider: 'apple', providerToken: token }), 400, 'PROVIDER_NOT_CONFIGURED');
    await config('customer/social_login/apple_enabled', undefined);
    await config('customer/social_login/oidc_enabled', '0');
    assertError(await signIn({ provider: 'oidc', providerToken: token }), 400, 'PROVIDER_NOT_AVAILABLE');
    await config('customer/social_login/oidc_enabled', '1');
    for (const body of [
      {},
      { provider: 'oidc' },
      { provider: 'oidc', providerToken: '' },
      { provider: 5, providerToken: token },
      { provider: 'oidc', providerToken: 7 },
      { provider: '', providerToken: token },
    ]) {
      assertError(await signIn(body), 400);
    }
    const raw = await t.req('POST', `${API}/customers/social-auth`, {
      raw: '{"provider":',
      headers: { 'content-type': 'application/json' },
    });
    assertError(raw, 400);
    assert.deepEqual(await counts(), before);
  });

  test('a disabled account and a shop that allows no registration are refused', async () => {
    const first = await idToken();
    const created = await signIn({ provider: 'oidc', providerToken: first });
    assert.equal(created.status, 200, created.text);
    await t.database.db.update(customers).set({ isActive: false }).where(eq(customers.id, created.body.customer.id));
    assertError(await signIn({ provider: 'oidc', providerToken: await idToken({ sub: subjectOf(first) }) }), 401, 'ACCOUNT_INACTIVE');

    await config('customer/social_login/allow_registration', '0');
    try {
      const before = await counts();
      assertError(await signIn({ provider: 'oidc', providerToken: await idToken() }), 400, 'REGISTRATION_NOT_ALLOWED');
      assert.deepEqual(await counts(), before);
      // an existing customer still signs in
      const existing = await signIn({ provider: 'oidc', providerToken: await idToken({ email: 'customer@example.com' }) });
      assert.equal(existing.status, 200, existing.text);
    } finally {
      await config('customer/social_login/allow_registration', undefined);
    }
  });

  test("Microsoft: the issuer is the token's own tenant", async () => {
    const ms = (iss: string, tid: string) =>
      new SignJWT({ email: `ms-${++seq}@example.com`, email_verified: true, tid })
        .setProtectedHeader({ alg: 'RS256', kid: KID })
        .setIssuer(iss)
        .setAudience(CLIENT)
        .setSubject(`ms-subject-${seq}`)
        .setIssuedAt()
        .setExpirationTime('5m')
        .sign(key);
    const r = await signIn({ provider: 'microsoft', providerToken: await ms(`https://login.microsoftonline.com/${TENANT}/v2.0`, TENANT) });
    assert.equal(r.status, 200, r.text);
    const other = '00000000-0000-0000-0000-000000000000';
    assertError(
      await signIn({ provider: 'microsoft', providerToken: await ms(`https://login.microsoftonline.com/${TENANT}/v2.0`, other) }),
      401,
      'ID_TOKEN_WRONG_ISSUER',
    );
  });

  test('keys are fetched once and cached; a JWKS URL on a private address is refused unless allowed (503)', async () => {
    assert.equal((await signIn({ provider: 'oidc', providerToken: await idToken() })).status, 200);
    const fetched = keyFetches;
    for (let i = 0; i < 3; i++) assert.equal((await signIn({ provider: 'oidc', providerToken: await idToken() })).status, 200);
    assert.equal(keyFetches, fetched, 'no fetch while the keys are cached');
    await config('customer/social_login/allow_private_jwks_urls', '0');
    try {
      const before = await counts();
      const r = await signIn({ provider: 'oidc', providerToken: await idToken() });
      assertError(r, 503, 'PROVIDER_UNAVAILABLE');
      assert.deepEqual(await counts(), before);
      assert.equal(keyFetches, fetched, '127.0.0.1 was not contacted');
    } finally {
      await config('customer/social_login/allow_private_jwks_urls', '1');
    }
  });

  test('failed attempts are rate limited per IP like the other logins (429)', async () => {
    const limited = await buildTestApp({ env: { RATE_LIMITS: '1' } });
    try {
      for (const [path, value] of Object.entries(PROVIDER_CONFIG())) await config(path, value, limited);
      await config('api/rate_limit/auth_token_ip', '3', limited);
      const send = async (token: string, ip: string) => {
        const r = await limited.app.inject({
          method: 'POST',
          url: `${API}/customers/social-auth`,
          remoteAddress: ip,
          headers: { 'content-type': 'application/json' },
          payload: JSON.stringify({ provider: 'oidc', providerToken: token }),
        });
        return r.statusCode;
      };
      const bad = await idToken({}, { signWith: otherKey });
      for (let i = 0; i < 3; i++) assert.equal(await send(bad, '127.0.2.1'), 401);
      assert.equal(await send(bad, '127.0.2.1'), 429);
      assert.equal(await send(await idToken(), '127.0.2.1'), 429, 'right credentials too, once the limit is reached');
      assert.equal(await send(await idToken(), '127.0.2.2'), 200, 'another address is not limited');
    } finally {
      await limited.close();
    }
  });

  test('GraphQL: socialAuth', async () => {
    const token = await idToken();
    const r = await t.gql(
      `mutation($t: String!) { socialAuth(input: {provider: "oidc", providerToken: $t}) { socialAuth { token isNewCustomer } } }`,
      undefined,
      { t: token },
    );
    assert.equal(r.errors, undefined, JSON.stringify(r.errors));
    assert.equal(r.data.socialAuth.socialAuth.isNewCustomer, true);
    assert.equal(typeof r.data.socialAuth.socialAuth.token, 'string');
  });
});

function subjectOf(token: string): string {
  return JSON.parse(Buffer.from(token.split('.')[1], 'base64url').toString()).sub;
}
