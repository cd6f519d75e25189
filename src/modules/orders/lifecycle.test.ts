/** Hold, unhold, cancel and comments: REST and GraphQL, who may act, refused transitions, what cancel gives back. */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { and, eq } from 'drizzle-orm';
import { API, buildTestApp, type TestApp } from '../../../test/helpers.js';
import { mailOutbox } from '../../platform/tables.js';
import { createTestProduct } from '../../../test/fixtures/catalog.js';
import { placeInvoicedOrder, placeTestOrder } from '../../../test/fixtures/checkout.js';
import { registerCustomer } from '../customers/service.js';
import { DEMO_GIFTCARD_CODE } from '../giftcards/service.js';
import { stockOf } from '../inventory/service.js';

let t: TestApp;
let admin: string;
let customer: string;
let other: string;
let reader: string;

before(async () => {
  t = await buildTestApp();
  admin = await t.tokens.admin();
  customer = await t.tokens.customer();
  await registerCustomer(t.systemCtx(), { email: 'other-lc@example.com', password: 'Password123!', firstname: 'O', lastname: 'Ther' });
  other = await t.tokens.customer('other-lc@example.com', 'Password123!');
  reader = await t.tokens.apiUser(['orders/read']);
});
after(() => t.close());

/** A new order nothing was invoiced of (cash on delivery): state new, status pending. */
const openOrder = (opts: Parameters<typeof placeTestOrder>[1] = {}) => placeTestOrder(t, { paymentMethod: 'cashondelivery', ...opts });

async function read(id: number) {
  const r = await t.req('GET', `${API}/orders/${id}`, { token: admin });
  assert.equal(r.status, 200, r.text);
  return r.body;
}

/** POSTs an action as the admin, or as `token` (null: anonymously). */
const act = (id: number, action: string, body: unknown = {}, token: string | null = admin) =>
  t.req('POST', `${API}/orders/${id}/${action}`, { token: token ?? undefined, body });

async function qtyOf(productId: number): Promise<number> {
  return (await stockOf(t.systemCtx(), [productId])).get(productId)!.qty;
}

async function mails(to: string, template: string) {
  return t.database.db
    .select()
    .from(mailOutbox)
    .where(and(eq(mailOutbox.toAddress, to), eq(mailOutbox.template, template)));
}

async function gql(query: string, token?: string) {
  return t.gql(query, token);
}

/** An order whose every item is invoiced and shipped: state complete. */
async function completeOrder() {
  const o = await placeInvoicedOrder(t);
  const s = await t.req('POST', `${API}/orders/${o.id}/shipments`, { token: admin, body: {} });
  assert.equal(s.status, 201, s.text);
  const now = await read(o.id);
  assert.equal(now.state, 'complete');
  return now;
}

