/**
 * What the catalog's sub-resources (media, options, bundles, links, ...) and other modules (reviews, carts)
 * need of a product without depending on the product service itself.
 */
import { eq, inArray } from 'drizzle-orm';
import { adminWebsiteScope, type Ctx } from '../../../platform/context.js';
import { badRequest, notFound } from '../../../platform/errors.js';
import { products } from '../tables.js';

export type ProductRow = typeof products.$inferSelect;
export type ProductType = 'simple' | 'virtual' | 'configurable' | 'bundle' | 'grouped' | 'downloadable';
export const PRODUCT_TYPES: readonly ProductType[] = ['simple', 'virtual', 'configurable', 'bundle', 'grouped', 'downloadable'];

/**
 * Whether the caller may change the product: any caller unless it is an admin principal limited to some store
 * views, which may change only products assigned to one of the websites of those store views.
 */
export function inWriteScope(ctx: Ctx, websiteIds: readonly number[]): boolean {
  const scope = adminWebsiteScope(ctx);
  return !scope || websiteIds.some((id) => scope.includes(id));
}

/**
 * The product row, or 404. With `types`, a product of another type is a 400 naming what the sub-resource
 * needs (a bundle option on a simple product, say). `forUpdate` locks the row in the open transaction.
 * `inScope`: a product outside the websites of a store-restricted admin principal is a 404 too (for writes:
 * checked before anything is changed).
 */
export async function requireProduct(
  ctx: Ctx,
  id: number,
  opts: { types?: readonly ProductType[]; forUpdate?: boolean; inScope?: boolean } = {},
): Promise<ProductRow> {
  const q = ctx.db.select().from(products).where(eq(products.id, id));
  const [row] = opts.forUpdate ? await q.for('update') : await q;
  if (!row || (opts.inScope && !inWriteScope(ctx, row.websiteIds))) throw notFound('Product not found', { reason: 'PRODUCT_NOT_FOUND' });
  if (opts.types && !opts.types.includes(row.type as ProductType)) {
    throw badRequest(`This product is a ${row.type} product; this needs a ${opts.types.join(' or ')} product`, {
      reason: 'WRONG_PRODUCT_TYPE',
      details: { productId: id, type: row.type },
    });
  }
  return row;
}

/** Names of several products in the current store view (its override, else the default name), in one query. */
export async function productNames(ctx: Ctx, ids: readonly number[]): Promise<Map<number, string>> {
  if (!ids.length) return new Map();
  const rows = await ctx.db
    .select({ id: products.id, name: products.name, storeValues: products.storeValues })
    .from(products)
    .where(inArray(products.id, [...new Set(ids)]));
  const store = String(ctx.store.storeId);
  return new Map(
    rows.map((r) => {
      const own = r.storeValues?.[store]?.name;
      return [r.id, typeof own === 'string' && own !== '' ? own : r.name];
    }),
  );
}
