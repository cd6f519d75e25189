/**
 * URL paths per store view. The module owning an entity (products, categories, CMS pages, blog posts) writes
 * the entity's paths here with `replaceEntityPaths`; the resolver turns a request path back into the entity.
 *
 * Paths are stored normalized: no leading or trailing slash, lower case. A path belongs to one entity per
 * store view. Whether an entity may be shown (a disabled product, an inactive category) is not known here:
 * its module registers a check with `registerResolverCheck`, asked for every hit of that entity type.
 */
import { and, eq, inArray, or, sql } from 'drizzle-orm';
import { withTx, type Ctx } from '../../platform/context.js';
import { statement } from '../../platform/db.js';
import { AppError, badRequest, conflict, fromDatabaseError } from '../../platform/errors.js';
import { urlRewrites } from './tables.js';

export type UrlEntityType = 'product' | 'category' | 'cms_page' | 'blog_post';
export const URL_ENTITY_TYPES: readonly UrlEntityType[] = ['product', 'category', 'cms_page', 'blog_post'];

/** What a path leads to, as the wire shows it. */
export interface ResolvedUrl {
  type: UrlEntityType | 'redirect';
  id?: number;
  identifier?: string;
  redirectUrl?: string;
  /** 301 or 302 for redirects, else 0 */
  redirectType: number;
}

/**
 * Whether the entity may be shown to the caller of `ctx` in its store view; a number instead names the entity
 * of the same type the path leads to (a product that is only sold as a variant leads to its parent).
 */
export type ResolverCheck = (ctx: Ctx, id: number) => Promise<boolean | number>;

const checks = new Map<UrlEntityType, ResolverCheck>();

/**
 * Registers the visibility check of an entity type (one per type; a later registration replaces the earlier).
 * Without a check, every entity of the type with a path resolves.
 */
export function registerResolverCheck(entityType: UrlEntityType, fn: ResolverCheck): void {
  if (!URL_ENTITY_TYPES.includes(entityType)) throw new Error(`Unknown URL entity type: ${String(entityType)}`);
  checks.set(entityType, fn);
}

/** Longest stored or resolved path. */
export const MAX_PATH_LENGTH = 255;
const CONTROL = /[\u0000-\u001f\u007f]/;
const INT_MAX = 2147483647;

/** A path as stored: trimmed, no leading or trailing slash, no empty segments, lower case. */
export function normalizeRequestPath(path: string): string {
  return path
    .trim()
    .replace(/\/{2,}/g, '/')
    .replace(/^\/+|\/+$/g, '')
    .toLowerCase();
}

function suffix(ctx: Ctx, configPath: string): string {
  const raw = (ctx.app.settings.get(configPath, ctx.store.storeId) ?? '').trim();
  if (!raw) return '';
  return raw.startsWith('.') ? raw : `.${raw}`;
}

function entityLabel(type: string, id: number | null): string {
  const name = type === 'cms_page' ? 'CMS page' : type === 'blog_post' ? 'blog post' : type;
  return id === null ? name : `${name} ${id}`;
}

function checkEntity(entityType: UrlEntityType, entityId: number): void {
  if (!URL_ENTITY_TYPES.includes(entityType)) throw badRequest(`Unknown URL entity type: ${String(entityType)}`, { reason: 'INVALID_ENTITY_TYPE' });
  if (!Number.isInteger(entityId) || entityId < 1 || entityId > INT_MAX) {
    throw badRequest(`Invalid entity id: ${String(entityId)}`, { reason: 'INVALID_ENTITY_ID' });
  }
}

interface WantedPath {
  storeId: number;
  requestPath: string;
}

