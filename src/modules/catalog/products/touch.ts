/** What a write to one of a product's sub-resources (media, options, links, tier prices, children) does last. */
import { eq } from 'drizzle-orm';
import { backOffice, withTx, type Ctx } from '../../../platform/context.js';
import { productEvents } from '../events.js';
import { products } from '../tables.js';
import { getProduct } from './read.js';

/** Marks the product changed (its updatedAt) and emits product.updated, in the caller's transaction. */
export async function touchProduct(ctx: Ctx, id: number): Promise<void> {
  await withTx(ctx, async (tx) => {
    await tx.db.update(products).set({ updatedAt: tx.now }).where(eq(products.id, id));
    productEvents.emit(tx, 'product.updated', { resource: 'product', id, storeId: null }, () => getProduct(backOffice(tx), id));
  });
}
