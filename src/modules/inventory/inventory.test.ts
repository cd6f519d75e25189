import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { eq } from 'drizzle-orm';
import { API, buildTestApp, type Res, type TestApp } from '../../../test/helpers.js';
import { withTx } from '../../platform/context.js';
import { AppError } from '../../platform/errors.js';
import { createTestProduct } from '../../../test/fixtures/catalog.js';
import { checkAvailability, releaseStock, reserveStock, stockOf, stockRulesAt } from './service.js';
import { setStock } from './admin.js';
import type { StockRow } from './stock-rows.js';
import { readVersion } from '../../platform/read-cache.js';
import { stockItems } from './tables.js';

let t: TestApp;
let admin: string;
let customer: string;
/** API-user tokens by what their role holds */
const tok: Record<'products' | 'read' | 'write', string> = { products: '', read: '', write: '' };

before(async () => {
  t = await buildTestApp();
  admin = await t.tokens.admin();
  customer = await t.tokens.customer();
  tok.products = await t.tokens.apiUser(['products/all']);
  tok.read = await t.tokens.apiUser(['inventory/read']);
  tok.write = await t.tokens.apiUser(['inventory/write']);
});
after(() => t.close());

interface Product {
  id: number;
  sku: string;
}

/** A new product (through the API), with no stock row unless `qty` is given (then set through PUT /inventory). */
async function newProduct(qty?: number, sku?: string): Promise<Product> {
  const p = await createTestProduct(t, sku ? { sku } : {});
  const product = { id: p.id as number, sku: p.sku as string };
  if (qty !== undefined) await put({ sku: product.sku, qty });
  return product;
}

/**
 * A product that keeps no stock row (as products made before every product got one, or by an import): the
 * row product creation may have written is removed.
 */
async function newProductWithoutStock(): Promise<Product> {
  const product = await newProduct();
  await t.database.db.delete(stockItems).where(eq(stockItems.productId, product.id));
  assert.equal(await stock(product.id), undefined);
  return product;
}

async function stock(productId: number): Promise<StockRow | undefined> {
  return (await stockOf(t.systemCtx(), [productId])).get(productId);
}

async function put(body: unknown, token = admin): Promise<Res> {
  return t.req('PUT', `${API}/inventory`, { token, body });
}

async function putBulk(body: unknown, token = admin): Promise<Res> {
  return t.req('PUT', `${API}/inventory/bulk`, { token, body });
}

function assertError(r: Res, status: number, error: string, message?: RegExp) {
  assert.equal(r.status, status, r.text);
  assert.equal(r.body.error, error, r.text);
  assert.equal(typeof r.body.message, 'string');
  if (message) assert.match(r.body.message, message);
  if (status !== 401) assert.equal(r.body.code, status);
}

/** Asserts that a stock row is exactly as it was (qty, flags and updatedAt). */
async function assertUnchanged(productId: number, before: StockRow | undefined) {
  assert.deepEqual(await stock(productId), before);
}

