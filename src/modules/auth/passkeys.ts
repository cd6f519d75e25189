/**
 * Passkeys (WebAuthn) of staff users: the challenges this server issues (one-time, in the database so that any
 * process can finish a ceremony another began), the registration of credentials, and the check of an assertion
 * at sign-in (`verifyStaffPasskey`). A user may keep several passkeys. The relying party (id and origins) comes
 * from configuration, by default the server's public URL.
 */
import crypto from 'node:crypto';
import {
  generateAuthenticationOptions,
  generateRegistrationOptions,
  verifyAuthenticationResponse,
  verifyRegistrationResponse,
  type AuthenticationResponseJSON,
  type PublicKeyCredentialCreationOptionsJSON,
  type PublicKeyCredentialRequestOptionsJSON,
  type RegistrationResponseJSON,
} from '@simplewebauthn/server';
import { and, asc, count, eq, lt, sql } from 'drizzle-orm';
import type { Ctx } from '../../platform/context.js';
import { AppError, badRequest, conflict, notFound } from '../../platform/errors.js';
import { configuredRule } from '../../platform/rate-limit.js';
import { declareConfig } from '../../platform/settings.js';
import { wireDateTime } from '../../platform/format.js';
import { adminPasskeys, adminUsers, adminWebauthnChallenges } from './tables.js';

declareConfig({
  'admin/security/webauthn_rp_id': {
    type: 'string',
    default: '',
    label: 'Passkey Relying Party ID',
    comment: 'the host name passkeys are registered for (the origin host or a parent domain of it); empty: the host of the origin',
    pattern: /^([a-z0-9]([a-z0-9-]*[a-z0-9])?(\.[a-z0-9]([a-z0-9-]*[a-z0-9])?)*)?$/i,
    scopes: ['default'],
  },
  'admin/security/webauthn_origin': {
    type: 'string',
    default: '',
    label: 'Passkey Origins',
    comment:
      'the origins (comma-separated, as https://admin.example.com) the back office runs passkey ceremonies on; empty: the public URL',
    pattern: /^(https?:\/\/[^\s,/]+\/?(\s*,\s*https?:\/\/[^\s,/]+\/?)*)?$/,
    scopes: ['default'],
  },
  'admin/security/webauthn_rp_name': {
    type: 'string',
    default: '',
    label: 'Passkey Relying Party Name',
    comment: 'the name authenticators show for the back office; empty: the relying party ID',
    scopes: ['default'],
  },
  'api/rate_limit/passkey_options': {
    type: 'integer',
    default: 30,
    label: 'Passkey Sign-in Options',
    comment: 'passkey sign-in options a client address may ask for, per minute; 0: no limit',
    min: 0,
    scopes: ['default'],
  },
});

/** how long a ceremony may take, from its options to the answer */
const CHALLENGE_TTL_MS = 5 * 60_000;
const TIMEOUT_MS = 60_000;
/** passkeys one staff user may keep */
export const MAX_PASSKEYS_PER_USER = 20;
/** ES256, RS256, EdDSA */
const ALGORITHMS = [-7, -257, -8];

export type ChallengePurpose = 'register' | 'authenticate';

export interface RelyingParty {
  id: string;
  name: string;
  origins: string[];
}

/** The origin (scheme, host, port) of an http(s) URL; undefined for anything else. */
function originOf(url: string): string | undefined {
  try {
    const u = new URL(url);
    return u.protocol === 'https:' || u.protocol === 'http:' ? u.origin : undefined;
  } catch {
    return undefined;
  }
}

/** The relying party of the back office: the configured one, else the server's public URL's origin and host. */
export function relyingParty(ctx: Ctx): RelyingParty {
  const settings = ctx.app.settings;
  let origins = settings.getList('admin/security/webauthn_origin').flatMap((o) => originOf(o) ?? []);
  if (!origins.length) origins = [originOf(ctx.app.config.publicUrl ?? settings.baseUrl()) ?? 'http://localhost'];
  const id = settings.get('admin/security/webauthn_rp_id')?.trim().toLowerCase() || new URL(origins[0]).hostname;
  const name = settings.get('admin/security/webauthn_rp_name')?.trim() || id;
  return { id, name, origins };
}

