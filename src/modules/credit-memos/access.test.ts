/** Who may read and create credit memos over REST and GraphQL, and what the GraphQL mutation answers. */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { eq, sql } from 'drizzle-orm';
import { API, buildTestApp, type TestApp } from '../../../test/helpers.js';
import { placeInvoicedOrder } from '../../../test/fixtures/checkout.js';
import { creditMemos } from './tables.js';

let t: TestApp;
let admin: string;
let customer: string;

before(async () => {
  t = await buildTestApp();
  admin = await t.tokens.admin();
  customer = await t.tokens.customer();
});
after(() => t.close());

async function memoCount(orderId: number): Promise<number> {
  const [r] = await t.database.db
    .select({ n: sql<number>`count(*)::int` })
    .from(creditMemos)
    .where(eq(creditMemos.orderId, orderId));
  return r.n;
}

describe('REST access', () => {
  test('anonymous 401, customer 403 (even for their own order), API user without the permission 403; nothing is created', async () => {
    const o = await placeInvoicedOrder(t, { customerToken: customer });
    const memo = await t.req('POST', `${API}/orders/${o.id}/credit-memos`, {
      token: admin,
      body: { items: [{ orderItemId: o.items[0].id, qty: 1 }] },
    });
    assert.equal(memo.status, 201, memo.text);
    const noPermission = await t.tokens.apiUser(['orders/all', 'invoices/all', 'shipments/all']);
    const routes: [string, string, unknown?][] = [
      ['GET', `${API}/credit-memos/${memo.body.id}`],
      ['GET', `${API}/orders/${o.id}/credit-memos`],
      ['POST', `${API}/orders/${o.id}/credit-memos`, {}],
    ];
    for (const [method, url, body] of routes) {
      const anon = await t.req(method, url, { body });
      assert.equal(anon.status, 401, `${method} ${url} anonymous`);
      assert.equal(anon.body.error, 'unauthorized');
      const bad = await t.req(method, url, { body, token: 'not.a.token' });
      assert.equal(bad.status, 401, `${method} ${url} malformed token`);
      const cust = await t.req(method, url, { body, token: customer });
      assert.equal(cust.status, 403, `${method} ${url} customer`);
      assert.equal(cust.body.error, 'forbidden');
      const api = await t.req(method, url, { body, token: noPermission });
      assert.equal(api.status, 403, `${method} ${url} API user without credit-memos`);
      assert.match(api.body.message, /credit-memos\/(read|create)/);
    }
    assert.equal(await memoCount(o.id), 1);
  });

  test('credit-memos/read may read but not create; credit-memos/create (or write) may create but not read', async () => {
    const o = await placeInvoicedOrder(t);
    const reader = await t.tokens.apiUser(['credit-memos/read']);
    const creator = await t.tokens.apiUser(['credit-memos/create']);
    const writer = await t.tokens.apiUser(['credit-memos/write']);
    assert.equal((await t.req('POST', `${API}/orders/${o.id}/credit-memos`, { token: reader, body: {} })).status, 403);
    assert.equal(await memoCount(o.id), 0);
    const m = await t.req('POST', `${API}/orders/${o.id}/credit-memos`, {
      token: creator,
      body: { items: [{ orderItemId: o.items[0].id, qty: 1 }] },
    });
    assert.equal(m.status, 201, m.text);
    assert.equal((await t.req('GET', `${API}/credit-memos/${m.body.id}`, { token: creator })).status, 403);
    assert.equal((await t.req('GET', `${API}/orders/${o.id}/credit-memos`, { token: creator })).status, 403);
    const w = await t.req('POST', `${API}/orders/${o.id}/credit-memos`, { token: writer, body: {} });
    assert.equal(w.status, 201, w.text);
    const one = await t.req('GET', `${API}/credit-memos/${m.body.id}`, { token: reader });
    assert.equal(one.status, 200);
    assert.deepEqual(one.body, m.body);
    const list = await t.req('GET', `${API}/orders/${o.id}/credit-memos`, { token: reader });
    assert.equal(list.body.totalItems, 2);
    // the OAuth client of the demo holds every permission
    const client = await t.tokens.client();
    assert.equal((await t.req('GET', `${API}/credit-memos/${m.body.id}`, { token: client })).status, 200);
  });

  test('a store-restricted API user works on orders of its store views only: others are 403', async () => {
    const o = await placeInvoicedOrder(t);
    const m = await t.req('POST', `${API}/orders/${o.id}/credit-memos`, {
      token: admin,
      body: { items: [{ orderItemId: o.items[0].id, qty: 1 }] },
    });
    assert.equal(m.status, 201, m.text);
    const elsewhere = await t.tokens.apiUser(['credit-memos/all'], { allowedStoreIds: [2] });
    const here = await t.tokens.apiUser(['credit-memos/all'], { allowedStoreIds: [1] });
    // in its own store view (german), the order of store 1 is out of its reach
    const german = { 'x-store-code': 'german' };
    assert.equal((await t.req('GET', `${API}/credit-memos/${m.body.id}`, { token: elsewhere, headers: german })).status, 403);
    assert.equal((await t.req('GET', `${API}/orders/${o.id}/credit-memos`, { token: elsewhere, headers: german })).status, 403);
    assert.equal((await t.req('POST', `${API}/orders/${o.id}/credit-memos`, { token: elsewhere, headers: german, body: {} })).status, 403);
    // asking in a store view outside its list is refused at the door
    assert.equal((await t.req('POST', `${API}/orders/${o.id}/credit-memos`, { token: elsewhere, body: {} })).status, 403);
    assert.equal(await memoCount(o.id), 1);
    assert.equal((await t.req('GET', `${API}/credit-memos/${m.body.id}`, { token: here })).status, 200);
    assert.equal((await t.req('POST', `${API}/orders/${o.id}/credit-memos`, { token: here, body: {} })).status, 201);
  });

  test('every credit memo route is in the OpenAPI document with its operationId', async () => {
    const doc = await t.req('GET', `${API}/openapi.json`);
    assert.equal(doc.status, 200);
    const paths = doc.body.paths;
    assert.equal(
      paths['/api/rest/v2/credit-memos/{id}']?.get?.operationId ?? paths['/credit-memos/{id}']?.get?.operationId,
      'creditMemos.get',
    );
    const orderPath = paths['/api/rest/v2/orders/{orderId}/credit-memos'] ?? paths['/orders/{orderId}/credit-memos'];
    assert.equal(orderPath.get.operationId, 'creditMemos.list');
    assert.equal(orderPath.post.operationId, 'creditMemos.create');
  });
});

