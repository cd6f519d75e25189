/** Who may reach which cart, how carts are named, and what bad requests get. */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { API, buildTestApp, type TestApp } from '../../../test/helpers.js';
import { createTestProduct } from '../../../test/fixtures/catalog.js';
import { registerCustomer } from '../customers/service.js';

let t: TestApp;
let admin: string;
let customer: string;
let other: string;
let sku: string;

before(async () => {
  t = await buildTestApp();
  admin = await t.tokens.admin();
  customer = await t.tokens.customer();
  await registerCustomer(t.systemCtx(), { email: 'other@example.com', password: 'Password123!', firstname: 'O', lastname: 'Ther' });
  other = await t.tokens.customer('other@example.com', 'Password123!');
  sku = (await createTestProduct(t, { price: 10, stockData: { qty: 100, isInStock: true } })).sku;
});
after(() => t.close());

describe('guest carts', () => {
  test('create: 201, a 32-hex masked id, an empty cart; carts never share items', async () => {
    const a = await t.req('POST', `${API}/guest-carts`, { body: {} });
    const b = await t.req('POST', `${API}/guest-carts`, { body: {} });
    assert.equal(a.status, 201, a.text);
    assert.equal(b.status, 201, b.text);
    assert.match(a.body.maskedId, /^[a-f0-9]{32}$/);
    assert.notEqual(a.body.maskedId, b.body.maskedId);
    assert.equal(a.body.itemsCount, 0);
    assert.equal(a.body.itemsQty, 0);
    assert.deepEqual(a.body.items, []);
    assert.equal(a.body.customerId, undefined, 'nulls are omitted');
    await t.req('POST', `${API}/guest-carts/${a.body.maskedId}/items`, { body: { sku } });
    const bb = await t.req('GET', `${API}/guest-carts/${b.body.maskedId.toUpperCase()}`);
    assert.equal(bb.status, 200, 'masked ids are case-insensitive');
    assert.equal(bb.body.itemsCount, 0);
  });

  test('a guest cart is reached only by its masked id: numeric ids, malformed and unknown ids are 404', async () => {
    const a = await t.req('POST', `${API}/guest-carts`, { body: {} });
    for (const id of [String(a.body.id), 'abc', '../carts/1', 'f'.repeat(32), a.body.maskedId + '0']) {
      const r = await t.req('GET', `${API}/guest-carts/${encodeURIComponent(id)}`);
      assert.equal(r.status, 404, id);
      assert.equal(r.body.message, 'Cart not found');
    }
    // the numeric id of a guest cart is not a customer cart of anyone
    assert.equal((await t.req('GET', `${API}/carts/${a.body.id}`, { token: customer })).status, 404);
  });

  test('adding to an unknown guest cart makes a new one and says so', async () => {
    const r = await t.req('POST', `${API}/guest-carts/${'a'.repeat(32)}/items`, { body: { sku } });
    assert.equal(r.status, 200, r.text);
    assert.equal(r.body.cartRecreated, true);
    assert.match(r.body.maskedId, /^[a-f0-9]{32}$/);
    assert.notEqual(r.body.maskedId, 'a'.repeat(32));
    assert.equal(r.body.itemsCount, 1);
    const again = await t.req('POST', `${API}/guest-carts/${r.body.maskedId}/items`, { body: { sku } });
    assert.equal(again.body.cartRecreated, false);
  });

  test('a store can be chosen at creation; an unknown one is 400', async () => {
    const r = await t.req('POST', `${API}/guest-carts`, { body: { storeId: 2 } });
    assert.equal(r.status, 201, r.text);
    assert.equal(r.body.storeId, 2);
    assert.equal(r.body.currency, 'EUR');
    assert.equal((await t.req('POST', `${API}/guest-carts`, { body: { storeId: 999 } })).status, 400);
    assert.equal((await t.req('POST', `${API}/guest-carts`, { body: { storeId: 'x' } })).status, 400);
  });

  test('a shopper may not set a custom price', async () => {
    const m = (await t.req('POST', `${API}/guest-carts`, { body: {} })).body.maskedId;
    const r = await t.req('POST', `${API}/guest-carts/${m}/items`, { body: { sku, customPrice: 1 } });
    assert.equal(r.status, 403);
    assert.equal((await t.req('GET', `${API}/guest-carts/${m}`)).body.itemsCount, 0);
  });
});

