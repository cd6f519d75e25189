/**
 * Blog categories: a tree (path "3/7", top level 1), each shown in the store views it lists (0: every store
 * view) while active. Deleting a category deletes its descendants.
 */
import { and, asc, eq, inArray, isNull, like, or, sql, type SQL } from 'drizzle-orm';
import { adminStoreScope, scopeWritable, withTx, type Ctx } from '../../platform/context.js';
import { badRequest, forbidden, notFound } from '../../platform/errors.js';
import { compact, likeEscape, wireDateTime } from '../../platform/format.js';
import type { CollectionResult, Page } from '../../platform/pagination.js';
import { assertRowWritable, assignedTo, inAdminScope, inStoreView, listOrder, storesById, writableStores } from '../cms/shared.js';
import { checkScopeAll, isBackOffice, lockBlog, optText, requiredText, urlKeyOf } from './common.js';
import type { BlogCategoryDto, BlogCategoryInput, BlogCategoryListQueryT } from './schemas.js';
import { blogCategories, blogCategoryStores } from './tables.js';

type CategoryRow = typeof blogCategories.$inferSelect;
const RESOURCE = 'blog-categories';

function toDto(r: CategoryRow, stores: number[]): BlogCategoryDto {
  return compact({
    id: r.id,
    name: r.name,
    urlKey: r.urlKey,
    parentId: r.parentId,
    path: r.path,
    level: r.level,
    position: r.position,
    isActive: r.isActive,
    metaTitle: r.metaTitle,
    metaDescription: r.metaDescription,
    metaKeywords: r.metaKeywords,
    stores,
    createdAt: wireDateTime(r.createdAt) ?? '',
    updatedAt: wireDateTime(r.updatedAt) ?? '',
  }) as BlogCategoryDto;
}

async function dtos(ctx: Ctx, rows: CategoryRow[]): Promise<BlogCategoryDto[]> {
  const ids = rows.map((r) => r.id);
  if (!ids.length) return [];
  const stores = storesById(
    await ctx.db
      .select({ ownerId: blogCategoryStores.categoryId, storeId: blogCategoryStores.storeId })
      .from(blogCategoryStores)
      .where(inArray(blogCategoryStores.categoryId, ids)),
  );
  return rows.map((r) => toDto(r, stores.get(r.id) ?? []));
}

const visibleHere = (ctx: Ctx): SQL =>
  inStoreView(blogCategories.id, blogCategoryStores.categoryId, blogCategoryStores.storeId, 'blog_category_stores', ctx.store.storeId);

/** What a principal limited to some store views may read: the categories of those and of every store view. */
const readScope = (ctx: Ctx): SQL | undefined =>
  inAdminScope(blogCategories.id, blogCategoryStores.categoryId, blogCategoryStores.storeId, 'blog_category_stores', ctx);

const categoryNotFound = () => notFound('Blog category not found', { reason: 'BLOG_CATEGORY_NOT_FOUND' });

/** The store views of each category. */
async function storesOfCategories(tx: Ctx, ids: number[]): Promise<Map<number, number[]>> {
  if (!ids.length) return new Map();
  return storesById(
    await tx.db
      .select({ ownerId: blogCategoryStores.categoryId, storeId: blogCategoryStores.storeId })
      .from(blogCategoryStores)
      .where(inArray(blogCategoryStores.categoryId, ids)),
  );
}

/**
 * Categories by position, then name. Public callers: the active categories of the current store view;
 * back-office readers also inactive ones; `scope=all` (back office only) every store view.
 */
