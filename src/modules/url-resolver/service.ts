/**
 * URL paths per store view. The module owning an entity (products, categories, CMS pages, blog posts) writes
 * the entity's paths here with `replaceEntityPaths`; the resolver turns a request path back into the entity.
 *
 * Paths are stored normalized: no leading or trailing slash, lower case. A path belongs to one entity per
 * store view. Whether an entity may be shown (a disabled product, an inactive category) is not known here:
 * its module contributes a check (`AppModule.urlResolverChecks`, read as `ctx.app.urlResolverChecks`), asked for
 * every hit of that entity type.
 *
 * Three rules keep stored paths from going stale, so that nothing has to be registered again when store
 * config or the store views change:
 * - Url suffix. Paths of products and categories are stored without the url suffix of their type
 *   (`catalog/seo/product_url_suffix`, `catalog/seo/category_url_suffix`): a path given with the store view's
 *   current suffix has it removed. The resolver accepts a path with or without the suffix configured now for
 *   the entity type, so a changed suffix applies to every existing path at once. CMS pages, blog posts and
 *   manual redirects are stored and matched as given. Messages name paths as clients see them, with the suffix.
 * - Store views. A path is looked up in the request's store view, then in the default registrations: the
 *   default store view of its store group, of its website's default group, the default store view, then store
 *   0 (global rows). A row found in one of those counts only for an entity with no path of its own in a store
 *   view looked at before it (a store view's own url key hides the default one), and the entity's check still
 *   decides for the request's store view. So a store view added after the catalog was saved resolves it at once.
 * - History. When an entity gives up a path in a store view where it keeps another (a new url key, a moved
 *   category), the old row stays as a permanent redirect to the entity: the entity's type and id,
 *   redirect_type 301, no target_path. Its target is read at resolve time, the entity's current path there
 *   with the current suffix, so chains collapse by construction (A then B then C: A and B both lead to C) and
 *   a suffix change moves the targets too. A redirect gives way to any entity that claims its path, and goes
 *   with its entity (removeEntityPaths) and with a store view the entity leaves. A category move rewrites its
 *   subtree in one batch (`replaceEntityPathsMany`), so the redirects of the subtree are made set-based.
 *   Manual redirects (entity_type 'redirect' with a target_path) resolve to that target as stored.
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

/** Longest stored or resolved path. */
export const MAX_PATH_LENGTH = 255;
const CONTROL = /[\u0000-\u001f\u007f]/;
const INT_MAX = 2147483647;
/** The status of the redirects kept for old paths. */
const PERMANENT = 301;

/** A path as stored: trimmed, no leading or trailing slash, no empty segments, lower case. */
export function normalizeRequestPath(path: string): string {
  return path
    .trim()
    .replace(/\/{2,}/g, '/')
    .replace(/^\/+|\/+$/g, '')
    .toLowerCase();
}

/** The config path of the url suffix of each entity type that has one. */
const SUFFIX_CONFIG: Partial<Record<string, string>> = {
  product: 'catalog/seo/product_url_suffix',
  category: 'catalog/seo/category_url_suffix',
};

/** The url suffix of an entity type in a store view as configured now (`.html`, lower case), '' when none. */
export function urlSuffix(ctx: Ctx, entityType: string, storeId: number): string {
  const configPath = SUFFIX_CONFIG[entityType];
  if (!configPath) return '';
  const raw = (ctx.app.settings.get(configPath, storeId) ?? '').trim().toLowerCase();
  if (!raw) return '';
  return raw.startsWith('.') ? raw : `.${raw}`;
}

/** A normalized path without `suffix` at its end (unchanged when it does not end with it). */
function withoutSuffix(path: string, suffix: string): string {
  return suffix && path.length > suffix.length && path.endsWith(suffix) ? path.slice(0, -suffix.length) : path;
}

function entityLabel(type: string, id: number | null): string {
  const name = type === 'cms_page' ? 'CMS page' : type === 'blog_post' ? 'blog post' : type;
  return id === null ? name : `${name} ${id}`;
}

