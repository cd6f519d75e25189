/**
 * The access matrix of a token limited to some store views: an API user holding every permission ('all') but
 * limited to store view B (of a second website) must not reach, change or create data of store A (the default
 * store view, main website), whatever the operation. Every declared operation with an admin or customerOrAdmin
 * access rule is listed here, either with the data it touches and a check, or as not store-scoped with a
 * reason; a new operation in neither list fails the test. Routes written by hand (files, uploads) are held to
 * the same rule through the OpenAPI document, and the public operations that answer back-office callers more
 * are checked too. Rows every store view shares (CMS content of "all store views", tax, customer groups) are
 * readable but not writable by such a token, as in Magento's store-restricted admin roles.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { eq, sql } from 'drizzle-orm';
import { allOperations } from '../src/modules/index.js';
import { createTestProduct } from './fixtures/catalog.js';
import { placeTestOrder } from './fixtures/checkout.js';
import { createWebsite } from '../src/modules/stores/service.js';
import { storeGroups } from '../src/modules/stores/tables.js';
import { rows } from '../src/platform/db.js';
import { API, buildTestApp, type Res, type TestApp } from './helpers.js';

let t: TestApp;
let admin: string;
/** every permission, limited to store view B */
let scoped: string;
const B = 'scope_b_en';
let storeB: number;

/** Rows of store A (and shared ones) the checks aim at; made through the API in `before`. */
const A: Record<string, number> = {};
let skuA = '';
let guestCartA = '';
let customerToken = '';

/** A request of the limited token, in its own store view. */
function asB(method: string, path: string, body?: unknown): Promise<Res> {
  return t.req(method, `${API}${path}${path.includes('?') ? '&' : '?'}store=${B}`, {
    token: scoped,
    body,
    headers: { accept: 'application/json' },
  });
}

function asAdmin(method: string, path: string, body?: unknown): Promise<Res> {
  return t.req(method, `${API}${path}`, { token: admin, body, headers: { accept: 'application/json' } });
}

async function made(method: string, path: string, body: unknown, token = admin): Promise<any> {
  const r = await t.req(method, `${API}${path}`, { token, body });
  assert.ok(r.status === 201 || r.status === 200, `${method} ${path}: ${r.status} ${r.text}`);
  return r.body;
}

/** The limited token gets `status` (in the error shape) and, when `read` is given, the admin reads the same before and after. */
async function refused(status: number | number[], method: string, path: string, body?: unknown, read?: string): Promise<void> {
  const before = read ? await asAdmin('GET', read) : undefined;
  const r = await asB(method, path, body);
  const wanted = [status].flat();
  assert.ok(wanted.includes(r.status), `${method} ${path}: wanted ${wanted.join(' or ')}, got ${r.status} ${r.text}`);
  assert.equal(typeof r.body?.error, 'string', `${method} ${path}: the error shape`);
  if (read) {
    const afterwards = await asAdmin('GET', read);
    assert.equal(afterwards.status, before!.status);
    assert.deepEqual(afterwards.body, before!.body, `${method} ${path} changed ${read}`);
  }
}

const notFound = (method: string, path: string, body?: unknown, read?: string) => refused(404, method, path, body, read);
const forbidden = (method: string, path: string, body?: unknown, read?: string) => refused(403, method, path, body, read);

/** The list the limited token gets leaves out `id`, which the admin's holds. */
async function listOmits(path: string, id: number, key = 'id'): Promise<void> {
  const all = await asAdmin('GET', path);
  assert.equal(all.status, 200, all.text);
  assert.ok(
    all.body.some((x: any) => x[key] === id),
    `the admin's ${path} holds ${id}`,
  );
  const mine = await asB('GET', path);
  assert.equal(mine.status, 200, mine.text);
  assert.ok(!mine.body.some((x: any) => x[key] === id), `${path} of the limited token holds ${id}`);
}

interface Check {
  /** the data the operation touches */
  data: string;
  check(): Promise<void>;
}

const p = () => A.product;
const cartItem = { sku: 'none', qty: 1 };
const GIFT = { sender: 'Ann', recipient: 'Bob', message: 'Hi' };

/** A write on a sub-resource of product A (main website only): 404, as for a missing product. */
const productOp = (method: string, tail: string, body?: unknown): Check => ({
  data: "product A's sub-resources",
  check: () => notFound(method, `/products/${p()}${tail}`, body),
});

/** An operation on cart A (store A): not found. */
const cartOp = (method: string, tail: string, body?: unknown): Check => ({
  data: 'cart A',
  check: () => notFound(method, `/carts/${A.cart}${tail}`, body),
});

/** Sales documents answer 403 for another store's (the orders, shipments and credit memos modules' rule). */
const NOT_YOURS = [403, 404];

const orderOp = (method: string, tail: string, body?: unknown): Check => ({
  data: 'order A',
  check: () => refused(NOT_YOURS, method, `/orders/${A.order}${tail}`, body, `/orders/${A.order}`),
});

/** Data every store view shares: the limited token reads it and may not change it (403). */
const globalWrite = (method: string, path: () => string, body: unknown, data: string): Check => ({
  data: `${data} (every store view shares them: read-only for a limited token)`,
  check: () => forbidden(method, path(), body),
});

const ADDRESS = {
  firstname: 'Ann',
  lastname: 'Other',
  street: ['1 Road'],
  city: 'Austin',
  postcode: '73301',
  countryId: 'US',
  telephone: '555',
};

