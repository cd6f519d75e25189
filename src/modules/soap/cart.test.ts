/**
 * The Magento 1 API's shopping cart (cart, cart_product, cart_customer, cart_shipping, cart_payment, cart_coupon) and
 * giftmessage: a guest order placed with Python's xmlrpc.client and seen through sales_order.info and REST, and every
 * method and fault over JSON-RPC, all-or-nothing changes in a fixed number of statements, the last item ordered by two
 * carts at once, the roles' permissions and a store-limited API user.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { API, type TestApp } from '../../../test/helpers.js';
import { CART_ADDRESS, cartProduct, newCoupon, readyCart, restStock } from '../../../test/fixtures/legacy-cart.js';
import { LegacyClient, runScenario, skipWithout, type Step } from '../../../test/fixtures/legacy-api.js';
import { newCustomer, startSoapApp } from '../../../test/fixtures/soap.js';
import { seedCatalogDemo } from '../catalog/demo.js';
import { productsForSale } from '../catalog/sale.js';
import { setConfig } from '../stores/service.js';

let t: TestApp;
let base: string;
let admin: string;
const api = new LegacyClient(() => base);
const { ok, fault, call, faultCodes } = api;
const product = (qty?: number, body?: Record<string, unknown>) => cartProduct(t, qty, body);
const stock = async (sku: string) => (await restStock(t, sku)).qty;

before(async () => {
  ({ t, base } = await startSoapApp());
  admin = await t.tokens.admin();
  api.session = await api.sessionOf();
});
after(() => t?.close());

describe('a guest order with Python xmlrpc.client', { skip: skipWithout('python') }, () => {
  let r: Record<string, Step>;
  let made: { sku: string; id: number }[];
  let code: string;

  before(async () => {
    made = [await product(10), await product(10)];
    code = await newCoupon(t);
    r = await runScenario('python', 'cart_scenario.py', base, {
      RPC_SKUS: made.map((p) => p.sku).join(','),
      RPC_COUPON: code,
      RPC_EMAIL: 'pat@example.com',
    });
  });

  test('builds the cart step by step: products, guest, addresses, methods, coupon', () => {
    assert.match(r.create.ok, /^\d+$/);
    for (const s of ['add', 'customer', 'addresses', 'shippingMethod', 'paymentMethod', 'coupon']) assert.equal(r[s].ok, true, s);
    assert.deepEqual(
      r.list.ok.map((p: any) => [p.product_id, p.sku, p.type, p.set]),
      made.map((p) => [String(p.id), p.sku, 'simple', '1']),
    );
    assert.deepEqual(
      r.shippingList.ok.find((x: any) => x.carrier === 'flatrate'),
      {
        carrier: 'flatrate',
        carrier_title: 'Flat Rate',
        code: 'flatrate_flatrate',
        method: 'flatrate',
        method_description: null,
        price: '15.0000',
        error_message: null,
        method_title: 'Fixed',
        carrierName: 'Flat Rate',
      },
    );
    assert.deepEqual(r.unknownShipping.fault, [1062, 'Shipping method is not available']);
    assert.ok(r.paymentList.ok.some((m: any) => m.code === 'checkmo' && m.cc_types === null));
    assert.deepEqual(r.badCoupon.fault, [1083, 'Coupon is not valid.']);
  });

  test('the totals and the cart as Magento reads them', () => {
    // 3 units of 10.00, 10% off, flat rate 5.00 per item (the rate lists 15.00), no tax in Texas
    assert.deepEqual(r.totals.ok, [
      { title: 'Subtotal', amount: '30.0000' },
      { title: `Discount (${code})`, amount: '-3.0000' },
      { title: 'Shipping & Handling (Flat Rate - Fixed)', amount: '15.0000' },
      { title: 'Grand Total', amount: '42.0000' },
    ]);
    const info = r.info.ok;
    assert.equal(info.quote_id, r.create.ok);
    assert.equal(info.customer_email, 'pat@example.com');
    assert.equal(info.checkout_method, 'guest');
    assert.equal(info.coupon_code, code);
    assert.equal(info.grand_total, '42.0000');
    assert.equal(info.items.length, 2);
    assert.deepEqual([info.items[0].sku, info.items[0].qty, info.items[0].row_total], [made[0].sku, '2.0000', '20.0000']);
    assert.equal(info.shipping_address.street, '1 Snake Lane\nSuite 2');
    assert.equal(info.shipping_address.shipping_method, 'flatrate_flatrate');
    assert.equal(info.shipping_address.same_as_billing, '1');
    assert.equal(info.billing_address.email, 'pat@example.com');
    assert.equal(info.payment.method, 'checkmo');
  });

  test('places the order; sales_order.info and REST read it; the cart is closed', async () => {
    assert.match(r.order.ok, /^\d+$/);
    const order = r.orderInfo.ok;
    assert.equal(order.increment_id, r.order.ok);
    assert.equal(order.quote_id, r.create.ok);
    assert.equal(order.customer_email, 'pat@example.com');
    assert.equal(order.customer_is_guest, '1');
    assert.equal(order.grand_total, '42.0000');
    assert.equal(order.coupon_code, code);
    assert.equal(order.shipping_method, 'flatrate_flatrate');
    assert.equal(order.payment.method, 'checkmo');
    assert.deepEqual(
      order.items.map((i: any) => [i.sku, i.qty_ordered]),
      [
        [made[0].sku, '2.0000'],
        [made[1].sku, '1.0000'],
      ],
    );
    const rest = await t.req('GET', `${API}/orders/${order.order_id}`, { token: admin });
    assert.equal(rest.status, 200, rest.text);
    assert.equal(rest.body.incrementId, r.order.ok);
    assert.equal(rest.body.prices.grandTotal, 42);
    assert.equal(rest.body.quoteId, Number(r.create.ok));
    assert.deepEqual([await stock(made[0].sku), await stock(made[1].sku)], [8, 9]);
    assert.deepEqual(r.again.fault, [1008, 'This cart has been ordered already.']);
    assert.deepEqual([r.after.ok.is_active, r.after.ok.reserved_order_id], ['0', r.order.ok]);
  });
});

describe('cart over JSON-RPC', () => {
  test('create in the request store view or one named by id or code; info, totals and license of an empty cart', async () => {
    const a = await ok('cart.create', []);
    const b = await ok('cart.create', { store: 'german' });
    assert.equal((await ok('cart.info', [a])).store_id, '1');
    const info = await ok('cart.info', { quoteId: b, store: 'german' });
    assert.equal(info.store_id, String(t.services.settings.storeByCode('german')!.id));
    assert.deepEqual(
      [info.quote_id, info.is_active, info.items_count, info.checkout_method, info.items, info.shipping_address],
      [b, '1', '0', null, [], []],
    );
    assert.deepEqual(await ok('cart.totals', [a]), [
      { title: 'Subtotal', amount: '0.0000' },
      { title: 'Grand Total', amount: '0.0000' },
    ]);
    assert.deepEqual(await ok('cart.license', [a, 1]), []);
    assert.deepEqual(await fault('cart.create', ['nowhere']), [1001, 'Can not make operation because store is not exists']);
    for (const m of ['info', 'totals', 'license', 'order']) {
      assert.deepEqual(await fault(`cart.${m}`, [a, 'nowhere']), [1001, 'Can not make operation because store is not exists'], m);
      for (const bad of [999999999, 'x', null, { id: a }]) {
        assert.deepEqual(await fault(`cart.${m}`, [bad]), [1002, 'Can not make operation because quote is not exists'], m);
      }
    }
    assert.deepEqual(await faultCodes('cart'), ['1001', '1002', '1003', '1004', '1005', '1006', '1007', '1008']);
  });

  test('order: what the cart lacks is fault 1008 and nothing is written; guest checkout off is 1007', async () => {
    const p = await product(5);
    const empty = await ok('cart.create', []);
    assert.deepEqual(await fault('cart.order', [empty]), [1008, 'The cart is empty']);
    const quote = await readyCart(api, [[p.sku, 2]]);
    assert.deepEqual(await fault('cart.order', [quote]), [1008, 'A shipping method is required']);
    await ok('cart_shipping.method', [quote, 'flatrate_flatrate']);
    assert.deepEqual(await fault('cart.order', [quote]), [1008, 'A payment method is required']);
    await ok('cart_payment.method', [quote, { method: 'checkmo' }]);
    await setConfig(t.database.db, t.services.settings, 'checkout/options/guest_checkout', '0');
    try {
      assert.deepEqual(await fault('cart.order', [quote]), [1007, 'Checkout is not available for guest']);
    } finally {
      await setConfig(t.database.db, t.services.settings, 'checkout/options/guest_checkout', '1');
    }
    assert.equal(await stock(p.sku), 5, 'refused placements reserved nothing');
    assert.match(await ok('cart.order', { quoteId: quote }), /^\d+$/);
    assert.equal(await stock(p.sku), 3);
    // the ordered cart no longer changes
    assert.equal((await fault('cart_product.add', [quote, [{ sku: p.sku }]]))[0], 1022);
    assert.deepEqual(await fault('cart_customer.set', [quote, { mode: 'guest', firstname: 'A', lastname: 'B', email: 'a@b.co' }]), [
      1041,
      'This cart has been ordered and can no longer change',
    ]);
    assert.equal((await fault('cart_customer.addresses', [quote, [{ mode: 'billing', ...CART_ADDRESS }]]))[0], 1054);
    assert.equal((await fault('cart_shipping.method', [quote, 'flatrate_flatrate']))[0], 1063);
    assert.equal((await fault('cart_coupon.add', [quote, 'WELCOME10']))[0], 1082);
  });

  test('two carts ordering the last unit at once: one order, the other refused, the stock exact', async () => {
    const p = await product(1);
    for (let round = 0; round < 3; round++) {
      await t.req('PUT', `${API}/inventory`, { token: admin, body: { sku: p.sku, qty: 1, isInStock: true } });
      const quotes = [await readyCart(api, [[p.sku, 1]]), await readyCart(api, [[p.sku, 1]])];
      for (const q of quotes) {
        await ok('cart_shipping.method', [q, 'flatrate_flatrate']);
        await ok('cart_payment.method', [q, { method: 'checkmo' }]);
      }
      const replies = await Promise.all(quotes.map((q) => call('cart.order', [q])));
      assert.equal(replies.filter((x) => x.result).length, 1, JSON.stringify(replies));
      const refused = replies.find((x) => x.error)!;
      assert.equal(refused.error!.code, 1008);
      assert.equal(await stock(p.sku), 0);
    }
  });
});

describe('cart_product over JSON-RPC', () => {
  test('add by product_id or sku with qty; list; update and remove by product; all or nothing', async () => {
    const [a, b, c] = [await product(5), await product(5), await product(5)];
    const quote = await ok('cart.create', []);
    assert.equal(await ok('cart_product.add', [quote, [{ product_id: a.id, qty: 2 }, { sku: b.sku.toUpperCase() }]]), true);
    assert.equal(await ok('cart_product.add', { quoteId: quote, productsData: [{ sku: a.sku, qty: '1' }] }), true);
    const list = await ok('cart_product.list', [quote]);
    assert.deepEqual(
      list.map((p: any) => [p.product_id, p.sku, p.name, p.type, p.set, p.website_ids]),
      [
        [String(a.id), a.sku, `Test product ${a.sku.slice(5)}`, 'simple', '1', ['1']],
        [String(b.id), b.sku, `Test product ${b.sku.slice(5)}`, 'simple', '1', ['1']],
      ],
    );
    const qtys = async () => (await ok('cart.info', [quote])).items.map((i: any) => [i.sku, i.qty]);
    assert.deepEqual(await qtys(), [
      [a.sku, '3.0000'],
      [b.sku, '1.0000'],
    ]);
    const f = (m: string, data: unknown) => fault(`cart_product.${m}`, [quote, data]);
    for (const m of ['add', 'update', 'remove']) {
      for (const bad of [[], 'x', null]) assert.deepEqual(await f(m, bad), [1021, "Product's data is not valid."], m);
    }
    assert.deepEqual(await f('add', [{ qty: 1 }]), [1022, 'One item of products do not have identifier or sku']);
    assert.deepEqual(await f('add', [{ sku: c.sku }, { sku: 'no-such-sku' }, { product_id: 999999999 }]), [
      1022,
      "Product with SKU 'no-such-sku' not found\nProduct with ID '999999999' not found",
    ]);
    const [code, message] = await f('add', [
      { sku: c.sku, qty: 1 },
      { sku: a.sku, qty: 3 },
    ]);
    assert.equal(code, 1022);
    assert.match(message, new RegExp(a.sku));
    assert.equal((await f('add', [{ sku: c.sku, qty: 1.5 }]))[0], 1022);
    assert.equal((await f('add', [{ sku: c.sku, options: 'x' }]))[0], 1022);
    assert.deepEqual(await qtys(), [
      [a.sku, '3.0000'],
      [b.sku, '1.0000'],
    ]);
    // update: qty above 0 is set, 0 leaves the line alone; a product not in the cart refuses the whole call
    assert.equal(
      await ok('cart_product.update', [
        quote,
        [
          { sku: a.sku, qty: 5 },
          { product_id: b.id, qty: 0 },
        ],
      ]),
      true,
    );
    assert.deepEqual(
      await f('update', [
        { sku: b.sku, qty: 2 },
        { sku: c.sku, qty: 1 },
      ]),
      [1024, 'One item of products is not belong any of quote item'],
    );
    assert.equal((await f('update', [{ sku: a.sku, qty: 6 }]))[0], 1024, 'more than the stock');
    assert.equal((await f('update', [{ sku: a.sku, qty: 2.5 }]))[0], 1024);
    assert.deepEqual(await f('remove', [{ sku: b.sku }, { sku: c.sku }]), [1026, 'One item of products is not belong any of quote item']);
    assert.deepEqual(await qtys(), [
      [a.sku, '5.0000'],
      [b.sku, '1.0000'],
    ]);
    assert.equal(await ok('cart_product.remove', [quote, [{ product_id: a.id }, { sku: b.sku }]]), true);
    assert.deepEqual(await ok('cart_product.list', [quote]), []);
    assert.deepEqual(await faultCodes('cart_product'), ['1001', '1002', ...Array.from({ length: 12 }, (_, i) => String(1021 + i))]);
  });

  test('configurable and bundle products with their choices, updated and removed by them', async () => {
    await seedCatalogDemo(t.systemCtx());
    const ids = Object.fromEntries(
      (await t.req('GET', `${API}/products?sku=TEE`, { token: admin })).body.member.map((p: any) => [p.sku, p.id]),
    );
    const kitId = (await t.req('GET', `${API}/products?sku=KIT-TRAVEL`, { token: admin })).body.member[0].id;
    const sale = await productsForSale(t.systemCtx(), [ids.TEE, kitId]);
    const tee = sale.get(ids.TEE)!;
    const pick = (code: string, label: string) => {
      const a = tee.superAttributes.find((x) => x.code === code)!;
      return [String(a.id), [...a.options].find(([, l]) => l === label)![0]] as const;
    };
    const blackM = Object.fromEntries([pick('color', 'Black'), pick('size', 'M')]);
    const kit = sale.get(kitId)!;
    const bag = kit.bundleOptions.find((o) => o.title === 'Bag')!;
    const quote = await ok('cart.create', []);
    assert.equal(
      await ok('cart_product.add', [
        quote,
        [
          { sku: 'TEE', qty: 2, super_attribute: blackM },
          { product_id: kitId, bundle_option: { [bag.id]: String(bag.selections[1].id) } },
        ],
      ]),
      true,
    );
    const info = await ok('cart.info', [quote]);
    assert.deepEqual(
      info.items.map((i: any) => [i.sku, i.product_type, i.qty]),
      [
        ['TEE-BLACK-M', 'configurable', '2.0000'],
        ['KIT-TRAVEL', 'bundle', '1.0000'],
      ],
    );
    assert.equal((await ok('cart_product.list', [quote]))[0].sku, 'TEE-BLACK-M');
    assert.equal((await fault('cart_product.add', [quote, [{ sku: 'TEE' }]]))[0], 1022, 'a configurable needs its choice');
    // the line is named by the product and the same choices (or by the child's SKU)
    assert.equal(
      (
        await fault('cart_product.update', [
          quote,
          [{ sku: 'TEE', qty: 1, super_attribute: { ...blackM, ...Object.fromEntries([pick('size', 'S')]) } }],
        ])
      )[0],
      1024,
    );
    assert.equal(await ok('cart_product.update', [quote, [{ sku: 'TEE-BLACK-M', qty: 3 }]]), true);
    assert.equal(
      await ok('cart_product.remove', [quote, [{ sku: 'KIT-TRAVEL', bundle_option: { [bag.id]: bag.selections[1].id } }]]),
      true,
    );
    assert.deepEqual(
      (await ok('cart.info', [quote])).items.map((i: any) => [i.sku, i.qty]),
      [['TEE-BLACK-M', '3.0000']],
    );
  });

  test('adding, updating, removing, listing and reading 2 or 20 lines cost the same number of statements', async () => {
    const made = await Promise.all(Array.from({ length: 22 }, () => product(50)));
    const counts = async (list: { sku: string }[]) => {
      const quote = await ok('cart.create', []);
      const out: number[] = [];
      for (const [path, args] of [
        ['cart_product.add', [quote, list.map((p) => ({ sku: p.sku, qty: 2 }))]],
        ['cart_product.update', [quote, list.map((p) => ({ sku: p.sku, qty: 3 }))]],
        ['cart_product.list', [quote]],
        ['cart.info', [quote]],
        ['cart.totals', [quote]],
        ['cart_product.remove', [quote, list.map((p) => ({ sku: p.sku }))]],
      ] as const) {
        out.push((await api.statementsOf(t, path, args)).n);
      }
      return out;
    };
    const two = await counts(made.slice(0, 2));
    assert.deepEqual(await counts(made.slice(2)), two);
    assert.ok(Math.max(...two) <= 20, `${two} statements`);
  });

  test('moveToCustomerQuote moves lines into the customer’s own cart', async () => {
    const [a, b] = [await product(10), await product(10)];
    const customerId = await newCustomer(t);
    const quote = await ok('cart.create', []);
    await ok('cart_product.add', [quote, [{ sku: a.sku, qty: 2 }, { sku: b.sku }]]);
    const move = (data: unknown) => fault('cart_product.moveToCustomerQuote', [quote, data]);
    assert.deepEqual(await move([{ sku: a.sku }]), [1028, 'Customer is not set for quote.']);
    await ok('cart_customer.set', [quote, { mode: 'customer', customer_id: customerId }]);
    assert.deepEqual(await move([{ sku: a.sku }]), [1029, "Customer's quote is not existed."]);
    assert.deepEqual(await move([]), [1029, "Customer's quote is not existed."], 'the quotes are checked first, as Magento does');
    const own = await t.req('POST', `${API}/carts`, { token: admin, body: { customerId } });
    assert.equal(own.status, 201, own.text);
    await t.req('POST', `${API}/carts/${own.body.id}/items`, { token: admin, body: { sku: a.sku, qty: 9 } });
    assert.deepEqual(await move([]), [1021, "Product's data is not valid."]);
    assert.deepEqual(await move([{ sku: 'no-such-sku' }]), [1031, "Product with SKU 'no-such-sku' not found"]);
    assert.equal((await move([{ sku: a.sku }]))[0], 1032, 'the customer’s cart would hold more than the stock');
    const first = (await t.req('GET', `${API}/carts/${own.body.id}`, { token: admin })).body.items[0].id;
    await t.req('PUT', `${API}/carts/${own.body.id}/items/${first}`, { token: admin, body: { qty: 1 } });
    assert.equal(await ok('cart_product.moveToCustomerQuote', [quote, [{ sku: a.sku }, { product_id: b.id }]]), true);
    const mine = (await t.req('GET', `${API}/carts/${own.body.id}`, { token: admin })).body;
    assert.deepEqual(
      mine.items.map((i: any) => [i.sku, i.qty]),
      [
        [a.sku, 3],
        [b.sku, 1],
      ],
    );
    assert.deepEqual(await ok('cart_product.list', [quote]), []);
  });
});
