import { test } from 'node:test';
import assert from 'node:assert/strict';
import { hashSecret, randomToken, safeEqual, setHashCost, sha256Hex, verifySecret } from './secrets.js';

setHashCost({ N: 1024, r: 8, p: 1 });

test('a hash verifies its secret only, and names its own cost', async () => {
  const h = await hashSecret('s3cret-value');
  assert.match(h, /^scrypt\$1024\$8\$1\$[A-Za-z0-9+/=]+\$[A-Za-z0-9+/=]+$/);
  assert.equal(await verifySecret('s3cret-value', h), true);
  assert.equal(await verifySecret('s3cret-valuE', h), false);
  assert.equal(await verifySecret('', h), false);
  assert.notEqual(await hashSecret('s3cret-value'), h, 'salted');
});

test('a hash made at another cost still verifies', async () => {
  setHashCost({ N: 2048, r: 8, p: 1 });
  const h = await hashSecret('other-cost');
  setHashCost({ N: 1024, r: 8, p: 1 });
  assert.equal(await verifySecret('other-cost', h), true);
});

test('secrets are compared after NFKC normalization', async () => {
  const h = await hashSecret('ﬁle'); // the "fi" ligature
  assert.equal(await verifySecret('file', h), true);
});

test('a missing or damaged hash matches nothing and does not throw', async () => {
  assert.equal(await verifySecret('x', undefined), false);
  assert.equal(await verifySecret('x', null), false);
  for (const bad of ['plain', 'scrypt$x$8$1$AAAA$AAAA', 'scrypt$1024$8$1$AAAA$', 'bcrypt$1$2$3$4$5', 'scrypt$3$8$1$AAAA$AAAA']) {
    assert.equal(await verifySecret('x', bad), false, bad);
  }
});

test('random tokens, hashes and constant-time comparison', () => {
  assert.match(randomToken(), /^[0-9a-f]{64}$/);
  assert.notEqual(randomToken(), randomToken());
  assert.equal(sha256Hex('abc'), 'ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
  assert.equal(safeEqual('abc', 'abc'), true);
  assert.equal(safeEqual('abc', 'abd'), false);
  assert.equal(safeEqual('abc', 'abcd'), false);
});