/** Operations with data of a store view or website, and how the limited token is kept to its own. */
const SCOPED: Record<string, Check> = {
  // every report refuses another store view's figures (its own are checked in each report's tests)
  ...Object.fromEntries(
    ['sales', 'bestsellers', 'coupons', 'tax', 'new-customers', 'low-stock', 'abandoned-carts', 'search-terms'].map((r) => [
      `reports.${r.replace(/-(\w)/g, (_m: string, c: string) => c.toUpperCase())}`,
      { data: `the ${r} report of store A`, check: () => refused(403, 'GET', `/reports/${r}?storeId=1`) },
    ]),
  ),
  'taxClasses.create': globalWrite('POST', () => '/tax-classes', { className: 'Scoped class' }, 'tax classes'),
  'taxClasses.update': globalWrite('PUT', () => `/tax-classes/${A.taxClass}`, { className: 'Renamed' }, 'tax classes'),
  'taxClasses.delete': globalWrite('DELETE', () => `/tax-classes/${A.taxClass}`, undefined, 'tax classes'),
  'taxRates.create': globalWrite('POST', () => '/tax-rates', { code: 'SCOPED', taxCountryId: 'US', rate: 5 }, 'tax rates'),
  'taxRates.update': globalWrite('PUT', () => `/tax-rates/${A.taxRate}`, { rate: 50 }, 'tax rates'),
  'taxRates.delete': globalWrite('DELETE', () => `/tax-rates/${A.taxRate}`, undefined, 'tax rates'),
  'taxRules.create': globalWrite(
    'POST',
    () => '/tax-rules',
    { code: 'SCOPED', customerTaxClassIds: [3], productTaxClassIds: [2], taxRateIds: [1] },
    'tax rules',
  ),
  'taxRules.update': globalWrite('PUT', () => `/tax-rules/${A.taxRule}`, { priority: 5 }, 'tax rules'),
  'taxRules.delete': globalWrite('DELETE', () => `/tax-rules/${A.taxRule}`, undefined, 'tax rules'),
  'customerGroups.create': globalWrite('POST', () => '/customer-groups', { code: 'Scoped group', taxClassId: 3 }, 'customer groups'),
  'customerGroups.update': globalWrite('PUT', () => '/customer-groups/2', { code: 'Renamed group' }, 'customer groups'),
  'customerGroups.delete': globalWrite('DELETE', () => '/customer-groups/3', undefined, 'customer groups'),

  'customers.list': { data: 'customers of website A', check: () => listOmits('/customers?email=customer@example.com', A.customer) },
  'customers.quickCreate': {
    data: 'customers of website A',
    check: async () => {
      const r = await asB('POST', '/customers/quick-create', { email: 'scoped-quick@example.com', firstname: 'S', lastname: 'Q' });
      assert.equal(r.status, 201, r.text);
      const [row] = await rows<{ website_id: number }>(t.database.db, sql`SELECT website_id FROM customers WHERE id = ${r.body.id}`);
      assert.notEqual(row.website_id, 1, 'created in its own website');
    },
  },
  'customers.get': { data: 'customer A', check: () => notFound('GET', `/customers/${A.customer}`) },
  'customers.update': {
    data: 'customer A',
    check: () => notFound('PUT', `/customers/${A.customer}`, { firstname: 'Taken' }, `/customers/${A.customer}`),
  },
  'customers.delete': {
    data: 'customer A',
    check: () => notFound('DELETE', `/customers/${A.customer}`, undefined, `/customers/${A.customer}`),
  },
  'customers.addresses.listFor': { data: "customer A's addresses", check: () => notFound('GET', `/customers/${A.customer}/addresses`) },
  'customers.addresses.createFor': {
    data: "customer A's addresses",
    check: () => notFound('POST', `/customers/${A.customer}/addresses`, ADDRESS, `/customers/${A.customer}/addresses`),
  },
  'customers.addresses.updateFor': {
    data: "customer A's addresses",
    check: () =>
      notFound('PUT', `/customers/${A.customer}/addresses/${A.address}`, { city: 'Taken' }, `/customers/${A.customer}/addresses`),
  },
  'customers.addresses.deleteFor': {
    data: "customer A's addresses",
    check: () => notFound('DELETE', `/customers/${A.customer}/addresses/${A.address}`, undefined, `/customers/${A.customer}/addresses`),
  },
  'customers.sendPasswordReset': {
    data: 'customer A',
    check: () => notFound('POST', `/customers/${A.customer}/password-reset`, {}),
  },
  'wishlist.listFor': { data: "customer A's wishlist", check: () => notFound('GET', `/customers/${A.customer}/wishlist`) },

  'products.create': {
    data: 'products of website A',
    check: () => forbidden('POST', '/products', { sku: 'scoped-a', name: 'Scoped A', price: 1, websiteIds: [1] }),
  },
  'products.update': { data: 'product A', check: () => notFound('PUT', `/products/${p()}`, { name: 'Taken' }) },
  'products.delete': { data: 'product A', check: () => notFound('DELETE', `/products/${p()}`) },
  'products.media.create': {
    data: "product A's gallery",
    check: () => notFound('POST', `/products/${p()}/media`, { base64: PNG, filename: 'a.png' }),
  },
  'products.media.update': productOp('PUT', '/media', { valueId: 1, label: 'Taken' }),
  'products.media.delete': productOp('DELETE', '/media?valueId=1'),
  'products.customOptions.create': productOp('POST', '/custom-options', { title: 'More', type: 'field' }),
  'products.customOptions.update': productOp('PUT', '/custom-options/1', { title: 'Taken' }),
  'products.customOptions.delete': productOp('DELETE', '/custom-options/1'),
  'products.tierPrices.list': productOp('GET', '/tier-prices'),
  'products.tierPrices.replace': productOp('POST', '/tier-prices', [{ qty: 3, price: 1 }]),
  'products.tierPrices.put': productOp('PUT', '/tier-prices', [{ qty: 3, price: 1 }]),
  'products.tierPrices.clear': productOp('DELETE', '/tier-prices'),
  'products.groupPrices.replace': productOp('PUT', '/group-prices', [{ price: 1 }]),
  'products.groupPrices.clear': productOp('DELETE', '/group-prices'),
  'products.bundleOptions.create': productOp('POST', '/bundle-options', { title: 'More' }),
  'products.bundleOptions.updateById': productOp('PUT', '/bundle-options', { id: 1, title: 'Taken' }),
  'products.bundleOptions.deleteById': productOp('DELETE', '/bundle-options?id=1'),
  'products.bundleOptions.update': productOp('PUT', '/bundle-options/1', { title: 'Taken' }),
  'products.bundleOptions.delete': productOp('DELETE', '/bundle-options/1'),
  'products.configurable.set': productOp('PUT', '/configurable', { superAttributes: ['color'] }),
  'products.configurable.addChild': productOp('POST', '/configurable/children', { childProductId: 1 }),
  'products.configurable.removeChild': productOp('DELETE', '/configurable/children/1'),
  'products.grouped.add': productOp('POST', '/grouped', { childProductId: 1 }),
  'products.grouped.replace': productOp('PUT', '/grouped', []),
  'products.grouped.remove': productOp('DELETE', '/grouped/1'),
  'products.links.related.add': productOp('POST', '/links/related', { linkedProductId: 2147483000 }),
  'products.links.related.replace': productOp('PUT', '/links/related', []),
  'products.links.related.remove': productOp('DELETE', '/links/related/1'),
  'products.links.crossSell.add': productOp('POST', '/links/cross-sell', { linkedProductId: 2147483000 }),
  'products.links.crossSell.replace': productOp('PUT', '/links/cross-sell', []),
  'products.links.crossSell.remove': productOp('DELETE', '/links/cross-sell/1'),
  'products.links.upSell.add': productOp('POST', '/links/up-sell', { linkedProductId: 2147483000 }),
  'products.links.upSell.replace': productOp('PUT', '/links/up-sell', []),
  'products.links.upSell.remove': productOp('DELETE', '/links/up-sell/1'),
  'products.downloadableLinks.create': productOp('POST', '/downloadable-links', { title: 'More', linkUrl: 'http://example.com/more.pdf' }),
  'products.downloadableLinks.updateById': productOp('PUT', '/downloadable-links', { id: 1, title: 'Taken' }),
  'products.downloadableLinks.update': productOp('PUT', '/downloadable-links/1', { title: 'Taken' }),
  'products.downloadableLinks.deleteById': productOp('DELETE', '/downloadable-links?id=1'),
  'products.downloadableLinks.delete': productOp('DELETE', '/downloadable-links/1'),
  'categories.create': {
    data: "the main website's category tree",
    // a parent outside the token's tree is as unknown to it (400) or refused
    check: () => refused([400, 403, 404], 'POST', '/categories', { name: 'Scoped', parentId: A.category }),
  },
  'categories.update': { data: 'category A', check: () => refused([403, 404], 'PUT', `/categories/${A.category}`, { name: 'Taken' }) },
  'categories.delete': { data: 'category A', check: () => refused([403, 404], 'DELETE', `/categories/${A.category}`) },
  'inventory.list': {
    data: "product A's stock",
    check: async () => {
      const all = await asAdmin('GET', '/inventory?itemsPerPage=100');
      assert.ok(
        all.body.some((x: any) => x.sku === skuA),
        "the admin's list holds product A's stock",
      );
      const mine = await asB('GET', '/inventory?itemsPerPage=100');
      assert.equal(mine.status, 200, mine.text);
      assert.ok(!mine.body.some((x: any) => x.sku === skuA), "the limited token's list holds product A's stock");
    },
  },
  'inventory.get': { data: "product A's stock", check: () => notFound('GET', `/inventory/${skuA}`) },
  'inventory.update': { data: "product A's stock", check: () => notFound('PUT', '/inventory', { sku: skuA, qty: 1 }) },
  'inventory.bulkUpdate': {
    data: "product A's stock",
    // an item the token may not see reads as an unknown SKU: the whole request is refused
    check: () => refused([400, 404], 'PUT', '/inventory/bulk', { items: [{ sku: skuA, qty: 1 }] }),
  },

  'reviews.create': {
    data: 'product A',
    check: () => notFound('POST', `/products/${p()}/reviews`, { title: 'T', detail: 'D', nickname: 'N' }),
  },
  'reviews.list': { data: 'reviews of store A', check: () => listOmits('/reviews', A.review) },
  'reviews.update': {
    data: 'review A, a review of A and B',
    check: async () => {
      await notFound('PUT', `/reviews/${A.review}`, { status: 'approved' }, `/reviews/${A.review}`);
      await forbidden('PUT', `/reviews/${A.reviewAB}`, { stores: [storeB] }, `/reviews/${A.reviewAB}`);
    },
  },

  'tags.create': { data: 'tags of store A', check: () => forbidden('POST', '/tags', { name: 'scoped-tag', storeId: 1 }) },
  'tags.update': {
    data: 'tag A, a tag of A and B',
    check: async () => {
      await notFound('PUT', `/tags/${A.tag}`, { name: 'Taken' }, `/tags/${A.tag}`);
      await forbidden('PUT', `/tags/${A.tagAB}`, { name: 'Taken' }, `/tags/${A.tagAB}`);
      await forbidden('PUT', `/tags/${A.tagAB}`, { basePopularity: 9, storeId: 1 }, `/tags/${A.tagAB}?storeId=1`);
    },
  },
  'tags.delete': {
    data: 'tag A, a tag of A and B',
    check: async () => {
      await notFound('DELETE', `/tags/${A.tag}`, undefined, `/tags/${A.tag}`);
      await forbidden('DELETE', `/tags/${A.tagAB}`, undefined, `/tags/${A.tagAB}`);
    },
  },
  'tags.assignProducts': {
    data: "tag A, the uses of store A's products",
    check: async () => {
      await notFound('PUT', `/tags/${A.tag}/products`, { storeId: storeB, assign: [p()] }, `/tags/${A.tag}`);
      await forbidden('PUT', `/tags/${A.tagAB}/products`, { storeId: 1, unassign: [p()] }, `/tags/${A.tagAB}?storeId=1`);
    },
  },

  'coupons.list': { data: 'coupons of website A', check: () => listOmits('/coupons?code=WELCOME10', A.coupon) },
  'coupons.get': { data: 'coupon A', check: () => notFound('GET', `/coupons/${A.coupon}`) },
  'coupons.create': {
    data: 'coupons of website A',
    check: () => forbidden('POST', '/coupons', { code: 'SCOPED-A', discountType: 'percent', discountAmount: 5, websiteIds: [1] }),
  },
  'coupons.update': {
    data: 'coupon A',
    check: () => notFound('PUT', `/coupons/${A.coupon}`, { discountAmount: 50 }, `/coupons/${A.coupon}`),
  },
  'coupons.delete': { data: 'coupon A', check: () => notFound('DELETE', `/coupons/${A.coupon}`, undefined, `/coupons/${A.coupon}`) },
  'giftcards.list': { data: 'gift cards of website A', check: () => listOmits('/giftcards', A.giftcard) },
  'giftcards.get': { data: 'gift card A', check: () => notFound('GET', `/giftcards/${A.giftcard}`) },
  'giftcards.adjustBalance': {
    data: 'gift card A',
    check: () => notFound('POST', '/giftcards/adjust-balance', { id: A.giftcard, amount: 1 }, `/giftcards/${A.giftcard}`),
  },
  'giftcards.create': {
    data: 'gift cards of website A',
    check: () => forbidden('POST', '/giftcards', { initialBalance: 5, websiteIds: [1] }),
  },
  'giftcards.update': {
    data: 'gift card A',
    check: () => notFound('PUT', `/giftcards/${A.giftcard}`, { status: 'disabled' }, `/giftcards/${A.giftcard}`),
  },

  'carts.list': { data: 'carts of store A', check: () => listOmits('/carts', A.cart) },
  'carts.create': {
    data: 'carts of store A, customer A',
    check: async () => {
      await forbidden('POST', '/carts', { storeId: 1 });
      // a customer of another website is as unknown as a missing one
      await refused(400, 'POST', '/carts', { customerId: A.customer });
    },
  },
  'carts.get': cartOp('GET', ''),
  'carts.addItem': cartOp('POST', '/items', cartItem),
  'carts.updateItem': cartOp('PUT', '/items/1', { qty: 2 }),
  'carts.removeItem': cartOp('DELETE', '/items/1'),
  'carts.totals': cartOp('GET', '/totals'),
  'carts.assignCustomer': cartOp('PUT', '/customer', { customerId: 1 }),
  'carts.applyCoupon': cartOp('POST', '/coupon', { couponCode: 'WELCOME10' }),
  'carts.removeCoupon': cartOp('DELETE', '/coupon'),
  'carts.applyGiftcard': cartOp('POST', '/giftcards', { giftcardCode: 'NONE' }),
  'carts.removeGiftcard': cartOp('DELETE', '/giftcards/NONE'),
  'carts.shippingMethods': cartOp('POST', '/shipping-methods', {}),
  'carts.paymentMethods': cartOp('GET', '/payment-methods'),
  'carts.setShippingAddress': cartOp('PUT', '/shipping-address', { ...ADDRESS, firstName: 'A', lastName: 'B' }),
  'carts.setBillingAddress': cartOp('PUT', '/billing-address', { ...ADDRESS, firstName: 'A', lastName: 'B' }),
  'carts.setShippingMethod': cartOp('PUT', '/shipping-method', { carrierCode: 'flatrate', methodCode: 'flatrate' }),
  'carts.setPaymentMethod': cartOp('PUT', '/payment-method', { method: 'checkmo' }),
  'carts.setGiftMessage': cartOp('PUT', '/gift-message', GIFT),
  'carts.removeGiftMessage': cartOp('DELETE', '/gift-message'),
  'carts.setItemGiftMessage': cartOp('PUT', '/items/1/gift-message', GIFT),
  'carts.removeItemGiftMessage': cartOp('DELETE', '/items/1/gift-message'),
  'carts.placeOrder': cartOp('POST', '/place-order', { paymentMethod: 'checkmo', shippingMethod: 'flatrate_flatrate' }),
  'guestCarts.assignCustomer': {
    data: 'guest cart A',
    check: () => refused([403, 404], 'PUT', `/guest-carts/${guestCartA}/customer`, { customerId: A.customerB }),
  },

  'orders.list': { data: 'orders of store A', check: () => listOmits('/orders', A.order) },
  'orders.get': orderOp('GET', ''),
  'orders.hold': orderOp('POST', '/hold', {}),
  'orders.unhold': orderOp('POST', '/unhold', {}),
  'orders.cancel': orderOp('POST', '/cancel', {}),
  'orders.addComment': orderOp('POST', '/comments', { comment: 'Taken' }),
  'invoices.list': orderOp('GET', '/invoices'),
  'invoices.listAll': { data: 'invoices of store A', check: () => listOmits('/invoices', A.invoice) },
  'invoices.get': { data: 'invoice A', check: () => refused(NOT_YOURS, 'GET', `/invoices/${A.invoice}`) },
  'invoices.create': orderOp('POST', '/invoices', {}),
  'invoices.capture': {
    data: 'invoice A',
    check: () => refused(NOT_YOURS, 'POST', `/invoices/${A.openInvoice}/capture`, {}, `/orders/${A.order}/invoices`),
  },
  'invoices.void': {
    data: 'invoice A',
    check: () => refused(NOT_YOURS, 'POST', `/invoices/${A.invoice}/void`, {}, `/orders/${A.order}/invoices`),
  },
  'invoices.cancel': {
    data: 'invoice A',
    check: () => refused(NOT_YOURS, 'POST', `/invoices/${A.openInvoice}/cancel`, {}, `/orders/${A.order}/invoices`),
  },
  'shipments.list': { data: 'shipments of store A', check: () => listOmits('/shipments', A.shipment) },
  'shipments.listOfOrder': orderOp('GET', '/shipments'),
  'shipments.create': orderOp('POST', '/shipments', {}),
  'shipments.get': { data: 'shipment A', check: () => refused(NOT_YOURS, 'GET', `/shipments/${A.shipment}`) },
  'shipments.addTrack': {
    data: 'shipment A',
    check: () =>
      refused(
        NOT_YOURS,
        'POST',
        `/shipments/${A.shipment}/tracks`,
        { carrierCode: 'ups', title: 'UPS', trackNumber: '1Z' },
        `/shipments/${A.shipment}`,
      ),
  },
  'shipments.removeTrack': {
    data: 'shipment A',
    check: () => refused(NOT_YOURS, 'DELETE', `/shipments/${A.shipment}/tracks/${A.track}`, undefined, `/shipments/${A.shipment}`),
  },
  'shipments.addComment': {
    data: 'shipment A',
    check: () => refused(NOT_YOURS, 'POST', `/shipments/${A.shipment}/comments`, { comment: 'Taken' }, `/shipments/${A.shipment}`),
  },
  'creditMemos.get': { data: 'credit memo A', check: () => refused(NOT_YOURS, 'GET', `/credit-memos/${A.creditMemo}`) },
  'creditMemos.listAll': { data: 'credit memos of store A', check: () => listOmits('/credit-memos', A.creditMemo) },
  'creditMemos.list': orderOp('GET', '/credit-memos'),
  'creditMemos.create': orderOp('POST', '/credit-memos', {}),

  'cmsPages.create': {
    data: 'CMS pages of store A and of every store view',
    check: async () => {
      await forbidden('POST', '/cms-pages', { identifier: 'scoped-a', title: 'A', stores: [1] });
      await forbidden('POST', '/cms-pages', { identifier: 'scoped-all', title: 'All' });
      await forbidden('POST', '/cms-pages', { identifier: 'scoped-mixed', title: 'Mixed', stores: [storeB, 1] });
    },
  },
  'cmsPages.update': {
    data: 'CMS page A, a page of every store view, a page of A and B',
    check: async () => {
      await notFound('PUT', `/cms-pages/${A.page}`, { title: 'Taken' }, `/cms-pages/${A.page}`);
      await forbidden('PUT', `/cms-pages/${A.pageAll}`, { title: 'Taken' }, `/cms-pages/${A.pageAll}`);
      await forbidden('PUT', `/cms-pages/${A.pageAB}`, { title: 'Taken' }, `/cms-pages/${A.pageAB}`);
      await forbidden('PUT', `/cms-pages/${A.pageB}`, { stores: [1] }, `/cms-pages/${A.pageB}`);
    },
  },
  'cmsPages.delete': {
    data: 'CMS page A, a page of every store view',
    check: async () => {
      await notFound('DELETE', `/cms-pages/${A.page}`, undefined, `/cms-pages/${A.page}`);
      await forbidden('DELETE', `/cms-pages/${A.pageAll}`, undefined, `/cms-pages/${A.pageAll}`);
    },
  },
  'cmsBlocks.create': {
    data: 'CMS blocks of store A and of every store view',
    check: async () => {
      await forbidden('POST', '/cms-blocks', { identifier: 'scoped-a', title: 'A', stores: ['default'] });
      await forbidden('POST', '/cms-blocks', { identifier: 'scoped-all', title: 'All', stores: ['all'] });
    },
  },
  'cmsBlocks.update': {
    data: 'CMS block A, a block of every store view',
    check: async () => {
      await notFound('PUT', `/cms-blocks/${A.block}`, { title: 'Taken' }, `/cms-blocks/${A.block}`);
      await forbidden('PUT', `/cms-blocks/${A.blockAll}`, { title: 'Taken' }, `/cms-blocks/${A.blockAll}`);
    },
  },
  'cmsBlocks.delete': {
    data: 'CMS block A, a block of every store view',
    check: async () => {
      await notFound('DELETE', `/cms-blocks/${A.block}`, undefined, `/cms-blocks/${A.block}`);
      await forbidden('DELETE', `/cms-blocks/${A.blockAll}`, undefined, `/cms-blocks/${A.blockAll}`);
    },
  },
  'blogPosts.create': {
    data: 'blog posts of store A and of every store view',
    check: async () => {
      await forbidden('POST', '/blog-posts', { title: 'Scoped A', stores: [1] });
      await forbidden('POST', '/blog-posts', { title: 'Scoped all' });
    },
  },
  'blogPosts.update': {
    data: 'blog post A, a post of every store view',
    check: async () => {
      await notFound('PUT', `/blog-posts/${A.post}`, { title: 'Taken' }, `/blog-posts/${A.post}`);
      await forbidden('PUT', `/blog-posts/${A.postAll}`, { title: 'Taken' }, `/blog-posts/${A.postAll}`);
      // a category the token cannot see is unknown to it
      await refused(400, 'PUT', `/blog-posts/${A.postB}`, { categoryIds: [A.blogCategory] }, `/blog-posts/${A.postB}`);
    },
  },
  'blogPosts.delete': {
    data: 'blog post A, a post of every store view',
    check: async () => {
      await notFound('DELETE', `/blog-posts/${A.post}`, undefined, `/blog-posts/${A.post}`);
      await forbidden('DELETE', `/blog-posts/${A.postAll}`, undefined, `/blog-posts/${A.postAll}`);
    },
  },
  'blogCategories.create': {
    data: 'blog categories of store A and of every store view',
    check: async () => {
      await forbidden('POST', '/blog-categories', { name: 'Scoped A', stores: [1] });
      await forbidden('POST', '/blog-categories', { name: 'Scoped all' });
      await refused(400, 'POST', '/blog-categories', { name: 'Under A', stores: [storeB], parentId: A.blogCategory });
    },
  },
  'blogCategories.update': {
    data: 'blog category A, a category of every store view',
    check: async () => {
      await notFound('PUT', `/blog-categories/${A.blogCategory}`, { name: 'Taken' }, `/blog-categories/${A.blogCategory}`);
      await forbidden('PUT', `/blog-categories/${A.blogCategoryAll}`, { name: 'Taken' }, `/blog-categories/${A.blogCategoryAll}`);
    },
  },
  'blogCategories.delete': {
    data: 'blog category A, a category of every store view, one of B with a subcategory of A',
    check: async () => {
      await notFound('DELETE', `/blog-categories/${A.blogCategory}`, undefined, `/blog-categories/${A.blogCategory}`);
      await forbidden('DELETE', `/blog-categories/${A.blogCategoryAll}`, undefined, `/blog-categories/${A.blogCategoryAll}`);
      await forbidden('DELETE', `/blog-categories/${A.blogCategoryB}`, undefined, `/blog-categories/${A.blogCategoryUnderB}`);
    },
  },

  'newsletter.subscribers.list': { data: 'subscribers of store A', check: () => listOmits('/newsletter/subscribers', A.subscriber) },
  'newsletter.subscribers.get': { data: 'subscriber A', check: () => notFound('GET', `/newsletter/subscribers/${A.subscriber}`) },
  'newsletter.subscribers.create': {
    data: 'subscribers of store A',
    check: async () => {
      await forbidden('POST', '/newsletter/subscribers', { email: 'scoped-news@example.com', storeId: 1 });
      await notFound('POST', '/newsletter/subscribers', { customerId: A.customer });
    },
  },
  'newsletter.subscribers.update': {
    data: 'subscriber A',
    check: () =>
      notFound('PUT', `/newsletter/subscribers/${A.subscriber}`, { status: 'unsubscribed' }, `/newsletter/subscribers/${A.subscriber}`),
  },
  'revocation.list': { data: 'revocation requests of store A', check: () => listOmits('/revocation-requests', A.revocation) },
  'revocation.get': { data: 'revocation request A', check: () => notFound('GET', `/revocation-requests/${A.revocation}`) },
  'revocation.update': {
    data: 'revocation request A',
    check: () => notFound('PUT', `/revocation-requests/${A.revocation}`, { adminNote: 'Taken' }, `/revocation-requests/${A.revocation}`),
  },

  'webhooks.list': {
    data: 'subscriptions of store A and of every store',
    check: async () => {
      await listOmits('/webhooks', A.hook);
      await listOmits('/webhooks', A.hookAll);
      const mine = await asB('GET', '/webhooks');
      assert.deepEqual(
        mine.body.map((w: any) => w.id),
        [A.hookB],
      );
    },
  },
  'webhooks.get': {
    data: 'subscription A, a subscription of every store',
    check: async () => {
      await notFound('GET', `/webhooks/${A.hook}`);
      await notFound('GET', `/webhooks/${A.hookAll}`);
    },
  },
  'webhooks.create': {
    data: 'subscriptions of every store and of store A',
    check: async () => {
      await forbidden('POST', '/webhooks', { url: 'http://127.0.0.1:9/all', events: ['*'] });
      await forbidden('POST', '/webhooks', { url: 'http://127.0.0.1:9/all', events: ['*'], storeCodes: null });
      await forbidden('POST', '/webhooks', { url: 'http://127.0.0.1:9/a', events: ['*'], storeCodes: ['default'] });
      await forbidden('POST', '/webhooks', { url: 'http://127.0.0.1:9/ab', events: ['*'], storeCodes: [B, 'default'] });
    },
  },
  'webhooks.update': {
    data: 'subscription A; moving subscription B to every store or store A',
    check: async () => {
      await notFound('PUT', `/webhooks/${A.hook}`, { url: 'http://127.0.0.1:9/mine' }, `/webhooks/${A.hook}`);
      await notFound('PUT', `/webhooks/${A.hookAll}`, { url: 'http://127.0.0.1:9/mine' }, `/webhooks/${A.hookAll}`);
      await forbidden('PUT', `/webhooks/${A.hookB}`, { storeCodes: null }, `/webhooks/${A.hookB}`);
      await forbidden('PUT', `/webhooks/${A.hookB}`, { storeCodes: ['default'] }, `/webhooks/${A.hookB}`);
    },
  },
  'webhooks.rotateSecret': {
    data: 'subscription A',
    check: () => notFound('POST', `/webhooks/${A.hook}/rotate-secret`, undefined, `/webhooks/${A.hook}`),
  },
  'webhooks.ping': { data: 'subscription A', check: () => notFound('POST', `/webhooks/${A.hook}/ping`) },
  'webhooks.deliveries': { data: "subscription A's deliveries", check: () => notFound('GET', `/webhooks/${A.hook}/deliveries`) },
  'webhooks.delivery': {
    data: "subscription A's deliveries",
    check: () => notFound('GET', `/webhooks/${A.hook}/deliveries/${A.delivery}`),
  },
  'webhooks.redeliver': {
    data: "subscription A's deliveries",
    check: () => notFound('POST', `/webhooks/${A.hook}/deliveries/${A.delivery}/redeliver`),
  },
  'adminUsers.passkeyDelete': globalWrite('DELETE', () => '/admin-users/1/passkeys/1', undefined, "staff users' passkeys"),

  'adminRoles.create': globalWrite('POST', () => '/admin-roles', { name: 'Scoped role', permissions: ['all'] }, 'staff roles'),
  'adminRoles.update': globalWrite('PUT', () => '/admin-roles/1', { permissions: [] }, 'staff roles'),
  'adminRoles.delete': globalWrite('DELETE', () => '/admin-roles/1', undefined, 'staff roles'),
  'adminUsers.create': globalWrite(
    'POST',
    () => '/admin-users',
    { username: 'scoped-staff', email: 'scoped-staff@example.com', password: 'Secret123', roleId: 1 },
    'staff users',
  ),
  'adminUsers.update': globalWrite('PUT', () => '/admin-users/1', { allowedStoreIds: null }, 'staff users'),
  'adminUsers.delete': globalWrite('DELETE', () => '/admin-users/1', undefined, 'staff users'),
  'adminUsers.sendPasswordReset': globalWrite('POST', () => '/admin-users/1/password-reset', {}, 'staff users'),
  'apiRoles.create': globalWrite('POST', () => '/api-roles', { name: 'Scoped API role', permissions: ['all'] }, 'API roles'),
  'apiRoles.update': globalWrite('PUT', () => '/api-roles/1', { permissions: [] }, 'API roles'),
  'apiRoles.delete': globalWrite('DELETE', () => '/api-roles/1', undefined, 'API roles'),
  'apiUsers.create': globalWrite('POST', () => '/api-users', { username: 'scoped-api-user', roleId: 1 }, 'API users'),
  'apiUsers.update': globalWrite('PUT', () => '/api-users/1', { allowedStoreIds: null }, 'API users'),
  'apiUsers.resetKey': globalWrite('POST', () => '/api-users/1/key', {}, 'API users'),
  'apiUsers.delete': globalWrite('DELETE', () => '/api-users/1', undefined, 'API users'),

  'activityLog.list': {
    data: 'the writes made in store A',
    check: async () => listOmits('/activity-log', await lastWriteInA()),
  },
  'activityLog.get': { data: 'a write made in store A', check: async () => notFound('GET', `/activity-log/${await lastWriteInA()}`) },

  'configuration.get': {
    data: "store A's configuration",
    check: () => forbidden('GET', '/configuration?scope=stores&scopeId=1'),
  },
  'configuration.update': {
    data: "store A's configuration",
    check: () =>
      forbidden(
        'PUT',
        '/configuration',
        { scope: 'stores', scopeId: 1, values: { 'general/store_information/name': 'Not yours' } },
        '/configuration?scope=stores&scopeId=1&section=general',
      ),
  },
  'configuration.history': {
    data: "the changes to store A's configuration",
    check: async () => {
      const put = await asAdmin('PUT', '/configuration', {
        scope: 'stores',
        scopeId: 1,
        values: { 'general/store_information/name': 'Store A' },
      });
      assert.equal(put.status, 200, put.text);
      const mine = await asAdmin('GET', '/configuration/history?path=general/store_information/name');
      assert.equal(mine.status, 200, mine.text);
      await listOmits('/configuration/history', mine.body[0].id);
    },
  },

  // last: a delete let through would leave nothing for the checks above
  'webhooks.delete': { data: 'subscription A', check: () => notFound('DELETE', `/webhooks/${A.hook}`, undefined, `/webhooks/${A.hook}`) },
};

