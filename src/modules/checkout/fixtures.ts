/** Test factory: a real order placed through the REST API (cart, items, address, methods, placement). */
import assert from 'node:assert/strict';
import { API, type TestApp } from '../../../test/helpers.js';
import { createTestProduct } from '../catalog/fixtures.js';
import type { OrderDto } from '../orders/schemas.js';

export interface TestOrderOptions {
  /** the order belongs to this customer (a customer cart); omitted: a guest order */
  customerToken?: string;
  /** default: one new simple product, price 10.00, qty 2, stock 100 */
  items?: { sku: string; qty?: number }[];
  /** default checkmo (invoiced and paid at placement); cashondelivery is invoiced once fully shipped */
  paymentMethod?: string;
  paymentData?: Record<string, unknown>;
  /** default flatrate_flatrate (5.00 per item) */
  shippingMethod?: string;
  couponCode?: string;
  giftcardCodes?: string[];
  storeId?: number;
  /** the shipping (and billing) address; default a US address in Texas, where the demo charges no tax */
  address?: Record<string, unknown>;
  guestEmail?: string;
}

export const TEST_ADDRESS = {
  firstName: 'Tess',
  lastName: 'Tester',
  street: ['1 Test Road'],
  city: 'Austin',
  postcode: '73301',
  countryId: 'US',
  region: 'TX',
  telephone: '555-0199',
};

/** Places an order through the API and answers with the placement's reply (a guest order carries accessToken). */
export async function placeTestOrder(t: TestApp, opts: TestOrderOptions = {}): Promise<OrderDto & { accessToken?: string }> {
  const token = opts.customerToken;
  const created = await t.req('POST', token ? `${API}/carts` : `${API}/guest-carts`, { token, body: opts.storeId ? { storeId: opts.storeId } : {} });
  assert.equal(created.status, 201, `creating the cart failed: ${created.status} ${created.text}`);
  const base = token ? `${API}/carts/${created.body.id}` : `${API}/guest-carts/${created.body.maskedId}`;
  const items = opts.items ?? [{ sku: (await createTestProduct(t, { price: 10, stockData: { qty: 100, isInStock: true } })).sku as string, qty: 2 }];
  for (const item of items) {
    const r = await t.req('POST', `${base}/items`, { token, body: { sku: item.sku, qty: item.qty ?? 1 } });
    assert.equal(r.status, 200, `adding ${item.sku} failed: ${r.status} ${r.text}`);
  }
  const addr = await t.req('PUT', `${base}/shipping-address`, { token, body: opts.address ?? TEST_ADDRESS });
  assert.equal(addr.status, 200, `setting the address failed: ${addr.status} ${addr.text}`);
  if (opts.couponCode) {
    const r = await t.req('POST', `${base}/coupon`, { token, body: { couponCode: opts.couponCode } });
    assert.ok(r.status === 200 || r.status === 201, `applying the coupon failed: ${r.status} ${r.text}`);
  }
  for (const code of opts.giftcardCodes ?? []) {
    const r = await t.req('POST', `${base}/giftcards`, { token, body: { giftcardCode: code } });
    assert.equal(r.status, 200, `applying gift card ${code} failed: ${r.status} ${r.text}`);
  }
  const placed = await t.req('POST', `${base}/place-order`, {
    token,
    body: {
      billingAddress: { sameAsShipping: true },
      shippingMethod: opts.shippingMethod ?? 'flatrate_flatrate',
      paymentMethod: opts.paymentMethod ?? 'checkmo',
      ...(opts.paymentData ? { paymentData: opts.paymentData } : {}),
      ...(token ? {} : { guestEmail: opts.guestEmail ?? 'guest@example.com' }),
    },
  });
  assert.equal(placed.status, 201, `placing the order failed: ${placed.status} ${placed.text}`);
  return placed.body;
}
