/**
 * `import magento` of the back-office staff: roles with their ACL as our permissions, users with their data and
 * their password hashes as the source keeps them, then signing in through `POST /auth/token` (`admin_user`) with
 * the old password (re-hashed with scrypt there), the TOTP secret opened with `--crypt-key`, the passkey; users
 * whose secret cannot be read keep 2FA required; a wrong key is refused before anything is written; ours are never
 * overwritten; a second run changes nothing. Needs MariaDB on 127.0.0.1:3306 (skipped locally without it, failed
 * under CI).
 */
import assert from 'node:assert/strict';
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { eq, sql } from 'drizzle-orm';
import { Secret, TOTP } from 'otpauth';
import { API, buildTestApp, type TestApp } from '../../test/helpers.js';
import { createSourceDatabase, type SourceDatabase, mariadbAvailable } from '../../test/fixtures/importer/database.js';
import { generateShop, type GeneratedShop } from '../../test/fixtures/importer/generate.js';
import { mahoEncrypt, STAFF_CRYPT_KEY, type StaffUserSample } from '../../test/fixtures/importer/staff.js';
import { openTotpSecret } from '../platform/auth/totp.js';
import { rows } from '../platform/db.js';
import { adminPasskeys, adminRoles, adminUsers } from '../modules/auth/tables.js';
import { staffPermissionsOf } from './entities/staff-acl.js';
import { coseKeyOfPem, mahoTotpSecret, openMahoEncrypted, parseCryptKey } from './entities/staff-credentials.js';
import { ImportRefused } from './refused.js';
import type { Report } from './report.js';
import { importMagento } from './run.js';
import { runCli } from '../../test/fixtures/cli.js';

const available = await mariadbAvailable();
const SIZES = { products: 6, customers: 2, orders: 2 };

function stats(report: Report, entity: string) {
  const e = report.entities.find((x) => x.entity === entity);
  assert.ok(e, `no report line for ${entity}`);
  return e;
}

const notesOf = (report: Report, entity: string, sourceId: number | string) =>
  report.notes.filter((n) => n.entity === entity && n.sourceId === String(sourceId)).map((n) => n.message);

const totpCode = (base32: string, at = Date.now()) =>
  new TOTP({ algorithm: 'SHA1', digits: 6, period: 30, secret: Secret.fromBase32(base32) }).generate({ timestamp: at });

/** The target as a production install leaves it: no staff (the test database's demo staff go). */
async function withoutStaff(t: TestApp) {
  await t.database.db.execute(sql`DELETE FROM admin_users`);
  await t.database.db.execute(sql`DELETE FROM admin_roles`);
}

const signIn = (t: TestApp, body: Record<string, unknown>) =>
  t.req('POST', `${API}/auth/token`, { body: { grant_type: 'admin_user', ...body } });

/** `navigator.credentials.get()` as JSON, signed with the passkey's private key (user present and verified). */
function assertion(user: StaffUserSample, options: { challenge: string; rpId: string }, origin: string, counter = 1) {
  const b64 = (b: Buffer) => b.toString('base64url');
  const sha256 = (b: Buffer | string) => crypto.createHash('sha256').update(b).digest();
  const clientDataJSON = Buffer.from(JSON.stringify({ type: 'webauthn.get', challenge: options.challenge, origin, crossOrigin: false }));
  const count = Buffer.alloc(4);
  count.writeUInt32BE(counter);
  const authenticatorData = Buffer.concat([sha256(options.rpId), Buffer.from([0x05]), count]);
  const key = crypto.createPrivateKey({ key: user.passkey!.privateKey, format: 'jwk' });
  const signature = crypto.sign('sha256', Buffer.concat([authenticatorData, sha256(clientDataJSON)]), key);
  const id = user.passkey!.credentialId;
  return {
    id,
    rawId: id,
    type: 'public-key',
    response: { clientDataJSON: b64(clientDataJSON), authenticatorData: b64(authenticatorData), signature: b64(signature) },
    clientExtensionResults: {},
  };
}