/** The newest activity log row of a write the admin made in store A. */
async function lastWriteInA(): Promise<number> {
  const r = await asAdmin('GET', '/activity-log?storeId=1');
  assert.equal(r.status, 200, r.text);
  return r.body[0].id;
}

/** Operations with no data of one store view or website, and why. */
const NOT_SCOPED: Record<string, string> = {
  'adminRoles.list': 'staff roles belong to no store view (readable; writes refused above)',
  'adminRoles.get': 'staff roles belong to no store view (readable; writes refused above)',
  'adminUsers.list': 'staff users belong to no store view (readable; writes refused above)',
  'adminUsers.get': 'staff users belong to no store view (readable; writes refused above)',
  'apiRoles.list': 'API roles belong to no store view (readable; writes refused above)',
  'apiRoles.get': 'API roles belong to no store view (readable; writes refused above)',
  'apiUsers.list': 'API users belong to no store view (readable; writes refused above)',
  'apiUsers.get': 'API users belong to no store view (readable; writes refused above)',
  'taxClasses.list': 'tax classes are shared by every store view (readable; writes refused above)',
  'taxClasses.get': 'tax classes are shared by every store view (readable; writes refused above)',
  'taxRates.list': 'tax rates are shared by every store view (readable; writes refused above)',
  'taxRates.get': 'tax rates are shared by every store view (readable; writes refused above)',
  'taxRules.list': 'tax rules are shared by every store view (readable; writes refused above)',
  'taxRules.get': 'tax rules are shared by every store view (readable; writes refused above)',
  'customerGroups.list': 'customer groups are shared by every website (readable; writes refused above)',
  'customerGroups.get': 'customer groups are shared by every website (readable; writes refused above)',
  'productAttributes.list': 'attribute definitions are global',
  'productAttributes.get': 'attribute definitions are global',
  'attributeSets.list': 'attribute sets are global',
  'attributeSets.get': 'attribute sets are global',
  'productAttributes.create': 'attribute definitions are global',
  'productAttributes.update': 'attribute definitions are global',
  'productAttributes.delete': 'attribute definitions are global',
  'attributeSets.create': 'attribute sets are global',
  'attributeSets.update': 'attribute sets are global',
  'attributeSets.delete': 'attribute sets are global',
  'media.list': 'the media library: files every store view’s content links to, not rows of a store',
  'media.folders': 'the media library (see media.list)',
  'configuration.sections': 'the declared sections and groups: the same for every store view',
  'webhooks.events': 'the declared event types: the same for every store view',
  'adminUsers.passkeys': 'staff accounts are shared by every store view (readable; removing a passkey refused above)',
};

