/**
 * Blog posts. A post is public in the store views it lists (0: every store view) while it is active and its
 * publish date is set and not in the future. Its URL key is unique per store view and registered with the URL
 * resolver as `blog/<urlKey>` in the same transaction as the write.
 */
import { and, asc, eq, inArray, isNotNull, lte, sql, type SQL } from 'drizzle-orm';
import { withTx, type Ctx } from '../../platform/context.js';
import { badRequest, conflict, notFound } from '../../platform/errors.js';
import { compact, likeEscape, wireDateTime } from '../../platform/format.js';
import type { CollectionResult, Page } from '../../platform/pagination.js';
import { baseMediaUrl } from '../catalog/product-extras/media-service.js';
import {
  ALL_STORES,
  assertRowWritable,
  assignedTo,
  clashCondition,
  inAdminScope,
  inStoreView,
  listOrder,
  parseWhen,
  storesById,
  writableStores,
} from '../cms/shared.js';
import { removeEntityPaths, replaceEntityPaths } from '../url-resolver/service.js';
import { checkScopeAll, excerptOf, isBackOffice, lockBlog, optDateTime, optText, requiredText, urlKeyOf } from './common.js';
import type { BlogPostDto, BlogPostInput, BlogPostListQueryT } from './schemas.js';
import { blogCategories, blogCategoryStores, blogPostCategories, blogPosts, blogPostStores } from './tables.js';

type PostRow = typeof blogPosts.$inferSelect;
const RESOURCE = 'blog-posts';
/** The URL path prefix of posts. */
export const BLOG_PATH_PREFIX = 'blog/';

export const postPath = (urlKey: string): string => `${BLOG_PATH_PREFIX}${urlKey}`;