function checkEntity(entityType: UrlEntityType, entityId: number): void {
  if (!URL_ENTITY_TYPES.includes(entityType))
    throw badRequest(`Unknown URL entity type: ${String(entityType)}`, { reason: 'INVALID_ENTITY_TYPE' });
  if (!Number.isInteger(entityId) || entityId < 1 || entityId > INT_MAX) {
    throw badRequest(`Invalid entity id: ${String(entityId)}`, { reason: 'INVALID_ENTITY_ID' });
  }
}

interface WantedPath {
  storeId: number;
  /** as stored (products and categories: without the url suffix) */
  requestPath: string;
  /** as the caller gave it, normalized: what messages name */
  shown: string;
}

function cleanPaths(ctx: Ctx, entityType: UrlEntityType, paths: readonly { storeId: number; requestPath: string }[]): WantedPath[] {
  const seen = new Set<string>();
  const out: WantedPath[] = [];
  for (const p of paths) {
    if (!Number.isInteger(p.storeId) || p.storeId < 0 || p.storeId > INT_MAX) {
      throw badRequest(`Invalid store id for a URL path: ${String(p.storeId)}`, { reason: 'INVALID_URL_PATH' });
    }
    const shown = normalizeRequestPath(String(p.requestPath ?? ''));
    if (!shown) throw badRequest('A URL path must not be empty', { reason: 'INVALID_URL_PATH', details: { field: 'urlKey' } });
    if (shown.length > MAX_PATH_LENGTH) {
      throw badRequest(`The URL path "${shown.slice(0, 60)}..." is longer than ${MAX_PATH_LENGTH} characters`, {
        reason: 'INVALID_URL_PATH',
        details: { field: 'urlKey', requestPath: shown, maxLength: MAX_PATH_LENGTH },
      });
    }
    if (CONTROL.test(shown)) {
      throw badRequest('A URL path must not contain control characters', { reason: 'INVALID_URL_PATH', details: { field: 'urlKey' } });
    }
    const requestPath = withoutSuffix(shown, urlSuffix(ctx, entityType, p.storeId));
    const key = `${p.storeId}:${requestPath}`;
    if (seen.has(key)) continue;
    seen.add(key);
    out.push({ storeId: p.storeId, requestPath, shown });
  }
  return out;
}

function pathTaken(ctx: Ctx, path: { storeId: number; shown: string }, holder: { entityType: string; entityId: number | null }): AppError {
  const store = ctx.app.settings.store(path.storeId);
  return conflict(
    `The URL path "${path.shown}" is already used by ${entityLabel(holder.entityType, holder.entityId)} in store ${store?.code ?? path.storeId}`,
    {
      reason: 'URL_PATH_TAKEN',
      details: {
        field: 'urlKey',
        requestPath: path.shown,
        storeId: path.storeId,
        entityType: holder.entityType,
        entityId: holder.entityId,
      },
    },
  );
}

