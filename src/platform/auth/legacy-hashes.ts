/**
 * Password and API key hashes imported from Magento 1, OpenMage and Maho, checked the way their
 * Mage_Core_Model_Encryption::validateHash does:
 * - PHP password_hash() output: bcrypt (`$2y$`, `$2a$`, `$2b$`) and argon2 (`$argon2i$`, `$argon2id$`);
 * - the lowercase hex digest of salt . secret, a colon and the salt (everything after the first colon, so a
 *   salt may itself hold colons): MD5 (Magento 1), SHA-256 (OpenMage customers, admins and API keys), SHA-512;
 * - the unsalted hex digest of the secret: MD5, SHA-256 or SHA-512 (told apart by length).
 * They work on the secret's UTF-8 bytes as given, without normalization, as PHP did. bcrypt and argon2 run in a
 * worker thread so that their cost does not hold up the event loop. A hash in no known format, or damaged, or
 * asking for more work than the bounds below, matches nothing.
 */
import crypto from 'node:crypto';
import { Worker } from 'node:worker_threads';

/** Mage_Core_Model_Encryption::MAXIMUM_PASSWORD_LENGTH: a longer secret matches no legacy hash. */
const MAX_SECRET_BYTES = 256;

const DIGEST = /^([0-9a-f]{32}|[0-9a-f]{64}|[0-9a-f]{128})(?::([\s\S]*))?$/;
const DIGEST_ALGORITHM: Record<number, string> = { 32: 'md5', 64: 'sha256', 128: 'sha512' };

/** bcrypt as PHP's crypt() reads it; cost above 15 (about 3 s here) is taken as damaged. */
const BCRYPT = /^\$2[aby]\$(0[4-9]|1[0-5])\$[./A-Za-z0-9]{53}$/;
/** bcrypt reads at most 72 bytes of the secret. */
const BCRYPT_MAX_BYTES = 72;

/** The PHC string of libargon2 and libsodium, as password_hash() writes it (version 19, unpadded base64). */
const ARGON2 = /^\$(argon2i|argon2id)\$v=19\$m=(\d{1,7}),t=(\d{1,3}),p=(\d{1,3})\$([A-Za-z0-9+/]{11,})\$([A-Za-z0-9+/]{6,})$/;
/** Bounds on argon2 work: memory in KiB, passes, lanes, and memory × passes (4 × PHP's default 64 MiB × 4). */
const ARGON2_MAX = { memory: 262_144, passes: 16, lanes: 16, work: 1_048_576 };

interface Argon2Params {
  type: 'argon2i' | 'argon2id';
  memory: number;
  passes: number;
  lanes: number;
  salt: Buffer;
  key: Buffer;
}

function argon2Params(stored: string): Argon2Params | undefined {
  const m = ARGON2.exec(stored);
  if (!m) return undefined;
  const [, type, mem, t, p, salt, key] = m;
  const memory = Number(mem);
  const passes = Number(t);
  const lanes = Number(p);
  if (passes < 1 || lanes < 1 || memory < 8 * lanes) return undefined;
  if (memory > ARGON2_MAX.memory || passes > ARGON2_MAX.passes || lanes > ARGON2_MAX.lanes || memory * passes > ARGON2_MAX.work)
    return undefined;
  const params = {
    type: type as Argon2Params['type'],
    memory,
    passes,
    lanes,
    salt: Buffer.from(salt, 'base64'),
    key: Buffer.from(key, 'base64'),
  };
  if (params.salt.length < 8 || params.key.length < 4 || params.key.length > 1024) return undefined;
  return params;
}

/** Whether `stored` is a hash in one of the legacy formats above (one that verifyLegacyHash can check). */
export function isLegacyHash(stored: string | null | undefined): boolean {
  if (!stored) return false;
  return DIGEST.test(stored) || BCRYPT.test(stored) || argon2Params(stored) !== undefined;
}

