/**
 * Categories: a tree under the root category (id 1, level 0); its children (level 1) are the root categories
 * of store groups, and everything a shop shows is below its group's root. `path` holds the ids from the
 * root ("1/2/5"), `level` the depth. Writes run in one transaction each, serialized by one lock on the tree,
 * and keep paths, levels, sibling positions, product assignments and URL paths in step.
 *
 * Store-view values (name, description, urlKey, isActive, meta fields) are written with ?store= into
 * `store_values[storeId]` and read over the default columns.
 */
import { and, eq, inArray, like, ne, notInArray, or, sql } from 'drizzle-orm';
import { withTx, type Ctx } from '../../../platform/context.js';
import { rows } from '../../../platform/db.js';
import { badRequest, conflict, notFound } from '../../../platform/errors.js';
import { dec } from '../../../platform/money.js';
import { removeEntityPathsMany } from '../../url-resolver/service.js';
import { getCategory, pathWithin, storeRootId, storeRootIds, TREE_ROOT_ID } from './read.js';
import type { CategoryDto, CategoryWriteBody } from './schemas.js';
import { rewriteCategoryUrlPaths } from './urls.js';
import { formatUrlKey } from '../products/urls.js';
import { categories, categoryProducts, products, type StoreValues } from '../tables.js';
import { LOCKS } from '../../../platform/locks.js';

export {
  categoryResolvable,
  getCategory,
  listCategories,
  listCategoriesByUrlKey,
  storeRootId,
  TREE_ROOT_ID,
  DEFAULT_ROOT_ID,
} from './read.js';
export { categoryUrlSuffix } from './urls.js';

type CategoryRow = typeof categories.$inferSelect;
type NewCategory = typeof categories.$inferInsert;

/** Values a store view may set for itself (`store_values` keys, as the wire names them). */
export const CATEGORY_STORE_FIELDS = ['name', 'description', 'urlKey', 'isActive', 'metaTitle', 'metaKeywords', 'metaDescription'] as const;
type StoreField = (typeof CATEGORY_STORE_FIELDS)[number];

const DISPLAY_MODES = ['PRODUCTS', 'PAGE', 'PRODUCTS_AND_PAGE'];
const INT_MAX = 2147483647;
const CONTROL = /[\u0000-\u001f\u007f]/;
const CODE = /^[a-z][a-z0-9_]{0,63}$/;
const FILE_NAME = /^[A-Za-z0-9][A-Za-z0-9._-]{0,254}$/;

const field = (name: string, extra: Record<string, unknown> = {}) => ({ details: { field: name, ...extra } });
const invalid = (name: string, message: string) => badRequest(message, { reason: 'VALIDATION_FAILED', ...field(name) });

// ---- field rules ----

function cleanName(value: string | null | undefined): string {
  const v = typeof value === 'string' ? value.trim() : '';
  if (!v) throw badRequest('name is required', { reason: 'REQUIRED', ...field('name') });
  if (CONTROL.test(v)) throw invalid('name', 'name must not contain control characters');
  return v;
}

/** An explicit url key, normalized; one with no letters or digits is a 400. */
function cleanUrlKey(value: string): string {
  const key = formatUrlKey(value);
  if (!key) throw invalid('urlKey', 'urlKey must contain letters or digits');
  return key;
}

/** Text that may be cleared with null or "". */
function optText(value: string | null): string | null {
  return value === null || value === '' ? null : value;
}

