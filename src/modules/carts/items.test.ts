/** Adding every product type to carts: the choices each needs, stock and sale-qty rules, prices and merging. */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { API, buildSecondApp, buildTestApp, type TestApp } from '../../../test/helpers.js';
import { seedCatalogDemo } from '../catalog/demo.js';
import { productIdBySku, productsForSale, type SaleProduct } from '../catalog/sale.js';
import { setConfig } from '../stores/service.js';

let t: TestApp;
let admin: string;
const ids: Record<string, number> = {};
let sale: Map<number, SaleProduct>;

before(async () => {
  t = await buildTestApp();
  admin = await t.tokens.admin();
  const ctx = t.systemCtx();
  await seedCatalogDemo(ctx);
  for (const sku of [
    'TEE',
    'TEE-BLACK-M',
    'TEE-WHITE-L',
    'KIT-TRAVEL',
    'SET-DINNER',
    'EBOOK-CARE',
    'WALLET-LEATHER',
    'MUG-STONEWARE',
    'SHIRT-FLANNEL',
    'SHIRT-OXFORD',
    'BAG-TOTE',
    'BAG-BACKPACK',
    'SCARF-SILK',
    'PLATE-STONEWARE',
    'BOWL-STONEWARE',
    'CANDLE-CEDAR',
  ]) {
    ids[sku] = (await productIdBySku(ctx, sku))!;
  }
  sale = await productsForSale(ctx, Object.values(ids));
});
after(() => t.close());

async function guestCart(): Promise<string> {
  const r = await t.req('POST', `${API}/guest-carts`, { body: {} });
  assert.equal(r.status, 201, r.text);
  return r.body.maskedId;
}

const add = (m: string, body: unknown) => t.req('POST', `${API}/guest-carts/${m}/items`, { body });

function superAttr(parentSku: string, choice: Record<string, string>): Record<string, number> {
  const p = sale.get(ids[parentSku])!;
  const out: Record<string, number> = {};
  for (const a of p.superAttributes) {
    const label = choice[a.code];
    const opt = [...a.options].find(([, l]) => l === label);
    assert.ok(opt, `${a.code} ${label}`);
    out[String(a.id)] = opt[0];
  }
  return out;
}

describe('simple products and custom options', () => {
  test('a product is found by sku (any case) or by productId and lines of the same thing merge', async () => {
    const m = await guestCart();
    let r = await add(m, { sku: 'candle-cedar', qty: 1 });
    assert.equal(r.status, 200, r.text);
    r = await add(m, { productId: ids['CANDLE-CEDAR'], qty: 2 });
    assert.equal(r.status, 200, r.text);
    assert.equal(r.body.items.length, 1);
    assert.equal(r.body.items[0].qty, 3);
    assert.equal(r.body.items[0].sku, 'CANDLE-CEDAR');
    assert.equal(r.body.items[0].price, 22);
    assert.equal(r.body.items[0].rowTotal, 66);
    assert.equal(r.body.itemsCount, 1);
    assert.equal(r.body.itemsQty, 3);
  });

  test('required custom options are enforced and priced; different choices make separate lines', async () => {
    const w = sale.get(ids['WALLET-LEATHER'])!;
    const engraving = w.customOptions.find((o) => o.title === 'Engraving')!;
    const box = w.customOptions.find((o) => o.title === 'Gift box')!;
    const withBox = box.values.find((v) => v.title === 'Gift box')!;
    const noBox = box.values.find((v) => v.title === 'No box')!;
    const m = await guestCart();
    let r = await add(m, { sku: 'WALLET-LEATHER' });
    assert.equal(r.status, 400);
    assert.match(r.body.message, /Gift box/);
    r = await add(m, { sku: 'WALLET-LEATHER', options: { [box.id]: 999999 } });
    assert.equal(r.status, 400);
    r = await add(m, { sku: 'WALLET-LEATHER', options: { [box.id]: withBox.id, [engraving.id]: 'x'.repeat(21) } });
    assert.equal(r.status, 400);
    assert.match(r.body.message, /20 characters/);
    r = await add(m, { sku: 'WALLET-LEATHER', options: { 999999: 'x', [box.id]: withBox.id } });
    assert.equal(r.status, 400);
    r = await add(m, { sku: 'WALLET-LEATHER', options: { [box.id]: withBox.id, [engraving.id]: 'J.D.' } });
    assert.equal(r.status, 200, r.text);
    // 39 + 5 engraving + 4 box
    assert.equal(r.body.items[0].price, 48);
    assert.deepEqual(r.body.items[0].options, [
      { label: 'Engraving', value: 'J.D.' },
      { label: 'Gift box', value: 'Gift box' },
    ]);
    r = await add(m, { sku: 'WALLET-LEATHER', options: { [box.id]: String(noBox.id) } });
    assert.equal(r.status, 200, r.text);
    assert.equal(r.body.items.length, 2);
    assert.equal(r.body.items[1].price, 39);
  });

  test('tier prices apply by quantity and special prices apply today', async () => {
    const m = await guestCart();
    let r = await add(m, { sku: 'MUG-STONEWARE', qty: 3 });
    assert.equal(r.body.items[0].price, 12);
    r = await add(m, { sku: 'MUG-STONEWARE', qty: 1 });
    assert.equal(r.body.items[0].price, 10);
    const item = r.body.items[0].id;
    r = await t.req('PUT', `${API}/guest-carts/${m}/items/${item}`, { body: { qty: 8 } });
    assert.equal(r.status, 200, r.text);
    assert.equal(r.body.items[0].price, 9);
    assert.equal(r.body.items[0].rowTotal, 72);
    r = await add(m, { sku: 'SHIRT-OXFORD' });
    assert.equal(r.body.items[1].price, 39);
  });

  test('tier prices for one customer group apply to that group only', async () => {
    await t.req('POST', `${API}/products/${ids['CANDLE-CEDAR']}/tier-prices`, {
      token: admin,
      body: [{ customerGroupId: 1, websiteId: 0, qty: 1, price: 18 }],
    });
    const guest = await guestCart();
    let r = await add(guest, { sku: 'CANDLE-CEDAR' });
    assert.equal(r.body.items[0].price, 22);
    const token = await t.tokens.customer();
    const c = await t.req('POST', `${API}/carts`, { token, body: {} });
    r = await t.req('POST', `${API}/carts/${c.body.id}/items`, { token, body: { sku: 'CANDLE-CEDAR' } });
    assert.equal(r.status, 200, r.text);
    assert.equal(r.body.items[0].price, 18);
    await t.req('DELETE', `${API}/products/${ids['CANDLE-CEDAR']}/tier-prices`, { token: admin });
  });
});