/** Whether `secret` matches a legacy hash. Never throws for a damaged or unknown hash: it matches nothing. */
export async function verifyLegacyHash(secret: string, stored: string | null | undefined): Promise<boolean> {
  if (!stored || typeof secret !== 'string') return false;
  const bytes = Buffer.from(secret, 'utf8');
  if (!bytes.length || bytes.length > MAX_SECRET_BYTES) return false;

  const digest = DIGEST.exec(stored);
  if (digest) {
    const [, hex, salt] = digest;
    const input = salt === undefined ? bytes : Buffer.concat([Buffer.from(salt, 'utf8'), bytes]);
    const actual = Buffer.from(crypto.createHash(DIGEST_ALGORITHM[hex.length]).update(input).digest('hex'));
    return crypto.timingSafeEqual(actual, Buffer.from(hex));
  }

  if (BCRYPT.test(stored)) {
    // crypt() reads the secret as a C string: up to its first NUL byte, and no more than 72 bytes
    const nul = bytes.indexOf(0);
    const key = bytes.subarray(0, Math.min(nul < 0 ? bytes.length : nul, BCRYPT_MAX_BYTES));
    if (!key.length) return false;
    // the library's check runs PHP's own crypt_blowfish and compares without early exit
    return (await inWorker({ kind: 'bcrypt', secret: key, hash: stored })) === true;
  }

  const argon2 = argon2Params(stored);
  if (argon2) {
    const actual = await inWorker({
      kind: 'argon2',
      type: argon2.type,
      secret: bytes,
      salt: argon2.salt,
      memory: argon2.memory,
      passes: argon2.passes,
      lanes: argon2.lanes,
      length: argon2.key.length,
    });
    return actual instanceof Uint8Array && actual.length === argon2.key.length && crypto.timingSafeEqual(actual, argon2.key);
  }

  return false;
}

type Job =
  | { kind: 'bcrypt'; secret: Uint8Array; hash: string }
  | {
      kind: 'argon2';
      type: 'argon2i' | 'argon2id';
      secret: Uint8Array;
      salt: Uint8Array;
      memory: number;
      passes: number;
      lanes: number;
      length: number;
    };

/**
 * The worker's code. A computation that fails (a hash the library refuses) answers false; a library that cannot
 * be loaded answers an error, so that the caller fails loudly instead of refusing every such login.
 */
const WORKER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
const loaded = import(workerData.lib).then((m) => (m.bcryptVerify ? m : m.default));
parentPort.on('message', async ({ id, job }) => {
  let lib;
  try {
    lib = await loaded;
  } catch (err) {
    parentPort.postMessage({ id, error: 'cannot load hash-wasm: ' + (err && err.message) });
    return;
  }
  let result = false;
  try {
    if (job.kind === 'bcrypt') result = await lib.bcryptVerify({ password: job.secret, hash: job.hash });
    else result = await lib[job.type]({ password: job.secret, salt: job.salt, iterations: job.passes, memorySize: job.memory, parallelism: job.lanes, hashLength: job.length, outputType: 'binary' });
  } catch {
    result = false;
  }
  parentPort.postMessage({ id, result });
});
`;

interface Pending {
  resolve: (value: unknown) => void;
  reject: (err: Error) => void;
}

let worker: Worker | undefined;
const pending = new Map<number, Pending>();
let nextId = 0;

/** One worker, started on first use; it keeps the process alive only while it has work. */
function hashWorker(): Worker {
  if (worker) return worker;
  const w = new Worker(WORKER_SOURCE, { eval: true, workerData: { lib: import.meta.resolve('hash-wasm') } });
  const fail = (err: Error) => {
    if (worker === w) worker = undefined;
    for (const p of pending.values()) p.reject(err);
    pending.clear();
  };
  w.on('message', (msg: { id: number; result?: unknown; error?: string }) => {
    const p = pending.get(msg.id);
    if (!p) return;
    pending.delete(msg.id);
    if (!pending.size) w.unref();
    if (msg.error) p.reject(new Error(msg.error));
    else p.resolve(msg.result);
  });
  w.on('error', fail);
  w.on('exit', (code) => fail(new Error(`the hash worker stopped (exit code ${code})`)));
  w.unref();
  worker = w;
  return w;
}

function inWorker(job: Job): Promise<unknown> {
  const w = hashWorker();
  const id = nextId++;
  return new Promise((resolve, reject) => {
    pending.set(id, { resolve, reject });
    w.ref();
    w.postMessage({ id, job });
  });
}
