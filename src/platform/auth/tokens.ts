/**
 * JWT access tokens: HS256, claims as the wire reference lays them out (iss, aud, jti, sub, iat, nbf, exp,
 * plus the subject's own claims). No refresh tokens: a still-valid token is exchanged for a new one, which
 * carries the login time (`auth_time`) of the first, so that a session has an absolute lifetime.
 */
import crypto from 'node:crypto';
import { SignJWT, type JWTPayload } from 'jose';
import { AppError } from '../errors.js';

export interface TokenClaims extends JWTPayload {
  sub: string;
  jti: string;
  exp: number;
  iat: number;
  type: 'customer' | 'api_user';
  customer_id?: number;
  api_user_id?: number;
  oauth_client_id?: number;
  admin_user_id?: number;
  email?: string;
  username?: string;
  roles: string[];
  permissions?: string[];
  allowed_store_ids?: number[];
  /** when the session began (seconds): the login, kept by every refresh */
  auth_time?: number;
}

export interface IssuedToken {
  token: string;
  jti: string;
  expiresIn: number;
  exp: number;
}

export interface TokenService {
  readonly ttlSeconds: number;
  /** `notAfter` (seconds): the token expires then at the latest (the end of its session) */
  issue(
    claims: Omit<TokenClaims, 'jti' | 'exp' | 'iat' | 'nbf' | 'iss' | 'aud'>,
    now?: Date,
    opts?: { notAfter?: number },
  ): Promise<IssuedToken>;
  verify(token: string): Promise<TokenClaims>;
}

export const AUDIENCE = 'maho-api';

function decodeSegment(segment: string): Record<string, unknown> | undefined {
  try {
    const value: unknown = JSON.parse(Buffer.from(segment, 'base64url').toString('utf8'));
    return value && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}

const isInt = (v: unknown): v is number => typeof v === 'number' && Number.isSafeInteger(v);

/** The registered claims every token of ours carries, with their types, issuer and audience. */
function validClaims(p: Partial<TokenClaims>, issuer: string): boolean {
  const aud = p.aud;
  return (
    typeof p.sub === 'string' &&
    typeof p.jti === 'string' &&
    isInt(p.exp) &&
    isInt(p.iat) &&
    isInt(p.nbf) &&
    p.iss === issuer &&
    (aud === AUDIENCE || (Array.isArray(aud) && aud.includes(AUDIENCE))) &&
    (p.type === 'customer' || p.type === 'api_user')
  );
}

export function createTokenService(opts: { secret: string; issuer: string; ttlSeconds: number }): TokenService {
  // jose signs (rare); every request verifies, so that is a synchronous HMAC on a key object made once,
  // a fraction of the cost of WebCrypto's asynchronous verify
  const hmacKey = crypto.createSecretKey(Buffer.from(opts.secret, 'utf8'));
  const keyReady = crypto.webcrypto.subtle.importKey('raw', Buffer.from(opts.secret, 'utf8'), { name: 'HMAC', hash: 'SHA-256' }, false, [
    'sign',
  ]);
  const authError = (message: string) =>
    new AppError('authentication_error', message, { reason: 'INVALID_TOKEN', headers: { 'www-authenticate': 'Bearer' } });

  return {
    ttlSeconds: opts.ttlSeconds,
    async issue(claims, now = new Date(), limits = {}) {
      const iat = Math.floor(now.getTime() / 1000);
      const exp = Math.max(iat + 1, Math.min(iat + opts.ttlSeconds, limits.notAfter ?? Infinity));
      const jti = crypto.randomBytes(16).toString('hex');
      const token = await new SignJWT({ ...claims })
        .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
        .setIssuer(opts.issuer)
        .setAudience(AUDIENCE)
        .setJti(jti)
        .setSubject(String(claims.sub))
        .setIssuedAt(iat)
        .setNotBefore(iat)
        .setExpirationTime(exp)
        .sign(await keyReady);
      return { token, jti, expiresIn: exp - iat, exp };
    },
    async verify(token) {
      const parts = /^([A-Za-z0-9_-]+)\.([A-Za-z0-9_-]+)\.([A-Za-z0-9_-]+)$/.exec(token);
      if (!parts) throw authError('Malformed token');
      const [, head, body, signature] = parts;
      const header = decodeSegment(head);
      if (!header || header.alg !== 'HS256' || (header.typ !== undefined && header.typ !== 'JWT') || header.crit !== undefined) {
        throw authError('Invalid or expired token');
      }
      const expected = crypto.createHmac('sha256', hmacKey).update(`${head}.${body}`).digest();
      const given = Buffer.from(signature, 'base64url');
      if (given.length !== expected.length || !crypto.timingSafeEqual(given, expected)) throw authError('Invalid or expired token');
      const p = decodeSegment(body) as Partial<TokenClaims> | undefined;
      if (!p || !validClaims(p, opts.issuer)) throw authError('Invalid or expired token');
      const now = Math.floor(Date.now() / 1000);
      if (p.nbf! > now) throw authError('Invalid or expired token');
      if (p.exp! <= now) throw authError('Token has expired');
      return p as TokenClaims;
    },
  };
}
