/**
 * Product reviews: shoppers post them (always `pending` unless the store approves automatically), moderators
 * approve or refuse them and choose the store views they show in. Only approved reviews are public, and only
 * they count in a product's review summary, which is per store view: the reviews a store view lists are the
 * ones it counts and averages (`reviewSummarySql`, `reviewSummaries`), computed when read: the catalog's product
 * read embeds `reviewSummarySql`.
 */
import { asc, eq, sql, type SQL } from 'drizzle-orm';
import { hasPermission } from '../../platform/auth/access.js';
import { adminStoreScope, customerIdOf, scopeWritable, withTx, type Ctx } from '../../platform/context.js';
import { dateRangeConditions } from '../../platform/date-range.js';
import { rows, statement, type Db } from '../../platform/db.js';
import { badRequest, forbidden, notFound } from '../../platform/errors.js';
import { compact, likeEscape } from '../../platform/format.js';
import { pageOf, type CollectionResult, type Page } from '../../platform/pagination.js';
import { configuredRule } from '../../platform/rate-limit.js';
import { declareConfig } from '../../platform/settings.js';
import { inWriteScope, productNames, requireProduct, type ProductRow } from '../catalog/products/shared.js';
import {
  REVIEW_SORT_FIELDS,
  REVIEW_STATUSES,
  type PageQueryT,
  type ReviewCreateBody,
  type ReviewDto,
  type ReviewListQueryT,
  type ReviewStatus,
  type ReviewUpdateBody,
} from './schemas.js';
import { reviewSummarySql } from './summary-sql.js';
import { ratings, reviewVotes, reviews } from './tables.js';
import { reviewEvents } from './events.js';

declareConfig({
  'catalog/review/auto_approve': { type: 'boolean', default: false, label: 'Approve Reviews Posted through the API at Once' },
  'api/rate_limit/review_submit': {
    type: 'integer',
    default: 10,
    label: 'Review Posts',
    comment: 'review posts per hour per IP and per customer; 0: no limit',
    min: 0,
    scopes: ['default'],
  },
});
// `catalog/review/active` (default on) is declared by the stores module, which reports it as reviewsEnabled.

/** Every review list defaults to 10 per page. */
const PAGE = { defaultSize: 10, maxSize: 100 };

/** Install data: the rating codes shoppers vote on. */
export async function install(db: Db): Promise<void> {
  await db
    .insert(ratings)
    .values([
      { code: 'Quality', position: 1 },
      { code: 'Value', position: 2 },
      { code: 'Price', position: 3 },
    ])
    .onConflictDoNothing();
}

// ---- reading ----

interface ReviewRow {
  id: number;
  productId: number;
  title: string;
  detail: string;
  nickname: string;
  status: ReviewStatus;
  stores: number[];
  createdAt: string;
  votes: { code: string; value: number }[];
  total?: number;
}

/** A review's columns under their wire names, its votes as a JSON array in rating order. */
const COLUMNS = sql.raw(`r.id, r.product_id AS "productId", r.title, r.detail, r.nickname, r.status, r.store_ids AS "stores",
  to_char(r.created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD HH24:MI:SS') AS "createdAt",
  COALESCE((SELECT json_agg(json_build_object('code', ra.code, 'value', v.value) ORDER BY ra.position, ra.id)
              FROM review_votes v JOIN ratings ra ON ra.id = v.rating_id WHERE v.review_id = r.id), '[]'::json) AS votes`);
const NEWEST_FIRST = sql.raw('ORDER BY r.created_at DESC, r.id DESC');

/** A product's approved reviews in a store view, one page and the total in one round trip (storefront product page). */
const approvedOfProduct = statement<ReviewRow>(
  'reviews_approved_of_product',
  () => sql`SELECT ${COLUMNS}, count(*) OVER ()::int AS total FROM reviews r
    WHERE r.product_id = ${sql.placeholder('productId')} AND r.status = 'approved' AND ${sql.placeholder('storeId')}::int = ANY (r.store_ids)
    ${NEWEST_FIRST} LIMIT ${sql.placeholder('limit')} OFFSET ${sql.placeholder('offset')}`,
);

