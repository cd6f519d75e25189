/**
 * What the product listing shows and in which order: the visibility rules of the caller and every filter of
 * the list query (wire 2.2 "List query"), as conditions on the `products` table. Layered navigation counts
 * over the same condition, so its counts match the listing.
 *
 * Attribute filters, as in Magento's attribute index: a configurable, grouped or bundle product answers with
 * its own values and those of its children that shoppers could pick in the store view (enabled there and in
 * the website; every child for backend readers). Stock is not asked: the listing shows out-of-stock products
 * too (there is no "hide out-of-stock products" setting), so an out-of-stock variant still places its parent
 * under its colour. `attributeSources` and `attributeValues` are the one definition both the listing filter
 * and the layered counts use.
 */
import { and, sql, type SQL } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import { adminWebsiteScope, type Ctx } from '../../../platform/context.js';
import { badRequest } from '../../../platform/errors.js';
import { dateRangeConditions } from '../../../platform/date-range.js';
import { likeEscape } from '../../../platform/format.js';
import {
  attributeOptions,
  bundleOptions,
  bundleSelections,
  categories,
  categoryProducts,
  configurableChildren,
  groupedChildren,
  productAttributes,
  products,
} from '../tables.js';
import { readView, viewStoreKey } from './read-view.js';
import {
  boundParams,
  inScope,
  inStockSql,
  sellable,
  storeActive,
  storeName,
  storeUrlKey,
  type ReadParams,
  type ReadValues,
} from './read-sql.js';
import { PRODUCT_TYPES } from './shared.js';
import { PRODUCT_SORT_FIELDS, type ProductListQueryT, type ProductSortField } from './schemas.js';

const MAX_FILTER_VALUES = 100;
const CODE = /^[a-z][a-z0-9_]{0,254}$/;

const invalid = (field: string, message: string, constraint = 'invalid') =>
  badRequest(`${field} ${message}`, { reason: 'VALIDATION_FAILED', details: { field, constraint, in: 'querystring' } });

/** Who reads, where: the values of the read parameters. */
export function readValues(ctx: Ctx): ReadValues {
  const backend = readView(ctx).backend;
  return {
    sid: viewStoreKey(ctx),
    wid: ctx.store.websiteId,
    cid: ctx.actor.kind === 'customer' ? ctx.actor.customerId : 0,
    backend,
    scope: backend ? adminWebsiteScope(ctx) : undefined,
  };
}

/** The read parameters of the caller, bound as values. */
export function listingParams(ctx: Ctx): ReadParams {
  return boundParams(readValues(ctx), ctx.app.catalogParts);
}

/** The search text of the query (`search`, alias `q`), trimmed; undefined when empty. */
export function searchText(q: ProductListQueryT): string | undefined {
  const s = (q.search ?? q.q ?? '').trim();
  return s ? s : undefined;
}

/** Values of one attribute filter, as text (booleans also as the 1/0 they are stored as). */
function filterValues(field: string, raw: unknown): string[] {
  const list = Array.isArray(raw) ? raw : [raw];
  const out: string[] = [];
  for (const item of list) {
    if (typeof item === 'string')
      out.push(
        ...item
          .split(',')
          .map((s) => s.trim())
          .filter(Boolean),
      );
    else if (typeof item === 'number' && Number.isFinite(item)) out.push(String(item));
    else if (typeof item === 'boolean') out.push(item ? '1' : '0');
    else throw invalid(field, 'must be a value, a list of values or {"from","to"}', 'type');
  }
  if (!out.length) throw invalid(field, 'must name at least one value', 'minItems');
  if (out.length > MAX_FILTER_VALUES) throw invalid(field, `may name at most ${MAX_FILTER_VALUES} values`, 'maxItems');
  return out;
}

const textArray = (values: string[]) => sql`${`{${values.map((v) => `"${v.replace(/["\\]/g, (c) => `\\${c}`)}"`).join(',')}}`}::text[]`;

/** Children of listed products read by attribute filters (the alias the read SQL gives children too). */
const child = alias(products, 'c');

/**
 * The `attributes` objects a listed product answers attribute filters with, as a subquery of one column
 * `attrs`: the product's own, then for a configurable, grouped or bundle product each child a shopper could
 * choose in the store view (enabled there and in the website; every child for backend readers). `parent` names
 * the product's id, type and attributes in the outer query. Used by the listing filter and the layered counts.
 */
