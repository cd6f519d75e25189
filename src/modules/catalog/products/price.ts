/**
 * The price index kept on each product row (min_price, max_price): what a shopper pays at least and at most
 * before options. Simple, virtual and downloadable products: their own final price. Configurable and grouped
 * products: the range of their enabled children's final prices. Bundles: the cheapest and the dearest
 * combination of selections (on top of their own price when the bundle's price is fixed).
 * Every write that can move a price calls `refreshPriceRanges` with the products it changed; their parents
 * are refreshed with them.
 */
import { and, eq, sql, type SQL } from 'drizzle-orm';
import { inIds } from '../../../platform/db.js';
import { withTx, type Ctx } from '../../../platform/context.js';
import { dec, type Decimal } from '../../../platform/money.js';
import { bundleOptions, bundleSelections, configurableChildren, groupedChildren, products } from '../tables.js';

export interface PriceFields {
  price: string | null;
  specialPrice: string | null;
  specialFromDate: string | null;
  specialToDate: string | null;
}

/**
 * The price a shopper pays for one unit before options and tier prices: the special price when it is set,
 * lower than the price, and today (`YYYY-MM-DD`) lies within its dates (either end may be open); else the price.
 */
export function finalPrice(row: PriceFields, today: string): string | null {
  const { price, specialPrice } = row;
  if (specialPrice !== null && specialPrice !== undefined && specialPrice !== '') {
    const from = row.specialFromDate ? row.specialFromDate.slice(0, 10) : null;
    const to = row.specialToDate ? row.specialToDate.slice(0, 10) : null;
    const inDates = (from === null || from <= today) && (to === null || today <= to);
    if (inDates && (price === null || price === '' || dec(specialPrice).lt(dec(price)))) return specialPrice;
  }
  return price === '' ? null : price;
}

/** Today's date in UTC, the day special prices are judged on. */
export function priceDay(ctx: Ctx): string {
  return ctx.now.toISOString().slice(0, 10);
}

interface Range {
  min: Decimal | null;
  max: Decimal | null;
}

function rangeOf(values: (Decimal | null)[]): Range {
  let min: Decimal | null = null;
  let max: Decimal | null = null;
  for (const v of values) {
    if (v === null) continue;
    if (min === null || v.lt(min)) min = v;
    if (max === null || v.gt(max)) max = v;
  }
  return { min, max };
}

const COMPOSITE = new Set(['configurable', 'grouped', 'bundle']);

/** The products and every configurable, grouped or bundle product that contains one of them (to any depth). */
async function withParents(ctx: Ctx, ids: number[]): Promise<number[]> {
  const all = new Set(ids);
  let frontier = ids;
  while (frontier.length) {
    // one statement: inside a transaction the three reads would otherwise queue on one connection
    const parents = await ctx.db
      .select({ id: configurableChildren.parentId })
      .from(configurableChildren)
      .where(inIds(configurableChildren.childId, frontier))
      .unionAll(ctx.db.select({ id: groupedChildren.parentId }).from(groupedChildren).where(inIds(groupedChildren.childId, frontier)))
      .unionAll(
        ctx.db
          .select({ id: bundleOptions.productId })
          .from(bundleSelections)
          .innerJoin(bundleOptions, eq(bundleOptions.id, bundleSelections.optionId))
          .where(inIds(bundleSelections.productId, frontier)),
      );
    const next: number[] = [];
    for (const r of parents) {
      if (!all.has(r.id)) {
        all.add(r.id);
        next.push(r.id);
      }
    }
    frontier = next;
  }
  return [...all];
}

/** The configurable, grouped and bundle products that contain any of the given products (one level up). */
export async function parentsOf(ctx: Ctx, ids: number[]): Promise<number[]> {
  if (!ids.length) return [];
  const all = await withParents(ctx, ids);
  const own = new Set(ids);
  return all.filter((id) => !own.has(id));
}

const priceColumns = {
  price: products.price,
  specialPrice: products.specialPrice,
  specialFromDate: products.specialFromDate,
  specialToDate: products.specialToDate,
};

/**
 * Recomputes min_price and max_price of the given products and of every configurable, grouped or bundle
 * product that contains them. Runs on the caller's handle (inside its transaction when one is open).
 */