describe('customer carts', () => {
  test('POST /carts needs a token; a customer gets a cart of their own without a masked id', async () => {
    assert.equal((await t.req('POST', `${API}/carts`, { body: {} })).status, 401);
    const r = await t.req('POST', `${API}/carts`, { token: customer, body: {} });
    assert.equal(r.status, 201, r.text);
    assert.equal(r.body.maskedId, undefined);
    assert.equal(r.body.customerEmail, 'customer@example.com');
    assert.ok(r.body.customerId > 0);
  });

  test("another customer's cart is 404 for every route, and nothing changes", async () => {
    const mine = (await t.req('POST', `${API}/carts`, { token: customer, body: {} })).body.id;
    const added = await t.req('POST', `${API}/carts/${mine}/items`, { token: customer, body: { sku } });
    const item = added.body.items[0].id;
    const calls: [string, string, unknown?][] = [
      ['GET', `/carts/${mine}`],
      ['GET', `/carts/${mine}/totals`],
      ['POST', `/carts/${mine}/items`, { sku }],
      ['PUT', `/carts/${mine}/items/${item}`, { qty: 5 }],
      ['DELETE', `/carts/${mine}/items/${item}`],
      ['POST', `/carts/${mine}/coupon`, { couponCode: 'WELCOME10' }],
      ['DELETE', `/carts/${mine}/coupon`],
      ['POST', `/carts/${mine}/giftcards`, { giftcardCode: 'GC-DEMO-0000-0000-0001' }],
      ['DELETE', `/carts/${mine}/giftcards/GC-DEMO-0000-0000-0001`],
      ['POST', `/carts/${mine}/shipping-methods`, {}],
      ['GET', `/carts/${mine}/payment-methods`],
      ['PUT', `/carts/${mine}/shipping-address`, { firstName: 'a' }],
      ['PUT', `/carts/${mine}/payment-method`, { methodCode: 'checkmo' }],
    ];
    for (const [method, path, body] of calls) {
      const r = await t.req(method, `${API}${path}`, { token: other, body });
      assert.equal(r.status, 404, `${method} ${path}: ${r.text}`);
      assert.equal(r.body.message, 'Cart not found');
      const anon = await t.req(method, `${API}${path}`, { body });
      assert.equal(anon.status, 401, `anonymous ${method} ${path}`);
    }
    const still = await t.req('GET', `${API}/carts/${mine}`, { token: customer });
    assert.equal(still.body.items[0].qty, 1);
    assert.equal((await t.req('GET', `${API}/carts/99999999`, { token: customer })).status, 404);
  });

  test('the back office reads and changes any customer cart with the carts grant, and only with it', async () => {
    const mine = (await t.req('POST', `${API}/carts`, { token: customer, body: {} })).body.id;
    const r = await t.req('GET', `${API}/carts/${mine}`, { token: admin });
    assert.equal(r.status, 200);
    const readOnly = await t.tokens.apiUser(['carts/read']);
    assert.equal((await t.req('GET', `${API}/carts/${mine}`, { token: readOnly })).status, 200);
    assert.equal((await t.req('POST', `${API}/carts/${mine}/items`, { token: readOnly, body: { sku } })).status, 403);
    const noGrant = await t.tokens.apiUser(['products/read']);
    assert.equal((await t.req('GET', `${API}/carts/${mine}`, { token: noGrant })).status, 403);
    const writer = await t.tokens.apiUser(['carts/write']);
    const added = await t.req('POST', `${API}/carts/${mine}/items`, { token: writer, body: { sku, customPrice: 7.5 } });
    assert.equal(added.status, 200, added.text);
    assert.equal(added.body.items[0].price, 7.5);
    // limited to the german store view: a cart of the default store is not there
    const german = await t.tokens.apiUser(['carts/all'], { allowedStoreIds: [2] });
    assert.equal((await t.req('GET', `${API}/carts/${mine}`, { token: german, query: { store: 'german' } })).status, 404);
  });

  test('an admin creates a cart for a customer by id; an unknown customer is 400', async () => {
    const me = await t.req('GET', `${API}/customers/me`, { token: customer });
    const r = await t.req('POST', `${API}/carts`, { token: admin, body: { customerId: me.body.id } });
    assert.equal(r.status, 201, r.text);
    assert.equal(r.body.customerId, me.body.id);
    const seen = await t.req('GET', `${API}/carts/${r.body.id}`, { token: customer });
    assert.equal(seen.status, 200);
    assert.equal((await t.req('POST', `${API}/carts`, { token: admin, body: { customerId: 99999999 } })).status, 400);
  });
});

