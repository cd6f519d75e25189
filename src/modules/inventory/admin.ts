/**
 * Admin stock updates: one product by id (a product's stockData) or by SKU (PUT /inventory), or up to 100 by SKU
 * in one transaction (PUT /inventory/bulk). The keys and their rules are in stock-input.ts; every writer locks
 * stock rows in ascending product id order (stock-rows.ts).
 */
import { sql } from 'drizzle-orm';
import { adminWebsiteScope, withTx, type Ctx } from '../../platform/context.js';
import { rows, statement } from '../../platform/db.js';
import { AppError, badRequest, notFound } from '../../platform/errors.js';
import {
  productIdBySkuSql,
  productKey,
  productsBySku,
  productSkuSql,
  skuOutsideWebsites,
  type ProductKey,
} from '../catalog/products/keys.js';
import { MAX_BULK_ITEMS } from './schemas.js';
import {
  applyPlan,
  checkStockInput,
  echoOf,
  invalid,
  type StockBulkItemInput,
  type StockBulkResult,
  type StockInput,
  type StockKey,
  type StockPlan,
  type StockRecord,
  type StockUpdateInput,
} from './stock-input.js';
import { lockStockRows, normalize, STOCK_COLUMNS, stockChanged, writeStock, type StockRow } from './stock-rows.js';

function recordOf(sku: string, before: StockRow, after: StockRow, plan: StockPlan): StockRecord {
  return {
    sku,
    qty: after.qty,
    isInStock: after.isInStock,
    manageStock: after.manageStock,
    previousQty: before.qty,
    success: true,
    ...echoOf(plan, after),
  };
}

const productNotFound = (sku: string) =>
  notFound(`Product with SKU '${sku}' not found`, { reason: 'PRODUCT_NOT_FOUND', details: { field: 'sku' } });

function checkSku(sku: unknown): string {
  if (typeof sku !== 'string' || !sku.length) throw invalid('sku', 'sku is required', 'required');
  if (sku.length > 255) throw invalid('sku', 'sku has at most 255 characters', 'maxLength');
  return sku;
}

/**
 * Products by SKU (case-insensitively, as SKUs are unique), keyed by the lowercased SKU. A principal limited to
 * some store views finds the products of their websites only, the only ones whose stock it may change.
 */
function productsInScope(ctx: Ctx, skus: string[]): Promise<Map<string, ProductKey>> {
  return productsBySku(ctx, skus, adminWebsiteScope(ctx));
}

/** 404 for a SKU of a product outside a store-limited principal's websites (before anything is written). */
async function assertSkuInScope(ctx: Ctx, sku: string): Promise<void> {
  const scope = adminWebsiteScope(ctx);
  if (scope && (await skuOutsideWebsites(ctx, sku, scope))) throw productNotFound(sku);
}

/** Creates or updates the stock of a product (by id); 404 when the product does not exist. */
export async function setStock(ctx: Ctx, productId: number, input: StockInput): Promise<StockRecord> {
  const plan = checkStockInput(input);
  if (!Number.isInteger(productId) || productId < 1 || productId > 2147483647)
    throw notFound('Product not found', { reason: 'PRODUCT_NOT_FOUND' });
  return withTx(ctx, async (tx) => {
    const product = await productKey(tx, productId);
    if (!product) throw notFound('Product not found', { reason: 'PRODUCT_NOT_FOUND' });
    const before = (await lockStockRows(tx, [product.id])).get(product.id)!;
    const after = await writeStock(tx, product.id, applyPlan(plan, before));
    stockChanged(
      tx,
      { productId: product.id, sku: product.sku, oldQty: before.qty, newQty: after.qty, isInStock: after.isInStock },
      before.isInStock,
    );
    return recordOf(product.sku, before, after, plan);
  });
}

/** PUT /inventory: the stock of one product by SKU. */
export async function updateStockBySku(ctx: Ctx, input: StockUpdateInput): Promise<StockRecord> {
  const sku = checkSku(input?.sku);
  const plan = checkStockInput(input);
  await assertSkuInScope(ctx, sku);
  // (the one-statement path writes no event: with a stock.changed subscription the update takes the other)
  if (!ctx.tx && plan.sent.every((k) => QUICK_KEYS.has(k)) && !ctx.app.events.wants('stock.changed', null)) {
    const [row] = await quickUpdateStatement.run(ctx.db, {
      sku: sku.toLowerCase(),
      qty: plan.input.qty ?? null,
      isInStock: plan.input.isInStock ?? null,
      manageStock: plan.input.manageStock ?? true,
      now: ctx.now.toISOString(),
    });
    if (row) {
      const { sku: stored, previousQty, ...after } = row;
      return recordOf(stored, { ...after, qty: previousQty }, normalize(after), plan);
    }
  }
  return withTx(ctx, async (tx) => {
    const locked = await lockStockBySku(tx, sku);
    if (!locked) throw productNotFound(sku);
    const { sku: stored, ...before } = locked;
    const after = await writeStock(tx, before.productId, applyPlan(plan, before));
    stockChanged(
      tx,
      { productId: before.productId, sku: stored, oldQty: before.qty, newQty: after.qty, isInStock: after.isInStock },
      before.isInStock,
    );
    return recordOf(stored, before, after, plan);
  });
}

/** The keys of the everyday stock update (a new qty, an availability), which the one-statement path takes. */
const QUICK_KEYS = new Set<StockKey>(['qty', 'isInStock', 'manageStock']);

