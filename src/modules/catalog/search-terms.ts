/**
 * Storefront search terms: what shoppers search for, how often, and how many products they found, and the
 * search-terms report over them.
 *
 * A search is recorded when a storefront caller (anonymous or customer; never an admin or API principal, whose
 * product lists are back-office work, not shopper searches) lists products with a search text, on the first page
 * only (paging through the results is the same search). The term is trimmed, lower-cased, its inner spaces
 * collapsed, cut to 255 characters. The request never waits for it: searches are counted in memory and written
 * by the recorder about once a second (and when the app stops), in one upsert statement for the whole batch, per
 * store view, term and day (of the store view's time zone). A crash loses at most that last second.
 */
import { sql } from 'drizzle-orm';
import { Type } from 'typebox';
import { access } from '../../platform/auth/access.js';
import { defineBackground } from '../../platform/background.js';
import type { Ctx } from '../../platform/context.js';
import { rows } from '../../platform/db.js';
import { runAsBackground } from '../../platform/passes.js';
import { wireDateTime } from '../../platform/format.js';
import { op } from '../../platform/operations.js';
import { ReportMeta, ReportRangeQuery, reportMeta, reportRange, storeZone, today, type ReportRange } from '../../platform/report-period.js';
import { searchTerms } from './tables.js';

const FLUSH_MS = 1000;
/** distinct (store, day, term) entries kept between two writes; more are dropped (a flood of random terms) */
const MAX_PENDING = 10_000;

interface Pending {
  store_id: number;
  day: string;
  term: string;
  hits: number;
  results: number;
  at: string;
}

export interface SearchTermRecorder {
  record(storeId: number, day: string, term: string, results: number, at: Date): void;
  /** writes what is pending now */
  flush(): Promise<void>;
  stop(): Promise<void>;
}

export const searchTermRecorder = defineBackground<SearchTermRecorder>('search-terms', async (env) => {
  let pending = new Map<string, Pending>();
  let writing: Promise<void> = Promise.resolve();
  const write = async (batch: Pending[]) => {
    await env.db.execute(sql`INSERT INTO ${searchTerms} (store_id, day, term, hits, results, last_searched_at)
      SELECT x.store_id, x.day, x.term, x.hits, x.results, x.at
      FROM json_to_recordset(${JSON.stringify(batch)}::json) AS x(store_id int, day date, term text, hits int, results int, at timestamptz)
      ON CONFLICT (day, store_id, term) DO UPDATE SET hits = ${searchTerms}.hits + excluded.hits,
        results = excluded.results, last_searched_at = greatest(${searchTerms}.last_searched_at, excluded.last_searched_at)`);
  };
  const flush = () => {
    if (!pending.size) return writing;
    const batch = [...pending.values()];
    pending = new Map();
    writing = writing.then(() => write(batch)).catch((err: unknown) => env.log.error({ err }, 'recording search terms failed'));
    return writing;
  };
  const timer = setInterval(() => void runAsBackground(flush), FLUSH_MS);
  timer.unref();
  return {
    record(storeId, day, term, results, at) {
      const key = `${storeId}\u0000${day}\u0000${term}`;
      const had = pending.get(key);
      if (had) {
        had.hits++;
        had.results = results;
        had.at = at.toISOString();
      } else if (pending.size < MAX_PENDING) pending.set(key, { store_id: storeId, day, term, hits: 1, results, at: at.toISOString() });
    },
    flush,
    async stop() {
      clearInterval(timer);
      await flush();
    },
  };
});

/** The term as it is counted: trimmed, lower case, single spaces, at most 255 characters; undefined when empty. */
export function normaliseTerm(text: string): string | undefined {
  const t = text.trim().toLowerCase().replace(/\s+/g, ' ').slice(0, 255).trim();
  return t || undefined;
}

/** Counts a storefront search (see the top of this file for which are); never throws, never waits. */
export function recordSearch(ctx: Ctx, text: string, results: number): void {
  if (ctx.actor.kind === 'admin') return;
  const term = normaliseTerm(text);
  if (!term) return;
  try {
    const storeId = ctx.store.storeId;
    ctx.app
      .background<SearchTermRecorder>(searchTermRecorder)
      .record(storeId, today(storeZone(ctx, storeId), ctx.now), term, results, ctx.now);
  } catch {
    // no recorder in this process (an operator command): nothing to count
  }
}

/** The terms searched most in the range (days of each store view's zone), with their count and last result count. */
export async function searchTermsReport(ctx: Ctx, r: ReportRange, limit: number) {
  const found = await rows<{ term: string; hits: number; results: number; lastSearchedAt: Date | string }>(
    ctx.db,
    sql`SELECT t.term, sum(t.hits)::int AS hits, (array_agg(t.results ORDER BY t.last_searched_at DESC))[1] AS results,
        max(t.last_searched_at) AS "lastSearchedAt"
      FROM ${searchTerms} t
      WHERE t.day BETWEEN ${r.from}::date AND ${r.to}::date AND ${r.storeIds ? sql`t.store_id = ANY(${`{${r.storeIds.join(',')}}`}::int[])` : sql`TRUE`}
      GROUP BY t.term
      ORDER BY sum(t.hits) DESC, t.term
      LIMIT ${limit}`,
  );
  return { ...reportMeta(r), rows: found.map((x) => ({ ...x, lastSearchedAt: wireDateTime(x.lastSearchedAt)! })) };
}

const SearchTermsReport = Type.Object({
  ...ReportMeta,
  rows: Type.Array(
    Type.Object({
      term: Type.String({ description: 'trimmed, lower case' }),
      hits: Type.Integer({ description: 'times searched in the range' }),
      results: Type.Integer({ description: 'products the last search found' }),
      lastSearchedAt: Type.String({ description: 'UTC' }),
    }),
    { description: 'most searched first' },
  ),
});

export const searchTermsReportOperation = op({
  id: 'reports.searchTerms',
  method: 'GET',
  path: '/reports/search-terms',
  tags: ['reports'],
  summary:
    'The terms shoppers searched most in the range (storefront product searches, first page), with how often and how many products the last search found',
  access: access.admin('reports', 'read'),
  shortName: 'SearchTermsReport',
  query: Type.Object({
    ...ReportRangeQuery,
    limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 100, description: 'how many terms (default 20, at most 100)' })),
  }),
  response: SearchTermsReport,
  graphql: { name: 'searchTermsReport' },
  run: (ctx, { query }) => searchTermsReport(ctx, reportRange(ctx, query), query.limit ?? 20),
});
