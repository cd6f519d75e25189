/**
 * checkout/options/guest_checkout = 0 (advertised as isGuestCheckoutAllowed in the store config): a cart without
 * a customer is not placed, by any route or caller (403 GUEST_CHECKOUT_DISABLED, as Magento's
 * guest_checkout_is_not_enabled); customer carts are placed as before.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { sql } from 'drizzle-orm';
import { API, buildTestApp, type TestApp } from '../../../test/helpers.js';
import { rows } from '../../platform/db.js';
import { createTestProduct } from '../../../test/fixtures/catalog.js';
import { deleteConfig, setConfig } from '../stores/service.js';
import { placeTestOrder, TEST_ADDRESS } from '../../../test/fixtures/checkout.js';

let t: TestApp;
let admin: string;

before(async () => {
  t = await buildTestApp();
  admin = await t.tokens.admin();
});
after(() => t.close());

const orderCount = async () => Number((await rows<{ n: string }>(t.database.db, sql`SELECT count(*)::text AS n FROM orders`))[0].n);

/** A guest cart with a line, an address and methods: ready to place. */
async function readyGuestCart(): Promise<string> {
  const p = await createTestProduct(t, { price: 10, stockData: { qty: 100, isInStock: true } });
  const masked = (await t.req('POST', `${API}/guest-carts`, { body: {} })).body.maskedId as string;
  assert.equal((await t.req('POST', `${API}/guest-carts/${masked}/items`, { body: { sku: p.sku, qty: 1 } })).status, 200);
  assert.equal((await t.req('PUT', `${API}/guest-carts/${masked}/shipping-address`, { body: TEST_ADDRESS })).status, 200);
  return masked;
}

const PLACE = {
  billingAddress: { sameAsShipping: true },
  shippingMethod: 'flatrate_flatrate',
  paymentMethod: 'checkmo',
  guestEmail: 'guest@example.com',
};

function assertRefused(r: { status: number; body: any; text: string }): void {
  assert.equal(r.status, 403, r.text);
  assert.equal(r.body.error, 'forbidden');
  assert.match(r.body.message, /Guest checkout is not enabled/);
}

describe('guest checkout switch', () => {
  test('with guest_checkout = 0 a guest cart is not placed, through any route or caller, and nothing changes', async () => {
    const masked = await readyGuestCart();
    await setConfig(t.database.db, t.services.settings, 'checkout/options/guest_checkout', '0');
    try {
      assert.equal((await t.req('GET', `${API}/store-config`)).body.isGuestCheckoutAllowed, false);
      const before = await orderCount();
      assertRefused(await t.req('POST', `${API}/guest-carts/${masked}/place-order`, { body: PLACE }));
      assertRefused(await t.req('POST', `${API}/orders`, { body: { ...PLACE, cartId: masked } }));
      assertRefused(await t.req('POST', `${API}/orders`, { token: admin, body: { ...PLACE, cartId: masked } }));
      const gql = await t.gql(`mutation ($input: placeOrderInput!) { placeOrder(input: $input) { order { incrementId } } }`, undefined, {
        input: { ...PLACE, cartId: masked },
      });
      assert.equal(gql.errors?.[0]?.extensions?.code, 'GUEST_CHECKOUT_DISABLED', JSON.stringify(gql));
      assert.equal(await orderCount(), before);
      // the cart is still there, active, with its line
      const cart = await t.req('GET', `${API}/guest-carts/${masked}`);
      assert.equal(cart.status, 200);
      assert.equal(cart.body.items.length, 1);
      // a customer's cart is placed as before
      const customer = await t.tokens.customer();
      const order = await placeTestOrder(t, { customerToken: customer });
      assert.ok(order.incrementId);
    } finally {
      await deleteConfig(t.database.db, t.services.settings, 'checkout/options/guest_checkout');
    }
    const placed = await t.req('POST', `${API}/guest-carts/${masked}/place-order`, { body: PLACE });
    assert.equal(placed.status, 201, placed.text);
  });

  test('the switch is read in the cart store view', async () => {
    const masked = await readyGuestCart();
    const storeId = (await t.req('GET', `${API}/guest-carts/${masked}`)).body.storeId as number;
    await setConfig(t.database.db, t.services.settings, 'checkout/options/guest_checkout', '0', 'stores', storeId);
    try {
      const r = await t.req('POST', `${API}/guest-carts/${masked}/place-order`, { body: PLACE });
      assert.equal(r.body.code, 403, r.text);
    } finally {
      await deleteConfig(t.database.db, t.services.settings, 'checkout/options/guest_checkout', 'stores', storeId);
    }
  });
});
