/** Keys derived from JWT_SECRET: one per purpose, none of them the secret itself, the same in every process. */
import assert from 'node:assert/strict';
import crypto from 'node:crypto';
import { test } from 'node:test';
import { deriveKey, type KeyPurpose } from '../../src/platform/keys.js';

const SECRET = 'a-jwt-secret-of-at-least-32-characters!';
const PURPOSES: KeyPurpose[] = [
  'webhook-secrets',
  'order-account-token',
  'revocation-form',
  'contact-honeypot',
  'mcp-session',
  'newsletter-unsubscribe',
];

test('every purpose has its own 32-byte key, stable for a secret and different for another', () => {
  const keys = PURPOSES.map((p) => deriveKey(SECRET, p).toString('hex'));
  assert.equal(new Set(keys).size, PURPOSES.length);
  for (const k of keys) {
    assert.equal(k.length, 64);
    assert.notEqual(k, Buffer.from(SECRET).toString('hex'));
  }
  assert.deepEqual(
    PURPOSES.map((p) => deriveKey(SECRET, p).toString('hex')),
    keys,
  );
  assert.notEqual(deriveKey(`${SECRET}x`, 'mcp-session').toString('hex'), keys[4]);
});

test('a MAC made with the token-signing secret itself is no MAC of any derived key', () => {
  const data = 'payload';
  const raw = crypto.createHmac('sha256', SECRET).update(data).digest('hex');
  for (const p of PURPOSES) assert.notEqual(crypto.createHmac('sha256', deriveKey(SECRET, p)).update(data).digest('hex'), raw);
});
