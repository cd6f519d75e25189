/**
 * Products as the Magento 1 API reads them: the raw stored values (decimal strings, dates, option ids) rather than
 * the REST shape, in one store view (its own values over the defaults), with their category ids. A list is one
 * statement whatever its length, under a WHERE the caller builds over the columns named here (Magento's list
 * filters name any product column or attribute); one product is one statement with its tier prices. The
 * attributes of an attribute set (the product's "editable attributes") are one more.
 */
import { and, asc, eq, isNotNull, or, sql, type SQL } from 'drizzle-orm';
import type { Ctx } from '../../../platform/context.js';
import { attributeSetAttributes, categoryProducts, customOptions, productAttributes, products, tierPrices } from '../tables.js';

/** A store-view value's key in products.store_values, by the column it overrides. */
export type LegacyStoreKey = 'name' | 'description' | 'shortDescription' | 'urlKey' | 'metaTitle' | 'metaDescription' | 'metaKeywords';

/** What a caller's WHERE may name: the table, and the values as a store view reads them. */
export interface LegacyProductColumns {
  table: typeof products;
  /** a text value in the store view: its own value, else the default column */
  storeText(key: LegacyStoreKey): SQL<string | null>;
  /** Magento's status in the store view: 1 enabled, 2 disabled */
  status: SQL<number>;
  /** Magento's visibility: 1 not visible, 2 catalog, 3 search, 4 catalog and search */
  visibility: SQL<number>;
  /** a value of products.attributes as text (a multiselect's option ids joined by commas), null when unset */
  attribute(code: string): SQL<string | null>;
}

const COLUMN_OF: Record<LegacyStoreKey, keyof typeof products.$inferSelect> = {
  name: 'name',
  description: 'description',
  shortDescription: 'shortDescription',
  urlKey: 'urlKey',
  metaTitle: 'metaTitle',
  metaDescription: 'metaDescription',
  metaKeywords: 'metaKeywords',
};

/** The columns of a read in store view `storeKey` ('0': the default values). */
export function legacyProductColumns(storeKey: string): LegacyProductColumns {
  const own = (key: string) => sql`(${products.storeValues} -> ${storeKey}::text ->> ${key}::text)`;
  return {
    table: products,
    storeText: (key) => sql<string | null>`coalesce(${own(key)}, ${products[COLUMN_OF[key]]}::text)`,
    status: sql<number>`(CASE coalesce(${own('isActive')}, ${products.isActive}::text) WHEN 'true' THEN 1 ELSE 2 END)`,
    visibility: sql<number>`(CASE ${products.visibility} WHEN 'not_visible' THEN 1 WHEN 'catalog' THEN 2 WHEN 'search' THEN 3 ELSE 4 END)`,
    attribute: (code) =>
      sql<string | null>`(CASE jsonb_typeof(${products.attributes} -> ${code}::text)
        WHEN 'array' THEN (SELECT string_agg(v, ',') FROM jsonb_array_elements_text(${products.attributes} -> ${code}::text) v)
        ELSE ${products.attributes} ->> ${code}::text END)`,
  };
}

/** The category ids of the product row being read, comma-separated in id order ('' for none). */
const categoryIdsSql = sql<string>`coalesce((SELECT string_agg(${categoryProducts.categoryId}::text, ',' ORDER BY ${categoryProducts.categoryId})
  FROM ${categoryProducts} WHERE ${categoryProducts.productId} = ${products.id}), '')`;

const idList = (s: string): number[] => (s ? s.split(',').map(Number) : []);

const inWebsites = (websites: readonly number[] | undefined) =>
  websites ? sql`${products.websiteIds} && ${`{${websites.join(',')}}`}::int[]` : undefined;

export interface LegacyProductListRow {
  id: number;
  sku: string;
  /** the name in the store view read */
  name: string;
  attributeSetId: number;
  type: string;
  websiteIds: number[];
  categoryIds: number[];
}

/**
 * The products `where` selects, in id order, read in store view `storeKey` ('0': the default values), in one
 * statement. `websites` limits them to those assigned to one of these websites (a store-limited principal's).
 * `where` may throw (a malformed filter) before anything runs.
 */
export async function legacyProductList(
  ctx: Ctx,
  opts: { storeKey: string; websites?: readonly number[]; where: (c: LegacyProductColumns) => SQL | undefined },
): Promise<LegacyProductListRow[]> {
  const c = legacyProductColumns(opts.storeKey);
  const cond = opts.where(c);
  const found = await ctx.db
    .select({
      id: products.id,
      sku: products.sku,
      name: c.storeText('name'),
      attributeSetId: products.attributeSetId,
      type: products.type,
      websiteIds: products.websiteIds,
      categoryIds: categoryIdsSql,
    })
    .from(products)
    .where(and(cond, inWebsites(opts.websites)))
    .orderBy(asc(products.id));
  return found.map((r) => ({ ...r, name: r.name ?? '', categoryIds: idList(r.categoryIds) }));
}