const MUTATION = `mutation Refund($input: createCreditMemoInput!) {
  createCreditMemo(input: $input) { creditMemo { id _id incrementId state grandTotal orderId comment items } }
}`;

const gql = (input: Record<string, unknown>, token?: string) =>
  t.req('POST', '/api/graphql', { token, body: { query: MUTATION, variables: { input } } });

describe('GraphQL createCreditMemo', () => {
  test('an admin refunds through the same service: id, incrementId, state and grandTotal', async () => {
    const o = await placeInvoicedOrder(t);
    const r = await gql(
      {
        orderId: o.id,
        items: [{ orderItemId: o.items[0].id, qty: 1, backToStock: true }],
        comment: 'via GraphQL',
        offlineRefund: true,
        adjustmentPositive: 0.5,
        adjustmentNegative: 1,
      },
      admin,
    );
    assert.equal(r.status, 200, r.text);
    assert.equal(r.body.errors, undefined, r.text);
    const m = r.body.data.createCreditMemo.creditMemo;
    assert.equal(m.id, `/api/rest/v2/credit-memos/${m._id}`);
    assert.equal(m.state, 'refunded');
    assert.equal(m.grandTotal, 10 + 10 - 0.5);
    assert.equal(m.orderId, o.id);
    assert.equal(m.comment, 'via GraphQL');
    assert.deepEqual(
      m.items.map((i: Record<string, unknown>) => ({
        orderItemId: i.orderItemId,
        qty: i.qty,
        backToStock: i.backToStock,
        rowTotal: i.rowTotal,
      })),
      [{ orderItemId: o.items[0].id, qty: 1, backToStock: true, rowTotal: 10 }],
    );
    const rest = await t.req('GET', `${API}/credit-memos/${m._id}`, { token: admin });
    assert.equal(rest.body.incrementId, m.incrementId);
    // null items: everything left
    const rest2 = await gql({ orderId: o.id, items: null, comment: null, adjustmentPositive: 0.5 }, admin);
    assert.equal(rest2.body.errors, undefined, rest2.text);
    assert.equal(rest2.body.data.createCreditMemo.creditMemo.grandTotal, 10.5);
    assert.equal((await t.req('GET', `${API}/orders/${o.id}`, { token: admin })).body.state, 'closed');
  });

  test('access: anonymous, customer and an API user without the permission are refused; nothing is created', async () => {
    const o = await placeInvoicedOrder(t, { customerToken: customer });
    const noPermission = await t.tokens.apiUser(['orders/all']);
    const cases: [string | undefined, string][] = [
      [undefined, 'UNAUTHENTICATED'],
      [customer, 'ADMIN_REQUIRED'],
      [noPermission, 'PERMISSION_DENIED'],
    ];
    for (const [token, code] of cases) {
      const r = await gql({ orderId: o.id }, token);
      assert.equal(r.body.data.createCreditMemo, null, r.text);
      assert.equal(r.body.errors[0].extensions.code, code);
    }
    assert.equal(await memoCount(o.id), 0);
  });

  test('refusals carry the service error: online refund, unknown order, bad qty, closed order', async () => {
    const o = await placeInvoicedOrder(t);
    const online = await gql({ orderId: o.id, offlineRefund: false }, admin);
    assert.equal(online.body.errors[0].extensions.code, 'ONLINE_REFUND_UNAVAILABLE');
    assert.equal(online.body.errors[0].extensions.status, 400);
    assert.match(online.body.errors[0].message, /cannot refund online; refund offline/);
    const missing = await gql({ orderId: 99999999 }, admin);
    assert.equal(missing.body.errors[0].extensions.code, 'ORDER_NOT_FOUND');
    const zero = await gql({ orderId: o.id, items: [{ orderItemId: o.items[0].id, qty: 0 }] }, admin);
    assert.equal(zero.body.errors[0].extensions.code, 'INVALID_QTY');
    const negativeAdj = await gql({ orderId: o.id, adjustmentNegative: -1 }, admin);
    assert.equal(negativeAdj.body.errors[0].extensions.status, 400);
    const badType = await gql({ orderId: o.id, items: [{ orderItemId: 'x', qty: 1 }] }, admin);
    assert.ok(badType.body.errors?.length, 'a wrongly typed variable is refused');
    assert.equal(await memoCount(o.id), 0);
    assert.equal((await gql({ orderId: o.id }, admin)).body.data.createCreditMemo.creditMemo.state, 'refunded');
    const closed = await gql({ orderId: o.id }, admin);
    assert.equal(closed.body.errors[0].extensions.code, 'ORDER_NOT_REFUNDABLE');
  });
});