/**
 * Makes `paths` the entity's only paths. Products and categories may give them with or without the store
 * view's url suffix. A path another entity holds in the same store view is a 409 naming the path (and nothing
 * is changed); a redirect at that path gives way. A path the entity gives up in a store view where it keeps
 * another stays as a permanent redirect to it; rows that stay are kept as they are.
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
 * them, or held by an entity outside the batch, is a 409 and nothing is changed. The paths the entities give
 * up become redirects to them as `replaceEntityPaths` says, in the same statements.
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
    wantedBy.set(e.entityId, cleanPaths(ctx, entityType, e.paths));
  }
  /** path key → the entity of the batch claiming it */
  const claimed = new Map<string, number>();
  /** entity → store view → the paths it claims there */
  const claimedIn = new Map<number, Map<number, Set<string>>>();
  const wanted: WantedPath[] = [];
  const shownAt = new Map<string, string>();
  for (const [id, list] of wantedBy) {
    const byStore = new Map<number, Set<string>>();
    claimedIn.set(id, byStore);
    for (const p of list) {
      const other = claimed.get(pathKey(p));
      if (other !== undefined && other !== id) throw pathTaken(ctx, p, { entityType, entityId: other });
      claimed.set(pathKey(p), id);
      shownAt.set(pathKey(p), p.shown);
      wanted.push(p);
      const set = byStore.get(p.storeId) ?? new Set<string>();
      set.add(p.requestPath);
      byStore.set(p.storeId, set);
    }
  }
  await withTx(ctx, async (tx) => {
    const ids = [...wantedBy.keys()];
    const existing: (typeof urlRewrites.$inferSelect)[] = [];
    for (const part of chunks(ids)) {
      existing.push(
        ...(await tx.db
          .select()
          .from(urlRewrites)
          .where(and(eq(urlRewrites.entityType, entityType), inArray(urlRewrites.entityId, part)))),
      );
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
        // a redirect, whoever it leads to, gives way
        if (row.entityType === 'redirect' || row.redirectType !== 0) {
          drop.push(row.id);
          continue;
        }
        throw pathTaken(tx, { storeId: row.storeId, shown: shownAt.get(pathKey(row)) ?? row.requestPath }, row);
      }
    }
    const keep = new Set<string>();
    /** rows that become redirects to their entity, and redirects of an entity that claims their path again */
    const toRedirect: number[] = [];
    const toLive: number[] = [];
    for (const row of existing) {
      const key = pathKey(row);
      const id = row.entityId!;
      const live = row.redirectType === 0 && row.targetPath === null;
      const claimant = claimed.get(key);
      if (claimant === id && !keep.has(key)) {
        keep.add(key);
        if (!live) toLive.push(row.id);
        continue;
      }
      const stays = claimedIn.get(id)?.get(row.storeId);
      // given up in a store view where the entity keeps a path, and not claimed by another entity of the batch:
      // a redirect to the entity (a row stored with the suffix before suffixes were left out goes: its path is
      // the entity's current one)
      const legacy = stays?.has(withoutSuffix(row.requestPath, urlSuffix(tx, entityType, row.storeId))) ?? false;
      if (claimant === undefined && stays && stays.size && !legacy) {
        if (live) toRedirect.push(row.id);
        continue;
      }
      drop.push(row.id);
    }
    for (const part of chunks(drop)) await tx.db.delete(urlRewrites).where(inArray(urlRewrites.id, part));
    for (const part of chunks(toRedirect)) {
      await tx.db.update(urlRewrites).set({ redirectType: PERMANENT, targetPath: null }).where(inArray(urlRewrites.id, part));
    }
    for (const part of chunks(toLive)) {
      await tx.db.update(urlRewrites).set({ redirectType: 0, targetPath: null }).where(inArray(urlRewrites.id, part));
    }
    const insert = wanted.filter((p) => !keep.has(pathKey(p)));
    if (!insert.length) return;
    try {
      // a savepoint, so that a concurrent claim of the same path is reported as a conflict
      await tx.db.transaction(async (sp) => {
        for (const part of chunks(insert)) {
          await sp.insert(urlRewrites).values(
            part.map((p) => ({
              storeId: p.storeId,
              requestPath: p.requestPath,
              entityType,
              entityId: claimed.get(pathKey(p))!,
              redirectType: 0,
            })),
          );
        }
      });
    } catch (err) {
      if (fromDatabaseError(err)?.reason === 'DUPLICATE') {
        const holders = await tx.db
          .select()
          .from(urlRewrites)
          .where(
            or(...insert.slice(0, 500).map((p) => and(eq(urlRewrites.storeId, p.storeId), eq(urlRewrites.requestPath, p.requestPath)))),
          );
        const other = holders.find((h) => !(h.entityType === entityType && h.entityId !== null && wantedBy.has(h.entityId)));
        if (other) throw pathTaken(tx, { storeId: other.storeId, shown: shownAt.get(pathKey(other)) ?? other.requestPath }, other);
        throw conflict('A URL path was claimed by another request at the same time; retry', { reason: 'URL_PATH_TAKEN' });
      }
      throw err;
    }
  });
}

/** Removes every path of the entity, and the redirects to it. */
export async function removeEntityPaths(ctx: Ctx, entityType: UrlEntityType, entityId: number): Promise<void> {
  checkEntity(entityType, entityId);
  await ctx.db.delete(urlRewrites).where(and(eq(urlRewrites.entityType, entityType), eq(urlRewrites.entityId, entityId)));
}