export function attributeSources(p: ReadParams, parent: { id: SQL; type: SQL; attributes: SQL }): SQL {
  return sql`(SELECT ${parent.attributes} AS attrs
    UNION ALL
    SELECT ${child.attributes} FROM ${products} "c" WHERE ${child.id} IN (
        SELECT cc.child_id FROM ${configurableChildren} cc WHERE ${parent.type} = 'configurable' AND cc.parent_id = ${parent.id}
        UNION ALL SELECT g.child_id FROM ${groupedChildren} g WHERE ${parent.type} = 'grouped' AND g.parent_id = ${parent.id}
        UNION ALL SELECT bs.product_id FROM ${bundleOptions} bo JOIN ${bundleSelections} bs ON bs.option_id = bo.id
          WHERE ${parent.type} = 'bundle' AND bo.product_id = ${parent.id})
      AND (${p.backend} OR ${sellable(child, p)}))`;
}

/**
 * The values of attribute `code` in an `attributes` object, as text[]: each element of an array (multiselect
 * option ids), a scalar as text (a string also split at commas, a multiselect written as "12,13"), none for
 * null or a missing key.
 */
export function attributeValues(attrs: SQL, code: SQL): SQL {
  return sql`(CASE jsonb_typeof(${attrs} -> ${code})
    WHEN 'array' THEN ARRAY(SELECT jsonb_array_elements_text(${attrs} -> ${code}))
    WHEN 'string' THEN CASE WHEN strpos(${attrs} ->> ${code}, ',') > 0
      THEN array_prepend(${attrs} ->> ${code}, string_to_array(${attrs} ->> ${code}, ',')) ELSE ARRAY[${attrs} ->> ${code}] END
    WHEN 'number' THEN ARRAY[${attrs} ->> ${code}]
    WHEN 'boolean' THEN ARRAY[${attrs} ->> ${code}]
    ELSE ARRAY[]::text[] END)`;
}

/** The listed product (the `products` row of the listing) as the parent of `attributeSources`. */
const listed = { id: sql`${products.id}`, type: sql`${products.type}`, attributes: sql`${products.attributes}` };

/**
 * The product's value of attribute `code` is one of `values`: an option id, an option label (any case, in any
 * store view), the stored text, or for booleans 1/0, true/false, yes/no. Multiselect values match when any of
 * their options does; a configurable, grouped or bundle product matches through its children too.
 */
function attributeMatches(p: ReadParams, code: string, values: string[]): SQL {
  const lower = values.map((v) => v.toLowerCase());
  const bools = lower.flatMap((v) =>
    ['1', 'true', 'yes'].includes(v) ? ['1', 'true'] : ['0', 'false', 'no'].includes(v) ? ['0', 'false'] : [],
  );
  const wanted = sql`(${textArray([...values, ...bools])} || ARRAY(SELECT o.id::text FROM ${attributeOptions} o
    JOIN ${productAttributes} a ON a.id = o.attribute_id
    WHERE a.code = ${code}::text AND (lower(o.label) = ANY(${textArray(lower)})
      OR EXISTS (SELECT 1 FROM jsonb_each_text(o.store_labels) sl WHERE lower(sl.value) = ANY(${textArray(lower)})))))`;
  return sql`EXISTS (SELECT 1 FROM ${attributeSources(p, listed)} AS src
    WHERE ${attributeValues(sql`src.attrs`, sql`${code}::text`)} && ${wanted})`;
}

/** A numeric range on attribute `code` (prices, weights, numbers stored as text or numbers), children included. */
function attributeRange(p: ReadParams, field: string, code: string, range: Record<string, unknown>): SQL {
  const keys = Object.keys(range);
  if (!keys.length || keys.some((k) => k !== 'from' && k !== 'to')) throw invalid(field, 'range must have "from" and/or "to"', 'type');
  const conds: SQL[] = [];
  const value = sql`(CASE WHEN src.attrs ->> ${code}::text ~ '^-?[0-9]+(\\.[0-9]+)?$'
    THEN (src.attrs ->> ${code}::text)::numeric END)`;
  for (const k of ['from', 'to'] as const) {
    const v = range[k];
    if (v === undefined || v === null || v === '') continue;
    const n = typeof v === 'number' ? v : typeof v === 'string' && /^-?\d+(\.\d+)?$/.test(v.trim()) ? Number(v) : NaN;
    if (!Number.isFinite(n)) throw invalid(`${field}.${k}`, 'must be a number', 'type');
    conds.push(k === 'from' ? sql`${value} >= ${String(n)}::numeric` : sql`${value} <= ${String(n)}::numeric`);
  }
  if (!conds.length) throw invalid(field, 'range must have "from" and/or "to"', 'type');
  return sql`EXISTS (SELECT 1 FROM ${attributeSources(p, listed)} AS src WHERE ${sql.join(conds, sql` AND `)})`;
}

function checkCode(field: string, code: string): void {
  if (!CODE.test(code)) throw invalid(field, 'is not an attribute code', 'pattern');
}

