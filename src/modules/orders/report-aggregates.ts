/**
 * The sales reports' daily aggregates, built in the background and exact whenever a report reads them.
 *
 * Writes to orders and their lines leave marks (report_marks: the order's creation instant), put there by
 * statement triggers (migration 0026): an insert each, with no unique key, so placements never wait on one
 * another. A pass, at start and every PASS_SECONDS, first forgets the built days the marks fall on (in every zone
 * built) and takes those marks away, then builds the days not built, a week at a time, in every zone of the
 * store views, from the first order's month to yesterday: per day and store view, the sums the sales, coupons,
 * tax and bestsellers reports read (report-aggregates-sql.ts says what a report day is), and bestsellers per
 * month once a month's days are all built. A report reads the aggregates of days built and unmarked, and the
 * orders of the others (reports.ts).
 *
 * Why that is exact: every transaction of a pass runs at REPEATABLE READ and first updates the one row of
 * report_aggregate_state (skipping the pass when another process holds it, failing when another committed since
 * its snapshot), so passes are serial and each sees what the ones before it wrote. A day built from a snapshot
 * has, for every later change to its orders, a mark that only a later pass takes away, and that pass forgets the
 * day in the same transaction; marks of transactions still open when a pass reads them stay for the next one.
 */
import { sql, type SQL } from 'drizzle-orm';
import { defineBackground, type Background } from '../../platform/background.js';
import type { Ctx } from '../../platform/context.js';
import { rows, type Db } from '../../platform/db.js';
import { isValidDate } from '../../platform/format.js';
import { serialPasses } from '../../platform/passes.js';
import { storeZone } from '../../platform/report-period.js';
import { dayStart, linesOf, NOT_SALES, quarterDays, quarterOf, reportDay, reportZone } from './report-aggregates-sql.js';
import {
  orders,
  reportAggregateState,
  reportBestsellerDays,
  reportBestsellerMonths,
  reportCouponDays,
  reportDays,
  reportMarks,
  reportSalesDays,
  reportTaxDays,
} from './tables.js';

/** How often a pass runs (besides at start). */
export const PASS_SECONDS = 30;

/**
 * Days built per transaction, in every zone: a week of a shop of 100,000 orders a year holds the embedded
 * database (one connection) for about a quarter of a second; a month held requests back for over a second.
 */
const CHUNK_DAYS = 7;

const DAY_TABLES = [reportSalesDays, reportCouponDays, reportTaxDays, reportBestsellerDays];

/** The zones reports are made in: those of the store views (the default one's among them), as the SQL writes them. */
export function reportZones(ctx: Pick<Ctx, 'app'>): string[] {
  return [...new Set(ctx.app.settings.allStores().map((s) => reportZone(storeZone(ctx, s.id))))].sort();
}

/**
 * Marks this transaction as the one pass running now; false when another holds it (the caller skips its work).
 * JIT compilation is off for the pass: its statements are planned on rough guesses of how many orders a day has.
 */
async function claim(tx: Db): Promise<boolean> {
  const got = await rows<{ id: number }>(
    tx,
    sql`UPDATE ${reportAggregateState} SET passes = passes + 1, passed_at = now()
      WHERE id = (SELECT id FROM ${reportAggregateState} WHERE id = 1 FOR UPDATE SKIP LOCKED) RETURNING id`,
  );
  if (!got.length) return false;
  await tx.execute(sql`SET LOCAL jit = off`);
  return true;
}

const REPEATABLE_READ = { isolationLevel: 'repeatable read' } as const;

/**
 * Takes the marks away and forgets the days they fall on, in every zone built; drops the zones no store view is
 * in any more. False when another process runs a pass.
 */
