/**
 * The activity log: every back-office write (by an API user, OAuth client or staff user) that succeeded, with who
 * made it, the operation, the protocol, the path and resource it changed, the store view, the client address and
 * the fields sent (secrets redacted, large values cut). Old values are not kept: reading a row before each write
 * would double the cost of every write, and the rows of earlier writes of the same resource say what was sent then.
 *
 * One mechanism records all of it: `recordActivity` runs a write with a pending row on its context. When the write
 * opens a transaction (`withTx`), the row is written in it, just before the commit, so the two commit or roll back
 * together; a write without a transaction of its own gets its row once it succeeded. A write that fails records
 * nothing. The operation runtime (`runOperation`: REST, GraphQL and MCP) and the SOAP address API call it; the
 * plain REST routes (uploads) get the same through the hooks of `installActivityLog`. Reads cost nothing, a write
 * one INSERT.
 */
import { and, desc, eq, inArray, lt, sql, type SQL } from 'drizzle-orm';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Access } from './auth/access.js';
import { adminStoreScope, afterCommit, type ActivityRecorder, type Ctx } from './context.js';
import type { Db } from './db.js';
import { badRequest, notFound } from './errors.js';
import { isValidDate, wireDateTime } from './format.js';
import type { CollectionResult, Page } from './pagination.js';
import { declareConfig, type Settings } from './settings.js';
import { activityLog } from './tables.js';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** the id of the declared operation the route serves: recorded by `runOperation`, not by the plain-route hooks */
    operation?: string;
  }
}

export const ACTIVITY_RETENTION_PATH = 'admin/activity_log/retention_days';

declareConfig({
  [ACTIVITY_RETENTION_PATH]: {
    type: 'integer',
    default: 90,
    min: 0,
    label: 'Activity log retention (days)',
    comment: 'Rows of the back-office activity log older than this are deleted; 0 keeps them forever',
    scopes: ['default'],
  },
});

export type ActivityProtocol = 'rest' | 'graphql' | 'mcp' | 'soap';

/** What a write records besides who, when, where from and in which store view (taken from the context). */
export interface ActivityEntry {
  /** the operation id (`products.update`), or the legacy method of a SOAP call */
  operation: string;
  protocol: ActivityProtocol;
  method: string;
  /** the REST path under the API root the call stands for (`/products/5`); none for SOAP */
  path?: string;
  /** what it changes (`products`), and its id when known before the write */
  resource?: string;
  resourceId?: string | number;
  /** the fields sent (redacted and truncated here) */
  fields?: unknown;
  /** the id of what a create made, from the write's answer (or its transaction's) when `resourceId` is not known before */
  idOfResult?: boolean;
}

type AdminActor = Extract<Ctx['actor'], { kind: 'admin' }>;

/**
 * Whether a write with this method and access rule by the caller of `ctx` is recorded: a back-office principal's
 * change through an operation guarded by a back-office permission, or by any token (a staff user's own password,
 * two-factor or passkey change). Reads, the public and customer operations an admin token may also call (sign-in,
 * guest carts), and those a declaration opts out (`activity: false`: token refresh, logout) are not.
 */
export function recordsActivity(ctx: Ctx | undefined, method: string, rule: Access, activity?: false): boolean {
  if (activity === false || !ctx || ctx.actor.kind !== 'admin' || method === 'GET' || method === 'HEAD') return false;
  return rule.level === 'admin' || rule.level === 'customerOrAdmin' || rule.level === 'authenticated';
}

/** `/products/:id/media` with `{ id: 5 }` → `/products/5/media` */
export function fillPath(template: string, params: Record<string, unknown>): string {
  return template.replace(/:([A-Za-z0-9_]+)|\*$/g, (m, k: string | undefined) => {
    const v = params[k ?? '*'];
    return v === undefined || v === null ? m : k ? encodeURIComponent(String(v)) : String(v);
  });
}