async function selectReviews(db: Db, where: SQL, page: Page, order: SQL = NEWEST_FIRST): Promise<{ list: ReviewRow[]; total: number }> {
  const list = await rows<ReviewRow>(
    db,
    sql`SELECT ${COLUMNS}, count(*) OVER ()::int AS total FROM reviews r WHERE ${where} ${order} LIMIT ${page.size} OFFSET ${page.offset}`,
  );
  return { list, total: await totalOf(db, list, where, page) };
}

/** The total from the first row, or counted when the page lies past the end. */
async function totalOf(db: Db, list: ReviewRow[], where: SQL, page: Page): Promise<number> {
  if (list.length) return Number(list[0].total);
  if (page.offset === 0) return 0;
  const [c] = await rows<{ n: number }>(db, sql`SELECT count(*)::int AS n FROM reviews r WHERE ${where}`);
  return Number(c.n);
}

async function findReview(db: Db, id: number): Promise<ReviewRow | undefined> {
  const [row] = await rows<ReviewRow>(db, sql`SELECT ${COLUMNS} FROM reviews r WHERE r.id = ${id}`);
  return row;
}

function storeValue(p: ProductRow, storeId: number, key: string): unknown {
  return p.storeValues?.[String(storeId)]?.[key];
}

function productName(ctx: Ctx, p: ProductRow): string {
  const name = storeValue(p, ctx.store.storeId, 'name');
  return typeof name === 'string' && name !== '' ? name : p.name;
}

/**
 * Enabled in the current store view, assigned to its website and visible individually (not a `not_visible`
 * variant): what the catalog shows shoppers.
 */
function shownToShoppers(ctx: Ctx, p: ProductRow): boolean {
  if (p.visibility === 'not_visible') return false;
  let enabled = p.isActive;
  const isActive = storeValue(p, ctx.store.storeId, 'isActive');
  const status = storeValue(p, ctx.store.storeId, 'status');
  if (typeof isActive === 'boolean') enabled = isActive;
  else if (status === 'enabled' || status === 'disabled') enabled = status === 'enabled';
  return enabled && p.websiteIds.includes(ctx.store.websiteId);
}

/**
 * The product, or 404; a product shoppers cannot see is a 404 for everyone but admin/API callers, and one of
 * another website for an admin principal limited to some store views.
 */
async function productFor(ctx: Ctx, productId: number, forUpdate = false): Promise<ProductRow> {
  const p = await requireProduct(ctx, productId, { forUpdate });
  const visible = ctx.actor.kind === 'admin' ? inWriteScope(ctx, p.websiteIds) : shownToShoppers(ctx, p);
  if (!visible) throw notFound('Product not found', { reason: 'PRODUCT_NOT_FOUND' });
  return p;
}

function toDto(row: ReviewRow, name: string | undefined): ReviewDto {
  const votes = row.votes ?? [];
  const rating = votes.length ? Math.round(votes.reduce((s, v) => s + v.value, 0) / votes.length) : undefined;
  return compact({
    id: row.id,
    productId: row.productId,
    productName: name,
    title: row.title,
    detail: row.detail,
    nickname: row.nickname,
    rating,
    status: row.status,
    createdAt: row.createdAt,
    ratings: votes.map((v) => ({ code: v.code, value: v.value, percent: v.value * 20 })),
    stores: [...(row.stores ?? [])].sort((a, b) => a - b),
  });
}

/** DTOs of reviews of several products, with the products' names in the current store view (one query). */
async function toDtos(ctx: Ctx, list: ReviewRow[]): Promise<ReviewDto[]> {
  const names = await productNames(
    ctx,
    list.map((r) => r.productId),
  );
  return list.map((r) => toDto(r, names.get(r.productId)));
}

function requireReviewsEnabled(ctx: Ctx): void {
  if (!ctx.app.settings.getBool('catalog/review/active', ctx.store.storeId)) {
    throw notFound('Reviews are disabled in this store', { reason: 'REVIEWS_DISABLED' });
  }
}

function isModerator(ctx: Ctx): boolean {
  return ctx.actor.kind === 'admin' && hasPermission(ctx.actor.permissions, 'reviews', 'read');
}

function inAdminScope(ctx: Ctx, row: ReviewRow): boolean {
  const allowed = adminStoreScope(ctx);
  return !allowed || row.stores.some((s) => allowed.includes(s));
}

