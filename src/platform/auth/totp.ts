/**
 * TOTP (RFC 6238: SHA-1, 6 digits, 30-second steps) for staff sign-in, and the sealing of TOTP secrets at rest.
 * A secret is stored encrypted (AES-256-GCM) under a key derived from the server's key material: the webhook
 * encryption keys (WEBHOOK_ENCRYPTION_KEY, else JWT_SECRET, then the previous ones). The first key seals, every
 * one opens, so that a key rotation keeps the enrolled authenticators working.
 */
import crypto from 'node:crypto';
import { Secret, TOTP } from 'otpauth';
import type { AppConfig } from '../config.js';

const PERIOD = 30;
const DIGITS = 6;
const cache = new Map<string, Buffer>();

function key(material: string): Buffer {
  let k = cache.get(material);
  if (!k) {
    k = Buffer.from(crypto.hkdfSync('sha256', material, 'commerce-api', 'staff totp secrets', 32));
    cache.set(material, k);
  }
  return k;
}

function keys(config: AppConfig): Buffer[] {
  const materials = config.webhooks.encryptionKeys.length ? config.webhooks.encryptionKeys : [config.jwtSecret];
  return materials.map(key);
}

/** A base32 TOTP secret sealed for storage: `t1:<iv>:<tag>:<ciphertext>`, base64 parts. */
export function sealTotpSecret(config: AppConfig, base32: string): string {
  const secret = normalizeBase32(base32);
  if (!secret) throw new Error('a TOTP secret is base32 text');
  const iv = crypto.randomBytes(12);
  const cipher = crypto.createCipheriv('aes-256-gcm', keys(config)[0], iv);
  const body = Buffer.concat([cipher.update(secret, 'utf8'), cipher.final()]);
  return ['t1', iv.toString('base64'), cipher.getAuthTag().toString('base64'), body.toString('base64')].join(':');
}

/** The base32 secret of a sealed value; throws when it is not one or no configured key opens it. */
export function openTotpSecret(config: AppConfig, sealed: string): string {
  const [v, iv, tag, body] = sealed.split(':');
  if (v !== 't1' || !iv || !tag || body === undefined) throw new Error('not a sealed TOTP secret');
  for (const k of keys(config)) {
    try {
      const decipher = crypto.createDecipheriv('aes-256-gcm', k, Buffer.from(iv, 'base64'));
      decipher.setAuthTag(Buffer.from(tag, 'base64'));
      return Buffer.concat([decipher.update(Buffer.from(body, 'base64')), decipher.final()]).toString('utf8');
    } catch {
      // sealed under another key
    }
  }
  throw new Error('no configured key opens this TOTP secret (was the key rotated without keeping the previous one?)');
}

/** Upper case, no spaces or padding; undefined when it is not base32 of at least 80 bits. */
export function normalizeBase32(s: string): string | undefined {
  const v = s.replace(/[\s=-]/g, '').toUpperCase();
  return /^[A-Z2-7]{16,128}$/.test(v) ? v : undefined;
}

/** A new random secret (160 bits, as RFC 4226 recommends), base32. */
export function newTotpSecret(): string {
  return new Secret({ size: 20 }).base32;
}

function totp(base32: string, label = '', issuer = ''): TOTP {
  return new TOTP({ issuer, label, algorithm: 'SHA1', digits: DIGITS, period: PERIOD, secret: Secret.fromBase32(base32) });
}

/** The `otpauth://totp/...` URI an authenticator app scans. */
export function totpUri(base32: string, issuer: string, account: string): string {
  return totp(base32, account, issuer).toString();
}

/** The 30-second step a time falls in. */
export function totpStep(at: Date): number {
  return Math.floor(at.getTime() / 1000 / PERIOD);
}

/**
 * Checks a 6-digit code against the secret at `at`, one step either side; the step it matched, or undefined.
 * A step at or before `lastStep` (the last accepted one) is refused: a code is accepted once.
 */
export function verifyTotp(base32: string, code: string, at: Date, lastStep?: number | null): number | undefined {
  if (!/^\d{6}$/.test(code)) return undefined;
  const delta = totp(base32).validate({ token: code, timestamp: at.getTime(), window: 1 });
  if (delta === null) return undefined;
  const step = totpStep(at) + delta;
  if (lastStep !== null && lastStep !== undefined && step <= lastStep) return undefined;
  return step;
}