describe('hold and unhold', () => {
  test('hold remembers state and status, answers 201 with the order and the new history entry first', async () => {
    const o = await openOrder();
    const r = await act(o.id, 'hold', { reason: 'fraud check' });
    assert.equal(r.status, 201, r.text);
    assert.equal(r.body.id, o.id);
    assert.equal(r.body.state, 'holded');
    assert.equal(r.body.status, 'holded');
    assert.equal(r.body.statusLabel, 'On Hold');
    assert.equal(r.body.holdBeforeState, 'new');
    assert.equal(r.body.holdBeforeStatus, 'pending');
    assert.equal(r.body.statusHistory.length, 2);
    assert.deepEqual(
      { note: r.body.statusHistory[0].note, status: r.body.statusHistory[0].status },
      { note: 'Order held: fraud check', status: 'holded' },
    );
    assert.ok(Array.isArray(r.body.items) && r.body.items.length === 1);
    assert.deepEqual(await read(o.id), r.body, 'the answer is the order as it now reads');
  });

  test('hold without a reason adds a plain history row; unhold restores state and status and clears the memory', async () => {
    const o = await placeInvoicedOrder(t); // processing (invoiced)
    const held = await act(o.id, 'hold');
    assert.equal(held.status, 201, held.text);
    assert.equal(held.body.statusHistory[0].note, 'Order held');
    assert.equal(held.body.holdBeforeState, 'processing');
    const r = await act(o.id, 'unhold', { reason: 'cleared' });
    assert.equal(r.status, 201, r.text);
    assert.equal(r.body.state, 'processing');
    assert.equal(r.body.status, 'processing');
    assert.equal(r.body.holdBeforeState, undefined);
    assert.equal(r.body.holdBeforeStatus, undefined);
    assert.equal(r.body.statusHistory[0].note, 'Order released from hold: cleared');
    assert.equal(r.body.statusHistory[0].status, 'processing');
    assert.equal(r.body.statusHistory.length, 4);
  });

  test('refused transitions are 409 naming state and action, and change nothing', async () => {
    const o = await openOrder();
    await act(o.id, 'hold');
    const held = await read(o.id);
    for (const action of ['hold', 'cancel']) {
      const r = await act(o.id, action);
      assert.equal(r.status, 409, `${action}: ${r.text}`);
      assert.equal(r.body.error, 'conflict');
      assert.match(r.body.message, /holded/);
      assert.deepEqual(r.body.details, { state: 'holded', action });
    }
    assert.deepEqual(await read(o.id), held);

    const fresh = await openOrder();
    const before = await read(fresh.id);
    const r = await act(fresh.id, 'unhold');
    assert.equal(r.status, 409);
    assert.equal(r.body.message, 'The order cannot be released from hold: it is new');
    assert.deepEqual(r.body.details, { state: 'new', action: 'unhold' });
    assert.deepEqual(await read(fresh.id), before);

    const done = await completeOrder();
    for (const action of ['hold', 'unhold', 'cancel']) {
      const x = await act(done.id, action);
      assert.equal(x.status, 409, action);
      assert.match(x.body.message, /complete/);
    }
    assert.deepEqual(await read(done.id), done);

    const canceled = await openOrder();
    await act(canceled.id, 'cancel');
    const after = await read(canceled.id);
    for (const action of ['hold', 'unhold', 'cancel']) {
      const x = await act(canceled.id, action);
      assert.equal(x.status, 409, action);
      assert.match(x.body.message, /canceled/);
    }
    assert.deepEqual(await read(canceled.id), after);
  });

  test('hold and unhold are for admin/API only: anonymous 401, customers 403 (even their own order), no grant 403', async () => {
    const o = await openOrder({ customerToken: customer });
    for (const action of ['hold', 'unhold']) {
      assert.equal((await act(o.id, action, {}, null)).status, 401);
      const c = await act(o.id, action, {}, customer);
      assert.equal(c.status, 403);
      assert.equal((await act(o.id, action, {}, reader)).status, 403, 'orders/read is not enough');
    }
    assert.equal((await read(o.id)).state, 'new');
    const writer = await t.tokens.apiUser(['orders/write']);
    assert.equal((await act(o.id, 'hold', {}, writer)).status, 201);
  });

  test('a store-limited API user acts only on orders of its store views (403 elsewhere); unknown orders are 404', async () => {
    const o = await openOrder();
    const elsewhere = await t.tokens.apiUser(['orders/write'], { allowedStoreIds: [2] });
    const r = await act(o.id, 'hold', {}, elsewhere);
    assert.equal(r.status, 403);
    assert.equal((await read(o.id)).state, 'new');
    const here = await t.tokens.apiUser(['orders/write'], { allowedStoreIds: [1] });
    assert.equal((await act(o.id, 'hold', {}, here)).status, 201);
    const missing = await act(999999, 'hold');
    assert.equal(missing.status, 404);
    assert.equal(missing.body.message, 'Order not found');
  });

  test('bad input: unknown fields, wrong types, bad ids, empty and malformed bodies are 400 and change nothing', async () => {
    const o = await openOrder();
    const before = await read(o.id);
    for (const body of [{ reason: 5 }, { reason: 'x'.repeat(1001) }, [], 'text']) {
      const r = await act(o.id, 'hold', body);
      assert.equal(r.status, 400, JSON.stringify(body));
    }
    const unknown = await act(o.id, 'hold', { reason: 'x', state: 'complete' });
    assert.equal(unknown.status, 201, 'unknown keys are dropped, as every body of the API');
    assert.equal(unknown.body.state, 'holded');
    await act(o.id, 'unhold');
    for (const id of ['0', '-1', 'abc', '2147483648', '1.5'])
      assert.equal((await t.req('POST', `${API}/orders/${id}/hold`, { token: admin, body: {} })).status, 400, id);
    const malformed = await t.req('POST', `${API}/orders/${o.id}/hold`, {
      token: admin,
      raw: '{"reason":',
      headers: { 'content-type': 'application/json' },
    });
    assert.equal(malformed.status, 400);
    assert.equal(malformed.body.message, 'Invalid JSON in request body');
    const empty = await t.req('POST', `${API}/orders/${o.id}/hold`, {
      token: admin,
      raw: '',
      headers: { 'content-type': 'application/json' },
    });
    assert.equal(empty.status, 400);
    const now = await read(o.id);
    assert.equal(now.state, before.state);
    assert.equal(now.status, before.status);
  });
});