/** Routes written by hand (not declarations) that need a token, by operationId, with their check or why none. */
const HAND_ROUTES: Record<string, Check | string> = {
  'invoices.pdf': { data: "order A's invoices", check: () => refused(NOT_YOURS, 'GET', `/invoices/${A.invoice}/pdf`) },
  'invoices.pdfOwn': "a customer's own invoice: no admin access",
  'media.upload': 'the media library (see media.list)',
  'media.delete': 'the media library (see media.list)',
};

/** Public operations that answer back-office callers more: held to the token's stores as well. */
const PUBLIC_WITH_BACK_OFFICE: Record<string, Check> = {
  'customers.register': {
    data: 'customers of website A',
    check: async () => {
      await forbidden('POST', '/customers', {
        email: 'scoped-a@example.com',
        password: 'Password123!',
        firstname: 'S',
        lastname: 'A',
        websiteId: 1,
      });
      const r = await asB('POST', '/customers', { email: 'scoped-b@example.com', password: 'Password123!', firstname: 'S', lastname: 'B' });
      assert.equal(r.status, 201, r.text);
      const [row] = await rows<{ website_id: number }>(t.database.db, sql`SELECT website_id FROM customers WHERE id = ${r.body.id}`);
      assert.notEqual(row.website_id, 1, 'created in its own website');
    },
  },
  'products.get': { data: 'product A', check: () => notFound('GET', `/products/${p()}`) },
  'products.media.list': productOp('GET', '/media'),
  'products.customOptions.list': productOp('GET', '/custom-options'),
  'products.links.related.list': productOp('GET', '/links/related'),
  'reviews.get': { data: 'review A', check: () => notFound('GET', `/reviews/${A.review}`) },
  'tags.list': { data: 'tags of store A', check: () => listOmits('/tags', A.tag) },
  'tags.get': { data: 'tag A', check: () => notFound('GET', `/tags/${A.tag}`) },
  'tags.products': { data: "tag A's products", check: () => notFound('GET', `/tags/${A.tag}/products`) },
  'tags.listByProduct': productOp('GET', '/tags'),

  'orders.create': {
    data: 'cart A',
    check: () => notFound('POST', '/orders', { cartId: A.cart, paymentMethod: 'checkmo', shippingMethod: 'flatrate_flatrate' }),
  },
  'cmsPages.list': {
    data: 'CMS pages of store A',
    check: async () => {
      await listOmits('/cms-pages?scope=all', A.page);
      const mine = await asB('GET', '/cms-pages?scope=all');
      const ids = mine.body.map((x: any) => x.id);
      assert.ok(ids.includes(A.pageAll) && ids.includes(A.pageB) && ids.includes(A.pageAB), 'its own and shared pages');
    },
  },
  'cmsPages.get': {
    data: 'CMS page A',
    check: async () => {
      await notFound('GET', `/cms-pages/${A.page}`);
      assert.equal((await asB('GET', `/cms-pages/${A.pageAll}`)).status, 200, 'a page of every store view is readable');
    },
  },
  'cmsBlocks.list': { data: 'CMS blocks of store A', check: () => listOmits('/cms-blocks?scope=all', A.block) },
  'cmsBlocks.get': { data: 'CMS block A', check: () => notFound('GET', `/cms-blocks/${A.block}`) },
  'blogPosts.list': { data: 'blog posts of store A', check: () => listOmits('/blog-posts?scope=all', A.post) },
  'blogPosts.get': { data: 'blog post A', check: () => notFound('GET', `/blog-posts/${A.post}`) },
  'blogCategories.list': { data: 'blog categories of store A', check: () => listOmits('/blog-categories?scope=all', A.blogCategory) },
  'blogCategories.get': { data: 'blog category A', check: () => notFound('GET', `/blog-categories/${A.blogCategory}`) },
};

