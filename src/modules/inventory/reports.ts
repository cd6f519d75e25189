/**
 * The low-stock report: managed stock items whose quantity is under their notify threshold (their own
 * `notifyStockQty`, else the configured `cataloginventory/item_options/notify_stock_qty`), lowest first, one
 * page per statement with the count of all of them. As Magento's report, which compares qty < notify_stock_qty.
 */
import { sql } from 'drizzle-orm';
import { adminWebsiteScope, type Ctx } from '../../platform/context.js';
import { rows } from '../../platform/db.js';
import type { CollectionResult, Page } from '../../platform/pagination.js';
import { reportScope } from '../../platform/report-period.js';
import { declareDefaults } from '../../platform/settings.js';
import { productInWebsitesSql, productSkuSql } from '../catalog/products/keys.js';
import { productNameSql } from '../catalog/products/report-fragments.js';
import { stockItems } from './tables.js';

declareDefaults({ 'cataloginventory/item_options/notify_stock_qty': 1 });

export interface LowStockRow {
  productId: number;
  sku: string;
  name: string;
  qty: number;
  notifyStockQty: number;
  isInStock: boolean;
}

export async function lowStockReport(ctx: Ctx, q: { storeId?: number }, page: Page): Promise<CollectionResult<LowStockRow>> {
  // checks the store view asked for (400 unknown, 403 not the caller's)
  reportScope(ctx, q.storeId);
  const registry = ctx.app.settings;
  // a store view asked for, or a limited principal: the products of those websites
  const websites = q.storeId !== undefined ? [registry.store(q.storeId)!.websiteId] : adminWebsiteScope(ctx);
  const threshold = registry.getInt('cataloginventory/item_options/notify_stock_qty');
  const s = stockItems;
  const found = await rows<LowStockRow & { total: number }>(
    ctx.db,
    sql`WITH l AS (
        SELECT ${s.productId} AS "productId", ${s.qty} AS qty, coalesce(${s.notifyStockQty}, ${threshold}::int) AS "notifyStockQty",
          ${s.isInStock} AS "isInStock"
        FROM ${s}
        WHERE ${s.manageStock} AND ${s.qty} < coalesce(${s.notifyStockQty}, ${threshold}::int)
          AND ${websites ? productInWebsitesSql(s.productId, websites) : sql`TRUE`})
      SELECT n.total, pg.*, ${productSkuSql(sql`pg."productId"`)} AS sku, ${productNameSql(sql`pg."productId"`)} AS name
      FROM (SELECT count(*)::int AS total FROM l) n
      LEFT JOIN LATERAL (SELECT * FROM l ORDER BY l.qty, l."productId" LIMIT ${page.size} OFFSET ${page.offset}) pg ON TRUE
      ORDER BY pg.qty, pg."productId"`,
  );
  const total = found[0]?.total ?? 0;
  return {
    total,
    items: found.filter((r) => r.productId !== null).map(({ total: _t, ...r }) => r),
  };
}