/**
 * The entry of a declared operation's call: the resource is the path's first segment, its id the parameter right
 * after it (`/products/:productId/media` → products, the product's id), else, for a POST, the id of what it made.
 */
export function operationActivity(
  o: { id: string; method: string; path: string },
  input: { params?: unknown; body?: unknown },
  protocol: ActivityProtocol,
): ActivityEntry {
  const params = (input.params ?? {}) as Record<string, unknown>;
  const [resource, second] = o.path.split('/').filter(Boolean);
  const param = second?.startsWith(':') ? second.slice(1) : second === '*' ? '*' : undefined;
  const resourceId = param !== undefined ? params[param] : undefined;
  return {
    operation: o.id,
    protocol,
    method: o.method,
    path: fillPath(o.path, params),
    resource,
    ...(resourceId !== undefined && resourceId !== null ? { resourceId: String(resourceId) } : {}),
    fields: input.body,
    idOfResult: param === undefined && o.method === 'POST',
  };
}

// ---- the fields sent: secrets redacted, large values cut ----

export const REDACTED = '[redacted]';

/** Key names (lowercase, without `_` and `-`) that hold a secret wherever they appear in the name. */
const SECRET_PART =
  /(password|passwd|passphrase|secret|token|apikey|privatekey|signature|cardnumber|ccnumber|cvv|cvc|recoverycode|credential)/;
/** Key names that are a secret by themselves: a gift card or confirmation code, a one-time password. */
const SECRET_NAME = /^(key|code|codes|pin|cid|otp|totp|otpcode|totpcode|giftcardcode|verificationcode|resetcode|confirmationcode)$/;

export function isSecretKey(key: string): boolean {
  const k = key.toLowerCase().replace(/[_-]/g, '');
  return SECRET_PART.test(k) || SECRET_NAME.test(k);
}

/** Largest JSON of the fields of one row; beyond it values are cut harder, then only the names are kept. */
const FIELDS_MAX = 16_384;

interface Limits {
  text: number;
  items: number;
  depth: number;
}

function scrub(v: unknown, lim: Limits, depth: number): unknown {
  if (v === null || v === undefined || typeof v === 'boolean') return v ?? null;
  if (typeof v === 'number') return Number.isFinite(v) ? v : String(v);
  if (typeof v === 'bigint') return String(v);
  if (typeof v === 'string') return v.length > lim.text ? `${v.slice(0, lim.text)}… [${v.length} characters]` : v;
  if (Buffer.isBuffer(v) || v instanceof Uint8Array) return `[${v.byteLength} bytes]`;
  if (v instanceof Date) return wireDateTime(v) ?? null;
  if (depth >= lim.depth) return '[…]';
  if (Array.isArray(v)) {
    const kept = v.slice(0, lim.items).map((x) => scrub(x, lim, depth + 1));
    return v.length > lim.items ? [...kept, `… [${v.length - lim.items} more]`] : kept;
  }
  const entries = v instanceof Map ? [...v.entries()] : typeof v === 'object' ? Object.entries(v) : [];
  if (typeof v !== 'object') return String(v);
  const out: Record<string, unknown> = {};
  let n = 0;
  for (const [k, x] of entries) {
    if (x === undefined) continue;
    if (++n > lim.items) {
      out['…'] = `[${entries.length - lim.items} more fields]`;
      break;
    }
    out[String(k)] = isSecretKey(String(k)) ? REDACTED : scrub(x, lim, depth + 1);
  }
  return out;
}

/** The fields as the log keeps them: secrets `[redacted]` at any depth, long texts and lists cut, at most 16 KB. */
export function redactFields(fields: unknown): unknown {
  if (fields === undefined || fields === null) return null;
  let out = scrub(fields, { text: 1000, items: 100, depth: 8 }, 0);
  if (JSON.stringify(out).length <= FIELDS_MAX) return out;
  out = scrub(fields, { text: 100, items: 20, depth: 4 }, 0);
  if (JSON.stringify(out).length <= FIELDS_MAX) return out;
  if (out && typeof out === 'object' && !Array.isArray(out)) {
    return Object.fromEntries(Object.keys(out).map((k) => [k, isSecretKey(k) ? REDACTED : '[truncated]']));
  }
  return '[truncated]';
}

