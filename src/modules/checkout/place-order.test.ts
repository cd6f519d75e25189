/** Placing orders: the whole placement, what it refuses, who may place, and that a failure leaves nothing behind. */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { sql } from 'drizzle-orm';
import { API, buildTestApp, type TestApp } from '../../../test/helpers.js';
import { rows } from '../../platform/db.js';
import { createTestProduct } from '../../../test/fixtures/catalog.js';
import { registerCustomer } from '../customers/service.js';
import { stockOf } from '../inventory/service.js';
import { seedCatalogDemo } from '../catalog/demo.js';
import { productIdBySku } from '../catalog/sale.js';
import { loadCart, placementRead } from '../carts/load.js';
import { cartContext, priceCart } from '../carts/pricing.js';
import { placeTestOrder, TEST_ADDRESS } from '../../../test/fixtures/checkout.js';

let t: TestApp;
let admin: string;
let customer: string;
let other: string;

before(async () => {
  t = await buildTestApp();
  admin = await t.tokens.admin();
  customer = await t.tokens.customer();
  await registerCustomer(t.systemCtx(), { email: 'other-buyer@example.com', password: 'Password123!', firstname: 'O', lastname: 'Ther' });
  other = await t.tokens.customer('other-buyer@example.com', 'Password123!');
});
after(() => t.close());

async function product(qty = 100, price = 10): Promise<{ id: number; sku: string }> {
  const p = await createTestProduct(t, { price, stockData: { qty, isInStock: true } });
  return { id: p.id, sku: p.sku };
}

async function stockQty(productId: number): Promise<number> {
  return (await stockOf(t.systemCtx(), [productId])).get(productId)!.qty;
}

/** A guest cart with the items and an address, ready to place. */
async function guestCart(items: { sku: string; qty?: number }[]): Promise<string> {
  const m = (await t.req('POST', `${API}/guest-carts`, { body: {} })).body.maskedId as string;
  for (const i of items)
    assert.equal((await t.req('POST', `${API}/guest-carts/${m}/items`, { body: { sku: i.sku, qty: i.qty ?? 1 } })).status, 200);
  assert.equal((await t.req('PUT', `${API}/guest-carts/${m}/shipping-address`, { body: TEST_ADDRESS })).status, 200);
  return m;
}

const PLACE = {
  billingAddress: { sameAsShipping: true },
  shippingMethod: 'flatrate_flatrate',
  paymentMethod: 'checkmo',
  guestEmail: 'buyer@example.com',
};

async function orderCount(): Promise<number> {
  const [r] = await rows<{ n: string }>(t.database.db, sql`SELECT count(*)::text AS n FROM orders`);
  return Number(r.n);
}

