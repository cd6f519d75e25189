/**
 * Category reads: the list (children of a category, or a name search) and one category with its active
 * children. Each is one prepared statement. Store-view values (`store_values[storeId]`) are read over the
 * default columns. Public callers see only active categories at or below their store's root category;
 * admins holding categories/read see every category, with the default values unless they name a store view.
 */
import { sql, type SQL } from 'drizzle-orm';
import type { Ctx } from '../../../platform/context.js';
import { hasPermission } from '../../../platform/auth/access.js';
import { statement } from '../../../platform/db.js';
import { notFound } from '../../../platform/errors.js';
import { compact, likeEscape, wireDateTime } from '../../../platform/format.js';
import { toWire } from '../../../platform/money.js';
import { ReadCache } from '../../../platform/read-cache.js';
import type { Page } from '../../../platform/pagination.js';
import type { CategoryDto, CategoryListQueryT, CategorySummaryDto } from './schemas.js';
import type { StoreValues } from '../tables.js';

/** The tree root (level 0); the store groups' root categories are its children. */
export const TREE_ROOT_ID = 1;
/** The root category of the default store group. */
export const DEFAULT_ROOT_ID = 2;

/** A category row as the read statements return it. */
export interface CategoryRecord {
  id: number;
  parentId: number | null;
  path: string;
  level: number;
  position: number;
  name: string;
  urlKey: string | null;
  urlPath: string | null;
  isActive: boolean;
  includeInMenu: boolean;
  isAnchor: boolean;
  description: string | null;
  image: string | null;
  displayMode: string | null;
  landingPageId: number | null;
  availableSortBy: string[] | null;
  defaultSortBy: string | null;
  metaTitle: string | null;
  metaKeywords: string | null;
  metaDescription: string | null;
  pageLayout: string | null;
  filterPriceRange: string | null;
  storeValues: StoreValues | null;
  createdAt: Date | string;
  updatedAt: Date | string;
  childrenIds: number[];
  productCount: number;
}

/** Admins holding categories/read see inactive categories and categories of every store. */
export function seesAllCategories(ctx: Ctx): boolean {
  return ctx.actor.kind === 'admin' && hasPermission(ctx.actor.permissions, 'categories', 'read');
}

/**
 * The store view whose values a read shows: the request's; for admins reading every category (the backend
 * view, and write replies) only a named one (?store=), else the default values (0: no store view), as for
 * products.
 */
export function viewStoreId(ctx: Ctx, all: boolean): number {
  return all && ctx.actor.kind === 'admin' && !ctx.store.explicit ? 0 : ctx.store.storeId;
}

/** The root category of a store view's store group. */
export function storeRootId(ctx: Ctx, storeId = ctx.store.storeId): number {
  const r = ctx.app.settings;
  const store = r.store(storeId);
  const group = store ? r.group(store.groupId) : undefined;
  return group?.rootCategoryId ?? DEFAULT_ROOT_ID;
}

/** The root categories of every store group known (through its store views and websites). */
export function storeRootIds(ctx: Ctx): Set<number> {
  const r = ctx.app.settings;
  const groupIds = new Set<number>();
  for (const s of r.allStores()) groupIds.add(s.groupId);
  for (const w of r.allWebsites()) if (w.defaultGroupId) groupIds.add(w.defaultGroupId);
  const out = new Set<number>();
  for (const id of groupIds) {
    const g = r.group(id);
    if (g) out.add(g.rootCategoryId);
  }
  return out;
}

/** Whether a category path ("1/2/5") is at or below the category `rootId`. */
export function pathWithin(path: string, rootId: number): boolean {
  return `/${path}/`.includes(`/${rootId}/`);
}

/** The values a store view set for itself. */
export function storeOwn(storeValues: StoreValues | null | undefined, storeId: number): Record<string, unknown> {
  return storeValues?.[String(storeId)] ?? {};
}

function pick<T>(own: Record<string, unknown>, key: string, fallback: T, valid: (v: unknown) => boolean): T {
  return Object.prototype.hasOwnProperty.call(own, key) && valid(own[key]) ? (own[key] as T) : fallback;
}
const isText = (v: unknown) => typeof v === 'string' || v === null;
const isBool = (v: unknown) => typeof v === 'boolean';
const isName = (v: unknown) => typeof v === 'string' && v !== '';

