/**
 * Hashing of secrets. Passwords, API keys and client secrets use scrypt (memory-hard); random one-time
 * tokens, which carry their own entropy, use SHA-256. Every comparison is constant-time.
 */
import crypto from 'node:crypto';
import { promisify } from 'node:util';

const scryptAsync = promisify(crypto.scrypt) as (
  password: crypto.BinaryLike,
  salt: crypto.BinaryLike,
  keylen: number,
  options: crypto.ScryptOptions,
) => Promise<Buffer>;

interface ScryptParams {
  N: number;
  r: number;
  p: number;
}

/** Production cost: 2^15 × 8 × 1 = 32 MiB per hash. Tests use a cheaper cost; the stored hash names its own. */
let params: ScryptParams = { N: 32768, r: 8, p: 1 };

export function setHashCost(p: ScryptParams): void {
  params = p;
}

const KEYLEN = 32;

export async function hashSecret(secret: string): Promise<string> {
  const salt = crypto.randomBytes(16);
  const { N, r, p } = params;
  const key = await scryptAsync(secret.normalize('NFKC'), salt, KEYLEN, { N, r, p, maxmem: 128 * N * r * 2 });
  return `scrypt$${N}$${r}$${p}$${salt.toString('base64')}$${key.toString('base64')}`;
}

/** A syntactically valid hash that matches nothing, verified when no account exists so timing tells nothing. */
let dummyHash: Promise<string> | undefined;

export async function verifySecret(secret: string, stored: string | undefined | null): Promise<boolean> {
  if (!stored) {
    dummyHash ??= hashSecret(crypto.randomBytes(16).toString('hex'));
    await verifySecret(secret, await dummyHash);
    return false;
  }
  const parts = stored.split('$');
  if (parts.length !== 6 || parts[0] !== 'scrypt') return false;
  const [, n, r, p, saltB64, keyB64] = parts;
  const expected = Buffer.from(keyB64, 'base64');
  const N = Number(n);
  if (!expected.length) return false;
  let key: Buffer;
  try {
    key = await scryptAsync(secret.normalize('NFKC'), Buffer.from(saltB64, 'base64'), expected.length, {
      N,
      r: Number(r),
      p: Number(p),
      maxmem: 128 * N * Number(r) * 2,
    });
  } catch {
    return false; // a damaged hash matches nothing
  }
  return key.length === expected.length && crypto.timingSafeEqual(key, expected);
}

/** A random token for mail links and one-time use: 32 bytes as 64 hex characters. */
export function randomToken(bytes = 32): string {
  return crypto.randomBytes(bytes).toString('hex');
}

export function sha256Hex(value: string): string {
  return crypto.createHash('sha256').update(value).digest('hex');
}

export function safeEqual(a: string, b: string): boolean {
  const ba = Buffer.from(a);
  const bb = Buffer.from(b);
  return ba.length === bb.length && crypto.timingSafeEqual(ba, bb);
}
