/**
 * Sales reports over orders, each one statement: sales per period, bestsellers, coupon use and tax per rate.
 *
 * Figures come from the orders themselves (not invoices), in the base currency, bucketed by the day the order
 * was placed in the report's time zone (see platform/report-period.ts). As in Maho's sales report
 * (Mage_Sales_Model_Resource_Report_Order_Createdat), orders whose payment never came (`pending_payment`) do not
 * count; canceled orders do not count either (Maho keeps them and subtracts what was canceled: here they are
 * left out, and what was canceled of an order that goes on is subtracted from its revenue and subtotal).
 * Orders `new` (pending, e.g. offline payment methods waiting for the money) count: they are sales.
 *
 * Each report is one statement over the daily aggregates (report-aggregates.ts) for the days of its range that are
 * built and unchanged since, and over the orders themselves for the others (today, days changed since the last
 * pass, days not built yet), so that a year reads a few hundred aggregate rows and a day's orders, and answers
 * exactly what the orders alone would.
 */
import { sql, type SQL } from 'drizzle-orm';
import type { Ctx } from '../../platform/context.js';
import { rows } from '../../platform/db.js';
import { compact } from '../../platform/format.js';
import { inStores, periodKey, periodOf, reportMeta, type ReportRange } from '../../platform/report-period.js';
import { productSkuSql } from '../catalog/products/keys.js';
import { gapOrders, linesOf, NOT_SALES, onCleanDays, periodOfDay, splitDays, zoneLiteral } from './report-aggregates-sql.js';
import { orderItems, reportBestsellerDays, reportBestsellerMonths, reportCouponDays, reportSalesDays, reportTaxDays } from './tables.js';

/**
 * Orders of the report's gaps (see splitDays), of its store views and states, with `p`, the start of the period
 * each falls in, and only the columns `cols` (e.g. `sql\`o.id, o.base_grand_total\``) as they are named.
 */
function gapSales(r: ReportRange, cols: SQL, extra: SQL = sql`TRUE`): SQL {
  return sql`SELECT o.* FROM ${gapOrders(
    sql`${periodOf(sql`o.created_at`, r)} AS p, ${cols}`,
    sql`${inStores(sql`o.store_id`, r)} AND o.state NOT IN ${NOT_SALES} AND ${extra}`,
  )}`;
}

const money = (e: SQL) => sql`round(coalesce(${e}, 0), 2)::text`;

export type SalesFigures = {
  orders: number;
  revenue: string;
  subtotal: string;
  tax: string;
  shipping: string;
  discounts: string;
  refunds: string;
  averageOrderValue: string;
};

/** Orders, revenue (grand total less canceled), subtotal, tax, shipping, discounts, refunds and average per period, and for the range. */
export async function salesReport(ctx: Ctx, r: ReportRange) {
  const found = await rows<SalesFigures & { period: string | null }>(
    ctx.db,
    sql`WITH ${splitDays(r)},
      o AS (
        SELECT ${periodOfDay(sql`a.local_day`, r)} AS p, a.orders, a.revenue, a.subtotal, a.tax, a.shipping, a.discounts, a.refunds
          FROM ${reportSalesDays} a ${onCleanDays(r)} AND ${inStores(sql`a.store_id`, r)}
        UNION ALL
        ${gapSales(
          r,
          sql`1 AS orders, o.base_grand_total - o.base_total_canceled AS revenue, o.base_subtotal - o.base_subtotal_canceled AS subtotal,
            o.base_tax_amount AS tax, o.base_shipping_amount AS shipping, abs(o.base_discount_amount) AS discounts,
            o.base_total_refunded AS refunds`,
        )})
      SELECT ${periodKey(sql`o.p`)} AS period, coalesce(sum(o.orders), 0)::int AS orders, ${money(sql`sum(o.revenue)`)} AS revenue,
        ${money(sql`sum(o.subtotal)`)} AS subtotal, ${money(sql`sum(o.tax)`)} AS tax, ${money(sql`sum(o.shipping)`)} AS shipping,
        ${money(sql`sum(o.discounts)`)} AS discounts, ${money(sql`sum(o.refunds)`)} AS refunds,
        ${money(sql`sum(o.revenue) / NULLIF(sum(o.orders), 0)`)} AS "averageOrderValue"
      FROM o
      GROUP BY GROUPING SETS ((o.p), ())
      ORDER BY o.p NULLS LAST`,
  );
  const total = found.find((x) => x.period === null);
  const zero = { orders: 0, revenue: '0.00', subtotal: '0.00', tax: '0.00', shipping: '0.00', discounts: '0.00', refunds: '0.00' };
  return {
    ...reportMeta(r),
    rows: found.filter((x) => x.period !== null),
    total: total ? compact(total) : { ...zero, averageOrderValue: '0.00' },
  };
}

