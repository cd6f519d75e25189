/**
 * What the back-office reports share: the query (`from`, `to`, `period`, `storeId`), its checks, the store views
 * and time zone a report covers, and the SQL that buckets a timestamp into periods of that zone.
 *
 * Dates are calendar dates of the report's time zone, both ends included: the zone of the store view asked for
 * (`general/locale/timezone`), or, for a report over several store views, the default store view's zone (one
 * zone per report, so that a day is the same day for every row). A principal limited to some store views sees
 * only those: without `storeId` its report covers its own store views, with another one's it gets a 403.
 */
import { sql, type AnyColumn, type SQL } from 'drizzle-orm';
import { Type } from 'typebox';
import { adminStoreScope, type Ctx } from './context.js';
import { badRequest, forbidden } from './errors.js';
import { isValidDate } from './format.js';

export const PERIODS = ['day', 'week', 'month'] as const;
export type ReportPeriod = (typeof PERIODS)[number];

/** The longest range per period, in days: two years of days, five of weeks, ten of months. */
const MAX_DAYS: Record<ReportPeriod, number> = { day: 731, week: 1827, month: 3653 };
/** The range when none is given: the last 30 days, today included. */
const DEFAULT_DAYS = 30;

/** The store-view part of every report's query. */
export const ReportStoreQuery = {
  storeId: Type.Optional(Type.Integer({ minimum: 0, description: 'one store view; omitted: every store view the caller may see' })),
};

/** The query of a report over a date range, grouped per period. */
export const ReportRangeQuery = {
  from: Type.Optional(
    Type.String({ maxLength: 10, description: 'first day, YYYY-MM-DD in the report time zone (default: 29 days before to)' }),
  ),
  to: Type.Optional(Type.String({ maxLength: 10, description: 'last day, YYYY-MM-DD in the report time zone, included (default: today)' })),
  period: Type.Optional(Type.String({ maxLength: 5, description: 'day (default), week (starting Monday) or month' })),
  ...ReportStoreQuery,
};
export interface ReportRangeQueryT {
  from?: string;
  to?: string;
  period?: string;
  storeId?: number;
}

/** What every periodic report answers beside its rows. */
export const ReportMeta = {
  from: Type.String({ description: 'first day of the range (YYYY-MM-DD)' }),
  to: Type.String({ description: 'last day of the range, included (YYYY-MM-DD)' }),
  period: Type.String({ description: 'day, week or month' }),
  timezone: Type.String({ description: 'the time zone days are counted in' }),
  storeId: Type.Optional(Type.Integer({ description: 'the store view reported on; omitted for several' })),
  currency: Type.String({ description: 'the base currency amounts are in' }),
};

/** The store views a report covers and the zone its dates are in. */
export interface ReportScope {
  /** undefined: every store view */
  storeIds: number[] | undefined;
  /** the one store view asked for */
  storeId?: number;
  timezone: string;
  currency: string;
}

export interface ReportRange extends ReportScope {
  from: string;
  to: string;
  period: ReportPeriod;
}

const invalid = (field: string, message: string, constraint = 'invalid') =>
  badRequest(message, { reason: 'VALIDATION_FAILED', details: { field, constraint } });

/** The zone as configured, when the runtime knows it; UTC otherwise (a typo in the config must not break reports). */
function knownZone(zone: string | undefined): string {
  if (!zone) return 'UTC';
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: zone });
    return zone;
  } catch {
    return 'UTC';
  }
}

/** The time zone of a store view (`general/locale/timezone`; UTC when it is not one the runtime knows). */
export function storeZone(ctx: Pick<Ctx, 'app'>, storeId: number): string {
  return knownZone(ctx.app.settings.get('general/locale/timezone', storeId));
}

/** The date (YYYY-MM-DD) of an instant in a zone. */
export function today(zone: string, now: Date): string {
  return new Intl.DateTimeFormat('en-CA', { timeZone: zone, year: 'numeric', month: '2-digit', day: '2-digit' }).format(now);
}

const dayNumber = (d: string) => Date.parse(`${d}T00:00:00Z`) / 86_400_000;
const addDays = (d: string, n: number) => new Date(Date.parse(`${d}T00:00:00Z`) + n * 86_400_000).toISOString().slice(0, 10);

/**
 * The store views and zone of a report: `storeId` must be a store view (400) the caller may see (403); without
 * it, the caller's store views (all for an unlimited one) in the default store view's zone.
 */
export function reportScope(ctx: Ctx, storeId: number | undefined): ReportScope {
  const registry = ctx.app.settings;
  const scope = adminStoreScope(ctx);
  if (storeId !== undefined) {
    if (!registry.store(storeId)) throw invalid('storeId', `Unknown store view: ${storeId}`, 'exists');
    if (scope && !scope.includes(storeId)) {
      throw forbidden('This token may read only its own store views', { reason: 'STORE_NOT_ALLOWED', details: { field: 'storeId' } });
    }
    return { storeIds: [storeId], storeId, timezone: storeZone(ctx, storeId), currency: registry.baseCurrency(storeId) };
  }
  const def = registry.defaultStore.id;
  return { storeIds: scope, timezone: storeZone(ctx, def), currency: registry.baseCurrency(def) };
}