describe('cancel', () => {
  test('admin cancel: state canceled, quantities and money canceled, history and mail, 201 with the order', async () => {
    const o = await openOrder();
    const r = await act(o.id, 'cancel', { reason: 'out of paint' });
    assert.equal(r.status, 201, r.text);
    assert.equal(r.body.state, 'canceled');
    assert.equal(r.body.status, 'canceled');
    assert.equal(r.body.items[0].qtyCanceled, 2);
    assert.equal(r.body.prices.subtotalCanceled, 20);
    assert.equal(r.body.prices.totalCanceled, 30);
    assert.deepEqual(
      { note: r.body.statusHistory[0].note, status: r.body.statusHistory[0].status, notified: r.body.statusHistory[0].isCustomerNotified },
      { note: 'Order canceled: out of paint', status: 'canceled', notified: true },
    );
    const sent = await mails('guest@example.com', 'sales/order_canceled');
    const mine = sent.filter((m) => m.subject.includes(o.incrementId));
    assert.equal(mine.length, 1);
    assert.match(mine[0].textBody, /has been canceled/);
    assert.match(mine[0].textBody, /Reason: out of paint/);
    assert.match(mine[0].textBody, new RegExp(`2 x ${o.items[0].name}`));
  });

  test('cancel gives the canceled quantities back to stock', async () => {
    const p = await createTestProduct(t, { price: 10, stockData: { qty: 50, isInStock: true } });
    const o = await openOrder({ items: [{ sku: p.sku, qty: 3 }] });
    assert.equal(await qtyOf(p.id), 47);
    const r = await act(o.id, 'cancel');
    assert.equal(r.status, 201, r.text);
    assert.equal(await qtyOf(p.id), 50);
    const prod = await t.req('GET', `${API}/products/${p.id}`, { token: admin });
    assert.equal(prod.body.stockQty, 50);
  });

  test('cancel gives the coupon use back; a second cancel is 409 and gives nothing back twice', async () => {
    const list = await t.req('GET', `${API}/coupons`, { token: admin, query: { code: 'WELCOME10' } });
    const couponId = list.body.member.find((c: { code: string }) => c.code === 'WELCOME10').id as number;
    const used = async () => (await t.req('GET', `${API}/coupons/${couponId}`, { token: admin })).body.timesUsed as number;
    const start = await used();
    const p = await createTestProduct(t, { price: 10, stockData: { qty: 20, isInStock: true } });
    const o = await openOrder({ couponCode: 'WELCOME10', items: [{ sku: p.sku, qty: 2 }] });
    assert.equal(o.couponCode, 'WELCOME10');
    assert.equal(await used(), start + 1);
    assert.equal((await act(o.id, 'cancel')).status, 201);
    assert.equal(await used(), start);
    assert.equal(await qtyOf(p.id), 20);
    const again = await act(o.id, 'cancel');
    assert.equal(again.status, 409);
    assert.match(again.body.message, /canceled/);
    assert.equal(await used(), start, 'the coupon use is not given back twice');
    assert.equal(await qtyOf(p.id), 20, 'stock is not given back twice');
  });

  test('cancel credits the gift card debits back and records them on the order', async () => {
    const card = async () => {
      const r = await t.req('GET', `${API}/giftcards/1`, { token: admin });
      assert.equal(r.body.code, DEMO_GIFTCARD_CODE);
      return r.body;
    };
    const start = (await card()).balance as number;
    const p = await createTestProduct(t, { price: 40, stockData: { qty: 20, isInStock: true } });
    const o = await openOrder({ giftcardCodes: [DEMO_GIFTCARD_CODE], items: [{ sku: p.sku, qty: 2 }] });
    const paid = o.prices.giftcardAmount;
    assert.ok(paid > 0);
    assert.equal((await card()).balance, start - paid);
    const r = await act(o.id, 'cancel');
    assert.equal(r.status, 201, r.text);
    const after = await card();
    assert.equal(after.balance, start);
    assert.equal(after.history[0].action, 'refunded');
    assert.equal(after.history[0].amount, paid);
    assert.equal((await act(o.id, 'cancel')).status, 409);
    assert.equal((await card()).balance, start, 'credited once');
  });

  test('a fully invoiced order cannot be canceled (409) and stays as it was', async () => {
    const o = await placeInvoicedOrder(t);
    const before = await read(o.id);
    const r = await act(o.id, 'cancel');
    assert.equal(r.status, 409);
    assert.equal(r.body.message, 'The order cannot be canceled: every item is already invoiced');
    assert.deepEqual(await read(o.id), before);
  });

  test('what was shipped before invoicing is not canceled; the order stays processing', async () => {
    const p = await createTestProduct(t, { price: 10, stockData: { qty: 30, isInStock: true } });
    const o = await openOrder({ items: [{ sku: p.sku, qty: 3 }] });
    const s = await t.req('POST', `${API}/orders/${o.id}/shipments`, {
      token: admin,
      body: { items: [{ orderItemId: o.items[0].id, qty: 1 }] },
    });
    assert.equal(s.status, 201, s.text);
    const r = await act(o.id, 'cancel');
    assert.equal(r.status, 201, r.text);
    assert.equal(r.body.items[0].qtyCanceled, 2);
    assert.equal(r.body.state, 'processing');
    assert.equal(r.body.prices.subtotalCanceled, 20);
    assert.equal(r.body.shipments.length, 1, 'the order read embeds its shipments');
    assert.equal(await qtyOf(p.id), 29, 'the shipped unit stays taken');
    const again = await act(o.id, 'cancel');
    assert.equal(again.status, 409);
  });

  test(
    'parallel cancels of one order: one succeeds, the others are 409, stock comes back once (PostgreSQL)',
    { skip: !process.env.TEST_DATABASE_URL },
    async () => {
      const p = await createTestProduct(t, { price: 10, stockData: { qty: 40, isInStock: true } });
      const o = await openOrder({ items: [{ sku: p.sku, qty: 4 }] });
      const all = await Promise.all(Array.from({ length: 10 }, () => act(o.id, 'cancel')));
      assert.equal(all.filter((r) => r.status === 201).length, 1);
      assert.equal(all.filter((r) => r.status === 409).length, 9);
      assert.equal(await qtyOf(p.id), 40);
      assert.equal((await read(o.id)).statusHistory.filter((h: { status: string }) => h.status === 'canceled').length, 1);
    },
  );

  test('a customer cancels their own order; another customer gets the 404 of a missing order', async () => {
    const mine = await openOrder({ customerToken: customer });
    const foreign = await act(mine.id, 'cancel', {}, other);
    const missing = await act(999999, 'cancel', {}, other);
    assert.equal(foreign.status, 404);
    assert.deepEqual(foreign.body, missing.body);
    assert.equal((await read(mine.id)).state, 'new');
    const r = await act(mine.id, 'cancel', {}, customer);
    assert.equal(r.status, 201, r.text);
    assert.equal(r.body.state, 'canceled');
    assert.equal(r.body.remoteIp, undefined, 'customers do not see backend fields');
    assert.equal((await act(mine.id, 'cancel', {}, null)).status, 401);
    assert.equal((await act(mine.id, 'cancel', {}, reader)).status, 403);
  });
});