describe('PUT /inventory', () => {
  test('creates the stock of a product that had none: qty, isInStock from qty, manageStock true, previousQty 0', async () => {
    const p = await newProductWithoutStock();
    const r = await put({ sku: p.sku, qty: 25 });
    assert.equal(r.status, 200, r.text);
    assert.deepEqual(r.body, { sku: p.sku, qty: 25, isInStock: true, manageStock: true, previousQty: 0, success: true });
    const row = await stock(p.id);
    assert.equal(row?.qty, 25);
    assert.equal(row?.isInStock, true);
    assert.equal(row?.manageStock, true);
    assert.equal(r.headers['cache-control'], 'no-store');
  });

  test('updates the qty and reports the previous one', async () => {
    const p = await newProduct(25);
    const r = await put({ sku: p.sku, qty: 10 });
    assert.equal(r.status, 200, r.text);
    assert.deepEqual(r.body, { sku: p.sku, qty: 10, isInStock: true, manageStock: true, previousQty: 25, success: true });
    assert.equal((await stock(p.id))?.qty, 10);
  });

  test('isInStock defaults to qty > 0 when qty is sent', async () => {
    const p = await newProduct(5);
    const zero = await put({ sku: p.sku, qty: 0 });
    assert.equal(zero.body.isInStock, false);
    assert.equal((await stock(p.id))?.isInStock, false);
    const one = await put({ sku: p.sku, qty: 1 });
    assert.equal(one.body.isInStock, true);
    assert.equal((await stock(p.id))?.isInStock, true);
  });

  test('an explicit isInStock wins over the default', async () => {
    const p = await newProduct();
    const r1 = await put({ sku: p.sku, qty: 5, isInStock: false });
    assert.equal(r1.body.isInStock, false);
    const r2 = await put({ sku: p.sku, qty: 0, isInStock: true });
    assert.equal(r2.body.isInStock, true);
    assert.deepEqual([(await stock(p.id))?.qty, (await stock(p.id))?.isInStock], [0, true]);
  });

  test('an update with only isInStock keeps qty', async () => {
    const p = await newProduct(12);
    const r = await put({ sku: p.sku, isInStock: false });
    assert.equal(r.status, 200, r.text);
    assert.deepEqual(r.body, { sku: p.sku, qty: 12, isInStock: false, manageStock: true, previousQty: 12, success: true });
    const row = await stock(p.id);
    assert.equal(row?.qty, 12);
    assert.equal(row?.isInStock, false);
  });

  test('an update with only isInStock on a product without stock creates the row with qty 0', async () => {
    const p = await newProductWithoutStock();
    const r = await put({ sku: p.sku, isInStock: true });
    assert.equal(r.status, 200, r.text);
    assert.deepEqual(r.body, { sku: p.sku, qty: 0, isInStock: true, manageStock: true, previousQty: 0, success: true });
  });

  test('manageStock is stored when sent and defaults to true when omitted', async () => {
    const p = await newProduct(3);
    const off = await put({ sku: p.sku, manageStock: false });
    assert.equal(off.body.manageStock, false);
    assert.equal((await stock(p.id))?.manageStock, false);
    const again = await put({ sku: p.sku, qty: 4 });
    assert.equal(again.body.manageStock, true);
    assert.equal((await stock(p.id))?.manageStock, true);
  });

  test('the SKU is matched case-insensitively; the reply names the stored SKU', async () => {
    const p = await newProduct(undefined, `Mixed-Case-${Date.now()}`);
    const r = await put({ sku: p.sku.toUpperCase(), qty: 7 });
    assert.equal(r.status, 200, r.text);
    assert.equal(r.body.sku, p.sku);
    assert.equal((await stock(p.id))?.qty, 7);
  });

  test('qty 0 and qty 99,999,999 are accepted', async () => {
    const p = await newProduct();
    assert.equal((await put({ sku: p.sku, qty: 99_999_999 })).body.qty, 99_999_999);
    assert.equal((await put({ sku: p.sku, qty: 0 })).body.qty, 0);
  });

  test('extended keys are stored and echoed; qty stays when not sent', async () => {
    const p = await newProduct(40);
    const r = await put({
      sku: p.sku,
      minSaleQty: 2,
      maxSaleQty: 10,
      qtyIncrements: 2,
      backorders: 1,
      minQty: -5,
      notifyStockQty: 3,
      useConfigMinQty: false,
    });
    assert.equal(r.status, 200, r.text);
    assert.deepEqual(r.body, {
      sku: p.sku,
      qty: 40,
      isInStock: true,
      manageStock: true,
      previousQty: 40,
      success: true,
      minSaleQty: 2,
      maxSaleQty: 10,
      qtyIncrements: 2,
      backorders: 1,
      minQty: -5,
      notifyStockQty: 3,
      useConfigMinQty: false,
    });
    const row = await stock(p.id);
    assert.deepEqual(
      {
        qty: row?.qty,
        minSaleQty: row?.minSaleQty,
        maxSaleQty: row?.maxSaleQty,
        qtyIncrements: row?.qtyIncrements,
        backorders: row?.backorders,
        minQty: row?.minQty,
        notifyStockQty: row?.notifyStockQty,
      },
      { qty: 40, minSaleQty: 2, maxSaleQty: 10, qtyIncrements: 2, backorders: 1, minQty: -5, notifyStockQty: 3 },
    );
  });

  test('null clears maxSaleQty; useConfig flags reset their field; enableQtyIncrements false clears increments', async () => {
    const p = await newProduct(40);
    await put({ sku: p.sku, minSaleQty: 3, maxSaleQty: 30, qtyIncrements: 3, backorders: 2 });
    const r = await put({ sku: p.sku, maxSaleQty: null, useConfigMinSaleQty: true, useConfigBackorders: true, enableQtyIncrements: false });
    assert.equal(r.status, 200, r.text);
    assert.equal(r.body.maxSaleQty, undefined);
    assert.equal(r.body.useConfigMinSaleQty, true);
    assert.equal(r.body.enableQtyIncrements, false);
    const row = await stock(p.id);
    assert.deepEqual(
      {
        maxSaleQty: row?.maxSaleQty,
        minSaleQty: row?.minSaleQty,
        backorders: row?.backorders,
        qtyIncrements: row?.qtyIncrements,
        qty: row?.qty,
      },
      { maxSaleQty: null, minSaleQty: 1, backorders: 0, qtyIncrements: null, qty: 40 },
    );
  });

  test('a qty update of a stored row that breaks a rule (written by an import, say) is refused as before and changes nothing', async () => {
    const p = await newProduct(10);
    await t.database.db.update(stockItems).set({ minQty: -3, backorders: 0 }).where(eq(stockItems.productId, p.id));
    const r = await put({ sku: p.sku, qty: 4 });
    assert.equal(r.status, 400, r.text);
    assert.match(r.body.message, /minQty can be negative only when backorders are allowed/);
    assert.equal((await stock(p.id))?.qty, 10);
    const fixed = await put({ sku: p.sku, qty: 4, backorders: 1 });
    assert.equal(fixed.status, 200, fixed.text);
    assert.deepEqual([fixed.body.previousQty, fixed.body.qty], [10, 4]);
  });

  test('isInStock defaults to qty > 0 whatever minQty is (the spec); minQty only limits what can be sold', async () => {
    const p = await newProduct();
    await put({ sku: p.sku, minQty: 5 });
    for (const [qty, inStock] of [
      [5, true],
      [3, true],
      [0, false],
      [6, true],
    ] as const) {
      const r = await put({ sku: p.sku, qty });
      assert.equal(r.status, 200, r.text);
      assert.equal(r.body.isInStock, inStock, `qty ${qty}`);
      assert.equal((await stock(p.id))?.isInStock, inStock);
    }
    const bulk = await putBulk({ items: [{ sku: p.sku, qty: 2 }] });
    assert.equal(bulk.body.results[0].isInStock, true);
  });

  test('rules between stock keys are a 400 naming the field, and change nothing', async () => {
    const p = await newProduct(9);
    const before = await stock(p.id);
    const cases: [Record<string, unknown>, string][] = [
      [{ minQty: -1 }, 'minQty'],
      [{ minSaleQty: 5, maxSaleQty: 4 }, 'maxSaleQty'],
      [{ maxSaleQty: 0 }, 'maxSaleQty'],
      [{ minSaleQty: 0 }, 'minSaleQty'],
      [{ backorders: 3 }, 'backorders'],
      [{ backorders: -1 }, 'backorders'],
      [{ qtyIncrements: 0 }, 'qtyIncrements'],
      [{ isQtyDecimal: true }, 'isQtyDecimal'],
      [{ minQty: 1, useConfigMinQty: true }, 'useConfigMinQty'],
      [{ enableQtyIncrements: true }, 'qtyIncrements'],
      [{ qtyIncrements: 2, enableQtyIncrements: false }, 'enableQtyIncrements'],
      [{ qty: 5, minQty: 100_000_000 }, 'minQty'],
    ];
    for (const [body, field] of cases) {
      const r = await put({ sku: p.sku, ...body });
      assertError(r, 400, 'bad_request', new RegExp(field));
      assert.equal(r.body.details?.field, field, JSON.stringify(body));
      await assertUnchanged(p.id, before);
    }
  });

  test('no stock field is a 400 and changes nothing', async () => {
    const p = await newProduct(8);
    const before = await stock(p.id);
    assertError(await put({ sku: p.sku }), 400, 'bad_request', /stock field/);
    assertError(await put({ sku: p.sku, unknownKey: 5 }), 400, 'bad_request');
    await assertUnchanged(p.id, before);
  });

  test('decimal, negative, too large and non-numeric qty are a 400 naming qty and change nothing', async () => {
    const p = await newProduct(8);
    const before = await stock(p.id);
    for (const qty of [1.5, -1, 100_000_000, '5', null, true, [3], { n: 1 }]) {
      const r = await put({ sku: p.sku, qty });
      assertError(r, 400, 'bad_request', /qty/);
      assert.equal(r.body.details?.field, 'qty');
      await assertUnchanged(p.id, before);
    }
  });

  test('wrong types of the other keys are a 400', async () => {
    const p = await newProduct(8);
    const before = await stock(p.id);
    for (const body of [{ isInStock: 'yes' }, { manageStock: 1 }, { minSaleQty: 1.5 }, { backorders: '1' }, { useConfigMinQty: 'true' }]) {
      assertError(await put({ sku: p.sku, ...body }), 400, 'bad_request', new RegExp(Object.keys(body)[0]));
    }
    await assertUnchanged(p.id, before);
  });

  test('a missing or wrongly typed SKU is a 400; an unknown SKU is a 404', async () => {
    assertError(await put({ qty: 5 }), 400, 'bad_request', /sku/);
    assertError(await put({ sku: 42, qty: 5 }), 400, 'bad_request', /sku/);
    assertError(await put({ sku: '', qty: 5 }), 400, 'bad_request', /sku/);
    assertError(await put({ sku: 'no-such-sku-anywhere', qty: 5 }), 404, 'not_found', /no-such-sku-anywhere/);
  });

  test('a malformed, empty or non-object body is a 400', async () => {
    const p = await newProduct(8);
    const before = await stock(p.id);
    const raw = (payload: string) =>
      t.req('PUT', `${API}/inventory`, { token: admin, raw: payload, headers: { 'content-type': 'application/json' } });
    assertError(await raw(`{"sku": "${p.sku}", "qty": `), 400, 'bad_request', /Invalid JSON/);
    assertError(await raw(''), 400, 'bad_request');
    assertError(await put([{ sku: p.sku, qty: 1 }]), 400, 'bad_request');
    assertError(await put('text'), 400, 'bad_request');
    await assertUnchanged(p.id, before);
  });

  test('access: anonymous 401, customer 403, API users without inventory/write 403, with it 200', async () => {
    const p = await newProduct(8);
    const before = await stock(p.id);
    assertError(await put({ sku: p.sku, qty: 1 }, ''), 401, 'unauthorized');
    assertError(await put({ sku: p.sku, qty: 1 }, customer), 403, 'forbidden');
    assertError(await put({ sku: p.sku, qty: 1 }, tok.products), 403, 'forbidden');
    assertError(await put({ sku: p.sku, qty: 1 }, tok.read), 403, 'forbidden');
    await assertUnchanged(p.id, before);
    const ok = await put({ sku: p.sku, qty: 2 }, tok.write);
    assert.equal(ok.status, 200, ok.text);
    assert.equal((await stock(p.id))?.qty, 2);
  });
});