/** `urlKey` is a filter of Maho's GraphQL `blogCategories` (REST does not take it). */
export async function listCategories(
  ctx: Ctx,
  q: BlogCategoryListQueryT & { urlKey?: string },
  page: Page,
): Promise<CollectionResult<BlogCategoryDto>> {
  const all = checkScopeAll(ctx, RESOURCE, q.scope);
  const backOffice = isBackOffice(ctx, RESOURCE);
  const conds: SQL[] = [];
  if (q.parentId !== undefined) conds.push(q.parentId === 0 ? isNull(blogCategories.parentId) : eq(blogCategories.parentId, q.parentId));
  if (q.urlKey !== undefined) conds.push(sql`lower(${blogCategories.urlKey}) = ${q.urlKey.trim().toLowerCase()}`);
  if (q.search !== undefined) {
    const s = q.search.trim();
    if (s.length < 3)
      throw badRequest('search must be at least 3 characters', { reason: 'SEARCH_TOO_SHORT', details: { field: 'search', minLength: 3 } });
    const term = `%${likeEscape(s)}%`;
    conds.push(sql`(${blogCategories.name} ILIKE ${term} OR ${blogCategories.urlKey} ILIKE ${term})`);
  }
  if (q.isActive !== undefined) conds.push(eq(blogCategories.isActive, q.isActive));
  if (q.storeId !== undefined) {
    conds.push(assignedTo(blogCategories.id, blogCategoryStores.categoryId, blogCategoryStores.storeId, 'blog_category_stores', q.storeId));
  }
  if (!all) conds.push(visibleHere(ctx));
  if (!backOffice) conds.push(eq(blogCategories.isActive, true));
  const scope = readScope(ctx);
  if (scope) conds.push(scope);
  const where = and(...conds);
  const [rows, [{ n }]] = await Promise.all([
    ctx.db
      .select()
      .from(blogCategories)
      .where(where)
      .orderBy(
        ...(q.sortBy
          ? listOrder(blogCategories, q.sortBy, q.sortDir, 'position')
          : [asc(blogCategories.position), asc(blogCategories.name), asc(blogCategories.id)]),
      )
      .limit(page.size)
      .offset(page.offset),
    ctx.db
      .select({ n: sql<number>`count(*)::int` })
      .from(blogCategories)
      .where(where),
  ]);
  return { items: await dtos(ctx, rows), total: n };
}

/** One category: public callers only an active one of the current store view (else 404); back-office readers any. */
export async function getCategory(ctx: Ctx, id: number): Promise<BlogCategoryDto> {
  return readCategory(ctx, id, isBackOffice(ctx, RESOURCE));
}

async function readCategory(ctx: Ctx, id: number, backOffice: boolean): Promise<BlogCategoryDto> {
  const conds: SQL[] = [eq(blogCategories.id, id)];
  if (!backOffice) conds.push(eq(blogCategories.isActive, true), visibleHere(ctx));
  const scope = readScope(ctx);
  if (scope) conds.push(scope);
  const [row] = await ctx.db
    .select()
    .from(blogCategories)
    .where(and(...conds));
  if (!row) throw categoryNotFound();
  return (await dtos(ctx, [row]))[0];
}

function columnsOf(body: BlogCategoryInput): Partial<typeof blogCategories.$inferInsert> {
  const out: Partial<typeof blogCategories.$inferInsert> = {};
  if (body.position !== undefined) out.position = body.position;
  if (body.isActive !== undefined) out.isActive = body.isActive;
  if ('metaTitle' in body) out.metaTitle = optText(body.metaTitle);
  if ('metaDescription' in body) out.metaDescription = optText(body.metaDescription);
  if ('metaKeywords' in body) out.metaKeywords = optText(body.metaKeywords);
  return out;
}

/** The parent row (null: top level); unknown (or one a store-limited principal may not read) → 400. */
async function parentOf(tx: Ctx, parentId: number | null | undefined): Promise<CategoryRow | null> {
  if (parentId === undefined || parentId === null || parentId === 0) return null;
  const [row] = await tx.db
    .select()
    .from(blogCategories)
    .where(and(eq(blogCategories.id, parentId), readScope(tx)));
  if (!row)
    throw badRequest(`Unknown parent category: ${parentId}`, { reason: 'UNKNOWN_PARENT', details: { field: 'parentId', parentId } });
  return row;
}

async function writeStores(tx: Ctx, id: number, stores: number[]): Promise<void> {
  await tx.db.delete(blogCategoryStores).where(eq(blogCategoryStores.categoryId, id));
  await tx.db.insert(blogCategoryStores).values(stores.map((storeId) => ({ categoryId: id, storeId })));
}

