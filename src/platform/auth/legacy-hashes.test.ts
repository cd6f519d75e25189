/** Hashes imported from Magento 1, OpenMage and Maho: every format verifies its secret only, and upgrades to scrypt. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import crypto from 'node:crypto';
import { isLegacyHash, verifyLegacyHash } from './legacy-hashes.js';
import { hashSecret, needsRehash, setHashCost, verifySecret, verifySecretAndUpgrade } from './secrets.js';

setHashCost({ N: 1024, r: 8, p: 1 });

const SECRET = 'Légacy-P@ssw0rd 1';

/** Made by PHP 8.2 (hash(), password_hash(), crypt()) for SECRET, each checked there with password_verify / hash_equals. */
const LEGACY_VECTORS: Record<string, string> = {
  md5: '9a2024cc8033236cba457e502c2b8866',
  'md5 with a 2-character salt': '2dd94dc8e9e99bd39f3568a729020a2b:xY',
  'md5 with a 32-character salt': '679763f109f298b292271e4004045b7c:0123456789abcdefABCDEFGHIJKLMNOP',
  sha256: '889dd0985c4fe45bd1745f4adfc5144ed7ea45773354514b07738e48866a7199',
  'sha256 with a salt': '43b57080f3f636ca9414280c83c7e25a3481f521b95adf17b4488a2f485b14be:RandomSalt123',
  'sha256 with a salt holding a colon': 'e12b053b78555aff8e24b2e5436bb620654b52970df8d7074e788d2c0bc7d5a3:ab:1',
  sha512:
    '251631b828f0fc6dfe386657cde1ef5fe4a89bd893eb34f5277cbaa90f9ce0d92b083d208d17ea2cba1e527a6558b43bc6efb8bf481fafc9ed1c57541eada25e',
  'sha512 with a salt':
    'bed9ba75f7d3091a1ded3d6dac7c97290737999fd12098cea09ad848aa6ae5c7bd99cb0f85c78c0bf606cf3d19430a511138e8143c0f5a12c699f3b5d8826061:RandomSalt123',
  'bcrypt $2y$': '$2y$10$lvaztVU8du4E70z4j7HqTexGDZ8sjvFHttXLku.nccIVSlT1R6jKq',
  'bcrypt $2a$': '$2a$05$abcdefghijklmnopqrstuu2CDMbcuMQ4LjtoI9Mgot7dmxfCNCSIi',
  'bcrypt $2b$': '$2b$05$abcdefghijklmnopqrstuu2CDMbcuMQ4LjtoI9Mgot7dmxfCNCSIi',
  argon2i: '$argon2i$v=19$m=1024,t=2,p=1$dVc0OWtxRzV3T250VHF0YQ$tosQYOwMsjJ8uthduoHCV2JvI6NSkkzpywXI9+VAVt8',
  argon2id: '$argon2id$v=19$m=1024,t=2,p=1$ajBwcjFjVE01NWJXYzN3Tw$z0AtYQWGUcRAuetb1dXekIvTK8MqWyRFsTPH/LQTB7E',
  'argon2id at PHP defaults': '$argon2id$v=19$m=65536,t=4,p=1$TXpXamRTcmx5UUt3RmMxSA$C1Z9Tb7ppMyeQ8RQsgE5dcwu1d52nohvMO5jsda8Xgs',
};

const WRONG = ['légacy-P@ssw0rd 1', 'Legacy-P@ssw0rd 1', 'Légacy-P@ssw0rd 1 ', 'Légacy-P@ssw0rd', 'x'];

for (const [format, stored] of Object.entries(LEGACY_VECTORS)) {
  test(`${format}: the right secret matches, others do not`, async () => {
    assert.equal(isLegacyHash(stored), true);
    assert.equal(await verifyLegacyHash(SECRET, stored), true);
    for (const wrong of WRONG) assert.equal(await verifyLegacyHash(wrong, stored), false, wrong);
    assert.equal(await verifyLegacyHash('', stored), false);
  });
}

test('damaged, unknown or empty hashes match nothing and do not throw', async () => {
  const md5 = LEGACY_VECTORS.md5;
  const bcrypt = LEGACY_VECTORS['bcrypt $2y$'];
  const argon2 = LEGACY_VECTORS.argon2id;
  const unrecognized = [
    '',
    'md5:',
    ':',
    ':salt',
    '$2y$10$short',
    '$2y$',
    '$argon2id$',
    md5.toUpperCase(), // PHP compares the lowercase hex digest as it is
    md5.slice(1),
    `${md5}0`,
    ` ${md5}`,
    bcrypt.slice(0, -1),
    bcrypt.replace('$2y$10$', '$2y$03$'), // below bcrypt's minimum cost
    bcrypt.replace('$2y$10$', '$2y$31$'), // more work than a login may take
    bcrypt.replace('$2y$', '$2x$'),
    bcrypt.replace('$2y$', '$2z$'),
    argon2.replace('v=19', 'v=16'),
    argon2.replace('m=1024', 'm=4194304'),
    argon2.replace('t=2', 't=999'),
    argon2.replace('m=1024', 'm=4'),
    argon2.replace('$argon2id$', '$argon2d$'),
    argon2.replace('ajBwcjFjVE01NWJXYzN3Tw', 'ajBw'),
    `${argon2}=`,
    'scrypt$1024$8$1$AAAA$AAAA',
    'plain',
  ];
  for (const stored of unrecognized) {
    assert.equal(isLegacyHash(stored), false, stored);
    assert.equal(await verifyLegacyHash(SECRET, stored), false, stored);
  }
  // well formed, but no secret leads to them
  for (const stored of [
    `${bcrypt.slice(0, 29)}${'A'.repeat(31)}`,
    `${argon2.slice(0, -4)}AAAA`,
    '0'.repeat(32),
    `${'f'.repeat(128)}:salt`,
  ]) {
    assert.equal(isLegacyHash(stored), true, stored);
    assert.equal(await verifyLegacyHash(SECRET, stored), false, stored);
  }
  assert.equal(await verifyLegacyHash(SECRET, null), false);
  assert.equal(await verifyLegacyHash(SECRET, undefined), false);
  assert.equal(isLegacyHash(null), false);
  assert.equal(isLegacyHash(await hashSecret(SECRET)), false);
});

