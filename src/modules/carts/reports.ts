/**
 * The abandoned-carts report: active carts with items that nobody has touched for `hours` (default
 * `reports/abandoned_carts/hours`), with their count and value over all of them and one page of them, most
 * recently left first, in one statement. Carts keep no prices (every read re-prices them), so a cart's value here
 * is an estimate at today's catalog prices: each line's quantity at the product's price before options (the
 * chosen child's for a configurable), or its custom price; before discounts, options and tax, in the base currency.
 */
import { sql } from 'drizzle-orm';
import type { Ctx } from '../../platform/context.js';
import { rows } from '../../platform/db.js';
import { wireDateTime } from '../../platform/format.js';
import type { Page } from '../../platform/pagination.js';
import { inStores, reportScope } from '../../platform/report-period.js';
import { declareDefaults } from '../../platform/settings.js';
import { productPricesSql } from '../catalog/products/report-fragments.js';
import { cartItems, carts } from './tables.js';

declareDefaults({ 'reports/abandoned_carts/hours': 24 });

interface Row {
  total: number;
  value: string;
  id: number | null;
  storeId: number;
  customerId: number | null;
  email: string | null;
  items: number;
  qty: string;
  subtotal: string;
  updatedAt: Date | string;
}

export async function abandonedCartsReport(ctx: Ctx, q: { hours?: number; storeId?: number }, page: Page) {
  const scope = reportScope(ctx, q.storeId);
  const hours = q.hours ?? (ctx.app.settings.getInt('reports/abandoned_carts/hours') || 24);
  const c = carts;
  // the cutoff and the store views as literals (a checked instant, integers): with parameters the pool's generic
  // plan guesses how many carts are old enough instead of reading it from the statistics
  const cutoff = new Date(ctx.now.getTime() - Math.min(Math.max(hours, 0), 1_000_000) * 3_600_000).toISOString();
  const found = await rows<Row>(
    ctx.db,
    sql`WITH l AS (
        SELECT ${c.id} AS id, ${c.storeId} AS "storeId", ${c.customerId} AS "customerId", ${c.updatedAt} AS "updatedAt",
          coalesce(${c.customerEmail}, ${c.billingAddress}->>'email', ${c.shippingAddress}->>'email') AS email,
          count(*)::int AS items, sum(i.qty) AS qty,
          coalesce(sum(i.qty * coalesce(i.custom_price, chosen.price, parent.price, 0)), 0) AS subtotal
        FROM ${c} JOIN ${cartItems} i ON i.cart_id = ${c.id}
          LEFT JOIN ${productPricesSql()} chosen ON chosen.id = coalesce(i.child_product_id, i.product_id)
          LEFT JOIN ${productPricesSql()} parent ON parent.id = i.product_id
        WHERE ${c.isActive} AND ${c.updatedAt} < ${sql.raw(`'${cutoff}'::timestamptz`)} AND ${inStores(c.storeId, scope)}
        GROUP BY ${c.id})
      SELECT n.total, n.value, pg.id, pg."storeId", pg."customerId", pg.email, pg.items, trim_scale(pg.qty)::text AS qty,
        round(pg.subtotal, 2)::text AS subtotal, pg."updatedAt"
      FROM (SELECT count(*)::int AS total, round(coalesce(sum(subtotal), 0), 2)::text AS value FROM l) n
      LEFT JOIN LATERAL (SELECT * FROM l ORDER BY l."updatedAt" DESC, l.id DESC LIMIT ${page.size} OFFSET ${page.offset}) pg ON TRUE
      ORDER BY pg."updatedAt" DESC, pg.id DESC`,
  );
  const head = found[0];
  return {
    hours,
    ...(scope.storeId !== undefined ? { storeId: scope.storeId } : {}),
    currency: scope.currency,
    count: head?.total ?? 0,
    value: head?.value ?? '0.00',
    page: page.page,
    itemsPerPage: page.size,
    carts: found
      .filter((r) => r.id !== null)
      .map((r) => ({
        cartId: r.id!,
        storeId: r.storeId,
        ...(r.customerId !== null ? { customerId: r.customerId } : {}),
        ...(r.email ? { email: r.email } : {}),
        items: r.items,
        qty: r.qty,
        subtotal: r.subtotal,
        updatedAt: wireDateTime(r.updatedAt)!,
      })),
  };
}
