/**
 * Sign-in with another provider's OpenID Connect ID token (Maho's social login, POST /customers/social-auth):
 * Google, Apple, Microsoft or one configured issuer (`oidc`). The token is verified with the provider's keys
 * (signature, issuer, audience = the configured client id, expiry, the nonce when one is given), then the customer
 * is found, linked or created by the customers module, and a customer token is issued as POST /auth/token does.
 *
 * Provider keys come from its JWKS URL, fetched by jose (timeout, per-process cache with a cooldown between
 * refreshes when an unknown key id appears). The fetch goes through the guarded remote fetch, which refuses
 * private and loopback addresses, unless `customer/social_login/allow_private_jwks_urls` is set: the URL is
 * operator configuration, and an identity provider inside the operator's own network is a legitimate setup (it
 * is how the tests serve their keys from 127.0.0.1).
 */
import crypto from 'node:crypto';
import { createRemoteJWKSet, customFetch, decodeJwt, errors, jwtVerify, type JWTPayload } from 'jose';
import type { Ctx } from '../../platform/context.js';
import { AppError, badRequest } from '../../platform/errors.js';
import { guardAttempt } from '../../platform/auth/attempts.js';
import { fetchRemoteFile } from '../../platform/remote-file.js';
import { declareConfig, declareConfigLabels, type ConfigSpec } from '../../platform/settings.js';
import { customerForSocialLogin, type SocialIdentity } from '../customers/social-logins.js';
import { issueForCustomer } from './service.js';
import type { SocialAuthBodyT, SocialAuthResponseT } from './social-schemas.js';

const PREFIX = 'customer/social_login';

/** What is known of each provider; the configured issuer and JWKS URL, when set, replace these. */
const PROVIDERS: Record<string, { issuers: string[]; jwksUrl: string }> = {
  google: { issuers: ['https://accounts.google.com', 'accounts.google.com'], jwksUrl: 'https://www.googleapis.com/oauth2/v3/certs' },
  apple: { issuers: ['https://appleid.apple.com'], jwksUrl: 'https://appleid.apple.com/auth/keys' },
  // {tenantid} stands for the token's tenant (`tid`), as multi-tenant applications check Microsoft's issuer
  microsoft: {
    issuers: ['https://login.microsoftonline.com/{tenantid}/v2.0'],
    jwksUrl: 'https://login.microsoftonline.com/common/discovery/v2.0/keys',
  },
  // any OpenID Connect issuer: its issuer and JWKS URL must be configured
  oidc: { issuers: [], jwksUrl: '' },
};

export const SOCIAL_PROVIDERS = Object.keys(PROVIDERS);

const LABELS: Record<string, string> = { google: 'Google', apple: 'Apple', microsoft: 'Microsoft', oidc: 'OpenID Connect Provider' };

declareConfigLabels({ 'customer/social_login': 'Social Login' });
declareConfig({
  ...Object.fromEntries(
    SOCIAL_PROVIDERS.flatMap((p): [string, ConfigSpec][] => [
      [`${PREFIX}/${p}_enabled`, { type: 'boolean', default: false, label: `${LABELS[p]}: Enabled` }],
      [
        `${PREFIX}/${p}_client_id`,
        {
          type: 'string',
          default: '',
          label: `${LABELS[p]}: Client ID`,
          comment: "the audience of the ID tokens (Google's client id, Apple's service id, ...)",
        },
      ],
      [`${PREFIX}/${p}_issuer`, { type: 'string', default: '', label: `${LABELS[p]}: Issuer`, comment: "blank: the provider's own" }],
      [`${PREFIX}/${p}_jwks_url`, { type: 'url', default: '', label: `${LABELS[p]}: JWKS URL`, comment: "blank: the provider's own" }],
    ]),
  ),
  [`${PREFIX}/allow_registration`]: {
    type: 'boolean',
    default: true,
    label: 'Allow Registration',
    comment: 'whether a sign-in with no matching customer creates one',
  },
  [`${PREFIX}/allow_private_jwks_urls`]: {
    type: 'boolean',
    default: false,
    label: 'Allow Private JWKS URLs',
    comment: "whether a JWKS URL may point to a private or loopback address (an identity provider in the operator's network)",
    scopes: ['default'],
  },
  [`${PREFIX}/jwks_cache_seconds`]: {
    type: 'integer',
    default: 600,
    label: 'Key Cache (seconds)',
    comment: "how long a provider's keys are kept before they are fetched again",
    min: 60,
    scopes: ['default'],
  },
});

const JWKS_TIMEOUT_MS = 5000;
const JWKS_MAX_BYTES = 256 * 1024;
const CLOCK_TOLERANCE_SECONDS = 60;

const invalidGrant = (message: string, reason = 'INVALID_ID_TOKEN') =>
  new AppError('unauthorized', message, { error: 'invalid_grant', reason });