describe('PUT /inventory/bulk', () => {
  test('applies every item and answers with the bulk shape', async () => {
    const [a, b, c] = [await newProduct(), await newProduct(5), await newProduct(9)];
    const r = await putBulk({
      items: [
        { sku: a.sku, qty: 3 },
        { sku: b.sku, qty: 0 },
        { sku: c.sku, isInStock: false },
      ],
    });
    assert.equal(r.status, 200, r.text);
    assert.deepEqual(r.body, {
      sku: 'bulk',
      qty: 0,
      success: true,
      results: [
        { sku: a.sku, qty: 3, isInStock: true, manageStock: true, previousQty: 0, success: true },
        { sku: b.sku, qty: 0, isInStock: false, manageStock: true, previousQty: 5, success: true },
        { sku: c.sku, qty: 9, isInStock: false, manageStock: true, previousQty: 9, success: true },
      ],
    });
    assert.deepEqual(
      [await stock(a.id), await stock(b.id), await stock(c.id)].map((s) => [s?.qty, s?.isInStock]),
      [
        [3, true],
        [0, false],
        [9, false],
      ],
    );
  });

  test('an item may carry manageStock and extended keys; a SKU named twice sees the first result', async () => {
    const p = await newProduct(10);
    const r = await putBulk({
      items: [
        { sku: p.sku, qty: 4, manageStock: false },
        { sku: p.sku, qty: 6, backorders: 1 },
      ],
    });
    assert.equal(r.status, 200, r.text);
    assert.deepEqual(
      r.body.results.map((x: Record<string, unknown>) => [x.previousQty, x.qty, x.manageStock]),
      [
        [10, 4, false],
        [4, 6, true],
      ],
    );
    const row = await stock(p.id);
    assert.deepEqual([row?.qty, row?.backorders, row?.manageStock], [6, 1, true]);
  });

  test('100 items are accepted', async () => {
    const ps = [await newProduct(), await newProduct(), await newProduct(), await newProduct()];
    const items = Array.from({ length: 100 }, (_, i) => ({ sku: ps[i % 4].sku, qty: i }));
    const r = await putBulk({ items });
    assert.equal(r.status, 200, r.text);
    assert.equal(r.body.results.length, 100);
    assert.deepEqual(await Promise.all(ps.map(async (p) => (await stock(p.id))?.qty)), [96, 97, 98, 99]);
  });

  test('an empty list and more than 100 items are a 400, and nothing is applied', async () => {
    const p = await newProduct(7);
    const before = await stock(p.id);
    assertError(await putBulk({ items: [] }), 400, 'bad_request', /items/);
    const r = await putBulk({ items: Array.from({ length: 101 }, () => ({ sku: p.sku, qty: 1 })) });
    assertError(r, 400, 'bad_request');
    assert.equal(r.body.message, 'Maximum 100 items per bulk update');
    assertError(await putBulk({}), 400, 'bad_request', /items/);
    assertError(await putBulk({ items: { sku: p.sku, qty: 1 } }), 400, 'bad_request', /items/);
    await assertUnchanged(p.id, before);
  });

  test('one unknown SKU: nothing is applied and the error names its index', async () => {
    const [a, b] = [await newProduct(1), await newProduct(2)];
    const before = [await stock(a.id), await stock(b.id)];
    const r = await putBulk({
      items: [
        { sku: a.sku, qty: 50 },
        { sku: b.sku, qty: 60 },
        { sku: 'bulk-unknown-sku', qty: 1 },
      ],
    });
    assertError(r, 400, 'bad_request', /^Item at index 2: .*bulk-unknown-sku/);
    assert.equal(r.body.details?.index, 2);
    await assertUnchanged(a.id, before[0]);
    await assertUnchanged(b.id, before[1]);
  });

  test('a missing SKU or a bad qty: nothing is applied and the error names the index and the field', async () => {
    const [a, b] = [await newProduct(1), await newProduct(2)];
    const before = [await stock(a.id), await stock(b.id)];
    const cases: [unknown, RegExp][] = [
      [{ qty: 5 }, /^Item at index 1: sku is required/],
      [{ sku: b.sku, qty: 1.5 }, /^Item at index 1: qty/],
      [{ sku: b.sku, qty: -1 }, /^Item at index 1: qty/],
      [{ sku: b.sku, qty: 100_000_000 }, /^Item at index 1: qty/],
      [{ sku: b.sku, qty: '5' }, /^Item at index 1: qty/],
      [{ sku: b.sku }, /^Item at index 1: At least one stock field/],
      [{ sku: 7, qty: 1 }, /^Item at index 1: sku/],
      ['not an object', /^Item at index 1:/],
    ];
    for (const [item, message] of cases) {
      const r = await putBulk({ items: [{ sku: a.sku, qty: 70 }, item] });
      assertError(r, 400, 'bad_request', message);
      assert.equal(r.body.details?.index, 1, r.text);
    }
    await assertUnchanged(a.id, before[0]);
    await assertUnchanged(b.id, before[1]);
  });

  test('an item refused while applying rolls back the items before it', async () => {
    const [a, b, c] = [await newProduct(1), await newProduct(2), await newProduct(3)];
    const before = [await stock(a.id), await stock(b.id), await stock(c.id)];
    const r = await putBulk({
      items: [
        { sku: a.sku, qty: 11 },
        { sku: b.sku, qty: 22 },
        { sku: c.sku, minQty: -1 },
      ],
    });
    assertError(r, 400, 'bad_request', /^Item at index 2: minQty/);
    await assertUnchanged(a.id, before[0]);
    await assertUnchanged(b.id, before[1]);
    await assertUnchanged(c.id, before[2]);
  });

  test('access: anonymous 401, customer 403, API users without inventory/write 403, with it 200', async () => {
    const p = await newProduct(8);
    const before = await stock(p.id);
    const body = { items: [{ sku: p.sku, qty: 1 }] };
    assertError(await putBulk(body, ''), 401, 'unauthorized');
    assertError(await putBulk(body, customer), 403, 'forbidden');
    assertError(await putBulk(body, tok.products), 403, 'forbidden');
    assertError(await putBulk(body, tok.read), 403, 'forbidden');
    await assertUnchanged(p.id, before);
    const ok = await putBulk(body, tok.write);
    assert.equal(ok.status, 200, ok.text);
    assert.equal((await stock(p.id))?.qty, 1);
  });
});

