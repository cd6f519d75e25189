/** Order reads: GET /orders (filters, paging, store scope), GET /orders/{id} and GET /customers/me/orders. */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { API, buildTestApp, type TestApp } from '../../../test/helpers.js';
import { invoiceOrder, placeInvoicedOrder, placeTestOrder } from '../../../test/fixtures/checkout.js';
import { countStatements } from '../../platform/db.js';
import { registerCustomer } from '../customers/service.js';
import type { OrderDto } from './schemas.js';

let t: TestApp;
let admin: string;
let customer: string;
let other: string;
let customerId: number;
/** a guest order in store 1 paid by check, invoiced (processing) */
let alpha: OrderDto;
/** the demo customer's order, cash on delivery (new, pending) */
let mine: OrderDto;
/** a guest order in store 2 */
let german: OrderDto;
/** another customer's order */
let theirs: OrderDto;

before(async () => {
  t = await buildTestApp();
  admin = await t.tokens.admin();
  customer = await t.tokens.customer();
  await registerCustomer(t.systemCtx(), { email: 'other-read@example.com', password: 'Password123!', firstname: 'O', lastname: 'Ther' });
  other = await t.tokens.customer('other-read@example.com', 'Password123!');
  alpha = await placeTestOrder(t, { guestEmail: 'alpha.one@example.com' });
  mine = await placeTestOrder(t, { customerToken: customer, paymentMethod: 'cashondelivery' });
  german = await placeTestOrder(t, { guestEmail: 'beta@example.org', storeId: 2 });
  theirs = await placeTestOrder(t, { customerToken: other });
  // paid by check and invoiced: processing
  await invoiceOrder(t, alpha.id);
  await invoiceOrder(t, german.id);
  await invoiceOrder(t, theirs.id);
  customerId = mine.customerId!;
});
after(() => t.close());

const list = (query: Record<string, string> = {}, token: string | null = admin) =>
  t.req('GET', `${API}/orders`, { token: token ?? undefined, query });

const ids = (body: { member: { id: number }[] }) => body.member.map((o) => o.id);

const day = (offset: number) => new Date(Date.now() + offset * 86_400_000).toISOString().slice(0, 10);

