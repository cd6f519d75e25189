/**
 * Carts over GraphQL, as Maho's clients use them: one field per action serves guest carts (maskedId) and
 * customer carts (cartId, a number or an IRI); a guest checkout runs from createCart to placeOrder in
 * GraphQL alone; who may touch which cart; bad input answers errors, never a 500.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { API, buildTestApp, type TestApp } from '../../../test/helpers.js';
import { createTestProduct } from '../../../test/fixtures/catalog.js';
import { registerCustomer } from '../customers/service.js';
import { TEST_ADDRESS } from '../../../test/fixtures/checkout.js';
import { deleteConfig, setConfig } from '../stores/service.js';

let t: TestApp;
let customer: string;
let other: string;
let admin: string;
let sku: string;

const gql = (query: string, token?: string, variables?: Record<string, unknown>) => t.gql(query, token, variables);
const ok = (r: any) => {
  assert.equal(r.errors, undefined, JSON.stringify(r.errors));
  return r.data;
};

before(async () => {
  t = await buildTestApp();
  customer = await t.tokens.customer();
  admin = await t.tokens.admin();
  await registerCustomer(t.systemCtx(), { email: 'gql-cart@example.com', password: 'Password123!', firstname: 'G', lastname: 'Cart' });
  other = await t.tokens.customer('gql-cart@example.com', 'Password123!');
  sku = (await createTestProduct(t, { price: 10, stockData: { qty: 100, isInStock: true } })).sku as string;
});
after(() => t.close());

const CART = 'id _id maskedId itemsCount itemsQty isActive items prices';

describe('carts over GraphQL', () => {
  test('a guest checkout from createCart to placeOrder, in GraphQL alone', async () => {
    const created = ok(await gql(`mutation { createCart(input: {}) { cart { ${CART} } } }`)).createCart.cart;
    assert.equal(created.itemsCount, 0);
    assert.equal(created.isActive, true);
    assert.match(created.maskedId, /^[a-f0-9]{32}$/);
    const m = created.maskedId;

    const read = ok(await gql(`query($m: String!) { guestCart(maskedId: $m) { maskedId items prices } }`, undefined, { m })).guestCart;
    assert.equal(read.maskedId, m);
    assert.ok('grandTotal' in read.prices);

    const added = ok(
      await gql(
        `mutation($m: String) { addToCart(input: {maskedId: $m, sku: "${sku}", qty: 2}) { cart { itemsCount itemsQty items prices } } }`,
        undefined,
        { m },
      ),
    ).addToCart.cart;
    assert.equal(added.itemsCount, 1);
    assert.equal(added.itemsQty, 2);
    assert.equal(added.prices.subtotal, 20);
    const itemId = added.items[0].id;

    const qty = ok(
      await gql(`mutation { updateItemQtyInCart(input: {maskedId: "${m}", itemId: ${itemId}, qty: 3}) { cart { itemsQty } } }`),
    ).updateItemQtyInCart.cart;
    assert.equal(qty.itemsQty, 3);

    const a = TEST_ADDRESS;
    const address = `firstName: "${a.firstName}", lastName: "${a.lastName}", street: ["${a.street[0]}"], city: "${a.city}", postcode: "${a.postcode}", countryId: "${a.countryId}", region: "${a.region}", telephone: "${a.telephone}"`;
    const shipTo = ok(
      await gql(
        `mutation { setShippingAddressOnCart(input: {maskedId: "${m}", ${address}}) { cart { shippingAddress { id firstname lastname street city postcode countryId addressType } availableShippingMethods } } }`,
      ),
    ).setShippingAddressOnCart.cart;
    // an address is Maho's Address type, selected field by field; a cart's address has no id of its own
    assert.equal(shipTo.shippingAddress.city, 'Austin');
    assert.equal(shipTo.shippingAddress.firstname, a.firstName);
    assert.deepEqual(shipTo.shippingAddress.street, a.street);
    assert.equal(shipTo.shippingAddress.addressType, 'shipping');
    assert.equal(shipTo.shippingAddress.id, null);
    assert.ok(shipTo.availableShippingMethods.length > 0);
    ok(
      await gql(
        `mutation { setBillingAddressOnCart(input: {maskedId: "${m}", sameAsShipping: true}) { cart { billingAddress { city addressType } } } }`,
      ),
    );
    const method = ok(
      await gql(
        `mutation { setShippingMethodOnCart(input: {maskedId: "${m}", carrierCode: "flatrate", methodCode: "flatrate"}) { cart { selectedShippingMethod prices } } }`,
      ),
    ).setShippingMethodOnCart.cart;
    assert.equal(method.prices.shippingAmount, 15);
    ok(
      await gql(`mutation { setPaymentMethodOnCart(input: {maskedId: "${m}", methodCode: "checkmo"}) { cart { selectedPaymentMethod } } }`),
    );

    const placed = ok(
      await gql(
        `mutation { placeOrder(input: {maskedId: "${m}", guestEmail: "gql-guest@example.com", clientMutationId: "p1"}) { clientMutationId order { id _id incrementId prices status accessToken billingAddress { firstname city } shippingAddress { city } } } }`,
      ),
    ).placeOrder;
    assert.equal(placed.clientMutationId, 'p1');
    assert.match(placed.order.id, /^\/api\/rest\/v2\/orders\/\d+$/);
    assert.equal(placed.order.prices.grandTotal, 45);
    assert.ok(placed.order.accessToken);
    assert.equal(placed.order.billingAddress.firstname, a.firstName);
    assert.equal(placed.order.shippingAddress.city, 'Austin');

    // the cart is spent: placing again is an error, never a 500
    const again = await gql(`mutation { placeOrder(input: {maskedId: "${m}", guestEmail: "gql-guest@example.com"}) { order { id } } }`);
    assert.equal(again.data.placeOrder, null);
    assert.ok(again.errors[0].extensions.status >= 400 && again.errors[0].extensions.status < 500, JSON.stringify(again.errors));
  });

  test('coupons, gift cards and gift messages answer the cart; an unknown code or SKU is an error', async () => {
    const m = ok(await gql('mutation { createCart(input: {}) { cart { maskedId } } }')).createCart.cart.maskedId;
    const unknownSku = await gql(
      `mutation { addToCart(input: {maskedId: "${m}", sku: "NONEXISTENT-SKU-999", qty: 1}) { cart { itemsCount } } }`,
    );
    assert.equal(unknownSku.data.addToCart, null);
    assert.equal(unknownSku.errors[0].extensions.status, 400);
    ok(await gql(`mutation { addToCart(input: {maskedId: "${m}", sku: "${sku}", qty: 1}) { cart { itemsCount } } }`));
    const badCoupon = await gql(
      `mutation { applyCouponToCart(input: {maskedId: "${m}", couponCode: "INVALID-COUPON-CODE-12345"}) { cart { appliedCoupon } } }`,
    );
    assert.equal(badCoupon.data.applyCouponToCart, null);
    assert.ok(badCoupon.errors[0].extensions.status >= 400 && badCoupon.errors[0].extensions.status < 500);
    const noCoupon = ok(await gql(`mutation { removeCouponFromCart(input: {maskedId: "${m}"}) { cart { maskedId appliedCoupon } } }`))
      .removeCouponFromCart.cart;
    assert.equal(noCoupon.maskedId, m);
    const badCard = await gql(
      `mutation { applyGiftcardToCart(input: {maskedId: "${m}", giftcardCode: "NOPE"}) { cart { appliedGiftcards } } }`,
    );
    assert.equal(badCard.data.applyGiftcardToCart, null);
    const rates = ok(
      await gql(
        `mutation($a: Iterable) { estimateShippingMethodsOnCart(input: {maskedId: "${m}", address: $a}) { cart { availableShippingMethods } } }`,
        undefined,
        { a: TEST_ADDRESS },
      ),
    ).estimateShippingMethodsOnCart.cart;
    assert.ok(rates.availableShippingMethods.length > 0);
    const unknownItem = await gql(`mutation { removeItemFromCart(input: {maskedId: "${m}", itemId: 999999999}) { cart { itemsCount } } }`);
    assert.equal(unknownItem.data.removeItemFromCart, null);
    assert.equal(unknownItem.errors[0].extensions.status, 404);
  });

  test('customer carts by cartId or IRI: the owner and the back office may, another customer gets not found', async () => {
    const created = ok(await gql('mutation { createCustomerCart(input: {}) { cart { id _id customerId } } }', customer)).createCustomerCart
      .cart;
    assert.equal(created.id, `${API}/carts/${created._id}`);
    const byIri = ok(
      await gql(`mutation { addToCart(input: {cartId: "${created.id}", sku: "${sku}", qty: 1}) { cart { _id itemsCount } } }`, customer),
    ).addToCart.cart;
    assert.equal(byIri.itemsCount, 1);
    const byNumber = ok(await gql(`{ cart(id: ${created._id}) { _id itemsCount } }`, customer)).cart;
    assert.equal(byNumber.itemsCount, 1);
    const asAdmin = ok(await gql(`{ cart(id: "${created.id}") { _id } }`, admin)).cart;
    assert.equal(asAdmin._id, created._id);

    const foreign = await gql(`mutation { addToCart(input: {cartId: "${created._id}", sku: "${sku}", qty: 1}) { cart { _id } } }`, other);
    assert.equal(foreign.data.addToCart, null);
    assert.equal(foreign.errors[0].extensions.status, 404);
    const foreignRead = await gql(`{ cart(id: ${created._id}) { _id } }`, other);
    assert.equal(foreignRead.data.cart, null);
    assert.equal(foreignRead.errors[0].extensions.status, 404);
    const anonymous = await gql(`mutation { addToCart(input: {cartId: "${created._id}", sku: "${sku}", qty: 1}) { cart { _id } } }`);
    assert.equal(anonymous.errors[0].extensions.status, 401);
    const otherIri = await gql(`{ cart(id: "/api/rest/v2/products/${created._id}") { _id } }`, customer);
    assert.equal(otherIri.data.cart, null);
  });

  test('bad input: wrong types are validation errors, out-of-range values 400, unknown masked ids 404', async () => {
    const wrong = await gql('mutation { addToCart(input: {maskedId: 5, sku: 1, qty: "x"}) { cart { _id } } }');
    assert.equal(wrong.errors[0].extensions.code, 'GRAPHQL_VALIDATION_FAILED');
    const m = ok(await gql('mutation { createCart(input: {}) { cart { maskedId } } }')).createCart.cart.maskedId;
    const negative = await gql(`mutation { addToCart(input: {maskedId: "${m}", sku: "${sku}", qty: -1}) { cart { _id } } }`);
    assert.equal(negative.errors[0].extensions.status, 400);
    const unknown = await gql(`{ guestCart(maskedId: "${'0'.repeat(32)}") { maskedId } }`);
    assert.equal(unknown.data.guestCart, null);
    assert.equal(unknown.errors[0].extensions.status, 404);
  });
});

describe('gift messages and gift cards over GraphQL', () => {
  test('setGiftMessageOnCart and removeGiftMessageFromCart, on the cart or an item (itemId), need the store config', async () => {
    const m = ok(await gql('mutation { createCart(input: {}) { cart { maskedId } } }')).createCart.cart.maskedId;
    const item = ok(await gql(`mutation { addToCart(input: {maskedId: "${m}", sku: "${sku}", qty: 1}) { cart { items } } }`)).addToCart.cart
      .items[0].id;
    const set = (extra: string) =>
      gql(
        `mutation { setGiftMessageOnCart(input: {maskedId: "${m}"${extra}, sender: "Ann", recipient: "Bo", message: "Happy birthday"}) { cart { giftMessage items } } }`,
      );
    const off = await set('');
    assert.equal(off.data.setGiftMessageOnCart, null);
    assert.equal(off.errors[0].extensions.status, 400, 'gift options are off by default');
    const settings = t.services.settings;
    await setConfig(t.database.db, settings, 'sales/gift_options/allow_order', '1');
    await setConfig(t.database.db, settings, 'sales/gift_options/allow_items', '1');
    try {
      const msg = { sender: 'Ann', recipient: 'Bo', message: 'Happy birthday' };
      assert.deepEqual(ok(await set('')).setGiftMessageOnCart.cart.giftMessage, msg);
      const onItem = ok(await set(`, itemId: "${item}"`)).setGiftMessageOnCart.cart;
      assert.deepEqual(onItem.items[0].giftMessage, msg);
      const unknown = await set(', itemId: 999999');
      assert.equal(unknown.errors[0].extensions.status, 404);
      const itemGone = ok(
        await gql(`mutation { removeGiftMessageFromCart(input: {maskedId: "${m}", itemId: ${item}}) { cart { giftMessage items } } }`),
      ).removeGiftMessageFromCart.cart;
      assert.equal(itemGone.items[0].giftMessage, undefined);
      assert.deepEqual(itemGone.giftMessage, msg, "the cart's message stays");
      const gone = ok(await gql(`mutation { removeGiftMessageFromCart(input: {maskedId: "${m}"}) { cart { giftMessage } } }`))
        .removeGiftMessageFromCart.cart;
      assert.equal(gone.giftMessage, null);
      const missing = await gql(
        `mutation { setGiftMessageOnCart(input: {maskedId: "${m}", sender: "Ann", recipient: "Bo"}) { cart { id } } }`,
      );
      assert.equal(missing.errors[0].extensions.code, 'GRAPHQL_VALIDATION_FAILED', 'message is required');
    } finally {
      await deleteConfig(t.database.db, settings, 'sales/gift_options/allow_order');
      await deleteConfig(t.database.db, settings, 'sales/gift_options/allow_items');
    }
  });

  test('applyGiftcardToCart and removeGiftcardFromCart; removing a card the cart does not hold is a 400', async () => {
    const card = await t.req('POST', `${API}/giftcards`, { token: admin, body: { balance: 5 } });
    assert.equal(card.status, 201, card.text);
    const m = ok(await gql('mutation { createCart(input: {}) { cart { maskedId } } }')).createCart.cart.maskedId;
    ok(await gql(`mutation { addToCart(input: {maskedId: "${m}", sku: "${sku}", qty: 1}) { cart { id } } }`));
    const applied = ok(
      await gql(
        `mutation { applyGiftcardToCart(input: {maskedId: "${m}", giftcardCode: "${card.body.code}"}) { cart { appliedGiftcards prices } } }`,
      ),
    ).applyGiftcardToCart.cart;
    assert.equal(applied.appliedGiftcards.length, 1);
    assert.equal(applied.prices.giftcardAmount, 5);
    const removed = ok(
      await gql(
        `mutation { removeGiftcardFromCart(input: {maskedId: "${m}", giftcardCode: "${card.body.code}"}) { cart { appliedGiftcards prices } } }`,
      ),
    ).removeGiftcardFromCart.cart;
    assert.deepEqual(removed.appliedGiftcards, []);
    assert.equal(removed.prices.giftcardAmount, 0);
    const again = await gql(
      `mutation { removeGiftcardFromCart(input: {maskedId: "${m}", giftcardCode: "${card.body.code}"}) { cart { id } } }`,
    );
    assert.equal(again.data.removeGiftcardFromCart, null);
    assert.equal(again.errors[0].extensions.status, 400);
  });
});
