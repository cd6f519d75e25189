/**
 * Stock: admin updates (one product, or up to 100 in one transaction) and the atomic functions carts and
 * orders use. Rules:
 * - qty is an integer from 0 to 99,999,999; an omitted qty leaves the stored qty as it is.
 * - isInStock, when omitted and qty is sent, becomes qty > 0 (the spec's rule, whatever minQty is).
 * - manageStock, when omitted, is true. A new stock row starts with the table defaults (qty 0, managed, out
 *   of stock).
 * - A product without a stock row reads as such a new row everywhere here: managed, qty 0, out of stock, so
 *   it cannot be bought (the catalog shows it out of stock too).
 * - An update names at least one stock key.
 * - The salable qty of managed stock without backorders is qty - minQty (minQty is the out-of-stock
 *   threshold). Reservations decrement it with one conditional UPDATE per product, in ascending product id
 *   order, so that concurrent orders never oversell and never deadlock; releases are the reverse and never
 *   raise qty above 99,999,999.
 * Every writer locks stock rows in ascending product id order.
 */
import { and, eq, inArray, sql, type SQL } from 'drizzle-orm';
import { adminWebsiteScope, withTx, type Ctx } from '../../platform/context.js';
import { rows, statement } from '../../platform/db.js';
import { ReadCache } from '../../platform/read-cache.js';
import { AppError, badRequest, conflict, notFound, unprocessable } from '../../platform/errors.js';
import { compact } from '../../platform/format.js';
import { products } from '../catalog/tables.js';
import { MAX_BULK_ITEMS, MAX_STOCK_QTY } from './schemas.js';
import { stockItems } from './tables.js';
import { stockEvents } from './events.js';

export type StockRow = typeof stockItems.$inferSelect;

/** The stock keys of an update (wire 2.11); every key optional, at least one required. */
export interface StockInput {
  qty?: number;
  isInStock?: boolean;
  manageStock?: boolean;
  minQty?: number;
  minSaleQty?: number;
  /** null: no maximum */
  maxSaleQty?: number | null;
  /** 0 no backorders, 1 allow qty below 0, 2 allow and notify */
  backorders?: number;
  notifyStockQty?: number | null;
  /** null: any qty */
  qtyIncrements?: number | null;
  /** quantities are integers: only false is accepted */
  isQtyDecimal?: boolean;
  /** false clears qtyIncrements; true needs qtyIncrements (sent or stored) */
  enableQtyIncrements?: boolean;
  useConfigMinQty?: boolean;
  useConfigMinSaleQty?: boolean;
  useConfigMaxSaleQty?: boolean;
  useConfigBackorders?: boolean;
  useConfigNotifyStockQty?: boolean;
  useConfigQtyIncrements?: boolean;
  useConfigEnableQtyInc?: boolean;
  useConfigManageStock?: boolean;
}

export interface StockUpdateInput extends StockInput {
  sku: string;
}

/** A bulk item; a missing SKU is refused with the item's index. */
export interface StockBulkItemInput extends StockInput {
  sku?: string;
}

/** Extended keys echoed back in the stock record when they were sent. */
export interface StockEcho {
  minQty?: number;
  minSaleQty?: number;
  maxSaleQty?: number;
  backorders?: number;
  notifyStockQty?: number;
  qtyIncrements?: number;
  isQtyDecimal?: boolean;
  enableQtyIncrements?: boolean;
  useConfigMinQty?: boolean;
  useConfigMinSaleQty?: boolean;
  useConfigMaxSaleQty?: boolean;
  useConfigBackorders?: boolean;
  useConfigNotifyStockQty?: boolean;
  useConfigQtyIncrements?: boolean;
  useConfigEnableQtyInc?: boolean;
  useConfigManageStock?: boolean;
}

export interface StockRecord extends StockEcho {
  sku: string;
  qty: number;
  isInStock: boolean;
  manageStock: boolean;
  previousQty: number;
  success: true;
}

export interface StockBulkResult {
  sku: 'bulk';
  qty: 0;
  success: true;
  results: { sku: string; qty: number; isInStock: boolean; manageStock: boolean; previousQty: number; success: boolean }[];
}

export interface StockLine {
  productId: number;
  qty: number;
}

export type AvailabilityReason = 'INVALID_QTY' | 'OUT_OF_STOCK' | 'MIN_SALE_QTY' | 'MAX_SALE_QTY' | 'QTY_INCREMENTS' | 'INSUFFICIENT_QTY';

