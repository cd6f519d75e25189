/**
 * Reading tags. Shoppers (and anyone without tags/read) see approved tags in the request's store view: a
 * product's tags, the tag cloud (popular first), a tag and the products tagged with it there. Staff see every tag
 * with its status, figures of a store view of their choice (every store view by default) and where it is used.
 * Every list is one statement for the page (two when the page lies past the end), plus one for product names.
 */
import { sql, type SQL } from 'drizzle-orm';
import { adminStoreScope, customerIdOf, type Ctx } from '../../platform/context.js';
import { rows } from '../../platform/db.js';
import { badRequest, forbidden, notFound } from '../../platform/errors.js';
import { likeEscape } from '../../platform/format.js';
import { pageOf, type CollectionResult, type Page } from '../../platform/pagination.js';
import { productsInStoreSql } from '../catalog/products/keys.js';
import { inWriteScope, productNames, requireProduct } from '../catalog/products/shared.js';
import {
  TAG_STATUSES,
  type CustomerTagDto,
  type TagDto,
  type TaggedProductDto,
  type TagListQueryT,
  type TagProductsQueryT,
  type TagReadQueryT,
  type TagSortField,
  type TagStatus,
} from './schemas.js';
import {
  figuresStore,
  findTag,
  intList,
  isTagStaff,
  pageOfRows,
  shownToShoppers,
  tagColumns,
  tagDto,
  tagFrom,
  tagMissing,
  tagVisible,
  visibleSql,
  type TagRow,
} from './shared.js';

export const TAG_PAGE = { defaultSize: 20, maxSize: 100 };

const SORT: Record<TagSortField, SQL> = {
  popularity: sql`coalesce(s.popularity, 0)`,
  name: sql`lower(t.name)`,
  productCount: sql`coalesce(s.products, 0)`,
  customerCount: sql`coalesce(s.customers, 0)`,
  status: sql`t.status`,
  id: sql`t.id`,
};
const DESC_FIRST = new Set<TagSortField>(['popularity', 'productCount', 'customerCount']);

function order(query: Pick<TagListQueryT, 'sortBy' | 'sortDir'>): SQL {
  const by = query.sortBy ?? 'popularity';
  const dir = sql.raw((query.sortDir ?? (DESC_FIRST.has(by) ? 'desc' : 'asc')) === 'asc' ? 'ASC' : 'DESC');
  return sql`ORDER BY ${SORT[by]} ${dir}, lower(t.name) ASC, t.id ASC`;
}

function checkStatus(v: unknown): TagStatus {
  if (!(TAG_STATUSES as readonly unknown[]).includes(v)) {
    throw badRequest(`status must be one of ${TAG_STATUSES.join(', ')}`, { reason: 'INVALID_STATUS', details: { field: 'status' } });
  }
  return v as TagStatus;
}

/** GET /tags: the tag cloud of the store view (approved tags used on products there, popular first), or every tag for staff. */
export async function listTags(ctx: Ctx, query: TagListQueryT, page: Page = pageOf(query, TAG_PAGE)): Promise<CollectionResult<TagDto>> {
  const conds: SQL[] = [];
  const search = query.search?.trim();
  if (search) conds.push(sql`t.name ILIKE ${`%${likeEscape(search)}%`}`);
  if (!isTagStaff(ctx)) {
    const storeId = ctx.store.storeId;
    conds.push(sql`t.status = 'approved'`, sql`s.products > 0`);
    const { list, total } = await pageOfRows<TagRow>(
      ctx.db,
      (limit) => sql`SELECT ${tagColumns(storeId)}, count(*) OVER ()::int AS total FROM tags t
        JOIN tag_summaries s ON s.tag_id = t.id AND s.store_id = ${storeId}::int WHERE ${sql.join(conds, sql` AND `)} ${order(query)} ${limit}`,
      page,
    );
    return { items: list.map((r) => tagDto(r)), total };
  }
  const storeId = figuresStore(ctx, query.storeId);
  if (query.status !== undefined) conds.push(sql`t.status = ${checkStatus(query.status)}`);
  const scope = adminStoreScope(ctx);
  if (query.productId !== undefined) {
    conds.push(sql`EXISTS (SELECT 1 FROM tag_relations r WHERE r.tag_id = t.id AND r.product_id = ${query.productId} AND r.active
      ${scope ? sql`AND r.store_id = ANY(${intList(scope)}::int[])` : sql``})`);
  }
  conds.push(visibleSql(ctx));
  const { list, total } = await pageOfRows<TagRow>(
    ctx.db,
    (limit) =>
      sql`SELECT ${tagColumns(storeId)}, count(*) OVER ()::int AS total FROM ${tagFrom(storeId)} WHERE ${sql.join(conds, sql` AND `)} ${order(query)} ${limit}`,
    page,
  );
  return { items: list.map((r) => tagDto(r, storeId)), total };
}