describe('Maho encryption and the crypt key', () => {
  test('a value PHP sodium encrypted opens; a wrong key, a damaged value, something else do not', () => {
    // sodium_crypto_secretbox('JBSWY3DPEHPK3PXP', str_repeat("\x01", 24), sodium_hex2bin(str_repeat('ab', 32))), as Maho stores it
    const php = 'AQEBAQEBAQEBAQEBAQEBAQEBAQEBAQEB+eOMgHx+MIiiC+bVfyGT7lfqe3Zmy5nTVfw+QZwOzcE=';
    const key = parseCryptKey('ab'.repeat(32));
    assert.equal(mahoTotpSecret(key, php), 'JBSWY3DPEHPK3PXP');
    assert.equal(mahoEncrypt('ab'.repeat(32), 'JBSWY3DPEHPK3PXP', 'x').length > 0, true);
    assert.equal(openMahoEncrypted(parseCryptKey('cd'.repeat(32)), php), undefined);
    assert.equal(openMahoEncrypted(key, php.replace('+eOM', '+eON')), undefined);
    for (const bad of ['', 'not base64!', 'AAAA', '0:1:2', 'a2V5']) assert.equal(openMahoEncrypted(key, bad), undefined, bad);
    // what opens but is no base32 secret is refused too
    assert.equal(mahoTotpSecret(key, mahoEncrypt('ab'.repeat(32), 'not a secret!', 'y')), undefined);
  });

  test('--crypt-key must be 64 hexadecimal characters', () => {
    for (const bad of ['', 'abc', 'z'.repeat(64), 'ab'.repeat(31), 'ab'.repeat(33), '0123456789abcdef0123456789abcdef']) {
      assert.throws(() => parseCryptKey(bad), ImportRefused, bad);
    }
    assert.equal(parseCryptKey(` ${'AB'.repeat(32)} `).length, 32);
  });
});

test('`import magento --crypt-key` with a malformed key exits 1 with one line, before reading the source', async () => {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'commerce-import-'));
  try {
    const r = await runCli(['import', 'magento', '--source', 'mysql://root@127.0.0.1:1/nothing', '--crypt-key', 'abc'], {
      dataDir,
      timeoutMs: 180_000,
    });
    assert.equal(r.code, 1, r.stderr);
    assert.match(r.stderr, /--crypt-key is the 64 hexadecimal characters/);
    assert.doesNotMatch(r.stderr, /\n\s+at /, 'no stack trace');
  } finally {
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
});

describe("a Magento role's ACL as our permissions", () => {
  const allow = (...r: string[]) => r.map((resource) => ({ resource, allow: true }));
  const deny = (...r: string[]) => r.map((resource) => ({ resource, allow: false }));

  test('`all` is everything; no rule is nothing', () => {
    assert.deepEqual(staffPermissionsOf(allow('all')).permissions, ['all']);
    assert.deepEqual(staffPermissionsOf([]).permissions, []);
    assert.deepEqual(staffPermissionsOf(deny('all', 'admin')).permissions, []);
  });

  test("a resource without a rule takes its nearest ancestor's", () => {
    // everything under admin is allowed but catalog
    const p = staffPermissionsOf([...allow('admin'), ...deny('all', 'admin/catalog')]).permissions;
    assert.ok(p.includes('orders/all') || (p.includes('orders/read') && p.includes('orders/write')));
    assert.ok(p.includes('configuration/all'));
    assert.ok(p.includes('admin-users/all'));
    assert.ok(!p.some((x) => x.startsWith('products/') || x.startsWith('categories/')));
    // a denied child of an allowed parent stays denied
    const q = staffPermissionsOf([...allow('admin', 'admin/cms', 'admin/cms/page'), ...deny('admin/cms/page/delete', 'admin/cms/block')]);
    assert.deepEqual(
      q.permissions.filter((x) => x.startsWith('cms-')),
      ['cms-pages/read', 'cms-pages/write'],
    );
  });

  test('read, write and delete make all; write covers create', () => {
    const full = staffPermissionsOf(allow('admin/cms/page', 'admin/cms/page/save', 'admin/cms/page/delete')).permissions;
    assert.deepEqual(full, ['cms-pages/all']);
    const orders = staffPermissionsOf([
      ...allow('admin/sales/order', 'admin/sales/order/actions/create', 'admin/sales/order/actions/edit'),
      ...deny('admin/sales/order/actions'),
    ]).permissions;
    assert.deepEqual(orders, ['carts/all', 'orders/read', 'orders/write']);
  });

  test('configuration sections: all of them give configuration, part of them nothing; the rest is reported', () => {
    const all = staffPermissionsOf(allow('admin/system/config', 'admin/system/config/general', 'admin/system/config/web'));
    assert.deepEqual(all.permissions, ['configuration/all']);
    const part = staffPermissionsOf([
      ...allow('admin/system/config', 'admin/system/config/general'),
      ...deny('admin/system/config/payment'),
    ]);
    assert.deepEqual(part.permissions, []);
    assert.deepEqual(part.configSections, { allowed: 1, of: 2 });
    const other = staffPermissionsOf(allow('admin/dashboard', 'admin/system/cache', 'admin/system/index', 'admin/catalog/urlrewrite'));
    assert.deepEqual(other.unmapped, ['catalog/urlrewrite', 'system/cache', 'system/index']);
  });

  test('a passkey public key as Maho keeps it (PEM) becomes a COSE key; anything else does not', () => {
    const { publicKey } = crypto.generateKeyPairSync('ec', { namedCurve: 'P-256' });
    const cose = coseKeyOfPem(publicKey.export({ type: 'spki', format: 'pem' }) as string);
    // a CBOR map of 5 entries: kty EC2, alg ES256, crv P-256, x, y
    assert.equal(cose?.[0], 0xa5);
    assert.deepEqual([...cose!.subarray(1, 5)], [0x01, 0x02, 0x03, 0x26]);
    const rsa = crypto.generateKeyPairSync('rsa', { modulusLength: 2048 }).publicKey.export({ type: 'spki', format: 'pem' }) as string;
    assert.equal(coseKeyOfPem(rsa)?.[0], 0xa4);
    for (const bad of ['', 'garbage', '-----BEGIN PUBLIC KEY-----\nAAAA\n-----END PUBLIC KEY-----\n'])
      assert.equal(coseKeyOfPem(bad), undefined);
  });
});