const PNG = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAIAAACQd1PeAAAADElEQVR4nGNgYGAAAAAEAAH2FzhVAAAAAElFTkSuQmCC';

before(async () => {
  t = await buildTestApp();
  admin = await t.tokens.admin();
  const site = await createWebsite(t.database.db, t.services.settings, {
    code: 'scope_b',
    name: 'Scope B',
    storeCode: B,
    storeName: 'Scope B EN',
  });
  storeB = site.storeId;
  // website B has a category tree of its own
  const root = await made('POST', '/categories', { name: 'Scope B Root', parentId: 1 });
  await t.database.db.update(storeGroups).set({ rootCategoryId: root.id }).where(eq(storeGroups.id, site.groupId));
  await t.services.settings.reload();
  scoped = await t.tokens.apiUser(['all'], { allowedStoreIds: [storeB] });

  const product = await createTestProduct(t, { stockData: { qty: 100, isInStock: true } });
  A.product = product.id;
  skuA = product.sku;
  A.category = (await made('POST', '/categories', { name: 'Scope A Category' })).id;
  A.customer = (await asAdmin('GET', '/customers?email=customer@example.com')).body[0].id;
  A.address = (await made('POST', `/customers/${A.customer}/addresses`, { ...ADDRESS, countryId: 'GB' })).id;
  customerToken = await t.tokens.customer();
  A.customerB = (
    await made('POST', `/customers?store=${B}`, {
      email: 'b-customer@example.com',
      password: 'Password123!',
      firstname: 'B',
      lastname: 'C',
    })
  ).id;
  const order = await placeTestOrder(t, { customerToken, items: [{ sku: skuA, qty: 2 }] });
  A.order = order.id;
  // one unit invoiced and paid (refunded below), the other invoiced and left open
  A.invoice = (await made('POST', `/orders/${order.id}/invoices`, { items: [{ orderItemId: order.items[0].id, qty: 1 }] })).id;
  A.openInvoice = (await made('POST', `/orders/${order.id}/invoices`, { capture: 'not_capture' })).id;
  A.shipment = (await made('POST', `/orders/${order.id}/shipments`, {})).id;
  A.track = (await made('POST', `/shipments/${A.shipment}/tracks`, { carrierCode: 'ups', title: 'UPS', trackNumber: '1Z999' })).id;
  A.creditMemo = (await made('POST', `/orders/${order.id}/credit-memos`, { items: [{ orderItemId: order.items[0].id, qty: 1 }] })).id;
  A.revocation = (
    await made('POST', '/customers/me/revocation-requests', { orderId: order.id, reason: 'Changed my mind' }, customerToken)
  ).id;
  A.cart = (await made('POST', '/carts', {})).id;
  guestCartA = (await made('POST', '/guest-carts', {})).maskedId;
  A.review = (await made('POST', `/products/${A.product}/reviews`, { title: 'Fine', detail: 'A fine lamp.', nickname: 'Al' })).id;
  A.reviewAB = (await made('POST', `/products/${A.product}/reviews`, { title: 'Both', detail: 'Seen in A and B.', nickname: 'Bo' })).id;
  await made('PUT', `/reviews/${A.reviewAB}`, { stores: [1, storeB] });
  A.tag = (await made('POST', '/tags', { name: 'tag-a', storeId: 1, productIds: [A.product] })).id;
  A.tagAB = (await made('POST', '/tags', { name: 'tag-ab', storeId: 1, productIds: [A.product] })).id;
  await made('PUT', `/tags/${A.tagAB}/products`, { storeId: storeB, assign: [A.product] });

  A.coupon = (await asAdmin('GET', '/coupons?code=WELCOME10')).body[0].id;
  A.giftcard = (await made('POST', '/giftcards', { initialBalance: 10 })).id;
  await made('POST', '/newsletter/subscribe', { email: 'a-news@example.com' }, '');
  A.subscriber = (await asAdmin('GET', '/newsletter/subscribers?email=a-news@example.com')).body[0].id;
  A.taxClass = (await asAdmin('GET', '/tax-classes')).body[0].id;
  A.taxRate = (await asAdmin('GET', '/tax-rates')).body[0].id;
  A.taxRule = (await asAdmin('GET', '/tax-rules')).body[0].id;

  A.page = (await made('POST', '/cms-pages', { identifier: 'page-a', title: 'Page A', stores: [1] })).id;
  A.pageAll = (await made('POST', '/cms-pages', { identifier: 'page-all', title: 'Page all' })).id;
  A.pageAB = (await made('POST', '/cms-pages', { identifier: 'page-ab', title: 'Page AB', stores: [1, storeB] })).id;
  A.block = (await made('POST', '/cms-blocks', { identifier: 'block-a', title: 'Block A', stores: [1] })).id;
  A.blockAll = (await made('POST', '/cms-blocks', { identifier: 'block-all', title: 'Block all' })).id;
  A.post = (await made('POST', '/blog-posts', { title: 'Post A', stores: [1] })).id;
  A.postAll = (await made('POST', '/blog-posts', { title: 'Post all' })).id;
  A.blogCategory = (await made('POST', '/blog-categories', { name: 'Blog A', stores: [1] })).id;
  A.blogCategoryAll = (await made('POST', '/blog-categories', { name: 'Blog all' })).id;
  A.blogCategoryB = (await made('POST', '/blog-categories', { name: 'Blog B', stores: [storeB] })).id;
  A.blogCategoryUnderB = (await made('POST', '/blog-categories', { name: 'Blog A under B', stores: [1], parentId: A.blogCategoryB })).id;

  A.hook = (await made('POST', '/webhooks', { url: 'http://127.0.0.1:9/a', events: ['*'], storeCodes: ['default'] })).id;
  A.hookAll = (await made('POST', '/webhooks', { url: 'http://127.0.0.1:9/all', events: ['*'] })).id;
  A.delivery = (await made('POST', `/webhooks/${A.hook}/ping`, undefined)).id;

  // the token's own rows, made by the token itself
  const own = async (path: string, body: unknown) => {
    const r = await asB('POST', path, body);
    assert.equal(r.status, 201, `${path}: ${r.text}`);
    return r.body.id as number;
  };
  A.pageB = await own('/cms-pages', { identifier: 'page-b', title: 'Page B', stores: [storeB] });
  A.postB = await own('/blog-posts', { title: 'Post B', stores: [B] });
  A.hookB = await own('/webhooks', { url: 'http://127.0.0.1:9/b', events: ['*'], storeCodes: [B] });
});
after(() => t?.close());