// ---- recording ----

/** The id of what a create made: a number or string `id` of its answer, or the answer itself when it is an integer (the new row's id). */
function idOf(value: unknown): string | undefined {
  if (typeof value === 'number' && Number.isInteger(value) && value > 0) return String(value);
  if (!value || typeof value !== 'object' || Array.isArray(value)) return undefined;
  const id = (value as { id?: unknown }).id;
  return typeof id === 'number' || (typeof id === 'string' && id !== '') ? String(id) : undefined;
}

class PendingActivity implements ActivityRecorder {
  /** the row was written in a transaction that committed, or after the write */
  private done = false;
  /** a transaction of the write is writing it (another one the write runs beside it leaves it alone) */
  private writing = false;
  constructor(
    private readonly actor: AdminActor,
    private readonly entry: ActivityEntry,
  ) {}

  async write(tx: Ctx, out?: unknown): Promise<void> {
    if (this.done || this.writing) return;
    this.writing = true;
    await this.insert(tx, out);
    // only a commit settles it: when the transaction rolls back yet the write succeeds, `finish` writes the row
    afterCommit(tx, () => (this.done = true));
  }

  /** After the write succeeded: its row, unless its transaction wrote it. A failure here cannot undo the write: it is logged. */
  async finish(ctx: Ctx, result?: unknown): Promise<void> {
    if (this.done) return;
    this.done = true;
    try {
      await this.insert(ctx, result);
    } catch (err) {
      ctx.log.error({ err, operation: this.entry.operation }, 'could not write the activity log row of a write');
    }
  }

  /** `result`: the write's answer, or what its transaction answered (the new row, or its id) */
  private async insert(ctx: Ctx, result: unknown): Promise<void> {
    const e = this.entry;
    const resourceId = e.resourceId !== undefined ? String(e.resourceId) : e.idOfResult ? idOf(result) : undefined;
    await ctx.db.insert(activityLog).values({
      principalType: this.actor.principal,
      principalId: this.actor.id,
      username: this.actor.username,
      operation: e.operation,
      protocol: e.protocol,
      method: e.method,
      path: e.path ?? null,
      resource: e.resource ?? null,
      resourceId: resourceId ?? null,
      storeId: ctx.store.storeId,
      ip: ctx.ip || null,
      fields: redactFields(e.fields),
    });
  }
}

/** The context of a write being recorded: its transaction (if it opens one) writes the row. Unchanged for others. */
export function startActivity(ctx: Ctx, entry: ActivityEntry): Ctx {
  if (ctx.actor.kind !== 'admin') return ctx;
  return { ...ctx, activity: new PendingActivity(ctx.actor, entry) };
}

/** After a write started with `startActivity` succeeded: its row, unless its transaction wrote it. */
export async function finishActivity(ctx: Ctx, result?: unknown): Promise<void> {
  if (ctx.activity instanceof PendingActivity) await ctx.activity.finish(ctx, result);
}

/**
 * Runs a back-office write and records it once: in the write's transaction when it opens one, else after it
 * succeeded; a write that throws records nothing. Only an admin principal's writes are recorded (the caller
 * decides which calls are writes; see `recordsActivity`).
 */
export async function recordActivity<T>(ctx: Ctx, entry: ActivityEntry, write: (ctx: Ctx) => Promise<T>): Promise<T> {
  const recorded = startActivity(ctx, entry);
  const result = await write(recorded);
  await finishActivity(recorded, result);
  return result;
}

/**
 * The plain REST routes that are no declaration (a multipart upload, a delete by raw path): a back-office write
 * through one gets its row as a declared operation does, from the route's operationId and the request.
 */