/** Whether the category is active in the store view. */
export function activeIn(r: { isActive: boolean; storeValues: StoreValues | null }, storeId: number): boolean {
  return pick(storeOwn(r.storeValues, storeId), 'isActive', r.isActive, isBool);
}

function mediaBase(ctx: Ctx): string {
  const r = ctx.app.settings;
  const configured = r.get('web/unsecure/base_media_url', ctx.store.storeId);
  const base = configured || `${r.baseUrl(ctx.store.storeId)}media/`;
  return base.endsWith('/') ? base : `${base}/`;
}

/** The wire shape of a category in the store view `storeId` (0: the default values). */
export function toCategoryDto(ctx: Ctx, r: CategoryRecord, storeId: number): CategorySummaryDto {
  const own = storeOwn(r.storeValues, storeId);
  const urlPath = typeof own.urlPath === 'string' ? own.urlPath : r.urlPath;
  return compact({
    id: r.id,
    parentId: r.parentId,
    name: pick(own, 'name', r.name, isName),
    description: pick(own, 'description', r.description, isText),
    urlKey: pick(own, 'urlKey', r.urlKey, isName),
    urlPath,
    image: r.image ? `${mediaBase(ctx)}catalog/category/${r.image}` : null,
    level: r.level,
    position: r.position,
    isActive: pick(own, 'isActive', r.isActive, isBool),
    includeInMenu: r.includeInMenu,
    isAnchor: r.isAnchor,
    availableSortBy: r.availableSortBy,
    defaultSortBy: r.defaultSortBy,
    landingPageId: r.landingPageId,
    childrenCount: r.childrenIds.length,
    productCount: r.productCount,
    childrenIds: r.childrenIds,
    path: r.path,
    displayMode: r.displayMode,
    metaTitle: pick(own, 'metaTitle', r.metaTitle, isText),
    metaKeywords: pick(own, 'metaKeywords', r.metaKeywords, isText),
    metaDescription: pick(own, 'metaDescription', r.metaDescription, isText),
    pageLayout: r.pageLayout,
    filterPriceRange: r.filterPriceRange === null ? null : toWire(r.filterPriceRange),
    createdAt: wireDateTime(r.createdAt) ?? '',
    updatedAt: wireDateTime(r.updatedAt) ?? '',
  }) as CategorySummaryDto;
}

// ---- statements ----

const p = (name: string) => sql.placeholder(name);

/** `alias` is active in the store view `sid`. */
const activeSql = (alias: string) =>
  sql`COALESCE((${sql.raw(alias)}.store_values -> ${p('sid')}::text ->> 'isActive')::boolean, ${sql.raw(alias)}.is_active)`;

const COLUMNS = sql`c.id, c.parent_id AS "parentId", c.path, c.level, c.position, c.name, c.url_key AS "urlKey",
  c.url_path AS "urlPath", c.is_active AS "isActive", c.include_in_menu AS "includeInMenu", c.is_anchor AS "isAnchor",
  c.description, c.image, c.display_mode AS "displayMode", c.landing_page_id AS "landingPageId",
  c.available_sort_by AS "availableSortBy", c.default_sort_by AS "defaultSortBy", c.meta_title AS "metaTitle",
  c.meta_keywords AS "metaKeywords", c.meta_description AS "metaDescription", c.page_layout AS "pageLayout",
  c.filter_price_range AS "filterPriceRange", c.store_values AS "storeValues", c.created_at AS "createdAt",
  c.updated_at AS "updatedAt",
  COALESCE((SELECT array_agg(ch.id ORDER BY ch.position, ch.id) FROM categories ch
    WHERE ch.parent_id = c.id AND (${p('all')}::boolean OR ${activeSql('ch')})), '{}'::int[]) AS "childrenIds",
  (SELECT count(*)::int FROM category_products cp WHERE cp.category_id = c.id) AS "productCount"`;

/** The category and its children: the category first, then the children in menu order. */
const itemStatement = statement<CategoryRecord>(
  'categories.item',
  () => sql`SELECT ${COLUMNS} FROM categories c
    WHERE c.id = ${p('id')}::int OR c.parent_id = ${p('id')}::int
    ORDER BY (c.id = ${p('id')}::int) DESC, c.position, c.id`,
);

/**
 * Which categories a list shows: the children of `parent`; else, with a search, any category; else the
 * children of the store root. Public callers: only active categories below the store root.
 */
