/** GET /reports/low-stock over HTTP: thresholds (own and configured), managed stock only, paging, access, one statement. */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { countStatements } from '../../platform/db.js';
import { createTestProduct } from '../../../test/fixtures/catalog.js';
import { API, buildTestApp, type TestApp } from '../../../test/helpers.js';

let t: TestApp;
let admin: string;
const made: { sku: string; qty: number; notify?: number; manage: boolean }[] = [
  { sku: 'low-a', qty: 2, notify: 5, manage: true },
  { sku: 'low-b', qty: 5, notify: 5, manage: true },
  { sku: 'low-c', qty: 0, manage: true },
  { sku: 'low-d', qty: 1, manage: true },
  { sku: 'low-e', qty: 0, notify: 10, manage: false },
  { sku: 'low-f', qty: 9, notify: 10, manage: true },
];

before(async () => {
  t = await buildTestApp();
  admin = await t.tokens.admin();
  for (const m of made) {
    await createTestProduct(t, {
      sku: m.sku,
      stockData: {
        qty: m.qty,
        isInStock: m.qty > 0,
        manageStock: m.manage,
        ...(m.notify !== undefined ? { notifyStockQty: m.notify } : {}),
      },
    });
  }
});
after(() => t.close());

/** the configured default threshold is 1 */
function expected(threshold = 1) {
  return made
    .filter((m) => m.manage && m.qty < (m.notify ?? threshold))
    .sort((a, b) => a.qty - b.qty || a.sku.localeCompare(b.sku))
    .map((m) => ({ sku: m.sku, qty: m.qty, notifyStockQty: m.notify ?? threshold }));
}

const read = async (q = '', token = admin) => {
  const r = await t.req('GET', `${API}/reports/low-stock${q}`, { token, headers: { accept: 'application/ld+json' } });
  return r;
};

test('managed items under their threshold, lowest first, paginated', async () => {
  const r = await read('?itemsPerPage=100');
  assert.equal(r.status, 200, r.text);
  const mine = r.body.member.filter((x: { sku: string }) => x.sku.startsWith('low-'));
  assert.deepEqual(
    mine.map((x: { sku: string; qty: number; notifyStockQty: number }) => ({ sku: x.sku, qty: x.qty, notifyStockQty: x.notifyStockQty })),
    expected(),
  );
  assert.ok(mine.every((x: { name: string; productId: number }) => typeof x.name === 'string' && x.productId > 0));
  const total = r.body.totalItems;
  const p2 = await read('?itemsPerPage=1&page=2');
  assert.equal(p2.body.totalItems, total);
  assert.equal(p2.body.member.length, total >= 2 ? 1 : 0);
  const past = await read('?itemsPerPage=10&page=50');
  assert.equal(past.status, 200);
  assert.equal(past.body.totalItems, total);
  assert.deepEqual(past.body.member, []);
});

test('the configured threshold applies to items that have none', async () => {
  const { setConfigValue } = await configSetter();
  await setConfigValue('cataloginventory/item_options/notify_stock_qty', '3');
  const r = await read('?itemsPerPage=100');
  const mine = r.body.member.filter((x: { sku: string }) => x.sku.startsWith('low-'));
  assert.deepEqual(
    mine.map((x: { sku: string; qty: number; notifyStockQty: number }) => ({ sku: x.sku, qty: x.qty, notifyStockQty: x.notifyStockQty })),
    expected(3),
  );
  await setConfigValue('cataloginventory/item_options/notify_stock_qty', '1');
});

/** writes a default-scope config value and reloads the store registry */
async function configSetter() {
  const { setConfig } = await import('../stores/service.js');
  return {
    setConfigValue: async (path: string, value: string) => {
      await setConfig(t.database.db, t.services.settings as never, path, value);
    },
  };
}

test('input, access, scope, one statement', async () => {
  assert.equal((await read('?storeId=99')).status, 400);
  assert.equal((await read('?storeId=x')).status, 400);
  assert.equal((await t.req('GET', `${API}/reports/low-stock`)).status, 401);
  assert.equal((await read('', await t.tokens.customer())).status, 403);
  assert.equal((await read('', await t.tokens.apiUser(['inventory/read']))).status, 403);
  const limited = await t.tokens.apiUser(['reports/read'], { allowedStoreIds: [2] });
  assert.equal((await read('?storeId=1&store=german', limited)).status, 403);
  assert.equal((await read('?store=german', limited)).status, 200);
  const auth = await countStatements(() => read('?storeId=99'));
  await read();
  const { n, result } = await countStatements(() => read());
  assert.equal(result.status, 200);
  assert.equal(n - auth.n, 1);
});
