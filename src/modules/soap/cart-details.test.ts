/**
 * The Magento 1 API's cart details over JSON-RPC: who buys (cart_customer.set in guest, customer and register mode)
 * and the addresses (cart_customer.addresses), the shipping and payment methods (cart_shipping, cart_payment), the
 * coupon (cart_coupon) and gift messages (giftmessage), each method and fault; the roles' permissions and a
 * store-limited API user.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { API, type TestApp } from '../../../test/helpers.js';
import { CART_ADDRESS, cartProduct, newCoupon, readyCart } from '../../../test/fixtures/legacy-cart.js';
import { LegacyClient } from '../../../test/fixtures/legacy-api.js';
import { newApiUser, newCustomer, newWebsite, startSoapApp } from '../../../test/fixtures/soap.js';
import { setConfig } from '../stores/service.js';

let t: TestApp;
let base: string;
let admin: string;
const api = new LegacyClient(() => base);
const { ok, fault, faultCodes: codes } = api;
const product = (qty?: number, body?: Record<string, unknown>) => cartProduct(t, qty, body);

before(async () => {
  ({ t, base } = await startSoapApp());
  admin = await t.tokens.admin();
  api.session = await api.sessionOf();
});
after(() => t?.close());

describe('cart_customer', () => {
  test('set: a guest, an existing customer, a new account; Magento’s checks and faults', async () => {
    const quote = await ok('cart.create', []);
    const set = (data: unknown) => fault('cart_customer.set', [quote, data]);
    assert.deepEqual(await set({ firstname: 'A' }), [1045, "Customer's mode is unknown"]);
    assert.deepEqual(await set('guest'), [1045, "Customer's mode is unknown"]);
    assert.deepEqual(await set({ mode: 'guest', email: 'bad' }), [
      1044,
      'The first name cannot be empty.\nThe last name cannot be empty.\nInvalid email address "bad".',
    ]);
    assert.equal(
      await ok('cart_customer.set', [quote, { mode: 'guest', firstname: 'Gil', lastname: 'Guest', email: 'Gil@Example.com' }]),
      true,
    );
    let info = await ok('cart.info', [quote]);
    assert.deepEqual(
      [info.checkout_method, info.customer_email, info.customer_id, info.customer_is_guest],
      ['guest', 'gil@example.com', null, '1'],
    );
    const customerId = await newCustomer(t);
    assert.deepEqual(await set({ mode: 'customer', customer_id: 999999999 }), [
      1042,
      "The customer's identifier is not valid or customer is not existed",
    ]);
    assert.deepEqual(await set({ mode: 'customer' }), [1042, "The customer's identifier is not valid or customer is not existed"]);
    assert.equal(
      await ok('cart_customer.set', { quoteId: quote, customerData: { mode: 'customer', entity_id: String(customerId) } }),
      true,
    );
    info = await ok('cart.info', [quote]);
    assert.deepEqual(
      [info.checkout_method, info.customer_id, info.customer_firstname, info.customer_group_id],
      ['customer', String(customerId), 'Sam', '1'],
    );
    // register: the account is made at once and gets the cart
    const account = { mode: 'register', firstname: 'Reg', lastname: 'Ister', email: `reg-${quote}@example.com`, password: 'Secret123' };
    assert.deepEqual(await set({ ...account, confirmation: 'Other123' }), [1044, 'Please make sure your passwords match.']);
    assert.deepEqual(await set({ ...account, password: 'short', confirmation: 'short' }), [1044, 'The minimum password length is 7']);
    assert.equal(await ok('cart_customer.set', [quote, { ...account, confirmation: 'Secret123' }]), true);
    info = await ok('cart.info', [quote]);
    assert.deepEqual([info.customer_email, info.customer_firstname], [account.email, 'Reg']);
    const login = await t.req('POST', `${API}/auth/token`, { body: { email: account.email, password: 'Secret123' } });
    assert.equal(login.status, 200, 'the new account signs in');
    const again = await ok('cart.create', []);
    assert.deepEqual(await fault('cart_customer.set', [again, { ...account, confirmation: 'Secret123' }]), [
      1043,
      'A customer with this email already exists',
    ]);
    assert.deepEqual(await fault('cart_customer.set', [999999999, account]), [1002, 'Can not make operation because quote is not exists']);
  });

  test('addresses: typed in or from the address book, billing used for shipping; faults 1051 to 1055', async () => {
    const quote = await ok('cart.create', []);
    const set = (data: unknown) => fault('cart_customer.addresses', [quote, data]);
    for (const bad of [[], 'x', ['x'], null]) assert.deepEqual(await set(bad), [1051, 'Customer address data is empty.']);
    assert.deepEqual(await set([{ mode: 'billing', firstname: 'A', country_id: 'US' }]), [
      1052,
      'Please enter the last name.\nPlease enter the street.\nPlease enter the city.\nPlease enter the zip/postal code.\nPlease enter the telephone number.',
    ]);
    assert.equal((await set([{ mode: 'billing', ...CART_ADDRESS, country_id: 'XX' }]))[0], 1052);
    assert.equal((await set([{ mode: 'billing', ...CART_ADDRESS, city: 'x'.repeat(300) }]))[0], 1052);
    assert.equal((await set([{ mode: 'elsewhere', ...CART_ADDRESS }]))[0], 1052);
    assert.deepEqual(await set([{ mode: 'billing', address_id: 999999999 }]), [1053, "The customer's address identifier is not valid"]);
    const customerId = await newCustomer(t);
    const book = await t.req('POST', `${API}/customers/${customerId}/addresses`, {
      token: admin,
      body: {
        firstname: 'Book',
        lastname: 'Keeper',
        street: ['9 Shelf St'],
        city: 'Austin',
        postcode: '73301',
        countryId: 'US',
        region: 'TX',
        telephone: '555-0101',
      },
    });
    assert.equal(book.status, 201, book.text);
    assert.deepEqual(await set([{ mode: 'shipping', address_id: book.body.id }]), [
      1055,
      'Customer address identifier do not belong customer, which set in quote',
    ]);
    // a guest's email reaches the addresses; billing used for shipping sets both
    await ok('cart_customer.set', [quote, { mode: 'guest', firstname: 'G', lastname: 'U', email: 'g@example.com' }]);
    assert.equal(
      await ok('cart_customer.addresses', [quote, [{ mode: 'billing', use_for_shipping: '1', ...CART_ADDRESS, street: 'L1\nL2' }]]),
      true,
    );
    let info = await ok('cart.info', [quote]);
    assert.deepEqual(
      [info.billing_address.street, info.billing_address.email, info.billing_address.region_id],
      ['L1\nL2', 'g@example.com', '57'],
    );
    assert.deepEqual(
      [info.shipping_address.city, info.shipping_address.same_as_billing, info.shipping_address.address_type],
      ['Austin', '1', 'shipping'],
    );
    // the customer's own address from the book, then the order adds the typed billing address to the book
    await ok('cart_customer.set', [quote, { mode: 'customer', customer_id: customerId }]);
    assert.equal(
      await ok('cart_customer.addresses', [
        quote,
        [
          { mode: 'shipping', address_id: book.body.id },
          { mode: 'billing', ...CART_ADDRESS },
        ],
      ]),
      true,
    );
    info = await ok('cart.info', [quote]);
    assert.deepEqual(
      [info.shipping_address.firstname, info.shipping_address.customer_address_id, info.shipping_address.same_as_billing],
      ['Book', String(book.body.id), '0'],
    );
    await ok('cart_product.add', [quote, [{ sku: (await product()).sku }]]);
    await ok('cart_shipping.method', [quote, 'flatrate_flatrate']);
    await ok('cart_payment.method', [quote, { method: 'checkmo' }]);
    const number = await ok('cart.order', [quote]);
    assert.equal((await ok('sales_order.info', [number])).customer_id, String(customerId));
    const addresses = (await t.req('GET', `${API}/customers/${customerId}/addresses`, { token: admin })).body;
    assert.deepEqual(
      (addresses.member ?? addresses).map((a: any) => a.firstname),
      ['Book', 'Tess'],
    );
    assert.deepEqual(await codes('cart_customer_address'), [
      '1001',
      '1002',
      '1041',
      '1042',
      '1043',
      '1044',
      '1045',
      '1051',
      '1052',
      '1053',
      '1054',
      '1055',
    ]);
  });
});

describe('cart_shipping, cart_payment and cart_coupon', () => {
  test('shipping: rates for the address, one chosen by its code; 1061 without an address, 1062 for another code', async () => {
    const p = await product();
    const bare = await ok('cart.create', []);
    assert.deepEqual(await fault('cart_shipping.list', [bare]), [
      1061,
      'Can not make operation because of customer shipping address is not set',
    ]);
    assert.deepEqual(await fault('cart_shipping.method', [bare, 'flatrate_flatrate']), [
      1061,
      'Can not make operation because of customer shipping address is not set',
    ]);
    const quote = await readyCart(api, [[p.sku, 2]]);
    const rates = await ok('cart_shipping.list', [quote]);
    assert.ok(rates.some((r: any) => r.code === 'flatrate_flatrate' && r.price === '10.0000'));
    for (const bad of ['flatrate', 'ups_ground', null, 5]) {
      assert.deepEqual(await fault('cart_shipping.method', [quote, bad]), [1062, 'Shipping method is not available']);
    }
    assert.equal(await ok('cart_shipping.method', { quoteId: quote, shippingMethod: 'flatrate_flatrate' }), true);
    const totals = await ok('cart.totals', [quote]);
    assert.deepEqual(totals[1], { title: 'Shipping & Handling (Flat Rate - Fixed)', amount: '10.0000' });
    assert.deepEqual(await codes('cart_shipping'), ['1001', '1002', '1061', '1062', '1063', '1064']);
  });

  test('payment: the methods the cart allows, one chosen with its data; faults 1071 to 1075', async () => {
    const p = await product();
    const virtual = await product(10, { type: 'virtual' });
    const quote = await ok('cart.create', []);
    await ok('cart_product.add', [quote, [{ sku: p.sku }]]);
    assert.deepEqual(await fault('cart_payment.method', [quote, {}]), [1071, 'Payment method data is empty.']);
    assert.deepEqual(await fault('cart_payment.method', [quote, 'checkmo']), [1071, 'Payment method data is empty.']);
    assert.deepEqual(await fault('cart_payment.method', [quote, { method: 'checkmo' }]), [
      1073,
      "Customer's shipping address is not set. Required for payment method data.",
    ]);
    const digital = await ok('cart.create', []);
    await ok('cart_product.add', [digital, [{ sku: virtual.sku }]]);
    assert.deepEqual(await fault('cart_payment.method', [digital, { method: 'checkmo' }]), [
      1072,
      "Customer's billing address is not set. Required for payment method data.",
    ]);
    await ok('cart_customer.addresses', [quote, [{ mode: 'shipping', ...CART_ADDRESS }]]);
    const methods = await ok('cart_payment.list', [quote]);
    assert.deepEqual(methods[0], { code: 'checkmo', title: 'Check / Money order', cc_types: null });
    assert.ok(!methods.some((m: any) => m.code === 'free'), 'a total above zero is not paid with the zero-total method');
    for (const method of ['free', 'nope']) {
      assert.deepEqual(await fault('cart_payment.method', [quote, { method }]), [1074, 'Payment method is not allowed']);
    }
    assert.deepEqual(await fault('cart_payment.method', [quote, { po_number: '42' }]), [1075, 'methodCode is required']);
    await setConfig(t.database.db, t.services.settings, 'payment/purchaseorder/active', '1');
    try {
      assert.deepEqual(await fault('cart_payment.method', [quote, { method: 'purchaseorder' }]), [
        1075,
        'A purchase order number (poNumber) is required',
      ]);
      assert.equal(await ok('cart_payment.method', [quote, { method: 'purchaseorder', po_number: 'PO-7' }]), true);
      const info = await ok('cart.info', [quote]);
      assert.deepEqual([info.payment.method, info.payment.po_number], ['purchaseorder', 'PO-7']);
    } finally {
      await setConfig(t.database.db, t.services.settings, 'payment/purchaseorder/active', '0');
    }
    assert.deepEqual(await codes('cart_payment'), ['1001', '1002', '1071', '1072', '1073', '1074', '1075']);
  });

  test('coupon: applied, removed, refused; its use limit holds across carts', async () => {
    const p = await product();
    const code = await newCoupon(t, { usageLimit: 1 });
    const empty = await ok('cart.create', []);
    assert.deepEqual(await fault('cart_coupon.add', [empty, code]), [1081, 'Coupon could not be applied because quote is empty.']);
    assert.deepEqual(await fault('cart_coupon.remove', [empty]), [1081, 'Coupon could not be applied because quote is empty.']);
    const [first, second] = [await readyCart(api, [[p.sku, 1]]), await readyCart(api, [[p.sku, 1]])];
    assert.equal(await ok('cart_coupon.remove', [first]), false, 'no coupon to remove');
    assert.equal(await ok('cart_coupon.add', [first, '']), false);
    assert.deepEqual(await fault('cart_coupon.add', [first, 'NOPE']), [1083, 'Coupon is not valid.']);
    assert.equal(await ok('cart_coupon.add', [first, code.toLowerCase()]), true);
    assert.equal((await ok('cart.info', [first])).coupon_code, code);
    assert.equal(await ok('cart_coupon.remove', { quoteId: first }), true);
    assert.equal((await ok('cart.info', [first])).coupon_code, null);
    assert.equal(await ok('cart_coupon.add', [first, code]), true);
    assert.equal(await ok('cart_coupon.add', [second, code]), true);
    for (const q of [first, second]) {
      await ok('cart_shipping.method', [q, 'flatrate_flatrate']);
      await ok('cart_payment.method', [q, { method: 'checkmo' }]);
    }
    assert.match(await ok('cart.order', [first]), /^\d+$/);
    const [f, message] = await fault('cart.order', [second]);
    assert.equal(f, 1008);
    assert.match(message, new RegExp(`Coupon ${code} is no longer valid`));
    const third = await readyCart(api, [[p.sku, 1]]);
    assert.deepEqual(await fault('cart_coupon.add', [third, code]), [1083, 'Coupon is not valid.']);
    assert.deepEqual(await codes('cart_coupon'), ['1001', '1002', '1081', '1082', '1083']);
  });
});

describe('giftmessage', () => {
  test('for the cart, a line by its id or the lines of products; off unless the store view allows them', async () => {
    const [a, b] = [await product(), await product()];
    const quote = await readyCart(api, [
      [a.sku, 1],
      [b.sku, 1],
    ]);
    const items = (await ok('cart.info', [quote])).items;
    const msg = { from: 'Ann', to: 'Bo', message: 'Happy birthday' };
    assert.deepEqual(await ok('giftmessage.setForQuote', [quote, msg]), {
      entityId: quote,
      result: false,
      error: 'Gift messages are not enabled for orders',
    });
    for (const [path, value] of [
      ['sales/gift_options/allow_order', '1'],
      ['sales/gift_options/allow_items', '1'],
    ]) {
      await setConfig(t.database.db, t.services.settings, path, value);
    }
    try {
      assert.deepEqual(await ok('giftmessage.setForQuote', { quoteId: quote, giftMessage: msg }), {
        entityId: quote,
        result: true,
        error: '',
      });
      assert.deepEqual(await ok('giftmessage.setForQuoteItem', [items[0].item_id, { ...msg, message: 'For you' }]), {
        entityId: items[0].item_id,
        result: true,
        error: '',
      });
      assert.deepEqual(
        await ok('giftmessage.setForQuoteProduct', [quote, [{ product: { sku: b.sku }, message: { ...msg, message: 'And this' } }]]),
        [{ entityId: items[1].item_id, result: true, error: '' }],
      );
      let info = await ok('cart.info', [quote]);
      assert.deepEqual(
        [info.gift_message, info.items[0].gift_message, info.items[1].gift_message],
        ['Happy birthday', 'For you', 'And this'],
      );
      // an empty message removes it
      assert.equal(
        (await ok('giftmessage.setForQuoteProduct', [quote, { product: { product_id: a.id }, message: { message: ' ' } }]))[0].result,
        true,
      );
      info = await ok('cart.info', [quote]);
      assert.equal(info.items[0].gift_message, undefined);
      for (const bad of [null, 'x', {}, { message: { x: 1 } }]) {
        assert.deepEqual(await fault('giftmessage.setForQuote', [quote, bad]), [1101, 'Gift message data is not valid.']);
      }
      assert.deepEqual(await fault('giftmessage.setForQuoteItem', [999999999, msg]), [1103, 'Quote item is not exists']);
      assert.deepEqual(await fault('giftmessage.setForQuoteItem', [items[0].item_id, 'x']), [1101, 'Gift message data is not valid.']);
      assert.deepEqual(await fault('giftmessage.setForQuoteProduct', [quote, []]), [1101, 'Gift message data is not valid.']);
      assert.deepEqual(await fault('giftmessage.setForQuoteProduct', [quote, [{ product: 'x', message: msg }]]), [
        1102,
        "Product's data is not valid.",
      ]);
      const other = await product();
      assert.deepEqual(await fault('giftmessage.setForQuoteProduct', [quote, [{ product: { sku: other.sku }, message: msg }]]), [
        1103,
        'Quote item is not exists',
      ]);
      assert.deepEqual(await fault('giftmessage.setForQuote', [999999999, msg]), [
        1002,
        'Can not make operation because quote is not exists',
      ]);
      // the order takes the messages
      await ok('cart_shipping.method', [quote, 'flatrate_flatrate']);
      await ok('cart_payment.method', [quote, { method: 'checkmo' }]);
      const order = await ok('sales_order.info', [await ok('cart.order', [quote])]);
      assert.deepEqual([order.gift_message, order.items[1].gift_message], ['Happy birthday', 'And this']);
    } finally {
      for (const path of ['sales/gift_options/allow_order', 'sales/gift_options/allow_items'])
        await setConfig(t.database.db, t.services.settings, path, null);
    }
    assert.deepEqual(await codes('giftmessage'), ['1001', '1002', '1101', '1102', '1103']);
  });
});

describe('permissions and store views', () => {
  test('a reader reads carts and changes none; placing an order needs orders/create', async () => {
    const p = await product();
    const quote = await readyCart(api, [[p.sku, 1]]);
    const reader = await newApiUser(t, ['carts/read']);
    const s = await api.sessionOf(reader);
    assert.equal((await ok('cart.info', [quote], s)).quote_id, quote);
    assert.equal((await ok('cart_product.list', [quote], s)).length, 1);
    for (const [path, args] of [
      ['cart.create', []],
      ['cart.order', [quote]],
      ['cart_product.add', [quote, [{ sku: p.sku }]]],
      ['cart_product.update', [quote, [{ sku: p.sku, qty: 2 }]]],
      ['cart_product.remove', [quote, [{ sku: p.sku }]]],
      ['cart_product.moveToCustomerQuote', [quote, [{ sku: p.sku }]]],
      ['cart_customer.set', [quote, { mode: 'guest' }]],
      ['cart_customer.addresses', [quote, []]],
      ['cart_shipping.method', [quote, 'flatrate_flatrate']],
      ['cart_payment.method', [quote, { method: 'checkmo' }]],
      ['cart_coupon.add', [quote, 'X']],
      ['cart_coupon.remove', [quote]],
      ['giftmessage.setForQuote', [quote, { message: 'x' }]],
    ] as const) {
      assert.deepEqual(await fault(path, args, s), [2, 'Access denied.'], path);
    }
    const writer = await newApiUser(t, ['carts/all']);
    const w = await api.sessionOf(writer);
    await ok('cart_shipping.method', [quote, 'flatrate_flatrate'], w);
    await ok('cart_payment.method', [quote, { method: 'checkmo' }], w);
    assert.deepEqual(await fault('cart.order', [quote], w), [2, 'Access denied.']);
    const none = await newApiUser(t, ['customers/read']);
    assert.deepEqual(await fault('cart.info', [quote], await api.sessionOf(none)), [2, 'Access denied.']);
    const names = (await api.rpc('resources', [s])).result.map((r: any) => r.name);
    assert.ok(names.includes('cart') && !names.includes('giftmessage'));
  });

  test("a store-limited API user reaches only its store views' carts", async () => {
    const second = await newWebsite(t, 'cartweb');
    const theirs = await product(10, { websiteIds: [second.websiteId] });
    const s = await api.sessionOf(await newApiUser(t, ['carts/all', 'orders/create'], [second.storeId]), { 'x-store-code': 'cartweb' });
    const foreign = await ok('cart.create', []);
    const own = await ok('cart.create', [], s);
    assert.equal((await ok('cart.info', [own])).store_id, String(second.storeId));
    assert.deepEqual(await fault('cart.create', ['default'], s), [1001, 'Can not make operation because store is not exists']);
    for (const [path, args] of [
      ['cart.info', [foreign]],
      ['cart.totals', [foreign]],
      ['cart_product.add', [foreign, [{ sku: theirs.sku }]]],
      ['cart_customer.set', [foreign, { mode: 'guest', firstname: 'A', lastname: 'B', email: 'a@b.co' }]],
      ['cart_shipping.list', [foreign]],
      ['cart_payment.list', [foreign]],
      ['cart_coupon.remove', [foreign]],
      ['giftmessage.setForQuote', [foreign, { message: 'x' }]],
      ['cart.order', [foreign]],
    ] as const) {
      assert.deepEqual(await fault(path, args, s), [1002, 'Can not make operation because quote is not exists'], path);
    }
    // the admin names its cart with the store view of another website: not found there
    assert.deepEqual(await fault('cart.info', [own, 'default']), [1002, 'Can not make operation because quote is not exists']);
    assert.equal((await ok('cart.info', [own, 'cartweb'])).quote_id, own);
    // its own cart takes its website's products and is ordered
    const quote = await readyCart(api, [[theirs.sku, 2]], s);
    await ok('cart_shipping.method', [quote, 'flatrate_flatrate'], s);
    await ok('cart_payment.method', [quote, { method: 'checkmo' }], s);
    const number = await ok('cart.order', [quote], s);
    assert.equal((await ok('sales_order.info', [number])).store_id, String(second.storeId));
  });
});