describe('bad input', () => {
  test('malformed JSON, wrong types and out-of-range values are 400 and change nothing', async () => {
    const m = (await t.req('POST', `${API}/guest-carts`, { body: {} })).body.maskedId;
    const url = `${API}/guest-carts/${m}/items`;
    const raw = await t.req('POST', url, { raw: '{"sku": ', headers: { 'content-type': 'application/json' } });
    assert.equal(raw.status, 400);
    for (const body of [
      { sku: ['x'] },
      { sku, qty: 'many' },
      { sku, options: 'x' },
      { sku, options: { abc: 1 } },
      { sku, links: ['a'] },
      { sku, superGroup: { 1: -1 } },
    ]) {
      const r = await t.req('POST', url, { body });
      assert.equal(r.status, 400, JSON.stringify(body) + r.text);
    }
    const big = await t.req('POST', url, { body: { sku: 'x'.repeat(300) } });
    assert.equal(big.status, 400);
    const unknownKey = await t.req('POST', url, { body: { sku, qty: 1, somethingElse: true } });
    assert.equal(unknownKey.status, 200, 'unknown keys are ignored');
    const cart = await t.req('GET', `${API}/guest-carts/${m}`);
    assert.equal(cart.body.itemsCount, 1);
    const nul = await t.req('POST', url, { body: { sku: 'a\u0000b' } });
    assert.ok(nul.status === 400, nul.text);
    assert.equal((await t.req('PUT', `${API}/guest-carts/${m}/items/abc`, { body: { qty: 1 } })).status, 400);
    assert.equal((await t.req('GET', `${API}/carts/0`, { token: customer })).status, 400);
  });
});

describe('coupon preview on a cart', () => {
  test('POST /coupons/validate with cartId previews the discount on a cart the caller may read', async () => {
    const mine = (await t.req('POST', `${API}/carts`, { token: customer, body: {} })).body.id;
    await t.req('POST', `${API}/carts/${mine}/items`, { token: customer, body: { sku, qty: 3 } });
    const r = await t.req('POST', `${API}/coupons/validate`, { token: customer, body: { code: 'WELCOME10', cartId: mine } });
    assert.equal(r.status, 201, r.text);
    assert.equal(r.body.isValid, true);
    assert.deepEqual(r.body.discountPreview, { discountAmount: 3, subtotal: 30, grandTotal: 27, currency: 'USD' });
    // the preview applies nothing
    assert.equal((await t.req('GET', `${API}/carts/${mine}`, { token: customer })).body.appliedCoupon, undefined);
    const foreign = await t.req('POST', `${API}/coupons/validate`, { token: other, body: { code: 'WELCOME10', cartId: mine } });
    assert.equal(foreign.status, 400);
    assert.equal(foreign.body.message, 'Cart not accessible');
    const m = (await t.req('POST', `${API}/guest-carts`, { body: {} })).body.maskedId;
    await t.req('POST', `${API}/guest-carts/${m}/items`, { body: { sku } });
    const byMask = await t.req('POST', `${API}/coupons/validate`, { token: admin, body: { code: 'WELCOME10', cartId: m } });
    assert.equal(byMask.status, 201, byMask.text);
    assert.equal(byMask.body.discountPreview.discountAmount, 1);
    const anon = await t.req('POST', `${API}/coupons/validate`, { body: { code: 'WELCOME10', cartId: m } });
    assert.equal(anon.status, 201);
    assert.equal(anon.body.discountPreview, undefined);
    assert.equal(anon.body.discountAmount, undefined);
  });
});
