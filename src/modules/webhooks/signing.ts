/**
 * Signing secrets and signatures in the Standard Webhooks scheme: a secret is `whsec_` and base64 of 32 random
 * bytes; a message is signed as base64(HMAC-SHA256(secret bytes, `${id}.${timestamp}.${body}`)) and sent as
 * `webhook-signature: v1,<signature>` (one `v1,` entry per valid secret, space separated, while a rotated-out
 * secret is still honoured). Secrets are stored encrypted with AES-256-GCM under a key from the environment.
 */
import crypto from 'node:crypto';

const PREFIX = 'whsec_';

export function newSecret(): string {
  return PREFIX + crypto.randomBytes(32).toString('base64');
}

function secretBytes(secret: string): Buffer {
  return Buffer.from(secret.startsWith(PREFIX) ? secret.slice(PREFIX.length) : secret, 'base64');
}

/** The `webhook-signature` header of a body signed with each of `secrets`. */
export function signatureHeader(secrets: readonly string[], id: string, timestamp: number, body: string): string {
  return secrets.map((s) => `v1,${crypto.createHmac('sha256', secretBytes(s)).update(`${id}.${timestamp}.${body}`).digest('base64')}`).join(' ');
}

/** Encrypts and decrypts stored secrets; the key is derived from the configured key material with HKDF. */
export class SecretBox {
  private readonly key: Buffer;

  constructor(keyMaterial: string) {
    this.key = Buffer.from(crypto.hkdfSync('sha256', keyMaterial, 'commerce-webhooks', 'webhook signing secrets', 32));
  }

  seal(plain: string): string {
    const iv = crypto.randomBytes(12);
    const cipher = crypto.createCipheriv('aes-256-gcm', this.key, iv);
    const body = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
    return ['v1', iv.toString('base64'), cipher.getAuthTag().toString('base64'), body.toString('base64')].join(':');
  }

  open(sealed: string): string {
    const [v, iv, tag, body] = sealed.split(':');
    if (v !== 'v1' || !iv || !tag || body === undefined) throw new Error('not a sealed webhook secret');
    const decipher = crypto.createDecipheriv('aes-256-gcm', this.key, Buffer.from(iv, 'base64'));
    decipher.setAuthTag(Buffer.from(tag, 'base64'));
    return Buffer.concat([decipher.update(Buffer.from(body, 'base64')), decipher.final()]).toString('utf8');
  }
}