function cleanPaths(paths: readonly { storeId: number; requestPath: string }[]): WantedPath[] {
  const seen = new Set<string>();
  const out: WantedPath[] = [];
  for (const p of paths) {
    if (!Number.isInteger(p.storeId) || p.storeId < 0 || p.storeId > INT_MAX) {
      throw badRequest(`Invalid store id for a URL path: ${String(p.storeId)}`, { reason: 'INVALID_URL_PATH' });
    }
    const requestPath = normalizeRequestPath(String(p.requestPath ?? ''));
    if (!requestPath) throw badRequest('A URL path must not be empty', { reason: 'INVALID_URL_PATH', details: { field: 'urlKey' } });
    if (requestPath.length > MAX_PATH_LENGTH) {
      throw badRequest(`The URL path "${requestPath.slice(0, 60)}..." is longer than ${MAX_PATH_LENGTH} characters`, {
        reason: 'INVALID_URL_PATH',
        details: { field: 'urlKey', requestPath, maxLength: MAX_PATH_LENGTH },
      });
    }
    if (CONTROL.test(requestPath)) {
      throw badRequest('A URL path must not contain control characters', { reason: 'INVALID_URL_PATH', details: { field: 'urlKey' } });
    }
    const key = `${p.storeId}:${requestPath}`;
    if (seen.has(key)) continue;
    seen.add(key);
    out.push({ storeId: p.storeId, requestPath });
  }
  return out;
}

function pathTaken(path: WantedPath, holder: { entityType: string; entityId: number | null }, ctx: Ctx): AppError {
  const store = ctx.app.settings.store(path.storeId);
  return conflict(
    `The URL path "${path.requestPath}" is already used by ${entityLabel(holder.entityType, holder.entityId)} in store ${store?.code ?? path.storeId}`,
    {
      reason: 'URL_PATH_TAKEN',
      details: { field: 'urlKey', requestPath: path.requestPath, storeId: path.storeId, entityType: holder.entityType, entityId: holder.entityId },
    },
  );
}

/**
 * Makes `paths` the entity's only paths. A path another entity holds in the same store view is a 409 naming
 * the path (and nothing is changed); a plain redirect at that path gives way. Rows that stay are kept as
 * they are.
 */
export async function replaceEntityPaths(
  ctx: Ctx,
  entityType: UrlEntityType,
  entityId: number,
  paths: { storeId: number; requestPath: string }[],
): Promise<void> {
  await replaceEntityPathsMany(ctx, entityType, [{ entityId, paths }]);
}

/** Rows per statement in batched writes (well under PostgreSQL's limit of bound parameters). */
const CHUNK = 2000;

function chunks<T>(list: readonly T[], size = CHUNK): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < list.length; i += size) out.push(list.slice(i, i + size));
  return out;
}

const pathKey = (p: { storeId: number; requestPath: string }) => `${p.storeId}:${p.requestPath}`;

/**
 * `replaceEntityPaths` for several entities of one type at once (a moved category subtree, say), in a fixed
 * number of statements. A path may pass from one entity of the batch to another; a path claimed by two of
 * them, or held by an entity outside the batch, is a 409 and nothing is changed.
 */
