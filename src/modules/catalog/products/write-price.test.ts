import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { eq } from 'drizzle-orm';
import { API, buildTestApp, type TestApp } from '../../../../test/helpers.js';
import type { Ctx } from '../../../platform/context.js';
import { countStatements } from '../../../platform/db.js';
import { createTestProduct } from '../../../../test/fixtures/catalog.js';
import { finalPrice, refreshPriceRanges, refreshSpecialPriceWindows } from './price.js';
import { createProduct } from './write.js';
import { bundleOptions, bundleSelections, groupedChildren, products } from '../tables.js';

describe('finalPrice', () => {
  const p = (price: string | null, specialPrice: string | null, from: string | null = null, to: string | null = null) => ({
    price,
    specialPrice,
    specialFromDate: from,
    specialToDate: to,
  });

  test('the price when there is no special price', () => {
    assert.equal(finalPrice(p('10.0000', null), '2024-06-01'), '10.0000');
    assert.equal(finalPrice(p(null, null), '2024-06-01'), null);
  });

  test('a lower special price within its dates', () => {
    assert.equal(finalPrice(p('10.0000', '8.0000'), '2024-06-01'), '8.0000');
    assert.equal(finalPrice(p('10.0000', '8.0000', '2024-06-01', '2024-06-01'), '2024-06-01'), '8.0000');
    assert.equal(finalPrice(p('10.0000', '8.0000', '2024-01-01', null), '2024-06-01'), '8.0000');
    assert.equal(finalPrice(p('10.0000', '8.0000', null, '2024-12-31'), '2024-06-01'), '8.0000');
  });

  test('not before, after or above', () => {
    assert.equal(finalPrice(p('10.0000', '8.0000', '2024-06-02'), '2024-06-01'), '10.0000');
    assert.equal(finalPrice(p('10.0000', '8.0000', null, '2024-05-31'), '2024-06-01'), '10.0000');
    assert.equal(finalPrice(p('10.0000', '12.0000'), '2024-06-01'), '10.0000');
    assert.equal(finalPrice(p('10.0000', '10.0000'), '2024-06-01'), '10.0000');
  });
});

describe('refreshPriceRanges', () => {
  let t: TestApp;
  before(async () => {
    t = await buildTestApp();
  });
  after(() => t.close());

  async function range(id: number) {
    const [r] = await t.database.db.select({ min: products.minPrice, max: products.maxPrice }).from(products).where(eq(products.id, id));
    return [r.min, r.max];
  }

  async function bundleWith(
    priceType: number,
    price: number | undefined,
    options: { type: string; required: boolean; sel: { id: number; qty?: string; price?: string; priceType?: string }[] }[],
  ) {
    const b = await createTestProduct(t, { type: 'bundle', priceType, ...(price === undefined ? {} : { price }) });
    for (const [i, o] of options.entries()) {
      const [opt] = await t.database.db
        .insert(bundleOptions)
        .values({ productId: b.id, title: `Option ${i}`, type: o.type, required: o.required, position: i })
        .returning({ id: bundleOptions.id });
      await t.database.db.insert(bundleSelections).values(
        o.sel.map((s, j) => ({
          optionId: opt.id,
          productId: s.id,
          qty: s.qty ?? '1',
          position: j,
          price: s.price ?? null,
          priceType: s.priceType ?? 'fixed',
        })),
      );
    }
    await refreshPriceRanges(t.systemCtx(), [b.id]);
    return b;
  }

  test('grouped: the range of its children, following a child', async () => {
    const g = await createTestProduct(t, { type: 'grouped' });
    const a = await createTestProduct(t, { price: 4 });
    const b = await createTestProduct(t, { price: 7.5 });
    await t.database.db.insert(groupedChildren).values([
      { parentId: g.id, childId: a.id },
      { parentId: g.id, childId: b.id },
    ]);
    await refreshPriceRanges(t.systemCtx(), [g.id]);
    assert.deepEqual(await range(g.id), ['4.0000', '7.5000']);
    await t.database.db.update(products).set({ price: '9' }).where(eq(products.id, a.id));
    await refreshPriceRanges(t.systemCtx(), [a.id]);
    assert.deepEqual(await range(a.id), ['9.0000', '9.0000']);
    assert.deepEqual(await range(g.id), ['7.5000', '9.0000']);
  });

  test('dynamic bundle: cheapest required selections to the sum of the dearest', async () => {
    const s1 = await createTestProduct(t, { price: 10 });
    const s2 = await createTestProduct(t, { price: 15 });
    const s3 = await createTestProduct(t, { price: 3 });
    const s4 = await createTestProduct(t, { price: 2 });
    const b = await bundleWith(0, undefined, [
      { type: 'radio', required: true, sel: [{ id: s1.id }, { id: s2.id }] },
      { type: 'checkbox', required: false, sel: [{ id: s3.id }, { id: s4.id, qty: '2' }] },
    ]);
    // min: 10 (required radio); max: 15 + 3 + 2×2
    assert.deepEqual(await range(b.id), ['10.0000', '22.0000']);
  });

  test('fixed bundle: its own price plus the selection prices', async () => {
    const s1 = await createTestProduct(t, { price: 100 });
    const s2 = await createTestProduct(t, { price: 100 });
    const b = await bundleWith(1, 50, [
      {
        type: 'select',
        required: true,
        sel: [
          { id: s1.id, price: '5' },
          { id: s2.id, price: '10', priceType: 'percent' },
        ],
      },
      { type: 'select', required: false, sel: [{ id: s1.id, price: '20' }] },
    ]);
    // min: 50 + 5; max: 50 + max(5, 10% of 50) + 20
    assert.deepEqual(await range(b.id), ['55.0000', '75.0000']);
  });

  test('unknown ids are ignored', async () => {
    await refreshPriceRanges(t.systemCtx(), [99999999, -1]);
  });
});