const twofaInvalid = () => new AppError('unauthorized', 'The passkey could not be verified', { error: 'twofa_invalid' });
const registrationInvalid = (message = 'The passkey registration could not be verified') =>
  badRequest(message, { error: 'passkey_invalid' });

/** A stable, opaque WebAuthn user handle for a staff user: no name or address, and the same on every process. */
export function userHandle(userId: number): Uint8Array<ArrayBuffer> {
  return new Uint8Array(crypto.createHash('sha256').update(`admin_user:${userId}`).digest());
}

// ---- challenges ----

async function issueChallenge(ctx: Ctx, purpose: ChallengePurpose, userId: number | null): Promise<Uint8Array<ArrayBuffer>> {
  const bytes = new Uint8Array(crypto.randomBytes(32));
  await ctx.db.delete(adminWebauthnChallenges).where(lt(adminWebauthnChallenges.expiresAt, ctx.now));
  await ctx.db.insert(adminWebauthnChallenges).values({
    challenge: Buffer.from(bytes).toString('base64url'),
    purpose,
    userId,
    expiresAt: new Date(ctx.now.getTime() + CHALLENGE_TTL_MS),
  });
  return bytes;
}

/**
 * Takes a challenge out of the table: of two uses (a replay, or two requests at once) one finds it. It runs
 * outside the caller's transaction, so that a challenge stays used even when the sign-in around it fails.
 */
async function consumeChallenge(ctx: Ctx, challenge: string, purpose: ChallengePurpose): Promise<{ userId: number | null } | undefined> {
  const [row] = await ctx.app
    .outsideTx(ctx)
    .delete(adminWebauthnChallenges)
    .where(and(eq(adminWebauthnChallenges.challenge, challenge), eq(adminWebauthnChallenges.purpose, purpose)))
    .returning({ userId: adminWebauthnChallenges.userId, expiresAt: adminWebauthnChallenges.expiresAt });
  if (!row || row.expiresAt.getTime() <= ctx.now.getTime()) return undefined;
  return { userId: row.userId };
}

const BASE64URL = /^[A-Za-z0-9_-]+={0,2}$/;

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function b64url(v: unknown, max: number): v is string {
  return typeof v === 'string' && v.length > 0 && v.length <= max && BASE64URL.test(v);
}

/** The challenge a client answered, read from its clientDataJSON; undefined when that is not readable. */
function answeredChallenge(clientDataJSON: string): string | undefined {
  try {
    const data: unknown = JSON.parse(Buffer.from(clientDataJSON, 'base64url').toString('utf8'));
    if (!isObject(data) || !b64url(data.challenge, 512)) return undefined;
    return data.challenge;
  } catch {
    return undefined;
  }
}

/** The parts of an assertion (`navigator.credentials.get()` as JSON) the check reads; undefined when malformed. */
function asAssertion(v: unknown): AuthenticationResponseJSON | undefined {
  if (!isObject(v) || !isObject(v.response) || v.type !== 'public-key') return undefined;
  const r = v.response;
  if (!b64url(v.id, 1400) || (v.rawId !== undefined && v.rawId !== v.id)) return undefined;
  if (!b64url(r.clientDataJSON, 8192) || !b64url(r.authenticatorData, 8192) || !b64url(r.signature, 2048)) return undefined;
  if (r.userHandle !== undefined && r.userHandle !== null && !b64url(r.userHandle, 128)) return undefined;
  return {
    id: v.id,
    rawId: v.id,
    type: 'public-key',
    response: {
      clientDataJSON: r.clientDataJSON,
      authenticatorData: r.authenticatorData,
      signature: r.signature,
      ...(typeof r.userHandle === 'string' ? { userHandle: r.userHandle } : {}),
    },
    clientExtensionResults: {},
  };
}

// ---- sign-in ----

/**
 * Checks a staff user's passkey assertion (as `@simplewebauthn/browser` sends it): a challenge this server issued
 * and nobody used, consumed here; a registered credential (of `userId` when given, and of the user the challenge
 * was issued for, if any) of an active user; the configured relying party id and origins; user verification; a
 * signature counter that moved forward (or stays 0 on authenticators that keep none). Records the use and answers
 * the user's id; any failure is a 401 `twofa_invalid`.
 */