const guarded = () => allOperations().filter((o) => o.access.level === 'admin' || o.access.level === 'customerOrAdmin');

describe('every admin operation is either scoped or known not to be', () => {
  test('each operation with an admin or customerOrAdmin rule is listed once', () => {
    const ids = guarded().map((o) => o.id);
    const unlisted = ids.filter((id) => !(id in SCOPED) && !(id in NOT_SCOPED));
    assert.deepEqual(unlisted, [], 'list each new operation in SCOPED (with its check) or NOT_SCOPED (with the reason)');
    const both = ids.filter((id) => id in SCOPED && id in NOT_SCOPED);
    assert.deepEqual(both, []);
    const stale = [...Object.keys(SCOPED), ...Object.keys(NOT_SCOPED)].filter((id) => !ids.includes(id));
    assert.deepEqual(stale, [], 'entries of operations that no longer exist (or are public)');
    const publicIds = new Set(
      allOperations()
        .filter((o) => o.access.level === 'public')
        .map((o) => o.id),
    );
    assert.deepEqual(
      Object.keys(PUBLIC_WITH_BACK_OFFICE).filter((id) => !publicIds.has(id)),
      [],
    );
  });

  test('each route written by hand that takes a token is listed', async () => {
    const doc = (await t.req('GET', `${API}/openapi.json`)).body;
    const declared = new Set(allOperations().map((o) => o.id));
    const found: string[] = [];
    for (const item of Object.values(doc.paths) as Record<string, any>[]) {
      for (const op of Object.values(item)) {
        if (op?.operationId && op.security?.length && !declared.has(op.operationId)) found.push(op.operationId);
      }
    }
    assert.deepEqual(found.filter((id) => !(id in HAND_ROUTES)).sort(), []);
    assert.deepEqual(
      Object.keys(HAND_ROUTES).filter((id) => !found.includes(id)),
      [],
    );
  });
});