/**
 * The products sold most (quantity ordered) in the range, with what their lines came to (row totals less line
 * discounts, tax excluded). A configurable product's line is the parent's (its child is kept on the same line),
 * so the child sells under the parent, as Magento's parent item; each product once, under its current SKU.
 * Whole months of clean days are read from the monthly aggregates, other clean days from the daily ones.
 */
export async function bestsellersReport(ctx: Ctx, r: ReportRange, limit: number) {
  const months = sql`SELECT a.product_id, a.qty, a.revenue, a.orders, a.last_item_id AS last
    FROM ${reportBestsellerMonths} a JOIN _months m ON m.month = a.month
    WHERE a.zone = ${zoneLiteral(r.timezone)} AND ${inStores(sql`a.store_id`, r)}`;
  // the other clean days, a lookup each (from an array, like the gaps: the planner takes it for a few days, which
  // is what they usually are; its guess from the clean days would be most of the range, at a cost that turns JIT on)
  const days = sql`SELECT a.* FROM (SELECT array_agg(c.day) AS days FROM _clean c
      WHERE NOT EXISTS (SELECT 1 FROM _months m WHERE m.month = date_trunc('month', c.day)::date)) p
    CROSS JOIN LATERAL unnest(p.days) AS d(day)
    CROSS JOIN LATERAL (SELECT a.product_id, a.qty, a.revenue, a.orders, a.last_item_id FROM ${reportBestsellerDays} a
      WHERE a.zone = ${zoneLiteral(r.timezone)} AND a.day = d.day AND ${inStores(sql`a.store_id`, r)} OFFSET 0) a`;
  const lines = sql`SELECT i.product_id, sum(i.qty_ordered), sum(i.base_row_total - i.base_discount_amount), count(DISTINCT i.order_id)::int,
      max(i.id)
    FROM ${gapOrders(sql`o.id`, sql`${inStores(sql`o.store_id`, r)} AND o.state NOT IN ${NOT_SALES}`)}
      ${linesOf(sql`i.id, i.order_id, i.product_id, i.qty_ordered, i.base_row_total, i.base_discount_amount`)}
    GROUP BY i.product_id`;
  const found = await rows<{ productId: number; sku: string; name: string; qty: string; revenue: string; orders: number }>(
    ctx.db,
    // the top products first, on sums only; then the name and SKU of each one's latest line in the range (the
    // line with the highest id)
    sql`WITH ${splitDays(r)},
      _months AS (SELECT x.month FROM (SELECT date_trunc('month', c.day)::date AS month, count(*) AS n FROM _clean c GROUP BY 1) x
        WHERE x.n = (x.month + interval '1 month')::date - x.month),
      s AS (${months} UNION ALL ${days} UNION ALL ${lines})
      SELECT b."productId", coalesce(${productSkuSql(sql`b."productId"`)}, l.sku) AS sku, l.name,
        trim_scale(b.qty)::text AS qty, ${money(sql`b.revenue`)} AS revenue, b.orders
      FROM (SELECT s.product_id AS "productId", max(s.last) AS last, sum(s.qty) AS qty, sum(s.revenue) AS revenue, sum(s.orders)::int AS orders
        FROM s
        GROUP BY s.product_id
        ORDER BY sum(s.qty) DESC, s.product_id
        LIMIT ${limit}) b
      JOIN ${orderItems} l ON l.id = b.last
      ORDER BY b.qty DESC, b."productId"`,
  );
  return { ...reportMeta(r), rows: found };
}

