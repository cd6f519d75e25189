/**
 * Carts and their customers: GET /customers/me/cart (GraphQL customerCart) answers the signed-in customer's active
 * cart, making one when there is none; PUT /guest-carts/{m}/customer and PUT /carts/{id}/customer (GraphQL
 * assignCustomerToCart) give a cart to a customer: a customer takes over the guest cart they filled before signing
 * in, the back office gives any cart to anyone; GET /carts (GraphQL carts) lists a customer's own carts, or any for
 * the back office. Per access level, with bad input, and two customers racing for one guest cart.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { API, buildTestApp, type TestApp } from '../../../test/helpers.js';
import { createTestProduct } from '../../../test/fixtures/catalog.js';
import { countStatements } from '../../platform/db.js';
import { registerCustomer } from '../customers/service.js';

let t: TestApp;
let customer: string;
let customerId: number;
let other: string;
let otherId: number;
let admin: string;
let sku: string;

const gql = (query: string, token?: string, variables?: Record<string, unknown>) => t.gql(query, token, variables);

before(async () => {
  t = await buildTestApp();
  customer = await t.tokens.customer();
  admin = await t.tokens.admin();
  customerId = (await t.req('GET', `${API}/customers/me`, { token: customer })).body.id;
  otherId = await registerCustomer(t.systemCtx(), {
    email: 'assign-cart@example.com',
    password: 'Password123!',
    firstname: 'A',
    lastname: 'Cart',
  });
  other = await t.tokens.customer('assign-cart@example.com', 'Password123!');
  sku = (await createTestProduct(t, { price: 10, stockData: { qty: 100, isInStock: true } })).sku as string;
});
after(() => t.close());

async function guestCartWithItem(): Promise<{ maskedId: string; id: number }> {
  const c = await t.req('POST', `${API}/guest-carts`, { body: {} });
  assert.equal(c.status, 201, c.text);
  const added = await t.req('POST', `${API}/guest-carts/${c.body.maskedId}/items`, { body: { sku, qty: 2 } });
  assert.equal(added.status, 200, added.text);
  return { maskedId: c.body.maskedId, id: c.body.id };
}

describe("the customer's cart", () => {
  test('GET /customers/me/cart makes a cart once, then answers the same one; customerCart is its twin', async () => {
    const first = await t.req('GET', `${API}/customers/me/cart`, { token: other });
    assert.equal(first.status, 200, first.text);
    assert.equal(first.body.itemsCount, 0);
    const again = await t.req('GET', `${API}/customers/me/cart`, { token: other });
    assert.equal(again.body.id, first.body.id);
    const g = await gql('{ customerCart { id _id itemsCount isActive } }', other);
    assert.equal(g.errors, undefined, JSON.stringify(g.errors));
    assert.equal(g.data.customerCart._id, first.body.id);
    assert.equal(g.data.customerCart.id, `${API}/carts/${first.body.id}`);
  });

  test('anonymous callers are 401, the back office 403 (it has no cart of its own)', async () => {
    assert.equal((await t.req('GET', `${API}/customers/me/cart`)).status, 401);
    assert.equal((await t.req('GET', `${API}/customers/me/cart`, { token: admin })).status, 403);
    const g = await gql('{ customerCart { id } }');
    assert.equal(g.data.customerCart, null);
    assert.equal(g.errors[0].extensions.status, 401);
  });
});

describe('giving a cart to a customer', () => {
  test('a signed-in customer takes over their guest cart: items kept, the masked id stops working, it becomes their cart', async () => {
    const { maskedId, id } = await guestCartWithItem();
    const r = await t.req('PUT', `${API}/guest-carts/${maskedId}/customer`, { token: customer, body: { customerId } });
    assert.equal(r.status, 200, r.text);
    assert.equal(r.body.id, id);
    assert.equal(r.body.itemsQty, 2);
    assert.equal((await t.req('GET', `${API}/guest-carts/${maskedId}`)).status, 404);
    const mine = await t.req('GET', `${API}/carts/${id}`, { token: customer });
    assert.equal(mine.status, 200, mine.text);
    assert.equal(mine.body.itemsQty, 2);
    assert.equal((await t.req('GET', `${API}/customers/me/cart`, { token: customer })).body.id, id, 'the newest active cart');
    assert.equal((await t.req('GET', `${API}/carts/${id}`, { token: other })).status, 404, "another customer's cart");
  });

  test('GraphQL assignCustomerToCart takes the masked id and the customer IRI (ID variables, as Maho clients send)', async () => {
    const { maskedId, id } = await guestCartWithItem();
    const g = await gql(
      'mutation($m: String, $c: ID!) { assignCustomerToCart(input: {maskedId: $m, customerId: $c, clientMutationId: "k"}) { cart { id itemsQty } clientMutationId } }',
      customer,
      { m: maskedId, c: `${API}/customers/${customerId}` },
    );
    assert.equal(g.errors, undefined, JSON.stringify(g.errors));
    assert.equal(g.data.assignCustomerToCart.cart.id, `${API}/carts/${id}`);
    assert.equal(g.data.assignCustomerToCart.cart.itemsQty, 2);
    assert.equal(g.data.assignCustomerToCart.clientMutationId, 'k');
    // the back office moves it on to another customer, naming the cart by its IRI
    const moved = await gql(
      `mutation { assignCustomerToCart(input: {cartId: "${API}/carts/${id}", customerId: ${otherId}}) { cart { _id } } }`,
      admin,
    );
    assert.equal(moved.errors, undefined, JSON.stringify(moved.errors));
    assert.equal((await t.req('GET', `${API}/carts/${id}`, { token: other })).status, 200);
    assert.equal((await t.req('GET', `${API}/carts/${id}`, { token: customer })).status, 404);
  });

  test('who may: anonymous 401, a customer only for themselves (403), the back office for anyone', async () => {
    const { maskedId, id } = await guestCartWithItem();
    assert.equal((await t.req('PUT', `${API}/guest-carts/${maskedId}/customer`, { body: { customerId } })).status, 401);
    const foreign = await t.req('PUT', `${API}/guest-carts/${maskedId}/customer`, { token: customer, body: { customerId: otherId } });
    assert.equal(foreign.status, 403, foreign.text);
    assert.equal(foreign.body.error, 'forbidden');
    assert.equal((await t.req('GET', `${API}/guest-carts/${maskedId}`)).status, 200, 'a refusal changes nothing');
    const byAdmin = await t.req('PUT', `${API}/guest-carts/${maskedId}/customer`, { token: admin, body: { customerId: otherId } });
    assert.equal(byAdmin.status, 200, byAdmin.text);
    // a customer cannot reach another customer's cart by its id: not found, as for any cart of someone else
    assert.equal((await t.req('PUT', `${API}/carts/${id}/customer`, { token: customer, body: { customerId } })).status, 404);
    const anon = await gql(`mutation { assignCustomerToCart(input: {cartId: "${id}", customerId: ${customerId}}) { cart { id } } }`);
    assert.equal(anon.data.assignCustomerToCart, null);
    assert.equal(anon.errors[0].extensions.status, 401);
  });

  test('bad input is a 4xx and changes nothing', async () => {
    const { maskedId } = await guestCartWithItem();
    const url = `${API}/guest-carts/${maskedId}/customer`;
    for (const body of [{}, { customerId: 'x' }, { customerId: 0 }, { customerId: 1.5 }, { customerId: 2 ** 31 }, [], 'text']) {
      const r = await t.req('PUT', url, { token: admin, body });
      assert.equal(r.status, 400, `${JSON.stringify(body)}: ${r.text}`);
    }
    const unknown = await t.req('PUT', url, { token: admin, body: { customerId: 999999 } });
    assert.equal(unknown.status, 404, unknown.text);
    assert.equal(
      (await t.req('PUT', `${API}/guest-carts/${'0'.repeat(32)}/customer`, { token: customer, body: { customerId } })).status,
      404,
    );
    assert.equal((await t.req('PUT', `${API}/guest-carts/../customer`, { token: customer, body: { customerId } })).status, 404);
    assert.equal((await t.req('GET', `${API}/guest-carts/${maskedId}`)).status, 200, 'still a guest cart');
    const g = await gql(
      `mutation { assignCustomerToCart(input: {maskedId: "${maskedId}", customerId: "/api/rest/v2/orders/1"}) { cart { id } } }`,
      admin,
    );
    assert.equal(g.data.assignCustomerToCart, null);
    assert.equal(g.errors[0].extensions.status, 400);
  });

  test('two customers racing for one guest cart: exactly one gets it', async () => {
    const { maskedId, id } = await guestCartWithItem();
    const [a, b] = await Promise.all([
      t.req('PUT', `${API}/guest-carts/${maskedId}/customer`, { token: customer, body: { customerId } }),
      t.req('PUT', `${API}/guest-carts/${maskedId}/customer`, { token: other, body: { customerId: otherId } }),
    ]);
    assert.deepEqual([a.status, b.status].sort(), [200, 404], `${a.text} ${b.text}`);
    const winner = a.status === 200 ? customer : other;
    const loser = a.status === 200 ? other : customer;
    assert.equal((await t.req('GET', `${API}/carts/${id}`, { token: winner })).status, 200);
    assert.equal((await t.req('GET', `${API}/carts/${id}`, { token: loser })).status, 404);
  });
});

describe('the carts list', () => {
  test('a customer sees only their own carts, newest first, priced; the back office sees any, with filters', async () => {
    const { maskedId, id } = await guestCartWithItem();
    await t.req('PUT', `${API}/guest-carts/${maskedId}/customer`, { token: other, body: { customerId: otherId } });
    const own = await t.req('GET', `${API}/carts`, { token: other, headers: { accept: 'application/json' } });
    assert.equal(own.status, 200, own.text);
    assert.ok(own.body.length >= 1);
    assert.equal(own.body[0].id, id, 'the most recently changed first');
    assert.equal(own.body[0].prices.subtotal, 20);
    assert.ok(
      own.body.every((c: { customerId: number }) => c.customerId === otherId),
      'only their own',
    );
    const mine = await t.req('GET', `${API}/carts`, { token: customer, headers: { accept: 'application/json' } });
    assert.ok(mine.body.every((c: { id: number }) => c.id !== id));

    const filtered = await t.req('GET', `${API}/carts`, { token: admin, query: { customerId: String(otherId), isActive: 'true' } });
    assert.equal(filtered.status, 200, filtered.text);
    assert.ok(filtered.body.member.some((c: { id: number }) => c.id === id));
    assert.ok(filtered.body.member.every((c: { customerId: number; isActive: boolean }) => c.customerId === otherId && c.isActive));
    assert.equal(filtered.body.totalItems, filtered.body.member.length);

    const g = await t.gql(
      `{ carts(first: 1, customerId: ${otherId}) { totalCount edges { node { id itemsQty shippingAddress { city } } } pageInfo { hasNextPage } } }`,
      admin,
    );
    assert.equal(g.errors, undefined, JSON.stringify(g.errors));
    assert.equal(g.data.carts.edges[0].node.id, `${API}/carts/${id}`);
    assert.equal(g.data.carts.edges[0].node.itemsQty, 2);
    assert.equal(g.data.carts.totalCount, filtered.body.totalItems);
  });

  test('a page of 8 carts costs the statements of a page of 2 (one statement reads the page and its lines)', async () => {
    for (let i = 0; i < 8; i++) await guestCartWithItem();
    const count = async (n: number) => {
      await t.req('GET', `${API}/carts`, { token: admin, query: { pageSize: String(n) } });
      const { n: used, result: r } = await countStatements(() =>
        t.req('GET', `${API}/carts`, { token: admin, query: { pageSize: String(n) } }),
      );
      assert.equal(r.body.member.length, n);
      return used;
    };
    assert.equal(await count(8), await count(2));
  });

  test('anonymous callers are 401; bad filters are a 400; an API user without the carts grant is 403', async () => {
    assert.equal((await t.req('GET', `${API}/carts`)).status, 401);
    for (const query of [{ customerId: 'x' }, { isActive: 'maybe' }, { storeId: '-1' }] as Record<string, string>[]) {
      const r = await t.req('GET', `${API}/carts`, { token: admin, query });
      assert.equal(r.status, 400, `${JSON.stringify(query)}: ${r.text}`);
    }
    const reader = await t.tokens.apiUser(['products/read']);
    assert.equal((await t.req('GET', `${API}/carts`, { token: reader })).status, 403);
    const g = await t.gql('{ carts { totalCount } }');
    assert.equal(g.data.carts, null);
    assert.equal(g.errors[0].extensions.status, 401);
  });
});