describe('import magento: staff (Maho shape)', { skip: !available }, () => {
  let t: TestApp;
  let source: SourceDatabase;
  let shop: GeneratedShop;
  let report: Report;
  const user = (name: string) => shop.staff.users.find((u) => u.username === name)!;
  const ours = async (username: string) => {
    const [u] = await t.database.db.select().from(adminUsers).where(eq(adminUsers.username, username));
    return u;
  };

  before(async () => {
    source = await createSourceDatabase('maho');
    shop = await generateShop(source.pool, { variant: 'maho', ...SIZES });
    t = await buildTestApp();
    await withoutStaff(t);
  });
  after(async () => {
    await t?.close();
    await source?.drop();
  });

  test('a key that opens none of the secrets, or a malformed one, is refused before anything is written', async () => {
    // OTHER_CRYPT_KEY opens one of the secrets (a user's whose secret another key encrypted), this one none
    for (const cryptKey of ['cd'.repeat(32), 'not-a-key']) {
      await assert.rejects(
        importMagento({ source: source.url, db: t.database.db, only: ['staff'], cryptKey, config: t.services.config }),
        (err: Error) => err instanceof ImportRefused && /--crypt-key/.test(err.message),
      );
    }
    const [n] = await rows<{ roles: number; users: number }>(
      t.database.db,
      sql`SELECT (SELECT count(*)::int FROM admin_roles) AS roles, (SELECT count(*)::int FROM admin_users) AS users`,
    );
    assert.deepEqual(n, { roles: 0, users: 0 });
  });

  test('the import: every role, every user but the one without a role, both passkeys', async () => {
    report = await importMagento({
      source: source.url,
      db: t.database.db,
      only: ['staff'],
      cryptKey: STAFF_CRYPT_KEY,
      config: t.services.config,
    });
    assert.equal(stats(report, 'staff roles').imported, 3);
    const users = stats(report, 'staff users');
    assert.equal(users.found, shop.staff.users.length);
    assert.equal(users.imported, shop.staff.users.length - 1);
    assert.equal(users.skips.get('no role (Magento refuses its sign-in too)')?.samples[0], String(user('erin').userId));
    assert.equal(stats(report, 'staff passkeys').imported, 2);
  });

  test('roles get the permissions their ACL maps to; what does not map is reported', async () => {
    const roles = await t.database.db.select({ name: adminRoles.name, permissions: adminRoles.permissions }).from(adminRoles);
    for (const r of shop.staff.roles) {
      assert.deepEqual(roles.find((x) => x.name === r.name)?.permissions, r.permissions, r.name);
    }
    const sales = notesOf(report, 'staff roles', 2).join('\n');
    assert.match(sales, /1 of 2 configuration sections/);
    assert.match(sales, /no counterpart here: system\/cache/);
  });

  test('users arrive with their data, their hash as the source has it, their role', async () => {
    for (const s of shop.staff.users.filter((u) => u.role)) {
      const u = await ours(s.username);
      assert.ok(u, s.username);
      assert.equal(u.email, s.email);
      assert.equal(u.firstName, s.firstname);
      assert.equal(u.lastName, s.lastname);
      assert.equal(u.isActive, s.isActive);
      assert.equal(u.locale, s.locale ?? 'en_US');
      assert.equal(u.loginCount, s.lognum);
      assert.equal(u.passwordHash, s.hash, s.username);
      assert.equal(u.twofaEnabled, Boolean(s.totpSecret), s.username);
      const [role] = await t.database.db.select({ name: adminRoles.name }).from(adminRoles).where(eq(adminRoles.id, u.roleId));
      assert.equal(role.name, s.role);
    }
    assert.equal(await ours('erin'), undefined);
    // the secret is sealed with this server's key, never stored as the source had it
    const anna = await ours('sales.anna');
    assert.ok(anna.twofaSecret && !anna.twofaSecret.includes(user('sales.anna').totpSecret!));
    assert.equal(openTotpSecret(t.services.config, anna.twofaSecret), user('sales.anna').totpSecret);
    // dave's secret does not open: 2FA stays required, with no secret, and the report says so
    const dave = await ours('dave');
    assert.equal(dave.twofaSecret, null);
    assert.match(notesOf(report, 'staff users', user('dave').userId).join('\n'), /does not open its secret.*cannot sign in until/);
    const passkeys = await t.database.db.select().from(adminPasskeys);
    assert.deepEqual(
      passkeys.map((p) => p.credentialId).sort(),
      [user('editor.carla').passkey!.credentialId, user('frank').passkey!.credentialId].sort(),
    );
    assert.ok(passkeys.every((p) => p.signCount === 0));
  });

  test('sign-in with the old password; the hash becomes scrypt', async () => {
    for (const name of ['admin', 'old.bob']) {
      const s = user(name);
      const wrong = await signIn(t, { username: name, password: `${s.password}x` });
      assert.equal(wrong.status, 401, wrong.text);
      const r = await signIn(t, { username: name, password: s.password });
      if (!s.isActive) {
        assert.equal(r.status, 401, r.text);
        assert.equal((await ours(name)).passwordHash, s.hash, 'an inactive user keeps the imported hash');
        continue;
      }
      assert.equal(r.status, 200, r.text);
      assert.ok(r.body.token);
      assert.match((await ours(name)).passwordHash ?? '', /^scrypt\$/);
      const again = await signIn(t, { username: name, password: s.password });
      assert.equal(again.status, 200, again.text);
    }
  });

  test('a user with TOTP: the password alone asks for the code; the code from the imported secret signs in', async () => {
    const s = user('sales.anna');
    const first = await signIn(t, { username: s.username, password: s.password });
    assert.equal(first.status, 401, first.text);
    assert.equal(first.body.error, 'twofa_required');
    const bad = await signIn(t, { username: s.username, password: s.password, twofa_code: '000000' });
    assert.equal(bad.status, 401, bad.text);
    const ok = await signIn(t, { username: s.username, password: s.password, twofa_code: totpCode(s.totpSecret!) });
    assert.equal(ok.status, 200, ok.text);
    assert.match((await ours(s.username)).passwordHash ?? '', /^scrypt\$/);
  });

  test('a user whose secret could not be read never signs in with the password alone, nor with the old code', async () => {
    const s = user('dave');
    const r = await signIn(t, { username: s.username, password: s.password });
    assert.equal(r.status, 401, r.text);
    assert.equal(r.body.error, 'twofa_required');
    const code = await signIn(t, { username: s.username, password: s.password, twofa_code: totpCode(s.totpSecret!) });
    assert.equal(code.status, 401, code.text);
    assert.equal(code.body.token, undefined);
  });

  test('a user with a passkey signs in with the password and the imported passkey', async () => {
    const s = user('editor.carla');
    const origin = new URL(t.services.config.publicUrl ?? 'http://shop.test').origin;
    const options = await t.req('POST', `${API}/auth/passkey/options`, { body: { username: s.username } });
    assert.equal(options.status, 200, options.text);
    assert.deepEqual(
      options.body.allowCredentials.map((c: { id: string }) => c.id),
      [s.passkey!.credentialId],
    );
    const r = await signIn(t, { username: s.username, password: s.password, passkey: assertion(s, options.body, origin) });
    assert.equal(r.status, 200, r.text);
    const [p] = await t.database.db.select().from(adminPasskeys).where(eq(adminPasskeys.credentialId, s.passkey!.credentialId));
    assert.equal(p.signCount, 1);
    // Maho's passkey-only user keeps its password, with the passkey required beside it
    const frank = user('frank');
    assert.equal((await ours('frank')).passwordHash, frank.hash);
    const alone = await signIn(t, { username: 'frank', password: frank.password });
    assert.equal(alone.body.error, 'twofa_required', alone.text);
  });

  test('a second run changes nothing, and keeps the re-hashed passwords and the used passkey', async () => {
    const before = await t.database.db.select().from(adminUsers).orderBy(adminUsers.id);
    const again = await importMagento({
      source: source.url,
      db: t.database.db,
      only: ['staff'],
      cryptKey: STAFF_CRYPT_KEY,
      config: t.services.config,
    });
    for (const entity of ['staff roles', 'staff users', 'staff passkeys']) {
      const e = stats(again, entity);
      assert.equal(e.imported + e.updated, 0, `${entity}: ${e.imported} new, ${e.updated} updated`);
    }
    assert.deepEqual(await t.database.db.select().from(adminUsers).orderBy(adminUsers.id), before);
    const [p] = await t.database.db
      .select()
      .from(adminPasskeys)
      .where(eq(adminPasskeys.credentialId, user('editor.carla').passkey!.credentialId));
    assert.equal(p.signCount, 1);
  });

  test('a change in the source is followed: a new password hash, a role renamed, a passkey replaced', async () => {
    const s = user('admin');
    const hash = `${crypto.createHash('sha256').update('saltNew-Admin-Pass-1!').digest('hex')}:salt`;
    await source.pool.query("UPDATE admin_user SET password = ?, modified = '2030-01-01 00:00:00' WHERE user_id = ?", [hash, s.userId]);
    await source.pool.query("UPDATE admin_role SET role_name = 'Editors' WHERE role_id = 3");
    const carla = user('editor.carla');
    const newId = crypto.randomBytes(32);
    await source.pool.query('UPDATE admin_user SET passkey_credential_id_hash = ? WHERE user_id = ?', [
      newId.toString('base64'),
      carla.userId,
    ]);
    try {
      const r = await importMagento({
        source: source.url,
        db: t.database.db,
        only: ['staff'],
        cryptKey: STAFF_CRYPT_KEY,
        config: t.services.config,
      });
      assert.equal(stats(r, 'staff users').updated, 1);
      assert.equal((await ours('admin')).passwordHash, hash);
      const ok = await signIn(t, { username: 'admin', password: 'New-Admin-Pass-1!' });
      assert.equal(ok.status, 200, ok.text);
      const names = (await t.database.db.select({ name: adminRoles.name }).from(adminRoles)).map((x) => x.name).sort();
      assert.deepEqual(names, ['Administrators', 'Editors', 'Sales team']);
      const ids = (
        await t.database.db
          .select()
          .from(adminPasskeys)
          .where(eq(adminPasskeys.userId, (await ours(carla.username)).id))
      ).map((p) => p.credentialId);
      assert.deepEqual(ids, [newId.toString('base64url')]);
    } finally {
      await source.pool.query("UPDATE admin_role SET role_name = 'Content editors' WHERE role_id = 3");
      await source.pool.query('UPDATE admin_user SET passkey_credential_id_hash = ? WHERE user_id = ?', [
        Buffer.from(carla.passkey!.credentialId, 'base64url').toString('base64'),
        carla.userId,
      ]);
    }
  });
});

