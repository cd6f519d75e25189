/**
 * The SQL the sales reports and the aggregates pass share: report days of a zone as ranges of instants, and the
 * parts of a report's statement that say which days of its range the daily aggregates answer and which the
 * orders themselves.
 *
 * A report day d of a zone is the range of instants [start(d), start(d + 1)), start(d) being local midnight
 * (`d::timestamp AT TIME ZONE zone`): the very bounds a report over days puts on orders.created_at. An order's
 * report day is its local date, except around a DST change at midnight, where the two may differ by one; the
 * aggregates keep both (the day they cover, and the local date a report groups the orders by), so that a
 * report made of aggregates and raw orders is exactly the report made of raw orders alone.
 */
import { sql, type SQL } from 'drizzle-orm';
import { isValidDate } from '../../platform/format.js';
import { PERIODS, type ReportPeriod, type ReportRange } from '../../platform/report-period.js';
import { orderItems, orders, reportDays, reportMarks } from './tables.js';

/** Order states that are not sales (the report triggers of migration 0026 name them too). */
export const NOT_SALES = sql`('canceled', 'pending_payment')`;

/** A zone name as reports write it into SQL: a plain name of letters, digits and `_+-/`, UTC otherwise. */
export function reportZone(zone: string): string {
  return /^[A-Za-z0-9_+\-/]{1,64}$/.test(zone) ? zone : 'UTC';
}

export const zoneLiteral = (zone: string): SQL => sql.raw(`'${reportZone(zone)}'::text`);

export const dateLiteral = (d: string): SQL => {
  if (!isValidDate(d)) throw new Error(`not a date: ${d}`);
  return sql.raw(`'${d}'::date`);
};

const periodLiteral = (p: ReportPeriod): SQL => {
  if (!(PERIODS as readonly string[]).includes(p)) throw new Error(`not a period: ${p}`);
  return sql.raw(`'${p}'::text`);
};

/** The first instant of report day `day` (a date) in `zone`. */
export const dayStart = (day: SQL, zone: SQL): SQL => sql`((${day})::timestamp AT TIME ZONE ${zone})`;

/** The report day of instant `t` in `zone`: the day d with start(d) <= t < start(d + 1). */
export function reportDay(t: SQL, zone: SQL): SQL {
  const local = sql`((${t}) AT TIME ZONE ${zone})::date`;
  return sql`CASE WHEN (${t}) < ${dayStart(local, zone)} THEN ${local} - 1
    WHEN (${t}) >= ${dayStart(sql`${local} + 1`, zone)} THEN ${local} + 1 ELSE ${local} END`;
}

/** The quarter hour (UTC) instant `t` falls in: every zone's days start on a quarter hour. */
export const quarterOf = (t: SQL): SQL => sql`date_bin('15 minutes', ${t}, '2000-01-01 00:00:00+00'::timestamptz)`;

/**
 * The report days of the instants of quarter hour `q` in `zone`, as a FROM item `x(day)`: one day, or both when
 * the quarter hour holds the start of a day.
 */
export function quarterDays(q: SQL, zone: SQL): SQL {
  return sql`(VALUES (${reportDay(q, zone)}), (${reportDay(sql`${q} + interval '15 minutes' - interval '1 microsecond'`, zone)})) x(day)`;
}

/** The report days of `zone` that marks `where` keeps (aliased `m`) make dirty, taken by quarter hour first. */
export function markedDays(zone: SQL, where: SQL): SQL {
  return sql`SELECT DISTINCT x.day FROM (SELECT DISTINCT ${quarterOf(sql`m.created_at`)} AS q FROM ${reportMarks} m WHERE ${where}) b
    CROSS JOIN LATERAL ${quarterDays(sql`b.q`, zone)}`;
}

