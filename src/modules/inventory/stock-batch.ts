/**
 * Stock updates of many products by id in one transaction of a fixed number of statements (the Magento 1 API's
 * `product_stock.update` and `multiUpdate`): every update is checked before anything is read, the rows are
 * created where missing and locked in ascending product id order in one statement (as every stock writer locks
 * them), the updates are applied to the locked rows in the order given (a product named twice sees the first
 * update's result), and every changed row is written by one UPDATE. A refused update rolls every one back.
 */
import { sql } from 'drizzle-orm';
import { withTx, type Ctx } from '../../platform/context.js';
import { rows } from '../../platform/db.js';
import { AppError } from '../../platform/errors.js';
import { applyPlan, checkStockInput, type StockInput } from './stock-input.js';
import { intArray, lockStockRows, normalize, stockChanged, type StockRow } from './stock-rows.js';

export interface StockBatchItem {
  productId: number;
  sku: string;
  input: StockInput;
}

/** The error of the update at `index`, naming it. */
function atIndex(index: number, count: number, err: unknown): unknown {
  if (!(err instanceof AppError) || count === 1) return err;
  return new AppError(err.kind, `Item at index ${index}: ${err.message}`, {
    reason: err.reason,
    details: { ...(err.details ?? {}), index },
  });
}

/** A PostgreSQL array literal of nullable integers or booleans, bound as one parameter. */
const nullableArray = (values: (number | boolean | null)[]) =>
  `{${values.map((v) => (v === null ? 'NULL' : typeof v === 'boolean' ? (v ? 't' : 'f') : String(v))).join(',')}}`;

/** Applies the updates (products that exist, by id) in one transaction; returns the rows as left, by product id. */
export async function setStockMany(ctx: Ctx, items: StockBatchItem[]): Promise<Map<number, StockRow>> {
  const plans = items.map((item, index) => {
    try {
      return checkStockInput(item.input);
    } catch (err) {
      throw atIndex(index, items.length, err);
    }
  });
  if (!items.length) return new Map();
  return withTx(ctx, async (tx) => {
    const locked = await lockStockRows(
      tx,
      items.map((i) => i.productId),
    );
    const before = new Map(locked);
    const current = new Map(locked);
    for (const [index, item] of items.entries()) {
      const row = current.get(item.productId)!;
      try {
        current.set(item.productId, { ...row, ...applyPlan(plans[index], row) });
      } catch (err) {
        throw atIndex(index, items.length, err);
      }
    }
    const changed = [...current.values()];
    const col = <K extends keyof StockRow>(k: K) => nullableArray(changed.map((r) => r[k] as number | boolean | null));
    const written = await rows<StockRow>(
      tx.db,
      sql`UPDATE stock_items s SET qty = v.qty, is_in_stock = v.is_in_stock, manage_stock = v.manage_stock, min_qty = v.min_qty,
            min_sale_qty = v.min_sale_qty, max_sale_qty = v.max_sale_qty, backorders = v.backorders,
            notify_stock_qty = v.notify_stock_qty, qty_increments = v.qty_increments, updated_at = ${tx.now}
          FROM unnest(${intArray(changed.map((r) => r.productId))}::int[], ${col('qty')}::int[], ${col('isInStock')}::boolean[],
            ${col('manageStock')}::boolean[], ${col('minQty')}::int[], ${col('minSaleQty')}::int[], ${col('maxSaleQty')}::int[],
            ${col('backorders')}::int[], ${col('notifyStockQty')}::int[], ${col('qtyIncrements')}::int[])
            AS v(product_id, qty, is_in_stock, manage_stock, min_qty, min_sale_qty, max_sale_qty, backorders, notify_stock_qty, qty_increments)
          WHERE s.product_id = v.product_id
          RETURNING s.product_id AS "productId", s.qty, s.is_in_stock AS "isInStock", s.manage_stock AS "manageStock",
            s.min_qty AS "minQty", s.min_sale_qty AS "minSaleQty", s.max_sale_qty AS "maxSaleQty", s.backorders,
            s.notify_stock_qty AS "notifyStockQty", s.qty_increments AS "qtyIncrements", s.updated_at AS "updatedAt"`,
    );
    const out = new Map<number, StockRow>();
    for (const r of written) out.set(r.productId, normalize(r));
    const skus = new Map(items.map((i) => [i.productId, i.sku]));
    for (const [productId, after] of out) {
      const was = before.get(productId)!;
      stockChanged(
        tx,
        { productId, sku: skus.get(productId)!, oldQty: was.qty, newQty: after.qty, isInStock: after.isInStock },
        was.isInStock,
      );
    }
    return out;
  });
}
