/**
 * Batch edges: the same generated Maho shop imported with batches of a few rows and with the default batch size
 * lands the same rows, reports the same figures and passes the same checks (rows whose children, EAV values or
 * documents fall across a batch edge are read with their batch). Needs MariaDB on 127.0.0.1:3306.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { sql } from 'drizzle-orm';
import { freshDatabase, type TestDb } from '../../test/helpers.js';
import { rows } from '../platform/db.js';
import { createSourceDatabase, type SourceDatabase, mariadbAvailable } from '../../test/fixtures/importer/database.js';
import { generateShop } from '../../test/fixtures/importer/generate.js';
import type { Report } from './report.js';
import { importMagento } from './run.js';

const available = await mariadbAvailable();

/** The groups whose entities read in batches (the test database holds demo content of the others). */
const GROUPS = ['stores', 'config', 'customers', 'catalog', 'urls', 'sales'] as const;

/** Tables the batched entities write, compared row by row (columns a database fills itself left out). */
const TABLES: [string, string[]][] = [
  ['customers', []],
  ['customer_addresses', []],
  ['products', ['search_vector']],
  ['stock_items', []],
  ['category_products', []],
  ['product_media', []],
  ['url_rewrites', []],
  ['orders', []],
  ['order_items', []],
  ['order_status_history', []],
  ['invoices', []],
  ['invoice_items', []],
  ['shipments', []],
  ['shipment_items', []],
  ['shipment_tracks', []],
  ['credit_memos', []],
  ['credit_memo_items', []],
];

async function digest(db: TestDb, table: string, leaveOut: string[]): Promise<{ n: number; md5: string }> {
  const [r] = await rows<{ n: number; md5: string }>(
    db.database.db,
    sql`SELECT count(*)::int AS n, md5(coalesce(string_agg(r, '|' ORDER BY r), '')) AS md5
          FROM (SELECT (to_jsonb(t) - ${`{${leaveOut.join(',')}}`}::text[])::text AS r FROM ${sql.identifier(table)} t) x`,
  );
  return r;
}

const figures = (report: Report) =>
  report.entities.map((e) => `${e.entity}: ${e.found} ${e.imported} ${e.updated} ${e.unchanged} ${e.skipped}`).join('\n');

describe('import magento in small batches', { skip: !available }, () => {
  let source: SourceDatabase;
  const targets: TestDb[] = [];
  const reports: Report[] = [];

  before(async () => {
    source = await createSourceDatabase('maho');
    await generateShop(source.pool, { variant: 'maho', products: 45, customers: 30, orders: 40 });
    for (const batchSize of [undefined, 4]) {
      const target = await freshDatabase();
      targets.push(target);
      // the target as a production install leaves it: the test database's demo customer goes
      await target.database.db.execute(sql`DELETE FROM customers`);
      reports.push(await importMagento({ source: source.url, db: target.database.db, only: [...GROUPS], batchSize }));
    }
  });
  after(async () => {
    for (const t of targets) await t.drop();
    await source?.drop();
  });

  test('the verification agrees with batches of 4 rows', () => {
    for (const report of reports) for (const c of report.checks) assert.ok(c.ok, `${c.name}: ${c.source} ≠ ${c.target}`);
    assert.equal(reports[1].checks.length, reports[0].checks.length);
  });

  test('the same figures per entity whatever the batch size', () => {
    assert.equal(figures(reports[1]), figures(reports[0]));
    const orders = reports[1].entities.find((e) => e.entity === 'orders');
    assert.ok(orders && orders.imported > 4 * 3, 'orders span several batches');
  });

  test('the same rows whatever the batch size', async () => {
    for (const [table, leaveOut] of TABLES) {
      const [a, b] = await Promise.all(targets.map((t) => digest(t, table, leaveOut)));
      assert.ok(a.n > 0 || table.startsWith('credit_memo') || table.startsWith('shipment'), `${table} is empty`);
      assert.deepEqual(b, a, table);
    }
  });

  test('a batch size below 1 is refused', async () => {
    await assert.rejects(importMagento({ source: source.url, db: targets[0].database.db, only: [...GROUPS], batchSize: 0 }), /batch size/);
  });
});
