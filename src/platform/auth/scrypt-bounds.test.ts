/**
 * A stored scrypt hash names its own cost. One asking for more work or memory than the bounds (an imported or
 * tampered row) is not run: it matches nothing, as a wrong secret would, and the refusal is logged.
 */
import assert from 'node:assert/strict';
import crypto from 'node:crypto';
import { test } from 'node:test';
import { setHashCost, verifySecret, verifySecretAndUpgrade } from './secrets.js';

setHashCost({ N: 1024, r: 8, p: 1 });

/** A genuine hash of `secret` at the given cost, in the stored format. */
function scryptHash(secret: string, N: number, r: number, p: number, keylen = 32): string {
  const salt = crypto.randomBytes(16);
  const key = crypto.scryptSync(secret.normalize('NFKC'), salt, keylen, { N, r, p, maxmem: 256 * N * r + 1024 * 1024 });
  return `scrypt$${N}$${r}$${p}$${salt.toString('base64')}$${key.toString('base64')}`;
}

/** The same format with parameters that are never run: the key is random. */
function forged(N: number | string, r: number | string, p: number | string, keylen = 32): string {
  return `scrypt$${N}$${r}$${p}$${crypto.randomBytes(16).toString('base64')}$${crypto.randomBytes(keylen).toString('base64')}`;
}

function recorder() {
  const warnings: { obj: Record<string, unknown>; msg: string }[] = [];
  return { warnings, log: { warn: (obj: Record<string, unknown>, msg: string) => void warnings.push({ obj, msg }) } };
}

test('hashes within the bounds verify, at the bounds too', async () => {
  for (const [N, r, p] of [
    [1024, 8, 1],
    [16384, 8, 1],
    [1024, 8, 16],
    [1024, 32, 1],
  ]) {
    const { warnings, log } = recorder();
    assert.equal(await verifySecret('in-bounds', scryptHash('in-bounds', N, r, p), log), true, `N=${N} r=${r} p=${p}`);
    assert.deepEqual(warnings, []);
  }
});

test('a genuine hash beyond the bounds of p or r matches nothing and is logged', async () => {
  for (const [N, r, p] of [
    [1024, 8, 17],
    [256, 33, 1],
  ]) {
    const { warnings, log } = recorder();
    const stored = scryptHash('right-secret', N, r, p);
    assert.equal(await verifySecret('right-secret', stored, log), false, `N=${N} r=${r} p=${p}`);
    assert.equal(warnings.length, 1, `N=${N} r=${r} p=${p}`);
    assert.match(warnings[0].msg, /scrypt/);
    assert.deepEqual(warnings[0].obj.scrypt, { N, r, p });
    assert.deepEqual(await verifySecretAndUpgrade('right-secret', stored), { ok: false }, 'no rehash of a refused hash');
  }
});

test('huge N, memory or work is refused at once, without running it', async () => {
  for (const [N, r, p] of [
    [2 ** 24, 8, 1], // 16 GiB
    [2 ** 21, 1, 1], // N beyond 2^20
    [2 ** 18, 16, 1], // 512 MiB of memory
    [2 ** 16, 32, 16], // 256 MiB, 16 times over
    [2 ** 20, 8, 1_000_000],
  ]) {
    const { warnings, log } = recorder();
    const started = process.hrtime.bigint();
    assert.equal(await verifySecret('anything', forged(N, r, p), log), false, `N=${N} r=${r} p=${p}`);
    const ms = Number(process.hrtime.bigint() - started) / 1e6;
    assert.ok(ms < 1000, `N=${N} r=${r} p=${p} took ${ms} ms`);
    assert.equal(warnings.length, 1, `N=${N} r=${r} p=${p}`);
  }
});

test('malformed parameters and oversized keys match nothing', async () => {
  for (const stored of [
    forged(1000, 8, 1), // N not a power of two
    forged(1, 8, 1),
    forged(1024, 0, 1),
    forged(1024, 8, 0),
    forged('1024.5', 8, 1),
    forged('0x400', 8, 1),
    forged(1024, 8, 1, 2048), // a 2 KiB key
  ]) {
    const { log } = recorder();
    assert.equal(await verifySecret('anything', stored, log), false, stored);
  }
});