/** `attr_<code>=<value>` parameters (repeated or comma-separated: any of the values). */
function attrParams(q: ProductListQueryT, p: ReadParams): SQL[] {
  const out: SQL[] = [];
  for (const [k, raw] of Object.entries(q)) {
    if (!k.startsWith('attr_') || raw === undefined) continue;
    const code = k.slice(5);
    checkCode(k, code);
    const list = (Array.isArray(raw) ? raw : [raw]).map((v) => String(v));
    out.push(attributeMatches(p, code, filterValues(k, list)));
  }
  return out;
}

/** `attributeFilters`: a JSON object of attribute code → value, list of values, or {"from","to"} range. */
function attributeFilterParam(raw: string | undefined, p: ReadParams): SQL[] {
  if (raw === undefined || raw.trim() === '') return [];
  let parsed: unknown;
  try {
    parsed = JSON.parse(raw);
  } catch {
    throw invalid('attributeFilters', 'must be a JSON object (invalid JSON)', 'format');
  }
  if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) {
    throw invalid('attributeFilters', 'must be a JSON object of attribute codes to values', 'type');
  }
  const out: SQL[] = [];
  for (const [code, v] of Object.entries(parsed as Record<string, unknown>)) {
    const field = `attributeFilters.${code}`;
    checkCode(field, code);
    if (v !== null && typeof v === 'object' && !Array.isArray(v)) out.push(attributeRange(p, field, code, v as Record<string, unknown>));
    else out.push(attributeMatches(p, code, filterValues(field, v)));
  }
  return out;
}

/** In category `id`, or (when it is an anchor) in any category below it. */
function inCategory(id: number): SQL {
  return sql`EXISTS (SELECT 1 FROM ${categoryProducts} cp JOIN ${categories} cat ON cat.id = cp.category_id
    WHERE cp.product_id = ${products.id} AND (cat.id = ${id}::int OR EXISTS (SELECT 1 FROM ${categories} anchor
      WHERE anchor.id = ${id}::int AND anchor.is_anchor AND cat.path LIKE anchor.path || '/%')))`;
}

/**
 * The products the listing shows for this caller and query. Storefront callers see enabled products of their
 * website that are visible in the catalog (in search when searching); backend readers see every product (of
 * their websites when limited to some store views). The condition names the `products` table itself, so use it
 * in a query over `products` without an alias. Bad filter values are a 400 naming the parameter.
 */
export async function listingWhere(ctx: Ctx, q: ProductListQueryT): Promise<SQL> {
  const view = readView(ctx);
  const p = listingParams(ctx);
  const conds: SQL[] = [];
  const search = searchText(q);
  if (view.backend) {
    if (readValues(ctx).scope) conds.push(inScope(p));
  } else {
    conds.push(sellable(products, p));
    conds.push(
      search ? sql`${products.visibility} IN ('search', 'catalog_search')` : sql`${products.visibility} IN ('catalog', 'catalog_search')`,
    );
  }
  if (search) {
    conds.push(
      sql`(${products.searchVector} @@ websearch_to_tsquery('simple', ${search}::text) OR lower(${products.sku}) LIKE ${`${likeEscape(search.toLowerCase())}%`}::text)`,
    );
  }
  if (q.categoryId !== undefined) conds.push(inCategory(q.categoryId));
  for (const [field, bound] of [
    ['priceMin', q.priceMin],
    ['priceMax', q.priceMax],
  ] as const) {
    if (bound === undefined) continue;
    if (!Number.isFinite(bound) || bound < 0) throw invalid(field, 'must be a non-negative number', 'minimum');
    const op = field === 'priceMin' ? sql`>=` : sql`<=`;
    // compared as shoppers see the amount: converted and rounded to cents
    const shown = view.rate ? sql`round(${products.minPrice} * ${view.rate.toString()}::numeric, 2)` : sql`${products.minPrice}`;
    conds.push(sql`${shown} ${op} ${String(bound)}::numeric`);
  }
  if (q.priceMin !== undefined && q.priceMax !== undefined && q.priceMin > q.priceMax) {
    throw invalid('priceMin', 'must not be greater than priceMax', 'range');
  }
  conds.push(...attrParams(q, p), ...attributeFilterParam(q.attributeFilters, p));
  if (q.sku !== undefined && q.sku.trim()) conds.push(sql`lower(${products.sku}) = ${q.sku.trim().toLowerCase()}::text`);
  if (q.urlKey !== undefined && q.urlKey.trim()) conds.push(sql`${storeUrlKey(products, p)} = ${q.urlKey.trim().toLowerCase()}::text`);
  if (q.type !== undefined && q.type.trim()) {
    const type = q.type.trim().toLowerCase();
    if (!(PRODUCT_TYPES as readonly string[]).includes(type)) throw invalid('type', `must be one of ${PRODUCT_TYPES.join(', ')}`, 'enum');
    conds.push(sql`${products.type} = ${type}::text`);
  }
  if (q.status !== undefined) conds.push(q.status === 'enabled' ? storeActive(products, p) : sql`NOT ${storeActive(products, p)}`);
  if (q.visibility !== undefined) conds.push(sql`${products.visibility} = ${q.visibility}::text`);
  if (q.stockStatus !== undefined) conds.push(q.stockStatus === 'in_stock' ? inStockSql(products, p) : sql`NOT ${inStockSql(products, p)}`);
  if (q.websiteId !== undefined) conds.push(sql`${q.websiteId}::int = ANY(${products.websiteIds})`);
  conds.push(...dateRangeConditions({ created: products.createdAt, updated: products.updatedAt }, q));
  return conds.length ? and(...conds)! : sql`true`;
}

