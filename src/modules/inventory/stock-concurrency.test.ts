/**
 * Stock under concurrent writers, against the database (PGlite by default, PostgreSQL with TEST_DATABASE_URL):
 * reservations never oversell, releases restore exactly, bulk updates serialize without deadlocks.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { eq } from 'drizzle-orm';
import { API, buildTestApp, type TestApp } from '../../../test/helpers.js';
import { withTx } from '../../platform/context.js';
import { AppError } from '../../platform/errors.js';
import { createTestProduct } from '../../../test/fixtures/catalog.js';
import { releaseStock, reserveStock, stockOf, type StockLine } from './service.js';
import { stockItems } from './tables.js';

let t: TestApp;
let admin: string;

before(async () => {
  t = await buildTestApp();
  admin = await t.tokens.admin();
});
after(() => t.close());

interface Product {
  id: number;
  sku: string;
}

async function newProduct(qty: number): Promise<Product> {
  const p = await createTestProduct(t);
  const r = await t.req('PUT', `${API}/inventory`, { token: admin, body: { sku: p.sku, qty } });
  assert.equal(r.status, 200, r.text);
  return { id: p.id as number, sku: p.sku as string };
}

async function stock(productId: number) {
  const row = (await stockOf(t.systemCtx(), [productId])).get(productId);
  assert.ok(row);
  return row;
}

/** Each call in its own transaction, all started at once; resolves to how many succeeded and the refusals. */
async function parallel(calls: (() => Promise<void>)[]): Promise<{ ok: number; refused: AppError[] }> {
  const settled = await Promise.allSettled(calls.map((c) => c()));
  const refused: AppError[] = [];
  let ok = 0;
  for (const s of settled) {
    if (s.status === 'fulfilled') ok++;
    else if (s.reason instanceof AppError) refused.push(s.reason);
    else throw s.reason;
  }
  return { ok, refused };
}

const reserve = (lines: StockLine[]) => () => withTx(t.systemCtx(), (tx) => reserveStock(tx, lines));
const release = (lines: StockLine[]) => () => withTx(t.systemCtx(), (tx) => releaseStock(tx, lines));

function shuffled<T>(items: T[]): T[] {
  const out = [...items];
  for (let i = out.length - 1; i > 0; i--) {
    const j = Math.floor(Math.random() * (i + 1));
    [out[i], out[j]] = [out[j], out[i]];
  }
  return out;
}

