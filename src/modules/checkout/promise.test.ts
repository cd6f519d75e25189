/**
 * A cart is never charged other than it was shown without being told: a coupon, gift card or free shipping
 * the cart was last shown with that no longer holds refuses the placement with 409 and writes nothing; a
 * re-read shows the new prices and a retry places the order at them; `expectedGrandTotal` pins the total.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { sql } from 'drizzle-orm';
import { API, buildTestApp, type TestApp } from '../../../test/helpers.js';
import { rows } from '../../platform/db.js';
import { createTestProduct } from '../../../test/fixtures/catalog.js';
import { stockOf } from '../inventory/service.js';
import { TEST_ADDRESS } from '../../../test/fixtures/checkout.js';

let t: TestApp;
let admin: string;
let customer: string;

before(async () => {
  t = await buildTestApp();
  admin = await t.tokens.admin();
  customer = await t.tokens.customer();
});
after(() => t.close());

const PLACE = {
  billingAddress: { sameAsShipping: true },
  shippingMethod: 'flatrate_flatrate',
  paymentMethod: 'checkmo',
  guestEmail: 'buyer@example.com',
};

async function product(price = 10, qty = 100): Promise<{ id: number; sku: string }> {
  const p = await createTestProduct(t, { price, stockData: { qty, isInStock: true } });
  return { id: p.id, sku: p.sku };
}

async function guestCart(sku: string, qty = 1): Promise<string> {
  const m = (await t.req('POST', `${API}/guest-carts`, { body: {} })).body.maskedId as string;
  assert.equal((await t.req('POST', `${API}/guest-carts/${m}/items`, { body: { sku, qty } })).status, 200);
  assert.equal((await t.req('PUT', `${API}/guest-carts/${m}/shipping-address`, { body: TEST_ADDRESS })).status, 200);
  return m;
}

async function coupon(body: Record<string, unknown>): Promise<{ id: number; code: string }> {
  const code = `P${Date.now().toString(36)}${Math.random().toString(36).slice(2, 8)}`.toUpperCase();
  const r = await t.req('POST', `${API}/coupons`, { token: admin, body: { code, discountType: 'percent', discountAmount: 10, ...body } });
  assert.equal(r.status, 201, r.text);
  return { id: r.body.id, code };
}

async function giftcard(balance: number): Promise<{ id: number; code: string }> {
  const r = await t.req('POST', `${API}/giftcards`, { token: admin, body: { balance } });
  assert.equal(r.status, 201, r.text);
  return { id: r.body.id, code: r.body.code };
}

async function adjustCard(code: string, amount: number): Promise<void> {
  const r = await t.req('POST', '/api/graphql', {
    token: admin,
    body: {
      query: 'mutation($c: String, $a: Float!) { adjustGiftcardBalance(input: { code: $c, amount: $a }) { giftCard { balance } } }',
      variables: { c: code, a: amount },
    },
  });
  assert.equal(r.status, 200, r.text);
  assert.equal(r.body.errors, undefined, r.text);
}

async function orderCount(): Promise<number> {
  const [r] = await rows<{ n: string }>(t.database.db, sql`SELECT count(*)::text AS n FROM orders`);
  return Number(r.n);
}

async function stockQty(productId: number): Promise<number> {
  return (await stockOf(t.systemCtx(), [productId])).get(productId)!.qty;
}

/** Places and expects a refusal that changed nothing: no order, stock as it was, the cart still open. */
async function refused(m: string, productId: number, error: string, body: Record<string, unknown> = PLACE) {
  const orders = await orderCount();
  const stock = await stockQty(productId);
  const r = await t.req('POST', `${API}/guest-carts/${m}/place-order`, { body });
  assert.equal(r.status, 409, r.text);
  assert.equal(r.body.error, error, r.text);
  assert.equal(r.body.code, 409);
  assert.equal(await orderCount(), orders, 'no order was written');
  assert.equal(await stockQty(productId), stock, 'no stock was taken');
  // read from the table: a GET would show the cart, and showing it records its new prices
  const [cart] = await rows<{ active: boolean; lines: string }>(
    t.database.db,
    sql`SELECT is_active AS active, (SELECT count(*)::text FROM cart_items i WHERE i.cart_id = c.id) AS lines FROM carts c WHERE masked_id = ${m}`,
  );
  assert.equal(cart.active, true, 'the cart is still open');
  assert.equal(cart.lines, '1', 'the cart kept its items');
  return r.body;
}