export async function verifyStaffPasskey(ctx: Ctx, assertion: unknown, userId?: number): Promise<number> {
  const response = asAssertion(assertion);
  if (!response) throw twofaInvalid();
  const challenge = answeredChallenge(response.response.clientDataJSON);
  if (!challenge) throw twofaInvalid();
  const issued = await consumeChallenge(ctx, challenge, 'authenticate');
  if (!issued) throw twofaInvalid();
  const [cred] = await ctx.db
    .select({
      id: adminPasskeys.id,
      userId: adminPasskeys.userId,
      publicKey: adminPasskeys.publicKey,
      signCount: adminPasskeys.signCount,
      transports: adminPasskeys.transports,
      isActive: adminUsers.isActive,
    })
    .from(adminPasskeys)
    .innerJoin(adminUsers, eq(adminUsers.id, adminPasskeys.userId))
    .where(eq(adminPasskeys.credentialId, response.id));
  if (!cred || !cred.isActive) throw twofaInvalid();
  if (userId !== undefined && cred.userId !== userId) throw twofaInvalid();
  if (issued.userId !== null && issued.userId !== cred.userId) throw twofaInvalid();
  const rp = relyingParty(ctx);
  let newCounter: number;
  try {
    const result = await verifyAuthenticationResponse({
      response,
      expectedChallenge: challenge,
      expectedOrigin: rp.origins,
      expectedRPID: rp.id,
      expectedType: 'webauthn.get',
      requireUserVerification: true,
      credential: {
        id: response.id,
        publicKey: new Uint8Array(Buffer.from(cred.publicKey, 'base64url')),
        counter: cred.signCount,
        transports: cred.transports ?? undefined,
      },
    });
    if (!result.verified || !result.authenticationInfo.userVerified) throw twofaInvalid();
    newCounter = result.authenticationInfo.newCounter;
  } catch (err) {
    ctx.log.info({ err: err instanceof Error ? err.message : err, passkey: cred.id }, 'passkey assertion refused');
    throw twofaInvalid();
  }
  // guarded by the counter: of two assertions with the same counter, only one is recorded
  const updated = await ctx.db
    .update(adminPasskeys)
    .set({ signCount: newCounter, lastUsedAt: ctx.now })
    .where(
      and(
        eq(adminPasskeys.id, cred.id),
        sql`(${adminPasskeys.signCount} < ${newCounter} OR (${adminPasskeys.signCount} = 0 AND ${newCounter} = 0))`,
      ),
    )
    .returning({ id: adminPasskeys.id });
  if (!updated.length) throw twofaInvalid();
  return cred.userId;
}

/** Whether a staff user has registered a passkey (a second factor the sign-in may ask for). */
export async function hasStaffPasskeys(ctx: Ctx, userId: number): Promise<boolean> {
  const [row] = await ctx.db.select({ n: count() }).from(adminPasskeys).where(eq(adminPasskeys.userId, userId));
  return Number(row?.n ?? 0) > 0;
}

/** A credential id that stands in for the passkeys of a name that has none, the same for that name every time. */
function decoyCredentialId(ctx: Ctx, username: string): string {
  const key = crypto.hkdfSync('sha256', ctx.app.config.jwtSecret, 'commerce-api', 'passkey decoys', 32);
  return crypto.createHmac('sha256', Buffer.from(key)).update(username).digest('base64url');
}

/**
 * Options of a passkey sign-in (`navigator.credentials.get()`): with a user name, its passkeys as
 * allowCredentials; without one, none (a discoverable credential picks the user). A name that does not exist,
 * or has no passkey, is answered alike with a stand-in credential, so that names cannot be probed. Rate limited
 * per client address.
 */