describe('guest placement', () => {
  test('a guest order: totals, number, token, not invoiced, stock taken, cart closed, history and mail', async () => {
    const p = await product(50, 12.5);
    const m = await guestCart([{ sku: p.sku, qty: 3 }]);
    const r = await t.req('POST', `${API}/guest-carts/${m}/place-order`, { body: { ...PLACE, orderNote: 'Leave it at the door' } });
    assert.equal(r.status, 201, r.text);
    const o = r.body;
    assert.match(o.incrementId, /^1[0-9]{8}$/);
    assert.match(o.accessToken, /^[a-f0-9]{64}$/);
    assert.equal(o.customerIsGuest, true);
    assert.equal(o.customerId, undefined);
    assert.equal(o.customerEmail, 'buyer@example.com');
    assert.equal(o.customerNote, 'Leave it at the door');
    assert.equal(o.paymentMethod, 'checkmo');
    assert.equal(o.shippingMethod, 'flatrate_flatrate');
    assert.equal(o.prices.subtotal, 37.5);
    assert.equal(o.prices.shippingAmount, 15);
    assert.equal(o.prices.taxAmount, 0);
    assert.equal(o.prices.grandTotal, 52.5);
    // check / money order, as in Maho: pending, nothing invoiced or paid until the back office invoices it
    assert.equal(o.state, 'new');
    assert.equal(o.status, 'pending');
    assert.equal(o.prices.totalPaid, 0);
    assert.equal(o.prices.totalDue, 52.5);
    assert.equal(o.items.length, 1);
    assert.equal(o.items[0].sku, p.sku);
    assert.equal(o.items[0].qtyOrdered, 3);
    assert.equal(o.items[0].qtyInvoiced, 0);
    assert.equal(o.items[0].rowTotal, 37.5);
    assert.equal(o.billingAddress.firstname, 'Tess');
    assert.equal(o.shippingAddress.city, 'Austin');
    assert.deepEqual(o.statusHistory, [], 'the placement entry is not visible on the storefront');
    assert.equal(o.emailSent, true);
    assert.equal(await stockQty(p.id), 47);
    assert.equal((await t.req('GET', `${API}/guest-carts/${m}`)).status, 404, 'an ordered guest cart is gone');
    const mails = await rows<{ subject: string; text_body: string }>(
      t.database.db,
      sql`SELECT subject, text_body FROM mail_outbox WHERE to_address = 'buyer@example.com' AND template = 'sales/order_confirmation'`,
    );
    assert.equal(mails.length, 1);
    assert.match(mails[0].subject, new RegExp(o.incrementId));
    assert.match(mails[0].text_body, /52\.50/);
  });

  test('order numbers follow each other in a store', async () => {
    const a = await placeTestOrder(t);
    const b = await placeTestOrder(t);
    assert.equal(Number(b.incrementId), Number(a.incrementId) + 1);
  });

  test('POST /orders places a guest cart named by its masked id, without a token', async () => {
    const p = await product();
    const m = await guestCart([{ sku: p.sku }]);
    const r = await t.req('POST', `${API}/orders`, { body: { cartId: m, ...PLACE } });
    assert.equal(r.status, 201, r.text);
    assert.match(r.body.accessToken, /^[a-f0-9]{64}$/);
    const again = await t.req('POST', `${API}/orders`, { body: { maskedId: m, cartId: 1, ...PLACE } });
    assert.equal(again.status, 404, 'an ordered cart cannot be ordered again');
  });

  test('cash on delivery: placed as new, nothing invoiced or paid yet', async () => {
    const o = await placeTestOrder(t, { paymentMethod: 'cashondelivery' });
    assert.equal(o.state, 'new');
    assert.equal(o.status, 'pending');
    assert.equal(o.prices.totalPaid, 0);
    assert.equal(o.prices.totalDue, o.prices.grandTotal);
    assert.equal(o.items[0].qtyInvoiced, 0);
  });

  test('the coupon is counted and the gift card debited', async () => {
    const p = await product(100, 60);
    const before = await t.req('GET', `${API}/coupons`, { token: admin, query: { code: 'WELCOME10' } });
    const coupon = before.body.member[0];
    const o = await placeTestOrder(t, {
      items: [{ sku: p.sku, qty: 2 }],
      couponCode: 'WELCOME10',
      giftcardCodes: ['GC-DEMO-0000-0000-0001'],
    });
    assert.equal(o.couponCode, 'WELCOME10');
    assert.equal(o.prices.discountAmount, 12);
    assert.equal(o.prices.giftcardAmount, 50);
    assert.deepEqual(o.giftcardCodes, { 'GC-DEMO-0000-0000-0001': 50 });
    // 120 - 12 discount + 10 flat-rate shipping - 50 gift card
    assert.equal(o.prices.grandTotal, 68);
    const after = await t.req('GET', `${API}/coupons/${coupon.id}`, { token: admin });
    assert.equal(after.body.timesUsed, coupon.timesUsed + 1);
    const g = await t.req('POST', '/api/graphql', {
      body: { query: '{ checkGiftcardBalance(code: "GC-DEMO-0000-0000-0001") { balance status } }' },
    });
    assert.equal(g.body.data.checkGiftcardBalance.balance, 0);
  });
});