describe('a token limited to store view B cannot reach store A', () => {
  for (const [id, c] of Object.entries(SCOPED)) test(`${id}: ${c.data}`, () => c.check());
  for (const [id, c] of Object.entries(HAND_ROUTES))
    if (typeof c !== 'string') test(`${id} (hand-written route): ${c.data}`, () => c.check());
  for (const [id, c] of Object.entries(PUBLIC_WITH_BACK_OFFICE)) test(`${id} (public, back-office view): ${c.data}`, () => c.check());

  test('GraphQL-only back-office fields (no declaration) leave store A out as well', async () => {
    const gql = async (query: string, token: string, store?: string) => {
      const r = await t.req('POST', `/api/graphql${store ? `?store=${store}` : ''}`, { token, body: { query } });
      assert.equal(r.status, 200, r.text);
      return r.body;
    };
    const lists =
      '{ shipments { totalCount } creditMemos { totalCount } giftCards { totalCount } stocks(first: 100) { edges { node { sku } } } }';
    const all = (await gql(lists, admin)).data;
    assert.ok(all.shipments.totalCount > 0 && all.creditMemos.totalCount > 0 && all.giftCards.totalCount > 0);
    assert.ok(all.stocks.edges.some((e: any) => e.node.sku === skuA));
    const mine = (await gql(lists, scoped, B)).data;
    assert.deepEqual([mine.shipments.totalCount, mine.creditMemos.totalCount, mine.giftCards.totalCount], [0, 0, 0]);
    assert.ok(!mine.stocks.edges.some((e: any) => e.node.sku === skuA));
    const one = await gql(`{ stock(id: "${skuA}") { sku qty } }`, scoped, B);
    assert.equal(one.data?.stock ?? null, null);
    assert.equal(one.errors?.[0]?.extensions?.code, 'STOCK_NOT_FOUND');
  });

  test('it reads what every store view shares', async () => {
    for (const path of [
      '/tax-classes',
      '/tax-rates',
      '/tax-rules',
      '/customer-groups',
      `/cms-pages/${A.pageAll}`,
      `/blog-posts/${A.postAll}`,
    ]) {
      const r = await asB('GET', path);
      assert.equal(r.status, 200, `${path}: ${r.text}`);
    }
  });

  test('it changes its own rows', async () => {
    assert.equal((await asB('PUT', `/cms-pages/${A.pageB}`, { title: 'Page B, renamed' })).status, 200);
    assert.equal((await asB('PUT', `/webhooks/${A.hookB}`, { description: 'mine' })).status, 200);
    const coupon = await asB('POST', '/coupons', { code: 'SCOPED-B', discountType: 'percent', discountAmount: 5 });
    assert.equal(coupon.status, 201, coupon.text);
    assert.equal((await asB('PUT', `/coupons/${coupon.body.id}`, { discountAmount: 6 })).status, 200);
    assert.equal((await asB('DELETE', `/coupons/${coupon.body.id}`)).status, 204);
  });
});