export async function refreshPriceRanges(ctx: Ctx, productIds: number[]): Promise<void> {
  const ids = [...new Set(productIds.filter((id) => Number.isInteger(id) && id > 0))];
  if (!ids.length) return;
  const all = await withParents(ctx, ids);
  const today = priceDay(ctx);
  const rows = await ctx.db
    .select({
      id: products.id,
      type: products.type,
      priceType: products.priceType,
      minPrice: products.minPrice,
      maxPrice: products.maxPrice,
      ...priceColumns,
    })
    .from(products)
    .where(inIds(products.id, all));
  if (!rows.length) return;
  const byType = (types: string[]) => rows.filter((r) => types.includes(r.type)).map((r) => r.id);
  const confIds = byType(['configurable']);
  const groupedIds = byType(['grouped']);
  const bundleIds = byType(['bundle']);

  const own = (r: PriceFields): Decimal | null => {
    const f = finalPrice(r, today);
    return f === null ? null : dec(f);
  };

  const childPrices = new Map<number, (Decimal | null)[]>();
  const addChild = (parentId: number, v: Decimal | null) => {
    const list = childPrices.get(parentId) ?? [];
    list.push(v);
    childPrices.set(parentId, list);
  };
  if (confIds.length) {
    const kids = await ctx.db
      .select({ parentId: configurableChildren.parentId, ...priceColumns })
      .from(configurableChildren)
      .innerJoin(products, eq(products.id, configurableChildren.childId))
      .where(and(inIds(configurableChildren.parentId, confIds), eq(products.isActive, true)));
    for (const k of kids) addChild(k.parentId, own(k));
  }
  if (groupedIds.length) {
    const kids = await ctx.db
      .select({ parentId: groupedChildren.parentId, ...priceColumns })
      .from(groupedChildren)
      .innerJoin(products, eq(products.id, groupedChildren.childId))
      .where(and(inIds(groupedChildren.parentId, groupedIds), eq(products.isActive, true)));
    for (const k of kids) addChild(k.parentId, own(k));
  }

  /** bundle id → option id → option with its selections' prices */
  const bundles = new Map<number, Map<number, { type: string; required: boolean; prices: Decimal[] }>>();
  if (bundleIds.length) {
    const opts = await ctx.db
      .select({ id: bundleOptions.id, productId: bundleOptions.productId, type: bundleOptions.type, required: bundleOptions.required })
      .from(bundleOptions)
      .where(inIds(bundleOptions.productId, bundleIds));
    for (const o of opts) {
      const m = bundles.get(o.productId) ?? new Map();
      m.set(o.id, { type: o.type, required: o.required, prices: [] });
      bundles.set(o.productId, m);
    }
    if (opts.length) {
      const sels = await ctx.db
        .select({
          optionId: bundleSelections.optionId,
          bundleId: bundleOptions.productId,
          qty: bundleSelections.qty,
          selPrice: bundleSelections.price,
          selPriceType: bundleSelections.priceType,
          ...priceColumns,
        })
        .from(bundleSelections)
        .innerJoin(bundleOptions, eq(bundleOptions.id, bundleSelections.optionId))
        .innerJoin(products, eq(products.id, bundleSelections.productId))
        .where(and(inIds(bundleOptions.productId, bundleIds), eq(products.isActive, true)));
      const bundleRow = new Map(rows.filter((r) => r.type === 'bundle').map((r) => [r.id, r]));
      for (const s of sels) {
        const b = bundleRow.get(s.bundleId)!;
        const qty = dec(s.qty);
        let unit: Decimal | null;
        if (b.priceType === 1) {
          // fixed-price bundle: the selection's own price, fixed or a percentage of the bundle's price
          const base = own(b) ?? dec(0);
          const p = s.selPrice === null ? dec(0) : dec(s.selPrice);
          unit = s.selPriceType === 'percent' ? base.mul(p).div(100) : p;
        } else {
          unit = own(s);
        }
        if (unit === null) continue;
        bundles.get(s.bundleId)!.get(s.optionId)!.prices.push(unit.mul(qty));
      }
    }
  }

  const bundleRange = (r: (typeof rows)[number]): Range => {
    const fixed = r.priceType === 1;
    let min: Decimal = fixed ? (own(r) ?? dec(0)) : dec(0);
    let max: Decimal = min;
    let priced = fixed && own(r) !== null;
    for (const o of bundles.get(r.id)?.values() ?? []) {
      if (!o.prices.length) continue;
      priced = true;
      const lo = o.prices.reduce((a, b) => (b.lt(a) ? b : a));
      const multi = o.type === 'checkbox' || o.type === 'multi';
      const hi = multi ? o.prices.reduce((a, b) => a.add(b), dec(0)) : o.prices.reduce((a, b) => (b.gt(a) ? b : a));
      if (o.required) min = min.add(lo);
      max = max.add(hi);
    }
    // no required option: the cheapest purchase is the cheapest single selection
    const anyRequired = [...(bundles.get(r.id)?.values() ?? [])].some((o) => o.required && o.prices.length);
    if (!anyRequired && !fixed) {
      const all = [...(bundles.get(r.id)?.values() ?? [])].flatMap((o) => o.prices);
      if (all.length) min = all.reduce((a, b) => (b.lt(a) ? b : a));
    }
    return priced ? { min, max } : { min: null, max: null };
  };

  const changed: { id: number; min: string | null; max: string | null }[] = [];
  for (const r of rows) {
    let range: Range;
    if (!COMPOSITE.has(r.type)) {
      const f = own(r);
      range = { min: f, max: f };
    } else if (r.type === 'bundle') {
      range = bundleRange(r);
    } else {
      range = rangeOf(childPrices.get(r.id) ?? []);
      if (range.min === null) {
        // no priced child yet: the product's own price, when it has one
        const f = own(r);
        range = { min: f, max: f };
      }
    }
    const min = range.min === null ? null : range.min.toFixed(4);
    const max = range.max === null ? null : range.max.toFixed(4);
    const same = (a: string | null, b: string | null) => (a === null ? b === null : b !== null && dec(a).eq(dec(b)));
    if (same(min, r.minPrice) && same(max, r.maxPrice)) continue;
    changed.push({ id: r.id, min, max });
  }
  await writeRanges(ctx, changed);
}

