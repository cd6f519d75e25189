/**
 * Keys derived from a configured secret (JWT_SECRET): one per purpose, through HKDF-SHA256 with the purpose as
 * its label, so that no two uses share a key and none is the token-signing secret itself.
 */
import crypto from 'node:crypto';

export type KeyPurpose =
  'webhook-secrets' | 'order-account-token' | 'revocation-form' | 'contact-honeypot' | 'mcp-session' | 'newsletter-unsubscribe';

/** HKDF salt and label of each purpose; the webhook secrets' are the ones they were first sealed under */
const LABELS: Record<KeyPurpose, [salt: string, info: string]> = {
  'webhook-secrets': ['commerce-webhooks', 'webhook signing secrets'],
  'order-account-token': ['commerce-api', 'order-account-token'],
  'revocation-form': ['commerce-api', 'revocation-form'],
  'contact-honeypot': ['commerce-api', 'contact-honeypot'],
  'mcp-session': ['commerce-api', 'mcp-session'],
  'newsletter-unsubscribe': ['commerce-api', 'newsletter-unsubscribe'],
};

const cache = new Map<string, Buffer>();

export function deriveKey(secret: string, purpose: KeyPurpose): Buffer {
  const id = `${purpose}\0${secret}`;
  let key = cache.get(id);
  if (!key) {
    const [salt, info] = LABELS[purpose];
    key = Buffer.from(crypto.hkdfSync('sha256', secret, salt, info, 32));
    cache.set(id, key);
  }
  return key;
}