/**
 * applyPlan for an update of QUICK_KEYS only, as one statement that is its own transaction: it locks the
 * product's stock row (a sub-select FOR UPDATE, so the previous qty is the one this update replaces even under
 * concurrent writers) and writes it. It returns nothing when the product has no stock row yet, does not exist,
 * or its stored row breaks a rule applyPlan checks: the transactional path then creates the row or answers the
 * error.
 */
const quickUpdateStatement = statement<StockRow & { sku: string; previousQty: number }>(
  'stock_quick_update',
  () => sql`UPDATE stock_items s SET
      qty = COALESCE(${sql.placeholder('qty')}::int, s.qty),
      is_in_stock = COALESCE(${sql.placeholder('isInStock')}::boolean, ${sql.placeholder('qty')}::int > 0, s.is_in_stock),
      manage_stock = ${sql.placeholder('manageStock')}::boolean,
      updated_at = ${sql.placeholder('now')}::timestamptz
    FROM (SELECT st.product_id, st.qty, ${productSkuSql(sql`st.product_id`)} AS sku FROM stock_items st
          WHERE st.product_id = ${productIdBySkuSql(sql`${sql.placeholder('sku')}::text`)}
            AND NOT (st.min_qty < 0 AND st.backorders = 0)
            AND (st.max_sale_qty IS NULL OR st.max_sale_qty >= st.min_sale_qty)
          FOR UPDATE OF st) old
    WHERE s.product_id = old.product_id
    RETURNING s.product_id AS "productId", s.qty, s.is_in_stock AS "isInStock", s.manage_stock AS "manageStock",
      s.min_qty AS "minQty", s.min_sale_qty AS "minSaleQty", s.max_sale_qty AS "maxSaleQty", s.backorders,
      s.notify_stock_qty AS "notifyStockQty", s.qty_increments AS "qtyIncrements", s.updated_at AS "updatedAt",
      old.qty AS "previousQty", old.sku`,
);

/** As lockStockRows for the product with this SKU (any case), with its SKU as stored; undefined when none has it. */
async function lockStockBySku(ctx: Ctx, sku: string): Promise<(StockRow & { sku: string }) | undefined> {
  const [row] = await rows<StockRow & { sku: string }>(
    ctx.db,
    sql`INSERT INTO stock_items (product_id)
        SELECT id FROM (SELECT ${productIdBySkuSql(sql`${sku.toLowerCase()}::text`)} AS id) p WHERE id IS NOT NULL
        ON CONFLICT (product_id) DO UPDATE SET product_id = excluded.product_id
        RETURNING ${STOCK_COLUMNS}, ${productSkuSql(sql`stock_items.product_id`)} AS "sku"`,
  );
  return row ? { ...normalize(row), sku: row.sku } : undefined;
}

function atIndex(index: number, err: unknown): unknown {
  if (!(err instanceof AppError)) return err;
  return new AppError(err.status === 404 ? 'bad_request' : err.kind, `Item at index ${index}: ${err.message}`, {
    error: err.status === 404 ? undefined : err.error,
    reason: err.reason,
    details: { ...(err.details ?? {}), index },
  });
}

/**
 * PUT /inventory/bulk: 1 to 100 items. Every item is checked (SKU, types, ranges) before anything is
 * written; then all are applied in one transaction, and a failure rolls every item back.
 */
export async function updateStockBulk(ctx: Ctx, items: StockBulkItemInput[]): Promise<StockBulkResult> {
  if (!Array.isArray(items) || !items.length) {
    throw badRequest('items must hold at least one item', {
      reason: 'VALIDATION_FAILED',
      details: { field: 'items', constraint: 'minItems' },
    });
  }
  if (items.length > MAX_BULK_ITEMS) {
    throw badRequest(`Maximum ${MAX_BULK_ITEMS} items per bulk update`, {
      reason: 'TOO_MANY_ITEMS',
      details: { field: 'items', constraint: 'maxItems' },
    });
  }
  const checked = items.map((item, index) => {
    try {
      return { sku: checkSku(item?.sku), plan: checkStockInput(item) };
    } catch (err) {
      throw atIndex(index, err);
    }
  });
  return withTx(ctx, async (tx) => {
    const found = await productsInScope(
      tx,
      checked.map((c) => c.sku),
    );
    const refs = checked.map((c, index) => {
      const product = found.get(c.sku.toLowerCase());
      if (!product) throw atIndex(index, productNotFound(c.sku));
      return product;
    });
    const locked = await lockStockRows(
      tx,
      refs.map((p) => p.id),
    );
    const results: StockBulkResult['results'] = [];
    for (const [index, c] of checked.entries()) {
      const product = refs[index];
      const before = locked.get(product.id)!;
      let set: Partial<StockRow>;
      try {
        set = applyPlan(c.plan, before);
      } catch (err) {
        throw atIndex(index, err);
      }
      const after = await writeStock(tx, product.id, set);
      stockChanged(
        tx,
        { productId: product.id, sku: product.sku, oldQty: before.qty, newQty: after.qty, isInStock: after.isInStock },
        before.isInStock,
      );
      // a SKU named twice sees the first item's result
      locked.set(product.id, after);
      results.push({
        sku: product.sku,
        qty: after.qty,
        isInStock: after.isInStock,
        manageStock: after.manageStock,
        previousQty: before.qty,
        success: true,
      });
    }
    return { sku: 'bulk', qty: 0, success: true, results };
  });
}
