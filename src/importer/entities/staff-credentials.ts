/**
 * What a Maho shop keeps of its staff users' second factors, read into our forms:
 * - the TOTP secret, encrypted with the shop's key by Mage_Core_Model_Encryption::encrypt: libsodium's
 *   crypto_secretbox (XSalsa20-Poly1305) under the 32 bytes of the hex key of app/etc/local.xml <crypt><key>,
 *   stored as base64 (with padding) of nonce (24 bytes) || MAC || ciphertext;
 * - the passkey: `passkey_credential_id_hash` is, despite its name, the credential id itself (base64), and
 *   `passkey_public_key` the credential's public key as PEM (SubjectPublicKeyInfo: ES256 on P-256 or RS256), which
 *   becomes the COSE key that WebAuthn libraries verify assertions with.
 */
import crypto from 'node:crypto';
import { xsalsa20poly1305 } from '@noble/ciphers/salsa.js';
import { normalizeBase32 } from '../../platform/auth/totp.js';
import { ImportRefused } from '../refused.js';

const NONCE_BYTES = 24;
const MAC_BYTES = 16;

/** The key of `--crypt-key`: Maho's 64 hexadecimal characters. */
export function parseCryptKey(hex: string): Uint8Array {
  const v = hex.trim();
  if (!/^[0-9a-fA-F]{64}$/.test(v))
    throw new ImportRefused(
      "--crypt-key is the 64 hexadecimal characters of the shop's app/etc/local.xml <crypt><key> (a Maho key; Magento 1 and OpenMage keep no staff 2FA secrets)",
    );
  return new Uint8Array(Buffer.from(v, 'hex'));
}

/** What Maho's encrypt() wrote, opened with its key; undefined when it is not such a value or the key does not open it. */
export function openMahoEncrypted(key: Uint8Array, data: string): Uint8Array | undefined {
  const v = data.trim();
  if (!/^[A-Za-z0-9+/]+={0,2}$/.test(v) || v.length % 4 !== 0) return undefined;
  const raw = Buffer.from(v, 'base64');
  if (raw.length < NONCE_BYTES + MAC_BYTES) return undefined;
  try {
    return xsalsa20poly1305(key, raw.subarray(0, NONCE_BYTES)).decrypt(raw.subarray(NONCE_BYTES));
  } catch {
    return undefined;
  }
}

/** A Maho staff user's TOTP secret (base32, normalized); undefined when the key does not open it or it is not base32. */
export function mahoTotpSecret(key: Uint8Array, data: string): string | undefined {
  const plain = openMahoEncrypted(key, data);
  if (!plain) return undefined;
  const text = Buffer.from(plain).toString('utf8');
  return normalizeBase32(text);
}

// ---- passkeys ----

/** CBOR (RFC 8949) of a map with integer keys and integer or byte-string values: a COSE key. */
function cborMap(entries: [number, number | Uint8Array][]): Buffer {
  const head = (major: number, n: number): Buffer => {
    if (n < 24) return Buffer.from([(major << 5) | n]);
    if (n < 0x100) return Buffer.from([(major << 5) | 24, n]);
    if (n < 0x10000) return Buffer.from([(major << 5) | 25, n >> 8, n & 0xff]);
    throw new Error('value too long for a COSE key');
  };
  const int = (n: number) => (n >= 0 ? head(0, n) : head(1, -1 - n));
  const parts: Buffer[] = [head(5, entries.length)];
  for (const [k, v] of entries) parts.push(int(k), typeof v === 'number' ? int(v) : Buffer.concat([head(2, v.length), v]));
  return Buffer.concat(parts);
}

const b64url = (s: string | undefined) => new Uint8Array(Buffer.from(s ?? '', 'base64url'));

/** The COSE key (RFC 9053) of a PEM public key: EC2 P-256 for ES256, RSA for RS256, OKP Ed25519 for EdDSA. */
export function coseKeyOfPem(pem: string): Buffer | undefined {
  let jwk: crypto.JsonWebKey;
  try {
    jwk = crypto.createPublicKey({ key: pem, format: 'pem' }).export({ format: 'jwk' });
  } catch {
    return undefined;
  }
  if (jwk.kty === 'EC' && jwk.crv === 'P-256') {
    const [x, y] = [b64url(jwk.x), b64url(jwk.y)];
    if (x.length !== 32 || y.length !== 32) return undefined;
    return cborMap([
      [1, 2],
      [3, -7],
      [-1, 1],
      [-2, x],
      [-3, y],
    ]);
  }
  if (jwk.kty === 'RSA') {
    return cborMap([
      [1, 3],
      [3, -257],
      [-1, b64url(jwk.n)],
      [-2, b64url(jwk.e)],
    ]);
  }
  if (jwk.kty === 'OKP' && jwk.crv === 'Ed25519') {
    return cborMap([
      [1, 1],
      [3, -8],
      [-1, 6],
      [-2, b64url(jwk.x)],
    ]);
  }
  return undefined;
}

export interface ImportedPasskey {
  /** base64url, as our passkeys keep it */
  credentialId: string;
  /** the COSE key, base64url */
  publicKey: string;
}

/** A Maho staff user's passkey in our form; undefined when either part is missing or unreadable. */
export function mahoPasskey(credentialIdBase64: string, publicKeyPem: string): ImportedPasskey | undefined {
  const id = credentialIdBase64.trim();
  if (!/^[A-Za-z0-9+/]+={0,2}$/.test(id)) return undefined;
  const raw = Buffer.from(id, 'base64');
  if (raw.length < 1 || raw.length > 1023) return undefined;
  const cose = coseKeyOfPem(publicKeyPem);
  if (!cose) return undefined;
  return { credentialId: raw.toString('base64url'), publicKey: cose.toString('base64url') };
}