const listWhere = (): SQL => sql`
  CASE WHEN ${p('parent')}::int IS NOT NULL THEN c.parent_id = ${p('parent')}::int
       WHEN ${p('q')}::text IS NOT NULL THEN true
       ELSE c.parent_id = ${p('root')}::int END
  AND (${p('q')}::text IS NULL OR COALESCE(c.store_values -> ${p('sid')}::text ->> 'name', c.name) ILIKE ${p('q')}::text)
  AND (${p('menu')}::boolean IS NULL OR c.include_in_menu = ${p('menu')}::boolean)
  AND (${p('all')}::boolean OR (${activeSql('c')} AND c.id <> ${p('root')}::int
       AND ('/' || c.path || '/') LIKE ('%/' || ${p('root')}::int::text || '/%')))`;

const listStatement = statement<CategoryRecord & { total: number }>(
  'categories.list',
  () => sql`SELECT ${COLUMNS}, count(*) OVER ()::int AS "total" FROM categories c WHERE ${listWhere()}
    ORDER BY c.position, c.id LIMIT ${p('limit')}::int OFFSET ${p('offset')}::int`,
);

/**
 * Every category below the store root, parents before children (by level, then in menu order). Public callers:
 * only the active ones whose every ancestor below the root is active too, those a walk from the root through
 * active children reaches.
 */
const treeStatement = statement<CategoryRecord>(
  'categories.tree',
  () => sql`SELECT ${COLUMNS} FROM categories c
    WHERE c.id <> ${p('root')}::int AND ('/' || c.path || '/') LIKE ('%/' || ${p('root')}::int::text || '/%')
    AND (${p('all')}::boolean OR NOT EXISTS (SELECT 1 FROM categories a
      WHERE a.id = ANY (string_to_array(c.path, '/')::int[]) AND a.id <> ${p('root')}::int
      AND ('/' || a.path || '/') LIKE ('%/' || ${p('root')}::int::text || '/%') AND NOT ${activeSql('a')}))
    ORDER BY c.level, c.position, c.id LIMIT ${p('limit')}::int`,
);

const countStatement = statement<{ total: number }>(
  'categories.count',
  () => sql`SELECT count(*)::int AS "total" FROM categories c WHERE ${listWhere()}`,
);

/** Categories whose url key (in the store view) is `key`, with the visibility rules and optional filters of the list. */
const urlKeyStatement = statement<CategoryRecord & { total: number }>(
  'categories.by_url_key',
  () => sql`SELECT ${COLUMNS}, count(*) OVER ()::int AS "total" FROM categories c
    WHERE lower(COALESCE(c.store_values -> ${p('sid')}::text ->> 'urlKey', c.url_key)) = ${p('key')}::text
    AND (${p('parent')}::int IS NULL OR c.parent_id = ${p('parent')}::int)
    AND (${p('menu')}::boolean IS NULL OR c.include_in_menu = ${p('menu')}::boolean)
    AND (${p('all')}::boolean OR (${activeSql('c')} AND c.id <> ${p('root')}::int
       AND ('/' || c.path || '/') LIKE ('%/' || ${p('root')}::int::text || '/%')))
    ORDER BY c.level, c.position, c.id LIMIT ${p('limit')}::int OFFSET ${p('offset')}::int`,
);

const visibleStatement = statement<{ path: string; active: boolean }>(
  'categories.visible',
  () => sql`SELECT c.path, ${activeSql('c')} AS "active" FROM categories c WHERE c.id = ${p('id')}::int`,
);

// ---- reads ----

function menuFlag(v: string | undefined): boolean | null {
  if (v === undefined) return null;
  return v === 'true' || v === '1';
}

