/**
 * Generated catalogs for load tests: simple products in batches, each with a price, a colour and a size, a
 * category, URL paths in every store view of the main website and stock. Products are written in bulk (one
 * statement per batch) rather than through createProduct one by one, but with the same derived values the
 * product service keeps: search text, price range and URL paths. Reproducible: the same count gives the same
 * catalog.
 */
import { and, eq, like } from 'drizzle-orm';
import { withTx, type Ctx } from '../../platform/context.js';
import { dec } from '../../platform/money.js';
import { replaceEntityPathsMany } from '../url-resolver/service.js';
import { defaultAttributeSetId, getProductAttributeByCode } from './attributes/service.js';
import { createCategory, storeRootId } from './categories/service.js';
import { productUrlSuffix, storesOfWebsites } from './products/urls.js';
import { categories, categoryProducts, products } from './tables.js';

const BATCH = 500;
const STOCK_BATCH = 100;
const CATEGORIES = 10;
const ADJECTIVES = ['Classic', 'Everyday', 'Soft', 'Light', 'Warm', 'Slim', 'Relaxed', 'Organic', 'Vintage', 'Essential'];
const NOUNS = ['Shirt', 'Sweater', 'Jacket', 'Trousers', 'Skirt', 'Scarf', 'Cap', 'Socks', 'Bag', 'Belt', 'Mug', 'Lamp'];

/** A small deterministic generator, so that runs with the same count compare. */
function random(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (s + 0x6d2b79f5) >>> 0;
    let t = s;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export interface GenerateProgress {
  done: number;
  total: number;
}

/**
 * Adds `count` products with skus GEN-000001, GEN-000002, ... after the generated ones already there, so that
 * running it again grows the catalog. Returns the number added.
 */
export async function generateProducts(ctx: Ctx, count: number, onProgress?: (p: GenerateProgress) => void): Promise<number> {
  const existing = await ctx.db.$count(products, like(products.sku, 'GEN-%'));
  const rnd = random(existing + 1);
  const setId = await defaultAttributeSetId(ctx);
  const colors = (await getProductAttributeByCode(ctx, 'color')).options?.map((o) => Number(o.value)) ?? [];
  const sizes = (await getProductAttributeByCode(ctx, 'size')).options?.map((o) => Number(o.value)) ?? [];
  const categoryIds = await generatedCategories(ctx);
  const websiteId = ctx.app.settings.defaultStore.websiteId;
  const storeIds = storesOfWebsites(ctx, [websiteId]);

  let done = 0;
  while (done < count) {
    const size = Math.min(BATCH, count - done);
    await withTx(ctx, async (tx) => {
      const rows = Array.from({ length: size }, (_, i) => {
        const n = existing + done + i + 1;
        const name = `${ADJECTIVES[Math.floor(rnd() * ADJECTIVES.length)]} ${NOUNS[Math.floor(rnd() * NOUNS.length)]} ${n}`;
        const sku = `GEN-${String(n).padStart(6, '0')}`;
        const price = dec(5 + Math.floor(rnd() * 49500) / 100).toFixed(4);
        const description = `${name}: a generated product for load tests.`;
        return {
          sku,
          type: 'simple',
          attributeSetId: setId,
          taxClassId: 2,
          name,
          urlKey: `${name.toLowerCase().replace(/[^a-z0-9]+/g, '-')}-${sku.toLowerCase()}`,
          shortDescription: description,
          websiteIds: [websiteId],
          price,
          minPrice: price,
          maxPrice: price,
          weight: '0.5000',
          attributes: {
            color: colors[Math.floor(rnd() * colors.length)],
            size: sizes[Math.floor(rnd() * sizes.length)],
          },
          searchText: `${sku} ${name} ${description}`,
        };
      });
      const inserted = await tx.db.insert(products).values(rows).returning({ id: products.id, urlKey: products.urlKey });
      await tx.db
        .insert(categoryProducts)
        .values(
          inserted.map((p, i) => ({ categoryId: categoryIds[(done + i) % categoryIds.length], productId: p.id, position: done + i })),
        );
      await replaceEntityPathsMany(
        tx,
        'product',
        inserted.map((p) => ({
          entityId: p.id,
          paths: storeIds.map((storeId) => ({ storeId, requestPath: `${p.urlKey}${productUrlSuffix(tx, storeId)}` })),
        })),
      );
      for (let i = 0; i < rows.length; i += STOCK_BATCH) {
        await tx.app.catalogParts.setStockBySku(
          tx,
          rows.slice(i, i + STOCK_BATCH).map((r) => ({ sku: r.sku, qty: 10 + Math.floor(rnd() * 990), manageStock: true })),
        );
      }
    });
    done += size;
    onProgress?.({ done, total: count });
  }
  return count;
}

/** The categories generated products go into: "Catalog 1" to "Catalog 10" under the default store's root. */
async function generatedCategories(ctx: Ctx): Promise<number[]> {
  const root = storeRootId(ctx);
  const ids: number[] = [];
  for (let i = 1; i <= CATEGORIES; i++) {
    const name = `Catalog ${i}`;
    const [found] = await ctx.db
      .select({ id: categories.id })
      .from(categories)
      .where(and(eq(categories.parentId, root), eq(categories.name, name)));
    ids.push(found ? found.id : ((await createCategory(ctx, { name, includeInMenu: false })).id as number));
  }
  return ids;
}