describe('webhook deliveries of a subscription limited to store view B', () => {
  test('carry the events of store B only: none of store A, none of no store view (a product)', async () => {
    await createTestProduct(t);
    assert.equal((await asAdmin('PUT', `/customers/${A.customer}`, { lastname: 'Doe-Smith' })).status, 200);
    const mine = await t.req('POST', `${API}/customers?store=${B}`, {
      body: { email: 'b-hook@example.com', password: 'Password123!', firstname: 'B', lastname: 'Hook' },
    });
    assert.equal(mine.status, 201, mine.text);
    const got = await rows<{ type: string; store_code: string | null }>(
      t.database.db,
      sql`SELECT e.type, e.store_code FROM webhook_deliveries d JOIN webhook_events e ON e.id = d.event_id WHERE d.subscription_id = ${A.hookB} ORDER BY d.id`,
    );
    assert.ok(got.length > 0, 'the customer of store B was delivered');
    assert.deepEqual([...new Set(got.map((r) => `${r.type} ${r.store_code}`))], [`customer.created ${B}`]);
    const all = await rows<{ type: string }>(
      t.database.db,
      sql`SELECT e.type FROM webhook_deliveries d JOIN webhook_events e ON e.id = d.event_id WHERE d.subscription_id = ${A.hookAll} AND e.type <> 'webhook.ping'`,
    );
    assert.ok(
      ['product.created', 'customer.updated', 'customer.created'].every((type) => all.some((r) => r.type === type)),
      'the subscription of every store gets all',
    );
  });
});