describe('customer placement', () => {
  test("a customer's cart becomes the customer's order", async () => {
    const o = await placeTestOrder(t, { customerToken: customer });
    assert.equal(o.customerIsGuest, false);
    assert.equal(o.customerEmail, 'customer@example.com');
    assert.equal(o.customerFirstname, 'Jane');
    assert.equal(o.accessToken, undefined, 'no guest token on a customer order');
    assert.ok(o.customerId! > 0);
  });

  test("another customer's cart is a 404; anonymous is 401; an API user needs orders/create", async () => {
    const p = await product();
    const cart = (await t.req('POST', `${API}/carts`, { token: customer, body: {} })).body;
    await t.req('POST', `${API}/carts/${cart.id}/items`, { token: customer, body: { sku: p.sku } });
    await t.req('PUT', `${API}/carts/${cart.id}/shipping-address`, { token: customer, body: TEST_ADDRESS });
    const body = { billingAddress: { sameAsShipping: true }, shippingMethod: 'flatrate_flatrate', paymentMethod: 'checkmo' };
    assert.equal((await t.req('POST', `${API}/carts/${cart.id}/place-order`, { token: other, body })).status, 404);
    assert.equal((await t.req('POST', `${API}/carts/${cart.id}/place-order`, { body })).status, 401);
    assert.equal((await t.req('POST', `${API}/orders`, { body: { cartId: cart.id, ...body } })).status, 404);
    assert.equal((await t.req('POST', `${API}/orders`, { token: other, body: { cartId: cart.id, ...body } })).status, 404);
    const reader = await t.tokens.apiUser(['orders/read', 'carts/all']);
    assert.equal((await t.req('POST', `${API}/carts/${cart.id}/place-order`, { token: reader, body })).status, 403);
    assert.equal((await t.req('POST', `${API}/orders`, { token: reader, body: { cartId: cart.id, ...body } })).status, 403);
    assert.equal(await stockQty(p.id), 100, 'nothing was taken');
    const placed = await t.req('POST', `${API}/orders`, { token: admin, body: { cartId: cart.id, ...body } });
    assert.equal(placed.status, 201, placed.text);
    assert.equal(placed.body.customerEmail, 'customer@example.com');
  });
});

describe('what placement refuses, changing nothing', () => {
  test('empty cart, missing or unavailable methods, bad email, unknown fields, malformed bodies', async () => {
    const p = await product();
    const empty = (await t.req('POST', `${API}/guest-carts`, { body: {} })).body.maskedId;
    const m = await guestCart([{ sku: p.sku }]);
    const count = await orderCount();
    const cases: [string, unknown, number, RegExp?][] = [
      [empty, PLACE, 400, /empty/],
      [m, { ...PLACE, shippingMethod: undefined }, 400, /shipping method is required/],
      [m, { ...PLACE, shippingMethod: 'nope_nope' }, 400, /not available/],
      [m, { ...PLACE, paymentMethod: undefined }, 400, /payment method is required/],
      [m, { ...PLACE, paymentMethod: 'purchaseorder' }, 400, /not available/],
      [m, { ...PLACE, paymentMethod: 'bogus' }, 400],
      [m, { ...PLACE, guestEmail: 'not-an-email' }, 400, /email/],
      [m, { ...PLACE, guestEmail: undefined }, 400, /email/],
      [m, { ...PLACE, shippingAddress: { ...TEST_ADDRESS, countryId: 'XX' } }, 400],
      [m, { ...PLACE, shippingAddress: { city: 'x' } }, 400, /Missing required address fields/],
      [m, { ...PLACE, paymentMethod: 5 }, 400],
      [m, { ...PLACE, orderNote: 'x'.repeat(2001) }, 400],
    ];
    for (const [cart, body, status, msg] of cases) {
      const r = await t.req('POST', `${API}/guest-carts/${cart}/place-order`, { body });
      assert.equal(r.status, status, `${JSON.stringify(body)}: ${r.text}`);
      if (msg) assert.match(r.body.message, msg);
    }
    const bad = await t.req('POST', `${API}/guest-carts/${m}/place-order`, {
      raw: '{"paymentMethod":',
      headers: { 'content-type': 'application/json' },
    });
    assert.equal(bad.status, 400);
    assert.equal((await t.req('POST', `${API}/orders`, { body: {} })).status, 400);
    assert.equal((await t.req('POST', `${API}/orders`, { body: { cartId: 0 } })).status, 400);
    assert.equal((await t.req('POST', `${API}/guest-carts/${encodeURIComponent('../carts/1')}/place-order`, { body: PLACE })).status, 404);
    assert.equal(await orderCount(), count);
    assert.equal(await stockQty(p.id), 100);
    assert.equal((await t.req('GET', `${API}/guest-carts/${m}`)).body.isActive, true);
  });

  test('not enough stock at placement: 409, no order, the coupon not counted, the cart still open', async () => {
    const p = await product(3);
    const m = await guestCart([{ sku: p.sku, qty: 3 }]);
    await t.req('POST', `${API}/guest-carts/${m}/coupon`, { body: { couponCode: 'WELCOME10' } });
    // someone else buys one meanwhile
    await t.req('PUT', `${API}/inventory`, { token: admin, body: { sku: p.sku, qty: 2 } });
    const coupon = (await t.req('GET', `${API}/coupons`, { token: admin, query: { code: 'WELCOME10' } })).body.member[0];
    const count = await orderCount();
    const r = await t.req('POST', `${API}/guest-carts/${m}/place-order`, { body: PLACE });
    assert.equal(r.status, 409, r.text);
    assert.match(r.body.message, /stock/i);
    assert.equal(await orderCount(), count);
    assert.equal(await stockQty(p.id), 2);
    assert.equal((await t.req('GET', `${API}/coupons/${coupon.id}`, { token: admin })).body.timesUsed, coupon.timesUsed);
    assert.equal((await t.req('GET', `${API}/guest-carts/${m}`)).status, 200);
  });
});

