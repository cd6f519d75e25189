/**
 * Credentials imported from Magento 1, OpenMage and Maho: customers, API users and OAuth clients log in with their
 * old passwords and keys, and the stored hash becomes scrypt on the first successful login only.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import crypto from 'node:crypto';
import { eq } from 'drizzle-orm';
import { API, buildTestApp, type Res, type TestApp } from '../../../test/helpers.js';
import { verifySecret } from '../../platform/auth/secrets.js';
import { customers } from '../customers/tables.js';
import { envelope } from '../../../test/fixtures/soap.js';
import { createApiUser, createOauthClient, createRole } from './service.js';
import { apiUsers, oauthClients } from './tables.js';

const SECRET = 'Légacy-P@ssw0rd 1';

/** Made by PHP 8.2 for SECRET (see src/platform/auth/legacy-hashes.test.ts). */
const VECTORS: Record<string, string> = {
  md5: '9a2024cc8033236cba457e502c2b8866',
  'md5 with a 2-character salt': '2dd94dc8e9e99bd39f3568a729020a2b:xY',
  'md5 with a 32-character salt': '679763f109f298b292271e4004045b7c:0123456789abcdefABCDEFGHIJKLMNOP',
  sha256: '889dd0985c4fe45bd1745f4adfc5144ed7ea45773354514b07738e48866a7199',
  'sha256 with a salt': '43b57080f3f636ca9414280c83c7e25a3481f521b95adf17b4488a2f485b14be:RandomSalt123',
  sha512:
    '251631b828f0fc6dfe386657cde1ef5fe4a89bd893eb34f5277cbaa90f9ce0d92b083d208d17ea2cba1e527a6558b43bc6efb8bf481fafc9ed1c57541eada25e',
  'sha512 with a salt':
    'bed9ba75f7d3091a1ded3d6dac7c97290737999fd12098cea09ad848aa6ae5c7bd99cb0f85c78c0bf606cf3d19430a511138e8143c0f5a12c699f3b5d8826061:RandomSalt123',
  'bcrypt $2y$': '$2y$10$lvaztVU8du4E70z4j7HqTexGDZ8sjvFHttXLku.nccIVSlT1R6jKq',
  'bcrypt $2a$': '$2a$05$abcdefghijklmnopqrstuu2CDMbcuMQ4LjtoI9Mgot7dmxfCNCSIi',
  'bcrypt $2b$': '$2b$05$abcdefghijklmnopqrstuu2CDMbcuMQ4LjtoI9Mgot7dmxfCNCSIi',
  argon2i: '$argon2i$v=19$m=1024,t=2,p=1$dVc0OWtxRzV3T250VHF0YQ$tosQYOwMsjJ8uthduoHCV2JvI6NSkkzpywXI9+VAVt8',
  argon2id: '$argon2id$v=19$m=1024,t=2,p=1$ajBwcjFjVE01NWJXYzN3Tw$z0AtYQWGUcRAuetb1dXekIvTK8MqWyRFsTPH/LQTB7E',
};

let t: TestApp;
before(async () => {
  t = await buildTestApp();
});
after(() => t.close());

const token = (body: unknown) => t.req('POST', `${API}/auth/token`, { body });

function assertToken(r: Res): void {
  assert.equal(r.status, 200, r.text);
  assert.equal(typeof r.body.token, 'string');
}

function assertRefused(r: Res): void {
  assert.equal(r.status, 401, r.text);
  assert.equal(r.body.token, undefined);
}

let seq = 0;
const unique = (prefix: string) => `${prefix}-${++seq}-${crypto.randomBytes(3).toString('hex')}`;

/** A customer as the importer leaves one: the old hash stored as it was. */
async function importedCustomer(stored: string, opts: { active?: boolean } = {}): Promise<{ id: number; email: string }> {
  const email = `${unique('legacy')}@example.com`;
  const r = await t.req('POST', `${API}/customers`, { body: { email, password: 'Placeholder-123', firstname: 'Lee', lastname: 'Gacy' } });
  assert.equal(r.status, 201, r.text);
  const id = r.body.id as number;
  await t.database.db
    .update(customers)
    .set({ passwordHash: stored, isActive: opts.active ?? true })
    .where(eq(customers.id, id));
  return { id, email };
}