export async function replaceEntityPathsMany(
  ctx: Ctx,
  entityType: UrlEntityType,
  entries: readonly { entityId: number; paths: readonly { storeId: number; requestPath: string }[] }[],
): Promise<void> {
  if (!entries.length) return;
  const wantedBy = new Map<number, WantedPath[]>();
  for (const e of entries) {
    checkEntity(entityType, e.entityId);
    wantedBy.set(e.entityId, cleanPaths(e.paths));
  }
  /** path key → the entity of the batch claiming it */
  const claimed = new Map<string, number>();
  const wanted: WantedPath[] = [];
  for (const [id, list] of wantedBy) {
    for (const p of list) {
      const other = claimed.get(pathKey(p));
      if (other !== undefined && other !== id) throw pathTaken(p, { entityType, entityId: other }, ctx);
      claimed.set(pathKey(p), id);
      wanted.push(p);
    }
  }
  await withTx(ctx, async (tx) => {
    const ids = [...wantedBy.keys()];
    const existing: (typeof urlRewrites.$inferSelect)[] = [];
    for (const part of chunks(ids)) {
      existing.push(...(await tx.db.select().from(urlRewrites).where(and(eq(urlRewrites.entityType, entityType), inArray(urlRewrites.entityId, part)))));
    }
    const drop: number[] = [];
    for (const part of chunks(wanted)) {
      // one JSON parameter rather than a list of row values, which the embedded database's parser recurses over
      const pairs = JSON.stringify(part.map((p) => ({ s: p.storeId, p: p.requestPath })));
      const held = await tx.db
        .select()
        .from(urlRewrites)
        .where(
          sql`(${urlRewrites.storeId}, ${urlRewrites.requestPath}) IN (SELECT x.s, x.p FROM jsonb_to_recordset(${pairs}::jsonb) AS x(s int, p text))`,
        );
      for (const row of held) {
        // held by an entity of the batch: kept, or given up by it below
        if (row.entityType === entityType && row.entityId !== null && wantedBy.has(row.entityId)) continue;
        if (row.entityType === 'redirect') {
          drop.push(row.id);
          continue;
        }
        throw pathTaken({ storeId: row.storeId, requestPath: row.requestPath }, row, tx);
      }
    }
    const keep = new Set<string>();
    for (const row of existing) {
      const plain = row.redirectType === 0 && row.targetPath === null;
      if (plain && claimed.get(pathKey(row)) === row.entityId && !keep.has(pathKey(row))) keep.add(pathKey(row));
      else drop.push(row.id);
    }
    for (const part of chunks(drop)) await tx.db.delete(urlRewrites).where(inArray(urlRewrites.id, part));
    const insert = wanted.filter((p) => !keep.has(pathKey(p)));
    if (!insert.length) return;
    try {
      // a savepoint, so that a concurrent claim of the same path is reported as a conflict
      await tx.db.transaction(async (sp) => {
        for (const part of chunks(insert)) {
          await sp
            .insert(urlRewrites)
            .values(part.map((p) => ({ storeId: p.storeId, requestPath: p.requestPath, entityType, entityId: claimed.get(pathKey(p))!, redirectType: 0 })));
        }
      });
    } catch (err) {
      if (fromDatabaseError(err)?.reason === 'DUPLICATE') {
        const holders = await tx.db
          .select()
          .from(urlRewrites)
          .where(or(...insert.slice(0, 500).map((p) => and(eq(urlRewrites.storeId, p.storeId), eq(urlRewrites.requestPath, p.requestPath)))));
        const other = holders.find((h) => !(h.entityType === entityType && h.entityId !== null && wantedBy.has(h.entityId)));
        if (other) throw pathTaken(other, other, tx);
        throw conflict('A URL path was claimed by another request at the same time; retry', { reason: 'URL_PATH_TAKEN' });
      }
      throw err;
    }
  });
}

/** Removes every path of the entity. */
export async function removeEntityPaths(ctx: Ctx, entityType: UrlEntityType, entityId: number): Promise<void> {
  checkEntity(entityType, entityId);
  await ctx.db.delete(urlRewrites).where(and(eq(urlRewrites.entityType, entityType), eq(urlRewrites.entityId, entityId)));
}

/** Removes every path of several entities of one type (a deleted category subtree, say). */
export async function removeEntityPathsMany(ctx: Ctx, entityType: UrlEntityType, entityIds: readonly number[]): Promise<void> {
  if (!entityIds.length) return;
  for (const id of entityIds) checkEntity(entityType, id);
  await ctx.db.delete(urlRewrites).where(and(eq(urlRewrites.entityType, entityType), inArray(urlRewrites.entityId, [...entityIds])));
}

/** The paths an entity holds, by store view (for reads that show them). */
export async function entityPaths(ctx: Ctx, entityType: UrlEntityType, entityId: number): Promise<{ storeId: number; requestPath: string }[]> {
  return ctx.db
    .select({ storeId: urlRewrites.storeId, requestPath: urlRewrites.requestPath })
    .from(urlRewrites)
    .where(and(eq(urlRewrites.entityType, entityType), eq(urlRewrites.entityId, entityId)))
    .orderBy(urlRewrites.storeId, urlRewrites.requestPath);
}

interface LookupRow {
  requestPath: string;
  entityType: string;
  entityId: number | null;
  targetPath: string | null;
  redirectType: number;
}

