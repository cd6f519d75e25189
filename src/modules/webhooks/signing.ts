/**
 * Signing secrets and signatures in the Standard Webhooks scheme: a secret is `whsec_` and base64 of 32 random
 * bytes; a message is signed as base64(HMAC-SHA256(secret bytes, `${id}.${timestamp}.${body}`)) and sent as
 * `webhook-signature: v1,<signature>` (one `v1,` entry per valid secret, space separated, while a rotated-out
 * secret is still honoured). Secrets are stored encrypted with AES-256-GCM under a key from the environment.
 */
import crypto from 'node:crypto';
import { deriveKey } from '../../platform/keys.js';

const PREFIX = 'whsec_';

export function newSecret(): string {
  return PREFIX + crypto.randomBytes(32).toString('base64');
}

function secretBytes(secret: string): Buffer {
  return Buffer.from(secret.startsWith(PREFIX) ? secret.slice(PREFIX.length) : secret, 'base64');
}

/** The `webhook-signature` header of a body signed with each of `secrets`. */
export function signatureHeader(secrets: readonly string[], id: string, timestamp: number, body: string): string {
  return secrets
    .map((s) => `v1,${crypto.createHmac('sha256', secretBytes(s)).update(`${id}.${timestamp}.${body}`).digest('base64')}`)
    .join(' ');
}

/**
 * Encrypts and decrypts stored secrets. The first key material seals; every one opens (AES-GCM's tag tells which
 * key sealed a value), so that a key can be rotated: the old one is kept as a previous key until the stored
 * secrets are sealed again under the new one (`reseal`).
 */
export class SecretBox {
  private readonly keys: Buffer[];

  constructor(keyMaterials: readonly string[]) {
    if (!keyMaterials.length) throw new Error('a secret box needs a key');
    this.keys = keyMaterials.map((m) => deriveKey(m, 'webhook-secrets'));
  }

  seal(plain: string): string {
    const iv = crypto.randomBytes(12);
    const cipher = crypto.createCipheriv('aes-256-gcm', this.keys[0], iv);
    const body = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
    return ['v1', iv.toString('base64'), cipher.getAuthTag().toString('base64'), body.toString('base64')].join(':');
  }

  open(sealed: string): string {
    return this.openWith(sealed).plain;
  }

  /** The sealed value under the current key, or undefined when it already is (or no key opens it). */
  reseal(sealed: string): string | undefined {
    try {
      const { plain, key } = this.openWith(sealed);
      return key === 0 ? undefined : this.seal(plain);
    } catch {
      return undefined;
    }
  }

  private openWith(sealed: string): { plain: string; key: number } {
    const [v, iv, tag, body] = sealed.split(':');
    if (v !== 'v1' || !iv || !tag || body === undefined) throw new Error('not a sealed webhook secret');
    for (let key = 0; key < this.keys.length; key++) {
      try {
        const decipher = crypto.createDecipheriv('aes-256-gcm', this.keys[key], Buffer.from(iv, 'base64'));
        decipher.setAuthTag(Buffer.from(tag, 'base64'));
        return { plain: Buffer.concat([decipher.update(Buffer.from(body, 'base64')), decipher.final()]).toString('utf8'), key };
      } catch {
        // sealed under another key
      }
    }
    throw new Error('no configured key opens this webhook secret (was the key rotated without keeping the previous one?)');
  }
}