describe('coupons', () => {
  test('a coupon switched off after the cart showed its discount: 409 coupon_no_longer_valid; re-read, then placed at full price', async () => {
    const p = await product(20);
    const c = await coupon({});
    const m = await guestCart(p.sku, 2);
    const applied = await t.req('POST', `${API}/guest-carts/${m}/coupon`, { body: { couponCode: c.code } });
    assert.equal(applied.body.prices.discountAmount, 4);
    assert.equal((await t.req('PUT', `${API}/coupons/${c.id}`, { token: admin, body: { isActive: false } })).status, 200);

    const body = await refused(m, p.id, 'coupon_no_longer_valid');
    assert.equal(body.details.couponCode, c.code);
    assert.match(body.message, /no longer valid/);
    // a second attempt without re-reading is refused again
    await refused(m, p.id, 'coupon_no_longer_valid');

    const reread = await t.req('GET', `${API}/guest-carts/${m}/totals`);
    assert.equal(reread.body.discountAmount, 0);
    const placed = await t.req('POST', `${API}/guest-carts/${m}/place-order`, { body: PLACE });
    assert.equal(placed.status, 201, placed.text);
    assert.equal(placed.body.prices.discountAmount, 0);
    assert.equal(placed.body.prices.grandTotal, 50);
    assert.equal(placed.body.couponCode, undefined);
  });

  test('a coupon used up by other orders after the cart showed it is refused, and its count is not touched', async () => {
    const p = await product(10);
    const c = await coupon({ usageLimit: 1 });
    const first = await guestCart(p.sku);
    const second = await guestCart(p.sku);
    for (const m of [first, second])
      assert.equal((await t.req('POST', `${API}/guest-carts/${m}/coupon`, { body: { couponCode: c.code } })).status, 201);
    assert.equal((await t.req('POST', `${API}/guest-carts/${first}/place-order`, { body: PLACE })).status, 201);
    const body = await refused(second, p.id, 'coupon_no_longer_valid');
    assert.match(body.message, /usage limit/i);
    assert.equal((await t.req('GET', `${API}/coupons/${c.id}`, { token: admin })).body.timesUsed, 1);
  });

  test('a coupon the shopper removed is no longer promised: the order is placed without it', async () => {
    const p = await product(10);
    const c = await coupon({});
    const m = await guestCart(p.sku);
    assert.equal((await t.req('POST', `${API}/guest-carts/${m}/coupon`, { body: { couponCode: c.code } })).status, 201);
    assert.equal((await t.req('DELETE', `${API}/guest-carts/${m}/coupon`)).status, 204);
    const placed = await t.req('POST', `${API}/guest-carts/${m}/place-order`, { body: PLACE });
    assert.equal(placed.status, 201, placed.text);
    assert.equal(placed.body.prices.discountAmount, 0);
  });

  test('a customer cart is held to the same rule', async () => {
    const p = await product(10);
    const c = await coupon({});
    const cart = (await t.req('POST', `${API}/carts`, { token: customer, body: {} })).body.id as number;
    const base = `${API}/carts/${cart}`;
    assert.equal((await t.req('POST', `${base}/items`, { token: customer, body: { sku: p.sku, qty: 1 } })).status, 200);
    assert.equal((await t.req('PUT', `${base}/shipping-address`, { token: customer, body: TEST_ADDRESS })).status, 200);
    assert.equal((await t.req('POST', `${base}/coupon`, { token: customer, body: { couponCode: c.code } })).status, 201);
    assert.equal((await t.req('DELETE', `${API}/coupons/${c.id}`, { token: admin })).status, 204);
    const { guestEmail: _, ...place } = PLACE;
    const r = await t.req('POST', `${base}/place-order`, { token: customer, body: place });
    assert.equal(r.status, 409, r.text);
    assert.equal(r.body.error, 'coupon_no_longer_valid');
    assert.equal((await t.req('GET', base, { token: customer })).status, 200);
    assert.equal((await t.req('POST', `${base}/place-order`, { token: customer, body: place })).status, 201);
  });
});