/** Rows per statement when ranges are written (one JSON parameter each). */
const CHUNK = 2000;

/** Writes the new ranges with one statement per CHUNK products (one JSON parameter, not a list of row values). */
async function writeRanges(ctx: Ctx, changed: { id: number; min: string | null; max: string | null }[]): Promise<void> {
  for (let i = 0; i < changed.length; i += CHUNK) {
    const part = JSON.stringify(changed.slice(i, i + CHUNK));
    await ctx.db.execute(sql`UPDATE ${products} SET min_price = x.min, max_price = x.max
      FROM jsonb_to_recordset(${part}::jsonb) AS x(id int, min numeric, max numeric)
      WHERE ${products.id} = x.id`);
  }
}

/**
 * The products whose special price starts or stops counting between the day their price range was computed and
 * `today`: a special price counts from its from-date to its to-date, both included, so it starts on the from-date
 * and stops the day after the to-date. The day a range was computed is at least the last change of the product
 * (`updated_at`: every product write recomputes it) and at least `since`, the day of the last refresh, when given.
 */
function crossedWindows(today: string, since: string | undefined): SQL {
  const computed = since
    ? sql`greatest((${products.updatedAt} AT TIME ZONE 'UTC')::date, ${since}::date)`
    : sql`(${products.updatedAt} AT TIME ZONE 'UTC')::date`;
  return sql`${products.specialPrice} IS NOT NULL AND (
    (${products.specialFromDate} > ${computed} AND ${products.specialFromDate} <= ${today}::date)
    OR (${products.specialToDate} >= ${computed} AND ${products.specialToDate} < ${today}::date))`;
}

/** Products recomputed per transaction by `refreshSpecialPriceWindows`. */
const REFRESH_BATCH = 1000;

/**
 * Keeps the price index in step with the calendar: recomputes the price range of every product whose special
 * price started or stopped counting since its range was computed (see `crossedWindows`), with their configurable,
 * grouped and bundle parents, as of `ctx.now`. Run at start-up (without `since`) and then periodically with the
 * day the previous run returned, so that the later runs look only at the windows that passed since. The products
 * are found with one statement and recomputed in batches, each in its own transaction; rows that a concurrent
 * write holds are skipped (that write recomputes them). Returns the day it refreshed to and how many products
 * it looked at.
 */
export async function refreshSpecialPriceWindows(ctx: Ctx, since?: string): Promise<{ day: string; products: number }> {
  const today = priceDay(ctx);
  if (since !== undefined && !/^\d{4}-\d{2}-\d{2}$/.test(since)) throw new Error(`refreshSpecialPriceWindows: bad day ${since}`);
  if (since !== undefined && since >= today) return { day: today, products: 0 };
  const due = await ctx.db.select({ id: products.id }).from(products).where(crossedWindows(today, since)).orderBy(products.id);
  const ids = due.map((r) => r.id);
  for (let i = 0; i < ids.length; i += REFRESH_BATCH) {
    const part = ids.slice(i, i + REFRESH_BATCH);
    await withTx(ctx, async (tx) => {
      // lock in id order, as product writes lock their row; a row being written now is left to that write
      const locked = await tx.db
        .select({ id: products.id })
        .from(products)
        .where(inIds(products.id, part))
        .orderBy(products.id)
        .for('update', { skipLocked: true });
      await refreshPriceRanges(
        tx,
        locked.map((r) => r.id),
      );
    });
  }
  return { day: today, products: ids.length };
}