async function forgetMarkedDays(db: Db, zones: string[]): Promise<boolean> {
  return db.transaction(async (tx) => {
    if (!(await claim(tx))) return false;
    // one statement: the marks it deletes are the ones it reads (those of transactions still open stay)
    await tx.execute(sql`WITH m AS (DELETE FROM ${reportMarks} RETURNING created_at),
        q AS (SELECT DISTINCT ${quarterOf(sql`m.created_at`)} AS q FROM m),
        z AS (SELECT DISTINCT zone FROM ${reportDays}),
        d AS (SELECT DISTINCT z.zone, x.day FROM z CROSS JOIN q CROSS JOIN LATERAL ${quarterDays(sql`q.q`, sql`z.zone`)})
      DELETE FROM ${reportDays} b USING d WHERE b.zone = d.zone AND b.day = d.day`);
    const gone = await rows<{ zone: string }>(
      tx,
      sql`DELETE FROM ${reportDays} WHERE zone <> ALL (SELECT jsonb_array_elements_text(${JSON.stringify(zones)}::jsonb)) RETURNING zone`,
    );
    const stale = JSON.stringify([...new Set(gone.map((g) => g.zone))]);
    if (gone.length) {
      for (const t of [...DAY_TABLES, reportBestsellerMonths]) {
        await tx.execute(sql`DELETE FROM ${t} WHERE zone IN (SELECT jsonb_array_elements_text(${stale}::jsonb))`);
      }
    }
    return true;
  }, REPEATABLE_READ);
}

/** Days to build: per zone, days of one month (CHUNK_DAYS at most). */
type Chunk = { zone: string; day: string }[];

/*
 * Zones and days go into the pass's SQL as checked literals, and orders are read a day at a time, through the
 * index on their creation instant, and their lines by order (OFFSET 0 keeps each lookup a nested loop: the
 * planner cannot tell how many orders fall between a row's bounds, and its guess of a tenth of the table made a
 * month's build read every order line, at a cost that also switched JIT compilation on, for seconds). JIT is
 * off for the pass's transactions.
 */
const zoneValue = (zone: string): string => {
  if (reportZone(zone) !== zone) throw new Error(`not a zone name: ${zone}`);
  return `'${zone}'`;
};
const dayValue = (day: string): string => {
  if (!isValidDate(day)) throw new Error(`not a date: ${day}`);
  return `'${day}'::date`;
};

/** The chunk's days with the instants they span, as the WITH part `d(zone, day, lo, hi)`. */
function daysPart(c: Chunk) {
  const values = sql.raw(c.map((x) => `(${zoneValue(x.zone)}, ${dayValue(x.day)})`).join(', '));
  return sql`d AS (SELECT v.zone, v.day, ${dayStart(sql`v.day`, sql`v.zone`)} AS lo, ${dayStart(sql`v.day + 1`, sql`v.zone`)} AS hi
    FROM (VALUES ${values}) v(zone, day))`;
}

/** The sales orders of the days `d`, once per zone, with their zone, report day, local date, store view, and `cols`. */
function dayOrders(cols: SQL, extra: SQL = sql`TRUE`): SQL {
  return sql`SELECT d.zone, d.day, o.* FROM d CROSS JOIN LATERAL (
      SELECT (o.created_at AT TIME ZONE d.zone)::date AS local_day, o.store_id, ${cols} FROM ${orders} o
      WHERE o.created_at >= d.lo AND o.created_at < d.hi AND o.state NOT IN ${NOT_SALES} AND ${extra}
      OFFSET 0) o`;
}

