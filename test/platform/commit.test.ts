/**
 * Relaxed commits: cart changes may commit without waiting for the disk flush, only in a transaction of their
 * own, never past it, and never with DURABLE_CART_WRITES.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { sql } from 'drizzle-orm';
import { API, buildSecondApp, buildTestApp, type TestApp } from '../helpers.js';
import { withTx, mayRelaxCommit, type Ctx } from '../../src/platform/context.js';
import { relaxedCommit, rows, statement, type Db } from '../../src/platform/db.js';
import type { BuiltApp } from '../../src/app.js';
import { createTestProduct } from '../fixtures/catalog.js';

let t: TestApp;
let durable: BuiltApp;

before(async () => {
  t = await buildTestApp();
  durable = await buildSecondApp(t, { DURABLE_CART_WRITES: 'true' });
});
after(async () => {
  await durable.app.close();
  await t.close();
});

async function setting(db: Db): Promise<string> {
  const [row] = await rows<{ s: string }>(db, sql`SELECT current_setting('synchronous_commit') AS s`);
  return row.s;
}

// what a relaxed statement sees while it runs
const probe = statement<{ s: string }>(
  'test_relaxed_probe',
  () => sql`SELECT current_setting('synchronous_commit') AS s FROM ${relaxedCommit('relaxed')}`,
);

describe('relaxed commits', () => {
  test('a relaxed transaction commits without waiting; the setting ends with it', async () => {
    assert.equal(await withTx(t.systemCtx(), (tx) => setting(tx.db), { relaxed: true }), 'off');
    assert.equal(await withTx(t.systemCtx(), (tx) => setting(tx.db)), 'on');
    // the embedded database has one session: had the setting outlived the transaction, this would see it
    assert.equal(await setting(t.database.db), 'on');
  });

  test('a relaxed part of a larger transaction keeps the durability of the whole', async () => {
    const seen = await withTx(t.systemCtx(), (outer) => withTx(outer, (inner) => setting(inner.db), { relaxed: true }));
    assert.equal(seen, 'on');
  });

  test('a single statement relaxes only itself, and only when it is its own transaction', async () => {
    const ctx = t.systemCtx();
    assert.equal(mayRelaxCommit(ctx), true);
    assert.equal((await probe.run(ctx.db, { relaxed: mayRelaxCommit(ctx) }))[0].s, 'off');
    assert.equal(await setting(t.database.db), 'on');
    const inTx = await withTx(ctx, async (tx: Ctx) => {
      assert.equal(mayRelaxCommit(tx), false);
      const [row] = await probe.run(tx.db, { relaxed: mayRelaxCommit(tx) });
      return [row.s, await setting(tx.db)];
    });
    assert.deepEqual(inTx, ['on', 'on']);
  });

  test('DURABLE_CART_WRITES makes every commit wait', async () => {
    const ctx = durable.systemCtx();
    assert.equal(mayRelaxCommit(ctx), false);
    assert.equal(await withTx(ctx, (tx) => setting(tx.db), { relaxed: true }), 'on');
  });

  test('cart changes over HTTP leave no relaxed setting behind', async () => {
    const { sku } = await createTestProduct(t, { price: 10, stockData: { qty: 100, isInStock: true } });
    const m = (await t.req('POST', `${API}/guest-carts`, { body: {} })).body.maskedId;
    const added = await t.req('POST', `${API}/guest-carts/${m}/items`, { body: { sku, qty: 1 } });
    assert.equal(added.status, 200, added.text);
    const updated = await t.req('PUT', `${API}/guest-carts/${m}/items/${added.body.items[0].id}`, { body: { qty: 2 } });
    assert.equal(updated.status, 200, updated.text);
    assert.equal(updated.body.items[0].qty, 2);
    assert.equal(await setting(t.database.db), 'on');
  });
});
