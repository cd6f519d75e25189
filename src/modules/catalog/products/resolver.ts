/**
 * What a product URL leads to: the product when shoppers of the store view may see it (enabled there, in its
 * website, visible in the catalog or search); a product sold only as part of another (a configurable variant,
 * say) leads to the first such parent shoppers may see. Admins with products/read resolve every product.
 */
import { and, inArray, ne } from 'drizzle-orm';
import { hasPermission } from '../../../platform/auth/access.js';
import type { Ctx } from '../../../platform/context.js';
import { parentsOf } from './price.js';
import { products } from '../tables.js';

async function shownIds(ctx: Ctx, ids: number[]): Promise<Set<number>> {
  if (!ids.length) return new Set();
  const rows = await ctx.db
    .select({ id: products.id, isActive: products.isActive, storeValues: products.storeValues, websiteIds: products.websiteIds })
    .from(products)
    .where(and(inArray(products.id, ids), ne(products.visibility, 'not_visible')));
  const store = String(ctx.store.storeId);
  return new Set(
    rows
      .filter((r) => {
        const own = r.storeValues?.[store]?.isActive;
        const enabled = typeof own === 'boolean' ? own : r.isActive;
        return enabled && r.websiteIds.includes(ctx.store.websiteId);
      })
      .map((r) => r.id),
  );
}

/** The URL resolver's check of products (the catalog's `urlResolverChecks`). */
export async function productResolution(ctx: Ctx, id: number): Promise<boolean | number> {
  if (ctx.actor.kind === 'admin' && hasPermission(ctx.actor.permissions, 'products', 'read')) return true;
  if ((await shownIds(ctx, [id])).has(id)) return true;
  const parents = (await parentsOf(ctx, [id])).sort((a, b) => a - b);
  const shown = await shownIds(ctx, parents);
  const parent = parents.find((p) => shown.has(p));
  return parent ?? false;
}