export function installActivityLog(app: FastifyInstance, apiPrefix: string): void {
  app.addHook('preHandler', async (req: FastifyRequest) => {
    const cfg = req.routeOptions.config;
    if (!cfg.access || cfg.operation || !recordsActivity(req.ctx, req.method, cfg.access)) return;
    const routeUrl = req.routeOptions.url ?? '';
    const path = routeUrl.startsWith(apiPrefix) ? routeUrl.slice(apiPrefix.length) : routeUrl;
    const schema = req.routeOptions.schema as { operationId?: string } | undefined;
    const body = req.body;
    const json =
      body !== null && typeof body === 'object' && !Buffer.isBuffer(body) && typeof (body as { pipe?: unknown }).pipe !== 'function';
    const length = Number(req.headers['content-length'] ?? 0);
    const entry = operationActivity(
      { id: schema?.operationId ?? `${req.method} ${path}`, method: req.method, path },
      { params: req.params },
      'rest',
    );
    entry.fields = json ? body : length ? { body: `${String(req.headers['content-type'] ?? 'unknown type')}, ${length} bytes` } : undefined;
    req.ctx = startActivity(req.ctx, entry);
  });
  app.addHook('onSend', async (req: FastifyRequest, reply: FastifyReply, payload: unknown) => {
    if (!req.ctx?.activity || reply.statusCode >= 400 || req.routeOptions.config.operation) return payload;
    await finishActivity(req.ctx, answerOf(payload));
    return payload;
  });
}

/** The JSON object a plain route answered (the item an upload made), for its id. */
function answerOf(payload: unknown): unknown {
  if (typeof payload !== 'string' || payload.length > 65_536 || !payload.startsWith('{')) return undefined;
  try {
    const body = JSON.parse(payload) as Record<string, unknown>;
    return body.id === undefined && typeof body.path === 'string' ? { id: body.path } : body;
  } catch {
    return undefined;
  }
}

// ---- reading ----

export interface ActivityDto {
  id: number;
  createdAt: string;
  principal: string;
  principalId: number;
  username: string;
  operation: string;
  protocol: string;
  method: string;
  path?: string;
  resource?: string;
  resourceId?: string;
  storeId?: number;
  ip?: string;
  fields?: unknown;
}

export interface ActivityFilters {
  principal?: string;
  principalId?: number;
  username?: string;
  operation?: string;
  protocol?: string;
  resource?: string;
  resourceId?: string;
  storeId?: number;
  from?: string;
  to?: string;
}

type Row = typeof activityLog.$inferSelect;

function activityDto(r: Row): ActivityDto {
  const dto: ActivityDto = {
    id: Number(r.id),
    createdAt: wireDateTime(r.createdAt)!,
    principal: r.principalType,
    principalId: r.principalId,
    username: r.username,
    operation: r.operation,
    protocol: r.protocol,
    method: r.method,
  };
  if (r.path !== null) dto.path = r.path;
  if (r.resource !== null) dto.resource = r.resource;
  if (r.resourceId !== null) dto.resourceId = r.resourceId;
  if (r.storeId !== null) dto.storeId = r.storeId;
  if (r.ip !== null) dto.ip = r.ip;
  if (r.fields !== null && r.fields !== undefined) dto.fields = r.fields;
  return dto;
}

/** A bound of `from` / `to`: a date (a bare date as `to` covers its day) or a date and time, UTC. */
function bound(field: 'from' | 'to', raw: string): SQL {
  const m = /^(\d{4}-\d{2}-\d{2})(?:[ T](\d{2}):(\d{2})(?::(\d{2}))?)?$/.exec(raw.trim());
  if (!m || !isValidDate(m[1]) || (m[2] !== undefined && (+m[2] > 23 || +m[3] > 59 || +(m[4] ?? 0) > 59))) {
    throw badRequest(`${field} must be a date YYYY-MM-DD or a date and time YYYY-MM-DD HH:MM:SS (UTC)`, {
      reason: 'VALIDATION_FAILED',
      details: { field, constraint: 'format' },
    });
  }
  const at = m[2] === undefined ? `${m[1]}T00:00:00Z` : `${m[1]}T${m[2]}:${m[3]}:${m[4] ?? '00'}Z`;
  if (field === 'from') return sql`${activityLog.createdAt} >= ${at}::timestamptz`;
  return m[2] === undefined
    ? sql`${activityLog.createdAt} < ${at}::timestamptz + interval '1 day'`
    : sql`${activityLog.createdAt} <= ${at}::timestamptz`;
}

