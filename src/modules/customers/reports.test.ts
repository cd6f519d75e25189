/** GET /reports/new-customers over HTTP: per period, per store view, zones, input, access, one statement. */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { sql } from 'drizzle-orm';
import { countStatements } from '../../platform/db.js';
import { groupBy, periodKey } from '../../../test/fixtures/reports.js';
import { API, buildTestApp, type TestApp } from '../../../test/helpers.js';

let t: TestApp;
let admin: string;

/** accounts created at these instants in these store views (null: made by the back office) */
const MADE: { at: string; storeId: number | null }[] = [
  { at: '2025-05-05T10:00:00Z', storeId: 1 },
  { at: '2025-05-05T22:30:00Z', storeId: 2 },
  { at: '2025-05-06T08:00:00Z', storeId: 1 },
  { at: '2025-05-20T12:00:00Z', storeId: null },
  { at: '2025-06-30T23:15:00Z', storeId: 2 },
];

before(async () => {
  t = await buildTestApp();
  admin = await t.tokens.admin();
  let n = 0;
  for (const c of MADE) {
    await t.database.db
      .execute(sql`INSERT INTO customers (website_id, email, firstname, lastname, group_id, store_id, password_hash, created_at)
      VALUES (1, ${`report-${++n}@example.com`}, 'R', 'C', 1, ${c.storeId}, 'x', ${c.at}::timestamptz)`);
  }
});
after(() => t.close());

function expected(from: string, to: string, period: 'day' | 'week' | 'month', zone: string, stores: (number | null)[]) {
  const list = MADE.filter((c) => {
    const d = periodKey(c.at, zone, 'day');
    return d >= from && d <= to && stores.includes(c.storeId);
  });
  const rows = [...groupBy(list, (c) => periodKey(c.at, zone, period)).entries()]
    .sort(([a], [b]) => (a < b ? -1 : 1))
    .map(([p, cs]) => ({ period: p, customers: cs.length }));
  const stores_ = [...groupBy(list, (c) => String(c.storeId)).entries()]
    .sort(([a], [b]) => (a === 'null' ? -1 : b === 'null' ? 1 : Number(a) - Number(b)))
    .map(([s, cs]) => ({ ...(s !== 'null' ? { storeId: Number(s) } : {}), customers: cs.length }));
  return { rows, stores: stores_, total: list.length };
}

for (const period of ['day', 'week', 'month'] as const) {
  test(`new customers by ${period}: every store view (UTC) and store view 2 (Berlin)`, async () => {
    const all = await t.req('GET', `${API}/reports/new-customers?from=2025-05-01&to=2025-06-30&period=${period}`, { token: admin });
    assert.equal(all.status, 200, all.text);
    const want = expected('2025-05-01', '2025-06-30', period, 'UTC', [1, 2, null]);
    assert.deepEqual({ rows: all.body.rows, stores: all.body.stores, total: all.body.total }, want);
    const two = await t.req('GET', `${API}/reports/new-customers?from=2025-05-01&to=2025-06-30&period=${period}&storeId=2`, {
      token: admin,
    });
    assert.equal(two.status, 200, two.text);
    // 2025-06-30 23:15 UTC is July 1st in Berlin: out of the range
    const want2 = expected('2025-05-01', '2025-06-30', period, 'Europe/Berlin', [2]);
    assert.deepEqual({ rows: two.body.rows, stores: two.body.stores, total: two.body.total }, want2);
    assert.equal(want2.total, 1);
  });
}

test('bad input 400, access, a limited token, one statement', async () => {
  for (const q of ['from=2025-05-10&to=2025-05-01', 'period=hour', 'from=2025-13-01', 'storeId=77', 'from=2020-01-01&to=2024-01-01']) {
    const r = await t.req('GET', `${API}/reports/new-customers?${q}`, { token: admin });
    assert.equal(r.status, 400, `${q}: ${r.text}`);
    assert.equal(typeof r.body.message, 'string');
  }
  assert.equal((await t.req('GET', `${API}/reports/new-customers`)).status, 401);
  assert.equal((await t.req('GET', `${API}/reports/new-customers`, { token: await t.tokens.customer() })).status, 403);
  assert.equal((await t.req('GET', `${API}/reports/new-customers`, { token: await t.tokens.apiUser(['customers/read']) })).status, 403);
  const limited = await t.tokens.apiUser(['reports/read'], { allowedStoreIds: [2] });
  assert.equal((await t.req('GET', `${API}/reports/new-customers?storeId=1&store=german`, { token: limited })).status, 403);
  const own = await t.req('GET', `${API}/reports/new-customers?from=2025-05-01&to=2025-06-30&store=german`, { token: limited });
  assert.equal(own.status, 200, own.text);
  assert.equal(own.body.total, expected('2025-05-01', '2025-06-30', 'day', 'UTC', [2]).total);

  const url = `${API}/reports/new-customers?from=2025-05-01&to=2025-06-30&period=week`;
  const auth = await countStatements(() => t.req('GET', `${API}/reports/new-customers?period=hour`, { token: admin }));
  await t.req('GET', url, { token: admin });
  const { n } = await countStatements(() => t.req('GET', url, { token: admin }));
  assert.equal(n - auth.n, 1);
});
