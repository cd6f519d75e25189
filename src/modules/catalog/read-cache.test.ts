/**
 * Cached shopper reads of products: an anonymous product page or listing is answered from the process's cache
 * until the catalog changes, whichever process (or direct database write) changed it; signed-in and back-office
 * readers always read the database.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { sql } from 'drizzle-orm';
import { API, buildSecondApp, buildTestApp, type TestApp } from '../../../test/helpers.js';
import type { BuiltApp } from '../../app.js';
import { createTestProduct } from '../../../test/fixtures/catalog.js';
import { countStatements } from '../../platform/db.js';

let t: TestApp;
let other: BuiltApp;
let admin: string;

before(async () => {
  t = await buildTestApp();
  other = await buildSecondApp(t);
  admin = await t.tokens.admin();
});
after(async () => {
  await other.app.close();
  await t.close();
});

const JSON_ONLY = { accept: 'application/json' };
const page = async (id: number, token?: string) => {
  const r = await t.req('GET', `${API}/products/${id}`, { token, headers: JSON_ONLY });
  assert.equal(r.status, 200, r.text);
  return r.body;
};
const listing = async (query: string) => {
  const r = await t.req('GET', `${API}/products?${query}`, { headers: JSON_ONLY });
  assert.equal(r.status, 200, r.text);
  return r.body as { sku: string; price: number; stockStatus: string }[];
};
/**
 * Statements fn sent, in its own async context (`countStatements`): background work of either app meanwhile (the
 * outbox, a cache poll) is not among them.
 */
async function queries(fn: () => Promise<unknown>): Promise<number> {
  return (await countStatements(fn)).n;
}