describe('configurable, bundle, grouped and downloadable products', () => {
  test('a configurable needs every attribute; the chosen child sets sku and price', async () => {
    const m = await guestCart();
    let r = await add(m, { sku: 'TEE' });
    assert.equal(r.status, 400);
    assert.match(r.body.message, /choose/i);
    const chosen = superAttr('TEE', { color: 'Black', size: 'M' });
    r = await add(m, { sku: 'TEE', superAttribute: chosen });
    assert.equal(r.status, 200, r.text);
    const item = r.body.items[0];
    assert.equal(item.sku, 'TEE-BLACK-M');
    assert.equal(item.productId, ids.TEE);
    assert.equal(item.productType, 'configurable');
    assert.equal(item.price, 19.9);
    assert.deepEqual(item.options.map((o: { label: string }) => o.label).sort(), ['Color', 'Size']);
    // Maho's form: the attribute ids in `options`
    r = await add(m, { sku: 'TEE', options: chosen });
    assert.equal(r.status, 200, r.text);
    assert.equal(r.body.items.length, 1);
    assert.equal(r.body.items[0].qty, 2);
  });

  test("a configurable's child sku adds the parent with the child's attributes", async () => {
    const m = await guestCart();
    const r = await add(m, { sku: 'TEE-BLACK-M', qty: 2 });
    assert.equal(r.status, 200, r.text);
    assert.equal(r.body.items[0].productId, ids.TEE);
    assert.equal(r.body.items[0].sku, 'TEE-BLACK-M');
  });

  test('an out-of-stock combination is refused', async () => {
    const m = await guestCart();
    const r = await add(m, { sku: 'TEE', superAttribute: superAttr('TEE', { color: 'White', size: 'L' }) });
    assert.equal(r.status, 400);
    assert.match(r.body.message, /stock/i);
    const c = await t.req('GET', `${API}/guest-carts/${m}`);
    assert.equal(c.body.itemsCount, 0);
  });

  test('a bundle takes its selections (defaults when none are sent) and prices them', async () => {
    const kit = sale.get(ids['KIT-TRAVEL'])!;
    const bag = kit.bundleOptions.find((o) => o.title === 'Bag')!;
    const extras = kit.bundleOptions.find((o) => o.title === 'Extras')!;
    const backpack = bag.selections.find((s) => s.productId === ids['BAG-BACKPACK'])!;
    const scarf = extras.selections.find((s) => s.productId === ids['SCARF-SILK'])!;
    const m = await guestCart();
    let r = await add(m, { sku: 'KIT-TRAVEL' });
    assert.equal(r.status, 200, r.text);
    // the default bag: the tote
    assert.equal(r.body.items[0].price, 25);
    r = await add(m, { sku: 'KIT-TRAVEL', bundleOption: { [bag.id]: backpack.id, [extras.id]: [scarf.id] } });
    assert.equal(r.status, 200, r.text);
    assert.equal(r.body.items.length, 2);
    assert.equal(r.body.items[1].price, 149 + 45);
    assert.deepEqual(r.body.items[1].options, [
      { label: 'Bag', value: '1 x Leather Backpack' },
      { label: 'Extras', value: '1 x Silk Scarf' },
    ]);
    r = await add(m, { sku: 'KIT-TRAVEL', bundleOption: { [bag.id]: [backpack.id, bag.selections[0].id] } });
    assert.equal(r.status, 400);
    r = await add(m, { sku: 'KIT-TRAVEL', bundleOption: { [bag.id]: 987654 } });
    assert.equal(r.status, 400);
    r = await add(m, { sku: 'KIT-TRAVEL', bundleOption: { 987654: 1 } });
    assert.equal(r.status, 400);
    r = await add(m, { sku: 'KIT-TRAVEL', bundleOption: { [bag.id]: backpack.id }, bundleOptionQty: { [bag.id]: 2 } });
    assert.equal(r.status, 400, 'the selection qty cannot be changed');
  });

  test('a grouped product adds each chosen child as its own line', async () => {
    const m = await guestCart();
    let r = await add(m, { sku: 'SET-DINNER', superGroup: { [ids['PLATE-STONEWARE']]: 2, [ids['BOWL-STONEWARE']]: 1 } });
    assert.equal(r.status, 200, r.text);
    assert.deepEqual(
      r.body.items.map((i: { sku: string; qty: number }) => [i.sku, i.qty]),
      [
        ['PLATE-STONEWARE', 2],
        ['BOWL-STONEWARE', 1],
      ],
    );
    r = await add(m, { sku: 'SET-DINNER', superGroup: { [ids['CANDLE-CEDAR']]: 1 } });
    assert.equal(r.status, 400);
    r = await add(m, { sku: 'SET-DINNER', superGroup: { [ids['PLATE-STONEWARE']]: 0 } });
    assert.equal(r.status, 400);
    // without a choice: the default quantities (4 of each)
    r = await add(m, { sku: 'SET-DINNER' });
    assert.equal(r.status, 200, r.text);
    assert.equal(r.body.items.length, 3);
    assert.equal(r.body.items.find((i: { sku: string }) => i.sku === 'PLATE-STONEWARE').qty, 6);
  });

  test('a downloadable product needs its links, which add their prices; the cart is virtual', async () => {
    const ebook = sale.get(ids['EBOOK-CARE'])!;
    const epub = ebook.links.find((l) => l.title === 'EPUB edition')!;
    const pdf = ebook.links.find((l) => l.title === 'PDF edition')!;
    const m = await guestCart();
    let r = await add(m, { sku: 'EBOOK-CARE' });
    assert.equal(r.status, 400);
    r = await add(m, { sku: 'EBOOK-CARE', links: [424242] });
    assert.equal(r.status, 400);
    r = await add(m, { sku: 'EBOOK-CARE', links: [epub.id, pdf.id] });
    assert.equal(r.status, 200, r.text);
    assert.equal(r.body.items[0].price, 11);
    assert.equal(r.body.isVirtual, true);
  });
});