function conditions(ctx: Ctx, q: ActivityFilters): SQL | undefined {
  const blank = (v: string | undefined): v is undefined => v === undefined || v.trim() === '';
  const scope = adminStoreScope(ctx);
  return and(
    scope ? inArray(activityLog.storeId, scope.length ? scope : [-1]) : undefined,
    blank(q.principal) ? undefined : eq(activityLog.principalType, q.principal),
    q.principalId === undefined ? undefined : eq(activityLog.principalId, q.principalId),
    blank(q.username) ? undefined : eq(activityLog.username, q.username),
    blank(q.operation) ? undefined : eq(activityLog.operation, q.operation),
    blank(q.protocol) ? undefined : eq(activityLog.protocol, q.protocol),
    blank(q.resource) ? undefined : eq(activityLog.resource, q.resource),
    blank(q.resourceId) ? undefined : eq(activityLog.resourceId, q.resourceId),
    q.storeId === undefined ? undefined : eq(activityLog.storeId, q.storeId),
    blank(q.from) ? undefined : bound('from', q.from),
    blank(q.to) ? undefined : bound('to', q.to),
  );
}

/**
 * A page of the log, newest first, in one statement (a second counts the rows only when a page past the end is
 * asked for). A principal limited to some store views sees the writes made in those.
 */
export async function listActivity(ctx: Ctx, q: ActivityFilters, page: Page): Promise<CollectionResult<ActivityDto>> {
  const where = conditions(ctx, q);
  const found = await ctx.db
    .select({ row: activityLog, total: sql<number>`count(*) OVER ()`.mapWith(Number) })
    .from(activityLog)
    .where(where)
    .orderBy(desc(activityLog.id))
    .limit(page.size)
    .offset(page.offset);
  let total = found[0]?.total;
  if (total === undefined) {
    total =
      page.offset === 0
        ? 0
        : ((
            await ctx.db
              .select({ n: sql<number>`count(*)`.mapWith(Number) })
              .from(activityLog)
              .where(where)
          )[0]?.n ?? 0);
  }
  return { items: found.map((f) => activityDto(f.row)), total };
}

export async function getActivity(ctx: Ctx, id: number): Promise<ActivityDto> {
  const scope = adminStoreScope(ctx);
  const [row] = await ctx.db
    .select()
    .from(activityLog)
    .where(and(eq(activityLog.id, id), scope ? inArray(activityLog.storeId, scope.length ? scope : [-1]) : undefined));
  if (!row) throw notFound('Activity log entry not found', { reason: 'ACTIVITY_NOT_FOUND' });
  return activityDto(row);
}

// ---- retention ----

const PURGE_BATCH = 5000;

/**
 * Deletes the rows older than `admin/activity_log/retention_days` (0: none), a batch at a time so that no
 * statement holds many rows locked; run by the app's janitor. Answers how many went.
 */
export async function purgeActivityLog(db: Db, settings: Settings, now = new Date()): Promise<number> {
  const days = settings.getInt(ACTIVITY_RETENTION_PATH);
  if (!Number.isFinite(days) || days <= 0) return 0;
  const cutoff = new Date(now.getTime() - days * 86_400_000);
  let total = 0;
  for (;;) {
    const batch = db.select({ id: activityLog.id }).from(activityLog).where(lt(activityLog.createdAt, cutoff)).limit(PURGE_BATCH);
    const gone = await db.delete(activityLog).where(inArray(activityLog.id, batch)).returning({ id: activityLog.id });
    total += gone.length;
    if (gone.length < PURGE_BATCH) return total;
  }
}
