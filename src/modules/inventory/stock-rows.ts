/**
 * Stock rows as every writer handles them: locked in ascending product id order, a missing row read as the
 * row it would get, and the stock.changed event of what a transaction changed.
 */
import { eq, sql } from 'drizzle-orm';
import type { Ctx } from '../../platform/context.js';
import { rows } from '../../platform/db.js';
import { productSkuSql } from '../catalog/products/keys.js';
import { stockItems } from './tables.js';
import { stockEvents } from './events.js';

export type StockRow = typeof stockItems.$inferSelect;

/** Stock columns under the keys of a StockRow, for raw statements. */
export const STOCK_COLUMNS = sql.raw(
  `product_id AS "productId", qty, is_in_stock AS "isInStock", manage_stock AS "manageStock", min_qty AS "minQty",
   min_sale_qty AS "minSaleQty", max_sale_qty AS "maxSaleQty", backorders, notify_stock_qty AS "notifyStockQty",
   qty_increments AS "qtyIncrements", updated_at AS "updatedAt"`,
);

/** A PostgreSQL int[] literal of checked integers, bound as one parameter. */
export const intArray = (ids: number[]) => `{${ids.join(',')}}`;

export function normalize(r: StockRow): StockRow {
  return r.updatedAt instanceof Date ? r : { ...r, updatedAt: new Date(r.updatedAt as unknown as string) };
}

/**
 * How a product without a stock row is treated: as the row it would get (the table defaults): managed, qty 0,
 * out of stock. Kept in step with the column defaults in tables.ts.
 */
export function missingRow(productId: number): Omit<StockRow, 'updatedAt'> {
  return {
    productId,
    qty: 0,
    isInStock: false,
    manageStock: true,
    minQty: 0,
    minSaleQty: 1,
    maxSaleQty: null,
    backorders: 0,
    notifyStockQty: null,
    qtyIncrements: null,
  };
}

/**
 * What can still be sold of a managed row without backorders: qty above the out-of-stock threshold minQty
 * (a negative minQty only exists with backorders, so it never lowers the floor below 0 here).
 */
export function salableQty(row: Pick<StockRow, 'qty' | 'minQty' | 'isInStock'>): number {
  return row.isInStock ? Math.max(0, row.qty - Math.max(0, row.minQty)) : 0;
}

/**
 * Makes sure each product has a stock row and locks the rows, in ascending product id order (the order every
 * stock writer uses). Returns the rows as they were, by product id; a new row has the table defaults.
 */
export async function lockStockRows(ctx: Ctx, productIds: number[]): Promise<Map<number, StockRow>> {
  const ids = [...new Set(productIds)].sort((a, b) => a - b);
  const locked = new Map<number, StockRow>();
  if (!ids.length) return locked;
  // the no-op update on conflict locks an existing row as FOR UPDATE would, and returns it as stored
  const result = await rows<StockRow>(
    ctx.db,
    sql`INSERT INTO stock_items (product_id)
        SELECT x FROM unnest(${intArray(ids)}::int[]) AS x ORDER BY x
        ON CONFLICT (product_id) DO UPDATE SET product_id = excluded.product_id
        RETURNING ${STOCK_COLUMNS}`,
  );
  for (const r of result) locked.set(r.productId, normalize(r));
  return locked;
}

export async function writeStock(ctx: Ctx, productId: number, set: Partial<StockRow>): Promise<StockRow> {
  const [row] = await ctx.db
    .update(stockItems)
    .set({ ...set, updatedAt: ctx.now })
    .where(eq(stockItems.productId, productId))
    .returning();
  return row;
}

/** What a stock.changed event says: the first qty the transaction found and the last it left. */
interface StockChange {
  productId: number;
  sku: string;
  oldQty: number;
  newQty: number;
  isInStock: boolean;
}

const stockChanges = new WeakMap<object, Map<number, StockChange>>();

/** stock.changed for a product whose qty or availability the transaction changed (one event per product). */
export function stockChanged(tx: Ctx, c: StockChange, wasInStock: boolean): void {
  if (!tx.tx || (c.oldQty === c.newQty && c.isInStock === wasInStock) || !tx.app.events.wants('stock.changed', null)) return;
  let changes = stockChanges.get(tx.tx);
  if (!changes) stockChanges.set(tx.tx, (changes = new Map()));
  const first = changes.get(c.productId);
  changes.set(c.productId, first ? { ...c, oldQty: first.oldQty } : c);
  const all = changes;
  stockEvents.emit(tx, 'stock.changed', { resource: 'stock', id: c.productId, storeId: null }, () => all.get(c.productId) ?? null);
}

/** stock.changed for each product a reservation or release moved by `delta` per unit of its line (−1 or +1). */
export async function stockMoved(tx: Ctx, totals: [number, number][], delta: -1 | 1): Promise<void> {
  if (!tx.app.events.wants('stock.changed', null)) return;
  const ids = totals.map(([id]) => id);
  const now = await rows<{ productId: number; sku: string; qty: number; isInStock: boolean }>(
    tx.db,
    sql`SELECT s.product_id AS "productId", ${productSkuSql(sql`s.product_id`)} AS sku, s.qty, s.is_in_stock AS "isInStock"
          FROM stock_items s
         WHERE s.product_id = ANY(${intArray(ids)}::int[]) AND s.manage_stock`,
  );
  const moved = new Map(totals);
  for (const r of now) {
    const qty = moved.get(r.productId) ?? 0;
    stockChanged(
      tx,
      { productId: r.productId, sku: r.sku, oldQty: r.qty - delta * qty, newQty: r.qty, isInStock: r.isInStock },
      r.isInStock,
    );
  }
}