describe('GraphQL updateStock and updateStockBulk', () => {
  async function gql(query: string, variables: Record<string, unknown> = {}, token?: string) {
    const r = await t.req('POST', '/api/graphql', { token, body: { query, variables } });
    assert.equal(r.status, 200, r.text);
    return r.body as { data: Record<string, any> | null; errors?: { message: string; extensions: { code: string; status: number } }[] };
  }
  const ONE =
    'mutation ($input: updateStockInput!) { updateStock(input: $input) { stock { sku qty previousQty success isInStock manageStock } } }';
  const BULK = 'mutation ($input: updateStockBulkInput!) { updateStockBulk(input: $input) { stock { sku qty success results } } }';

  test('updateStock sets the stock as PUT /inventory does', async () => {
    const p = await newProduct(4);
    const r = await gql(ONE, { input: { sku: p.sku, qty: 15 } }, admin);
    assert.equal(r.errors, undefined, JSON.stringify(r.errors));
    assert.deepEqual(r.data?.updateStock.stock, { sku: p.sku, qty: 15, previousQty: 4, success: true, isInStock: true, manageStock: true });
    assert.equal((await stock(p.id))?.qty, 15);
    const only = await gql(ONE, { input: { sku: p.sku, isInStock: false } }, tok.write);
    assert.deepEqual(only.data?.updateStock.stock, {
      sku: p.sku,
      qty: 15,
      previousQty: 15,
      success: true,
      isInStock: false,
      manageStock: true,
    });
  });

  test('updateStock without a token, as a customer or without the grant is refused and changes nothing', async () => {
    const p = await newProduct(4);
    const before = await stock(p.id);
    const anon = await gql(ONE, { input: { sku: p.sku, qty: 1 } });
    assert.equal(anon.data?.updateStock, null);
    assert.equal(anon.errors?.[0].extensions.status, 401);
    for (const token of [customer, tok.products, tok.read]) {
      const r = await gql(ONE, { input: { sku: p.sku, qty: 1 } }, token);
      assert.equal(r.data?.updateStock, null);
      assert.equal(r.errors?.[0].extensions.status, 403);
    }
    await assertUnchanged(p.id, before);
  });

  test('updateStock refuses a bad qty, no stock field and an unknown SKU', async () => {
    const p = await newProduct(4);
    const before = await stock(p.id);
    const neg = await gql(ONE, { input: { sku: p.sku, qty: -1 } }, admin);
    assert.equal(neg.errors?.[0].extensions.status, 400);
    assert.match(neg.errors![0].message, /qty/);
    const big = await gql(ONE, { input: { sku: p.sku, qty: 100_000_000 } }, admin);
    assert.equal(big.errors?.[0].extensions.status, 400);
    const dec = await gql(ONE, { input: { sku: p.sku, qty: 1.5 } }, admin);
    assert.ok(dec.errors?.length);
    const none = await gql(ONE, { input: { sku: p.sku } }, admin);
    assert.equal(none.errors?.[0].extensions.status, 400);
    const unknown = await gql(ONE, { input: { sku: 'gql-unknown-sku', qty: 1 } }, admin);
    assert.equal(unknown.errors?.[0].extensions.status, 404);
    await assertUnchanged(p.id, before);
  });

  test('updateStockBulk applies all items in one transaction', async () => {
    const [a, b] = [await newProduct(1), await newProduct()];
    const r = await gql(
      BULK,
      {
        input: {
          items: [
            { sku: a.sku, qty: 8 },
            { sku: b.sku, qty: 0 },
          ],
        },
      },
      admin,
    );
    assert.equal(r.errors, undefined, JSON.stringify(r.errors));
    assert.deepEqual(r.data?.updateStockBulk.stock, {
      sku: 'bulk',
      qty: 0,
      success: true,
      results: [
        { sku: a.sku, qty: 8, previousQty: 1, isInStock: true, manageStock: true, success: true },
        { sku: b.sku, qty: 0, previousQty: 0, isInStock: false, manageStock: true, success: true },
      ],
    });
  });

  test('updateStockBulk: one bad item applies nothing; no token or no grant is refused', async () => {
    const [a, b] = [await newProduct(1), await newProduct(2)];
    const before = [await stock(a.id), await stock(b.id)];
    const bad = await gql(
      BULK,
      {
        input: {
          items: [
            { sku: a.sku, qty: 8 },
            { sku: b.sku, qty: -3 },
          ],
        },
      },
      admin,
    );
    assert.equal(bad.errors?.[0].extensions.status, 400);
    assert.match(bad.errors![0].message, /^Item at index 1: qty/);
    const unknown = await gql(
      BULK,
      {
        input: {
          items: [
            { sku: a.sku, qty: 8 },
            { sku: 'gql-bulk-unknown', qty: 3 },
          ],
        },
      },
      admin,
    );
    assert.match(unknown.errors![0].message, /^Item at index 1:/);
    const anon = await gql(BULK, { input: { items: [{ sku: a.sku, qty: 8 }] } });
    assert.equal(anon.errors?.[0].extensions.status, 401);
    const cust = await gql(BULK, { input: { items: [{ sku: a.sku, qty: 8 }] } }, customer);
    assert.equal(cust.errors?.[0].extensions.status, 403);
    const noGrant = await gql(BULK, { input: { items: [{ sku: a.sku, qty: 8 }] } }, tok.products);
    assert.equal(noGrant.errors?.[0].extensions.status, 403);
    await assertUnchanged(a.id, before[0]);
    await assertUnchanged(b.id, before[1]);
  });
});

