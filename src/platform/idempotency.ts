/**
 * X-Idempotency-Key on POST/PUT/PATCH by authenticated callers: the first 2xx reply is stored for 24 hours
 * and replayed verbatim (with `X-Idempotency-Replayed: true`) for the same key, path and method; a retry
 * while the first request runs gets 409. The record lives in the database, so this holds across processes.
 * MCP tool calls keep their keys in the same records (`claimIdempotencyKey`, `settleIdempotencyKey`).
 */
import { and, eq, lt, sql } from 'drizzle-orm';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Actor } from './context.js';
import type { Db } from './db.js';
import { AppError, conflict } from './errors.js';
import { idempotencyKeys } from './tables.js';

/** the REST API's path prefix (app.ts registers the routes under it) */
const REST_PREFIX = '/api/rest/v2/';
export const IDEMPOTENCY_KEY_RE = /^[A-Za-z0-9_-]{1,255}$/;
const TTL_MS = 24 * 3600 * 1000;
/** A first request that has not finished after this long is presumed dead and may be taken over. */
const STALE_MS = 60 * 1000;

export interface IdemRecord {
  scope: string;
  key: string;
  method: string;
  path: string;
}

/** What a first success left behind, replayed for each retry with its key. */
export interface StoredReply {
  status: number;
  body: string;
  contentType: string | null;
}

declare module 'fastify' {
  interface FastifyRequest {
    idempotency?: IdemRecord;
  }
}

/** The caller a record belongs to; undefined for an anonymous caller, whose key REST ignores. */
export function actorScope(a: Actor | undefined): string | undefined {
  if (!a || a.kind === 'anonymous') return undefined;
  return a.kind === 'customer' ? `customer:${a.customerId}` : `${a.principal}:${a.id}`;
}

function matching(rec: IdemRecord) {
  return and(
    eq(idempotencyKeys.scope, rec.scope),
    eq(idempotencyKeys.key, rec.key),
    eq(idempotencyKeys.method, rec.method),
    eq(idempotencyKeys.path, rec.path),
  );
}

/**
 * Takes the key for a first attempt (answers undefined: go on, then `settleIdempotencyKey`), or answers the reply
 * a first success stored; throws 409 while the first attempt is still running.
 */
export async function claimIdempotencyKey(db: Db, rec: IdemRecord): Promise<StoredReply | undefined> {
  const match = matching(rec);
  // Two tries: a record can vanish between our insert and our read (its first request failed with a 4xx).
  for (let attempt = 0; attempt < 2; attempt++) {
    // an expired record, or a first attempt that died, no longer holds the key
    await db
      .delete(idempotencyKeys)
      .where(
        and(
          match,
          sql`(${idempotencyKeys.expiresAt} < now() OR (${idempotencyKeys.status} IS NULL AND ${idempotencyKeys.createdAt} < now() - make_interval(secs => ${STALE_MS / 1000})))`,
        ),
      );
    const inserted = await db
      .insert(idempotencyKeys)
      .values({ ...rec, expiresAt: sql`now() + make_interval(secs => ${TTL_MS / 1000})` })
      .onConflictDoNothing()
      .returning({ key: idempotencyKeys.key });
    if (inserted.length) return undefined;
    const [existing] = await db.select().from(idempotencyKeys).where(match);
    if (!existing) continue;
    if (existing.status === null) break;
    return { status: existing.status, body: existing.body ?? '', contentType: existing.contentType };
  }
  throw conflict('A request with this idempotency key is still being processed', { reason: 'IDEMPOTENCY_IN_FLIGHT' });
}

/** Stores a first attempt's success for its retries, or, when it failed (`reply` undefined), frees the key. */
export async function settleIdempotencyKey(db: Db, rec: IdemRecord, reply: StoredReply | undefined): Promise<void> {
  if (reply) await db.update(idempotencyKeys).set(reply).where(matching(rec));
  else await db.delete(idempotencyKeys).where(matching(rec));
}

export function installIdempotency(app: FastifyInstance, db: Db): void {
  app.decorateRequest('idempotency', undefined);

  app.addHook('preHandler', async (req: FastifyRequest, reply: FastifyReply) => {
    if (!req.routeOptions.config.access) return;
    if (req.method !== 'POST' && req.method !== 'PUT' && req.method !== 'PATCH') return;
    const raw = req.headers['x-idempotency-key'];
    if (raw === undefined) return;
    const path = req.url.split('?')[0];
    // REST only (GraphQL and SOAP have their own semantics; MCP tools claim keys themselves), and never the token endpoints
    if (!path.startsWith(REST_PREFIX) || path.startsWith(`${REST_PREFIX}auth/`)) return;
    const key = Array.isArray(raw) ? raw[0] : raw;
    if (!IDEMPOTENCY_KEY_RE.test(key)) {
      throw new AppError('bad_request', 'X-Idempotency-Key must be 1 to 255 characters of A-Z, a-z, 0-9, _ and -', {
        reason: 'INVALID_IDEMPOTENCY_KEY',
      });
    }
    const scope = actorScope(req.ctx?.actor);
    if (!scope) return;
    const rec: IdemRecord = { scope, key, method: req.method, path };
    const stored = await claimIdempotencyKey(db, rec);
    if (!stored) {
      req.idempotency = rec;
      return;
    }
    reply.code(stored.status).header('x-idempotency-replayed', 'true');
    if (stored.contentType) reply.header('content-type', stored.contentType);
    return reply.send(stored.body);
  });

  app.addHook('onSend', async (req: FastifyRequest, reply: FastifyReply, payload: unknown) => {
    const rec = req.idempotency;
    if (!rec) return payload;
    req.idempotency = undefined;
    try {
      const ok =
        reply.statusCode >= 200 && reply.statusCode < 300 && (typeof payload === 'string' || payload === undefined || payload === null);
      await settleIdempotencyKey(
        db,
        rec,
        ok ? { status: reply.statusCode, body: (payload as string | undefined) ?? '', contentType: contentTypeOf(reply) } : undefined,
      );
    } catch (err) {
      req.log.error({ err }, 'could not record idempotency result');
    }
    return payload;
  });
}

function contentTypeOf(reply: FastifyReply): string | null {
  const ct = reply.getHeader('content-type');
  return ct === undefined ? null : String(ct);
}

/** Removes expired records; run periodically. */
export async function purgeIdempotency(db: Db): Promise<void> {
  await db.delete(idempotencyKeys).where(lt(idempotencyKeys.expiresAt, new Date()));
}