/** GET /products/{productId}/reviews: approved reviews shown in the current store view, newest first. */
export async function listProductReviews(
  ctx: Ctx,
  productId: number,
  query: PageQueryT,
  page: Page = pageOf(query, PAGE),
): Promise<{ result: CollectionResult<ReviewDto>; page: Page }> {
  requireReviewsEnabled(ctx);
  const product = await productFor(ctx, productId);
  const storeId = ctx.store.storeId;
  const list = await approvedOfProduct.run(ctx.db, { productId, storeId, limit: page.size, offset: page.offset });
  const where = sql`r.product_id = ${productId} AND r.status = 'approved' AND ${storeId}::int = ANY (r.store_ids)`;
  const name = productName(ctx, product);
  return { result: { items: list.map((r) => toDto(r, name)), total: await totalOf(ctx.db, list, where, page) }, page };
}

/**
 * GET /reviews/{id}: an approved review shown in the current store view; moderators (reviews/read) read any
 * review of their stores. Anything else is a 404.
 */
export async function getReview(ctx: Ctx, id: number): Promise<ReviewDto> {
  requireReviewsEnabled(ctx);
  const row = await findReview(ctx.db, id);
  const missing = () => notFound('Review not found', { reason: 'REVIEW_NOT_FOUND' });
  if (!row) throw missing();
  if (isModerator(ctx) && inAdminScope(ctx, row)) {
    return toDto(row, productName(ctx, await requireProduct(ctx, row.productId)));
  }
  if (row.status !== 'approved' || !row.stores.includes(ctx.store.storeId)) throw missing();
  const p = await requireProduct(ctx, row.productId).catch(() => undefined);
  if (!p || !shownToShoppers(ctx, p)) throw missing();
  return toDto(row, productName(ctx, p));
}

/** GET /customers/me/reviews: the calling customer's reviews in every status and store, newest first. */
export async function listMyReviews(
  ctx: Ctx,
  query: PageQueryT,
  page: Page = pageOf(query, PAGE),
): Promise<{ result: CollectionResult<ReviewDto>; page: Page }> {
  requireReviewsEnabled(ctx);
  const customerId = customerIdOf(ctx.actor);
  if (customerId === undefined) throw forbidden('Customer identity required', { reason: 'CUSTOMER_IDENTITY_REQUIRED' });
  const { list, total } = await selectReviews(ctx.db, sql`r.customer_id = ${customerId}`, page);
  return { result: { items: await toDtos(ctx, list), total }, page };
}

/** ORDER BY of the moderation queue: the chosen column (newest first by default), then the id. */
function moderationOrder(query: ReviewListQueryT): SQL {
  const dir = sql.raw(query.sortDir === 'asc' ? 'ASC' : 'DESC');
  const column: Record<(typeof REVIEW_SORT_FIELDS)[number], SQL> = {
    created_at: sql`r.created_at`,
    title: sql`lower(r.title)`,
    nickname: sql`lower(r.nickname)`,
    status: sql`r.status`,
    product_id: sql`r.product_id`,
  };
  return sql`ORDER BY ${column[query.sortBy ?? 'created_at']} ${dir}, r.id ${dir}`;
}

/** GET /reviews: the moderation queue (admin reviews/read), newest first, filtered by status and product. */
export async function listReviews(
  ctx: Ctx,
  query: ReviewListQueryT,
  page: Page = pageOf(query, PAGE),
): Promise<{ result: CollectionResult<ReviewDto>; page: Page }> {
  requireReviewsEnabled(ctx);
  const conds: SQL[] = [sql`true`];
  if (query.status !== undefined) conds.push(sql`r.status = ${checkStatus('status', query.status)}`);
  if (query.productId !== undefined) conds.push(sql`r.product_id = ${query.productId}`);
  if (query.storeId !== undefined) conds.push(sql`${query.storeId}::int = ANY (r.store_ids)`);
  const search = query.search?.trim();
  if (search) {
    const like = `%${likeEscape(search)}%`;
    conds.push(sql`(r.title ILIKE ${like} OR r.detail ILIKE ${like} OR r.nickname ILIKE ${like})`);
  }
  conds.push(...dateRangeConditions({ created: sql`r.created_at` }, query));
  const allowed = adminStoreScope(ctx);
  if (allowed) conds.push(sql`r.store_ids && ${sql.raw(`'{${allowed.map(Number).join(',')}}'::int[]`)}`);
  const { list, total } = await selectReviews(ctx.db, sql.join(conds, sql` AND `), page, moderationOrder(query));
  return { result: { items: await toDtos(ctx, list), total }, page };
}

