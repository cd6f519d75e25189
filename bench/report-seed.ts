/**
 * Seeds the report benchmark's data straight into the tables, with a few set-based statements (generate_series):
 * BENCH_REPORT_ORDERS orders (default 100,000) over the last year in both demo store views, two lines each,
 * one in ten with a coupon, one in twenty canceled; customers, abandoned carts (two lines each), search terms in
 * proportion, and one generated product in ten out of stock (the low-stock report).
 * The orders go in as a bulk import would (the report triggers mark them), and the sales reports' aggregates are
 * built from them before the server starts, as its own passes would, so that what is measured is a settled shop.
 * Run by bench/run.ts before the server starts, with the server's database environment (DATABASE_URL or DATA_DIR).
 */
import { sql } from 'drizzle-orm';
import { seedDemoOnce } from '../src/app.js';
import { openEnv } from '../src/cli/env.js';
import { refreshReportAggregates, reportZones } from '../src/modules/orders/report-aggregates.js';
import { loadConfig } from '../src/platform/config.js';
import { REPORT_ORDERS as orders } from './report-scenarios.js';

async function main(): Promise<void> {
  // the operator commands' environment: the database (migrated) and the store views, whose zones the reports use
  const { env, close } = await openEnv(loadConfig(process.env));
  const db = env.db;
  try {
    // the demo store views first (the server would add them at its first start): their zones are the reports'
    await seedDemoOnce(env.ctx);
    const started = Date.now();
    await db.execute(sql`INSERT INTO orders (increment_id, store_id, customer_email, state, status, currency, base_currency, payment_method,
        payment_title, coupon_code, subtotal, base_subtotal, tax_amount, base_tax_amount, shipping_amount, base_shipping_amount,
        discount_amount, base_discount_amount, grand_total, base_grand_total, total_refunded, base_total_refunded, created_at, updated_at)
      SELECT 'B' || g, 1 + g % 2, 'bench' || g || '@example.com', CASE WHEN g % 20 = 0 THEN 'canceled' ELSE 'processing' END,
        CASE WHEN g % 20 = 0 THEN 'canceled' ELSE 'processing' END, 'USD', 'USD', 'checkmo', 'Check / Money order',
        CASE WHEN g % 10 = 0 THEN 'BENCH' || (g % 7) END, 40 + g % 60, 40 + g % 60, 4, 4, 5, 5,
        CASE WHEN g % 10 = 0 THEN 3 ELSE 0 END, CASE WHEN g % 10 = 0 THEN 3 ELSE 0 END,
        49 + g % 60, 49 + g % 60, CASE WHEN g % 50 = 0 THEN 10 ELSE 0 END, CASE WHEN g % 50 = 0 THEN 10 ELSE 0 END,
        now() - (g * (365.0 * 86400 / ${orders})) * interval '1 second', now() - (g * (365.0 * 86400 / ${orders})) * interval '1 second'
      FROM generate_series(1, ${orders}) g`);
    await db.execute(sql`INSERT INTO order_items (order_id, product_id, product_type, sku, name, qty_ordered, price, base_price, row_total,
        base_row_total, tax_percent, tax_amount, base_tax_amount, created_at)
      SELECT o.id, 1 + (o.id * 7 + k) % 500, 'simple', 'BENCH-' || ((o.id * 7 + k) % 500), 'Bench product ' || ((o.id * 7 + k) % 500),
        1 + k, 10, 10, 20, 20, CASE WHEN k = 0 THEN 8 ELSE 19 END, 2, 2, o.created_at
      FROM orders o CROSS JOIN generate_series(0, 1) k WHERE o.increment_id LIKE 'B%'`);
    await db.execute(sql`INSERT INTO customers (website_id, email, firstname, lastname, group_id, store_id, password_hash, created_at)
      SELECT 1, 'bench-customer-' || g || '@example.com', 'Bench', 'Customer', 1, CASE WHEN g % 2 = 0 THEN 1 END, 'x',
        now() - (g * (365.0 * 86400 / ${orders / 5})) * interval '1 second'
      FROM generate_series(1, ${Math.floor(orders / 5)}) g
      ON CONFLICT DO NOTHING`);
    await db.execute(sql`INSERT INTO search_terms (store_id, day, term, hits, results, last_searched_at)
      SELECT 1 + g % 2, (now() - (g % 365) * interval '1 day')::date, 'term ' || (g % 2000), 1 + g % 9, g % 40,
        now() - (g % 365) * interval '1 day'
      FROM generate_series(1, ${Math.floor(orders / 2)}) g
      ON CONFLICT DO NOTHING`);
    // abandoned carts: one per ten orders, two lines each, left between an hour and a month ago
    await db.execute(sql`INSERT INTO carts (store_id, is_active, currency, customer_email, created_at, updated_at)
      SELECT 1 + g % 2, true, 'USD', 'bench-cart-' || g || '@example.com', now() - interval '1 hour' - g * interval '4 minutes',
        now() - interval '1 hour' - g * interval '4 minutes'
      FROM generate_series(1, ${Math.floor(orders / 10)}) g`);
    await db.execute(sql`INSERT INTO cart_items (cart_id, product_id, qty, line_key)
      SELECT c.id, (SELECT min(id) FROM products) + (c.id * 7 + k) % 500, 1 + k, 'bench-' || k
      FROM carts c CROSS JOIN generate_series(0, 1) k WHERE c.customer_email LIKE 'bench-cart-%'`);
    // low stock: one generated product in ten past the first thousand (the cart and order scenarios buy earlier ones)
    await db.execute(sql`UPDATE stock_items SET qty = 0, is_in_stock = false
      WHERE product_id IN (SELECT id FROM products WHERE sku >= 'GEN-001000' AND id % 10 = 3)`);
    const aggregating = Date.now();
    await refreshReportAggregates(db, reportZones(env.ctx()));
    const aggregated = Date.now() - aggregating;
    // as autovacuum leaves a settled table: statistics, and the visibility map that lets index-only scans skip the table
    await db.execute(sql`VACUUM ANALYZE`);
    console.log(
      `Reports:     ${orders} orders, ${orders * 2} lines, customers and search terms seeded in ${Date.now() - started} ms (report aggregates: ${aggregated} ms)`,
    );
  } finally {
    await close();
  }
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