describe('bundles at placement', () => {
  test("a bundle's selections are checked against their stock and take it, read after the cart was filled", async () => {
    const ctx = t.systemCtx();
    await seedCatalogDemo(ctx);
    const tote = (await productIdBySku(ctx, 'BAG-TOTE'))!;
    assert.equal(
      (await t.req('PUT', `${API}/inventory`, { token: admin, body: { sku: 'BAG-TOTE', qty: 5, isInStock: true } })).status,
      200,
    );
    // the kit's default bag is the tote
    const m = await guestCart([{ sku: 'KIT-TRAVEL', qty: 2 }]);
    // sold elsewhere meanwhile: one tote left for a cart of two kits
    assert.equal((await t.req('PUT', `${API}/inventory`, { token: admin, body: { sku: 'BAG-TOTE', qty: 1 } })).status, 200);
    const count = await orderCount();
    const refused = await t.req('POST', `${API}/guest-carts/${m}/place-order`, { body: PLACE });
    assert.equal(refused.status, 409, refused.text);
    assert.match(refused.body.message, /stock/i);
    assert.equal(await orderCount(), count);
    assert.equal(await stockQty(tote), 1);
    assert.equal((await t.req('PUT', `${API}/inventory`, { token: admin, body: { sku: 'BAG-TOTE', qty: 3 } })).status, 200);
    // what the placement reads with the items (the kit's own stock, not its selections') prices the cart as a full read does
    const loaded = (await loadCart(ctx, { kind: 'guest', maskedId: m }))!;
    const read = await placementRead(ctx, loaded.cart.id);
    assert.ok(!read.stock.has(tote));
    const cctx = cartContext(ctx, loaded.cart);
    const [fromRead, fromScratch] = await Promise.all([
      priceCart(cctx, loaded.cart, read.items, { version: read.version, stock: read.stock, stockRead: read.stockRead }),
      priceCart(cctx, loaded.cart, loaded.items),
    ]);
    assert.deepEqual(
      fromRead.items.map((i) => i.inStock),
      [true],
    );
    assert.deepEqual(
      fromScratch.items.map((i) => i.inStock),
      [true],
    );
    const placed = await t.req('POST', `${API}/guest-carts/${m}/place-order`, { body: PLACE });
    assert.equal(placed.status, 201, placed.text);
    assert.equal(await stockQty(tote), 1);
  });
});

describe('a cart changed while it is placed', () => {
  test('lines added while the cart is being placed are either in the order or refused, never lost', async () => {
    // the placement reads the cart without a lock and writes it only if it is still the version read; a line
    // added in between makes it place the cart again on the locked path
    const p = await product(1000, 3);
    for (let round = 0; round < 8; round++) {
      const m = await guestCart([{ sku: p.sku }]);
      const adds = Array.from({ length: 4 }, () => t.req('POST', `${API}/guest-carts/${m}/items`, { body: { sku: p.sku, qty: 1 } }));
      const [placed, ...added] = await Promise.all([t.req('POST', `${API}/guest-carts/${m}/place-order`, { body: PLACE }), ...adds]);
      assert.equal(placed.status, 201, placed.text);
      for (const a of added) assert.ok(a.status === 200 || a.status === 400 || a.status === 404, `${a.status} ${a.text}`);
      const [cart] = await rows<{ qty: string }>(
        t.database.db,
        sql`SELECT sum(i.qty)::text AS qty FROM cart_items i JOIN carts c ON c.id = i.cart_id WHERE c.masked_id = ${m}`,
      );
      const ordered = (placed.body.items as { qtyOrdered: number }[]).reduce((n, i) => n + Number(i.qtyOrdered), 0);
      assert.equal(ordered, Number(cart.qty), `round ${round}: the order has every line the cart had when it closed`);
      assert.equal(ordered, 1 + added.filter((a) => a.status === 200).length);
      assert.equal(placed.body.prices.grandTotal, ordered * 3 + ordered * 5, 'priced as ordered: 3 each and flat-rate shipping of 5 each');
    }
  });
});

