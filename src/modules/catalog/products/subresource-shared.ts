/**
 * What the product sub-resources for composite types, links and tier prices share: who sees the backend view,
 * which products a storefront caller may see, the products a write refers to, exact decimals from JSON
 * numbers, and the product's has_required_options flag that several of them feed.
 */
import { eq, inArray, sql } from 'drizzle-orm';
import type { Ctx } from '../../../platform/context.js';
import { hasPermission } from '../../../platform/auth/access.js';
import { badRequest, notFound } from '../../../platform/errors.js';
import { dec } from '../../../platform/money.js';
import { inWriteScope, requireProduct, type ProductRow, type ProductType } from './shared.js';
import { bundleOptions, configurableAttributes, customOptions, products } from '../tables.js';

export const INT_MAX = 2147483647;
/** Highest amount accepted for a price (NUMERIC(20,4) holds more; no real price comes near). */
export const MONEY_MAX = 999_999_999_999;
/** Highest quantity accepted (NUMERIC(12,4)). */
export const QTY_MAX = 99_999_999;
/** Decimal places the NUMERIC columns of money and quantities keep. */
export const DECIMAL_PLACES = 4;
/** Product types that may be the child of a configurable, grouped or bundle product. */
export const CHILD_TYPES: readonly ProductType[] = ['simple', 'virtual'];

export interface ProductRef {
  id: number;
  sku: string;
  name: string;
  type: string;
  isActive: boolean;
  visibility: string;
  websiteIds: number[];
  storeValues: ProductRow['storeValues'];
}

const refColumns = {
  id: products.id,
  sku: products.sku,
  name: products.name,
  type: products.type,
  isActive: products.isActive,
  visibility: products.visibility,
  websiteIds: products.websiteIds,
  storeValues: products.storeValues,
};

/** True for an admin or API principal allowed to read or write products: it sees the backend view of the catalog. */
export function isCatalogReader(ctx: Ctx): boolean {
  const a = ctx.actor;
  return a.kind === 'admin' && (hasPermission(a.permissions, 'products', 'read') || hasPermission(a.permissions, 'products', 'write'));
}

/** The store view whose values a read shows: the request's store for storefront callers, the named one for admins. */
function viewStoreId(ctx: Ctx): number | undefined {
  if (ctx.actor.kind === 'admin' && !ctx.store.explicit) return undefined;
  return ctx.store.storeId;
}

/** The product's name in the store view being read (its default name in the admin view). */
export function nameIn(ctx: Ctx, p: Pick<ProductRef, 'name' | 'storeValues'>): string {
  const storeId = viewStoreId(ctx);
  if (storeId === undefined) return p.name;
  const v = p.storeValues[String(storeId)]?.name;
  return typeof v === 'string' && v ? v : p.name;
}

/** Enabled in the request's store view and assigned to its website: a shopper there can see and buy it. */
export function sellableHere(ctx: Ctx, p: Pick<ProductRef, 'isActive' | 'websiteIds' | 'storeValues'>): boolean {
  const own = p.storeValues[String(ctx.store.storeId)]?.isActive;
  const active = typeof own === 'boolean' ? own : p.isActive;
  return active && p.websiteIds.includes(ctx.store.websiteId);
}

/** Shown in catalog listings (visibility catalog or catalog_search). */
export function visibleInCatalog(p: Pick<ProductRef, 'visibility'>): boolean {
  return p.visibility === 'catalog' || p.visibility === 'catalog_search';
}

/**
 * The product a read is about. Backend readers get any product (of the wanted type), of their websites when
 * limited to some store views; storefront callers get 404 for a product that is disabled in their store view or
 * not on their website, as for the product itself.
 */
export async function requireReadableProduct(ctx: Ctx, id: number, types?: readonly ProductType[]): Promise<ProductRow> {
  if (!Number.isInteger(id) || id < 1 || id > INT_MAX) throw notFound('Product not found', { reason: 'PRODUCT_NOT_FOUND' });
  const row = await requireProduct(ctx, id, { types });
  const readable = isCatalogReader(ctx) ? inWriteScope(ctx, row.websiteIds) : sellableHere(ctx, row);
  if (!readable) throw notFound('Product not found', { reason: 'PRODUCT_NOT_FOUND' });
  return row;
}

/** The product a write is about, locked for the rest of the transaction. */
export async function lockProduct(ctx: Ctx, id: number, types?: readonly ProductType[]): Promise<ProductRow> {
  if (!Number.isInteger(id) || id < 1 || id > INT_MAX) throw notFound('Product not found', { reason: 'PRODUCT_NOT_FOUND' });
  return requireProduct(ctx, id, { types, forUpdate: true, inScope: true });
}