/**
 * The tag as the caller may see it: staff any tag they see (figures of `storeId`), others an approved tag used on
 * a product in the request's store view. Anything else is a 404.
 */
export async function readableTag(ctx: Ctx, id: number, query: TagReadQueryT = {}): Promise<{ row: TagRow; staffStore?: number }> {
  if (isTagStaff(ctx)) {
    const storeId = figuresStore(ctx, query.storeId);
    const row = await findTag(ctx.db, id, storeId);
    if (!row || !tagVisible(ctx, row)) throw tagMissing();
    return { row, staffStore: storeId };
  }
  const row = await findTag(ctx.db, id, ctx.store.storeId);
  if (!row || row.status !== 'approved' || Number(row.productCount) <= 0) throw tagMissing();
  return { row };
}

/** GET /tags/{id}. */
export async function getTag(ctx: Ctx, id: number, query: TagReadQueryT = {}): Promise<TagDto> {
  const { row, staffStore } = await readableTag(ctx, id, query);
  return tagDto(row, staffStore);
}

/** The tag as staff see it after a write, figures of `storeId`. */
export async function staffTag(ctx: Ctx, id: number, storeId: number): Promise<TagDto> {
  const row = await findTag(ctx.db, id, storeId);
  if (!row) throw tagMissing();
  return tagDto(row, storeId);
}

/** GET /products/{productId}/tags: the product's approved tags in the request's store view, popular first. */
export async function productTags(ctx: Ctx, productId: number, page: Page): Promise<CollectionResult<TagDto>> {
  const p = await requireProduct(ctx, productId);
  const visible = ctx.actor.kind === 'admin' ? inWriteScope(ctx, p.websiteIds) : shownToShoppers(ctx, p);
  if (!visible) throw notFound('Product not found', { reason: 'PRODUCT_NOT_FOUND' });
  const storeId = ctx.store.storeId;
  const { list, total } = await pageOfRows<TagRow>(
    ctx.db,
    (limit) => sql`SELECT ${tagColumns(storeId)}, count(*) OVER ()::int AS total FROM ${tagFrom(storeId)}
      WHERE t.status = 'approved' AND EXISTS (SELECT 1 FROM tag_relations r
        WHERE r.tag_id = t.id AND r.product_id = ${productId} AND r.store_id = ${storeId}::int AND r.active)
      ${order({})} ${limit}`,
    page,
  );
  return { items: list.map((r) => tagDto(r)), total };
}

interface TaggedRow {
  productId: number;
  sku: string;
  name: string;
  popularity: number;
  stores: number[];
  total?: number;
}

/** The store views a staff caller's list of uses covers: the one asked for, else all (a limited token: its own). */
function staffStores(ctx: Ctx, asked: number | undefined): number[] | undefined {
  const scope = adminStoreScope(ctx);
  if (asked !== undefined && asked !== 0) {
    figuresStore(ctx, asked);
    if (scope && !scope.includes(asked)) throw forbidden(`Access denied to store ${asked}`, { reason: 'STORE_NOT_ALLOWED' });
    return [asked];
  }
  return scope;
}

/**
 * GET /tags/{id}/products: for shoppers the products shown in the request's store view that are tagged with the
 * (approved) tag there; for staff every product tagged with it (in the store view asked for, else in all of theirs).
 * Most tagged first.
 */
