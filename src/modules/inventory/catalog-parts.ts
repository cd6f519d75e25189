/**
 * What the inventory lends the catalog (`AppModule.catalogParts`, see platform/context.ts): the stock SQL its
 * one-statement product read embeds, and the stock write of a product create or update and of a generated
 * catalog.
 */
import { sql } from 'drizzle-orm';
import type { CatalogParts } from '../../platform/context.js';
import { setStock, updateStockBulk } from './admin.js';
import { stockItems } from './tables.js';

export const inventoryCatalogParts: Partial<CatalogParts> = {
  stockJson: (productId) =>
    sql`(SELECT json_build_object('qty', s.qty, 'isInStock', s.is_in_stock, 'manageStock', s.manage_stock, 'minQty', s.min_qty,
      'minSaleQty', s.min_sale_qty, 'maxSaleQty', s.max_sale_qty, 'backorders', s.backorders, 'notifyStockQty', s.notify_stock_qty,
      'qtyIncrements', s.qty_increments) FROM ${stockItems} s WHERE s.product_id = ${productId})`,
  sellableFromStock: (productId) =>
    sql`EXISTS (SELECT 1 FROM ${stockItems} cs WHERE cs.product_id = ${productId} AND (NOT cs.manage_stock OR cs.is_in_stock))`,
  setProductStock: async (ctx, productId, input) => {
    await setStock(ctx, productId, input);
  },
  setStockBySku: async (ctx, items) => {
    await updateStockBulk(ctx, items);
  },
};