// ---- writing ----

/** A required text: trimmed, not blank, at most `max` characters. */
function text(field: string, v: unknown, max: number): string {
  const s = typeof v === 'string' ? v.trim() : '';
  if (!s) throw badRequest(`${field} is required`, { reason: 'MISSING_FIELDS', details: { field, constraint: 'required' } });
  if (s.length > max) {
    throw badRequest(`${field} must be at most ${max} characters`, {
      reason: 'VALIDATION_FAILED',
      details: { field, constraint: 'maxLength' },
    });
  }
  return s;
}

/** A vote: an integer from 1 to 5. */
function vote(field: string, v: unknown): number {
  if (typeof v !== 'number' || !Number.isInteger(v) || v < 1 || v > 5) {
    throw badRequest(`${field} must be an integer from 1 to 5`, { reason: 'INVALID_RATING', details: { field, constraint: 'range' } });
  }
  return v;
}

function checkStatus(field: string, v: unknown): ReviewStatus {
  if (!(REVIEW_STATUSES as readonly unknown[]).includes(v)) {
    throw badRequest(`${field} must be one of ${REVIEW_STATUSES.join(', ')}`, {
      reason: 'INVALID_STATUS',
      details: { field, constraint: 'enum' },
    });
  }
  return v as ReviewStatus;
}

/** The votes of a new review by rating id: `rating` for every code, `ratings` per code (case-insensitive). */
async function resolveVotes(ctx: Ctx, body: ReviewCreateBody): Promise<{ ratingId: number; value: number }[]> {
  const all = await ctx.db.select().from(ratings).orderBy(asc(ratings.position), asc(ratings.id));
  const byCode = new Map(all.map((r) => [r.code.toLowerCase(), r]));
  const values = new Map<number, number>();
  if (body.rating !== undefined && body.rating !== null) {
    const v = vote('rating', body.rating);
    for (const r of all) values.set(r.id, v);
  }
  for (const [code, value] of Object.entries(body.ratings ?? {})) {
    const r = byCode.get(code.trim().toLowerCase());
    if (!r) {
      throw badRequest(`Unknown rating code: ${code} (known: ${all.map((x) => x.code).join(', ')})`, {
        reason: 'UNKNOWN_RATING',
        details: { field: `ratings.${code}`, constraint: 'enum' },
      });
    }
    values.set(r.id, vote(`ratings.${code}`, value));
  }
  return [...values].map(([ratingId, value]) => ({ ratingId, value }));
}

/** A product's review summary in a store view: what its review list there counts and averages. */
export interface ReviewSummary {
  reviewCount: number;
  /** 1 to 5, two decimals; absent when no counted review has votes */
  averageRating?: number;
}

/** The review summaries of products in the request's store view (one query); every asked product is in the map. */
export async function reviewSummaries(ctx: Ctx, productIds: readonly number[]): Promise<Map<number, ReviewSummary>> {
  const ids = [...new Set(productIds)].filter((id) => Number.isInteger(id) && id > 0 && id <= 2147483647);
  const out = new Map<number, ReviewSummary>();
  if (!ids.length) return out;
  const s = reviewSummarySql(sql`p.id`, sql`${ctx.store.storeId}::int`);
  const found = await rows<{ id: number; count: number; average: string | null }>(
    ctx.db,
    sql`SELECT p.id, ${s.count} AS count, ${s.average} AS average FROM unnest(${`{${ids.join(',')}}`}::int[]) AS p(id)`,
  );
  for (const r of found) {
    out.set(
      Number(r.id),
      compact({ reviewCount: Number(r.count), averageRating: r.average === null ? undefined : Number(r.average) }) as ReviewSummary,
    );
  }
  return out;
}

/**
 * POST /products/{productId}/reviews by a customer (the review is theirs) or an admin/API principal (on
 * nobody's behalf). Created `pending` in the current store view, or approved when the store says so.
 * Non-backend callers are limited per IP and per customer; only a post that passed every check (text,
 * product, votes) counts against the limit.
 */