test('an empty salt after the colon is a salt of nothing, as in PHP', async () => {
  assert.equal(await verifyLegacyHash(SECRET, `${LEGACY_VECTORS.md5}:`), true);
});

test('the secret is taken as its UTF-8 bytes, not normalized', async () => {
  const decomposed = SECRET.normalize('NFD');
  assert.notEqual(decomposed, SECRET);
  assert.equal(await verifyLegacyHash(decomposed, LEGACY_VECTORS.md5), false);
  assert.equal(await verifyLegacyHash(decomposed, LEGACY_VECTORS['bcrypt $2y$']), false);
});

test('bcrypt reads the first 72 bytes of the secret, as PHP does', async () => {
  // password_hash(str_repeat('a', 72) . 'tail', PASSWORD_BCRYPT, ['cost' => 4])
  const stored = '$2y$04$a2jS2rDHgMf1Z4Nvz3ts4OjWhAPlhqOepBG3CHhPuZTRPFEVWFWHG';
  assert.equal(await verifyLegacyHash(`${'a'.repeat(72)}tail`, stored), true);
  assert.equal(await verifyLegacyHash(`${'a'.repeat(72)}other`, stored), true);
  assert.equal(await verifyLegacyHash('a'.repeat(71), stored), false);
});

test('a secret over 256 bytes matches no legacy hash (Magento’s maximum password length)', async () => {
  const long = 'b'.repeat(257);
  const md5 = crypto.createHash('md5').update(long).digest('hex');
  assert.equal(await verifyLegacyHash(long, md5), false);
  const max = 'b'.repeat(256);
  assert.equal(await verifyLegacyHash(max, crypto.createHash('md5').update(max).digest('hex')), true);
});

test('concurrent checks in the worker each get their own answer', async () => {
  const entries = Object.entries(LEGACY_VECTORS).filter(([f]) => /bcrypt|argon2/.test(f) && !/defaults/.test(f));
  const results = await Promise.all(entries.flatMap(([, stored]) => [verifyLegacyHash(SECRET, stored), verifyLegacyHash('wrong', stored)]));
  assert.deepEqual(
    results,
    entries.flatMap(() => [true, false]),
  );
});

test('verifySecret accepts legacy hashes; verifySecretAndUpgrade returns a scrypt hash to store', async () => {
  for (const [format, stored] of Object.entries(LEGACY_VECTORS).filter(([f]) => !/defaults/.test(f))) {
    assert.equal(await verifySecret(SECRET, stored), true, format);
    assert.equal(await verifySecret('wrong', stored), false, format);
    assert.equal(needsRehash(stored), true, format);
    assert.deepEqual(await verifySecretAndUpgrade('wrong', stored), { ok: false }, format);
    const { ok, rehash } = await verifySecretAndUpgrade(SECRET, stored);
    assert.equal(ok, true, format);
    assert.match(rehash ?? '', /^scrypt\$1024\$8\$1\$/, format);
    assert.equal(await verifySecret(SECRET, rehash), true, format);
    assert.equal(await verifySecret('wrong', rehash), false, format);
    assert.equal(needsRehash(rehash!), false, format);
  }
});

test('a current scrypt hash is kept; a weaker one is replaced on a match', async () => {
  const current = await hashSecret(SECRET);
  assert.deepEqual(await verifySecretAndUpgrade(SECRET, current), { ok: true });
  setHashCost({ N: 512, r: 8, p: 1 });
  const weaker = await hashSecret(SECRET);
  setHashCost({ N: 1024, r: 8, p: 1 });
  assert.equal(needsRehash(weaker), true);
  assert.deepEqual(await verifySecretAndUpgrade('wrong', weaker), { ok: false });
  const up = await verifySecretAndUpgrade(SECRET, weaker);
  assert.equal(up.ok, true);
  assert.match(up.rehash ?? '', /^scrypt\$1024\$/);
  setHashCost({ N: 2048, r: 8, p: 1 });
  const stronger = await hashSecret(SECRET);
  setHashCost({ N: 1024, r: 8, p: 1 });
  assert.deepEqual(await verifySecretAndUpgrade(SECRET, stronger), { ok: true });
});

test('missing and unknown hashes match nothing', async () => {
  for (const stored of [undefined, null, '', 'md5:', '$2y$10$short', 'unknown']) {
    assert.deepEqual(await verifySecretAndUpgrade(SECRET, stored), { ok: false }, String(stored));
    assert.equal(await verifySecret(SECRET, stored), false, String(stored));
  }
});
