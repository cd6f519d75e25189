/**
 * Statement budgets of the hot paths: how many SQL statements each request sends, counted in the request's own
 * async context (`countStatements`: query builder and prepared statements, inside transactions too), so that
 * background work running meanwhile (the mail sender, the webhook deliverer, janitors) is never among them. Each
 * budget is what the path takes today; a change that adds a statement to one of them fails here, whatever the
 * timing. Lower a budget when a path gets cheaper. Every list is held to its own budget in list-budget.test.ts.
 *
 * Counts, not times: every request is made once first so that per-process caches are warm, as they are under
 * load. On PostgreSQL a transaction also sends BEGIN and COMMIT through the counter; the embedded database opens
 * and ends transactions itself, uncounted.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { countStatements } from '../src/platform/db.js';
import { createTestProduct } from './fixtures/catalog.js';
import { TEST_ADDRESS } from './fixtures/checkout.js';
import { API, buildTestApp, type ReqOptions, type TestApp } from './helpers.js';

/** Statements a path may send (besides its transaction's BEGIN and COMMIT on PostgreSQL). */
const BUDGET = {
  productDetail: 1,
  productList: 1,
  addToCart: 2,
  cartTotals: 1,
  /** without a transaction (placeUnlocked): the cart with what placing it reads, the numbers, the write; a customer's token check */
  placeOrderGuest: 3,
  placeOrderCustomer: 4,
  ordersListAdmin: 2,
  ordersListCustomer: 2,
  /** the token check, the stock statement and the activity log row of a back-office write */
  inventoryUpdate: 3,
};

let t: TestApp;
let admin: string;
let customer: string;

before(async () => {
  t = await buildTestApp();
  admin = await t.tokens.admin();
  customer = await t.tokens.customer();
});
after(() => t.close());

/** The statements `req` sends, and its reply. */
async function statements(method: string, url: string, opts: ReqOptions = {}) {
  const { n, result: res } = await countStatements(() => t.req(method, url, opts));
  return { n, res };
}

/** The statements of a read, made once before to warm the caches. */
async function warmRead(url: string, opts: ReqOptions = {}): Promise<number> {
  assert.equal((await t.req('GET', url, opts)).status, 200, url);
  const { n, res } = await statements('GET', url, opts);
  assert.equal(res.status, 200, url);
  return n;
}

async function product(price: number) {
  return createTestProduct(t, { price, stockData: { qty: 1000, isInStock: true } });
}

/** A guest or customer cart with two lines and a shipping address, ready to place; its base path. */
async function readyCart(token?: string): Promise<string> {
  const created = await t.req('POST', token ? `${API}/carts` : `${API}/guest-carts`, { token, body: {} });
  assert.equal(created.status, 201, created.text);
  const base = token ? `${API}/carts/${created.body.id}` : `${API}/guest-carts/${created.body.maskedId}`;
  for (const [p, qty] of [
    [await product(10), 2],
    [await product(12.5), 1],
  ] as const) {
    assert.equal((await t.req('POST', `${base}/items`, { token, body: { sku: p.sku, qty } })).status, 200);
  }
  assert.equal((await t.req('PUT', `${base}/shipping-address`, { token, body: TEST_ADDRESS })).status, 200);
  return base;
}

const placement = (guest: boolean) => ({
  billingAddress: { sameAsShipping: true },
  shippingMethod: 'flatrate_flatrate',
  paymentMethod: 'checkmo',
  ...(guest ? { guestEmail: 'budget@example.com' } : {}),
});

describe("a request's statements", () => {
  test("a background pass kicked from a request is not counted as the request's", async () => {
    const before = t.database.queryCount();
    const { n } = await countStatements(async () => {
      // as a commit that queued mail does: the pass starts now, in the sender's own context
      t.mail.nudge();
      for (let i = 0; i < 200 && t.database.queryCount() === before; i++) await new Promise((r) => setTimeout(r, 5));
    });
    assert.ok(t.database.queryCount() > before, 'the pass sent its statements');
    assert.equal(n, 0);
  });

  test('requests counted at the same time count their own statements', async () => {
    const p = await product(3);
    const url = `${API}/products/${p.id}`;
    assert.equal((await t.req('GET', url)).status, 200);
    const before = t.database.queryCount();
    const together = await Promise.all(Array.from({ length: 5 }, () => countStatements(() => t.req('GET', url))));
    const sent = t.database.queryCount() - before;
    // each statement is counted once, in the request that sent it (the database's own count may hold background work too)
    const counted = together.reduce((sum, c) => sum + c.n, 0);
    assert.ok(counted >= 5 && counted <= sent, `${counted} statements counted in the requests, ${sent} sent`);
    for (const c of together) assert.ok(c.n <= BUDGET.productDetail + 1, `${c.n} statements in one product read`);
  });
});