/** Computes the aggregates of these days (replacing what was there), records them built, and rolls up their months. */
async function buildDays(tx: Db, c: Chunk): Promise<void> {
  const d = daysPart(c);
  const [sales, coupons, taxes, best] = DAY_TABLES;
  await tx.execute(sql`WITH ${d},
      a AS (DELETE FROM ${sales} t USING d WHERE t.zone = d.zone AND t.day = d.day),
      b AS (DELETE FROM ${coupons} t USING d WHERE t.zone = d.zone AND t.day = d.day),
      c AS (DELETE FROM ${taxes} t USING d WHERE t.zone = d.zone AND t.day = d.day)
    DELETE FROM ${best} t USING d WHERE t.zone = d.zone AND t.day = d.day`);
  await tx.execute(sql`WITH ${d}, o AS (${dayOrders(
    sql`o.base_grand_total, o.base_total_canceled, o.base_subtotal, o.base_subtotal_canceled, o.base_tax_amount, o.base_shipping_amount,
      o.base_discount_amount, o.base_total_refunded`,
  )})
    INSERT INTO ${reportSalesDays} (zone, day, local_day, store_id, orders, revenue, subtotal, tax, shipping, discounts, refunds)
    SELECT o.zone, o.day, o.local_day, o.store_id, count(*), sum(o.base_grand_total - o.base_total_canceled),
      sum(o.base_subtotal - o.base_subtotal_canceled), sum(o.base_tax_amount), sum(o.base_shipping_amount), sum(abs(o.base_discount_amount)),
      sum(o.base_total_refunded)
    FROM o GROUP BY o.zone, o.day, o.local_day, o.store_id`);
  await tx.execute(sql`WITH ${d}, o AS (${dayOrders(
    sql`o.coupon_code, o.coupon_rule_name, o.base_discount_amount, o.base_grand_total, o.base_total_canceled`,
    sql`o.coupon_code IS NOT NULL AND o.coupon_code <> ''`,
  )})
    INSERT INTO ${reportCouponDays} (zone, day, local_day, store_id, code, rule_name, uses, discount, revenue)
    SELECT o.zone, o.day, o.local_day, o.store_id, upper(o.coupon_code), max(o.coupon_rule_name), count(*), sum(abs(o.base_discount_amount)),
      sum(o.base_grand_total - o.base_total_canceled)
    FROM o GROUP BY o.zone, o.day, o.local_day, o.store_id, upper(o.coupon_code)`);
  await tx.execute(sql`WITH ${d}, o AS (${dayOrders(sql`o.id, o.base_shipping_amount, o.base_shipping_tax_amount`)}),
      t AS (
        SELECT o.zone, o.day, o.local_day, o.store_id, i.tax_percent AS percent, i.base_tax_amount AS tax, o.id
          FROM o ${linesOf(sql`i.tax_percent, i.base_tax_amount`)} WHERE i.base_tax_amount <> 0
        UNION ALL
        SELECT o.zone, o.day, o.local_day, o.store_id, round(o.base_shipping_tax_amount * 100 / NULLIF(o.base_shipping_amount, 0), 2),
          o.base_shipping_tax_amount, o.id
          FROM o WHERE o.base_shipping_tax_amount <> 0)
    INSERT INTO ${reportTaxDays} (zone, day, local_day, store_id, percent, tax, orders)
    SELECT t.zone, t.day, t.local_day, t.store_id, round(t.percent, 4), sum(t.tax), count(DISTINCT t.id)
    FROM t GROUP BY t.zone, t.day, t.local_day, t.store_id, round(t.percent, 4)`);
  await tx.execute(sql`WITH ${d}, o AS (${dayOrders(sql`o.id`)})
    INSERT INTO ${reportBestsellerDays} (zone, day, store_id, product_id, qty, revenue, orders, last_item_id)
    SELECT o.zone, o.day, o.store_id, i.product_id, sum(i.qty_ordered), sum(i.base_row_total - i.base_discount_amount),
      count(DISTINCT i.order_id), max(i.id)
    FROM o ${linesOf(sql`i.id, i.order_id, i.product_id, i.qty_ordered, i.base_row_total, i.base_discount_amount`)}
    GROUP BY o.zone, o.day, o.store_id, i.product_id`);
  // a plain insert: a day another pass built meanwhile would be an error, never a second copy
  await tx.execute(sql`WITH ${d} INSERT INTO ${reportDays} (zone, day) SELECT d.zone, d.day FROM d`);
  // the months of these days, again from their days once every day of the month is built
  await tx.execute(sql`WITH ${d},
      m AS (SELECT DISTINCT d.zone, date_trunc('month', d.day)::date AS month, (date_trunc('month', d.day) + interval '1 month')::date AS next FROM d),
      gone AS (DELETE FROM ${reportBestsellerMonths} t USING m WHERE t.zone = m.zone AND t.month = m.month),
      whole AS (SELECT m.* FROM m
        WHERE (SELECT count(*) FROM ${reportDays} b WHERE b.zone = m.zone AND b.day >= m.month AND b.day < m.next) = m.next - m.month)
    INSERT INTO ${reportBestsellerMonths} (zone, month, store_id, product_id, qty, revenue, orders, last_item_id)
    SELECT a.zone, w.month, a.store_id, a.product_id, sum(a.qty), sum(a.revenue), sum(a.orders), max(a.last_item_id)
    FROM whole w JOIN ${reportBestsellerDays} a ON a.zone = w.zone AND a.day >= w.month AND a.day < w.next
    GROUP BY a.zone, w.month, a.store_id, a.product_id`);
}