describe('GET /orders', () => {
  test('every order, newest first, as list rows (no shipping address, empty history and shipments)', async () => {
    const r = await list();
    assert.equal(r.status, 200, r.text);
    assert.equal(r.body['@type'], 'Collection');
    assert.equal(r.body.totalItems, 4);
    assert.deepEqual(ids(r.body), [theirs.id, german.id, mine.id, alpha.id]);
    const row = r.body.member.find((o: OrderDto) => o.id === alpha.id);
    assert.equal(row.shippingAddress, undefined);
    assert.ok(row.billingAddress);
    assert.deepEqual(row.statusHistory, []);
    assert.deepEqual(row.shipments, []);
    assert.equal(row.items.length, 1);
    assert.equal(row.items[0].sku, alpha.items[0].sku);
    assert.equal(row.incrementId, alpha.incrementId);
  });

  test('paging: itemsPerPage (alias pageSize), page, view links; application/json gets a bare array', async () => {
    const p1 = await list({ itemsPerPage: '3' });
    assert.deepEqual(ids(p1.body), [theirs.id, german.id, mine.id]);
    assert.equal(p1.body.totalItems, 4);
    assert.equal(p1.body.view.next, `${API}/orders?itemsPerPage=3&page=2`);
    const p2 = await list({ pageSize: '3', page: '2' });
    assert.deepEqual(ids(p2.body), [alpha.id]);
    assert.deepEqual(ids((await list({ itemsPerPage: '3', page: '9' })).body), []);
    assert.equal((await list({ itemsPerPage: '0' })).body.member.length, 1, 'clamped to 1');
    const bare = await t.req('GET', `${API}/orders`, { token: admin, headers: { accept: 'application/json' } });
    assert.ok(Array.isArray(bare.body));
    assert.equal(bare.body.length, 4);
  });

  test('the items of a page are read in one statement, whatever the page size', async () => {
    const count = async (size: string) => {
      const { n, result: r } = await countStatements(() => list({ itemsPerPage: size }));
      assert.equal(r.status, 200);
      return n;
    };
    // each size read for the first time: a page read again comes from the cache (below)
    await count('2');
    assert.equal(await count('4'), await count('1'));
  });

  test('a page read again is served from the process cache, and follows any change of an order at once', async () => {
    const statements = async (query: Record<string, string>) => {
      const { n, result: r } = await countStatements(() => list(query));
      assert.equal(r.status, 200);
      return { n, body: r.body };
    };
    const query = { itemsPerPage: '2', page: '1' };
    const cold = await statements(query);
    const warm = await statements(query);
    // the token check and the orders version
    assert.equal(warm.n, 2);
    assert.ok(cold.n > warm.n);
    assert.deepEqual(warm.body, cold.body);
    // a change through the API
    const held = await t.req('POST', `${API}/orders/${theirs.id}/hold`, { token: admin, body: {} });
    assert.equal(held.status, 201, held.text);
    const after = await statements(query);
    assert.equal(after.body.member.find((o: OrderDto) => o.id === theirs.id)?.status, 'holded');
    assert.equal((await t.req('POST', `${API}/orders/${theirs.id}/unhold`, { token: admin, body: {} })).status, 201);
    assert.equal(
      (await statements(query)).body.member.find((o: OrderDto) => o.id === theirs.id)?.status,
      cold.body.member.find((o: OrderDto) => o.id === theirs.id)?.status,
    );
    // a customer's page is cached apart from the admin's, with the customer's fields only
    for (let i = 0; i < 2; i++) {
      const own = await t.req('GET', `${API}/customers/me/orders`, { token: customer });
      assert.deepEqual(ids(own.body), [mine.id]);
      assert.equal(own.body.member[0].remoteIp, undefined);
    }
  });

  test('filters: customerId, email (exact, any case), emailLike, incrementId, status, state, storeId', async () => {
    assert.deepEqual(ids((await list({ customerId: String(customerId) })).body), [mine.id]);
    assert.deepEqual(ids((await list({ email: 'ALPHA.ONE@Example.com' })).body), [alpha.id]);
    assert.deepEqual(ids((await list({ email: 'alpha.one' })).body), [], 'email is exact');
    assert.deepEqual(ids((await list({ emailLike: 'PHA.O' })).body), [alpha.id]);
    assert.deepEqual(ids((await list({ emailLike: 'example.org' })).body), [german.id]);
    assert.deepEqual(ids((await list({ emailLike: '%xa' })).body), [], 'LIKE wildcards are taken literally');
    assert.deepEqual(ids((await list({ emailLike: 'a_p' })).body), []);
    assert.deepEqual(ids((await list({ incrementId: german.incrementId })).body), [german.id]);
    assert.deepEqual(ids((await list({ status: 'pending' })).body), [mine.id]);
    assert.deepEqual(ids((await list({ state: 'new' })).body), [mine.id]);
    assert.deepEqual(ids((await list({ state: 'processing', storeId: '1' })).body), [theirs.id, alpha.id]);
    assert.deepEqual(ids((await list({ storeId: '2' })).body), [german.id]);
    assert.equal((await list({ storeId: '2' })).body.totalItems, 1);
  });

  test('date filters: createdFrom, createdTo (a bare date covers the day), updatedSince and its alias since', async () => {
    assert.equal((await list({ createdFrom: day(0) })).body.totalItems, 4);
    assert.equal((await list({ createdFrom: day(1) })).body.totalItems, 0);
    assert.equal((await list({ createdTo: day(0) })).body.totalItems, 4);
    assert.equal((await list({ createdTo: day(-1) })).body.totalItems, 0);
    assert.equal((await list({ createdTo: `${day(-1)} 23:59:59` })).body.totalItems, 0);
    assert.equal((await list({ updatedSince: day(0) })).body.totalItems, 4);
    assert.equal((await list({ updatedSince: day(1) })).body.totalItems, 0);
    assert.equal((await list({ since: day(1) })).body.totalItems, 0);
    assert.equal((await list({ since: `${day(-1)} 00:00` })).body.totalItems, 4);
  });

  test('bad filter values are 400', async () => {
    const bad: Record<string, string>[] = [
      { emailLike: 'ab' },
      { emailLike: '  ab ' },
      { status: 'bogus' },
      { state: 'holding' },
      { customerId: 'abc' },
      { customerId: '0' },
      { customerId: '2147483648' },
      { storeId: '-1' },
      { createdFrom: 'yesterday' },
      { createdTo: '2024-02-30' },
      { updatedSince: '2024-01-01 25:00:00' },
      { since: '01/01/2024' },
      { page: 'x' },
    ];
    for (const q of bad) {
      const r = await list(q);
      assert.equal(r.status, 400, JSON.stringify(q));
      assert.equal(r.body.error, 'bad_request');
    }
  });

  test('access: anonymous 401, customers 403, an API user without orders/read 403', async () => {
    assert.equal((await list({}, null)).status, 401);
    assert.equal((await list({}, customer)).status, 403);
    assert.equal((await list({}, await t.tokens.apiUser(['products/read']))).status, 403);
    const reader = await t.tokens.apiUser(['orders/read']);
    assert.equal((await list({}, reader)).body.totalItems, 4);
  });

  test('a store-limited API user sees only orders of its store views; other stores read as an empty list', async () => {
    const limited = await t.tokens.apiUser(['orders/read'], { allowedStoreIds: [2] });
    const r = await t.req('GET', `${API}/orders`, { token: limited, query: { store: 'german' } });
    assert.equal(r.status, 200, r.text);
    assert.deepEqual(ids(r.body), [german.id]);
    const none = await t.req('GET', `${API}/orders`, { token: limited, query: { store: 'german', storeId: '1' } });
    assert.equal(none.status, 200);
    assert.deepEqual(none.body.member, []);
    assert.equal(none.body.totalItems, 0);
  });
});