async function customerHash(id: number): Promise<string> {
  const [c] = await t.database.db.select({ h: customers.passwordHash }).from(customers).where(eq(customers.id, id));
  return c.h;
}

async function importedApiUser(stored: string, opts: { active?: boolean } = {}): Promise<{ id: number; username: string }> {
  const username = unique('legacy-api');
  await createRole(t.database.db, username, ['customers/read']);
  const id = await createApiUser(t.database.db, { username, apiKey: 'placeholder-key', role: username });
  await t.database.db
    .update(apiUsers)
    .set({ apiKeyHash: stored, isActive: opts.active ?? true })
    .where(eq(apiUsers.id, id));
  return { id, username };
}

async function apiKeyHash(id: number): Promise<string> {
  const [u] = await t.database.db.select({ h: apiUsers.apiKeyHash }).from(apiUsers).where(eq(apiUsers.id, id));
  return u.h;
}

const apiUserGrant = (username: string, apiKey: string) => token({ grant_type: 'api_user', username, api_key: apiKey });

/** The V1 SOAP login: the session id, or undefined on a fault. */
async function soapLogin(username: string, apiKey: string): Promise<string | undefined> {
  const r = await t.req('POST', '/api/soap/', {
    raw: envelope(
      `<ns1:login><username xsi:type="xsd:string">${username}</username><apiKey xsi:type="xsd:string">${apiKey}</apiKey></ns1:login>`,
    ),
    headers: { 'content-type': 'text/xml; charset=utf-8' },
  });
  const m = /<loginReturn[^>]*>([0-9a-f]{32})<\/loginReturn>/.exec(r.text);
  if (!m) assert.match(r.text, /<faultcode>2<\/faultcode>/);
  return m?.[1];
}

describe('customers with imported password hashes', () => {
  for (const [format, stored] of Object.entries(VECTORS)) {
    test(`${format}: logs in, and the hash becomes scrypt`, async () => {
      const c = await importedCustomer(stored);
      assertRefused(await token({ email: c.email, password: 'wrong-password' }));
      assert.equal(await customerHash(c.id), stored, 'a failed login changes nothing');

      const r = await token({ email: c.email, password: SECRET });
      assertToken(r);
      assert.equal(r.body.customer.id, c.id);

      const upgraded = await customerHash(c.id);
      assert.match(upgraded, /^scrypt\$/);
      assert.ok(!upgraded.includes(SECRET));
      assertToken(await token({ email: c.email, password: SECRET }));
      assertRefused(await token({ email: c.email, password: 'wrong-password' }));
      assert.equal(await customerHash(c.id), upgraded, 'a current hash is not rewritten');
    });
  }

  test('the token from a legacy login works', async () => {
    const c = await importedCustomer(VECTORS['sha256 with a salt']);
    const r = await token({ email: c.email, password: SECRET });
    assertToken(r);
    const me = await t.req('GET', `${API}/customers/me`, { token: r.body.token });
    assert.equal(me.status, 200, me.text);
    assert.equal(me.body.id, c.id);
  });

  test('an inactive customer is refused and the hash stays as it was', async () => {
    const stored = VECTORS['md5 with a 2-character salt'];
    const c = await importedCustomer(stored, { active: false });
    assertRefused(await token({ email: c.email, password: SECRET }));
    assert.equal(await customerHash(c.id), stored);
  });

  test('damaged hashes match nothing', async () => {
    for (const stored of ['md5:', '$2y$10$short', '', VECTORS.md5.toUpperCase()]) {
      const c = await importedCustomer(stored);
      assertRefused(await token({ email: c.email, password: SECRET }));
      assertRefused(await token({ email: c.email, password: 'md5' }));
      assert.equal(await customerHash(c.id), stored);
    }
  });

  test('two logins at once both succeed and leave one valid scrypt hash', async () => {
    for (const format of ['bcrypt $2y$', 'sha256 with a salt']) {
      const c = await importedCustomer(VECTORS[format]);
      const results = await Promise.all([0, 1, 2].map(() => token({ email: c.email, password: SECRET })));
      for (const r of results) assertToken(r);
      const stored = await customerHash(c.id);
      assert.match(stored, /^scrypt\$/, format);
      assert.equal(await verifySecret(SECRET, stored), true, format);
      assertToken(await token({ email: c.email, password: SECRET }));
    }
  });
});

