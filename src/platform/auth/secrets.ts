/**
 * Hashing of secrets. Passwords, API keys and client secrets use scrypt (memory-hard); random one-time
 * tokens, which carry their own entropy, use SHA-256. Every comparison is constant-time. Hashes imported from
 * Magento 1, OpenMage and Maho still verify (legacy-hashes.ts) and are replaced by scrypt on first use. A stored
 * scrypt hash names its own cost; one asking for more than the bounds below is not run and matches nothing.
 */
import crypto from 'node:crypto';
import { promisify } from 'node:util';
import { isLegacyHash, verifyLegacyHash } from './legacy-hashes.js';

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

/**
 * Bounds on the cost a stored scrypt hash may ask for, so that an imported or tampered row cannot make every
 * login spend gigabytes or minutes: N (a power of two), r, p, the memory 128·N·r (8 times today's 32 MiB) and
 * the work 128·N·r·p (32 times today's), and the lengths of salt and key.
 */
const SCRYPT_MAX = { N: 2 ** 20, r: 32, p: 16, memory: 256 * 2 ** 20, work: 2 ** 30, salt: 1024, key: 1024 };

/** What a refused hash is reported to: a request's logger. */
export interface HashLog {
  warn(obj: Record<string, unknown>, msg: string): void;
}

export async function hashSecret(secret: string): Promise<string> {
  const salt = crypto.randomBytes(16);
  const { N, r, p } = params;
  const key = await scryptAsync(secret.normalize('NFKC'), salt, KEYLEN, { N, r, p, maxmem: 128 * N * r * 2 });
  return `scrypt$${N}$${r}$${p}$${salt.toString('base64')}$${key.toString('base64')}`;
}

/** A syntactically valid hash that matches nothing, verified when no account exists so timing tells nothing. */
let dummyHash: Promise<string> | undefined;

async function spendDummyVerification(secret: string): Promise<void> {
  dummyHash ??= hashSecret(crypto.randomBytes(16).toString('hex'));
  await verifyScrypt(secret, parseScrypt(await dummyHash)!);
}

interface ScryptHash extends ScryptParams {
  salt: Buffer;
  key: Buffer;
  /** why the hash is not run: its cost or size is beyond SCRYPT_MAX */
  refused?: string;
}

const isPowerOfTwo = (n: number) => n >= 2 && (n & (n - 1)) === 0;

function parseScrypt(stored: string): ScryptHash | undefined {
  const parts = stored.split('$');
  if (parts.length !== 6 || parts[0] !== 'scrypt') return undefined;
  const [, n, r, p, saltB64, keyB64] = parts;
  const key = Buffer.from(keyB64, 'base64');
  if (!key.length) return undefined;
  const h: ScryptHash = { N: Number(n), r: Number(r), p: Number(p), salt: Buffer.from(saltB64, 'base64'), key };
  if (![n, r, p].every((v) => /^[1-9]\d{0,9}$/.test(v))) return { ...h, refused: 'parameters are not whole numbers' };
  h.refused = scryptBeyondBounds(h);
  return h;
}

function scryptBeyondBounds(h: ScryptHash): string | undefined {
  const M = SCRYPT_MAX;
  if (h.N > M.N || h.r > M.r || h.p > M.p) return 'N, r or p is beyond the bounds';
  if (!isPowerOfTwo(h.N)) return 'N is not a power of two';
  if (128 * h.N * h.r > M.memory || 128 * h.N * h.r * h.p > M.work) return 'memory or work is beyond the bounds';
  if (h.salt.length > M.salt || h.key.length > M.key) return 'salt or key is too long';
  return undefined;
}

async function verifyScrypt(secret: string, h: ScryptHash): Promise<boolean> {
  let key: Buffer;
  try {
    key = await scryptAsync(secret.normalize('NFKC'), h.salt, h.key.length, { N: h.N, r: h.r, p: h.p, maxmem: 128 * h.N * h.r * 2 });
  } catch {
    return false; // a damaged hash matches nothing
  }
  return key.length === h.key.length && crypto.timingSafeEqual(key, h.key);
}

/** A scrypt hash made with less than today's cost, key or salt length. */
function weakerThanCurrent(h: ScryptHash): boolean {
  return h.N < params.N || h.r < params.r || h.p < params.p || h.key.length < KEYLEN || h.salt.length < 16;
}

export interface SecretCheck {
  ok: boolean;
  /** when the secret matched a legacy or weaker hash: a fresh scrypt hash to store in its place */
  rehash?: string;
}

/**
 * Checks a secret against a stored hash: scrypt, or one of the legacy formats of legacy-hashes.ts (imported
 * Magento 1, OpenMage and Maho credentials). A missing, unknown or non-matching legacy hash costs at least one
 * scrypt verification, like a wrong secret for a current hash, so timing does not tell them apart.
 */
async function check(secret: string, stored: string | undefined | null, upgrade: boolean, log?: HashLog): Promise<SecretCheck> {
  const h = stored ? parseScrypt(stored) : undefined;
  if (h?.refused) {
    log?.warn({ scrypt: { N: h.N, r: h.r, p: h.p }, reason: h.refused }, 'stored scrypt hash refused without running it');
    await spendDummyVerification(secret);
    return { ok: false };
  }
  if (h) {
    const ok = await verifyScrypt(secret, h);
    return ok && upgrade && weakerThanCurrent(h) ? { ok, rehash: await hashSecret(secret) } : { ok };
  }
  if (stored && isLegacyHash(stored) && (await verifyLegacyHash(secret, stored))) {
    return upgrade ? { ok: true, rehash: await hashSecret(secret) } : { ok: true };
  }
  await spendDummyVerification(secret);
  return { ok: false };
}

/** `log` hears of a stored hash refused for its cost (it then matches nothing, as a wrong secret). */
export async function verifySecret(secret: string, stored: string | undefined | null, log?: HashLog): Promise<boolean> {
  return (await check(secret, stored, false, log)).ok;
}

/**
 * Like verifySecret, and when the secret matched a hash that is legacy or weaker than today's scrypt cost, also
 * a fresh hash of it for the caller to store (guarded by the old value, so concurrent logins do not fight).
 */
export function verifySecretAndUpgrade(secret: string, stored: string | undefined | null, log?: HashLog): Promise<SecretCheck> {
  return check(secret, stored, true, log);
}

/** Whether a stored hash should be replaced on the next successful check (legacy, or weaker scrypt). */
export function needsRehash(stored: string): boolean {
  const h = parseScrypt(stored);
  return h ? weakerThanCurrent(h) : isLegacyHash(stored);
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