describe('comments', () => {
  test('a comment is added first in the history; note is its alias; flags are kept', async () => {
    const o = await openOrder();
    const r = await act(o.id, 'comments', { comment: 'Called the customer', visibleOnFront: true });
    assert.equal(r.status, 201, r.text);
    assert.deepEqual(r.body.statusHistory[0], {
      note: 'Called the customer',
      status: 'pending',
      createdAt: r.body.statusHistory[0].createdAt,
      isCustomerNotified: false,
      isVisibleOnFront: true,
    });
    const n = await act(o.id, 'comments', { note: 'Via note' });
    assert.equal(n.status, 201);
    assert.equal(n.body.statusHistory[0].note, 'Via note');
    assert.equal(n.body.statusHistory.length, 3);
    assert.equal(n.body.state, 'new');
  });

  test('a comment needs text: missing, blank, or wrong types are 400 and add nothing', async () => {
    const o = await openOrder();
    for (const body of [{}, { comment: '   ' }, { comment: 5 }, { notifyCustomer: 'yes', comment: 'x' }, { comment: 'x'.repeat(10001) }]) {
      const r = await act(o.id, 'comments', body);
      assert.equal(r.status, 400, JSON.stringify(body));
    }
    assert.equal((await read(o.id)).statusHistory.length, 1);
  });

  test('a status of the current state is set; another state’s status is 400 and changes nothing', async () => {
    const o = await openOrder();
    const bad = await act(o.id, 'comments', { comment: 'x', status: 'complete' });
    assert.equal(bad.status, 400);
    assert.match(bad.body.message, /complete/);
    const now = await read(o.id);
    assert.equal(now.status, 'pending');
    assert.equal(now.statusHistory.length, 1);
    const same = await act(o.id, 'comments', { comment: 'still pending', status: 'pending' });
    assert.equal(same.status, 201);
    assert.equal(same.body.statusHistory[0].status, 'pending');
    assert.equal((await act(o.id, 'comments', { comment: 'x', status: 'bogus' })).status, 400);
  });

  test('notifyCustomer mails the comment to the customer', async () => {
    const o = await openOrder({ customerToken: customer });
    const r = await act(o.id, 'comments', { comment: 'Your parcel is delayed', notifyCustomer: true });
    assert.equal(r.status, 201);
    assert.equal(r.body.statusHistory[0].isCustomerNotified, true);
    const sent = (await mails('customer@example.com', 'sales/order_comment')).filter((m) => m.subject.includes(o.incrementId));
    assert.equal(sent.length, 1);
    assert.match(sent[0].textBody, /Your parcel is delayed/);
    await act(o.id, 'comments', { comment: 'internal only' });
    assert.equal((await mails('customer@example.com', 'sales/order_comment')).filter((m) => m.subject.includes(o.incrementId)).length, 1);
  });

  test('comments are for admin/API only', async () => {
    const o = await openOrder({ customerToken: customer });
    assert.equal((await act(o.id, 'comments', { comment: 'x' }, null)).status, 401);
    assert.equal((await act(o.id, 'comments', { comment: 'x' }, customer)).status, 403);
    assert.equal((await act(o.id, 'comments', { comment: 'x' }, reader)).status, 403);
    assert.equal((await act(999999, 'comments', { comment: 'x' })).status, 404);
    assert.equal((await read(o.id)).statusHistory.length, 1);
  });
});