describe('concurrent reservations', () => {
  for (const [n, q] of [
    [20, 7],
    [8, 12],
    [15, 15],
  ] as const) {
    test(`${n} parallel reservations of 1 on qty ${q}: exactly ${Math.min(n, q)} succeed, qty never negative`, async () => {
      const p = await newProduct(q);
      const { ok, refused } = await parallel(Array.from({ length: n }, () => reserve([{ productId: p.id, qty: 1 }])));
      assert.equal(ok, Math.min(n, q));
      assert.equal(refused.length, n - ok);
      for (const e of refused) {
        assert.equal(e.status, 409);
        assert.equal(e.reason, 'OUT_OF_STOCK');
      }
      const row = await stock(p.id);
      assert.equal(row.qty, q - ok);
      assert.ok(row.qty >= 0);
      assert.equal(row.isInStock, row.qty > 0);
    });
  }

  test('parallel reservations of different sizes never take more than there is', async () => {
    const p = await newProduct(10);
    const sizes = [3, 4, 2, 5, 1, 3, 2, 4];
    const settled = await Promise.allSettled(sizes.map((qty) => reserve([{ productId: p.id, qty }])()));
    const taken = sizes.reduce((sum, qty, i) => sum + (settled[i].status === 'fulfilled' ? qty : 0), 0);
    for (const s of settled) if (s.status === 'rejected') assert.equal((s.reason as AppError).status, 409);
    const row = await stock(p.id);
    assert.ok(taken <= 10);
    assert.equal(row.qty, 10 - taken);
  });

  test('orders naming two products in opposite orders neither deadlock nor lose an update', async () => {
    const [a, b] = [await newProduct(100), await newProduct(100)];
    const calls = Array.from({ length: 20 }, (_, i) =>
      reserve(
        i % 2
          ? [
              { productId: a.id, qty: 1 },
              { productId: b.id, qty: 2 },
            ]
          : [
              { productId: b.id, qty: 2 },
              { productId: a.id, qty: 1 },
            ],
      ),
    );
    const { ok, refused } = await parallel(calls);
    assert.deepEqual(
      refused.map((e) => e.message),
      [],
    );
    assert.equal(ok, 20);
    assert.equal((await stock(a.id)).qty, 80);
    assert.equal((await stock(b.id)).qty, 60);
  });

  test('parallel reservations never take stock below minQty, and the last one takes the item out of stock', async () => {
    const p = await newProduct(20);
    const r = await t.req('PUT', `${API}/inventory`, { token: admin, body: { sku: p.sku, minQty: 5 } });
    assert.equal(r.status, 200, r.text);
    // salable: 20 - 5 = 15, so three reservations of 4 fit and a fourth would cross the threshold
    const { ok, refused } = await parallel(Array.from({ length: 10 }, () => reserve([{ productId: p.id, qty: 4 }])));
    assert.equal(ok, 3);
    assert.equal(refused.length, 7);
    for (const e of refused) assert.deepEqual([e.status, e.reason], [409, 'OUT_OF_STOCK']);
    assert.deepEqual([(await stock(p.id)).qty, (await stock(p.id)).isInStock], [8, true]);
    const last = await parallel(Array.from({ length: 5 }, () => reserve([{ productId: p.id, qty: 3 }])));
    assert.equal(last.ok, 1);
    assert.deepEqual([(await stock(p.id)).qty, (await stock(p.id)).isInStock], [5, false]);
  });

  test('parallel reservations of a product without a stock row are all refused and make no row', async () => {
    const p = await newProduct(1);
    await t.database.db.delete(stockItems).where(eq(stockItems.productId, p.id));
    const { ok, refused } = await parallel(Array.from({ length: 10 }, () => reserve([{ productId: p.id, qty: 1 }])));
    assert.equal(ok, 0);
    for (const e of refused) assert.deepEqual([e.status, e.reason], [409, 'OUT_OF_STOCK']);
    assert.equal((await stockOf(t.systemCtx(), [p.id])).get(p.id), undefined);
  });

  test('a refused order takes nothing from its other products', async () => {
    const [plenty, scarce] = [await newProduct(50), await newProduct(3)];
    const { ok } = await parallel(
      Array.from({ length: 10 }, () =>
        reserve([
          { productId: plenty.id, qty: 2 },
          { productId: scarce.id, qty: 1 },
        ]),
      ),
    );
    assert.equal(ok, 3);
    assert.equal((await stock(plenty.id)).qty, 50 - 2 * ok);
    assert.equal((await stock(scarce.id)).qty, 0);
  });
});

describe('concurrent releases', () => {
  test('parallel releases restore the qty exactly and put the item back in stock', async () => {
    const p = await newProduct(6);
    const { ok } = await parallel(Array.from({ length: 6 }, () => reserve([{ productId: p.id, qty: 1 }])));
    assert.equal(ok, 6);
    assert.deepEqual([(await stock(p.id)).qty, (await stock(p.id)).isInStock], [0, false]);
    const released = await parallel(Array.from({ length: 6 }, () => release([{ productId: p.id, qty: 1 }])));
    assert.equal(released.ok, 6);
    assert.deepEqual([(await stock(p.id)).qty, (await stock(p.id)).isInStock], [6, true]);
  });

  test('parallel releases near 99,999,999 fill it exactly; the rest are refused with 422', async () => {
    const p = await newProduct(99_999_989);
    const { ok, refused } = await parallel(Array.from({ length: 25 }, () => release([{ productId: p.id, qty: 1 }])));
    assert.equal(ok, 10);
    assert.equal(refused.length, 15);
    for (const e of refused) assert.deepEqual([e.status, e.reason], [422, 'STOCK_QTY_LIMIT']);
    assert.equal((await stock(p.id)).qty, 99_999_999);
  });

  test('reservations and releases interleaved end at the exact balance', async () => {
    const p = await newProduct(20);
    const calls = [
      ...Array.from({ length: 10 }, () => reserve([{ productId: p.id, qty: 2 }])),
      ...Array.from({ length: 10 }, () => release([{ productId: p.id, qty: 1 }])),
    ];
    const { ok, refused } = await parallel(shuffled(calls));
    assert.deepEqual(
      refused.map((e) => e.message),
      [],
    );
    assert.equal(ok, 20);
    assert.equal((await stock(p.id)).qty, 20 - 20 + 10);
  });
});