export async function authenticationOptions(ctx: Ctx, username?: string): Promise<PublicKeyCredentialRequestOptionsJSON> {
  await ctx.app.limiter.consume(configuredRule(ctx.app.settings, 'passkey_options', 60), `ip:${ctx.ip}`);
  let userId: number | null = null;
  let allow: string[] = [];
  if (username) {
    const rows = await ctx.db
      .select({ userId: adminUsers.id, credentialId: adminPasskeys.credentialId })
      .from(adminUsers)
      .leftJoin(adminPasskeys, eq(adminPasskeys.userId, adminUsers.id))
      .where(and(eq(adminUsers.username, username), eq(adminUsers.isActive, true)))
      .orderBy(asc(adminPasskeys.id));
    userId = rows[0]?.userId ?? null;
    allow = rows.flatMap((r) => (r.credentialId ? [r.credentialId] : []));
    if (!allow.length) allow = [decoyCredentialId(ctx, username)];
  }
  const challenge = await issueChallenge(ctx, 'authenticate', userId);
  return generateAuthenticationOptions({
    rpID: relyingParty(ctx).id,
    challenge,
    timeout: TIMEOUT_MS,
    userVerification: 'required',
    allowCredentials: allow.map((id) => ({ id })),
  });
}

// ---- registration ----

/** Options to register a new passkey for a staff user (`navigator.credentials.create()`). */
export async function registrationOptions(ctx: Ctx, userId: number): Promise<PublicKeyCredentialCreationOptionsJSON> {
  const [user] = await ctx.db
    .select({ username: adminUsers.username, firstName: adminUsers.firstName, lastName: adminUsers.lastName })
    .from(adminUsers)
    .where(eq(adminUsers.id, userId));
  if (!user) throw notFound('Staff user not found');
  const existing = await ctx.db
    .select({ credentialId: adminPasskeys.credentialId, transports: adminPasskeys.transports })
    .from(adminPasskeys)
    .where(eq(adminPasskeys.userId, userId))
    .orderBy(asc(adminPasskeys.id));
  if (existing.length >= MAX_PASSKEYS_PER_USER) throw conflict(`A staff user may keep at most ${MAX_PASSKEYS_PER_USER} passkeys`);
  const rp = relyingParty(ctx);
  const challenge = await issueChallenge(ctx, 'register', userId);
  return generateRegistrationOptions({
    rpName: rp.name,
    rpID: rp.id,
    userName: user.username,
    userID: userHandle(userId),
    userDisplayName: `${user.firstName} ${user.lastName}`.trim() || user.username,
    challenge,
    timeout: TIMEOUT_MS,
    attestationType: 'none',
    excludeCredentials: existing.map((c) => ({ id: c.credentialId, transports: c.transports ?? undefined })),
    authenticatorSelection: { residentKey: 'preferred', userVerification: 'required' },
    supportedAlgorithmIDs: ALGORITHMS,
  });
}

export interface PasskeyDto {
  id: number;
  name: string;
  createdAt: string;
  lastUsedAt?: string;
  transports?: string[];
}

type PasskeyRow = Pick<typeof adminPasskeys.$inferSelect, 'id' | 'name' | 'createdAt' | 'lastUsedAt' | 'transports'>;

function passkeyDto(r: PasskeyRow): PasskeyDto {
  return {
    id: r.id,
    name: r.name,
    createdAt: wireDateTime(r.createdAt) ?? '',
    ...(r.lastUsedAt ? { lastUsedAt: wireDateTime(r.lastUsedAt) } : {}),
    ...(r.transports?.length ? { transports: r.transports } : {}),
  };
}

const TRANSPORTS = new Set(['ble', 'cable', 'hybrid', 'internal', 'nfc', 'smart-card', 'usb']);

/** The registration response of the browser (`navigator.credentials.create()` as JSON); undefined when malformed. */
function asRegistration(v: unknown): RegistrationResponseJSON | undefined {
  if (!isObject(v) || !isObject(v.response) || v.type !== 'public-key') return undefined;
  const r = v.response;
  if (!b64url(v.id, 1400) || (v.rawId !== undefined && v.rawId !== v.id)) return undefined;
  if (!b64url(r.clientDataJSON, 8192) || !b64url(r.attestationObject, 16384)) return undefined;
  const transports = Array.isArray(r.transports) ? r.transports.filter((t): t is string => typeof t === 'string' && TRANSPORTS.has(t)) : [];
  return {
    id: v.id,
    rawId: v.id,
    type: 'public-key',
    response: { clientDataJSON: r.clientDataJSON, attestationObject: r.attestationObject, transports: transports as never },
    clientExtensionResults: {},
  };
}