const unavailable = () =>
  new AppError('service_unavailable', 'Sign-in verification is temporarily unavailable. Please try again later.', {
    error: 'temporarily_unavailable',
    reason: 'PROVIDER_UNAVAILABLE',
    headers: { 'retry-after': '30' },
  });

interface ProviderConfig {
  name: string;
  clientId: string;
  issuers: string[];
  jwksUrl: string;
  allowPrivate: boolean;
}

/** The provider's configuration in the request's store view; unknown, disabled or unconfigured: 400. */
function providerConfig(ctx: Ctx, name: string): ProviderConfig {
  const known = PROVIDERS[name];
  const s = ctx.app.settings;
  const storeId = ctx.store.storeId;
  const get = (key: string) => (s.get(`${PREFIX}/${name}_${key}`, storeId) ?? '').trim();
  if (!known || !s.getBool(`${PREFIX}/${name}_enabled`, storeId)) {
    throw badRequest('This sign-in method is not available', {
      error: 'invalid_request',
      reason: 'PROVIDER_NOT_AVAILABLE',
      details: { field: 'provider' },
    });
  }
  const clientId = get('client_id');
  const issuer = get('issuer');
  const jwksUrl = get('jwks_url') || known.jwksUrl;
  const issuers = issuer ? [issuer] : known.issuers;
  if (!clientId || !jwksUrl || !issuers.length) {
    ctx.log.warn({ provider: name }, 'social sign-in provider enabled without its client id, issuer or JWKS URL');
    throw badRequest('This sign-in method is not available', {
      error: 'invalid_request',
      reason: 'PROVIDER_NOT_CONFIGURED',
      details: { field: 'provider' },
    });
  }
  return { name, clientId, issuers, jwksUrl, allowPrivate: s.getBool(`${PREFIX}/allow_private_jwks_urls`, storeId) };
}

/** The guarded fetch as jose's fetch: size and time limits, private addresses refused unless allowed. */
function jwksFetch(allowPrivate: boolean) {
  return async (url: string): Promise<Response> => {
    const file = await fetchRemoteFile(url, {
      maxBytes: JWKS_MAX_BYTES,
      timeoutMs: JWKS_TIMEOUT_MS,
      allowPrivate,
      field: 'jwks_url',
      maxRedirects: 2,
    });
    return new Response(new Uint8Array(file.data), { status: 200, headers: { 'content-type': file.contentType ?? 'application/json' } });
  };
}

/**
 * One key set per URL (and fetch rule and cache age) per process: jose keeps the keys inside it. A changed URL is
 * a new entry; the few entries a shop has are dropped all at once past a bound.
 */
const keySets = new Map<string, ReturnType<typeof createRemoteJWKSet>>();

function keySet(ctx: Ctx, p: ProviderConfig) {
  const maxAge = Math.max(60, ctx.app.settings.getInt(`${PREFIX}/jwks_cache_seconds`)) * 1000;
  const key = `${p.allowPrivate ? 'p' : 'g'}|${maxAge}|${p.jwksUrl}`;
  let set = keySets.get(key);
  if (!set) {
    if (keySets.size >= 32) keySets.clear();
    set = createRemoteJWKSet(new URL(p.jwksUrl), {
      timeoutDuration: JWKS_TIMEOUT_MS,
      cooldownDuration: 30_000,
      cacheMaxAge: maxAge,
      [customFetch]: jwksFetch(p.allowPrivate),
    });
    keySets.set(key, set);
  }
  return set;
}

/** The issuers a token may name: `{tenantid}` becomes the token's own tenant (Microsoft). */
function issuersFor(p: ProviderConfig, unverified: JWTPayload): string[] {
  const tid = typeof unverified.tid === 'string' && /^[0-9a-f-]{36}$/i.test(unverified.tid) ? unverified.tid : undefined;
  return p.issuers.flatMap((i) => (i.includes('{tenantid}') ? (tid ? [i.replace('{tenantid}', tid)] : []) : [i]));
}

/** What went wrong with a token, in words a client can act on; a key fetch that failed is a 503. */
function tokenError(err: unknown): AppError {
  if (err instanceof AppError) return err;
  if (err instanceof errors.JWTExpired) return invalidGrant('The ID token has expired', 'ID_TOKEN_EXPIRED');
  if (err instanceof errors.JWTClaimValidationFailed) {
    if (err.claim === 'iss') return invalidGrant('The ID token was not issued by the configured issuer', 'ID_TOKEN_WRONG_ISSUER');
    if (err.claim === 'aud') return invalidGrant('The ID token was not issued for this shop (audience)', 'ID_TOKEN_WRONG_AUDIENCE');
    return invalidGrant(`The ID token's ${err.claim} claim is not valid`, 'ID_TOKEN_INVALID_CLAIM');
  }
  if (err instanceof errors.JWSSignatureVerificationFailed)
    return invalidGrant('The ID token signature is not valid', 'ID_TOKEN_BAD_SIGNATURE');
  if (err instanceof errors.JWKSNoMatchingKey)
    return invalidGrant('The ID token is signed with a key the provider does not publish', 'ID_TOKEN_UNKNOWN_KEY');
  if (err instanceof errors.JOSEAlgNotAllowed || err instanceof errors.JOSENotSupported) {
    return invalidGrant('The ID token is signed with an algorithm that is not accepted', 'ID_TOKEN_BAD_ALGORITHM');
  }
  if (err instanceof errors.JWSInvalid || err instanceof errors.JWTInvalid)
    return invalidGrant('The ID token is malformed', 'ID_TOKEN_MALFORMED');
  return unavailable();
}

