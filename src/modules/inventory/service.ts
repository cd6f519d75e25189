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
 * Every writer locks stock rows in ascending product id order. Admin updates are in admin.ts, the keys they take
 * in stock-input.ts, the row handling every writer shares in stock-rows.ts.
 */
import { and, eq, sql, type SQL } from 'drizzle-orm';
import { adminWebsiteScope, withTx, type Ctx } from '../../platform/context.js';
import { rows, statement } from '../../platform/db.js';
import { ReadCache } from '../../platform/read-cache.js';
import { conflict, notFound, unprocessable } from '../../platform/errors.js';
import { productIdBySkuSql, productInWebsitesSql, productKey, productSkuSql } from '../catalog/products/keys.js';
import { MAX_STOCK_QTY } from './schemas.js';
import { fmt, invalid } from './stock-input.js';
import { intArray, missingRow, normalize, salableQty, STOCK_COLUMNS, stockMoved, type StockRow } from './stock-rows.js';
import { stockItems } from './tables.js';

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
  return (await productKey(ctx, productId))?.sku;
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
  const values = reservationValues(ctx, lines);
  if (!values) return;
  await withTx(ctx, async (tx) => {
    const [done] = await reserveStatement.run(tx.db, values);
    await settleReservation(tx, lines, { taken: done?.st, unmanaged: done?.sl });
  });
}

/** The names of the reservation's parts: the lines wanted, the rows locked, the rows taken from. */
const RESERVE = { want: 'sw', locked: 'sl', taken: 'st' } as const;

/**
 * reserveStock's statement as parts of a WITH (a part's name, its statement, and what it answers under its
 * name), its values as the placeholders `sw_ids`, `sw_qtys` and `st_now` (reservationValues): for a writer
 * that runs the reservation within a statement of its own (placement, as the order's last part), then calls
 * settleReservation with what the parts answered. The rows are locked in ascending product id order.
 */
export function reservationParts(): { name: string; build: () => SQL; answer?: SQL; materialized?: boolean }[] {
  const { want, locked, taken } = RESERVE;
  const ids = sql`${sql.placeholder('sw_ids')}::int[]`;
  return [
    { name: want, build: () => sql`SELECT * FROM unnest(${ids}, ${sql.placeholder('sw_qtys')}::int[]) AS w(product_id, qty)` },
    {
      name: locked,
      materialized: true,
      build: () =>
        sql`SELECT l.product_id, l.manage_stock FROM stock_items l WHERE l.product_id = ANY(${ids}) ORDER BY l.product_id FOR UPDATE`,
      answer: sql`(SELECT array_agg(product_id) FROM ${sql.raw(locked)} WHERE NOT manage_stock)`,
    },
    {
      name: taken,
      build: () => sql`UPDATE stock_items s
             SET qty = s.qty - w.qty,
                 is_in_stock = CASE WHEN s.backorders = 0 AND s.qty - w.qty <= s.min_qty THEN false ELSE s.is_in_stock END,
                 updated_at = ${sql.placeholder('st_now')}::timestamptz
            FROM ${sql.raw(want)} w
           WHERE s.product_id = w.product_id AND s.manage_stock AND s.is_in_stock
             AND CASE WHEN s.backorders > 0 THEN s.qty >= w.qty - ${MAX_STOCK_QTY} ELSE s.qty - GREATEST(s.min_qty, 0) >= w.qty END
             -- every row locked first, in product id order, so that concurrent reservations never deadlock
             AND (SELECT count(*) FROM ${sql.raw(locked)}) >= 0
          RETURNING s.product_id`,
      answer: sql`(SELECT array_agg(product_id) FROM ${sql.raw(taken)})`,
    },
  ];
}

/**
 * Inside a statement with reservationParts: true when some product wanted was neither taken nor found unmanaged
 * (settleReservation would refuse the placement).
 */
export function reservationIncompleteSql(): SQL {
  const { want, locked, taken } = RESERVE;
  return sql`(SELECT count(*) FROM ${sql.raw(want)}) <> (SELECT count(*) FROM ${sql.raw(taken)})
    + (SELECT count(*) FROM ${sql.raw(locked)} WHERE NOT manage_stock)`;
}

const reserveStatement = statement<{ st: number[] | null; sl: number[] | null }>('inventory_reserve', () => {
  const parts = reservationParts();
  return sql`WITH ${sql.join(
    parts.map((p) => sql`${sql.raw(p.name)} AS ${p.materialized ? sql`MATERIALIZED ` : sql``}(${p.build()})`),
    sql`, `,
  )} SELECT ${sql.join(
    parts.filter((p) => p.answer).map((p) => sql`${p.answer} AS ${sql.identifier(p.name)}`),
    sql`, `,
  )}`;
});

