/**
 * The new-customers report: accounts created per period (in the report's time zone), per store view they
 * registered in, and over the range, in one statement. Accounts made without a store view (by the back office
 * or an import) count in the total of an unlimited report only.
 */
import { sql } from 'drizzle-orm';
import type { Ctx } from '../../platform/context.js';
import { rows } from '../../platform/db.js';
import { inRange, inStores, periodKey, periodOf, reportMeta, type ReportRange } from '../../platform/report-period.js';
import { customers } from './tables.js';

export async function newCustomersReport(ctx: Ctx, r: ReportRange) {
  const found = await rows<{ period: string | null; storeId: number | null; customers: number; byPeriod: number; byStore: number }>(
    ctx.db,
    sql`SELECT ${periodKey(sql`c.p`)} AS period, c.store_id AS "storeId", count(*)::int AS customers,
        GROUPING(c.p)::int AS "byStore", GROUPING(c.store_id)::int AS "byPeriod"
      FROM (SELECT ${periodOf(customers.createdAt, r)} AS p, ${customers.storeId} AS store_id FROM ${customers}
        WHERE ${inRange(customers.createdAt, r)} AND ${inStores(customers.storeId, r)}) c
      GROUP BY GROUPING SETS ((c.p), (c.store_id), ())
      ORDER BY c.p NULLS LAST, c.store_id NULLS FIRST`,
  );
  const periods = found.filter((x) => x.byPeriod === 1 && x.byStore === 0);
  const stores = found.filter((x) => x.byStore === 1 && x.byPeriod === 0);
  const all = found.find((x) => x.byStore === 1 && x.byPeriod === 1);
  return {
    ...reportMeta(r),
    rows: periods.map((x) => ({ period: x.period!, customers: x.customers })),
    stores: stores.map((x) => ({ ...(x.storeId !== null ? { storeId: x.storeId } : {}), customers: x.customers })),
    total: all?.customers ?? 0,
  };
}