describe('GraphQL mutations', () => {
  const fields = 'order { id _id state status holdBeforeState statusHistory items }';

  test('holdOrder, unholdOrder, addCommentOrder and cancelOrder answer with the order', async () => {
    const o = await openOrder();
    const h = await gql(`mutation { holdOrder(input: {id: "/api/rest/v2/orders/${o.id}", reason: "check"}) { ${fields} } }`, admin);
    assert.equal(h.errors, undefined, JSON.stringify(h.errors));
    assert.equal(h.data!.holdOrder.order.state, 'holded');
    assert.equal(h.data!.holdOrder.order.holdBeforeState, 'new');
    assert.equal(h.data!.holdOrder.order.statusHistory[0].note, 'Order held: check');
    const u = await gql(`mutation { unholdOrder(input: {orderId: ${o.id}}) { ${fields} } }`, admin);
    assert.equal(u.data!.unholdOrder.order.state, 'new');
    assert.equal(u.data!.unholdOrder.order.status, 'pending');
    const c = await gql(
      `mutation { addCommentOrder(input: {incrementId: "${o.incrementId}", comment: "hello", visibleOnFront: true, status: "pending"}) { ${fields} } }`,
      admin,
    );
    const { createdAt: _at, ...entry } = c.data!.addCommentOrder.order.statusHistory[0];
    assert.deepEqual(entry, { note: 'hello', status: 'pending', isCustomerNotified: false, isVisibleOnFront: true });
    const x = await gql(`mutation { cancelOrder(input: {id: "${o.id}"}) { ${fields} } }`, admin);
    assert.equal(x.data!.cancelOrder.order.state, 'canceled');
    assert.equal(x.data!.cancelOrder.order.items[0].qtyCanceled, 2);
    const again = await gql(`mutation { cancelOrder(input: {orderId: ${o.id}}) { order { id } } }`, admin);
    assert.equal(again.errors![0].extensions.status, 409);
    assert.equal(again.errors![0].extensions.code, 'ORDER_NOT_CANCELABLE');
  });

  test('access: anonymous 401, customers 403 on hold/unhold/comments, their own cancel only, no grant 403', async () => {
    const o = await openOrder({ customerToken: customer });
    const anon = await gql(`mutation { holdOrder(input: {orderId: ${o.id}}) { order { id } } }`);
    assert.equal(anon.errors![0].extensions.status, 401);
    for (const m of [
      `holdOrder(input: {orderId: ${o.id}})`,
      `unholdOrder(input: {orderId: ${o.id}})`,
      `addCommentOrder(input: {orderId: ${o.id}, comment: "x"})`,
    ]) {
      const r = await gql(`mutation { ${m} { order { id } } }`, customer);
      assert.equal(r.errors![0].extensions.status, 403, m);
    }
    assert.equal(
      (await gql(`mutation { holdOrder(input: {orderId: ${o.id}}) { order { id } } }`, reader)).errors![0].extensions.status,
      403,
    );
    const foreign = await gql(`mutation { cancelOrder(input: {orderId: ${o.id}}) { order { id } } }`, other);
    assert.equal(foreign.errors![0].extensions.status, 404);
    assert.equal((await read(o.id)).state, 'new');
    const own = await gql(
      `mutation { cancelOrder(input: {orderId: ${o.id}, reason: "changed my mind"}) { order { state statusHistory } } }`,
      customer,
    );
    assert.equal(own.errors, undefined, JSON.stringify(own.errors));
    assert.equal(own.data!.cancelOrder.order.state, 'canceled');
    assert.equal(own.data!.cancelOrder.order.statusHistory[0].note, 'Order canceled: changed my mind');
  });

  test('a comment status outside the state is an error that changes nothing', async () => {
    const o = await openOrder();
    const r = await gql(`mutation { addCommentOrder(input: {orderId: ${o.id}, comment: "x", status: "closed"}) { order { id } } }`, admin);
    assert.equal(r.errors![0].extensions.status, 400);
    assert.equal((await read(o.id)).statusHistory.length, 1);
  });
});