/** Checks and converts the fields kept only in default columns (no store-view values). */
function columnValues(body: CategoryWriteBody): Partial<NewCategory> {
  const set: Partial<NewCategory> = {};
  if (body.image !== undefined) {
    const image = body.image === null ? '' : body.image.trim();
    if (image && (!FILE_NAME.test(image) || image.includes('..'))) {
      throw invalid('image', 'image must be a bare file name under media/catalog/category (letters, digits, ".", "_", "-")');
    }
    set.image = image || null;
  }
  if (body.includeInMenu !== undefined) set.includeInMenu = body.includeInMenu;
  if (body.isAnchor !== undefined) set.isAnchor = body.isAnchor;
  if (body.availableSortBy !== undefined) {
    if (body.availableSortBy === null) set.availableSortBy = null;
    else {
      const list = [...new Set(body.availableSortBy.map((s) => s.trim()))];
      const bad = list.find((s) => !CODE.test(s));
      if (bad !== undefined) throw invalid('availableSortBy', `availableSortBy: "${bad}" is not an attribute code`);
      set.availableSortBy = list.length ? list : null;
    }
  }
  if (body.defaultSortBy !== undefined) {
    const v = body.defaultSortBy === null ? '' : body.defaultSortBy.trim();
    if (v && !CODE.test(v)) throw invalid('defaultSortBy', `defaultSortBy: "${v}" is not an attribute code`);
    set.defaultSortBy = v || null;
  }
  if (body.landingPageId !== undefined) set.landingPageId = body.landingPageId || null;
  if (body.displayMode !== undefined) {
    const v = body.displayMode === null ? '' : body.displayMode.trim().toUpperCase();
    if (v && !DISPLAY_MODES.includes(v)) throw invalid('displayMode', `displayMode must be one of ${DISPLAY_MODES.join(', ')}`);
    set.displayMode = v || null;
  }
  if (body.pageLayout !== undefined) {
    const v = body.pageLayout === null ? '' : body.pageLayout.trim();
    if (v && !CODE.test(v)) throw invalid('pageLayout', 'pageLayout must be a layout code (lower-case letters, digits, "_")');
    set.pageLayout = v || null;
  }
  if (body.filterPriceRange !== undefined) {
    set.filterPriceRange = body.filterPriceRange === null ? null : dec(body.filterPriceRange).toFixed(4);
  }
  return set;
}

function checkSortBy(available: string[] | null | undefined, def: string | null | undefined): void {
  if (def && available?.length && !available.includes(def)) {
    throw invalid('defaultSortBy', `defaultSortBy "${def}" is not one of availableSortBy (${available.join(', ')})`);
  }
}

/** Product ids of `productPositions`, checked for form. */
function productPositionEntries(map: Record<string, number>): [number, number][] {
  return Object.entries(map).map(([k, pos]) => {
    const id = /^[1-9][0-9]{0,9}$/.test(k) ? Number(k) : NaN;
    if (!(id <= INT_MAX)) throw invalid('productPositions', `productPositions: "${k}" is not a product id`);
    return [id, pos];
  });
}

// ---- tree helpers ----

async function lockTree(ctx: Ctx): Promise<void> {
  await ctx.db.execute(sql`SELECT pg_advisory_xact_lock(${LOCKS.categoryTree})`);
}

async function findRow(ctx: Ctx, id: number): Promise<CategoryRow | undefined> {
  const [row] = await ctx.db.select().from(categories).where(eq(categories.id, id));
  return row;
}

/** The category to change or delete: 404 when missing, or outside what a store-restricted principal may write. */
async function requireRow(ctx: Ctx, id: number): Promise<CategoryRow> {
  const row = await findRow(ctx, id);
  if (!row || !writable(ctx, row)) throw notFound(`Category not found: ${id}`, { reason: 'CATEGORY_NOT_FOUND' });
  return row;
}

/** The parent of a create or move: a 400 when missing, or outside what a store-restricted principal may write under. */
async function requireParent(ctx: Ctx, id: number): Promise<CategoryRow> {
  const row = await findRow(ctx, id);
  if (!row || !usableParent(ctx, row))
    throw badRequest(`parentId ${id}: no such category`, { reason: 'UNKNOWN_PARENT', ...field('parentId') });
  return row;
}

/**
 * A sibling under `parentId` already using the url key: in the default values, or (with `storeId`) as the
 * store view shows it. 409 naming the key.
 */
async function assertUrlKeyFree(ctx: Ctx, parentId: number, key: string, exceptId: number, storeId?: number): Promise<void> {
  const effective =
    storeId === undefined
      ? sql`lower(${categories.urlKey})`
      : sql`lower(COALESCE(${categories.storeValues} -> ${String(storeId)}::text ->> 'urlKey', ${categories.urlKey}))`;
  const [dup] = await ctx.db
    .select({ id: categories.id })
    .from(categories)
    .where(and(eq(categories.parentId, parentId), ne(categories.id, exceptId), sql`${effective} = ${key.toLowerCase()}`))
    .limit(1);
  if (dup) {
    throw conflict(`The url key "${key}" is already used by category ${dup.id} under the same parent`, {
      reason: 'URL_KEY_TAKEN',
      ...field('urlKey', { urlKey: key, categoryId: dup.id }),
    });
  }
}