/** One page of categories (see `listWhere`), in menu order. */
export async function listCategories(
  ctx: Ctx,
  query: CategoryListQueryT,
  page: Page,
): Promise<{ items: CategorySummaryDto[]; total: number }> {
  const search = (query.search ?? query.q ?? '').trim();
  const all = seesAllCategories(ctx);
  const sid = viewStoreId(ctx, all);
  const values = {
    sid: String(sid),
    root: storeRootId(ctx),
    all,
    parent: query.parentId ?? null,
    q: search ? `%${likeEscape(search)}%` : null,
    menu: menuFlag(query.includeInMenu),
    limit: page.size,
    offset: page.offset,
  };
  const load = async () => {
    const rows = await listStatement.run(ctx.db, values);
    let total = rows[0]?.total ?? 0;
    if (!rows.length && page.offset > 0) total = (await countStatement.run(ctx.db, values))[0]?.total ?? 0;
    return { items: rows.map((r) => toCategoryDto(ctx, r, sid)), total };
  };
  // the storefront's menu: what a public caller sees depends only on the catalog and these values, so it is
  // kept per process until the catalog changes (product counts are the costly part of the statement)
  if (all || ctx.tx) return load();
  const key = [
    ctx.store.storeId,
    values.sid,
    values.root,
    values.parent ?? '',
    values.q ?? '',
    values.menu ?? '',
    values.limit,
    values.offset,
  ].join('|');
  return listCache(ctx).get(ctx.db, key, load);
}

const listCache = (ctx: Ctx) =>
  ctx.app.settings.memo(
    'catalog.category-list',
    () => new ReadCache<{ items: CategorySummaryDto[]; total: number }>('catalog', 2_000, false),
  );

/** Most categories the tree answers; deeper than any real catalog is wide. */
const TREE_MAX = 10_000;

/**
 * The store's category tree in one statement, as a flat list in tree order (see `treeStatement`); kept per
 * process for public callers until the catalog changes, as the list is.
 */
export async function categoryTree(ctx: Ctx): Promise<{ items: CategorySummaryDto[]; total: number }> {
  const all = seesAllCategories(ctx);
  const sid = viewStoreId(ctx, all);
  const values = { sid: String(sid), root: storeRootId(ctx), all, limit: TREE_MAX };
  const load = async () => {
    const items = (await treeStatement.run(ctx.db, values)).map((r) => toCategoryDto(ctx, r, sid));
    return { items, total: items.length };
  };
  if (all || ctx.tx) return load();
  return listCache(ctx).get(ctx.db, ['tree', ctx.store.storeId, values.sid, values.root].join('|'), load);
}

/** The categories with url key `urlKey` in the store view (GraphQL's `categories(urlKey:)`), in tree order. */
export async function listCategoriesByUrlKey(
  ctx: Ctx,
  urlKey: string,
  query: CategoryListQueryT,
  page: Page,
): Promise<{ items: CategorySummaryDto[]; total: number }> {
  const all = seesAllCategories(ctx);
  const sid = viewStoreId(ctx, all);
  const rows = await urlKeyStatement.run(ctx.db, {
    sid: String(sid),
    key: urlKey.trim().toLowerCase(),
    root: storeRootId(ctx),
    all,
    parent: query.parentId ?? null,
    menu: menuFlag(query.includeInMenu),
    limit: page.size,
    offset: page.offset,
  });
  return { items: rows.map((r) => toCategoryDto(ctx, r, sid)), total: rows[0]?.total ?? 0 };
}

/**
 * One category with its active children. For public callers an inactive category, or one outside the
 * store's root category, is a 404. `all` reads as an admin would (write replies).
 */
export async function getCategory(ctx: Ctx, id: number, opts: { all?: boolean } = {}): Promise<CategoryDto> {
  const all = opts.all ?? seesAllCategories(ctx);
  const sid = viewStoreId(ctx, all);
  const rows = await itemStatement.run(ctx.db, { id, sid: String(sid), all });
  const row = rows[0];
  if (!row || row.id !== id || (!all && !(activeIn(row, sid) && pathWithin(row.path, storeRootId(ctx))))) {
    throw notFound(`Category not found: ${id}`, { reason: 'CATEGORY_NOT_FOUND' });
  }
  const children = rows.slice(1).filter((c) => activeIn(c, sid));
  return { ...toCategoryDto(ctx, row, sid), children: children.map((c) => toCategoryDto(ctx, c, sid)) };
}

/**
 * Whether the URL resolver may lead the caller to the category: it exists and, for public callers, is
 * active in the store view and below the store's root category.
 */
export async function categoryResolvable(ctx: Ctx, id: number): Promise<boolean> {
  const [row] = await visibleStatement.run(ctx.db, { id, sid: String(ctx.store.storeId) });
  if (!row) return false;
  if (seesAllCategories(ctx)) return true;
  const root = storeRootId(ctx);
  return row.active && id !== root && pathWithin(row.path, root);
}
