/**
 * X-Idempotency-Key on POST/PUT/PATCH by authenticated callers: the first 2xx reply is stored for 24 hours
 * and replayed verbatim (with `X-Idempotency-Replayed: true`) for the same key, path and method; a retry
 * while the first request runs gets 409. The record lives in the database, so this holds across processes.
 */
import { and, eq, lt, sql } from 'drizzle-orm';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Db } from './db.js';
import { AppError, conflict } from './errors.js';
import { idempotencyKeys } from './tables.js';

/** the REST API's path prefix (app.ts registers the routes under it) */
const REST_PREFIX = '/api/rest/v2/';
const KEY_RE = /^[A-Za-z0-9_-]{1,255}$/;
const TTL_MS = 24 * 3600 * 1000;
/** A first request that has not finished after this long is presumed dead and may be taken over. */
const STALE_MS = 60 * 1000;

interface IdemRecord {
  scope: string;
  key: string;
  method: string;
  path: string;
}

declare module 'fastify' {
  interface FastifyRequest {
    idempotency?: IdemRecord;
  }
}

function scopeOf(req: FastifyRequest): string | undefined {
  const a = req.ctx?.actor;
  if (!a || a.kind === 'anonymous') return undefined;
  return a.kind === 'customer' ? `customer:${a.customerId}` : `${a.principal}:${a.id}`;
}

export function installIdempotency(app: FastifyInstance, db: Db): void {
  app.decorateRequest('idempotency', undefined);

  app.addHook('preHandler', async (req: FastifyRequest, reply: FastifyReply) => {
    if (!req.routeOptions.config.access) return;
    if (req.method !== 'POST' && req.method !== 'PUT' && req.method !== 'PATCH') return;
    const raw = req.headers['x-idempotency-key'];
    if (raw === undefined) return;
    const path = req.url.split('?')[0];
    // REST only (GraphQL and SOAP have their own semantics), and never the token endpoints
    if (!path.startsWith(REST_PREFIX) || path.startsWith(`${REST_PREFIX}auth/`)) return;
    const key = Array.isArray(raw) ? raw[0] : raw;
    if (!KEY_RE.test(key)) {
      throw new AppError('bad_request', 'X-Idempotency-Key must be 1 to 255 characters of A-Z, a-z, 0-9, _ and -', {
        reason: 'INVALID_IDEMPOTENCY_KEY',
      });
    }
    const scope = scopeOf(req);
    if (!scope) return;
    const rec: IdemRecord = { scope, key, method: req.method, path };
    const match = and(
      eq(idempotencyKeys.scope, scope),
      eq(idempotencyKeys.key, key),
      eq(idempotencyKeys.method, rec.method),
      eq(idempotencyKeys.path, path),
    );
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
      if (inserted.length) {
        req.idempotency = rec;
        return;
      }
      const [existing] = await db.select().from(idempotencyKeys).where(match);
      if (!existing) continue;
      if (existing.status === null) break;
      reply.code(existing.status).header('x-idempotency-replayed', 'true');
      if (existing.contentType) reply.header('content-type', existing.contentType);
      return reply.send(existing.body ?? '');
    }
    throw conflict('A request with this idempotency key is still being processed', { reason: 'IDEMPOTENCY_IN_FLIGHT' });
  });

  app.addHook('onSend', async (req: FastifyRequest, reply: FastifyReply, payload: unknown) => {
    const rec = req.idempotency;
    if (!rec) return payload;
    req.idempotency = undefined;
    const match = and(
      eq(idempotencyKeys.scope, rec.scope),
      eq(idempotencyKeys.key, rec.key),
      eq(idempotencyKeys.method, rec.method),
      eq(idempotencyKeys.path, rec.path),
    );
    try {
      if (reply.statusCode >= 200 && reply.statusCode < 300 && (typeof payload === 'string' || payload === undefined || payload === null)) {
        await db
          .update(idempotencyKeys)
          .set({
            status: reply.statusCode,
            body: (payload as string | undefined) ?? '',
            contentType: contentTypeOf(reply),
          })
          .where(match);
      } else {
        await db.delete(idempotencyKeys).where(match);
      }
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