/** The default order: the store-view name (case-insensitive, then as written), then the product id. */
export function nameOrder(p: ReadParams, dir: SQL): SQL {
  return sql`lower(${storeName(products, p)}) ${dir}, ${storeName(products, p)} ${dir}, ${products.id} ${dir}`;
}

/**
 * What an unfiltered listing shows: backend readers every product (of their websites when limited to some store
 * views), others the enabled catalog-visible products of their website. The same rows `listingWhere` selects for
 * a query without filters, for any caller, so one prepared statement serves them all.
 */
export function unfilteredWhere(p: ReadParams): SQL {
  return sql`((${p.backend} AND ${inScope(p)})
    OR (NOT ${p.backend} AND ${sellable(products, p)} AND ${products.visibility} IN ('catalog', 'catalog_search')))`;
}

const blank = (v: unknown) => v === undefined || (typeof v === 'string' && v.trim() === '');

/**
 * The query filters nothing and sorts by name (the default): `unfilteredWhere` and `nameOrder` give its rows.
 * Mirrors what `listingWhere` and `listingOrder` read, so any filter they would apply makes this false.
 */
export function isUnfiltered(q: ProductListQueryT): boolean {
  if (searchText(q) !== undefined) return false;
  if (q.categoryId !== undefined || q.priceMin !== undefined || q.priceMax !== undefined) return false;
  if (q.sortBy !== undefined && q.sortBy !== 'name') return false;
  for (const v of [q.attributeFilters, q.sku, q.urlKey, q.type, q.createdFrom, q.createdTo, q.updatedSince]) if (!blank(v)) return false;
  if (q.status !== undefined || q.visibility !== undefined || q.stockStatus !== undefined || q.websiteId !== undefined) return false;
  for (const [k, v] of Object.entries(q)) if (k.startsWith('attr_') && v !== undefined) return false;
  return true;
}

/** ORDER BY of the listing: the requested field, then the product id so pages never overlap. */
export function listingOrder(ctx: Ctx, q: ProductListQueryT): SQL {
  const p = listingParams(ctx);
  const desc = (q.sortDir ?? 'asc').toLowerCase() === 'desc';
  const dir = desc ? sql`DESC` : sql`ASC`;
  const search = searchText(q);
  const field = q.sortBy as ProductSortField | undefined;
  if (!field && search) {
    return sql`ts_rank(${products.searchVector}, websearch_to_tsquery('simple', ${search}::text)) DESC, ${storeName(products, p)} ASC, ${products.id} ASC`;
  }
  let key: SQL;
  switch (field ?? 'name') {
    case 'name':
      return nameOrder(p, dir);
    case 'price':
      key = sql`${products.minPrice} ${dir} NULLS LAST`;
      break;
    case 'special_price':
      key = sql`${products.specialPrice} ${dir} NULLS LAST`;
      break;
    case 'created_at':
      key = sql`${products.createdAt} ${dir}`;
      break;
    case 'updated_at':
      key = sql`${products.updatedAt} ${dir}`;
      break;
    case 'sku':
      key = sql`lower(${products.sku}) ${dir}`;
      break;
    case 'position':
      key =
        q.categoryId !== undefined
          ? sql`(SELECT min(cp.position) FROM ${categoryProducts} cp WHERE cp.product_id = ${products.id} AND cp.category_id = ${q.categoryId}::int) ${dir} NULLS LAST`
          : sql`${products.id} ${dir}`;
      break;
    case 'entity_id':
      return sql`${products.id} ${dir}`;
    case 'type':
      key = sql`${products.type} ${dir}`;
      break;
    case 'status':
      // enabled first when ascending, as the store view reads it
      key = sql`${storeActive(products, p)} ${desc ? sql`ASC` : sql`DESC`}`;
      break;
    case 'visibility':
      key = sql`${products.visibility} ${dir}`;
      break;
    default:
      throw invalid('sortBy', `must be one of ${PRODUCT_SORT_FIELDS.join(', ')}`, 'enum');
  }
  return sql`${key}, ${products.id} ${dir}`;
}
