/**
 * Products named as the Magento 1 API names them: by id or by SKU, many at once, in one statement. Which of the
 * two a reference is follows the caller's rule (stock tries the SKU first, the catalog an id when it reads as
 * one); this only finds the candidates. `websites` limits them to a store-limited principal's websites.
 */
import { and, inArray, or, sql } from 'drizzle-orm';
import type { Ctx } from '../../../platform/context.js';
import { products } from '../tables.js';

export interface LegacyProductKey {
  id: number;
  sku: string;
  type: string;
  attributeSetId: number;
}

/** The products whose id is one of `ids` or whose SKU (any case) is one of `skus`. */
export async function productsByIdOrSku(
  ctx: Ctx,
  ids: readonly number[],
  skus: readonly string[],
  websites?: readonly number[],
): Promise<{ byId: Map<number, LegacyProductKey>; bySku: Map<string, LegacyProductKey> }> {
  const idList = [...new Set(ids)].filter((id) => Number.isInteger(id) && id > 0 && id <= 2147483647);
  const skuList = [...new Set(skus.map((s) => s.toLowerCase()))];
  const byId = new Map<number, LegacyProductKey>();
  const bySku = new Map<string, LegacyProductKey>();
  if (!idList.length && !skuList.length) return { byId, bySku };
  const found = await ctx.db
    .select({ id: products.id, sku: products.sku, type: products.type, attributeSetId: products.attributeSetId })
    .from(products)
    .where(
      and(
        or(
          idList.length ? inArray(products.id, idList) : undefined,
          skuList.length ? inArray(sql`lower(${products.sku})`, skuList) : undefined,
        ),
        websites ? sql`${products.websiteIds} && ${`{${websites.join(',')}}`}::int[]` : undefined,
      ),
    );
  for (const p of found) {
    byId.set(p.id, p);
    bySku.set(p.sku.toLowerCase(), p);
  }
  return { byId, bySku };
}