describe('concurrent placements (PostgreSQL)', { skip: !process.env.TEST_DATABASE_URL }, () => {
  test('30 parallel orders for a product with 5 in stock: exactly 5 orders, stock 0', async () => {
    const p = await product(5);
    const carts = await Promise.all(Array.from({ length: 30 }, () => guestCart([{ sku: p.sku }])));
    const results = await Promise.all(carts.map((m) => t.req('POST', `${API}/guest-carts/${m}/place-order`, { body: PLACE })));
    const codes = results.map((r) => r.status).sort();
    assert.equal(codes.filter((c) => c === 201).length, 5, codes.join(','));
    assert.ok(
      codes.every((c) => c === 201 || c === 409),
      codes.join(','),
    );
    assert.equal(await stockQty(p.id), 0);
    const [n] = await rows<{ n: string }>(t.database.db, sql`SELECT count(*)::text AS n FROM order_items WHERE product_id = ${p.id}`);
    assert.equal(Number(n.n), 5);
  });

  test('a coupon with usage limit 1 used by 10 parallel orders is consumed once', async () => {
    const code = `ONCE-${Date.now()}`;
    const c = await t.req('POST', `${API}/coupons`, {
      token: admin,
      body: { code, discountType: 'percent', discountAmount: 10, usageLimit: 1 },
    });
    assert.equal(c.status, 201, c.text);
    const p = await product();
    const carts = await Promise.all(Array.from({ length: 10 }, () => guestCart([{ sku: p.sku }])));
    for (const m of carts)
      assert.equal((await t.req('POST', `${API}/guest-carts/${m}/coupon`, { body: { couponCode: code } })).status, 201);
    const results = await Promise.all(carts.map((m) => t.req('POST', `${API}/guest-carts/${m}/place-order`, { body: PLACE })));
    assert.equal(results.filter((r) => r.status === 201).length, 1, results.map((r) => r.status).join(','));
    assert.ok(
      results.every((r) => r.status === 201 || (r.status === 409 && r.body.error === 'coupon_no_longer_valid')),
      results.map((r) => r.text).join('; '),
    );
    assert.equal((await t.req('GET', `${API}/coupons/${c.body.id}`, { token: admin })).body.timesUsed, 1);
  });

  test('a gift card is never debited below zero by parallel orders', async () => {
    const g = await t.req('POST', `${API}/giftcards`, { token: admin, body: { balance: 30 } });
    assert.equal(g.status, 201, g.text);
    const p = await product(100, 40);
    const carts = await Promise.all(Array.from({ length: 8 }, () => guestCart([{ sku: p.sku }])));
    for (const m of carts)
      assert.equal((await t.req('POST', `${API}/guest-carts/${m}/giftcards`, { body: { giftcardCode: g.body.code } })).status, 200);
    // each cart (40) was shown all 30 of the card: the first order takes it; every other one is refused, whether
    // its debit finds too little or it was priced after that commit and sees a spent card
    const results = await Promise.all(carts.map((m) => t.req('POST', `${API}/guest-carts/${m}/place-order`, { body: PLACE })));
    const ok = results.filter((r) => r.status === 201);
    assert.equal(ok.length, 1, results.map((r) => `${r.status} ${r.body?.message ?? ''}`).join('; '));
    assert.ok(
      results.every((r) => r.status === 201 || (r.status === 409 && r.body.error === 'giftcard_no_longer_valid')),
      results.map((r) => r.status).join(','),
    );
    const card = await t.req('GET', `${API}/giftcards/${g.body.id}`, { token: admin });
    assert.ok(card.body.balance >= 0);
    const spent = ok.reduce((n, r) => n + r.body.prices.giftcardAmount, 0);
    assert.equal(Math.round((30 - card.body.balance) * 100), Math.round(spent * 100), 'the card lost exactly what the orders took');
    assert.ok(spent <= 30);
  });
});