describe('refusals', () => {
  test('unknown sku, disabled product, bad qty', async () => {
    const m = await guestCart();
    let r = await add(m, { sku: 'NO-SUCH-SKU' });
    assert.equal(r.status, 400);
    assert.equal(r.body.message, "Product with SKU 'NO-SUCH-SKU' not found");
    r = await add(m, { sku: 'SHIRT-FLANNEL' });
    assert.equal(r.status, 400);
    r = await add(m, {});
    assert.equal(r.status, 400);
    for (const qty of [0, -1, 1.5, 10001, '2']) {
      r = await add(m, { sku: 'CANDLE-CEDAR', qty });
      assert.equal(r.status, 400, `qty ${qty}`);
    }
    r = await add(m, { sku: 12 });
    assert.equal(r.status, 400);
    const c = await t.req('GET', `${API}/guest-carts/${m}`);
    assert.equal(c.body.itemsCount, 0);
  });

  test('stock: more than is left, min and max sale qty', async () => {
    const m = await guestCart();
    await t.req('PUT', `${API}/inventory`, { token: admin, body: { sku: 'BOWL-STONEWARE', qty: 3, minSaleQty: 2, maxSaleQty: 3 } });
    let r = await add(m, { sku: 'BOWL-STONEWARE', qty: 1 });
    assert.equal(r.status, 400);
    assert.match(r.body.message, /fewest/);
    r = await add(m, { sku: 'BOWL-STONEWARE', qty: 2 });
    assert.equal(r.status, 200, r.text);
    r = await add(m, { sku: 'BOWL-STONEWARE', qty: 2 });
    assert.equal(r.status, 400, 'the merged qty of 4 is above both the stock and the maximum');
    const item = (await t.req('GET', `${API}/guest-carts/${m}`)).body.items[0];
    assert.equal(item.qty, 2);
    r = await t.req('PUT', `${API}/guest-carts/${m}/items/${item.id}`, { body: { qty: 5 } });
    assert.equal(r.status, 400);
    await t.req('PUT', `${API}/inventory`, { token: admin, body: { sku: 'BOWL-STONEWARE', qty: 0, isInStock: false } });
    const c = await t.req('GET', `${API}/guest-carts/${m}`);
    assert.equal(c.body.items[0].stockStatus, 'out_of_stock');
    await t.req('PUT', `${API}/inventory`, { token: admin, body: { sku: 'BOWL-STONEWARE', qty: 50, minSaleQty: 1, maxSaleQty: null } });
  });

  test('a stock change made by another instance is judged by the next add at once', async () => {
    const second = await buildSecondApp(t);
    try {
      const m = await guestCart();
      await t.req('PUT', `${API}/inventory`, { token: admin, body: { sku: 'CANDLE-CEDAR', qty: 5 } });
      assert.equal((await add(m, { sku: 'CANDLE-CEDAR', qty: 2 })).status, 200);
      const other = await second.app.inject({
        method: 'PUT',
        url: `${API}/inventory`,
        headers: { authorization: `Bearer ${admin}`, 'content-type': 'application/json' },
        payload: JSON.stringify({ sku: 'CANDLE-CEDAR', qty: 3 }),
      });
      assert.equal(other.statusCode, 200, other.body);
      const r = await add(m, { sku: 'CANDLE-CEDAR', qty: 2 });
      assert.equal(r.status, 400, 'the merged qty of 4 is above the 3 left');
      assert.match(r.body.message, /\(3 available\)/);
      assert.equal((await add(m, { sku: 'CANDLE-CEDAR', qty: 1 })).status, 200);
    } finally {
      await second.app.close();
      await t.req('PUT', `${API}/inventory`, { token: admin, body: { sku: 'CANDLE-CEDAR', qty: 50 } });
    }
  });

  test('a product disabled after it was added shows as out of stock', async () => {
    const m = await guestCart();
    await add(m, { sku: 'PLATE-STONEWARE' });
    await t.req('PUT', `${API}/products/${ids['PLATE-STONEWARE']}`, { token: admin, body: { status: 'disabled' } });
    const c = await t.req('GET', `${API}/guest-carts/${m}`);
    assert.equal(c.body.items[0].stockStatus, 'out_of_stock');
    await t.req('PUT', `${API}/products/${ids['PLATE-STONEWARE']}`, { token: admin, body: { status: 'enabled' } });
  });

  test('the cart has a maximum number of lines', async () => {
    await setConfig(t.database.db, t.services.settings, 'checkout/cart/max_items', '2');
    try {
      const m = await guestCart();
      assert.equal((await add(m, { sku: 'CANDLE-CEDAR' })).status, 200);
      assert.equal((await add(m, { sku: 'MUG-STONEWARE' })).status, 200);
      const r = await add(m, { sku: 'SCARF-SILK' });
      assert.equal(r.status, 400);
      assert.match(r.body.message, /at most 2/);
    } finally {
      await setConfig(t.database.db, t.services.settings, 'checkout/cart/max_items', '100');
    }
  });

  test('update and remove: unknown items are 404; removing answers with the cart', async () => {
    const m = await guestCart();
    const r = await add(m, { sku: 'CANDLE-CEDAR' });
    const item = r.body.items[0].id;
    assert.equal((await t.req('PUT', `${API}/guest-carts/${m}/items/999999`, { body: { qty: 2 } })).status, 404);
    assert.equal((await t.req('DELETE', `${API}/guest-carts/${m}/items/999999`)).status, 404);
    assert.equal((await t.req('PUT', `${API}/guest-carts/${m}/items/${item}`, { body: { qty: 0 } })).status, 400);
    const unchanged = await t.req('PUT', `${API}/guest-carts/${m}/items/${item}`, { body: {} });
    assert.equal(unchanged.status, 200);
    assert.equal(unchanged.body.items[0].qty, 1);
    const d = await t.req('DELETE', `${API}/guest-carts/${m}/items/${item}`);
    assert.equal(d.status, 200);
    assert.equal(d.body.itemsCount, 0);
    // an item of another cart is not found through this one
    const other = await guestCart();
    const o = await add(other, { sku: 'CANDLE-CEDAR' });
    assert.equal((await t.req('DELETE', `${API}/guest-carts/${m}/items/${o.body.items[0].id}`)).status, 404);
    assert.equal((await t.req('GET', `${API}/guest-carts/${other}`)).body.itemsCount, 1);
  });
});
