/**
 * Product reads: one product with all its detail (GET /products/{id}) and the product listing (GET /products),
 * in the request's store view and response currency.
 *
 * - Storefront callers (anonymous, customers, principals without products/read) see only products enabled in
 *   their store view and assigned to their website; a product that is not visible individually is a 404, and
 *   listings hold only catalog-visible products (search-visible ones when searching).
 * - Backend readers (products/read) see every product, backend-only fields, and prices in the base currency.
 * - The detail is one prepared statement; a listing page is one query (plus one for `fullDetail`), a prepared
 *   statement when it filters nothing and sorts by name.
 */
import { sql, type SQL } from 'drizzle-orm';
import type { CatalogParts, Ctx } from '../../../platform/context.js';
import { rows, statement, type Statement } from '../../../platform/db.js';
import { notFound } from '../../../platform/errors.js';
import { ReadCache } from '../../../platform/read-cache.js';
import { pageOf, type CollectionResult, type Page } from '../../../platform/pagination.js';
import { products } from '../tables.js';
import { recordSearch } from '../search-terms.js';
import { isUnfiltered, listingOrder, listingParams, listingWhere, nameOrder, readValues, searchText, unfilteredWhere } from './listing.js';
import { detailFields, toProductDto } from './mapper.js';
import { resolveDetail, type BaseRow, type DetailSqlRow } from './read-rows.js';
import { readView } from './read-view.js';
import { baseColumns, detailColumns, placeholderParams, readable, readValueParams, type ReadParams } from './read-sql.js';
import type { ProductDto, ProductListQueryT } from './schemas.js';
import { priceDay } from './price.js';

const INT_MAX = 2147483647;

/** Page sizes of the product listing: 20 by default, 100 at most. */
export const PRODUCT_PAGE = { defaultSize: 20, maxSize: 100 };

interface ReadStatements {
  detail: Statement<BaseRow & DetailSqlRow>;
  /** detail of several products at once (list items with fullDetail), by id */
  detailMany: Statement<DetailSqlRow>;
  /** the listing without filters in the default order, for any caller: one per direction */
  unfiltered: Record<'ASC' | 'DESC', Statement<BaseRow & { total: number }>>;
}

/**
 * The prepared statements of product reads, built once per app: they embed the SQL other modules lend
 * (`ctx.app.catalogParts`, the same object for the app's lifetime).
 */
const statementsByParts = new WeakMap<CatalogParts, ReadStatements>();

function readStatements(ctx: Ctx): ReadStatements {
  const parts = ctx.app.catalogParts;
  let built = statementsByParts.get(parts);
  if (!built) {
    const p = placeholderParams(parts);
    built = {
      detail: statement<BaseRow & DetailSqlRow>(
        'catalog_product_detail',
        () => sql`SELECT ${baseColumns(products, p)}, ${detailColumns(p)}
          FROM ${products} WHERE ${products.id} = ${sql.placeholder('id')}::int AND ${readable(p)}`,
      ),
      detailMany: statement<DetailSqlRow>(
        'catalog_product_detail_many',
        () => sql`SELECT ${products.id} AS "id", ${detailColumns(p)}
          FROM ${products} WHERE ${products.id} = ANY(${sql.placeholder('ids')}::int[])`,
      ),
      unfiltered: {
        ASC: unfilteredStatement(p, 'ASC'),
        DESC: unfilteredStatement(p, 'DESC'),
      },
    };
    statementsByParts.set(parts, built);
  }
  return built;
}

const productNotFound = () => notFound('Product not found', { reason: 'PRODUCT_NOT_FOUND' });

/** One product with its detail. Storefront callers get 404 for a product they may not see. */
type ListAnswer = { result: CollectionResult<ProductDto>; page: Page };

/**
 * What an anonymous shopper reads depends only on the store view, the currency, the day (special prices) and
 * the catalog, so those reads are cached per process until the catalog changes (`ReadCache`; config changes
 * start a new cache with the new settings snapshot). Signed-in and back-office readers see their own prices
 * and fields and always read the database. Undefined: not a shared read.
 */
function sharedReadKey(ctx: Ctx): string | undefined {
  if (ctx.actor.kind !== 'anonymous') return undefined;
  return `${ctx.store.storeId}|${ctx.store.currency}|${priceDay(ctx)}`;
}

const detailCache = (ctx: Ctx) => ctx.app.settings.memo('catalog.product-detail', () => new ReadCache<ProductDto>('catalog', 5_000));
const listCache = (ctx: Ctx) => ctx.app.settings.memo('catalog.product-list', () => new ReadCache<ListAnswer>('catalog', 2_000));

export async function getProduct(ctx: Ctx, id: number): Promise<ProductDto> {
  if (!Number.isInteger(id) || id < 1 || id > INT_MAX) throw productNotFound();
  const shared = sharedReadKey(ctx);
  if (shared) return detailCache(ctx).get(ctx.db, `${shared}|${id}`, () => readProduct(ctx, id));
  return readProduct(ctx, id);
}