describe('gift cards', () => {
  test('a card spent elsewhere after the cart showed it: 409 giftcard_no_longer_valid with what was shown and what is left', async () => {
    const p = await product(55);
    const g = await giftcard(50);
    const m = await guestCart(p.sku);
    const shown = await t.req('POST', `${API}/guest-carts/${m}/giftcards`, { body: { giftcardCode: g.code } });
    assert.equal(shown.body.prices.giftcardAmount, 50);
    await adjustCard(g.code, -30);

    const body = await refused(m, p.id, 'giftcard_no_longer_valid');
    assert.equal(body.details.giftcardCode, g.code.toUpperCase());
    assert.equal(body.details.shownAppliedAmount, 50);
    assert.equal(body.details.balance, 20);
    assert.equal(body.details.appliedAmount, 20);
    assert.equal((await t.req('GET', `${API}/giftcards/${g.id}`, { token: admin })).body.balance, 20);

    assert.equal((await t.req('GET', `${API}/guest-carts/${m}`)).body.prices.giftcardAmount, 20);
    const placed = await t.req('POST', `${API}/guest-carts/${m}/place-order`, { body: PLACE });
    assert.equal(placed.status, 201, placed.text);
    assert.equal(placed.body.prices.giftcardAmount, 20);
    assert.equal(placed.body.prices.grandTotal, 40);
  });

  test('a card switched off is refused; a card that still covers what it covered is not', async () => {
    const p = await product(20);
    const off = await giftcard(50);
    const plenty = await giftcard(100);
    const m1 = await guestCart(p.sku);
    const m2 = await guestCart(p.sku);
    assert.equal((await t.req('POST', `${API}/guest-carts/${m1}/giftcards`, { body: { giftcardCode: off.code } })).status, 200);
    assert.equal((await t.req('POST', `${API}/guest-carts/${m2}/giftcards`, { body: { giftcardCode: plenty.code } })).status, 200);
    assert.equal((await t.req('PUT', `${API}/giftcards/${off.id}`, { token: admin, body: { status: 'disabled' } })).status < 500, true);
    await adjustCard(off.code, -50);
    await adjustCard(plenty.code, -60);
    const body = await refused(m1, p.id, 'giftcard_no_longer_valid');
    assert.equal(body.details.balance, 0);
    // 40 left still covers the 25.00 the cart showed (nothing left to pay: the free method)
    const placed = await t.req('POST', `${API}/guest-carts/${m2}/place-order`, { body: { ...PLACE, paymentMethod: 'free' } });
    assert.equal(placed.status, 201, placed.text);
    assert.equal(placed.body.prices.giftcardAmount, 25);
  });

  test('a card the shopper removed is no longer promised', async () => {
    const p = await product(20);
    const g = await giftcard(50);
    const m = await guestCart(p.sku);
    assert.equal((await t.req('POST', `${API}/guest-carts/${m}/giftcards`, { body: { giftcardCode: g.code } })).status, 200);
    assert.equal((await t.req('DELETE', `${API}/guest-carts/${m}/giftcards/${g.code.toLowerCase()}`)).status, 204);
    await adjustCard(g.code, -50);
    const placed = await t.req('POST', `${API}/guest-carts/${m}/place-order`, { body: PLACE });
    assert.equal(placed.status, 201, placed.text);
    assert.equal(placed.body.prices.giftcardAmount, 0);
  });
});

describe('free shipping', () => {
  test('free shipping shown from a 100.00 subtotal, gone after a price cut: 409 free_shipping_no_longer_valid, not a 400', async () => {
    const p = await product(120);
    const m = await guestCart(p.sku);
    const set = await t.req('PUT', `${API}/guest-carts/${m}/shipping-method`, {
      body: { carrierCode: 'freeshipping', methodCode: 'freeshipping' },
    });
    assert.equal(set.status, 200, set.text);
    assert.equal(set.body.prices.shippingAmount, 0);
    assert.equal((await t.req('PUT', `${API}/products/${p.id}`, { token: admin, body: { price: 80 } })).status, 200);
    const place = { ...PLACE, shippingMethod: 'freeshipping_freeshipping' };
    const body = await refused(m, p.id, 'free_shipping_no_longer_valid', place);
    assert.equal(body.details.shippingMethod, 'freeshipping_freeshipping');
    // choosing another method is the shopper's own change: no promise is broken
    const placed = await t.req('POST', `${API}/guest-carts/${m}/place-order`, { body: PLACE });
    assert.equal(placed.status, 201, placed.text);
    assert.equal(placed.body.prices.grandTotal, 85);
  });
});