/** Creates a category: name required; URL key from the name when omitted; active and in every store view by default. */
export async function createCategory(ctx: Ctx, body: BlogCategoryInput): Promise<BlogCategoryDto> {
  const name = requiredText(body.name, 'name');
  const urlKey = urlKeyOf(body.urlKey, name);
  const stores = writableStores(ctx, body.stores);
  const cols = columnsOf(body);
  const id = await withTx(ctx, async (tx) => {
    await lockBlog(tx, RESOURCE);
    const parent = await parentOf(tx, body.parentId);
    const [row] = await tx.db
      .insert(blogCategories)
      .values({
        ...cols,
        name,
        urlKey,
        parentId: parent?.id ?? null,
        level: parent ? parent.level + 1 : 1,
        createdAt: tx.now,
        updatedAt: tx.now,
      })
      .returning({ id: blogCategories.id });
    const path = parent ? `${parent.path}/${row.id}` : String(row.id);
    await tx.db.update(blogCategories).set({ path }).where(eq(blogCategories.id, row.id));
    await writeStores(tx, row.id, stores);
    return row.id;
  });
  return readCategory(ctx, id, true);
}

/** Updates the fields sent; a new parent moves the subtree (its own subtree as parent → 400). */
export async function updateCategory(ctx: Ctx, id: number, body: BlogCategoryInput): Promise<BlogCategoryDto> {
  const name = body.name === undefined ? undefined : requiredText(body.name, 'name');
  const stores = body.stores === undefined ? undefined : writableStores(ctx, body.stores);
  const cols = columnsOf(body);
  await withTx(ctx, async (tx) => {
    await lockBlog(tx, RESOURCE);
    const [row] = await tx.db.select().from(blogCategories).where(eq(blogCategories.id, id)).for('update');
    if (!row) throw categoryNotFound();
    assertRowWritable(tx, (await storesOfCategories(tx, [id])).get(id) ?? [], categoryNotFound);
    const urlKey = body.urlKey === undefined ? undefined : urlKeyOf(body.urlKey, name ?? row.name);
    const set: Partial<typeof blogCategories.$inferInsert> = { ...cols, updatedAt: tx.now };
    if (name !== undefined) set.name = name;
    if (urlKey !== undefined) set.urlKey = urlKey;
    if (body.parentId !== undefined && (body.parentId || null) !== row.parentId) {
      const parent = await parentOf(tx, body.parentId);
      if (parent && (parent.id === id || parent.path.startsWith(`${row.path}/`))) {
        throw badRequest('A category cannot be moved into its own subtree', {
          reason: 'INVALID_PARENT',
          details: { field: 'parentId', parentId: parent.id },
        });
      }
      const path = parent ? `${parent.path}/${id}` : String(id);
      const level = parent ? parent.level + 1 : 1;
      set.parentId = parent?.id ?? null;
      set.path = path;
      set.level = level;
      // descendants: swap the path prefix and shift the level
      await tx.db
        .update(blogCategories)
        .set({
          path: sql`${path} || substr(${blogCategories.path}, ${row.path.length + 1})`,
          level: sql`${blogCategories.level} + ${level - row.level}`,
        })
        .where(like(blogCategories.path, `${likeEscape(row.path)}/%`));
    }
    await tx.db.update(blogCategories).set(set).where(eq(blogCategories.id, id));
    if (stores) await writeStores(tx, id, stores);
  });
  return readCategory(ctx, id, true);
}

/** Deletes a category and its descendants (their post links and store links go with them). */
export async function deleteCategory(ctx: Ctx, id: number): Promise<void> {
  await withTx(ctx, async (tx) => {
    await lockBlog(tx, RESOURCE);
    const [row] = await tx.db.select().from(blogCategories).where(eq(blogCategories.id, id));
    if (!row) throw categoryNotFound();
    const subtree = or(eq(blogCategories.id, id), like(blogCategories.path, `${likeEscape(row.path)}/%`));
    if (adminStoreScope(tx)) {
      // the descendants go too: each must be the principal's to delete
      const ids = (await tx.db.select({ id: blogCategories.id }).from(blogCategories).where(subtree)).map((r) => r.id);
      const stores = await storesOfCategories(tx, ids);
      assertRowWritable(tx, stores.get(id) ?? [], categoryNotFound);
      if (ids.some((other) => !scopeWritable(tx, stores.get(other) ?? []))) {
        throw forbidden('This category has subcategories of other store views; this token may not delete them', {
          reason: 'STORE_NOT_ALLOWED',
        });
      }
    }
    await tx.db.delete(blogCategories).where(subtree);
  });
}