describe('statement budgets of the hot paths', () => {
  test('product detail and product list', async () => {
    const p = await product(20);
    assert.ok((await warmRead(`${API}/products/${p.id}`)) <= BUDGET.productDetail);
    assert.ok((await warmRead(`${API}/products`, { query: { page: '1' } })) <= BUDGET.productList);
  });

  test('add to cart', async () => {
    const p = await product(8);
    const cart = await t.req('POST', `${API}/guest-carts`, { body: {} });
    const base = `${API}/guest-carts/${cart.body.maskedId}`;
    assert.equal((await t.req('POST', `${base}/items`, { body: { sku: p.sku, qty: 1 } })).status, 200);
    const { n, res } = await statements('POST', `${base}/items`, { body: { sku: p.sku, qty: 1 } });
    assert.equal(res.status, 200, res.text);
    // counted past the body's parsing: the request's statements are in its scope
    assert.ok(n >= 1, 'the write is counted');
    assert.ok(n <= BUDGET.addToCart, `add to cart: ${n} statements, budget ${BUDGET.addToCart}`);
  });

  test('cart totals', async () => {
    const base = await readyCart();
    assert.equal(
      (await t.req('PUT', `${base}/shipping-method`, { body: { carrierCode: 'flatrate', methodCode: 'flatrate' } })).status,
      200,
    );
    assert.equal((await t.req('POST', `${base}/coupon`, { body: { couponCode: 'WELCOME10' } })).status, 201);
    const n = await warmRead(`${base}/totals`);
    assert.ok(n <= BUDGET.cartTotals, `cart totals: ${n} statements, budget ${BUDGET.cartTotals}`);
  });

  test('place an order, guest and customer, in a fixed number of statements whatever its lines', async () => {
    // warm: the first placement of a process reads what later ones find cached
    assert.equal((await t.req('POST', `${await readyCart()}/place-order`, { body: placement(true) })).status, 201);

    const guest = await statements('POST', `${await readyCart()}/place-order`, { body: placement(true) });
    assert.equal(guest.res.status, 201, guest.res.text);
    assert.equal(guest.res.body.items.length, 2);
    assert.ok(guest.n <= BUDGET.placeOrderGuest, `guest placement: ${guest.n} statements, budget ${BUDGET.placeOrderGuest}`);

    const mine = await statements('POST', `${await readyCart(customer)}/place-order`, { token: customer, body: placement(false) });
    assert.equal(mine.res.status, 201, mine.res.text);
    assert.ok(mine.n <= BUDGET.placeOrderCustomer, `customer placement: ${mine.n} statements, budget ${BUDGET.placeOrderCustomer}`);
  });

  test('orders list, back office and customer', async () => {
    const adminList = await warmRead(`${API}/orders`, { token: admin, query: { page: '1' } });
    assert.ok(adminList <= BUDGET.ordersListAdmin, `GET /orders: ${adminList} statements, budget ${BUDGET.ordersListAdmin}`);
    const mine = await warmRead(`${API}/customers/me/orders`, { token: customer });
    assert.ok(mine <= BUDGET.ordersListCustomer, `GET /customers/me/orders: ${mine} statements, budget ${BUDGET.ordersListCustomer}`);
  });

  test('a stock update by SKU (the token check and one statement, its own transaction; and its activity log row)', async () => {
    const p = await product(5);
    const { n, res } = await statements('PUT', `${API}/inventory`, { token: admin, body: { sku: p.sku, qty: 7 } });
    assert.equal(res.status, 200, res.text);
    assert.equal(res.body.previousQty, 1000);
    assert.ok(n <= BUDGET.inventoryUpdate, `PUT /inventory: ${n} statements, budget ${BUDGET.inventoryUpdate}`);
  });
});