export interface LineAvailability {
  productId: number;
  available: boolean;
  /** the stored qty (0 when the product keeps no stock row) */
  qty: number;
  /** effective: always true when stock is not managed; false without a stock row */
  isInStock: boolean;
  manageStock: boolean;
  backorders: number;
  minSaleQty: number;
  maxSaleQty?: number;
  qtyIncrements?: number;
  reason?: AvailabilityReason;
  message?: string;
}

// ---- validation ----

const BOOLEAN_KEYS = [
  'isInStock',
  'manageStock',
  'isQtyDecimal',
  'enableQtyIncrements',
  'useConfigMinQty',
  'useConfigMinSaleQty',
  'useConfigMaxSaleQty',
  'useConfigBackorders',
  'useConfigNotifyStockQty',
  'useConfigQtyIncrements',
  'useConfigEnableQtyInc',
  'useConfigManageStock',
] as const;

/** Integer keys: [min, max, nullable]. */
const INTEGER_KEYS = {
  qty: [0, MAX_STOCK_QTY, false],
  minQty: [-MAX_STOCK_QTY, MAX_STOCK_QTY, false],
  minSaleQty: [1, MAX_STOCK_QTY, false],
  maxSaleQty: [1, MAX_STOCK_QTY, true],
  backorders: [0, 2, false],
  notifyStockQty: [-MAX_STOCK_QTY, MAX_STOCK_QTY, true],
  qtyIncrements: [1, MAX_STOCK_QTY, true],
} as const satisfies Record<string, readonly [number, number, boolean]>;

type IntegerKey = keyof typeof INTEGER_KEYS;
type StockKey = IntegerKey | (typeof BOOLEAN_KEYS)[number];
const STOCK_KEYS: StockKey[] = [...(Object.keys(INTEGER_KEYS) as IntegerKey[]), ...BOOLEAN_KEYS];

/** Columns a `useConfig*: true` resets to the default, and the value. */
const USE_CONFIG: Record<string, { field: IntegerKey | 'manageStock'; value: number | boolean | null }> = {
  useConfigMinQty: { field: 'minQty', value: 0 },
  useConfigMinSaleQty: { field: 'minSaleQty', value: 1 },
  useConfigMaxSaleQty: { field: 'maxSaleQty', value: null },
  useConfigBackorders: { field: 'backorders', value: 0 },
  useConfigNotifyStockQty: { field: 'notifyStockQty', value: null },
  useConfigQtyIncrements: { field: 'qtyIncrements', value: null },
  useConfigEnableQtyInc: { field: 'qtyIncrements', value: null },
  useConfigManageStock: { field: 'manageStock', value: true },
};

function invalid(field: string, message: string, constraint = 'invalid'): AppError {
  return badRequest(message, { reason: 'VALIDATION_FAILED', details: { field, constraint } });
}

const fmt = (n: number) => n.toLocaleString('en-US');

/** A checked update: the keys that were sent, with their (checked) values. */
interface StockPlan {
  input: Partial<Record<StockKey, number | boolean | null>>;
  sent: StockKey[];
}

/** Checks types, ranges and the rules that need no stored row; throws a 400 naming the field. */
function checkStockInput(input: unknown): StockPlan {
  if (!input || typeof input !== 'object' || Array.isArray(input)) throw invalid('body', 'The stock update must be an object', 'type');
  const src = input as Record<string, unknown>;
  const plan: StockPlan = { input: {}, sent: [] };
  for (const key of STOCK_KEYS) {
    const v = src[key];
    if (v === undefined) continue;
    if (key in INTEGER_KEYS) {
      const [min, max, nullable] = INTEGER_KEYS[key as IntegerKey];
      if (v === null && nullable) {
        plan.input[key] = null;
      } else if (typeof v !== 'number' || !Number.isInteger(v)) {
        throw invalid(key, `${key} must be an integer${key === 'qty' ? ` from 0 to ${fmt(MAX_STOCK_QTY)}` : ''}`, 'type');
      } else if (v < min || v > max) {
        throw invalid(key, `${key} must be an integer from ${fmt(min)} to ${fmt(max)}`, v < min ? 'minimum' : 'maximum');
      } else {
        plan.input[key] = v;
      }
    } else {
      if (typeof v !== 'boolean') throw invalid(key, `${key} must be a boolean`, 'type');
      plan.input[key] = v;
    }
    plan.sent.push(key);
  }
  if (!plan.sent.length) {
    throw badRequest('At least one stock field is required (qty, isInStock, manageStock, or an extended stock key)', {
      reason: 'NO_STOCK_FIELDS',
      details: { field: 'qty', constraint: 'required' },
    });
  }
  if (plan.input.isQtyDecimal === true) {
    throw invalid('isQtyDecimal', 'isQtyDecimal cannot be true: stock quantities are integers');
  }
  for (const [flag, target] of Object.entries(USE_CONFIG)) {
    if (plan.input[flag as StockKey] === true && target.field !== 'manageStock' && plan.input[target.field] !== undefined) {
      throw invalid(flag, `Send either ${target.field} or ${flag}: true, not both`, 'conflict');
    }
  }
  if (plan.input.useConfigManageStock === true && plan.input.manageStock === false) {
    throw invalid('useConfigManageStock', 'Send either manageStock: false or useConfigManageStock: true, not both', 'conflict');
  }
  if (plan.input.enableQtyIncrements === false && typeof plan.input.qtyIncrements === 'number') {
    throw invalid('enableQtyIncrements', 'qtyIncrements cannot be set while enableQtyIncrements is false', 'conflict');
  }
  return plan;
}