/**
 * Builds the first days not built (CHUNK_DAYS of the earliest month that has some), in every zone: days from the
 * first of the first order's month (so that month is whole) to yesterday (today is never built: its orders keep
 * coming). Answers how many, or false when another process runs a pass.
 */
async function buildNextDays(db: Db, zones: string[]): Promise<number | false> {
  return db.transaction(async (tx) => {
    if (!(await claim(tx))) return false;
    const days = await rows<{ zone: string; day: string }>(
      tx,
      sql`WITH z AS (SELECT jsonb_array_elements_text(${JSON.stringify(zones)}::jsonb) AS zone),
        f AS (SELECT min(created_at) AS first FROM ${orders}),
        s AS (SELECT z.zone, date_trunc('month', ${reportDay(sql`f.first`, sql`z.zone`)})::date AS first, ${reportDay(sql`now()`, sql`z.zone`)} AS today
          FROM z CROSS JOIN f),
        u AS (SELECT s.zone, s.first + i AS day FROM s CROSS JOIN LATERAL generate_series(0, s.today - 1 - s.first) i
          WHERE NOT EXISTS (SELECT 1 FROM ${reportDays} b WHERE b.zone = s.zone AND b.day = s.first + i)),
        c AS (SELECT u.zone, u.day FROM u WHERE date_trunc('month', u.day) = (SELECT min(date_trunc('month', day)) FROM u))
      SELECT c.zone, c.day::text AS day FROM c
      WHERE c.day IN (SELECT DISTINCT day FROM c ORDER BY day LIMIT ${CHUNK_DAYS})
      ORDER BY c.zone, c.day`,
    );
    if (days.length) await buildDays(tx, days);
    return days.length;
  }, REPEATABLE_READ);
}

/** One pass: forgets the marked days, then builds what is not built, a few days per transaction. */
export async function refreshReportAggregates(db: Db, zones: string[]): Promise<void> {
  if (!(await forgetMarkedDays(db, zones))) return;
  // between two transactions, other work gets the database (the embedded one has a single connection)
  while (await buildNextDays(db, zones));
}

/** The error's SQLSTATE, on it or on what it wraps (the query builder wraps the driver's errors). */
function sqlState(err: unknown): string | undefined {
  for (let e: unknown = err; e && typeof e === 'object'; e = (e as { cause?: unknown }).cause) {
    const code = (e as { code?: unknown }).code;
    if (typeof code === 'string') return code;
  }
  return undefined;
}

/** The zones among these that the database knows (a zone it does not know would fail every pass), asked once each. */
function knownZones(db: Db): (zones: string[]) => Promise<string[]> {
  const known = new Map<string, boolean>();
  return async (zones) => {
    for (const zone of zones) {
      if (known.has(zone)) continue;
      try {
        await db.execute(sql`SELECT now() AT TIME ZONE ${zone}`);
        known.set(zone, true);
      } catch (err) {
        // 22023: time zone not recognized; anything else (the database gone a moment) is asked again next pass
        if (sqlState(err) !== '22023') throw err;
        known.set(zone, false);
      }
    }
    return zones.filter((z) => known.get(z));
  };
}

export interface ReportAggregates extends Background {
  /** runs a pass now (or once the running one ends), and resolves when no pass runs */
  refresh(): Promise<void>;
}

export const reportAggregates = defineBackground<ReportAggregates>('report-aggregates', async (env) => {
  const zonesOf = knownZones(env.db);
  const passes = serialPasses(
    async () => refreshReportAggregates(env.db, await zonesOf(reportZones(env.systemCtx()))),
    (err) => {
      // 40001: another process's pass committed since this one's snapshot
      if (sqlState(err) === '40001')
        env.log.info('report aggregates: another process ran a pass at the same time; the next pass catches up');
      else env.log.error({ err }, 'report aggregates pass failed');
    },
  );
  passes.kick();
  const timer = setInterval(() => passes.kick(), PASS_SECONDS * 1000);
  timer.unref();
  return {
    async refresh() {
      passes.kick();
      await passes.idle();
    },
    async stop() {
      clearInterval(timer);
      await passes.stop();
    },
  };
});