function imageUrlOf(ctx: Ctx, image: string | null): string | null {
  if (!image) return null;
  if (/^https?:\/\//i.test(image)) return image;
  return `${baseMediaUrl(ctx)}${image.replace(/^\/+/, '')}`;
}

function toDto(ctx: Ctx, r: PostRow, stores: number[], categoryIds: number[]): BlogPostDto {
  return compact({
    id: r.id,
    title: r.title,
    urlKey: r.urlKey,
    content: r.content,
    shortContent: r.shortContent,
    image: r.image,
    imageUrl: imageUrlOf(ctx, r.image),
    publishDate: wireDateTime(r.publishDate) ?? null,
    metaTitle: r.metaTitle,
    metaDescription: r.metaDescription,
    metaKeywords: r.metaKeywords,
    metaRobots: r.metaRobots,
    status: r.isActive ? 'enabled' : 'disabled',
    isActive: r.isActive,
    stores,
    categoryIds,
    excerpt: excerptOf(r.shortContent?.trim() ? r.shortContent : r.content),
    createdAt: wireDateTime(r.createdAt) ?? '',
    updatedAt: wireDateTime(r.updatedAt) ?? '',
  }) as BlogPostDto;
}

async function dtos(ctx: Ctx, rows: PostRow[]): Promise<BlogPostDto[]> {
  const ids = rows.map((r) => r.id);
  if (!ids.length) return [];
  const [storeRows, catRows] = await Promise.all([
    ctx.db
      .select({ ownerId: blogPostStores.postId, storeId: blogPostStores.storeId })
      .from(blogPostStores)
      .where(inArray(blogPostStores.postId, ids)),
    ctx.db
      .select({ postId: blogPostCategories.postId, categoryId: blogPostCategories.categoryId })
      .from(blogPostCategories)
      .where(inArray(blogPostCategories.postId, ids))
      .orderBy(asc(blogPostCategories.position), asc(blogPostCategories.categoryId)),
  ]);
  const stores = storesById(storeRows);
  const cats = new Map<number, number[]>();
  for (const c of catRows) cats.set(c.postId, [...(cats.get(c.postId) ?? []), c.categoryId]);
  return rows.map((r) => toDto(ctx, r, stores.get(r.id) ?? [], cats.get(r.id) ?? []));
}

const visibleHere = (ctx: Ctx): SQL =>
  inStoreView(blogPosts.id, blogPostStores.postId, blogPostStores.storeId, 'blog_post_stores', ctx.store.storeId);

/** What a principal limited to some store views may read: the posts of those and of every store view. */
const readScope = (ctx: Ctx): SQL | undefined =>
  inAdminScope(blogPosts.id, blogPostStores.postId, blogPostStores.storeId, 'blog_post_stores', ctx);

const postNotFound = () => notFound('Blog post not found', { reason: 'BLOG_POST_NOT_FOUND' });

/** The store views of a post ([] when it has none or does not exist). */
async function storesOfPost(tx: Ctx, id: number): Promise<number[]> {
  const found = await tx.db
    .select({ ownerId: blogPostStores.postId, storeId: blogPostStores.storeId })
    .from(blogPostStores)
    .where(eq(blogPostStores.postId, id));
  return storesById(found).get(id) ?? [];
}

/** Active, with a publish date not in the future. */
const published = (ctx: Ctx): SQL =>
  and(eq(blogPosts.isActive, true), isNotNull(blogPosts.publishDate), lte(blogPosts.publishDate, ctx.now))!;

/**
 * Posts, newest first by publish date. Public callers: the published posts of the current store view;
 * back-office readers also unpublished and inactive ones; `scope=all` (back office only) every store view.
 */
/** Date filters of Maho's GraphQL `blogPosts` (REST does not take them). */
export interface PostDateFilters {
  createdFrom?: string;
  createdTo?: string;
  updatedSince?: string;
}

export async function listPosts(ctx: Ctx, q: BlogPostListQueryT & PostDateFilters, page: Page): Promise<CollectionResult<BlogPostDto>> {
  const all = checkScopeAll(ctx, RESOURCE, q.scope);
  const backOffice = isBackOffice(ctx, RESOURCE);
  const conds: SQL[] = [];
  if (q.urlKey !== undefined) conds.push(sql`lower(${blogPosts.urlKey}) = ${q.urlKey.trim().toLowerCase()}`);
  if (q.categoryId !== undefined) {
    conds.push(
      sql`${blogPosts.id} IN (SELECT ${blogPostCategories.postId} FROM ${blogPostCategories} WHERE ${blogPostCategories.categoryId} = ${q.categoryId})`,
    );
  }
  if (q.search !== undefined) {
    const s = q.search.trim();
    if (s.length < 3)
      throw badRequest('search must be at least 3 characters', { reason: 'SEARCH_TOO_SHORT', details: { field: 'search', minLength: 3 } });
    const like = `%${likeEscape(s)}%`;
    conds.push(sql`(${blogPosts.title} ILIKE ${like} OR ${blogPosts.shortContent} ILIKE ${like} OR ${blogPosts.content} ILIKE ${like})`);
  }
  if (q.createdFrom !== undefined) conds.push(sql`${blogPosts.createdAt} >= ${parseWhen(q.createdFrom, 'createdFrom', false)}`);
  if (q.createdTo !== undefined) conds.push(sql`${blogPosts.createdAt} <= ${parseWhen(q.createdTo, 'createdTo', true)}`);
  if (q.updatedSince !== undefined) conds.push(sql`${blogPosts.updatedAt} >= ${parseWhen(q.updatedSince, 'updatedSince', false)}`);
  if (q.isActive !== undefined) conds.push(eq(blogPosts.isActive, q.isActive));
  if (q.storeId !== undefined)
    conds.push(assignedTo(blogPosts.id, blogPostStores.postId, blogPostStores.storeId, 'blog_post_stores', q.storeId));
  if (!all) conds.push(visibleHere(ctx));
  if (!backOffice) conds.push(published(ctx));
  const scope = readScope(ctx);
  if (scope) conds.push(scope);
  const where = and(...conds);
  const [rows, [{ n }]] = await Promise.all([
    ctx.db
      .select()
      .from(blogPosts)
      .where(where)
      .orderBy(...listOrder(blogPosts, q.sortBy, q.sortDir ?? (q.sortBy ? 'asc' : 'desc'), 'publishDate'))
      .limit(page.size)
      .offset(page.offset),
    ctx.db
      .select({ n: sql<number>`count(*)::int` })
      .from(blogPosts)
      .where(where),
  ]);
  return { items: await dtos(ctx, rows), total: n };
}

/**
 * Posts matching `where`, built over the posts and their store view links (the Magento 1 API's filters), in id
 * order, within the caller's read scope: one statement for the rows, then what their items need.
 */
export async function postsWhere(
  ctx: Ctx,
  where: (posts: typeof blogPosts, stores: typeof blogPostStores) => SQL | undefined,
): Promise<BlogPostDto[]> {
  const rows = await ctx.db
    .select()
    .from(blogPosts)
    .where(and(where(blogPosts, blogPostStores), readScope(ctx)))
    .orderBy(asc(blogPosts.id));
  return dtos(ctx, rows);
}

/** One post: public callers only a published post of the current store view (else 404); back-office readers any. */
export async function getPost(ctx: Ctx, id: number): Promise<BlogPostDto> {
  return readPost(ctx, id, isBackOffice(ctx, RESOURCE));
}

async function readPost(ctx: Ctx, id: number, backOffice: boolean): Promise<BlogPostDto> {
  const conds: SQL[] = [eq(blogPosts.id, id)];
  if (!backOffice) conds.push(published(ctx), visibleHere(ctx));
  const scope = readScope(ctx);
  if (scope) conds.push(scope);
  const [row] = await ctx.db
    .select()
    .from(blogPosts)
    .where(and(...conds));
  if (!row) throw postNotFound();
  return (await dtos(ctx, [row]))[0];
}

/**
 * Whether the URL resolver may show the post in the caller's store view (an unknown post is left to its path):
 * the blog's `urlResolverChecks`.
 */
export async function blogPostResolvable(ctx: Ctx, id: number): Promise<boolean> {
  const [row] = await ctx.db.select({ id: blogPosts.id }).from(blogPosts).where(eq(blogPosts.id, id));
  if (!row) return true;
  const [seen] = await ctx.db
    .select({ id: blogPosts.id })
    .from(blogPosts)
    .where(and(eq(blogPosts.id, id), published(ctx), visibleHere(ctx)));
  return !!seen;
}

/** Category links from ids or {id, position} objects; position defaults to the place in the list. */
function categoryLinks(input: NonNullable<BlogPostInput['categoryIds']>): { categoryId: number; position: number }[] {
  const out = new Map<number, number>();
  input.forEach((v, i) => {
    if (typeof v === 'number') out.set(v, i);
    else out.set(v.id, v.position ?? i);
  });
  return [...out].map(([categoryId, position]) => ({ categoryId, position }));
}

async function checkCategories(tx: Ctx, links: { categoryId: number }[]): Promise<void> {
  if (!links.length) return;
  const ids = links.map((l) => l.categoryId);
  // a category a store-limited principal may not read is as unknown to it
  const readable = inAdminScope(blogCategories.id, blogCategoryStores.categoryId, blogCategoryStores.storeId, 'blog_category_stores', tx);
  const found = new Set(
    (
      await tx.db
        .select({ id: blogCategories.id })
        .from(blogCategories)
        .where(and(inArray(blogCategories.id, ids), readable))
    ).map((r) => r.id),
  );
  const unknown = ids.filter((id) => !found.has(id));
  if (unknown.length) {
    throw badRequest(`Unknown blog category: ${unknown.join(', ')}`, {
      reason: 'UNKNOWN_BLOG_CATEGORY',
      details: { field: 'categoryIds', categoryIds: unknown },
    });
  }
}

/** The column values of the fields that were sent (title, urlKey, stores and categories are handled by the caller). */
function columnsOf(body: BlogPostInput): Partial<typeof blogPosts.$inferInsert> {
  const out: Partial<typeof blogPosts.$inferInsert> = {};
  if ('content' in body) out.content = body.content ?? '';
  if ('shortContent' in body) out.shortContent = optText(body.shortContent);
  if ('image' in body) out.image = optText(body.image)?.trim() ?? null;
  if ('publishDate' in body) out.publishDate = optDateTime(body.publishDate, 'publishDate');
  if ('metaTitle' in body) out.metaTitle = optText(body.metaTitle);
  if ('metaDescription' in body) out.metaDescription = optText(body.metaDescription);
  if ('metaKeywords' in body) out.metaKeywords = optText(body.metaKeywords);
  if ('metaRobots' in body) out.metaRobots = optText(body.metaRobots);
  if (body.isActive !== undefined) out.isActive = body.isActive;
  return out;
}

async function assertFree(tx: Ctx, urlKey: string, stores: number[], exceptId?: number): Promise<void> {
  const [clash] = await tx.db
    .select({ id: blogPosts.id })
    .from(blogPosts)
    .where(
      clashCondition(
        blogPosts.id,
        blogPosts.urlKey,
        blogPostStores.postId,
        blogPostStores.storeId,
        'blog_post_stores',
        urlKey,
        stores,
        exceptId,
      ),
    )
    .limit(1);
  if (clash) {
    throw conflict(`A blog post with URL key "${urlKey}" already exists in one of these store views`, {
      reason: 'BLOG_POST_URL_KEY_TAKEN',
      details: { field: 'urlKey', urlKey, postId: clash.id },
    });
  }
}

async function writeStoresAndPaths(tx: Ctx, id: number, urlKey: string, stores: number[]): Promise<void> {
  await tx.db.delete(blogPostStores).where(eq(blogPostStores.postId, id));
  await tx.db.insert(blogPostStores).values(stores.map((storeId) => ({ postId: id, storeId })));
  await replaceEntityPaths(
    tx,
    'blog_post',
    id,
    stores.map((storeId) => ({ storeId, requestPath: postPath(urlKey) })),
  );
}

async function writeCategories(tx: Ctx, id: number, links: { categoryId: number; position: number }[]): Promise<void> {
  await tx.db.delete(blogPostCategories).where(eq(blogPostCategories.postId, id));
  if (links.length) await tx.db.insert(blogPostCategories).values(links.map((l) => ({ postId: id, ...l })));
}

/** Creates a post: title required; URL key from the title when omitted; active and in every store view by default. */
export async function createPost(ctx: Ctx, body: BlogPostInput): Promise<BlogPostDto> {
  const title = requiredText(body.title, 'title');
  const urlKey = urlKeyOf(body.urlKey, title);
  const stores = writableStores(ctx, body.stores);
  const cols = columnsOf(body);
  const links = body.categoryIds ? categoryLinks(body.categoryIds) : [];
  const id = await withTx(ctx, async (tx) => {
    await lockBlog(tx, RESOURCE);
    await checkCategories(tx, links);
    await assertFree(tx, urlKey, stores);
    const [row] = await tx.db
      .insert(blogPosts)
      .values({ ...cols, title, urlKey, createdAt: tx.now, updatedAt: tx.now })
      .returning({ id: blogPosts.id });
    await writeStoresAndPaths(tx, row.id, urlKey, stores);
    await writeCategories(tx, row.id, links);
    return row.id;
  });
  return readPost(ctx, id, true);
}

/** Updates the fields sent; a new URL key or store list is checked for clashes and re-registers the URL paths. */
export async function updatePost(ctx: Ctx, id: number, body: BlogPostInput): Promise<BlogPostDto> {
  const title = body.title === undefined ? undefined : requiredText(body.title, 'title');
  const stores = body.stores === undefined ? undefined : writableStores(ctx, body.stores);
  const cols = columnsOf(body);
  const links = body.categoryIds ? categoryLinks(body.categoryIds) : undefined;
  await withTx(ctx, async (tx) => {
    await lockBlog(tx, RESOURCE);
    const [row] = await tx.db.select().from(blogPosts).where(eq(blogPosts.id, id)).for('update');
    if (!row) throw postNotFound();
    const current = await storesOfPost(tx, id);
    assertRowWritable(tx, current, postNotFound);
    const urlKey = body.urlKey === undefined ? undefined : urlKeyOf(body.urlKey, title ?? row.title);
    if (links) await checkCategories(tx, links);
    const nextKey = urlKey ?? row.urlKey;
    const nextStores = stores ?? (current.length ? current : [ALL_STORES]);
    const moved = (urlKey !== undefined && urlKey !== row.urlKey) || stores !== undefined;
    if (moved) await assertFree(tx, nextKey, nextStores, id);
    await tx.db
      .update(blogPosts)
      .set({ ...cols, ...(urlKey !== undefined ? { urlKey } : {}), ...(title !== undefined ? { title } : {}), updatedAt: tx.now })
      .where(eq(blogPosts.id, id));
    if (moved) await writeStoresAndPaths(tx, id, nextKey, nextStores);
    if (links) await writeCategories(tx, id, links);
  });
  return readPost(ctx, id, true);
}

/** Deletes a post, its links and its URL paths. */
export async function deletePost(ctx: Ctx, id: number): Promise<void> {
  await withTx(ctx, async (tx) => {
    assertRowWritable(tx, await storesOfPost(tx, id), postNotFound);
    const [row] = await tx.db.delete(blogPosts).where(eq(blogPosts.id, id)).returning({ id: blogPosts.id });
    if (!row) throw postNotFound();
    await removeEntityPaths(tx, 'blog_post', id);
  });
}