/** The column values an update writes, given the stored row; throws a 400 for rules that need the row. */
function applyPlan(plan: StockPlan, row: StockRow): Partial<StockRow> {
  const i = plan.input;
  const set: Partial<StockRow> = {};
  for (const [flag, target] of Object.entries(USE_CONFIG)) {
    if (i[flag as StockKey] === true) (set as Record<string, unknown>)[target.field] = target.value;
  }
  for (const key of ['minQty', 'minSaleQty', 'maxSaleQty', 'backorders', 'notifyStockQty', 'qtyIncrements'] as const) {
    if (i[key] !== undefined) (set as Record<string, unknown>)[key] = i[key];
  }
  if (i.enableQtyIncrements === false) set.qtyIncrements = null;
  if (i.qty !== undefined) set.qty = i.qty as number;
  set.manageStock = (i.manageStock as boolean | undefined) ?? true;

  const next = { ...row, ...set };
  if (i.enableQtyIncrements === true && next.qtyIncrements === null) {
    throw invalid('qtyIncrements', 'qtyIncrements is required when enableQtyIncrements is true', 'required');
  }
  if (next.minQty < 0 && next.backorders === 0) {
    throw invalid('minQty', 'minQty can be negative only when backorders are allowed', 'minimum');
  }
  if (next.maxSaleQty !== null && next.maxSaleQty < next.minSaleQty) {
    throw invalid(i.maxSaleQty !== undefined ? 'maxSaleQty' : 'minSaleQty', 'maxSaleQty must not be less than minSaleQty', 'range');
  }
  if (i.isInStock !== undefined) set.isInStock = i.isInStock as boolean;
  else if (i.qty !== undefined) set.isInStock = next.qty > 0;
  return set;
}

function echoOf(plan: StockPlan, row: StockRow): StockEcho {
  const out: Record<string, unknown> = {};
  for (const key of plan.sent) {
    if (key === 'qty' || key === 'isInStock' || key === 'manageStock') continue;
    out[key] = key in row ? row[key as keyof StockRow] : plan.input[key];
  }
  return compact(out) as StockEcho;
}

// ---- stock rows ----

/** Stock columns under the keys of a StockRow, for raw statements. */
const STOCK_COLUMNS = sql.raw(
  `product_id AS "productId", qty, is_in_stock AS "isInStock", manage_stock AS "manageStock", min_qty AS "minQty",
   min_sale_qty AS "minSaleQty", max_sale_qty AS "maxSaleQty", backorders, notify_stock_qty AS "notifyStockQty",
   qty_increments AS "qtyIncrements", updated_at AS "updatedAt"`,
);

/** A PostgreSQL int[] literal of checked integers, bound as one parameter. */
const intArray = (ids: number[]) => `{${ids.join(',')}}`;

function normalize(r: StockRow): StockRow {
  return r.updatedAt instanceof Date ? r : { ...r, updatedAt: new Date(r.updatedAt as unknown as string) };
}

/**
 * How a product without a stock row is treated: as the row it would get (the table defaults): managed, qty 0,
 * out of stock. Kept in step with the column defaults in tables.ts.
 */