async function readProduct(ctx: Ctx, id: number): Promise<ProductDto> {
  const view = readView(ctx);
  const [row] = await readStatements(ctx).detail.run(ctx.db, { ...readValueParams(readValues(ctx)), id });
  if (!row) throw productNotFound();
  return { ...toProductDto(view, row), ...detailFields(view, row, resolveDetail(row)) };
}

/**
 * One page of the listing: the page's ids picked by a top-N sort with the total counted over the same rows (a
 * window over the filtered rows, computed before the LIMIT), then the columns of those rows only, in the same
 * order. `order` names the outer `products` row too, which is the same product.
 */
function pageSql(columns: SQL, where: SQL, order: SQL, limit: SQL, offset: SQL): SQL {
  return sql`SELECT ${columns}, pg.total::int AS "total"
    FROM (SELECT ${products.id} AS pid, count(*) OVER () AS total FROM ${products} WHERE ${where}
      ORDER BY ${order} LIMIT ${limit} OFFSET ${offset}) pg
    JOIN ${products} ON ${products.id} = pg.pid
    ORDER BY ${order}`;
}

/** The listing without filters in the default order, for any caller: one prepared statement per direction. */
function unfilteredStatement(p: ReadParams, dir: 'ASC' | 'DESC'): Statement<BaseRow & { total: number }> {
  return statement<BaseRow & { total: number }>(`catalog_product_list_${dir.toLowerCase()}`, () =>
    pageSql(
      baseColumns(products, p),
      unfilteredWhere(p),
      nameOrder(p, sql.raw(dir)),
      sql`${sql.placeholder('limit')}::int`,
      sql`${sql.placeholder('offset')}::int`,
    ),
  );
}

/**
 * A page of products: the filters and visibility rules of `listingWhere`, ordered by `listingOrder`
 * (name by default; relevance first when searching), 20 per page, at most 100. `page` is the query's page
 * unless given (GraphQL's cursor paging asks for any offset).
 */
export async function listProducts(ctx: Ctx, query: ProductListQueryT, page: Page = pageOf(query, PRODUCT_PAGE)): Promise<ListAnswer> {
  const shared = sharedReadKey(ctx);
  let answer: ListAnswer;
  if (!shared) answer = await readList(ctx, query, page);
  else {
    const params = Object.entries(query)
      .filter(([, v]) => v !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    answer = await listCache(ctx).get(ctx.db, `${shared}|${page.size}|${page.offset}|${JSON.stringify(params)}`, () =>
      readList(ctx, query, page),
    );
  }
  // a shopper's search, counted for the search-terms report (in memory; written beside the requests)
  const search = searchText(query);
  if (search !== undefined && page.offset === 0 && !readView(ctx).backend) recordSearch(ctx, search, answer.result.total);
  return answer;
}

async function readList(ctx: Ctx, query: ProductListQueryT, page: Page): Promise<ListAnswer> {
  const view = readView(ctx);
  let found: (BaseRow & { total: number })[];
  let where: SQL | undefined;
  if (isUnfiltered(query)) {
    const dir = (query.sortDir ?? 'asc').toLowerCase() === 'desc' ? 'DESC' : 'ASC';
    found = await readStatements(ctx).unfiltered[dir].run(ctx.db, {
      ...readValueParams(readValues(ctx)),
      limit: page.size,
      offset: page.offset,
    });
  } else {
    where = await listingWhere(ctx, query);
    const order = listingOrder(ctx, query);
    found = await rows<BaseRow & { total: number }>(
      ctx.db,
      pageSql(baseColumns(products, listingParams(ctx)), where, order, sql`${page.size}::int`, sql`${page.offset}::int`),
    );
  }
  let total = found.length ? Number(found[0].total) : 0;
  if (!found.length && page.offset > 0) {
    // past the last page: the window saw no row, so count on its own
    where ??= await listingWhere(ctx, query);
    const [c] = await rows<{ n: number }>(ctx.db, sql`SELECT count(*)::int AS n FROM ${products} WHERE ${where}`);
    total = Number(c?.n ?? 0);
  }
  let details: Map<number, DetailSqlRow> | undefined;
  if ((query.fullDetail === '1' || query.fullDetail === 'true') && found.length) {
    const list = await readStatements(ctx).detailMany.run(ctx.db, {
      ...readValueParams(readValues(ctx)),
      ids: `{${found.map((r) => r.id).join(',')}}`,
    });
    details = new Map(list.map((d) => [d.id, d]));
  }
  const items = found.map((r) => {
    const dto = toProductDto(view, r, { listItem: true });
    const d = details?.get(r.id);
    return d ? { ...dto, ...detailFields(view, r, resolveDetail(d)) } : dto;
  });
  return { result: { items, total }, page };
}