/**
 * Registers a passkey for a staff user from the browser's answer to `registrationOptions`: the challenge issued
 * to this user (consumed), the relying party, user verification; the credential must not be registered yet.
 */
export async function registerPasskey(ctx: Ctx, userId: number, input: { name: string; response: unknown }): Promise<PasskeyDto> {
  const response = asRegistration(input.response);
  if (!response) throw registrationInvalid('response must be a WebAuthn registration response (navigator.credentials.create() as JSON)');
  const challenge = answeredChallenge(response.response.clientDataJSON);
  if (!challenge) throw registrationInvalid();
  const issued = await consumeChallenge(ctx, challenge, 'register');
  if (!issued || issued.userId !== userId) throw registrationInvalid();
  const rp = relyingParty(ctx);
  let credential: { id: string; publicKey: Uint8Array; counter: number };
  try {
    const result = await verifyRegistrationResponse({
      response,
      expectedChallenge: challenge,
      expectedOrigin: rp.origins,
      expectedRPID: rp.id,
      expectedType: 'webauthn.create',
      requireUserVerification: true,
      supportedAlgorithmIDs: ALGORITHMS,
    });
    if (!result.verified) throw registrationInvalid();
    credential = result.registrationInfo.credential;
  } catch (err) {
    ctx.log.info({ err: err instanceof Error ? err.message : err, userId }, 'passkey registration refused');
    throw registrationInvalid();
  }
  const [n] = await ctx.db.select({ n: count() }).from(adminPasskeys).where(eq(adminPasskeys.userId, userId));
  if (Number(n?.n ?? 0) >= MAX_PASSKEYS_PER_USER) throw conflict(`A staff user may keep at most ${MAX_PASSKEYS_PER_USER} passkeys`);
  const transports = response.response.transports?.length ? [...new Set(response.response.transports)] : null;
  const [row] = await ctx.db
    .insert(adminPasskeys)
    .values({
      userId,
      credentialId: credential.id,
      publicKey: Buffer.from(credential.publicKey).toString('base64url'),
      signCount: credential.counter,
      transports,
      name: input.name.trim(),
      createdAt: ctx.now,
    })
    .onConflictDoNothing({ target: adminPasskeys.credentialId })
    .returning();
  if (!row) throw conflict('This passkey is already registered', { error: 'passkey_exists' });
  return passkeyDto(row);
}

/** A staff user's passkeys, oldest first (never their keys). */
export async function listPasskeys(ctx: Ctx, userId: number): Promise<{ items: PasskeyDto[]; total: number }> {
  const rows = await ctx.db
    .select({
      id: adminPasskeys.id,
      name: adminPasskeys.name,
      createdAt: adminPasskeys.createdAt,
      lastUsedAt: adminPasskeys.lastUsedAt,
      transports: adminPasskeys.transports,
    })
    .from(adminPasskeys)
    .where(eq(adminPasskeys.userId, userId))
    .orderBy(asc(adminPasskeys.id));
  return { items: rows.map(passkeyDto), total: rows.length };
}

/** Removes one of a staff user's passkeys; another user's, or none, is a 404. */
export async function deletePasskey(ctx: Ctx, userId: number, passkeyId: number): Promise<void> {
  const gone = await ctx.db
    .delete(adminPasskeys)
    .where(and(eq(adminPasskeys.id, passkeyId), eq(adminPasskeys.userId, userId)))
    .returning({ id: adminPasskeys.id });
  if (!gone.length) throw notFound('Passkey not found');
}

/** A staff user by id, for the back-office operations on another user's passkeys (404 when there is none). */
export async function assertStaffUser(ctx: Ctx, userId: number): Promise<void> {
  const [u] = await ctx.db.select({ id: adminUsers.id }).from(adminUsers).where(eq(adminUsers.id, userId));
  if (!u) throw notFound('Staff user not found');
}