export async function createReview(ctx: Ctx, productId: number, body: ReviewCreateBody): Promise<ReviewDto> {
  requireReviewsEnabled(ctx);
  const input = {
    title: text('title', body.title, 255),
    detail: text('detail', body.detail, 65535),
    nickname: text('nickname', body.nickname, 255),
  };
  const customerId = customerIdOf(ctx.actor);
  const status: ReviewStatus = ctx.app.settings.getBool('catalog/review/auto_approve', ctx.store.storeId) ? 'approved' : 'pending';
  const id = await withTx(ctx, async (tx) => {
    await productFor(tx, productId, status === 'approved');
    const votes = await resolveVotes(tx, body);
    if (ctx.actor.kind !== 'admin') {
      const rule = configuredRule(ctx.app.settings, 'review_submit', 3600, ctx.store.storeId);
      await ctx.app.limiter.consume(rule, `ip:${ctx.ip}`);
      if (customerId !== undefined) await ctx.app.limiter.consume(rule, `customer:${customerId}`);
    }
    const [row] = await tx.db
      .insert(reviews)
      .values({ productId, customerId: customerId ?? null, status, ...input, storeIds: [ctx.store.storeId], createdAt: ctx.now })
      .returning({ id: reviews.id });
    if (votes.length) await tx.db.insert(reviewVotes).values(votes.map((v) => ({ ...v, reviewId: row.id })));
    reviewEvents.emit(tx, 'review.submitted', { resource: 'review', id: row.id }, async () =>
      toDto((await findReview(tx.db, row.id))!, productName(tx, await requireProduct(tx, productId))),
    );
    return row.id;
  });
  const row = (await findReview(ctx.db, id))!;
  return toDto(row, productName(ctx, await requireProduct(ctx, productId)));
}

/** Store view ids from ids or codes; unknown → 400, outside a store-restricted principal's stores → 403. */
function resolveStores(ctx: Ctx, stores: (number | string)[]): number[] {
  if (!Array.isArray(stores) || !stores.length) {
    throw badRequest('stores must name at least one store view', {
      reason: 'VALIDATION_FAILED',
      details: { field: 'stores', constraint: 'minItems' },
    });
  }
  const ids = new Set<number>();
  for (const s of stores) {
    const key = typeof s === 'string' ? s.trim() : s;
    const store =
      typeof key === 'number' || /^\d+$/.test(key) ? ctx.app.settings.store(Number(key)) : ctx.app.settings.storeByCode(key.toLowerCase());
    if (!store) throw badRequest(`Unknown store: ${s}`, { reason: 'UNKNOWN_STORE', details: { field: 'stores', constraint: 'exists' } });
    ids.add(store.id);
  }
  const allowed = adminStoreScope(ctx);
  const outside = allowed ? [...ids].filter((id) => !allowed.includes(id)) : [];
  if (outside.length) throw forbidden(`Access denied to store ${outside[0]}`, { reason: 'STORE_NOT_ALLOWED' });
  return [...ids].sort((a, b) => a - b);
}

/** PUT /reviews/{id} (admin reviews/write): moderate (`status`) and/or choose the store views (`stores`). */
export async function updateReview(ctx: Ctx, id: number, body: ReviewUpdateBody): Promise<ReviewDto> {
  requireReviewsEnabled(ctx);
  if (body.status === undefined && body.stores === undefined) {
    throw badRequest('Nothing to update: send status and/or stores', {
      reason: 'NOTHING_TO_UPDATE',
      details: { field: 'status', constraint: 'required' },
    });
  }
  const status = body.status === undefined ? undefined : checkStatus('status', body.status);
  const storeIds = body.stores === undefined ? undefined : resolveStores(ctx, body.stores);
  const missing = () => notFound('Review not found', { reason: 'REVIEW_NOT_FOUND' });
  const productId = await withTx(ctx, async (tx) => {
    const found = await findReview(tx.db, id);
    if (!found || !inAdminScope(ctx, found)) throw missing();
    // a review shown in store views outside a limited principal's own is theirs to read, not to moderate
    if (!scopeWritable(ctx, found.stores))
      throw forbidden('This review is also shown in store views this token may not act in', { reason: 'STORE_NOT_ALLOWED' });
    const set: Partial<typeof reviews.$inferInsert> = {};
    if (status !== undefined) set.status = status;
    if (storeIds !== undefined) set.storeIds = storeIds;
    const updated = await tx.db.update(reviews).set(set).where(eq(reviews.id, id)).returning({ id: reviews.id });
    if (!updated.length) throw missing();
    return found.productId;
  });
  const row = (await findReview(ctx.db, id))!;
  return toDto(row, productName(ctx, await requireProduct(ctx, productId)));
}