describe('stock service', () => {
  const ctx = () => t.systemCtx();

  async function rejects(p: Promise<unknown>, status: number, reason?: string): Promise<AppError> {
    try {
      await p;
    } catch (err) {
      assert.ok(err instanceof AppError, String(err));
      assert.equal(err.status, status, err.message);
      if (reason) assert.equal(err.reason, reason);
      return err;
    }
    assert.fail('expected a rejection');
  }

  test('setStock creates and updates by product id; an unknown product is a 404', async () => {
    const p = await newProduct();
    const created = await setStock(ctx(), p.id, { qty: 6 });
    assert.deepEqual(created, { sku: p.sku, qty: 6, isInStock: true, manageStock: true, previousQty: 0, success: true });
    const updated = await setStock(ctx(), p.id, { qty: 2, maxSaleQty: 5 });
    assert.deepEqual(updated, { sku: p.sku, qty: 2, isInStock: true, manageStock: true, previousQty: 6, success: true, maxSaleQty: 5 });
    await rejects(setStock(ctx(), 987654, { qty: 1 }), 404);
    await rejects(setStock(ctx(), p.id, {}), 400);
    await rejects(setStock(ctx(), p.id, { qty: 1.5 }), 400);
    await rejects(setStock(ctx(), p.id, { qty: '3' as unknown as number }), 400);
    assert.equal((await stock(p.id))?.qty, 2);
  });

  test('reserveStock decrements managed stock and marks it out of stock at 0', async () => {
    const p = await newProduct(5);
    await reserveStock(ctx(), [{ productId: p.id, qty: 2 }]);
    assert.deepEqual([(await stock(p.id))?.qty, (await stock(p.id))?.isInStock], [3, true]);
    await reserveStock(ctx(), [
      { productId: p.id, qty: 1 },
      { productId: p.id, qty: 2 },
    ]);
    assert.deepEqual([(await stock(p.id))?.qty, (await stock(p.id))?.isInStock], [0, false]);
  });

  test('reserveStock marks the item out of stock when qty falls to minQty', async () => {
    const p = await newProduct(10);
    await put({ sku: p.sku, minQty: 3 });
    await reserveStock(ctx(), [{ productId: p.id, qty: 6 }]);
    assert.deepEqual([(await stock(p.id))?.qty, (await stock(p.id))?.isInStock], [4, true]);
    await reserveStock(ctx(), [{ productId: p.id, qty: 1 }]);
    assert.deepEqual([(await stock(p.id))?.qty, (await stock(p.id))?.isInStock], [3, false]);
  });

  test('reserveStock refuses more than there is with 409 OUT_OF_STOCK naming the SKU, and changes nothing', async () => {
    const [a, b] = [await newProduct(5), await newProduct(2)];
    const before = [await stock(a.id), await stock(b.id)];
    const err = await rejects(
      withTx(ctx(), (tx) =>
        reserveStock(tx, [
          { productId: a.id, qty: 4 },
          { productId: b.id, qty: 3 },
        ]),
      ),
      409,
      'OUT_OF_STOCK',
    );
    assert.match(err.message, new RegExp(b.sku));
    assert.deepEqual(err.details, { productId: b.id, sku: b.sku, requested: 3, available: 2 });
    await assertUnchanged(a.id, before[0]);
    await assertUnchanged(b.id, before[1]);
  });

  test('reserveStock refuses an item marked out of stock even with qty left', async () => {
    const p = await newProduct(5);
    await put({ sku: p.sku, isInStock: false });
    const err = await rejects(reserveStock(ctx(), [{ productId: p.id, qty: 1 }]), 409, 'OUT_OF_STOCK');
    assert.match(err.message, /out of stock/);
    assert.equal((await stock(p.id))?.qty, 5);
  });

  test('reserveStock refuses a qty that is not a positive integer with 400', async () => {
    const p = await newProduct(5);
    for (const qty of [0, -1, 1.5, Number.NaN, 100_000_000]) {
      await rejects(reserveStock(ctx(), [{ productId: p.id, qty }]), 400);
    }
    await rejects(reserveStock(ctx(), [{ productId: 0, qty: 1 }]), 400);
    assert.equal((await stock(p.id))?.qty, 5);
  });

  test('with backorders qty may go below 0 and the item stays in stock', async () => {
    const p = await newProduct(1);
    await put({ sku: p.sku, backorders: 1 });
    await reserveStock(ctx(), [{ productId: p.id, qty: 3 }]);
    assert.deepEqual([(await stock(p.id))?.qty, (await stock(p.id))?.isInStock], [-2, true]);
    await releaseStock(ctx(), [{ productId: p.id, qty: 3 }]);
    assert.deepEqual([(await stock(p.id))?.qty, (await stock(p.id))?.isInStock], [1, true]);
  });

  test('products with manageStock false are neither decremented nor refused', async () => {
    const unmanaged = await newProduct(2);
    await put({ sku: unmanaged.sku, manageStock: false });
    await reserveStock(ctx(), [{ productId: unmanaged.id, qty: 5 }]);
    assert.equal((await stock(unmanaged.id))?.qty, 2);
    await releaseStock(ctx(), [{ productId: unmanaged.id, qty: 5 }]);
    assert.equal((await stock(unmanaged.id))?.qty, 2);
  });

  test('a product without a stock row is out of stock: reserveStock refuses it with 409 and takes nothing from the others', async () => {
    const none = await newProductWithoutStock();
    const other = await newProduct(10);
    const before = await stock(other.id);
    const err = await rejects(
      reserveStock(ctx(), [
        { productId: other.id, qty: 2 },
        { productId: none.id, qty: 1 },
      ]),
      409,
      'OUT_OF_STOCK',
    );
    assert.match(err.message, new RegExp(`'${none.sku}' is out of stock`));
    assert.deepEqual(err.details, { productId: none.id, sku: none.sku, requested: 1, available: 0 });
    assert.equal(await stock(none.id), undefined, 'no row is made');
    await assertUnchanged(other.id, before);
    // an unknown product is refused the same way
    await rejects(reserveStock(ctx(), [{ productId: 2_000_000_000, qty: 1 }]), 409, 'OUT_OF_STOCK');
    // nothing was taken from it, so a release leaves it alone (no stock appears from nowhere)
    await releaseStock(ctx(), [{ productId: none.id, qty: 3 }]);
    assert.equal(await stock(none.id), undefined);
  });

  test('reserveStock takes only the salable qty (qty - minQty) and the item goes out of stock at minQty', async () => {
    const p = await newProduct(10);
    await put({ sku: p.sku, minQty: 5 });
    const before = await stock(p.id);
    const err = await rejects(reserveStock(ctx(), [{ productId: p.id, qty: 8 }]), 409, 'OUT_OF_STOCK');
    assert.deepEqual(err.details, { productId: p.id, sku: p.sku, requested: 8, available: 5 });
    assert.match(err.message, /requested 8, available 5/);
    await rejects(
      reserveStock(ctx(), [
        { productId: p.id, qty: 3 },
        { productId: p.id, qty: 3 },
      ]),
      409,
      'OUT_OF_STOCK',
    );
    await assertUnchanged(p.id, before);
    await reserveStock(ctx(), [{ productId: p.id, qty: 5 }]);
    assert.deepEqual([(await stock(p.id))?.qty, (await stock(p.id))?.isInStock], [5, false]);
    await rejects(reserveStock(ctx(), [{ productId: p.id, qty: 1 }]), 409, 'OUT_OF_STOCK');
    assert.equal((await stock(p.id))?.qty, 5);
  });

  test('an item in stock at its minQty (isInStock sent or defaulted) has nothing to sell', async () => {
    const p = await newProduct();
    await put({ sku: p.sku, minQty: 4 });
    const r = await put({ sku: p.sku, qty: 4 });
    assert.equal(r.body.isInStock, true);
    const err = await rejects(reserveStock(ctx(), [{ productId: p.id, qty: 1 }]), 409, 'OUT_OF_STOCK');
    assert.deepEqual(err.details, { productId: p.id, sku: p.sku, requested: 1, available: 0 });
    const [line] = await checkAvailability(ctx(), [{ productId: p.id, qty: 1 }]);
    assert.deepEqual([line.available, line.reason], [false, 'INSUFFICIENT_QTY']);
    assert.equal((await stock(p.id))?.qty, 4);
  });

  test('with backorders qty may fall to -99,999,999 and no further', async () => {
    const p = await newProduct(0);
    await put({ sku: p.sku, backorders: 1, isInStock: true });
    await reserveStock(ctx(), [{ productId: p.id, qty: 99_999_999 }]);
    assert.deepEqual([(await stock(p.id))?.qty, (await stock(p.id))?.isInStock], [-99_999_999, true]);
    const before = await stock(p.id);
    await rejects(reserveStock(ctx(), [{ productId: p.id, qty: 1 }]), 409, 'OUT_OF_STOCK');
    await assertUnchanged(p.id, before);
  });

  test('releaseStock returns qty and puts the item back in stock above minQty', async () => {
    const p = await newProduct(3);
    await put({ sku: p.sku, minQty: 1 });
    await reserveStock(ctx(), [{ productId: p.id, qty: 2 }]);
    assert.deepEqual([(await stock(p.id))?.qty, (await stock(p.id))?.isInStock], [1, false]);
    await put({ sku: p.sku, qty: 0 });
    assert.deepEqual([(await stock(p.id))?.qty, (await stock(p.id))?.isInStock], [0, false]);
    await releaseStock(ctx(), [{ productId: p.id, qty: 1 }]);
    assert.deepEqual([(await stock(p.id))?.qty, (await stock(p.id))?.isInStock], [1, false]);
    await releaseStock(ctx(), [{ productId: p.id, qty: 1 }]);
    assert.deepEqual([(await stock(p.id))?.qty, (await stock(p.id))?.isInStock], [2, true]);
  });

  test('releaseStock leaves an item an admin took out of stock out of stock', async () => {
    const p = await newProduct(10);
    await put({ sku: p.sku, isInStock: false });
    await releaseStock(ctx(), [{ productId: p.id, qty: 2 }]);
    assert.deepEqual([(await stock(p.id))?.qty, (await stock(p.id))?.isInStock], [12, false]);
    await rejects(releaseStock(ctx(), [{ productId: p.id, qty: 0 }]), 400);
  });

  test('releaseStock refuses to raise qty above 99,999,999 with 422 STOCK_QTY_LIMIT and changes nothing', async () => {
    const full = await newProduct(99_999_999);
    const other = await newProduct(5);
    const before = [await stock(full.id), await stock(other.id)];
    for (const qty of [99_999_999, 1]) {
      const err = await rejects(releaseStock(ctx(), [{ productId: full.id, qty }]), 422, 'STOCK_QTY_LIMIT');
      assert.equal(err.error, 'unprocessable_entity');
      assert.match(err.message, new RegExp(full.sku));
      assert.deepEqual(err.details, { productId: full.id, sku: full.sku, qty: 99_999_999, released: qty, max: 99_999_999 });
    }
    // the other line of the refused call is rolled back with it
    await rejects(
      releaseStock(ctx(), [
        { productId: other.id, qty: 3 },
        { productId: full.id, qty: 1 },
      ]),
      422,
      'STOCK_QTY_LIMIT',
    );
    await assertUnchanged(full.id, before[0]);
    await assertUnchanged(other.id, before[1]);
  });

  test('releaseStock fills up to exactly 99,999,999; repeated releases never overflow', async () => {
    const p = await newProduct(0);
    await releaseStock(ctx(), [{ productId: p.id, qty: 99_999_989 }]);
    await releaseStock(ctx(), [{ productId: p.id, qty: 9 }]);
    await releaseStock(ctx(), [{ productId: p.id, qty: 1 }]);
    assert.equal((await stock(p.id))?.qty, 99_999_999);
    for (let i = 0; i < 25; i++) await rejects(releaseStock(ctx(), [{ productId: p.id, qty: 99_999_999 }]), 422, 'STOCK_QTY_LIMIT');
    assert.equal((await stock(p.id))?.qty, 99_999_999);
    const r = await put({ sku: p.sku, isInStock: true });
    assert.equal(r.body.qty, 99_999_999, 'the stored qty is still one PUT /inventory accepts');
  });

  test('checkAvailability reports each line without changing anything', async () => {
    const plenty = await newProduct(10);
    await put({ sku: plenty.sku, minSaleQty: 2, maxSaleQty: 8, qtyIncrements: 2 });
    const rules = await newProduct(100);
    await put({ sku: rules.sku, minSaleQty: 2, maxSaleQty: 8, qtyIncrements: 2 });
    const few = await newProduct(3);
    const out = await newProduct(0);
    const back = await newProduct(0);
    await put({ sku: back.sku, backorders: 1, isInStock: true });
    const none = await newProductWithoutStock();
    const threshold = await newProduct(10);
    await put({ sku: threshold.sku, minQty: 5 });
    const before = await stock(plenty.id);
    const res = await checkAvailability(ctx(), [
      { productId: plenty.id, qty: 4 },
      { productId: rules.id, qty: 1 },
      { productId: rules.id, qty: 10 },
      { productId: rules.id, qty: 3 },
      { productId: few.id, qty: 4 },
      { productId: out.id, qty: 1 },
      { productId: back.id, qty: 50 },
      { productId: none.id, qty: 7 },
      { productId: few.id, qty: 0 },
      { productId: threshold.id, qty: 6 },
      { productId: threshold.id, qty: 5 },
    ]);
    assert.deepEqual(
      res.map((r) => [r.available, r.reason]),
      [
        [true, undefined],
        [false, 'MIN_SALE_QTY'],
        [false, 'MAX_SALE_QTY'],
        [false, 'QTY_INCREMENTS'],
        [false, 'INSUFFICIENT_QTY'],
        [false, 'OUT_OF_STOCK'],
        [true, undefined],
        [false, 'OUT_OF_STOCK'],
        [false, 'INVALID_QTY'],
        [false, 'INSUFFICIENT_QTY'],
        [false, 'INSUFFICIENT_QTY'],
      ],
    );
    assert.deepEqual(
      { qty: res[7].qty, isInStock: res[7].isInStock, manageStock: res[7].manageStock },
      { qty: 0, isInStock: false, manageStock: true },
      'a product without a stock row reads as a new row: managed, qty 0, out of stock',
    );
    assert.match(res[9].message!, /\(5 available\)/);
    assert.deepEqual(
      {
        qty: res[0].qty,
        isInStock: res[0].isInStock,
        minSaleQty: res[0].minSaleQty,
        maxSaleQty: res[0].maxSaleQty,
        qtyIncrements: res[0].qtyIncrements,
      },
      { qty: 10, isInStock: true, minSaleQty: 2, maxSaleQty: 8, qtyIncrements: 2 },
    );
    assert.equal(res[4].qty, 3);
    await assertUnchanged(plenty.id, before);
  });

  test('checkAvailability allows exactly the salable qty (qty - minQty)', async () => {
    const p = await newProduct(10);
    await put({ sku: p.sku, minQty: 5 });
    const [five] = await checkAvailability(ctx(), [{ productId: p.id, qty: 5 }]);
    assert.equal(five.available, true);
    const [six] = await checkAvailability(ctx(), [{ productId: p.id, qty: 6 }]);
    assert.deepEqual([six.available, six.reason], [false, 'INSUFFICIENT_QTY']);
  });

  test('checkAvailability checks the total of a product over all lines', async () => {
    const p = await newProduct(5);
    const res = await checkAvailability(ctx(), [
      { productId: p.id, qty: 3 },
      { productId: p.id, qty: 3 },
    ]);
    assert.deepEqual(
      res.map((r) => r.reason),
      ['INSUFFICIENT_QTY', 'INSUFFICIENT_QTY'],
    );
  });

  test('stockOf returns the rows of the products that have one', async () => {
    const [a, b] = [await newProduct(4), await newProductWithoutStock()];
    const m = await stockOf(ctx(), [a.id, b.id, a.id, -1]);
    assert.deepEqual([...m.keys()], [a.id]);
    assert.equal(m.get(a.id)?.qty, 4);
    assert.ok(m.get(a.id)?.updatedAt instanceof Date);
    assert.equal((await stockOf(ctx(), [])).size, 0);
  });

  test('stockRulesAt keeps rules per catalog version and sees a change committed anywhere at once', async () => {
    const p = await newProduct(7);
    const version = () => readVersion(t.database.db, 'catalog');
    const v1 = await version();
    assert.equal((await stockRulesAt(ctx(), v1, [p.id])).get(p.id)?.qty, 7);
    // a write that bypasses this process (another instance, a SQL console) moves the version with it
    await t.database.db.update(stockItems).set({ qty: 2 }).where(eq(stockItems.productId, p.id));
    const v2 = await version();
    assert.ok(v2 > v1);
    assert.equal((await stockRulesAt(ctx(), v2, [p.id])).get(p.id)?.qty, 2);
    // products without a stock row are absent, as with stockOf
    const none = await newProductWithoutStock();
    assert.deepEqual([...(await stockRulesAt(ctx(), await version(), [none.id, p.id, 0])).keys()], [p.id]);
  });

  test("stockRulesAt never keeps a transaction's own stock change that is then rolled back", async () => {
    const p = await newProduct(9);
    const v = await readVersion(t.database.db, 'catalog');
    await assert.rejects(
      withTx(ctx(), async (tx) => {
        await tx.db.update(stockItems).set({ qty: 1 }).where(eq(stockItems.productId, p.id));
        assert.equal((await stockRulesAt(tx, v, [p.id])).get(p.id)?.qty, 1);
        throw new Error('roll back');
      }),
      /roll back/,
    );
    assert.equal((await stockRulesAt(ctx(), v, [p.id])).get(p.id)?.qty, 9);
  });
});