describe('API users with imported key hashes', () => {
  test('the REST api_user grant accepts an OpenMage key hash and upgrades it', async () => {
    const stored = VECTORS['sha256 with a salt'];
    const u = await importedApiUser(stored);
    assertRefused(await apiUserGrant(u.username, 'wrong-key'));
    assert.equal(await apiKeyHash(u.id), stored);

    const r = await apiUserGrant(u.username, SECRET);
    assertToken(r);
    assert.equal(r.body.apiUser.id, u.id);
    const upgraded = await apiKeyHash(u.id);
    assert.match(upgraded, /^scrypt\$/);

    assertToken(await apiUserGrant(u.username, SECRET));
    assertRefused(await apiUserGrant(u.username, 'wrong-key'));
    assert.equal(await apiKeyHash(u.id), upgraded);
  });

  test('SOAP login accepts a legacy key hash and upgrades it', async () => {
    for (const format of ['md5 with a 2-character salt', 'bcrypt $2y$', 'argon2id']) {
      const stored = VECTORS[format];
      const u = await importedApiUser(stored);
      assert.equal(await soapLogin(u.username, 'wrong-key'), undefined, format);
      assert.equal(await apiKeyHash(u.id), stored, format);

      assert.match((await soapLogin(u.username, SECRET)) ?? '', /^[0-9a-f]{32}$/, format);
      const upgraded = await apiKeyHash(u.id);
      assert.match(upgraded, /^scrypt\$/, format);

      assert.ok(await soapLogin(u.username, SECRET), format);
      assertToken(await apiUserGrant(u.username, SECRET));
      assert.equal(await soapLogin(u.username, 'wrong-key'), undefined, format);
    }
  });

  test('an inactive API user is refused on both paths and the hash stays as it was', async () => {
    const stored = VECTORS['sha512 with a salt'];
    const u = await importedApiUser(stored, { active: false });
    assertRefused(await apiUserGrant(u.username, SECRET));
    assert.equal(await soapLogin(u.username, SECRET), undefined);
    assert.equal(await apiKeyHash(u.id), stored);
  });

  test('two logins at once both succeed and leave one valid scrypt hash', async () => {
    const u = await importedApiUser(VECTORS['bcrypt $2a$']);
    const [rest, soap] = await Promise.all([apiUserGrant(u.username, SECRET), soapLogin(u.username, SECRET)]);
    assertToken(rest);
    assert.ok(soap);
    const stored = await apiKeyHash(u.id);
    assert.match(stored, /^scrypt\$/);
    assert.equal(await verifySecret(SECRET, stored), true);
  });
});

describe('OAuth clients with imported secret hashes', () => {
  test('client_credentials accepts a legacy secret hash and upgrades it', async () => {
    const clientId = unique('legacy-client');
    await createRole(t.database.db, clientId, ['customers/read']);
    const id = await createOauthClient(t.database.db, { clientId, secret: 'placeholder-secret', role: clientId });
    const stored = VECTORS['sha256'];
    await t.database.db.update(oauthClients).set({ secretHash: stored }).where(eq(oauthClients.id, id));
    const hash = async () =>
      (await t.database.db.select({ h: oauthClients.secretHash }).from(oauthClients).where(eq(oauthClients.id, id)))[0].h;

    const grant = (secret: string) => token({ grant_type: 'client_credentials', client_id: clientId, client_secret: secret });
    assertRefused(await grant('wrong-secret'));
    assert.equal(await hash(), stored);
    assertToken(await grant(SECRET));
    const upgraded = await hash();
    assert.match(upgraded, /^scrypt\$/);
    assertToken(await grant(SECRET));
    assertRefused(await grant('wrong-secret'));
  });
});