describe('cached product reads', () => {
  test('a second anonymous read is answered from the cache; a write through another process is seen at once', async () => {
    const p = await createTestProduct(t, { price: 20, stockData: { qty: 5 } });
    assert.equal((await page(p.id)).price, 20);
    assert.equal(await queries(() => page(p.id)), 1, 'the version check only');
    // another process changes the price
    const r = await other.app.inject({
      method: 'PUT',
      url: `${API}/products/${p.id}`,
      headers: { authorization: `Bearer ${admin}`, 'content-type': 'application/json' },
      payload: JSON.stringify({ price: 25 }),
    });
    assert.equal(r.statusCode, 200, r.body);
    assert.equal((await page(p.id)).price, 25);
  });

  test('stock, sub-resource and direct database changes invalidate pages and listings', async () => {
    const p = await createTestProduct(t, { price: 30, stockData: { qty: 5 } });
    const sku = encodeURIComponent(p.sku);
    assert.equal((await listing(`sku=${sku}`))[0].stockStatus, 'in_stock');
    assert.equal((await page(p.id)).tierPrices?.length ?? 0, 0);
    const stock = await t.req('PUT', `${API}/inventory`, { token: admin, body: { sku: p.sku, qty: 0 } });
    assert.equal(stock.status, 200, stock.text);
    assert.equal((await listing(`sku=${sku}`))[0].stockStatus, 'out_of_stock');
    const tiers = await t.req('POST', `${API}/products/${p.id}/tier-prices`, { token: admin, body: [{ qty: 2, price: 28 }] });
    assert.equal(tiers.status, 201, tiers.text);
    assert.equal((await page(p.id)).tierPrices.length, 1);
    await t.database.db.execute(sql`UPDATE products SET price = 31 WHERE id = ${p.id}`);
    assert.equal((await page(p.id)).price, 31);
    assert.equal((await listing(`sku=${sku}`))[0].price, 31);
  });

  test('a stock change from another process reaches product pages at once but keeps the caches of what shows no stock', async () => {
    const p = await createTestProduct(t, { price: 12, stockData: { qty: 30 } });
    const cart = await t.req('POST', `${API}/guest-carts`, { body: {} });
    const masked = cart.body.maskedId;
    const add = () => t.req('POST', `${API}/guest-carts/${masked}/items`, { body: { sku: p.sku, qty: 1 } });
    const first = await add();
    assert.ok(first.status < 300, first.text);
    assert.equal((await page(p.id)).stockQty, 30);
    const warmAdd = await queries(add);
    const r = await other.app.inject({
      method: 'PUT',
      url: `${API}/inventory`,
      headers: { authorization: `Bearer ${admin}`, 'content-type': 'application/json' },
      payload: JSON.stringify({ sku: p.sku, qty: 40 }),
    });
    assert.equal(r.statusCode, 200, r.body);
    assert.equal((await page(p.id)).stockQty, 40, 'the page shows the new stock');
    // the product data a cart is priced with did not change: adding costs what it cost warm (stock rules are
    // read again once, as the version they are kept at moved)
    const { n: afterChange, result: added } = await countStatements(add);
    assert.ok(added.status < 300);
    assert.ok(afterChange <= warmAdd + 1, `${afterChange} statements after the change, ${warmAdd} warm`);
    assert.equal(await queries(add), warmAdd);
  });

  test('a transaction moves each version it touches once, however many rows it writes; the next one moves it again', async () => {
    const a = await createTestProduct(t, { price: 3 });
    const b = await createTestProduct(t, { price: 4 });
    const versions = async () =>
      (await t.database.db.execute(
        sql`SELECT name, sum(version)::text AS v FROM read_cache_versions GROUP BY name ORDER BY name`,
      )) as unknown as { rows: { name: string; v: string }[] };
    const before = Object.fromEntries((await versions()).rows.map((r) => [r.name, BigInt(r.v)]));
    await t.database.db.transaction(async (tx) => {
      for (const price of ['5', '6', '7']) await tx.execute(sql`UPDATE products SET price = ${price} WHERE id IN (${a.id}, ${b.id})`);
      await tx.execute(sql`UPDATE stock_items SET qty = qty + 1 WHERE product_id IN (${a.id}, ${b.id})`);
    });
    const after = Object.fromEntries((await versions()).rows.map((r) => [r.name, BigInt(r.v)]));
    assert.equal(after.catalog - before.catalog, 1n);
    assert.equal(after.stock - before.stock, 1n);
    assert.equal(after.orders, before.orders);
    await t.database.db.execute(sql`UPDATE products SET price = 8 WHERE id = ${a.id}`);
    const last = Object.fromEntries((await versions()).rows.map((r) => [r.name, BigInt(r.v)]));
    assert.equal(last.catalog - after.catalog, 1n);
    assert.equal((await page(a.id as number)).price, 8);
  });

  test('a failed write leaves the cache valid and its answers unchanged', async () => {
    const p = await createTestProduct(t, { price: 40 });
    await page(p.id);
    const bad = await t.req('PUT', `${API}/products/${p.id}`, { token: admin, body: { price: -1 } });
    assert.equal(bad.status, 400, bad.text);
    assert.equal(await queries(() => page(p.id)), 1);
    assert.equal((await page(p.id)).price, 40);
  });

  test('signed-in and back-office readers always read the database', async () => {
    const p = await createTestProduct(t, { price: 50 });
    const customer = await t.tokens.customer();
    await page(p.id, customer);
    assert.ok((await queries(() => page(p.id, customer))) >= 2);
    await page(p.id, admin);
    assert.ok((await queries(() => page(p.id, admin))) >= 2);
  });

  test('store views and currencies are cached apart', async () => {
    const p = await createTestProduct(t, { price: 60 });
    const usd = await page(p.id);
    const r = await t.req('GET', `${API}/products/${p.id}?store=german`, { headers: JSON_ONLY });
    assert.equal(r.status, 200, r.text);
    assert.equal(usd.currency, 'USD');
    assert.notEqual(r.body.currency, undefined);
    assert.equal((await page(p.id)).currency, 'USD');
  });
});