describe('import magento: staff without --crypt-key, next to staff of ours', { skip: !available }, () => {
  let t: TestApp;
  let source: SourceDatabase;
  let shop: GeneratedShop;
  let report: Report;
  let dry: Report;
  let dryCounts: { users: number; passkeys: number }[];
  const user = (name: string) => shop.staff.users.find((u) => u.username === name)!;

  before(async () => {
    source = await createSourceDatabase('maho');
    shop = await generateShop(source.pool, { variant: 'maho', ...SIZES, seed: 7 });
    t = await buildTestApp();
    await withoutStaff(t);
    // staff of ours: a role named as the source's, a user named as its admin, one with the e-mail of its bob
    const [role] = await t.database.db
      .insert(adminRoles)
      .values({ name: 'Administrators', permissions: ['orders/read'] })
      .returning();
    await t.database.db.insert(adminUsers).values([
      { username: 'admin', email: 'boss@ours.example.com', passwordHash: 'scrypt$ours', roleId: role.id },
      { username: 'bob', email: user('old.bob').email, passwordHash: 'scrypt$bob', roleId: role.id },
    ]);
    dry = await importMagento({ source: source.url, db: t.database.db, only: ['staff'], config: t.services.config, dryRun: true });
    dryCounts = await rows<{ users: number; passkeys: number }>(
      t.database.db,
      sql`SELECT (SELECT count(*)::int FROM admin_users) AS users, (SELECT count(*)::int FROM admin_passkeys) AS passkeys`,
    );
    report = await importMagento({ source: source.url, db: t.database.db, only: ['staff'], config: t.services.config });
  });
  after(async () => {
    await t?.close();
    await source?.drop();
  });

  test('users with 2FA arrive with 2FA required and no secret, and the report lists them', async () => {
    for (const name of ['sales.anna', 'dave']) {
      const [u] = await t.database.db.select().from(adminUsers).where(eq(adminUsers.username, name));
      assert.equal(u.twofaEnabled, true, name);
      assert.equal(u.twofaSecret, null, name);
      assert.match(
        notesOf(report, 'staff users', user(name).userId).join('\n'),
        /without --crypt-key.*cannot sign in until an administrator resets/,
      );
    }
    const s = user('sales.anna');
    const r = await signIn(t, { username: s.username, password: s.password });
    assert.equal(r.body.error, 'twofa_required', r.text);
    const code = await signIn(t, { username: s.username, password: s.password, twofa_code: totpCode(s.totpSecret!) });
    assert.equal(code.status, 401, code.text);
  });

  test('ours are never overwritten: the source role and user arrive under new names, a taken e-mail is skipped', async () => {
    const roles = await t.database.db.select().from(adminRoles).orderBy(adminRoles.id);
    assert.deepEqual(roles[0].permissions, ['orders/read']);
    assert.deepEqual(roles.find((r) => r.name === 'Administrators (imported)')?.permissions, ['all']);
    const users = await t.database.db.select().from(adminUsers).orderBy(adminUsers.id);
    assert.equal(users[0].passwordHash, 'scrypt$ours');
    assert.equal(users[1].passwordHash, 'scrypt$bob');
    const imported = users.find((u) => u.username === 'admin (imported)');
    assert.equal(imported?.email, user('admin').email);
    assert.ok(!users.some((u) => u.email === user('old.bob').email && u.username !== 'bob'));
    assert.equal(stats(report, 'staff users').skips.get('its e-mail belongs to another staff user here, who is left as it is')?.count, 1);
    const r = await signIn(t, { username: 'admin (imported)', password: user('admin').password });
    assert.equal(r.status, 200, r.text);
  });

  test('the dry run before the import wrote nothing, and told what the import then did', () => {
    for (const entity of ['staff roles', 'staff users', 'staff passkeys']) {
      assert.equal(stats(dry, entity).imported, stats(report, entity).imported, entity);
    }
    assert.ok(stats(dry, 'staff users').imported > 0);
    assert.deepEqual(dryCounts, [{ users: 2, passkeys: 0 }]);
  });
});

describe('import magento: staff of a Magento 1.9 shop', { skip: !available }, () => {
  let t: TestApp;
  let source: SourceDatabase;
  let shop: GeneratedShop;

  before(async () => {
    source = await createSourceDatabase('magento19');
    shop = await generateShop(source.pool, { variant: 'magento19', ...SIZES });
    t = await buildTestApp();
    await withoutStaff(t);
  });
  after(async () => {
    await t?.close();
    await source?.drop();
  });

  test('md5 hashes with 32- and 2-character salts sign in; no 2FA, no passkeys', async () => {
    const report = await importMagento({ source: source.url, db: t.database.db, only: ['staff'], config: t.services.config });
    assert.equal(stats(report, 'staff users').imported, shop.staff.users.length - 1);
    assert.equal(stats(report, 'staff passkeys').found, 0);
    for (const s of shop.staff.users.filter((u) => u.role && u.isActive)) {
      const r = await signIn(t, { username: s.username, password: s.password });
      assert.equal(r.status, 200, `${s.username} (${s.format}): ${r.text}`);
    }
    const formats = new Set(shop.staff.users.map((u) => u.format));
    assert.deepEqual([...formats].sort(), ['md5_salt2', 'md5_salt32']);
  });
});