describe('refreshSpecialPriceWindows', () => {
  let t: TestApp;
  let admin: string;
  let seq = 0;
  const tag = `sw${process.pid}`;
  before(async () => {
    t = await buildTestApp();
    admin = await t.tokens.admin();
  });
  after(() => t.close());

  const DAY = 86_400_000;
  const day = (offset: number) => new Date(Date.now() + offset * DAY).toISOString().slice(0, 10);
  /** The service context of a write made on another day (as the demo seed and the CLI write). */
  const on = (date: string): Ctx => ({ ...t.systemCtx(), now: new Date(`${date}T12:00:00Z`) });

  /** A product written on `date`: its price index was computed with that day's special prices. */
  async function writtenOn(date: string, body: Record<string, unknown>): Promise<number> {
    const n = ++seq;
    const p = await createProduct(on(date), { sku: `${tag}-${n}`, name: `${tag} product ${n}`, ...body });
    return p.id;
  }

  async function range(id: number) {
    const [r] = await t.database.db.select({ min: products.minPrice, max: products.maxPrice }).from(products).where(eq(products.id, id));
    return [r.min, r.max];
  }

  /** Ids of the listing's matches among this test's products, in the listing's order. */
  async function listed(query: string): Promise<number[]> {
    const r = await t.req('GET', `${API}/products?search=${tag}&itemsPerPage=100&${query}`);
    assert.equal(r.status, 200, r.text);
    return (r.body.member as { id: number }[]).map((m) => m.id);
  }

  test('products written through the API today are already right and are not picked (run first: nothing else is dated)', async () => {
    const res = await t.req('POST', `${API}/products`, {
      token: admin,
      body: {
        sku: `api-${process.pid}`,
        name: `Dated through the API`,
        price: 100,
        specialPrice: 10,
        specialFromDate: '2000-01-01',
        specialToDate: day(-1),
      },
    });
    assert.equal(res.status, 201, res.text);
    assert.deepEqual([res.body.finalPrice, res.body.minimalPrice], [100, 100]);
    assert.deepEqual(await range(res.body.id), ['100.0000', '100.0000']);
    const { n, result: r } = await countStatements(() => refreshSpecialPriceWindows(t.systemCtx()));
    assert.equal(r.products, 0);
    assert.equal(n, 1, 'one statement finds nothing to do');
  });

  test('an ended special price stops counting, a started one starts, with their grouped parent', async () => {
    const ended = await writtenOn('2000-06-01', {
      price: 100,
      specialPrice: 10,
      specialFromDate: '2000-01-01',
      specialToDate: '2000-12-31',
    });
    const started = await writtenOn('2000-06-01', { price: 100, specialPrice: 20, specialFromDate: '2001-01-01' });
    const plain = await writtenOn('2000-06-01', { price: 50 });
    const future = await writtenOn('2000-06-01', { price: 100, specialPrice: 5, specialFromDate: '2999-01-01' });
    const running = await writtenOn('2000-06-01', {
      price: 100,
      specialPrice: 30,
      specialFromDate: '2000-01-01',
      specialToDate: '2999-12-31',
    });
    const set = await writtenOn('2000-06-01', { type: 'grouped' });
    await t.database.db.insert(groupedChildren).values([
      { parentId: set, childId: ended },
      { parentId: set, childId: plain },
    ]);
    await refreshPriceRanges(on('2000-06-01'), [set]);
    assert.deepEqual(await range(ended), ['10.0000', '10.0000']);
    assert.deepEqual(await range(started), ['100.0000', '100.0000']);
    assert.deepEqual(await range(set), ['10.0000', '50.0000']);
    // stale: the listing still filters and sorts on the prices of 2000-06-01
    assert.deepEqual((await listed('priceMax=25')).sort(), [ended, set].sort());

    const r = await refreshSpecialPriceWindows(t.systemCtx());
    assert.equal(r.day, day(0));
    assert.ok(r.products >= 2, JSON.stringify(r));
    assert.deepEqual(await range(ended), ['100.0000', '100.0000']);
    assert.deepEqual(await range(started), ['20.0000', '20.0000']);
    assert.deepEqual(await range(set), ['50.0000', '100.0000']);
    assert.deepEqual(await range(future), ['100.0000', '100.0000']);
    assert.deepEqual(await range(running), ['30.0000', '30.0000']);

    // over HTTP: filters, sorting and prices follow today's date
    assert.deepEqual(await listed('priceMax=25'), [started]);
    // (the grouped product costs as much as its cheapest child)
    assert.deepEqual(
      (await listed('sortBy=price&sortDir=asc')).filter((id) => id !== set),
      [started, running, plain, ended, future],
    );
    const e = (await t.req('GET', `${API}/products/${ended}`)).body;
    assert.deepEqual([e.price, e.finalPrice, e.minimalPrice], [100, 100, 100]);
    const s = (await t.req('GET', `${API}/products/${started}`)).body;
    assert.deepEqual([s.price, s.finalPrice, s.minimalPrice], [100, 20, 20]);
    const g = (await t.req('GET', `${API}/products/${set}`)).body;
    assert.deepEqual([g.price, g.finalPrice, g.minimalPrice, g.maximalPrice], [50, 50, 50, 100]);

    // a second run on the same day looks at nothing
    assert.deepEqual(await refreshSpecialPriceWindows(t.systemCtx(), r.day), { day: r.day, products: 0 });
  });

  test('a periodic run picks the windows that passed since the previous run', async () => {
    // written the day before yesterday with a special price that counted up to yesterday, and one from today
    const yesterday = day(-1);
    const ends = await writtenOn(day(-2), { price: 40, specialPrice: 4, specialToDate: yesterday });
    const begins = await writtenOn(day(-2), { price: 40, specialPrice: 8, specialFromDate: day(0) });
    assert.deepEqual(await range(ends), ['4.0000', '4.0000']);
    assert.deepEqual(await range(begins), ['40.0000', '40.0000']);
    const r = await refreshSpecialPriceWindows(t.systemCtx(), yesterday);
    assert.deepEqual(r, { day: day(0), products: 2 });
    assert.deepEqual(await range(ends), ['40.0000', '40.0000']);
    assert.deepEqual(await range(begins), ['8.0000', '8.0000']);
  });
});