describe('expectedGrandTotal', () => {
  test('the total the shopper agreed to: equal places, different refuses with both amounts, wrong types are 400', async () => {
    const p = await product(10);
    const m = await guestCart(p.sku, 2);
    for (const bad of ['25', -1, 1e15, null]) {
      const r = await t.req('POST', `${API}/guest-carts/${m}/place-order`, { body: { ...PLACE, expectedGrandTotal: bad } });
      assert.equal(r.status, 400, `${JSON.stringify(bad)}: ${r.text}`);
    }
    const body = await refused(m, p.id, 'totals_changed', { ...PLACE, expectedGrandTotal: 29.99 });
    assert.equal(body.details.expectedGrandTotal, 29.99);
    assert.equal(body.details.grandTotal, 30);
    assert.equal(body.details.currency, 'USD');
    const placed = await t.req('POST', `${API}/guest-carts/${m}/place-order`, { body: { ...PLACE, expectedGrandTotal: 30 } });
    assert.equal(placed.status, 201, placed.text);
    assert.equal(placed.body.prices.grandTotal, 30);
  });

  test('POST /orders and GraphQL placeOrder take it too', async () => {
    const p = await product(10);
    const m = await guestCart(p.sku);
    const r = await t.req('POST', `${API}/orders`, { body: { cartId: m, ...PLACE, expectedGrandTotal: 1 } });
    assert.equal(r.status, 409, r.text);
    assert.equal(r.body.error, 'totals_changed');
    const query = `mutation($in: placeOrderInput!) { placeOrder(input: $in) { order { incrementId prices } clientMutationId } }`;
    const input = {
      maskedId: m,
      paymentMethod: 'checkmo',
      shippingMethod: 'flatrate_flatrate',
      guestEmail: 'gql@example.com',
      clientMutationId: 'x1',
    };
    const changed = await t.req('POST', '/api/graphql', { body: { query, variables: { in: { ...input, expectedGrandTotal: 14 } } } });
    assert.equal(changed.status, 200);
    assert.equal(changed.body.data.placeOrder, null);
    assert.equal(changed.body.errors[0].extensions.code, 'TOTALS_CHANGED');
    assert.equal(changed.body.errors[0].extensions.status, 409);
    assert.equal(changed.body.errors[0].extensions.details.grandTotal, 15);
    const ok = await t.req('POST', '/api/graphql', { body: { query, variables: { in: { ...input, expectedGrandTotal: 15 } } } });
    assert.equal(ok.body.errors, undefined, ok.text);
    assert.equal(ok.body.data.placeOrder.order.prices.grandTotal, 15);
    assert.equal(ok.body.data.placeOrder.clientMutationId, 'x1');
  });

  test("GraphQL placeOrder: a missing cart is an error, never a 500; another customer's cart is not found", async () => {
    const query = `mutation($in: placeOrderInput!) { placeOrder(input: $in) { order { incrementId } } }`;
    for (const input of [
      {},
      { cartId: '999999' },
      { maskedId: 'nope' },
      { cartId: '/api/rest/v2/carts/abc' },
      { maskedId: 'x', orderNote: 'n'.repeat(2001) },
      { maskedId: 'x', expectedGrandTotal: -1 },
    ]) {
      const r = await t.req('POST', '/api/graphql', { body: { query, variables: { in: input } } });
      assert.equal(r.status, 200, r.text);
      assert.equal(r.body.data.placeOrder, null);
      assert.ok([400, 404].includes(r.body.errors[0].extensions.status), r.text);
    }
    const cart = (await t.req('POST', `${API}/carts`, { token: customer, body: {} })).body.id as number;
    const r = await t.req('POST', '/api/graphql', {
      body: { query, variables: { in: { cartId: `/api/rest/v2/carts/${cart}`, paymentMethod: 'checkmo' } } },
    });
    assert.equal(r.body.errors[0].extensions.status, 404, r.text);
  });
});