async function lastPosition(ctx: Ctx, parentId: number): Promise<number> {
  const [r] = await rows<{ max: number | null }>(
    ctx.db,
    sql`SELECT max(position)::int AS max FROM categories WHERE parent_id = ${parentId}`,
  );
  return r?.max ?? 0;
}

/** Puts the category at `position` (1 first; past the end is last) among its siblings, renumbering them from 1. */
async function placeAmongSiblings(ctx: Ctx, parentId: number, id: number, position: number): Promise<void> {
  const siblings = await ctx.db
    .select({ id: categories.id, position: categories.position })
    .from(categories)
    .where(and(eq(categories.parentId, parentId), ne(categories.id, id)))
    .orderBy(categories.position, categories.id);
  const order = siblings.map((s) => s.id);
  order.splice(Math.min(Math.max(position - 1, 0), order.length), 0, id);
  const current = new Map(siblings.map((s) => [s.id, s.position]));
  const changes = order.map((cid, i) => [cid, i + 1] as const).filter(([cid, pos]) => cid === id || current.get(cid) !== pos);
  const values = sql.join(
    changes.map(([cid, pos]) => sql`(${cid}::int, ${pos}::int)`),
    sql`, `,
  );
  await ctx.db.execute(sql`UPDATE categories AS c SET position = v.pos FROM (VALUES ${values}) AS v(id, pos) WHERE c.id = v.id`);
}

/** Makes the map the category's product assignments: productId → position. Unknown products are a 400. */
async function setProductPositions(ctx: Ctx, categoryId: number, entries: [number, number][]): Promise<void> {
  const ids = entries.map(([id]) => id);
  if (ids.length) {
    const found = new Set((await ctx.db.select({ id: products.id }).from(products).where(inArray(products.id, ids))).map((r) => r.id));
    const missing = ids.filter((id) => !found.has(id));
    if (missing.length) {
      throw badRequest(`productPositions: unknown product${missing.length > 1 ? 's' : ''} ${missing.join(', ')}`, {
        reason: 'UNKNOWN_PRODUCT',
        ...field('productPositions', { productIds: missing }),
      });
    }
  }
  await ctx.db
    .delete(categoryProducts)
    .where(
      ids.length
        ? and(eq(categoryProducts.categoryId, categoryId), notInArray(categoryProducts.productId, ids))
        : eq(categoryProducts.categoryId, categoryId),
    );
  if (!entries.length) return;
  await ctx.db
    .insert(categoryProducts)
    .values(entries.map(([productId, position]) => ({ categoryId, productId, position })))
    .onConflictDoUpdate({ target: [categoryProducts.categoryId, categoryProducts.productId], set: { position: sql`excluded.position` } });
}

const subtreeOf = (path: string) => or(eq(categories.path, path), like(categories.path, `${path}/%`));

// ---- store-restricted principals ----

/**
 * The root categories an admin principal limited to some store views may write under: those of its store
 * views' store groups. Undefined for every other caller (no limit).
 */
function writableRoots(ctx: Ctx): Set<number> | undefined {
  const a = ctx.actor;
  if (a.kind !== 'admin' || !a.allowedStoreIds) return undefined;
  const r = ctx.app.settings;
  const roots = new Set<number>();
  for (const storeId of a.allowedStoreIds) {
    const store = r.store(storeId);
    const group = store ? r.group(store.groupId) : undefined;
    if (group) roots.add(group.rootCategoryId);
  }
  return roots;
}

/** Whether the caller may change or delete the category: for a restricted principal, only below its roots (never a root). */
function writable(ctx: Ctx, row: Pick<CategoryRow, 'id' | 'path'>): boolean {
  const roots = writableRoots(ctx);
  return !roots || [...roots].some((root) => root !== row.id && pathWithin(row.path, root));
}

/** Whether the caller may put categories under `parent`: for a restricted principal, its roots or below. */
function usableParent(ctx: Ctx, parent: Pick<CategoryRow, 'path'>): boolean {
  const roots = writableRoots(ctx);
  return !roots || [...roots].some((root) => pathWithin(parent.path, root));
}

// ---- writes ----

/**
 * Creates a category under `parentId` (default: the store's root category), last among its siblings unless
 * a position is given. The url key is generated from the name unless given; it must be unique among the
 * siblings (409).
 */
