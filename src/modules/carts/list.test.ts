/**
 * GET /carts prices the carts of a page together: the same number of statements for one cart as for five, each
 * cart with its customer (or none), coupon, gift card, lines and shipping, and each shown with the totals a read
 * of that cart alone shows.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { API, buildTestApp, type TestApp } from '../../../test/helpers.js';
import { createTestProduct } from '../../../test/fixtures/catalog.js';
import { TEST_ADDRESS } from '../../../test/fixtures/checkout.js';
import { consumeCoupon } from '../coupons/usage.js';
import { registerCustomer } from '../customers/service.js';

let t: TestApp;
let admin: string;
const cartIds: number[] = [];

before(async () => {
  t = await buildTestApp();
  // only the requests' own statements are counted
  await t.mail.stop();
  await t.webhooks.stop();
  admin = await t.tokens.admin();
  const skus = [];
  for (const price of [10, 12.5, 7]) skus.push((await createTestProduct(t, { price, stockData: { qty: 100, isInStock: true } })).sku as string);
  const coupon = await t.req('POST', `${API}/coupons`, {
    token: admin,
    body: { code: 'LISTONCE', discountType: 'percent', discountAmount: 20, usagePerCustomer: 1, websiteIds: [1] },
  });
  assert.equal(coupon.status, 201, coupon.text);
  const customers: (number | undefined)[] = [];
  for (let i = 0; i < 3; i++) {
    customers.push(await registerCustomer(t.systemCtx(), { email: `cart-list-${i}@example.com`, password: 'Password123!', firstname: 'List', lastname: `Cart${i}` }));
  }
  customers.push(undefined, undefined);
  for (const [i, customerId] of customers.entries()) {
    const made = await t.req('POST', `${API}/carts`, { token: admin, body: customerId ? { customerId } : {} });
    assert.equal(made.status, 201, made.text);
    const base = `${API}/carts/${made.body.id}`;
    for (const [k, sku] of skus.entries()) {
      if (k <= i % 3) assert.equal((await t.req('POST', `${base}/items`, { token: admin, body: { sku, qty: k + 1 } })).status, 200);
    }
    assert.equal((await t.req('PUT', `${base}/shipping-address`, { token: admin, body: TEST_ADDRESS })).status, 200);
    assert.equal((await t.req('PUT', `${base}/shipping-method`, { token: admin, body: { carrierCode: 'flatrate', methodCode: 'flatrate' } })).status, 200);
    const code = i % 2 ? 'WELCOME10' : 'LISTONCE';
    const applied = await t.req('POST', `${base}/coupon`, { token: admin, body: { couponCode: code } });
    assert.equal(applied.status, 201, applied.text);
    const card = await t.req('POST', `${API}/giftcards`, { token: admin, body: { initialBalance: 5 + i, websiteIds: [1] } });
    assert.equal(card.status, 201, card.text);
    assert.equal((await t.req('POST', `${base}/giftcards`, { token: admin, body: { giftcardCode: card.body.code } })).status, 200);
    cartIds.unshift(made.body.id);
  }
  // the first customer has used LISTONCE up since: their cart shows it no longer
  await consumeCoupon(t.systemCtx(), coupon.body.id, customers[0]!);
});
after(() => t.close());

/** The statements of GET /carts for a page of `size` (made once before, so that the caches are warm), and the page. */
async function listed(size: number) {
  const query = { pageSize: String(size) };
  assert.equal((await t.req('GET', `${API}/carts`, { token: admin, query })).status, 200);
  const start = t.database.queryCount();
  const res = await t.req('GET', `${API}/carts`, { token: admin, query });
  const n = t.database.queryCount() - start;
  assert.equal(res.status, 200, res.text);
  return { n, items: res.body.member as Record<string, unknown>[] };
}

describe('GET /carts', () => {
  test('a page of five carts takes the statements a page of one takes', async (c) => {
    const one = await listed(1);
    const five = await listed(5);
    assert.equal(one.items.length, 1);
    assert.deepEqual(
      five.items.map((c) => c.id),
      cartIds,
    );
    c.diagnostic(`one cart: ${one.n} statements, five carts: ${five.n}`);
    assert.equal(five.n, one.n, `one cart: ${one.n} statements, five carts: ${five.n}`);
  });

  test('each listed cart shows what a read of that cart alone shows', async () => {
    const { items } = await listed(5);
    for (const listedCart of items) {
      const alone = await t.req('GET', `${API}/carts/${listedCart.id}`, { token: admin });
      assert.equal(alone.status, 200, alone.text);
      assert.deepEqual(listedCart, alone.body);
    }
    const refused = items.find((c) => c.id === cartIds[4])!;
    assert.equal(refused.appliedCoupon, undefined, 'a coupon the customer used up applies no more');
    const withCoupon = items.filter((c) => c.appliedCoupon);
    assert.equal(withCoupon.length, 4);
    assert.ok(items.every((c) => (c.appliedGiftcards as unknown[]).length === 1));
  });
});
