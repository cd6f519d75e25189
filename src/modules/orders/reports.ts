/**
 * Sales reports over orders, each one statement: sales per period, bestsellers, coupon use and tax per rate.
 *
 * Figures come from the orders themselves (not invoices), in the base currency, bucketed by the day the order
 * was placed in the report's time zone (see platform/report-period.ts). As in Maho's sales report
 * (Mage_Sales_Model_Resource_Report_Order_Createdat), orders whose payment never came (`pending_payment`) do not
 * count; canceled orders do not count either (Maho keeps them and subtracts what was canceled: here they are
 * left out, and what was canceled of an order that goes on is subtracted from its revenue and subtotal).
 * Orders `new` (pending, e.g. offline payment methods waiting for the money) count: they are sales.
 */
import { sql, type SQL } from 'drizzle-orm';
import type { Ctx } from '../../platform/context.js';
import { rows } from '../../platform/db.js';
import { compact } from '../../platform/format.js';
import { inRange, inStores, periodKey, periodOf, reportMeta, type ReportRange } from '../../platform/report-period.js';
import { productSkuSql } from '../catalog/products/keys.js';
import { orderItems, orders } from './tables.js';

/** Order states that are not sales. */
const NOT_SALES = sql`('canceled', 'pending_payment')`;

/**
 * Orders of the report: its range, store views and states, with `p`, the start of the period each falls in, and
 * only the columns `cols` (e.g. `sql\`id, base_grand_total\``): a report reads a few of the order's many columns.
 */
function reportOrders(r: ReportRange, cols: SQL, extra: SQL = sql`TRUE`): SQL {
  return sql`SELECT ${periodOf(orders.createdAt, r)} AS p, ${cols} FROM ${orders}
    WHERE ${inRange(orders.createdAt, r)} AND ${inStores(orders.storeId, r)} AND ${orders.state} NOT IN ${NOT_SALES} AND ${extra}`;
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
    sql`SELECT ${periodKey(sql`o.p`)} AS period, count(*)::int AS orders,
        ${money(sql`sum(o.base_grand_total - o.base_total_canceled)`)} AS revenue,
        ${money(sql`sum(o.base_subtotal - o.base_subtotal_canceled)`)} AS subtotal,
        ${money(sql`sum(o.base_tax_amount)`)} AS tax,
        ${money(sql`sum(o.base_shipping_amount)`)} AS shipping,
        ${money(sql`sum(abs(o.base_discount_amount))`)} AS discounts,
        ${money(sql`sum(o.base_total_refunded)`)} AS refunds,
        ${money(sql`sum(o.base_grand_total - o.base_total_canceled) / NULLIF(count(*), 0)`)} AS "averageOrderValue"
      FROM (${reportOrders(
        r,
        sql`base_grand_total, base_total_canceled, base_subtotal, base_subtotal_canceled, base_tax_amount, base_shipping_amount,
          base_discount_amount, base_total_refunded`,
      )}) o
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
 */
export async function bestsellersReport(ctx: Ctx, r: ReportRange, limit: number) {
  const found = await rows<{ productId: number; sku: string; name: string; qty: string; revenue: string; orders: number }>(
    ctx.db,
    // the top products first, on sums only; then the name and SKU of each one's latest line in the range (the
    // line with the highest id: what array_agg(... ORDER BY id DESC)[1] would pick, without sorting every line)
    sql`SELECT b."productId", coalesce(${productSkuSql(sql`b."productId"`)}, l.sku) AS sku, l.name,
        trim_scale(b.qty)::text AS qty, ${money(sql`b.revenue`)} AS revenue, b.orders
      FROM (SELECT i.product_id AS "productId", max(i.id) AS last, sum(i.qty_ordered) AS qty,
          sum(i.base_row_total - i.base_discount_amount) AS revenue, count(DISTINCT i.order_id)::int AS orders
        FROM (${reportOrders(r, sql`id`)}) o JOIN ${orderItems} i ON i.order_id = o.id
        GROUP BY i.product_id
        ORDER BY sum(i.qty_ordered) DESC, i.product_id
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
    sql`SELECT ${periodKey(sql`o.p`)} AS period, upper(o.coupon_code) AS code, max(o.coupon_rule_name) AS "ruleName", count(*)::int AS uses,
        ${money(sql`sum(abs(o.base_discount_amount))`)} AS discount,
        ${money(sql`sum(o.base_grand_total - o.base_total_canceled)`)} AS revenue
      FROM (${reportOrders(
        r,
        sql`coupon_code, coupon_rule_name, base_discount_amount, base_grand_total, base_total_canceled`,
        sql`${orders.couponCode} IS NOT NULL AND ${orders.couponCode} <> ''`,
      )}) o
      GROUP BY GROUPING SETS ((o.p, upper(o.coupon_code)), (upper(o.coupon_code)))
      ORDER BY o.p NULLS FIRST, count(*) DESC, upper(o.coupon_code)`,
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
 * are told apart by percent only.
 */
export async function taxReport(ctx: Ctx, r: ReportRange) {
  const found = await rows<{ period: string | null; percent: string | null; tax: string; orders: number }>(
    ctx.db,
    sql`WITH o AS (${reportOrders(r, sql`id, base_shipping_amount, base_shipping_tax_amount`)}),
      t AS (
        SELECT o.p, i.tax_percent AS percent, i.base_tax_amount AS tax, o.id FROM o JOIN ${orderItems} i ON i.order_id = o.id
          WHERE i.base_tax_amount <> 0
        UNION ALL
        SELECT o.p, round(o.base_shipping_tax_amount * 100 / NULLIF(o.base_shipping_amount, 0), 2), o.base_shipping_tax_amount, o.id
          FROM o WHERE o.base_shipping_tax_amount <> 0)
      SELECT ${periodKey(sql`t.p`)} AS period, trim_scale(round(t.percent, 4))::text AS percent, ${money(sql`sum(t.tax)`)} AS tax,
        count(DISTINCT t.id)::int AS orders
      FROM t GROUP BY GROUPING SETS ((t.p, round(t.percent, 4)), (round(t.percent, 4)))
      ORDER BY t.p NULLS FIRST, round(t.percent, 4) NULLS LAST`,
  );
  return {
    ...reportMeta(r),
    rates: found.filter((x) => x.period === null).map((x) => compact(x)),
    rows: found.filter((x) => x.period !== null).map((x) => compact(x)),
  };
}
