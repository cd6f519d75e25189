import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { eq } from 'drizzle-orm';
import { buildTestApp, type TestApp } from '../../../test/helpers.js';
import { createTestProduct } from './fixtures.js';
import { finalPrice, refreshPriceRanges } from './products-price.js';
import { bundleOptions, bundleSelections, groupedChildren, products } from './tables.js';

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

  async function bundleWith(priceType: number, price: number | undefined, options: { type: string; required: boolean; sel: { id: number; qty?: string; price?: string; priceType?: string }[] }[]) {
    const b = await createTestProduct(t, { type: 'bundle', priceType, ...(price === undefined ? {} : { price }) });
    for (const [i, o] of options.entries()) {
      const [opt] = await t.database.db
        .insert(bundleOptions)
        .values({ productId: b.id, title: `Option ${i}`, type: o.type, required: o.required, position: i })
        .returning({ id: bundleOptions.id });
      await t.database.db.insert(bundleSelections).values(
        o.sel.map((s, j) => ({ optionId: opt.id, productId: s.id, qty: s.qty ?? '1', position: j, price: s.price ?? null, priceType: s.priceType ?? 'fixed' })),
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
      { type: 'select', required: true, sel: [{ id: s1.id, price: '5' }, { id: s2.id, price: '10', priceType: 'percent' }] },
      { type: 'select', required: false, sel: [{ id: s1.id, price: '20' }] },
    ]);
    // min: 50 + 5; max: 50 + max(5, 10% of 50) + 20
    assert.deepEqual(await range(b.id), ['55.0000', '75.0000']);
  });

  test('unknown ids are ignored', async () => {
    await refreshPriceRanges(t.systemCtx(), [99999999, -1]);
  });
});