export async function createCategory(ctx: Ctx, body: CategoryWriteBody): Promise<CategoryDto> {
  const name = cleanName(body.name);
  const explicitKey = body.urlKey != null && body.urlKey.trim() !== '' ? cleanUrlKey(body.urlKey) : undefined;
  const cols = columnValues(body);
  checkSortBy(cols.availableSortBy, cols.defaultSortBy);
  const assigned = body.productPositions ? productPositionEntries(body.productPositions) : undefined;
  if (body.useDefault?.length) throw invalid('useDefault', 'useDefault applies to updates of store-view values only');

  return withTx(ctx, async (tx) => {
    await lockTree(tx);
    const parent = await requireParent(tx, body.parentId ?? storeRootId(tx));
    const [{ id }] = await rows<{ id: number }>(tx.db, sql`SELECT nextval(pg_get_serial_sequence('categories', 'id'))::int AS id`);
    const urlKey = explicitKey ?? (formatUrlKey(name) || `category-${id}`);
    await assertUrlKeyFree(tx, parent.id, urlKey, id);
    await tx.db.insert(categories).values({
      ...cols,
      id,
      parentId: parent.id,
      path: `${parent.path}/${id}`,
      level: parent.level + 1,
      position: (await lastPosition(tx, parent.id)) + 1,
      name,
      urlKey,
      description: body.description === undefined ? null : optText(body.description),
      isActive: body.isActive ?? true,
      includeInMenu: body.includeInMenu ?? true,
      isAnchor: body.isAnchor ?? true,
      metaTitle: body.metaTitle === undefined ? null : optText(body.metaTitle),
      metaKeywords: body.metaKeywords === undefined ? null : optText(body.metaKeywords),
      metaDescription: body.metaDescription === undefined ? null : optText(body.metaDescription),
      storeValues: {},
      createdAt: tx.now,
      updatedAt: tx.now,
    });
    if (body.position !== undefined) await placeAmongSiblings(tx, parent.id, id, body.position);
    if (assigned) await setProductPositions(tx, id, assigned);
    await rewriteCategoryUrlPaths(tx, id);
    return getCategory(tx, id, { all: true });
  });
}

/** The store-view value of a field as a write sets it. */
function storeFieldValue(f: StoreField, body: CategoryWriteBody): unknown {
  switch (f) {
    case 'name':
      return cleanName(body.name);
    case 'isActive':
      return body.isActive;
    case 'urlKey':
      return body.urlKey != null && body.urlKey.trim() !== '' ? cleanUrlKey(body.urlKey) : null;
    default:
      return optText(body[f] as string | null);
  }
}

/**
 * Changes the fields that were sent. With ?store= the store-view fields are written for that store view
 * only. A new `parentId` moves the category with its subtree (not under itself; the tree root and store
 * roots do not move); `position` places it among its siblings; `productPositions` replaces its products.
 * Url paths of the subtree follow a move or a url key change.
 */