describe('GET /orders/{id}', () => {
  test('the owner reads the whole order: addresses, history, shipments; no backend fields', async () => {
    const r = await t.req('GET', `${API}/orders/${mine.id}`, { token: customer });
    assert.equal(r.status, 200, r.text);
    assert.equal(r.body.id, mine.id);
    assert.equal(r.body.customerId, customerId);
    assert.ok(r.body.shippingAddress);
    assert.deepEqual(r.body.statusHistory, [], 'the placement entry is not visible on the storefront');
    assert.deepEqual(r.body.shipments, []);
    assert.equal(r.body.remoteIp, undefined);
    assert.equal(r.body.accessToken, undefined);
    assert.equal(r.body.accountToken, undefined);
  });

  test("another customer's order and a guest order are the 404 of a missing order, body for body", async () => {
    const missing = await t.req('GET', `${API}/orders/999999`, { token: customer });
    assert.equal(missing.status, 404);
    assert.deepEqual(missing.body, { error: 'not_found', message: 'Order not found', code: 404 });
    for (const id of [theirs.id, alpha.id]) {
      const r = await t.req('GET', `${API}/orders/${id}`, { token: customer });
      assert.equal(r.status, 404);
      assert.deepEqual(r.body, missing.body);
    }
  });

  test('admin/API readers see any order with its backend fields; a store-limited one gets 403 elsewhere', async () => {
    const r = await t.req('GET', `${API}/orders/${alpha.id}`, { token: admin });
    assert.equal(r.status, 200);
    assert.equal(r.body.customerEmail, 'alpha.one@example.com');
    assert.equal(typeof r.body.remoteIp, 'string');
    const limited = await t.tokens.apiUser(['orders/read'], { allowedStoreIds: [2] });
    assert.equal((await t.req('GET', `${API}/orders/${german.id}`, { token: limited, query: { store: 'german' } })).status, 200);
    assert.equal((await t.req('GET', `${API}/orders/${alpha.id}`, { token: limited, query: { store: 'german' } })).status, 403);
    assert.equal((await t.req('GET', `${API}/orders/999999`, { token: admin })).status, 404);
  });

  test('access and bad ids: anonymous 401, no grant 403, malformed or out-of-range ids 400', async () => {
    assert.equal((await t.req('GET', `${API}/orders/${mine.id}`)).status, 401);
    assert.equal((await t.req('GET', `${API}/orders/${mine.id}`, { token: await t.tokens.apiUser(['invoices/read']) })).status, 403);
    for (const id of ['0', '-3', 'x', '2147483648', '1.5']) {
      assert.equal((await t.req('GET', `${API}/orders/${id}`, { token: admin })).status, 400, id);
    }
  });
});

describe('GET /customers/me/orders', () => {
  test('the customer sees only their own orders, newest first, 10 a page, filtered by status', async () => {
    const extra: number[] = [];
    for (let i = 0; i < 10; i++) extra.push((await placeInvoicedOrder(t, { customerToken: customer })).id);
    const r = await t.req('GET', `${API}/customers/me/orders`, { token: customer });
    assert.equal(r.status, 200, r.text);
    assert.equal(r.body.totalItems, 11);
    assert.equal(r.body.member.length, 10);
    assert.deepEqual(ids(r.body), extra.reverse());
    const p2 = await t.req('GET', `${API}/customers/me/orders`, { token: customer, query: { page: '2' } });
    assert.deepEqual(ids(p2.body), [mine.id]);
    const pending = await t.req('GET', `${API}/customers/me/orders`, { token: customer, query: { status: 'pending' } });
    assert.deepEqual(ids(pending.body), [mine.id]);
    const theirsList = await t.req('GET', `${API}/customers/me/orders`, { token: other });
    assert.deepEqual(ids(theirsList.body), [theirs.id]);
    assert.equal((await t.req('GET', `${API}/customers/me/orders`, { token: customer, query: { status: 'nope' } })).status, 400);
  });

  test('customers only: anonymous 401, admin and API tokens 403', async () => {
    assert.equal((await t.req('GET', `${API}/customers/me/orders`)).status, 401);
    assert.equal((await t.req('GET', `${API}/customers/me/orders`, { token: admin })).status, 403);
    assert.equal((await t.req('GET', `${API}/customers/me/orders`, { token: await t.tokens.apiUser(['orders/read']) })).status, 403);
  });
});