const sameText = (a: string, b: string) => {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && crypto.timingSafeEqual(x, y);
};

const text = (v: unknown): string | undefined => (typeof v === 'string' && v.trim() ? v.trim() : undefined);

/** The verified identity of the token: signature, issuer, audience, expiry, nonce; its subject and email. */
async function verifiedIdentity(ctx: Ctx, p: ProviderConfig, token: string, nonce: string | undefined): Promise<SocialIdentity> {
  let unverified: JWTPayload;
  try {
    unverified = decodeJwt(token);
  } catch {
    throw invalidGrant('The ID token is malformed', 'ID_TOKEN_MALFORMED');
  }
  const issuer = issuersFor(p, unverified);
  if (!issuer.length) throw invalidGrant('The ID token was not issued by the configured issuer', 'ID_TOKEN_WRONG_ISSUER');
  let payload: JWTPayload;
  try {
    ({ payload } = await jwtVerify(token, keySet(ctx, p), {
      issuer,
      audience: p.clientId,
      algorithms: ['RS256', 'RS384', 'RS512', 'PS256', 'PS384', 'PS512', 'ES256', 'ES384', 'ES512', 'EdDSA'],
      requiredClaims: ['exp', 'sub'],
      clockTolerance: CLOCK_TOLERANCE_SECONDS,
      currentDate: ctx.now,
    }));
  } catch (err) {
    // an AppError here is the guarded fetch refusing the JWKS URL (a private address, a size or time limit)
    const e = err instanceof AppError ? unavailable() : tokenError(err);
    if (e.status >= 500) ctx.log.warn({ err, provider: p.name }, 'social sign-in: the provider keys could not be fetched');
    throw e;
  }
  if (nonce !== undefined && (typeof payload.nonce !== 'string' || !sameText(payload.nonce, nonce))) {
    throw invalidGrant('The ID token nonce does not match', 'ID_TOKEN_NONCE_MISMATCH');
  }
  const subject = text(payload.sub);
  if (!subject || subject.length > 255) throw invalidGrant('The ID token has no subject', 'ID_TOKEN_INVALID_CLAIM');
  const verified = payload.email_verified;
  return {
    provider: p.name,
    subject,
    email: text(payload.email),
    emailVerified: verified === true || verified === 'true',
    firstname: text(payload.given_name),
    lastname: text(payload.family_name),
  };
}

/** POST /customers/social-auth. */
export async function socialSignIn(ctx: Ctx, body: SocialAuthBodyT): Promise<SocialAuthResponseT> {
  const provider = body.provider.trim().toLowerCase();
  const token = (body.providerToken ?? body.idToken ?? '').trim();
  if (!token) {
    throw badRequest('provider and providerToken are required', {
      error: 'invalid_request',
      reason: 'MISSING_FIELDS',
      details: { field: 'providerToken' },
    });
  }
  const p = providerConfig(ctx, provider);
  const nonce = body.nonce ? body.nonce : undefined;
  // the account a failed attempt counts against: the subject the token claims (verified or not, the IP counts too)
  let claimed = 'malformed';
  try {
    claimed = String(decodeJwt(token).sub ?? 'none').slice(0, 255);
  } catch {
    // counted as malformed
  }
  let failure: AppError | undefined;
  const identity = await guardAttempt(
    ctx,
    `social:${provider}:${claimed}`,
    async () => {
      try {
        return await verifiedIdentity(ctx, p, token, nonce);
      } catch (err) {
        // a provider outage is not the caller's failed attempt
        if (err instanceof AppError && err.status >= 500) throw err;
        failure = tokenError(err);
        return undefined;
      }
    },
    () => failure ?? invalidGrant('Invalid authentication token'),
  );
  // Apple gives the names only once, to the app: the body may carry them for a new account
  const { customer, isNew } = await customerForSocialLogin(
    ctx,
    { ...identity, firstname: identity.firstname ?? text(body.firstName), lastname: identity.lastname ?? text(body.lastName) },
    { allowRegistration: ctx.app.settings.getBool(`${PREFIX}/allow_registration`, ctx.store.storeId) },
  );
  const issued = await issueForCustomer(ctx, customer);
  return { ...issued, provider, isNewCustomer: isNew };
}
