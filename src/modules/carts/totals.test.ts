/**
 * Totals against hand-computed figures: tax excluded and included, each discount type, shipping, gift cards and
 * another currency; and the checkout setters (addresses, shipping and payment method, gift messages).
 * Demo setup: US-CA 8.25 % on Taxable Goods (class 2), DE 19 %, flat rate 5.00 per item, free shipping from
 * 100.00, check/money order and cash on delivery, coupon WELCOME10, gift card GC-DEMO-0000-0000-0001 (50.00).
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { API, buildTestApp, type TestApp } from '../../../test/helpers.js';
import { createTestProduct } from '../../../test/fixtures/catalog.js';
import { deleteConfig, setConfig } from '../stores/service.js';

let t: TestApp;
let admin: string;
let skuA: string; // 100.00
let skuB: string; // 19.99
let skuC: string; // 119.00
let skuV: string; // virtual 30.00

const CA = {
  firstName: 'Ann',
  lastName: 'Lee',
  street: ['1 Main St'],
  city: 'Los Angeles',
  postcode: '90001',
  countryId: 'US',
  region: 'CA',
  telephone: '555-0100',
};
const DE = {
  firstName: 'Jan',
  lastName: 'Roth',
  street: ['Unter den Linden 1'],
  city: 'Berlin',
  postcode: '10117',
  countryId: 'DE',
  region: 'Berlin',
  telephone: '030-1',
  email: 'jan@example.com',
};

before(async () => {
  t = await buildTestApp();
  admin = await t.tokens.admin();
  const stock = { qty: 1000, isInStock: true };
  skuA = (await createTestProduct(t, { price: 100, taxClassId: 2, weight: 1, stockData: stock })).sku;
  skuB = (await createTestProduct(t, { price: 19.99, taxClassId: 2, weight: 0.5, stockData: stock })).sku;
  skuC = (await createTestProduct(t, { price: 119, taxClassId: 2, weight: 1, stockData: stock })).sku;
  skuV = (await createTestProduct(t, { type: 'virtual', price: 30, taxClassId: 2, stockData: stock })).sku;
});
after(() => t.close());

const config = (path: string, value: string) => setConfig(t.database.db, t.services.settings, path, value);
const unset = (path: string) => deleteConfig(t.database.db, t.services.settings, path);

async function guestCart(items: [string, number][], storeId?: number): Promise<string> {
  const c = await t.req('POST', `${API}/guest-carts`, { body: storeId ? { storeId } : {} });
  for (const [sku, qty] of items) {
    const r = await t.req('POST', `${API}/guest-carts/${c.body.maskedId}/items`, { body: { sku, qty } });
    assert.equal(r.status, 200, r.text);
  }
  return c.body.maskedId;
}

const put = (m: string, what: string, body: unknown) => t.req('PUT', `${API}/guest-carts/${m}/${what}`, { body });
const totals = async (m: string) => (await t.req('GET', `${API}/guest-carts/${m}/totals`)).body;

async function coupon(body: Record<string, unknown>): Promise<string> {
  const r = await t.req('POST', `${API}/coupons`, { token: admin, body });
  assert.equal(r.status, 201, r.text);
  return r.body.code;
}

describe('prices excluding tax (the default)', () => {
  test('subtotal, row tax, flat-rate shipping per item and grand total', async () => {
    const m = await guestCart([
      [skuA, 1],
      [skuB, 3],
    ]);
    // before an address: the default destination (US, no region) has no rate
    let p = await totals(m);
    assert.equal(p.subtotal, 159.97);
    assert.equal(p.taxAmount, 0);
    assert.equal(p.grandTotal, 159.97);
    const s = await put(m, 'shipping-address', CA);
    assert.equal(s.status, 200, s.text);
    assert.deepEqual(
      s.body.availableShippingMethods.map((r: { code: string; price: number }) => [r.code, r.price]),
      [
        ['flatrate_flatrate', 20],
        ['freeshipping_freeshipping', 0],
      ],
    );
    const sm = await put(m, 'shipping-method', { carrierCode: 'flatrate', methodCode: 'flatrate' });
    assert.equal(sm.status, 200, sm.text);
    // rows: 100 × 8.25 % = 8.25; 59.97 × 8.25 % = 4.947525 → 4.95
    const item = sm.body.items.find((i: { sku: string }) => i.sku === skuB);
    assert.equal(item.taxAmount, 4.95);
    assert.equal(item.taxPercent, 8.25);
    assert.equal(item.priceInclTax, 21.64);
    p = await totals(m);
    assert.deepEqual(
      {
        subtotal: p.subtotal,
        tax: p.taxAmount,
        shipping: p.shippingAmount,
        discount: p.discountAmount,
        grand: p.grandTotal,
        base: p.baseGrandTotal,
      },
      { subtotal: 159.97, tax: 13.2, shipping: 20, discount: 0, grand: 193.17, base: 193.17 },
    );
    assert.equal(p.subtotalInclTax, 173.17);
  });

  test('percent coupon: 10 % off each row, tax on the discounted rows, then a gift card', async () => {
    const m = await guestCart([
      [skuA, 1],
      [skuB, 3],
    ]);
    await put(m, 'shipping-address', CA);
    await put(m, 'shipping-method', { carrierCode: 'flatrate', methodCode: 'flatrate' });
    const c = await t.req('POST', `${API}/guest-carts/${m}/coupon`, { body: { couponCode: 'welcome10' } });
    assert.equal(c.status, 201, c.text);
    assert.deepEqual(c.body.appliedCoupon, { code: 'WELCOME10', discountAmount: 16 });
    // discounts 10.00 and 5.997 → 6.00; tax 90 × 8.25 % = 7.425 → 7.43 and 53.97 × 8.25 % = 4.452525 → 4.45
    let p = await totals(m);
    assert.deepEqual(
      { discount: p.discountAmount, withDiscount: p.subtotalWithDiscount, tax: p.taxAmount, grand: p.grandTotal },
      { discount: 16, withDiscount: 143.97, tax: 11.88, grand: 175.85 },
    );
    const g = await t.req('POST', `${API}/guest-carts/${m}/giftcards`, { body: { giftcardCode: 'gc-demo-0000-0000-0001' } });
    assert.equal(g.status, 200, g.text);
    assert.deepEqual(g.body.appliedGiftcards, [{ code: 'GC-DEMO-0000-0000-0001', balance: 50, appliedAmount: 50 }]);
    p = await totals(m);
    assert.equal(p.giftcardAmount, 50);
    assert.equal(p.grandTotal, 125.85);
    // the same card twice, an unknown card, removing one that is not applied
    assert.equal(
      (await t.req('POST', `${API}/guest-carts/${m}/giftcards`, { body: { giftcardCode: 'GC-DEMO-0000-0000-0001' } })).status,
      400,
    );
    assert.equal((await t.req('POST', `${API}/guest-carts/${m}/giftcards`, { body: { giftcardCode: 'NOPE-NOPE' } })).status, 400);
    assert.equal((await t.req('POST', `${API}/guest-carts/${m}/giftcards`, { body: {} })).status, 400);
    assert.equal((await t.req('DELETE', `${API}/guest-carts/${m}/giftcards/OTHER`)).status, 400);
    assert.equal((await t.req('DELETE', `${API}/guest-carts/${m}/giftcards/GC-DEMO-0000-0000-0001`)).status, 204);
    assert.equal((await t.req('DELETE', `${API}/guest-carts/${m}/coupon`)).status, 204);
    p = await totals(m);
    assert.equal(p.discountAmount, 0);
    assert.equal(p.giftcardAmount, 0);
    assert.equal(p.grandTotal, 193.17);
  });

  test('a gift card larger than the total pays all of it; only the zero-total payment method is left', async () => {
    const card = await t.req('POST', `${API}/giftcards`, { token: admin, body: { balance: 500 } });
    assert.equal(card.status, 201, card.text);
    const m = await guestCart([[skuA, 2]]);
    await put(m, 'shipping-address', CA);
    await put(m, 'shipping-method', { carrierCode: 'freeshipping', methodCode: 'freeshipping' });
    const g = await t.req('POST', `${API}/guest-carts/${m}/giftcards`, { body: { giftcardCode: card.body.code } });
    assert.equal(g.status, 200, g.text);
    // 200 + 16.50 tax + 0 shipping
    assert.equal(g.body.prices.giftcardAmount, 216.5);
    assert.equal(g.body.prices.grandTotal, 0);
    assert.deepEqual(g.body.appliedGiftcards, [{ code: card.body.code, balance: 500, appliedAmount: 216.5 }]);
    const methods = await t.req('GET', `${API}/guest-carts/${m}/payment-methods`);
    assert.deepEqual(
      methods.body.map((x: { code: string }) => x.code),
      ['free'],
    );
    assert.equal((await put(m, 'payment-method', { methodCode: 'checkmo' })).status, 400);
    assert.equal((await put(m, 'payment-method', { methodCode: 'free' })).status, 200);
  });

  test('fixed per item, cart fixed and buy X get Y', async () => {
    const fixed = await coupon({ code: 'FIVE-EACH', discountType: 'fixed', discountAmount: 5 });
    const cartFixed = await coupon({ code: 'THIRTY-OFF', discountType: 'cart_fixed', discountAmount: 30 });
    const bxgy = await coupon({ code: 'TWO-PLUS-ONE', discountType: 'buy_x_get_y', discountAmount: 1, discountStep: 2 });
    const m = await guestCart([
      [skuA, 1],
      [skuB, 3],
    ]);
    const apply = async (code: string) => {
      const r = await t.req('POST', `${API}/guest-carts/${m}/coupon`, { body: { couponCode: code } });
      assert.equal(r.status, 201, r.text);
      return r.body;
    };
    let cart = await apply(fixed);
    assert.equal(cart.prices.discountAmount, 20, '5 × 1 + 5 × 3');
    cart = await apply(cartFixed);
    // 30 spread by row total: 100 / 159.97 × 30 = 18.7535 → 18.75, the last row takes 11.25
    assert.deepEqual(
      cart.items.map((i: { discountAmount: number }) => i.discountAmount),
      [18.75, 11.25],
    );
    assert.equal(cart.prices.discountAmount, 30);
    cart = await apply(bxgy);
    // three of B: one free
    assert.equal(cart.prices.discountAmount, 19.99);
    assert.equal(cart.items.find((i: { sku: string }) => i.sku === skuB).discountAmount, 19.99);
  });

  test('coupons that do not apply are refused with invalid_coupon and leave the cart as it was', async () => {
    const big = await coupon({ code: 'BIG-SPENDER', discountType: 'percent', discountAmount: 20, minimumSubtotal: 500 });
    const old = await coupon({ code: 'OLD-ONE', discountType: 'percent', discountAmount: 20, toDate: '2020-01-01' });
    const m = await guestCart([[skuA, 1]]);
    for (const code of ['NO-SUCH-CODE', big, old]) {
      const r = await t.req('POST', `${API}/guest-carts/${m}/coupon`, { body: { couponCode: code } });
      assert.equal(r.status, 400, code);
      assert.equal(r.body.error, 'invalid_coupon');
    }
    assert.equal((await t.req('POST', `${API}/guest-carts/${m}/coupon`, { body: {} })).status, 400);
    const alias = await t.req('PUT', `${API}/guest-carts/${m}/coupon`, { body: { code: 'WELCOME10' } });
    assert.equal(alias.status, 200, 'PUT is accepted as an alias');
    assert.equal(alias.body.prices.discountAmount, 10);
    // a coupon switched off after it was applied stops applying
    const list = await t.req('GET', `${API}/coupons`, { token: admin, query: { code: 'WELCOME10' } });
    const id = list.body.member[0].id;
    await t.req('PUT', `${API}/coupons/${id}`, { token: admin, body: { isActive: false } });
    const after = await t.req('GET', `${API}/guest-carts/${m}`);
    assert.equal(after.body.appliedCoupon, undefined);
    assert.equal(after.body.prices.discountAmount, 0);
    await t.req('PUT', `${API}/coupons/${id}`, { token: admin, body: { isActive: true } });
  });
});

describe('prices including tax', () => {
  before(async () => {
    await config('tax/calculation/price_includes_tax', '1');
    await config('tax/defaults/country', 'DE');
  });
  after(async () => {
    await unset('tax/calculation/price_includes_tax');
    await unset('tax/defaults/country');
  });

  test('the catalog price holds at the default destination; the discount is taken from the price without tax', async () => {
    const m = await guestCart([[skuC, 2]]);
    let p = await totals(m);
    // 119 includes 19 %: 100 net each
    assert.deepEqual(
      { subtotal: p.subtotal, inclTax: p.subtotalInclTax, tax: p.taxAmount, grand: p.grandTotal },
      { subtotal: 200, inclTax: 238, tax: 38, grand: 238 },
    );
    await put(m, 'shipping-address', DE);
    await put(m, 'shipping-method', { carrierCode: 'flatrate', methodCode: 'flatrate' });
    const c = await t.req('POST', `${API}/guest-carts/${m}/coupon`, { body: { couponCode: 'WELCOME10' } });
    assert.equal(c.status, 201, c.text);
    p = await totals(m);
    // 10 % of 200 = 20; tax 38 − 20 × 19 % = 34.20; 200 − 20 + 10 shipping + 34.20
    assert.deepEqual(
      { discount: p.discountAmount, tax: p.taxAmount, shipping: p.shippingAmount, grand: p.grandTotal },
      { discount: 20, tax: 34.2, shipping: 10, grand: 224.2 },
    );
  });

  test('a destination with another rate pays that rate on the price without tax', async () => {
    const m = await guestCart([[skuC, 1]]);
    await put(m, 'shipping-address', CA);
    const p = await totals(m);
    // 100 net + 8.25 %
    assert.deepEqual({ subtotal: p.subtotal, tax: p.taxAmount, inclTax: p.subtotalInclTax }, { subtotal: 100, tax: 8.25, inclTax: 108.25 });
  });
});

describe('currency and store', () => {
  test('a cart of the german store view is priced in EUR at the rate, with base amounts in USD', async () => {
    const m = await guestCart([[skuB, 3]], 2);
    const c = await t.req('GET', `${API}/guest-carts/${m}`);
    assert.equal(c.body.currency, 'EUR');
    assert.equal(c.body.baseCurrency, 'USD');
    // 19.99 × 0.92 = 18.3908 → 18.39 a unit
    assert.equal(c.body.items[0].price, 18.39);
    assert.equal(c.body.prices.subtotal, 55.17);
    assert.equal(c.body.prices.baseSubtotal, 59.97);
  });
});

describe('checkout setters', () => {
  test('addresses: required fields listed, billing copied from shipping, unknown country and region refused', async () => {
    const m = await guestCart([[skuA, 1]]);
    let r = await put(m, 'shipping-address', { firstName: 'A' });
    assert.equal(r.status, 400);
    assert.match(r.body.message, /lastName, street, city, postcode, countryId, telephone/);
    r = await put(m, 'billing-address', { sameAsShipping: true });
    assert.equal(r.status, 400);
    assert.equal((await put(m, 'shipping-address', { ...CA, countryId: 'XX' })).status, 400);
    assert.equal((await put(m, 'shipping-address', { ...CA, region: 'Atlantis' })).status, 400);
    assert.equal((await put(m, 'shipping-address', { ...CA, email: 'not-an-email' })).status, 400);
    r = await put(m, 'shipping-address', {
      ...CA,
      firstname: 'Lower',
      firstName: undefined,
      street: 'Line 1\nLine 2',
      email: 'ann@example.com',
    });
    assert.equal(r.status, 200, r.text);
    assert.equal(r.body.shippingAddress.firstname, 'Lower');
    assert.deepEqual(r.body.shippingAddress.street, ['Line 1', 'Line 2']);
    assert.equal(r.body.shippingAddress.regionId > 0, true);
    assert.equal(r.body.customerEmail, 'ann@example.com');
    r = await put(m, 'billing-address', { sameAsShipping: true });
    assert.equal(r.status, 200);
    assert.equal(r.body.billingAddress.city, 'Los Angeles');
    assert.equal(r.body.billingAddress.addressType, 'billing');
  });

  test("a customer cart can use the customer's saved address, not another's", async () => {
    const token = await t.tokens.customer();
    const saved = await t.req('POST', `${API}/customers/me/addresses`, {
      token,
      body: {
        firstname: 'Jane',
        lastname: 'Doe',
        street: ['5 Elm'],
        city: 'San Diego',
        postcode: '92101',
        countryId: 'US',
        region: 'CA',
        telephone: '1',
      },
    });
    assert.equal(saved.status, 201, saved.text);
    const cart = await t.req('POST', `${API}/carts`, { token, body: {} });
    let r = await t.req('PUT', `${API}/carts/${cart.body.id}/shipping-address`, { token, body: { customerAddressId: saved.body.id } });
    assert.equal(r.status, 200, r.text);
    assert.equal(r.body.shippingAddress.city, 'San Diego');
    assert.equal(r.body.shippingAddress.customerAddressId, saved.body.id);
    r = await t.req('PUT', `${API}/carts/${cart.body.id}/shipping-address`, { token, body: { customerAddressId: 99999 } });
    assert.equal(r.status, 400);
    const m = await guestCart([[skuA, 1]]);
    assert.equal((await put(m, 'shipping-address', { customerAddressId: saved.body.id })).status, 400);
  });

  test('shipping method: must be offered for the address; a virtual cart needs none', async () => {
    const m = await guestCart([[skuB, 1]]);
    assert.equal((await put(m, 'shipping-method', { carrierCode: 'flatrate', methodCode: 'flatrate' })).status, 400, 'no address yet');
    await put(m, 'shipping-address', CA);
    assert.equal(
      (await put(m, 'shipping-method', { carrierCode: 'freeshipping', methodCode: 'freeshipping' })).status,
      400,
      'below the free-shipping threshold',
    );
    assert.equal((await put(m, 'shipping-method', { carrierCode: 'flatrate' })).status, 400);
    assert.equal((await put(m, 'shipping-method', { carrierCode: 'flatrate', methodCode: 'flatrate' })).status, 200);
    // per order instead of per item
    await config('carriers/flatrate/type', 'O');
    try {
      await t.req('PUT', `${API}/guest-carts/${m}/items/${(await t.req('GET', `${API}/guest-carts/${m}`)).body.items[0].id}`, {
        body: { qty: 4 },
      });
      assert.equal((await totals(m)).shippingAmount, 5);
    } finally {
      await unset('carriers/flatrate/type');
    }
    assert.equal((await totals(m)).shippingAmount, 20);
    const v = await guestCart([[skuV, 1]]);
    const rates = await t.req('POST', `${API}/guest-carts/${v}/shipping-methods`, { body: { address: CA } });
    assert.equal(rates.status, 200, rates.text);
    assert.deepEqual(rates.body, []);
    assert.equal((await put(v, 'shipping-method', { carrierCode: 'flatrate', methodCode: 'flatrate' })).status, 400);
  });

  test('shipping-methods with an address sets it; a guest gets the list, a customer the cart', async () => {
    const m = await guestCart([[skuB, 1]]);
    const r = await t.req('POST', `${API}/guest-carts/${m}/shipping-methods`, { body: { address: CA } });
    assert.equal(r.status, 200, r.text);
    assert.deepEqual(r.body[0], {
      code: 'flatrate_flatrate',
      title: 'Flat Rate - Fixed',
      carrierCode: 'flatrate',
      methodCode: 'flatrate',
      carrierTitle: 'Flat Rate',
      methodTitle: 'Fixed',
      price: 5,
    });
    assert.equal((await t.req('GET', `${API}/guest-carts/${m}`)).body.shippingAddress.city, 'Los Angeles');
    assert.equal((await t.req('POST', `${API}/guest-carts/${m}/shipping-methods`, { body: { address: { firstName: 'x' } } })).status, 400);
    const token = await t.tokens.customer();
    const cart = (await t.req('POST', `${API}/carts`, { token, body: {} })).body.id;
    await t.req('POST', `${API}/carts/${cart}/items`, { token, body: { sku: skuB } });
    const c = await t.req('POST', `${API}/carts/${cart}/shipping-methods`, { token, body: { address: CA } });
    assert.equal(c.status, 200);
    assert.equal(c.body.id, cart);
    assert.equal(c.body.availableShippingMethods[0].code, 'flatrate_flatrate');
  });

  test('payment method: only an available one; purchase order needs its number', async () => {
    const m = await guestCart([[skuB, 1]]);
    const list = await t.req('GET', `${API}/guest-carts/${m}/payment-methods`);
    assert.deepEqual(
      list.body.map((x: { code: string }) => x.code),
      ['checkmo', 'cashondelivery'],
    );
    assert.equal((await put(m, 'payment-method', { methodCode: 'banktransfer' })).status, 400);
    assert.equal((await put(m, 'payment-method', {})).status, 400);
    const ok = await put(m, 'payment-method', { methodCode: 'checkmo' });
    assert.equal(ok.status, 200);
    assert.deepEqual(ok.body.selectedPaymentMethod, { code: 'checkmo', title: 'Check / Money order' });
    await config('payment/purchaseorder/active', '1');
    try {
      assert.equal((await put(m, 'payment-method', { methodCode: 'purchaseorder' })).status, 400);
      assert.equal((await put(m, 'payment-method', { methodCode: 'purchaseorder', additionalData: { poNumber: 'PO-1' } })).status, 200);
    } finally {
      await unset('payment/purchaseorder/active');
    }
  });

  test('gift messages need the store config and are kept on the cart and on items', async () => {
    const token = await t.tokens.customer();
    const cart = (await t.req('POST', `${API}/carts`, { token, body: {} })).body.id;
    const added = await t.req('POST', `${API}/carts/${cart}/items`, { token, body: { sku: skuB } });
    const item = added.body.items[0].id;
    const msg = { sender: 'Ann', recipient: 'Bo', message: 'Happy birthday' };
    let r = await t.req('PUT', `${API}/carts/${cart}/gift-message`, { token, body: msg });
    assert.equal(r.status, 400);
    assert.equal((await t.req('PUT', `${API}/carts/${cart}/items/${item}/gift-message`, { token, body: msg })).status, 400);
    await config('sales/gift_options/allow_order', '1');
    await config('sales/gift_options/allow_items', '1');
    try {
      assert.equal((await t.req('PUT', `${API}/carts/${cart}/gift-message`, { token, body: { sender: 'Ann' } })).status, 400);
      r = await t.req('PUT', `${API}/carts/${cart}/gift-message`, { token, body: msg });
      assert.equal(r.status, 200, r.text);
      assert.deepEqual(r.body.giftMessage, msg);
      r = await t.req('PUT', `${API}/carts/${cart}/items/${item}/gift-message`, { token, body: msg });
      assert.deepEqual(r.body.items[0].giftMessage, msg);
      assert.equal((await t.req('PUT', `${API}/carts/${cart}/items/999999/gift-message`, { token, body: msg })).status, 404);
      r = await t.req('DELETE', `${API}/carts/${cart}/items/${item}/gift-message`, { token });
      assert.equal(r.body.items[0].giftMessage, undefined);
      r = await t.req('DELETE', `${API}/carts/${cart}/gift-message`, { token });
      assert.equal(r.status, 200);
      assert.equal(r.body.giftMessage, undefined);
    } finally {
      await unset('sales/gift_options/allow_order');
      await unset('sales/gift_options/allow_items');
    }
  });
});

describe('a customer from an empty cart to totals', () => {
  test('items, address, shipping, coupon, gift card and payment in the whole-cart answers', async () => {
    const token = await t.tokens.customer();
    const cart = (await t.req('POST', `${API}/carts`, { token, body: {} })).body.id;
    const url = `${API}/carts/${cart}`;
    await t.req('POST', `${url}/items`, { token, body: { sku: skuA, qty: 1 } });
    await t.req('POST', `${url}/items`, { token, body: { sku: skuB, qty: 3 } });
    await t.req('PUT', `${url}/shipping-address`, { token, body: CA });
    await t.req('PUT', `${url}/billing-address`, { token, body: { sameAsShipping: true } });
    await t.req('PUT', `${url}/shipping-method`, { token, body: { carrierCode: 'flatrate', methodCode: 'flatrate' } });
    const c = await t.req('POST', `${url}/coupon`, { token, body: { couponCode: 'WELCOME10' } });
    assert.equal(c.status, 201);
    const g = await t.req('POST', `${url}/giftcards`, { token, body: { giftcardCode: 'GC-DEMO-0000-0000-0001' } });
    assert.equal(g.status, 200);
    const pm = await t.req('PUT', `${url}/payment-method`, { token, body: { methodCode: 'checkmo' } });
    assert.equal(pm.status, 200);
    const tt = await t.req('GET', `${url}/totals`, { token });
    assert.equal(tt.body.id, cart);
    assert.deepEqual(
      {
        sub: tt.body.prices.subtotal,
        disc: tt.body.prices.discountAmount,
        ship: tt.body.prices.shippingAmount,
        tax: tt.body.prices.taxAmount,
        gc: tt.body.prices.giftcardAmount,
        grand: tt.body.prices.grandTotal,
      },
      { sub: 159.97, disc: 16, ship: 20, tax: 11.88, gc: 50, grand: 125.85 },
    );
    assert.deepEqual(tt.body.selectedShippingMethod, {
      carrierCode: 'flatrate',
      methodCode: 'flatrate',
      carrierTitle: 'Flat Rate',
      methodTitle: 'Fixed',
      price: 20,
    });
    assert.equal(tt.body.selectedPaymentMethod.code, 'checkmo');
    const pms = await t.req('GET', `${url}/payment-methods`, { token });
    assert.equal(pms.body.id, cart);
    assert.ok(pms.body.availablePaymentMethods.length >= 1);
  });
});
