/**
 * Products by id and by SKU, for the modules after the catalog that keep data per product (stock, wish lists):
 * as functions, and as SQL fragments for their one-statement reads and writes. SKUs are unique in any case, so
 * a SKU is matched lower-cased. `websites` limits the products to those assigned to one of the websites (a
 * store-limited admin principal's); undefined for every product.
 */
import { and, eq, inArray, sql, type AnyColumn, type SQL } from 'drizzle-orm';
import type { Ctx } from '../../../platform/context.js';
import { products, type StoreValues } from '../tables.js';

export interface ProductKey {
  id: number;
  sku: string;
}

const inWebsites = (websites: readonly number[] | undefined): SQL | undefined =>
  websites ? sql`${products.websiteIds} && ${`{${websites.join(',')}}`}::int[]` : undefined;

/** The SKU of the product `productId` (an int expression), as a scalar subquery; null for no such product. */
export function productSkuSql(productId: SQL | AnyColumn): SQL {
  return sql`(SELECT ${products.sku} FROM ${products} WHERE ${products.id} = ${productId})`;
}

/** The id of the product with the SKU `lowerSku` (a lower-cased text expression), as a scalar subquery. */
export function productIdBySkuSql(lowerSku: SQL): SQL {
  return sql`(SELECT ${products.id} FROM ${products} WHERE lower(${products.sku}) = ${lowerSku})`;
}

/** Boolean: the product `productId` (an int expression) is assigned to one of `websites`. */
export function productInWebsitesSql(productId: SQL | AnyColumn, websites: readonly number[]): SQL {
  return sql`EXISTS (SELECT 1 FROM ${products} WHERE ${products.id} = ${productId} AND ${inWebsites(websites)})`;
}

/** Products by SKU (any case), keyed by the lower-cased SKU. */
export async function productsBySku(ctx: Ctx, skus: readonly string[], websites?: readonly number[]): Promise<Map<string, ProductKey>> {
  const lowered = [...new Set(skus.map((s) => s.toLowerCase()))];
  if (!lowered.length) return new Map();
  const found = await ctx.db
    .select({ id: products.id, sku: products.sku })
    .from(products)
    .where(and(inArray(sql`lower(${products.sku})`, lowered), inWebsites(websites)));
  return new Map(found.map((p) => [p.sku.toLowerCase(), p]));
}

/** Whether a product with this SKU (any case) exists outside `websites`. */
export async function skuOutsideWebsites(ctx: Ctx, sku: string, websites: readonly number[]): Promise<boolean> {
  const [outside] = await ctx.db
    .select({ id: products.id })
    .from(products)
    .where(and(sql`lower(${products.sku}) = ${sku.toLowerCase()}`, sql`NOT (${inWebsites(websites)})`))
    .limit(1);
  return !!outside;
}

/** The id and SKU of a product, undefined for no such product. */
export async function productKey(ctx: Ctx, productId: number): Promise<ProductKey | undefined> {
  const [p] = await ctx.db.select({ id: products.id, sku: products.sku }).from(products).where(eq(products.id, productId));
  return p;
}

/** What a wish list shows of its products beyond the sale data: the url keys (store values) and default price. */
export async function productListFields(
  ctx: Ctx,
  ids: readonly number[],
): Promise<{ id: number; urlKey: string; storeValues: StoreValues; price: string | null }[]> {
  if (!ids.length) return [];
  return ctx.db
    .select({ id: products.id, urlKey: products.urlKey, storeValues: products.storeValues, price: products.price })
    .from(products)
    .where(inArray(products.id, [...ids]));
}

/**
 * Every product as a relation for the one-statement lists of later modules (the tags): `id`, `sku`, `name` in the
 * store view `storeId` (its own name there, else the default), `website_ids`, and `shown`: enabled in that store
 * view, assigned to the website `websiteId` and visible individually, as the storefront shows products.
 */
export function productsInStoreSql(storeId: number, websiteId: number): SQL {
  const sid = String(storeId);
  return sql`(SELECT ${products.id} AS id, ${products.sku} AS sku,
      coalesce(nullif(${products.storeValues} -> ${sid} ->> 'name', ''), ${products.name}) AS name, ${products.websiteIds} AS website_ids,
      ((CASE ${products.storeValues} -> ${sid} ->> 'isActive' WHEN 'true' THEN true WHEN 'false' THEN false ELSE ${products.isActive} END)
        AND ${websiteId}::int = ANY (${products.websiteIds}) AND ${products.visibility} <> 'not_visible') AS shown
    FROM ${products})`;
}