describe('concurrent single updates', () => {
  test("parallel PUT /inventory of one SKU: each reply's previousQty is the qty the one before it wrote", async () => {
    const p = await newProduct(1000);
    const values = Array.from({ length: 16 }, (_, i) => i + 1);
    const replies = await Promise.all(
      values.map((qty) => t.req('PUT', `${API}/inventory`, { token: admin, body: { sku: p.sku.toUpperCase(), qty } })),
    );
    const chain = new Map<number, number>();
    for (const r of replies) {
      assert.equal(r.status, 200, r.text);
      assert.equal(r.body.sku, p.sku);
      assert.ok(!chain.has(r.body.previousQty), `two requests replaced qty ${r.body.previousQty}`);
      chain.set(r.body.previousQty, r.body.qty);
    }
    let at = 1000;
    for (let i = 0; i < values.length; i++) {
      assert.ok(chain.has(at), `no request replaced ${at}`);
      at = chain.get(at)!;
    }
    const row = await stock(p.id);
    assert.equal(row.qty, at);
    assert.equal(row.isInStock, true);
  });
});

describe('concurrent bulk updates', () => {
  test('parallel bulk updates over the same products serialize: every request succeeds and one of them wins whole', async () => {
    const ps = await Promise.all(Array.from({ length: 5 }, () => newProduct(1)));
    const values = [10, 20, 30, 40, 50, 60, 70, 80];
    const replies = await Promise.all(
      values.map((v) =>
        t.req('PUT', `${API}/inventory/bulk`, { token: admin, body: { items: shuffled(ps).map((p) => ({ sku: p.sku, qty: v })) } }),
      ),
    );
    for (const r of replies) assert.equal(r.status, 200, r.text);
    const finals = await Promise.all(ps.map(async (p) => (await stock(p.id)).qty));
    assert.equal(new Set(finals).size, 1, `all products hold the qty of one request: ${finals}`);
    assert.ok(values.includes(finals[0]));
    // each request saw, for every product, the qty one single earlier request (or the start) had left
    const chain = new Map<number, number>();
    for (const r of replies) {
      const prev = new Set(r.body.results.map((x: { previousQty: number }) => x.previousQty));
      assert.equal(prev.size, 1, `one request saw a mixed state: ${[...prev]}`);
      chain.set([...prev][0] as number, r.body.results[0].qty);
    }
    // following previousQty → qty from the start passes through every request once
    let at = 1;
    for (let i = 0; i < values.length; i++) {
      assert.ok(chain.has(at), `no request started from ${at}`);
      at = chain.get(at)!;
    }
    assert.equal(at, finals[0]);
  });

  test('bulk updates racing reservations leave qty non-negative and every reply a 200 or a 409', async () => {
    const p = await newProduct(5);
    const calls: Promise<unknown>[] = [];
    for (let i = 0; i < 12; i++) {
      calls.push(
        reserve([{ productId: p.id, qty: 1 }])().then(
          () => 'ok',
          (e: unknown) => {
            assert.ok(e instanceof AppError && e.status === 409, String(e));
            return 'refused';
          },
        ),
      );
      if (i % 4 === 0) {
        calls.push(
          t.req('PUT', `${API}/inventory/bulk`, { token: admin, body: { items: [{ sku: p.sku, qty: 3 }] } }).then((r) => {
            assert.equal(r.status, 200, r.text);
            return 'set';
          }),
        );
      }
    }
    await Promise.all(calls);
    const row = await stock(p.id);
    assert.ok(row.qty >= 0 && row.qty <= 3, `qty ${row.qty}`);
    assert.equal(row.isInStock, row.qty > 0);
  });
});