/**
 * The WITH parts of a report over `r` that split its days: `_clean`, the days whose aggregates answer (built, and
 * no mark since), and `_gaps`, the other days as ranges of instants, consecutive days in one range, for the orders
 * themselves (one row: the ranges' starts `los` and ends `his`, in order). Today is never built, nor is a day
 * before the first order or one of a zone the aggregates were never built for: those are gaps, so the report is
 * exact whatever state the aggregates are in.
 */
export function splitDays(r: ReportRange): SQL {
  const z = zoneLiteral(r.timezone);
  const from = dateLiteral(r.from);
  const to = dateLiteral(r.to);
  return sql`_dirty AS (${markedDays(z, sql`m.created_at >= ${dayStart(from, z)} AND m.created_at < ${dayStart(sql`${to} + 1`, z)}`)}),
    _clean AS (SELECT b.day FROM ${reportDays} b WHERE b.zone = ${z} AND b.day BETWEEN ${from} AND ${to}
      AND NOT EXISTS (SELECT 1 FROM _dirty x WHERE x.day = b.day)),
    _gaps AS (SELECT array_agg(r.lo ORDER BY r.lo) AS los, array_agg(r.hi ORDER BY r.lo) AS his
      FROM (SELECT ${dayStart(sql`min(g.day)`, z)} AS lo, ${dayStart(sql`max(g.day) + 1`, z)} AS hi
        FROM (SELECT s.day, s.day - (row_number() OVER (ORDER BY s.day))::int AS island
          FROM (SELECT ${from} + i AS day FROM generate_series(0, ${to} - ${from}) i) s
          WHERE NOT EXISTS (SELECT 1 FROM _clean c WHERE c.day = s.day)) g
        GROUP BY g.island) r)`;
}

/** The period start (local timestamp) of an aggregate row's local date: what `periodOf` gives its orders. */
export function periodOfDay(localDay: SQL, r: Pick<ReportRange, 'period'>): SQL {
  return sql`date_trunc(${periodLiteral(r.period)}, (${localDay})::timestamp)`;
}

/** Aggregate rows (table aliased `a`, with `zone` and `day`) of the report's zone on its clean days. */
export function onCleanDays(r: ReportRange): SQL {
  return sql`JOIN _clean c ON c.day = a.day WHERE a.zone = ${zoneLiteral(r.timezone)} AND a.day BETWEEN ${dateLiteral(r.from)} AND ${dateLiteral(r.to)}`;
}

/**
 * Orders placed within the report's gaps, as a FROM item `o` with the columns `cols` (of orders `o`) that `where`
 * keeps: each range of days reads its orders through the index on their creation instant. The planner cannot see
 * how many ranges there are, nor how many orders fall in one; left to guess (a couple of hundred ranges, a tenth
 * of the table each), it planned a year of clean days and today as millions of rows: a scan of every order line
 * and seconds of JIT compilation. So the ranges come from an array (its guess: a few), each range is a lookup
 * (OFFSET 0 keeps it a nested loop), and the bounds of all ranges, which it treats as known values, bring its guess
 * of a range's orders down to what a short range holds.
 */
export function gapOrders(cols: SQL, where: SQL): SQL {
  return sql`_gaps gs CROSS JOIN LATERAL unnest(gs.los, gs.his) AS g(lo, hi)
    CROSS JOIN LATERAL (SELECT ${cols} FROM ${orders} o
      WHERE o.created_at >= g.lo AND o.created_at < g.hi
        AND o.created_at >= (SELECT los[1] FROM _gaps) AND o.created_at < (SELECT his[cardinality(his)] FROM _gaps) AND ${where}
      OFFSET 0) o`;
}

/**
 * The lines of the orders `o` (with `cols` of order_items `i`), as a FROM item `i`: a lookup per order (OFFSET 0
 * keeps it a nested loop; on a guess of many orders the planner would rather read every line of the table).
 */
export const linesOf = (cols: SQL): SQL => sql`CROSS JOIN LATERAL (SELECT ${cols} FROM ${orderItems} i WHERE i.order_id = o.id OFFSET 0) i`;
