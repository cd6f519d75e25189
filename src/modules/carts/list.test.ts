/**
 * GET /carts prices the carts of a page together: the same number of statements for one cart as for five (with
 * warm caches and after a catalog change), each cart with its customer (or none), coupon, gift card, lines and
 * shipping address (with its tax), and each shown with the totals a read of that cart alone shows.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { API, buildTestApp, type TestApp } from '../../../test/helpers.js';
import { createTestProduct } from '../../../test/fixtures/catalog.js';
import { TEST_ADDRESS } from '../../../test/fixtures/checkout.js';
import { countStatements } from '../../platform/db.js';
import { consumeCoupon } from '../coupons/usage.js';
import { registerCustomer } from '../customers/service.js';

const PLACES = [
  { region: 'TX', postcode: '73301' },
  { region: 'CA', postcode: '90210' },
  { region: 'NY', postcode: '10001' },
  { region: 'CA', postcode: '94105' },
  { region: 'TX', postcode: '75001' },
];

let t: TestApp;
let admin: string;
const cartIds: number[] = [];

before(async () => {
  t = await buildTestApp();
  admin = await t.tokens.admin();
  const skus = [];
  for (const price of [10, 12.5, 7])
    skus.push((await createTestProduct(t, { price, taxClassId: 2, stockData: { qty: 100, isInStock: true } })).sku as string);
  const coupon = await t.req('POST', `${API}/coupons`, {
    token: admin,
    body: { code: 'LISTONCE', discountType: 'percent', discountAmount: 20, usagePerCustomer: 1, websiteIds: [1] },
  });
  assert.equal(coupon.status, 201, coupon.text);
  const customers: (number | undefined)[] = [];
  for (let i = 0; i < 3; i++) {
    customers.push(
      await registerCustomer(t.systemCtx(), {
        email: `cart-list-${i}@example.com`,
        password: 'Password123!',
        firstname: 'List',
        lastname: `Cart${i}`,
      }),
    );
  }
  customers.push(undefined, undefined);
  for (const [i, customerId] of customers.entries()) {
    const made = await t.req('POST', `${API}/carts`, { token: admin, body: customerId ? { customerId } : {} });
    assert.equal(made.status, 201, made.text);
    const base = `${API}/carts/${made.body.id}`;
    for (const [k, sku] of skus.entries()) {
      if (k <= i % 3) assert.equal((await t.req('POST', `${base}/items`, { token: admin, body: { sku, qty: k + 1 } })).status, 200);
    }
    // each cart ships somewhere else: its own tax lookup
    const address = { ...TEST_ADDRESS, ...PLACES[i] };
    assert.equal((await t.req('PUT', `${base}/shipping-address`, { token: admin, body: address })).status, 200);
    assert.equal(
      (await t.req('PUT', `${base}/shipping-method`, { token: admin, body: { carrierCode: 'flatrate', methodCode: 'flatrate' } })).status,
      200,
    );
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
  const { n, result: res } = await countStatements(() => t.req('GET', `${API}/carts`, { token: admin, query }));
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

  test('on cold caches too: after a catalog change, five carts shipping to five places take the statements of one', async (c) => {
    const cold = async (size: number) => {
      // a catalog change: what pricing keeps per catalog version (products, stock, tax rates) is read again
      await createTestProduct(t, { price: 3 });
      const { n, result: res } = await countStatements(() =>
        t.req('GET', `${API}/carts`, { token: admin, query: { pageSize: String(size) } }),
      );
      assert.equal(res.status, 200, res.text);
      assert.equal(res.body.member.length, size);
      return n;
    };
    const one = await cold(1);
    const five = await cold(5);
    c.diagnostic(`cold: one cart: ${one} statements, five carts: ${five}`);
    assert.equal(five, one, `cold: one cart: ${one} statements, five carts: ${five}`);
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