export async function tagProducts(ctx: Ctx, id: number, query: TagProductsQueryT, page: Page): Promise<CollectionResult<TaggedProductDto>> {
  const { staffStore } = await readableTag(ctx, id, query.storeId === undefined ? {} : { storeId: query.storeId });
  const staff = staffStore !== undefined;
  const stores = staff ? staffStores(ctx, query.storeId) : [ctx.store.storeId];
  const conds = [sql`r.tag_id = ${id}`, sql`r.active`];
  if (stores) conds.push(sql`r.store_id = ANY(${intList(stores)}::int[])`);
  if (!staff) conds.push(sql`p.shown`);
  const { list, total } = await pageOfRows<TaggedRow>(
    ctx.db,
    (limit) => sql`SELECT r.product_id AS "productId", p.sku, p.name, count(*)::int AS popularity,
        array_agg(DISTINCT r.store_id ORDER BY r.store_id) AS stores, count(*) OVER ()::int AS total
      FROM tag_relations r JOIN ${productsInStoreSql(ctx.store.storeId, ctx.store.websiteId)} p ON p.id = r.product_id
      WHERE ${sql.join(conds, sql` AND `)}
      GROUP BY r.product_id, p.sku, p.name ORDER BY popularity DESC, r.product_id ASC ${limit}`,
    page,
  );
  return {
    items: list.map((r) => ({
      productId: Number(r.productId),
      sku: r.sku,
      name: r.name,
      popularity: Number(r.popularity),
      ...(staff ? { stores: r.stores.map(Number) } : {}),
    })),
    total,
  };
}

interface MineRow {
  id: number;
  name: string;
  status: TagStatus;
  products: { productId: number; storeId: number; createdAt: string }[];
  total?: number;
}

/** GET /customers/me/tags: the tags the calling customer uses (not those removed), by name, with what they tagged. */
export async function myTags(ctx: Ctx, page: Page): Promise<CollectionResult<CustomerTagDto>> {
  const customerId = customerIdOf(ctx.actor);
  if (customerId === undefined) throw forbidden('Customer identity required', { reason: 'CUSTOMER_IDENTITY_REQUIRED' });
  const { list, total } = await pageOfRows<MineRow>(
    ctx.db,
    (limit) => sql`SELECT t.id, t.name, t.status,
        json_agg(json_build_object('productId', r.product_id, 'storeId', r.store_id,
          'createdAt', to_char(r.created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD HH24:MI:SS')) ORDER BY r.created_at DESC, r.id DESC) AS products,
        count(*) OVER ()::int AS total
      FROM tag_relations r JOIN tags t ON t.id = r.tag_id
      WHERE r.customer_id = ${customerId} AND r.active
      GROUP BY t.id ORDER BY lower(t.name), t.id ${limit}`,
    page,
  );
  const names = await productNames(
    ctx,
    list.flatMap((r) => r.products.map((p) => p.productId)),
  );
  return {
    items: list.map((r) => ({
      id: r.id,
      name: r.name,
      status: r.status,
      products: r.products.map((p) => ({ ...p, name: names.get(p.productId) ?? '' })),
    })),
    total,
  };
}

// ---- what the Magento 1 API reads ----

/** The store views a legacy call covers: the one named, else every one (a limited API user: its own). */
export function legacyStores(ctx: Ctx, storeId: number | undefined): number[] | undefined {
  return storeId === undefined ? adminStoreScope(ctx) : [storeId];
}

/** The tags (any status) used on the product in those store views (undefined: every one), by id. */
export async function tagsOnProduct(ctx: Ctx, productId: number, stores: number[] | undefined): Promise<{ id: number; name: string }[]> {
  return rows<{ id: number; name: string }>(
    ctx.db,
    sql`SELECT t.id, t.name FROM tags t WHERE EXISTS (SELECT 1 FROM tag_relations r WHERE r.tag_id = t.id AND r.product_id = ${productId}
      AND r.active ${stores ? sql`AND r.store_id = ANY(${intList(stores)}::int[])` : sql``}) ORDER BY t.id`,
  );
}

/** How often each product is tagged with the tag in those store views (undefined: every one), by product id. */
export async function tagUses(ctx: Ctx, tagId: number, stores: number[] | undefined): Promise<{ productId: number; popularity: number }[]> {
  return rows<{ productId: number; popularity: number }>(
    ctx.db,
    sql`SELECT r.product_id AS "productId", count(*)::int AS popularity FROM tag_relations r
      WHERE r.tag_id = ${tagId} AND r.active ${stores ? sql`AND r.store_id = ANY(${intList(stores)}::int[])` : sql``}
      GROUP BY r.product_id ORDER BY r.product_id`,
  );
}

/** The tag with its figures in `storeId` (0: every store view), undefined when there is none the caller may see. */
export async function tagForStaff(ctx: Ctx, id: number, storeId: number): Promise<TagRow | undefined> {
  const row = await findTag(ctx.db, id, storeId);
  return row && tagVisible(ctx, row) ? row : undefined;
}