/** The products with these ids that exist, by id. */
export async function productRefs(ctx: Ctx, ids: readonly number[]): Promise<Map<number, ProductRef>> {
  const wanted = [...new Set(ids.filter((id) => Number.isInteger(id) && id >= 1 && id <= INT_MAX))];
  if (!wanted.length) return new Map();
  const rows = await ctx.db.select(refColumns).from(products).where(inArray(products.id, wanted));
  return new Map(rows.map((r) => [r.id, r]));
}

/**
 * The products a write refers to, each of which must exist (400 naming the field, since the reference is in the
 * body) and, with `types`, be of one of those types.
 */
export async function requireRefs(
  ctx: Ctx,
  refs: readonly { id: number; field: string }[],
  types?: readonly ProductType[],
): Promise<Map<number, ProductRef>> {
  const found = await productRefs(
    ctx,
    refs.map((r) => r.id),
  );
  for (const r of refs) {
    const p = found.get(r.id);
    if (!p) {
      throw badRequest(`${r.field}: product ${r.id} does not exist`, {
        reason: 'PRODUCT_NOT_FOUND',
        details: { field: r.field, productId: r.id },
      });
    }
    if (types && !types.includes(p.type as ProductType)) {
      throw badRequest(`${r.field}: product ${r.id} is a ${p.type} product; only ${types.join(' or ')} products may be used here`, {
        reason: 'WRONG_PRODUCT_TYPE',
        details: { field: r.field, productId: r.id, type: p.type },
      });
    }
  }
  return found;
}

/** Throws 400 when the same id appears twice in a list. */
export function assertNoDuplicates(ids: readonly number[], field: (index: number) => string): void {
  const seen = new Set<number>();
  ids.forEach((id, i) => {
    if (seen.has(id)) throw badRequest(`${field(i)}: product ${id} is listed twice`, { reason: 'DUPLICATE', details: { field: field(i) } });
    seen.add(id);
  });
}

export function invalidField(field: string, message: string, constraint = 'invalid'): never {
  throw badRequest(`${field} ${message}`, { reason: 'VALIDATION_FAILED', details: { field, constraint } });
}

/**
 * An exact decimal string for a NUMERIC column from a JSON number, checked against the bounds (400 naming the
 * field otherwise). More than 4 decimal places (what the column keeps) is a 400 too: nothing is rounded away
 * silently.
 */
export function decimalField(value: unknown, field: string, bounds: { min: number; exclusiveMin?: boolean; max: number }): string {
  if (typeof value !== 'number' || !Number.isFinite(value)) invalidField(field, 'must be a number', 'type');
  if (bounds.exclusiveMin ? value <= bounds.min : value < bounds.min) {
    invalidField(
      field,
      `must be ${bounds.exclusiveMin ? 'greater than' : 'at least'} ${bounds.min}`,
      bounds.exclusiveMin ? 'exclusiveMinimum' : 'minimum',
    );
  }
  if (value > bounds.max) invalidField(field, `must be at most ${bounds.max}`, 'maximum');
  const d = dec(value);
  if (d.decimalPlaces() > DECIMAL_PLACES) invalidField(field, `must have at most ${DECIMAL_PLACES} decimal places`, 'multipleOf');
  return d.toFixed();
}

/** A NUMERIC value as a JSON number. */
export function wireNumber(v: string | number): number {
  return dec(v).toNumber();
}

/**
 * Sets products.has_required_options from everything that makes a shopper choose before buying: a required
 * custom option, the super attributes of a configurable product, a required option of a bundle. Every write
 * to one of those calls it in its transaction, so the flag never lags behind.
 */
export async function syncHasRequiredOptions(ctx: Ctx, productId: number): Promise<void> {
  await ctx.db
    .update(products)
    .set({
      hasRequiredOptions: sql`(
        EXISTS (SELECT 1 FROM ${customOptions} WHERE ${customOptions.productId} = ${productId} AND ${customOptions.required})
        OR (${products.type} = 'configurable' AND EXISTS (SELECT 1 FROM ${configurableAttributes} WHERE ${configurableAttributes.productId} = ${productId}))
        OR (${products.type} = 'bundle' AND EXISTS (SELECT 1 FROM ${bundleOptions} WHERE ${bundleOptions.productId} = ${productId} AND ${bundleOptions.required}))
      )`,
    })
    .where(eq(products.id, productId));
}