function missingRow(productId: number): Omit<StockRow, 'updatedAt'> {
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
function salableQty(row: Pick<StockRow, 'qty' | 'minQty' | 'isInStock'>): number {
  return row.isInStock ? Math.max(0, row.qty - Math.max(0, row.minQty)) : 0;
}

interface ProductRef {
  id: number;
  sku: string;
}

/**
 * Makes sure each product has a stock row and locks the rows, in ascending product id order (the order every
 * stock writer uses). Returns the rows as they were, by product id; a new row has the table defaults.
 */
async function lockStockRows(ctx: Ctx, productIds: number[]): Promise<Map<number, StockRow>> {
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

async function writeStock(ctx: Ctx, productId: number, set: Partial<StockRow>): Promise<StockRow> {
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
function stockChanged(tx: Ctx, c: StockChange, wasInStock: boolean): void {
  if (!tx.tx || (c.oldQty === c.newQty && c.isInStock === wasInStock) || !tx.app.events.wants('stock.changed', null)) return;
  let changes = stockChanges.get(tx.tx);
  if (!changes) stockChanges.set(tx.tx, (changes = new Map()));
  const first = changes.get(c.productId);
  changes.set(c.productId, first ? { ...c, oldQty: first.oldQty } : c);
  const all = changes;
  stockEvents.emit(tx, 'stock.changed', { resource: 'stock', id: c.productId, storeId: null }, () => all.get(c.productId) ?? null);
}

/** stock.changed for each product a reservation or release moved by `delta` per unit of its line (−1 or +1). */
async function stockMoved(tx: Ctx, totals: [number, number][], delta: -1 | 1): Promise<void> {
  if (!tx.app.events.wants('stock.changed', null)) return;
  const ids = totals.map(([id]) => id);
  const now = await rows<{ productId: number; sku: string; qty: number; isInStock: boolean }>(
    tx.db,
    sql`SELECT s.product_id AS "productId", p.sku, s.qty, s.is_in_stock AS "isInStock"
          FROM stock_items s JOIN products p ON p.id = s.product_id
         WHERE s.product_id = ANY(${intArray(ids)}::int[]) AND s.manage_stock`,
  );
  const moved = new Map(totals);
  for (const r of now) {
    const qty = moved.get(r.productId) ?? 0;
    stockChanged(tx, { productId: r.productId, sku: r.sku, oldQty: r.qty - delta * qty, newQty: r.qty, isInStock: r.isInStock }, r.isInStock);
  }
}

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

/** Products by SKU (case-insensitively, as SKUs are unique), keyed by the lowercased SKU. */
async function productsBySku(ctx: Ctx, skus: string[]): Promise<Map<string, ProductRef>> {
  const lowered = [...new Set(skus.map((s) => s.toLowerCase()))];
  const found = await ctx.db
    .select({ id: products.id, sku: products.sku })
    .from(products)
    .where(and(inArray(sql`lower(${products.sku})`, lowered), websiteScope(ctx)));
  return new Map(found.map((p) => [p.sku.toLowerCase(), p]));
}

/**
 * For a principal limited to some store views: the products of their websites, the only ones whose stock it may
 * change (another website's product is not found); undefined for every other caller.
 */
function websiteScope(ctx: Ctx): SQL | undefined {
  const scope = adminWebsiteScope(ctx);
  return scope ? sql`${products.websiteIds} && ${`{${scope.join(',')}}`}::int[]` : undefined;
}

/** 404 for a SKU of a product outside a store-limited principal's websites (before anything is written). */
async function assertSkuInScope(ctx: Ctx, sku: string): Promise<void> {
  if (!adminWebsiteScope(ctx)) return;
  const lowered = sku.toLowerCase();
  const [outside] = await ctx.db
    .select({ id: products.id })
    .from(products)
    .where(and(sql`lower(${products.sku}) = ${lowered}`, sql`NOT (${websiteScope(ctx)})`))
    .limit(1);
  if (outside) throw productNotFound(sku);
}

// ---- admin updates ----

/** Creates or updates the stock of a product (by id); 404 when the product does not exist. */
export async function setStock(ctx: Ctx, productId: number, input: StockInput): Promise<StockRecord> {
  const plan = checkStockInput(input);
  if (!Number.isInteger(productId) || productId < 1 || productId > 2147483647) throw notFound('Product not found', { reason: 'PRODUCT_NOT_FOUND' });
  return withTx(ctx, async (tx) => {
    const [product] = await tx.db.select({ id: products.id, sku: products.sku }).from(products).where(eq(products.id, productId));
    if (!product) throw notFound('Product not found', { reason: 'PRODUCT_NOT_FOUND' });
    const before = (await lockStockRows(tx, [product.id])).get(product.id)!;
    const after = await writeStock(tx, product.id, applyPlan(plan, before));
    stockChanged(tx, { productId: product.id, sku: product.sku, oldQty: before.qty, newQty: after.qty, isInStock: after.isInStock }, before.isInStock);
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
    stockChanged(tx, { productId: before.productId, sku: stored, oldQty: before.qty, newQty: after.qty, isInStock: after.isInStock }, before.isInStock);
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
    FROM (SELECT st.product_id, st.qty, p.sku FROM stock_items st JOIN products p ON p.id = st.product_id
          WHERE lower(p.sku) = ${sql.placeholder('sku')}::text
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
        SELECT p.id FROM products p WHERE lower(p.sku) = ${sku.toLowerCase()}::text
        ON CONFLICT (product_id) DO UPDATE SET product_id = excluded.product_id
        RETURNING ${STOCK_COLUMNS}, (SELECT p.sku FROM products p WHERE p.id = stock_items.product_id) AS "sku"`,
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
    throw badRequest('items must hold at least one item', { reason: 'VALIDATION_FAILED', details: { field: 'items', constraint: 'minItems' } });
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
    const found = await productsBySku(tx, checked.map((c) => c.sku));
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
      stockChanged(tx, { productId: product.id, sku: product.sku, oldQty: before.qty, newQty: after.qty, isInStock: after.isInStock }, before.isInStock);
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

// ---- reservations ----

/** Checks the lines and sums the qty of each product; returns the products in ascending id order. */
function checkLines(lines: StockLine[]): [number, number][] {
  if (!Array.isArray(lines)) throw invalid('lines', 'lines must be an array', 'type');
  const totals = new Map<number, number>();
  for (const [i, line] of lines.entries()) {
    const { productId, qty } = line ?? ({} as StockLine);
    if (!Number.isInteger(productId) || productId < 1 || productId > 2147483647) {
      throw invalid(`lines.${i}.productId`, `productId must be a positive integer (line ${i})`, 'type');
    }
    if (!Number.isInteger(qty) || qty < 1 || qty > MAX_STOCK_QTY) {
      throw invalid(`lines.${i}.qty`, `qty must be a positive integer up to ${fmt(MAX_STOCK_QTY)} (line ${i})`, 'minimum');
    }
    totals.set(productId, (totals.get(productId) ?? 0) + qty);
  }
  for (const [productId, total] of totals) {
    if (total > MAX_STOCK_QTY) throw invalid('qty', `qty of product ${productId} must be at most ${fmt(MAX_STOCK_QTY)}`, 'maximum');
  }
  return [...totals.entries()].sort((a, b) => a[0] - b[0]);
}

async function skuOf(ctx: Ctx, productId: number): Promise<string | undefined> {
  const [p] = await ctx.db.select({ sku: products.sku }).from(products).where(eq(products.id, productId));
  return p?.sku;
}

/** The row of one product, locked until the transaction ends (undefined when it has none). */
async function lockedRow(tx: Ctx, productId: number): Promise<StockRow | undefined> {
  const [row] = await rows<StockRow>(tx.db, sql`SELECT ${STOCK_COLUMNS} FROM stock_items WHERE product_id = ${productId} FOR UPDATE`);
  return row && normalize(row);
}

/**
 * How much of a locked row may be reserved: the salable qty (qty - minQty) without backorders, down to
 * -99,999,999 with them; 0 when out of stock or without a row; Infinity when stock is not managed. The same
 * rule as the WHERE clause of the reserving UPDATE.
 */
function reservable(row: StockRule | undefined): number {
  const r = row ?? missingRow(0);
  if (!r.manageStock) return Infinity;
  if (!r.isInStock) return 0;
  // backorders may take qty below 0, down to -99,999,999 (far from the integer column's limit)
  return r.backorders > 0 ? r.qty + MAX_STOCK_QTY : salableQty(r);
}

/**
 * Takes the lines' quantities out of stock, in the caller's transaction (or its own). One statement locks the
 * products' rows in ascending product id order and decrements each managed product with a conditional
 * UPDATE. Without backorders only the salable qty (qty - minQty) may be taken, and an item whose qty falls to
 * minQty or below goes out of stock; with backorders qty may fall below 0 (to -99,999,999 at most). A product
 * that is out of stock, keeps no stock row, or has too little is refused with a 409 OUT_OF_STOCK (the first
 * such product by id), and nothing of the call stays applied once the transaction rolls back. Products whose
 * stock is not managed are left alone.
 */
export async function reserveStock(ctx: Ctx, lines: StockLine[]): Promise<void> {
  const totals = checkLines(lines);
  if (!totals.length) return;
  await withTx(ctx, async (tx) => {
    const ids = `{${totals.map(([id]) => id).join(',')}}`;
    const qtys = `{${totals.map(([, q]) => q).join(',')}}`;
    const [done] = await rows<{ taken: number[] | null; unmanaged: number[] | null }>(
      tx.db,
      sql`WITH want AS (SELECT * FROM unnest(${ids}::int[], ${qtys}::int[]) AS w(product_id, qty)),
          locked AS MATERIALIZED (SELECT l.product_id, l.manage_stock FROM stock_items l WHERE l.product_id = ANY(${ids}::int[]) ORDER BY l.product_id FOR UPDATE),
          taken AS (
            UPDATE stock_items s
               SET qty = s.qty - w.qty,
                   is_in_stock = CASE WHEN s.backorders = 0 AND s.qty - w.qty <= s.min_qty THEN false ELSE s.is_in_stock END,
                   updated_at = ${tx.now}
              FROM want w
             WHERE s.product_id = w.product_id AND s.manage_stock AND s.is_in_stock
               AND CASE WHEN s.backorders > 0 THEN s.qty >= w.qty - ${MAX_STOCK_QTY} ELSE s.qty - GREATEST(s.min_qty, 0) >= w.qty END
               -- every row locked first, in product id order, so that concurrent reservations never deadlock
               AND (SELECT count(*) FROM locked) >= 0
            RETURNING s.product_id
          )
          SELECT (SELECT array_agg(product_id) FROM taken) AS taken,
                 (SELECT array_agg(product_id) FROM locked WHERE NOT manage_stock) AS unmanaged`,
    );
    const settled = new Set([...(done?.taken ?? []), ...(done?.unmanaged ?? [])].map(Number));
    // refused: the first product that could not be reserved tells why (its row is locked now)
    for (const [productId, qty] of totals) if (!settled.has(productId)) await reserveOne(tx, productId, qty);
    await stockMoved(tx, totals, -1);
  });
}

/** One product's reservation by itself, refused with the reason when it cannot be taken. */
async function reserveOne(tx: Ctx, productId: number, qty: number): Promise<void> {
  for (let attempt = 0; ; attempt++) {
    const updated = await rows<{ qty: number }>(
      tx.db,
      sql`UPDATE stock_items
             SET qty = qty - ${qty},
                 is_in_stock = CASE WHEN backorders = 0 AND qty - ${qty} <= min_qty THEN false ELSE is_in_stock END,
                 updated_at = ${tx.now}
           WHERE product_id = ${productId} AND manage_stock AND is_in_stock
             AND CASE WHEN backorders > 0 THEN qty >= ${qty - MAX_STOCK_QTY}
                      ELSE qty - GREATEST(min_qty, 0) >= ${qty} END
       RETURNING qty`,
    );
    if (updated.length) return;
    // refused, or not managed: read the row as it now is, locked, to tell which
    const row = await lockedRow(tx, productId);
    if (row && !row.manageStock) return;
    const available = Math.max(0, reservable(row));
    // changed between the UPDATE and the lock (a release, an admin update): once more, now that it is locked
    if (qty <= available && attempt === 0) continue;
    const sku = (await skuOf(tx, productId)) ?? String(productId);
    throw conflict(
      row?.isInStock ? `Not enough stock for '${sku}': requested ${qty}, available ${available}` : `Product '${sku}' is out of stock`,
      { reason: 'OUT_OF_STOCK', details: { productId, sku, requested: qty, available } },
    );
  }
}

/**
 * Returns the lines' quantities to stock (a canceled order, a refund back to stock), in ascending product id
 * order. An item that was out of stock because its qty had fallen to minQty or below is back in stock once
 * its qty is above minQty. A release that would take qty above 99,999,999 is refused with a 422
 * STOCK_QTY_LIMIT (nothing of the call stays applied once the transaction rolls back). Products whose stock
 * is not managed, or that keep no stock row (nothing was ever taken from them), are left alone.
 */
export async function releaseStock(ctx: Ctx, lines: StockLine[]): Promise<void> {
  const totals = checkLines(lines);
  if (!totals.length) return;
  await withTx(ctx, async (tx) => {
    for (const [productId, qty] of totals) {
      for (let attempt = 0; ; attempt++) {
        const updated = await rows<{ qty: number }>(
          tx.db,
          sql`UPDATE stock_items
                 SET qty = qty + ${qty},
                     is_in_stock = CASE WHEN NOT is_in_stock AND qty <= min_qty AND qty + ${qty} > min_qty THEN true ELSE is_in_stock END,
                     updated_at = ${tx.now}
               WHERE product_id = ${productId} AND manage_stock AND qty <= ${MAX_STOCK_QTY - qty}
           RETURNING qty`,
        );
        if (updated.length) break;
        const row = await lockedRow(tx, productId);
        if (!row || !row.manageStock) break;
        // changed between the UPDATE and the lock: try once more, now that it is locked
        if (row.qty <= MAX_STOCK_QTY - qty && attempt === 0) continue;
        const sku = (await skuOf(tx, productId)) ?? String(productId);
        throw unprocessable(
          `Cannot return ${fmt(qty)} of '${sku}' to stock: qty ${fmt(row.qty)} would exceed ${fmt(MAX_STOCK_QTY)}`,
          { reason: 'STOCK_QTY_LIMIT', details: { productId, sku, qty: row.qty, released: qty, max: MAX_STOCK_QTY } },
        );
      }
    }
    await stockMoved(tx, totals, 1);
  });
}

// ---- reads ----

const stockByIds = statement<StockRow>(
  'inventory_stock_of',
  () => sql`SELECT ${STOCK_COLUMNS} FROM stock_items WHERE product_id = ANY(${sql.placeholder('ids')}::int[])`,
);

/** The stock rows of these products, by product id (products without a row are absent). One round trip. */
export async function stockOf(ctx: Ctx, productIds: number[]): Promise<Map<number, StockRow>> {
  const ids = [...new Set(productIds)].filter((id) => Number.isInteger(id) && id > 0 && id <= 2147483647);
  const out = new Map<number, StockRow>();
  if (!ids.length) return out;
  for (const r of await stockByIds.run(ctx.db, { ids: intArray(ids) })) out.set(r.productId, normalize(r));
  return out;
}

/**
 * Whether each line could be bought now, without changing anything (carts). A product without a stock row is
 * read as a new row (managed, qty 0, out of stock), so it is not available. Sale-qty rules (minSaleQty,
 * maxSaleQty, qtyIncrements) apply per line; the stock rules (in stock, enough salable qty, qty - minQty,
 * unless backorders) apply to managed stock, against the product's total over all lines, as reserveStock
 * applies them.
 */
export async function checkAvailability(ctx: Ctx, lines: StockLine[]): Promise<LineAvailability[]> {
  if (!Array.isArray(lines)) throw invalid('lines', 'lines must be an array', 'type');
  const stock = await stockOf(
    ctx,
    lines.map((l) => l?.productId),
  );
  return availabilityFrom(stock, lines);
}

/** What judging availability needs of a stock row. */
export type StockRule = Pick<StockRow, 'productId' | 'qty' | 'isInStock' | 'manageStock' | 'minQty' | 'minSaleQty' | 'maxSaleQty' | 'backorders' | 'qtyIncrements'>;

/** Stock rules by product, kept while the catalog version stays (every stock change moves it); null: no row. */
const ruleCache = (ctx: Ctx) => ctx.app.settings.memo('inventory.stock-rules', () => new ReadCache<StockRule | null>('catalog', 20_000));

/**
 * The stock rules of these products as of catalog version `version` (read by the caller in this request), from
 * this process's cache when it holds them, else read in one round trip and kept. Inside a transaction, which
 * may hold stock changes of its own that are not committed yet, they are always read and never kept.
 */
export async function stockRulesAt(ctx: Ctx, version: bigint, productIds: readonly number[]): Promise<Map<number, StockRule>> {
  if (ctx.tx) return stockOf(ctx, [...productIds]);
  const keys = [...new Set(productIds)].filter((id) => Number.isInteger(id) && id > 0 && id <= 2147483647).map(String);
  const got = await ruleCache(ctx).atMany(version, keys, async (missing) => {
    const read = await stockOf(ctx, missing.map(Number));
    return new Map(missing.map((k) => [k, read.get(Number(k)) ?? null]));
  });
  const out = new Map<number, StockRule>();
  for (const v of got.values()) if (v) out.set(v.productId, v);
  return out;
}

/** checkAvailability with stock rows the caller read already (stockOf, stockRulesAt): no query. */
export function availabilityFrom(stock: Map<number, StockRule>, lines: StockLine[]): LineAvailability[] {
  const totals = new Map<number, number>();
  for (const l of lines) {
    if (Number.isInteger(l?.qty) && l.qty > 0) totals.set(l.productId, (totals.get(l.productId) ?? 0) + l.qty);
  }
  return lines.map((line) => {
    const row = stock.get(line?.productId) ?? missingRow(line?.productId);
    const managed = row.manageStock;
    const out: LineAvailability = {
      productId: line?.productId,
      available: true,
      qty: row.qty,
      isInStock: managed ? row.isInStock : true,
      manageStock: managed,
      backorders: row.backorders,
      minSaleQty: row.minSaleQty,
      maxSaleQty: row.maxSaleQty ?? undefined,
      qtyIncrements: row.qtyIncrements ?? undefined,
    };
    const refuse = (reason: AvailabilityReason, message: string) => {
      out.available = false;
      out.reason = reason;
      out.message = message;
      return out;
    };
    const qty = line?.qty;
    if (!Number.isInteger(qty) || qty < 1 || qty > MAX_STOCK_QTY) return refuse('INVALID_QTY', 'The quantity must be a positive integer');
    if (managed && !row.isInStock) return refuse('OUT_OF_STOCK', 'This product is out of stock');
    if (qty < row.minSaleQty) return refuse('MIN_SALE_QTY', `The fewest you may purchase is ${row.minSaleQty}`);
    if (row.maxSaleQty !== null && qty > row.maxSaleQty) return refuse('MAX_SALE_QTY', `The most you may purchase is ${row.maxSaleQty}`);
    if (row.qtyIncrements !== null && qty % row.qtyIncrements !== 0) {
      return refuse('QTY_INCREMENTS', `This product is sold in multiples of ${row.qtyIncrements}`);
    }
    const total = totals.get(line.productId) ?? qty;
    const available = reservable(row);
    if (managed && total > available) {
      return refuse('INSUFFICIENT_QTY', `The requested quantity is not available (${Math.max(0, available)} available)`);
    }
    return out;
  });
}

// ---- reads (Maho's GraphQL `stock` and `stocks`) ----

/** A stock row as the GraphQL Stock type shows it. */
export interface StockView {
  sku: string;
  qty: number;
  isInStock: boolean;
  manageStock: boolean;
  minQty: number;
  minSaleQty: number;
  maxSaleQty: number | null;
  backorders: number;
  notifyStockQty: number | null;
  qtyIncrements: number | null;
  isQtyDecimal: boolean;
  enableQtyIncrements: boolean;
  success: boolean;
}

function viewOf(sku: string, r: StockRow): StockView {
  return {
    sku,
    qty: r.qty,
    isInStock: r.isInStock,
    manageStock: r.manageStock,
    minQty: r.minQty,
    minSaleQty: r.minSaleQty,
    maxSaleQty: r.maxSaleQty,
    backorders: r.backorders,
    notifyStockQty: r.notifyStockQty,
    qtyIncrements: r.qtyIncrements,
    isQtyDecimal: false,
    enableQtyIncrements: r.qtyIncrements !== null,
    success: true,
  };
}

/** The stock of a product by SKU (any case); 404 when no product has it or it keeps no stock row. */
export async function stockBySku(ctx: Ctx, sku: string): Promise<StockView> {
  const [row] = await ctx.db
    .select({ sku: products.sku, stock: stockItems })
    .from(stockItems)
    .innerJoin(products, eq(products.id, stockItems.productId))
    .where(and(sql`lower(${products.sku}) = ${sku.toLowerCase()}`, websiteScope(ctx)))
    .limit(1);
  if (!row) throw notFound(`No stock for SKU: ${sku}`, { reason: 'STOCK_NOT_FOUND' });
  return viewOf(row.sku, row.stock);
}

/** Every stock row, by product id (of a store-limited principal's websites' products). */
export async function listStock(ctx: Ctx, page: { size: number; offset: number }): Promise<{ items: StockView[]; total: number }> {
  const scope = websiteScope(ctx);
  const [rows, [{ n }]] = await Promise.all([
    ctx.db
      .select({ sku: products.sku, stock: stockItems })
      .from(stockItems)
      .innerJoin(products, eq(products.id, stockItems.productId))
      .where(scope)
      .orderBy(stockItems.productId)
      .limit(page.size)
      .offset(page.offset),
    scope
      ? ctx.db.select({ n: sql<number>`count(*)::int` }).from(stockItems).innerJoin(products, eq(products.id, stockItems.productId)).where(scope)
      : ctx.db.select({ n: sql<number>`count(*)::int` }).from(stockItems),
  ]);
  return { items: rows.map((r) => viewOf(r.sku, r.stock)), total: n };
}