/** The values of reservationParts for `lines` (checked as reserveStock checks them); undefined when there is nothing to take. */
export function reservationValues(ctx: Ctx, lines: StockLine[]): Record<string, unknown> | undefined {
  const totals = checkLines(lines);
  if (!totals.length) return undefined;
  return { sw_ids: intArray(totals.map(([id]) => id)), sw_qtys: intArray(totals.map(([, q]) => q)), st_now: ctx.now };
}

/**
 * After reservationParts ran in `tx`: refuses (409 OUT_OF_STOCK, the first product by id that could not be
 * taken tells why; the caller's transaction then rolls back) unless every product was taken or is not managed,
 * and announces the stock moved.
 */
export async function settleReservation(
  tx: Ctx,
  lines: StockLine[],
  answered: { taken?: number[] | null; unmanaged?: number[] | null },
): Promise<void> {
  const totals = checkLines(lines);
  if (!totals.length) return;
  const settled = new Set([...(answered.taken ?? []), ...(answered.unmanaged ?? [])].map(Number));
  // refused: the first product that could not be reserved tells why (its row is locked now)
  for (const [productId, qty] of totals) if (!settled.has(productId)) await reserveOne(tx, productId, qty);
  await stockMoved(tx, totals, -1);
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
        throw unprocessable(`Cannot return ${fmt(qty)} of '${sku}' to stock: qty ${fmt(row.qty)} would exceed ${fmt(MAX_STOCK_QTY)}`, {
          reason: 'STOCK_QTY_LIMIT',
          details: { productId, sku, qty: row.qty, released: qty, max: MAX_STOCK_QTY },
        });
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
export type StockRule = Pick<
  StockRow,
  'productId' | 'qty' | 'isInStock' | 'manageStock' | 'minQty' | 'minSaleQty' | 'maxSaleQty' | 'backorders' | 'qtyIncrements'
>;

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

/**
 * The stock rules of the products `productIds` (a subquery of ids; nulls are ignored) as one JSON value, for a
 * caller's statement that reads them along with what it reads; stockRulesFromJson reads the value back. The ids
 * are gathered into an array first, so the stock rows are looked up by key whatever the planner guesses of the
 * subquery's size (as `IN (subquery)`, a stale estimate made it hash-join a scan of every stock row).
 */
export function stockRulesJsonSql(productIds: SQL): SQL {
  return sql`(SELECT json_agg(json_build_array(s.product_id, s.qty, s.is_in_stock, s.manage_stock, s.min_qty, s.min_sale_qty,
      s.max_sale_qty, s.backorders, s.qty_increments)) FROM ${stockItems} s WHERE s.product_id = ANY (ARRAY(${productIds})))`;
}

type StockRuleJson = [number, number, boolean, boolean, number, number, number | null, number, number | null];

/** The rules stockRulesJsonSql read, by product id (products without a stock row are absent). */
export function stockRulesFromJson(json: StockRuleJson[] | null): Map<number, StockRule> {
  const out = new Map<number, StockRule>();
  for (const [productId, qty, isInStock, manageStock, minQty, minSaleQty, maxSaleQty, backorders, qtyIncrements] of json ?? []) {
    out.set(productId, { productId, qty, isInStock, manageStock, minQty, minSaleQty, maxSaleQty, backorders, qtyIncrements });
  }
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
  const scope = websiteScope(ctx);
  const [row] = await ctx.db
    .select({ sku: productSkuSql(stockItems.productId).mapWith(String), stock: stockItems })
    .from(stockItems)
    .where(and(eq(stockItems.productId, productIdBySkuSql(sql`${sku.toLowerCase()}::text`)), scope))
    .limit(1);
  if (!row) throw notFound(`No stock for SKU: ${sku}`, { reason: 'STOCK_NOT_FOUND' });
  return viewOf(row.sku, row.stock);
}

/**
 * For a principal limited to some store views: the stock of the products of their websites, the only ones it
 * may see; undefined for every other caller.
 */
function websiteScope(ctx: Ctx): SQL | undefined {
  const scope = adminWebsiteScope(ctx);
  return scope ? productInWebsitesSql(stockItems.productId, scope) : undefined;
}

/** Every stock row, by product id (of a store-limited principal's websites' products). */
export async function listStock(ctx: Ctx, page: { size: number; offset: number }): Promise<{ items: StockView[]; total: number }> {
  const scope = websiteScope(ctx);
  const [rows, [{ n }]] = await Promise.all([
    ctx.db
      .select({ sku: productSkuSql(stockItems.productId).mapWith(String), stock: stockItems })
      .from(stockItems)
      .where(scope)
      .orderBy(stockItems.productId)
      .limit(page.size)
      .offset(page.offset),
    ctx.db
      .select({ n: sql<number>`count(*)::int` })
      .from(stockItems)
      .where(scope),
  ]);
  return { items: rows.map((r) => viewOf(r.sku, r.stock)), total: n };
}