/** Removes every path of several entities of one type (a deleted category subtree, say), and the redirects to them. */
export async function removeEntityPathsMany(ctx: Ctx, entityType: UrlEntityType, entityIds: readonly number[]): Promise<void> {
  if (!entityIds.length) return;
  for (const id of entityIds) checkEntity(entityType, id);
  await ctx.db.delete(urlRewrites).where(and(eq(urlRewrites.entityType, entityType), inArray(urlRewrites.entityId, [...entityIds])));
}

/**
 * The paths an entity holds (not its old paths kept as redirects), by store view, as stored: products and
 * categories without their url suffix.
 */
export async function entityPaths(
  ctx: Ctx,
  entityType: UrlEntityType,
  entityId: number,
): Promise<{ storeId: number; requestPath: string }[]> {
  return ctx.db
    .select({ storeId: urlRewrites.storeId, requestPath: urlRewrites.requestPath })
    .from(urlRewrites)
    .where(and(eq(urlRewrites.entityType, entityType), eq(urlRewrites.entityId, entityId), eq(urlRewrites.redirectType, 0)))
    .orderBy(urlRewrites.storeId, urlRewrites.requestPath);
}

interface LookupRow {
  requestPath: string;
  entityType: string;
  entityId: number | null;
  targetPath: string | null;
  redirectType: number;
  /** a redirect to an entity: the entity's current path (as stored) in the nearest store view that has one */
  livePath: string | null;
}

/**
 * Rows at up to three candidate paths (p1 of any type; p2 and p3 of type t2 and t3 only, '-' for none) in the
 * store views `stores`, nearest first. A row of a later store view counts only for an entity with no path in an
 * earlier one.
 */
const lookup = statement<LookupRow>(
  'url_resolver.lookup',
  () => sql`WITH st AS (SELECT s.id, s.ord FROM unnest(${sql.placeholder('stores')}::int[]) WITH ORDINALITY AS s(id, ord)),
      cand AS (SELECT * FROM (VALUES (${sql.placeholder('p1')}::text, ''::text, 1),
        (${sql.placeholder('p2')}::text, ${sql.placeholder('t2')}::text, 2),
        (${sql.placeholder('p3')}::text, ${sql.placeholder('t3')}::text, 3)) AS c(path, type, ord))
    SELECT r.request_path AS "requestPath", r.entity_type AS "entityType", r.entity_id AS "entityId",
      r.target_path AS "targetPath", r.redirect_type AS "redirectType",
      CASE WHEN r.redirect_type <> 0 AND r.target_path IS NULL AND r.entity_id IS NOT NULL THEN (
        SELECT l.request_path FROM url_rewrites l JOIN st ls ON ls.id = l.store_id
        WHERE l.entity_type = r.entity_type AND l.entity_id = r.entity_id AND l.redirect_type = 0
        ORDER BY ls.ord LIMIT 1) END AS "livePath"
    FROM st JOIN url_rewrites r ON r.store_id = st.id
      JOIN cand c ON r.request_path = c.path AND (c.type = '' OR c.type = r.entity_type)
    WHERE st.ord = 1 OR r.entity_id IS NULL OR r.entity_type = 'redirect' OR NOT EXISTS (
      SELECT 1 FROM url_rewrites o JOIN st so ON so.id = o.store_id
      WHERE so.ord < st.ord AND o.entity_type = r.entity_type AND o.entity_id = r.entity_id AND o.redirect_type = 0)
    ORDER BY st.ord, c.ord`,
);

/**
 * The store views a path is looked up in, nearest first: the request's, then the default store view of its
 * store group, of its website's default group, the default store view, and 0 (global rows).
 */