/** Per coupon code: the orders that used it, the discount they got and their revenue, per period and for the range. */
export async function couponsReport(ctx: Ctx, r: ReportRange) {
  const found = await rows<{ period: string | null; code: string; ruleName?: string; uses: number; discount: string; revenue: string }>(
    ctx.db,
    sql`WITH ${splitDays(r)},
      o AS (
        SELECT ${periodOfDay(sql`a.local_day`, r)} AS p, a.code, a.rule_name, a.uses, a.discount, a.revenue
          FROM ${reportCouponDays} a ${onCleanDays(r)} AND ${inStores(sql`a.store_id`, r)}
        UNION ALL
        ${gapSales(
          r,
          sql`upper(o.coupon_code) AS code, o.coupon_rule_name AS rule_name, 1 AS uses, abs(o.base_discount_amount) AS discount,
            o.base_grand_total - o.base_total_canceled AS revenue`,
          sql`o.coupon_code IS NOT NULL AND o.coupon_code <> ''`,
        )})
      SELECT ${periodKey(sql`o.p`)} AS period, o.code, max(o.rule_name) AS "ruleName", sum(o.uses)::int AS uses,
        ${money(sql`sum(o.discount)`)} AS discount, ${money(sql`sum(o.revenue)`)} AS revenue
      FROM o
      GROUP BY GROUPING SETS ((o.p, o.code), (o.code))
      ORDER BY o.p NULLS FIRST, sum(o.uses) DESC, o.code`,
  );
  return {
    ...reportMeta(r),
    coupons: found.filter((x) => x.period === null).map((x) => compact(x)),
    rows: found.filter((x) => x.period !== null).map((x) => compact(x)),
  };
}

/**
 * Tax charged per rate (percent) per period and for the range: the order lines' tax at their percent, and the
 * shipping tax at the percent it came to. Orders keep no per-rate tax rows (Magento's sales_order_tax), so rates
 * are told apart by percent only. Orders charged are counted per day and rate, and an order is on one day.
 */
export async function taxReport(ctx: Ctx, r: ReportRange) {
  const found = await rows<{ period: string | null; percent: string | null; tax: string; orders: number }>(
    ctx.db,
    sql`WITH ${splitDays(r)},
      o AS (${gapSales(r, sql`o.id, o.base_shipping_amount, o.base_shipping_tax_amount`)}),
      t AS (
        SELECT o.p, i.tax_percent AS percent, i.base_tax_amount AS tax, o.id FROM o ${linesOf(sql`i.tax_percent, i.base_tax_amount`)}
          WHERE i.base_tax_amount <> 0
        UNION ALL
        SELECT o.p, round(o.base_shipping_tax_amount * 100 / NULLIF(o.base_shipping_amount, 0), 2), o.base_shipping_tax_amount, o.id
          FROM o WHERE o.base_shipping_tax_amount <> 0),
      x AS (
        SELECT ${periodOfDay(sql`a.local_day`, r)} AS p, a.percent, a.tax, a.orders
          FROM ${reportTaxDays} a ${onCleanDays(r)} AND ${inStores(sql`a.store_id`, r)}
        UNION ALL
        SELECT t.p, round(t.percent, 4), sum(t.tax), count(DISTINCT t.id)::int FROM t GROUP BY t.p, round(t.percent, 4))
      SELECT ${periodKey(sql`x.p`)} AS period, trim_scale(x.percent)::text AS percent, ${money(sql`sum(x.tax)`)} AS tax,
        coalesce(sum(x.orders), 0)::int AS orders
      FROM x GROUP BY GROUPING SETS ((x.p, x.percent), (x.percent))
      ORDER BY x.p NULLS FIRST, x.percent NULLS LAST`,
  );
  return {
    ...reportMeta(r),
    rates: found.filter((x) => x.period === null).map((x) => compact(x)),
    rows: found.filter((x) => x.period !== null).map((x) => compact(x)),
  };
}