export interface LegacyTierPrice {
  id: number;
  websiteId: number;
  /** null: every customer group */
  customerGroupId: number | null;
  qty: string;
  price: string;
}

export type LegacyProductRow = typeof products.$inferSelect & {
  categoryIds: number[];
  tierPrices: LegacyTierPrice[];
  /** any custom option */
  hasCustomOptions: boolean;
  /** the store view's own values (store_values of the store read), empty for the default values */
  own: Record<string, unknown>;
};

/**
 * One product by id with the values of store view `storeKey` over its defaults ('0': the defaults), its category
 * ids and tier prices, in one statement; undefined when there is none (or none in `websites`).
 */
export async function legacyProduct(
  ctx: Ctx,
  id: number,
  opts: { storeKey: string; websites?: readonly number[] },
): Promise<LegacyProductRow | undefined> {
  const [row] = await ctx.db
    .select({
      p: products,
      categoryIds: categoryIdsSql,
      tierPrices: sql<LegacyTierPrice[]>`coalesce((SELECT json_agg(json_build_object('id', t.id, 'websiteId', t.website_id,
          'customerGroupId', t.customer_group_id, 'qty', t.qty::text, 'price', t.price::text)
          ORDER BY t.website_id, t.customer_group_id NULLS FIRST, t.qty, t.id)
        FROM ${tierPrices} t WHERE t.product_id = ${products.id} AND NOT t.is_group_price), '[]'::json)`,
      hasCustomOptions: sql<boolean>`EXISTS (SELECT 1 FROM ${customOptions} o WHERE o.product_id = ${products.id})`,
    })
    .from(products)
    .where(and(eq(products.id, id), inWebsites(opts.websites)));
  if (!row) return undefined;
  const own = (opts.storeKey !== '0' && row.p.storeValues?.[opts.storeKey]) || {};
  const text = (k: LegacyStoreKey, fallback: string | null) => (typeof own[k] === 'string' ? (own[k] as string) : fallback);
  const p = row.p;
  return {
    ...p,
    name: text('name', p.name) ?? p.name,
    urlKey: text('urlKey', p.urlKey) ?? p.urlKey,
    description: text('description', p.description),
    shortDescription: text('shortDescription', p.shortDescription),
    metaTitle: text('metaTitle', p.metaTitle),
    metaDescription: text('metaDescription', p.metaDescription),
    metaKeywords: text('metaKeywords', p.metaKeywords),
    isActive: typeof own.isActive === 'boolean' ? own.isActive : p.isActive,
    categoryIds: idList(row.categoryIds),
    tierPrices: typeof row.tierPrices === 'string' ? (JSON.parse(row.tierPrices) as LegacyTierPrice[]) : row.tierPrices,
    hasCustomOptions: row.hasCustomOptions === true || (row.hasCustomOptions as unknown) === 't',
    own,
  };
}

export interface LegacyAttribute {
  id: number;
  code: string;
  frontendInput: string;
  /** global, website or store */
  scope: string;
  isRequired: boolean;
  isSystem: boolean;
  /** product types it applies to; empty: all */
  applyTo: string[];
  /** a member of the set (system attributes, columns every product has, are read whether they are or not) */
  inSet: boolean;
}

/**
 * The attributes of an attribute set in the set's order (group, then position in the group), then the system
 * attributes the set leaves out, in one statement.
 */
export async function legacySetAttributes(ctx: Ctx, setId: number): Promise<LegacyAttribute[]> {
  const set = Number.isInteger(setId) && setId >= 1 && setId <= 2147483647 ? setId : 0;
  const inSet = sql<boolean>`(${attributeSetAttributes.setId} IS NOT NULL)`;
  return ctx.db
    .select({
      id: productAttributes.id,
      code: productAttributes.code,
      frontendInput: productAttributes.frontendInput,
      scope: productAttributes.scope,
      isRequired: productAttributes.isRequired,
      isSystem: productAttributes.isSystem,
      applyTo: productAttributes.applyTo,
      inSet,
    })
    .from(productAttributes)
    .leftJoin(
      attributeSetAttributes,
      and(eq(attributeSetAttributes.attributeId, productAttributes.id), eq(attributeSetAttributes.setId, set)),
    )
    .where(or(isNotNull(attributeSetAttributes.setId), eq(productAttributes.isSystem, true)))
    .orderBy(
      sql`${inSet} DESC`,
      asc(attributeSetAttributes.groupSortOrder),
      asc(attributeSetAttributes.groupName),
      asc(attributeSetAttributes.sortOrder),
      asc(productAttributes.position),
      asc(productAttributes.code),
    );
}

/** The codes and inputs of every attribute kept in products.attributes (for list filters on them), in one statement. */
export async function legacyValueAttributes(ctx: Ctx): Promise<Map<string, string>> {
  const rows = await ctx.db
    .select({ code: productAttributes.code, input: productAttributes.frontendInput })
    .from(productAttributes)
    .where(eq(productAttributes.isSystem, false));
  return new Map(rows.map((r) => [r.code, r.input]));
}