function lookupStores(ctx: Ctx): number[] {
  const r = ctx.app.settings;
  const out = [ctx.store.storeId];
  const add = (id: number | null | undefined) => {
    if (id && !out.includes(id) && r.store(id)) out.push(id);
  };
  const store = r.store(ctx.store.storeId);
  if (store) {
    add(r.group(store.groupId)?.defaultStoreId);
    const website = r.website(store.websiteId);
    add(website?.defaultGroupId ? r.group(website.defaultGroupId)?.defaultStoreId : undefined);
  }
  add(r.defaultStore.id);
  out.push(0);
  return out;
}

function runLookup(ctx: Ctx, p1: string, typed: { path: string; type: string }[] = []): Promise<LookupRow[]> {
  const [a, b] = typed;
  return lookup.run(ctx.db, {
    stores: `{${lookupStores(ctx).join(',')}}`,
    p1,
    p2: a?.path ?? p1,
    t2: a?.type ?? '-',
    p3: b?.path ?? p1,
    t3: b?.type ?? '-',
  });
}

/** The request path part of what a client sends: no query string or fragment. */
function pathPart(path: string): string {
  const cut = path.search(/[?#]/);
  return cut === -1 ? path : path.slice(0, cut);
}

/** What a stored row leads to, if the caller may see it. */
async function toResolved(ctx: Ctx, row: LookupRow): Promise<ResolvedUrl | undefined> {
  if (row.entityType === 'redirect') {
    if (!row.targetPath) return undefined;
    return { type: 'redirect', redirectUrl: row.targetPath, redirectType: row.redirectType || PERMANENT };
  }
  const type = row.entityType as UrlEntityType;
  if (!URL_ENTITY_TYPES.includes(type) || row.entityId === null) return undefined;
  // without a check, every entity of the type with a path resolves
  const check = ctx.app.urlResolverChecks.get(type);
  const verdict = check ? await check(ctx, row.entityId) : true;
  if (verdict === false) return undefined;
  if (row.redirectType !== 0) {
    // an old path of the entity: to where it is now
    const to = row.targetPath ?? (row.livePath === null ? null : `${row.livePath}${urlSuffix(ctx, type, ctx.store.storeId)}`);
    return to === null ? undefined : { type: 'redirect', redirectUrl: to, redirectType: row.redirectType };
  }
  const out: ResolvedUrl = { type, id: typeof verdict === 'number' ? verdict : row.entityId, redirectType: 0 };
  if (type === 'cms_page' || type === 'blog_post') out.identifier = row.requestPath;
  return out;
}

/**
 * Resolves a request path in the caller's store view (then in the default registrations, see the top of this
 * file): the path as given, then without the product url suffix (products only) and without the category url
 * suffix (categories only). A leading slash, a query string and case are ignored; an empty path is the home
 * page. Undefined when nothing (visible) is there. A path over 255 characters or with control characters is a 400.
 */
export async function resolvePath(ctx: Ctx, path: string): Promise<ResolvedUrl | undefined> {
  const raw = pathPart(path);
  if (raw.length > MAX_PATH_LENGTH) {
    throw badRequest(`path must be at most ${MAX_PATH_LENGTH} characters`, {
      reason: 'INVALID_PATH',
      details: { field: 'path', maxLength: MAX_PATH_LENGTH },
    });
  }
  if (CONTROL.test(raw)) {
    throw badRequest('path must not contain control characters', { reason: 'INVALID_PATH', details: { field: 'path' } });
  }
  const norm = normalizeRequestPath(raw);
  if (!norm) return homePage(ctx);
  const typed: { path: string; type: string }[] = [];
  for (const type of ['product', 'category']) {
    const stem = withoutSuffix(norm, urlSuffix(ctx, type, ctx.store.storeId));
    if (stem !== norm) typed.push({ path: stem, type });
  }
  for (const row of await runLookup(ctx, norm, typed)) {
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
  const rows = await runLookup(ctx, key);
  const row = rows.find((r) => r.entityType === 'cms_page' && r.entityId !== null && r.redirectType === 0);
  if (row) {
    const check = ctx.app.urlResolverChecks.get('cms_page');
    const verdict = check ? await check(ctx, row.entityId!) : true;
    if (verdict !== false) out.id = typeof verdict === 'number' ? verdict : row.entityId!;
  }
  return out;
}