export async function updateCategory(ctx: Ctx, id: number, body: CategoryWriteBody): Promise<CategoryDto> {
  const scoped = ctx.store.explicit;
  const sid = String(ctx.store.storeId);
  const storeFields = CATEGORY_STORE_FIELDS.filter((f) => body[f] !== undefined);
  const storeSet = new Map(storeFields.map((f) => [f, storeFieldValue(f, body)]));
  const useDefault = [...new Set(body.useDefault ?? [])];
  if (useDefault.length && !scoped) {
    throw badRequest('useDefault needs a store view (?store=<code>)', { reason: 'STORE_REQUIRED', ...field('useDefault') });
  }
  const badDefault = useDefault.find((f) => !(CATEGORY_STORE_FIELDS as readonly string[]).includes(f));
  if (badDefault !== undefined) {
    throw invalid('useDefault', `useDefault: "${badDefault}" is not a store-view value (use ${CATEGORY_STORE_FIELDS.join(', ')})`);
  }
  const cols = columnValues(body);
  const assigned = body.productPositions ? productPositionEntries(body.productPositions) : undefined;

  return withTx(ctx, async (tx) => {
    await lockTree(tx);
    const row = await requireRow(tx, id);
    const set: Partial<NewCategory> = { ...cols, updatedAt: tx.now };
    checkSortBy(
      cols.availableSortBy !== undefined ? cols.availableSortBy : row.availableSortBy,
      cols.defaultSortBy !== undefined ? cols.defaultSortBy : row.defaultSortBy,
    );

    // store-view fields: the default columns, or this store view's own values
    let keyChanged = false;
    let storeKey: string | undefined;
    if (scoped) {
      const storeValues: StoreValues = { ...(row.storeValues ?? {}) };
      const own: Record<string, unknown> = { ...(storeValues[sid] ?? {}) };
      const before = own.urlKey;
      for (const [f, v] of storeSet) {
        if (f === 'urlKey' && v === null) delete own.urlKey;
        else own[f] = v;
      }
      for (const f of useDefault) delete own[f];
      if (own.urlKey !== before) {
        keyChanged = true;
        if (typeof own.urlKey === 'string') storeKey = own.urlKey;
      }
      if (Object.keys(own).length) storeValues[sid] = own;
      else delete storeValues[sid];
      set.storeValues = storeValues;
    } else {
      for (const [f, v] of storeSet) {
        if (f === 'urlKey') {
          const key =
            (v as string | null) ?? (formatUrlKey((storeSet.get('name') as string | undefined) ?? row.name) || `category-${row.id}`);
          if (key !== row.urlKey) {
            set.urlKey = key;
            keyChanged = true;
          }
        } else (set as Record<string, unknown>)[f] = v;
      }
    }

    // a move
    let parentId = row.parentId;
    let moveTo: CategoryRow | undefined;
    if (body.parentId !== undefined && body.parentId !== row.parentId) {
      if (row.id === TREE_ROOT_ID || storeRootIds(tx).has(row.id)) {
        throw badRequest(`Category ${row.id} is a root category and cannot be moved`, { reason: 'ROOT_NOT_MOVABLE', ...field('parentId') });
      }
      moveTo = await requireParent(tx, body.parentId);
      if (moveTo.id === row.id || moveTo.path.startsWith(`${row.path}/`)) {
        throw badRequest('A category cannot be moved under itself or one of its descendants', {
          reason: 'INVALID_MOVE',
          ...field('parentId'),
        });
      }
      parentId = moveTo.id;
    }
    if (parentId !== null && (moveTo || set.urlKey !== undefined))
      await assertUrlKeyFree(tx, parentId, set.urlKey ?? row.urlKey ?? '', row.id);
    if (parentId !== null && storeKey !== undefined) await assertUrlKeyFree(tx, parentId, storeKey, row.id, ctx.store.storeId);

    if (moveTo) {
      const newPath = `${moveTo.path}/${row.id}`;
      const delta = moveTo.level + 1 - row.level;
      await tx.db
        .update(categories)
        .set({ path: sql`${newPath} || substr(${categories.path}, ${row.path.length + 1})`, level: sql`${categories.level} + ${delta}` })
        .where(subtreeOf(row.path));
      set.parentId = moveTo.id;
      if (body.position === undefined) set.position = (await lastPosition(tx, moveTo.id)) + 1;
    }
    await tx.db.update(categories).set(set).where(eq(categories.id, row.id));
    if (body.position !== undefined && parentId !== null) await placeAmongSiblings(tx, parentId, row.id, body.position);
    if (assigned) await setProductPositions(tx, row.id, assigned);
    if (moveTo || keyChanged) await rewriteCategoryUrlPaths(tx, row.id);
    return getCategory(tx, row.id, { all: true });
  });
}

/**
 * Deletes the category and its subtree: their product assignments and url paths go with them (the products
 * stay). The tree root and the root category of a store group (also inside the subtree) cannot be deleted.
 */
export async function deleteCategory(ctx: Ctx, id: number): Promise<void> {
  await withTx(ctx, async (tx) => {
    await lockTree(tx);
    const row = await requireRow(tx, id);
    if (row.id === TREE_ROOT_ID) throw badRequest('The root category cannot be deleted', { reason: 'ROOT_NOT_DELETABLE' });
    const subtree = (await tx.db.select({ id: categories.id }).from(categories).where(subtreeOf(row.path))).map((r) => r.id);
    const roots = storeRootIds(tx);
    const root = subtree.find((cid) => roots.has(cid));
    if (root !== undefined) {
      throw badRequest(
        root === row.id
          ? `Category ${root} is the root category of a store and cannot be deleted`
          : `The subtree holds category ${root}, the root category of a store`,
        { reason: 'ROOT_NOT_DELETABLE', details: { categoryId: root } },
      );
    }
    await tx.db.delete(categories).where(inArray(categories.id, subtree));
    await removeEntityPathsMany(tx, 'category', subtree);
  });
}
