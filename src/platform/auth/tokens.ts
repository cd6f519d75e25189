/**
 * JWT access tokens: HS256, claims as the wire reference lays them out (iss, aud, jti, sub, iat, nbf, exp,
 * plus the subject's own claims). No refresh tokens: a still-valid token is exchanged for a new one.
 */
import crypto from 'node:crypto';
import { SignJWT, errors as joseErrors, jwtVerify, type JWTPayload } from 'jose';
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
  email?: string;
  username?: string;
  roles: string[];
  permissions?: string[];
  allowed_store_ids?: number[];
}

export interface IssuedToken {
  token: string;
  jti: string;
  expiresIn: number;
  exp: number;
}

export interface TokenService {
  readonly ttlSeconds: number;
  issue(claims: Omit<TokenClaims, 'jti' | 'exp' | 'iat' | 'nbf' | 'iss' | 'aud'>, now?: Date): Promise<IssuedToken>;
  verify(token: string): Promise<TokenClaims>;
}

export const AUDIENCE = 'maho-api';

export function createTokenService(opts: { secret: string; issuer: string; ttlSeconds: number }): TokenService {
  const key = new TextEncoder().encode(opts.secret);
  const authError = (message: string) =>
    new AppError('authentication_error', message, { reason: 'INVALID_TOKEN', headers: { 'www-authenticate': 'Bearer' } });

  return {
    ttlSeconds: opts.ttlSeconds,
    async issue(claims, now = new Date()) {
      const iat = Math.floor(now.getTime() / 1000);
      const exp = iat + opts.ttlSeconds;
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
        .sign(key);
      return { token, jti, expiresIn: opts.ttlSeconds, exp };
    },
    async verify(token) {
      if (!/^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+$/.test(token)) throw authError('Malformed token');
      try {
        const { payload } = await jwtVerify(token, key, {
          issuer: opts.issuer,
          audience: AUDIENCE,
          algorithms: ['HS256'],
          requiredClaims: ['sub', 'jti', 'exp', 'iat', 'nbf'],
        });
        const p = payload as TokenClaims;
        if (p.type !== 'customer' && p.type !== 'api_user') throw authError('Invalid or expired token');
        return p;
      } catch (err) {
        if (err instanceof AppError) throw err;
        if (err instanceof joseErrors.JWTExpired) throw authError('Token has expired');
        throw authError('Invalid or expired token');
      }
    },
  };
}