const lookup = statement<LookupRow>(
  'url_resolver.lookup',
  () => sql`SELECT request_path AS "requestPath", entity_type AS "entityType", entity_id AS "entityId",
      target_path AS "targetPath", redirect_type AS "redirectType"
    FROM url_rewrites
    WHERE store_id = ${sql.placeholder('storeId')}::int
      AND request_path IN (${sql.placeholder('p1')}::text, ${sql.placeholder('p2')}::text, ${sql.placeholder('p3')}::text)`,
);

/** The request path part of what a client sends: no query string or fragment. */
function pathPart(path: string): string {
  const cut = path.search(/[?#]/);
  return cut === -1 ? path : path.slice(0, cut);
}

/** What a stored row leads to, if the caller may see it. */
async function toResolved(ctx: Ctx, row: LookupRow): Promise<ResolvedUrl | undefined> {
  if (row.entityType === 'redirect' || (row.redirectType !== 0 && row.targetPath)) {
    if (!row.targetPath) return undefined;
    return { type: 'redirect', redirectUrl: row.targetPath, redirectType: row.redirectType || 301 };
  }
  const type = row.entityType as UrlEntityType;
  if (!URL_ENTITY_TYPES.includes(type) || row.entityId === null) return undefined;
  const check = checks.get(type);
  const verdict = check ? await check(ctx, row.entityId) : true;
  if (verdict === false) return undefined;
  const out: ResolvedUrl = { type, id: typeof verdict === 'number' ? verdict : row.entityId, redirectType: 0 };
  if (type === 'cms_page' || type === 'blog_post') out.identifier = row.requestPath;
  return out;
}

/**
 * Resolves a request path in the caller's store view: the exact path first, then with the product and the
 * category url suffix. A leading slash, a query string and case are ignored; an empty path is the home page.
 * Undefined when nothing (visible) is there. A path over 255 characters or with control characters is a 400.
 */
export async function resolvePath(ctx: Ctx, path: string): Promise<ResolvedUrl | undefined> {
  const raw = pathPart(path);
  if (raw.length > MAX_PATH_LENGTH) {
    throw badRequest(`path must be at most ${MAX_PATH_LENGTH} characters`, { reason: 'INVALID_PATH', details: { field: 'path', maxLength: MAX_PATH_LENGTH } });
  }
  if (CONTROL.test(raw)) {
    throw badRequest('path must not contain control characters', { reason: 'INVALID_PATH', details: { field: 'path' } });
  }
  const norm = normalizeRequestPath(raw);
  const storeId = ctx.store.storeId;
  if (!norm) return homePage(ctx);
  const candidates = [norm];
  for (const s of [suffix(ctx, 'catalog/seo/product_url_suffix'), suffix(ctx, 'catalog/seo/category_url_suffix')]) {
    if (s && !candidates.includes(norm + s)) candidates.push(norm + s);
  }
  const rows = await lookup.run(ctx.db, { storeId, p1: candidates[0], p2: candidates[1] ?? candidates[0], p3: candidates[2] ?? candidates[0] });
  rows.sort((a, b) => candidates.indexOf(a.requestPath) - candidates.indexOf(b.requestPath));
  for (const row of rows) {
    const hit = await toResolved(ctx, row);
    if (hit) return hit;
  }
  return undefined;
}

/** The store's home page (web/default/cms_home_page), with its id when the CMS page has a path here. */
async function homePage(ctx: Ctx): Promise<ResolvedUrl> {
  const identifier = (ctx.app.settings.get('web/default/cms_home_page', ctx.store.storeId) ?? '').trim() || 'home';
  const out: ResolvedUrl = { type: 'cms_page', identifier, redirectType: 0 };
  const key = normalizeRequestPath(identifier);
  if (!key || key.length > MAX_PATH_LENGTH || CONTROL.test(key)) return out;
  const rows = await lookup.run(ctx.db, { storeId: ctx.store.storeId, p1: key, p2: key, p3: key });
  const row = rows.find((r) => r.entityType === 'cms_page' && r.entityId !== null);
  if (row) {
    const check = checks.get('cms_page');
    const verdict = check ? await check(ctx, row.entityId!) : true;
    if (verdict !== false) out.id = typeof verdict === 'number' ? verdict : row.entityId!;
  }
  return out;
}