/** The checked range of a report: dates that exist, to not before from, a period known, a range not too long. */
export function reportRange(ctx: Ctx, q: ReportRangeQueryT): ReportRange {
  const period = (q.period ?? 'day').trim().toLowerCase();
  if (!(PERIODS as readonly string[]).includes(period)) throw invalid('period', `period must be one of ${PERIODS.join(', ')}`, 'enum');
  for (const field of ['from', 'to'] as const) {
    const v = q[field];
    if (v !== undefined && !isValidDate(v.trim())) throw invalid(field, `${field} must be a date YYYY-MM-DD`, 'format');
  }
  const scope = reportScope(ctx, q.storeId);
  const to = q.to?.trim() || today(scope.timezone, ctx.now);
  const from = q.from?.trim() || addDays(to, -(DEFAULT_DAYS - 1));
  if (from < '1970-01-01' || to > '9999-12-30') throw invalid('from', 'dates must be between 1970-01-01 and 9999-12-30', 'range');
  if (to < from) throw invalid('to', 'to must not be before from', 'range');
  const p = period as ReportPeriod;
  if (dayNumber(to) - dayNumber(from) + 1 > MAX_DAYS[p]) {
    throw invalid('from', `a report by ${p} covers at most ${MAX_DAYS[p]} days; choose a shorter range or a longer period`, 'range');
  }
  return { ...scope, from, to, period: p };
}

/*
 * The range, period, zone and store views go into a report's SQL as literals, not parameters: the pool plans
 * every parameterized statement generically (`plan_cache_mode=force_generic_plan`, see platform/db.ts), and a
 * generic plan guesses any range at half a percent of the table, so a year of orders was read through nested
 * loops and sorts sized for a few hundred rows. With the values in the text the planner sees the real range.
 * Each is checked here before it is written: a date YYYY-MM-DD, a period of PERIODS, a zone name of letters,
 * digits and `_+-/` (UTC otherwise), integers.
 */
const dateLiteral = (d: string): SQL => {
  if (!isValidDate(d)) throw new Error(`not a date: ${d}`);
  return sql.raw(`'${d}'::date`);
};
const zoneLiteral = (zone: string): SQL => sql.raw(`'${/^[A-Za-z0-9_+\-/]{1,64}$/.test(zone) ? zone : 'UTC'}'::text`);
const periodLiteral = (p: ReportPeriod): SQL => {
  if (!(PERIODS as readonly string[]).includes(p)) throw new Error(`not a period: ${p}`);
  return sql.raw(`'${p}'::text`);
};

/**
 * `col` (a timestamptz) within the range's days, in its zone: a plain range over the column between two
 * instants the planner computes once, so an index on the column serves.
 */
export function inRange(col: AnyColumn | SQL, r: Pick<ReportRange, 'from' | 'to' | 'timezone'>): SQL {
  const zone = zoneLiteral(r.timezone);
  return sql`${col} >= (${dateLiteral(r.from)}::timestamp AT TIME ZONE ${zone})
    AND ${col} < ((${dateLiteral(r.to)} + 1)::timestamp AT TIME ZONE ${zone})`;
}

/**
 * The start of the period `col` falls in, as a local timestamp of the range's zone (weeks start on Monday):
 * the grouping key. Group on it and show it with `periodKey` (sorting and hashing a timestamp is cheaper than
 * the text it is shown as).
 */
export function periodOf(col: AnyColumn | SQL, r: Pick<ReportRange, 'period' | 'timezone'>): SQL {
  return sql`date_trunc(${periodLiteral(r.period)}, ${col} AT TIME ZONE ${zoneLiteral(r.timezone)})`;
}

/** A period start of `periodOf` as the report shows it: its first day, YYYY-MM-DD. */
export function periodKey(start: SQL): SQL {
  return sql`to_char(${start}, 'YYYY-MM-DD')`;
}

/** `col` (a store view id) among the report's store views; TRUE for every store view. */
export function inStores(col: AnyColumn | SQL, s: Pick<ReportScope, 'storeIds'>): SQL {
  if (!s.storeIds) return sql`TRUE`;
  const ids = s.storeIds.filter((id) => Number.isSafeInteger(id));
  return ids.length ? sql`${col} IN (${sql.raw(ids.join(', '))})` : sql`FALSE`;
}

/** The meta part of a periodic report's answer. */
export function reportMeta(r: ReportRange) {
  return { from: r.from, to: r.to, period: r.period, timezone: r.timezone, storeId: r.storeId, currency: r.currency };
}
