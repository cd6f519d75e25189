/**
 * POST /invoices/{id}/capture|void|cancel over HTTP: capture then void, cancel then invoice again, the order's
 * totals and state after each, gift card amounts, refusals (wrong state, refunded, unknown id: 4xx, nothing
 * changes), who may act, and GraphQL.
 * Demo setup: Texas charges no tax, flat rate 5.00 per item, gift card GC-DEMO-0000-0000-0001 (50.00).
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { API, buildTestApp, type TestApp } from '../../../test/helpers.js';
import { createTestProduct } from '../../../test/fixtures/catalog.js';
import { invoiceOrder, placeTestOrder } from '../../../test/fixtures/checkout.js';
import { dec } from '../../platform/money.js';

let t: TestApp;
let admin: string;
let skuA: string; // 10.00
let skuB: string; // 100.00

/** POST /invoices/{id}/<action>, as the admin unless a token (null: anonymous) is given. */
const act = (id: number | string, action: string, token: string | null = admin) =>
  t.req('POST', `${API}/invoices/${id}/${action}`, { token: token ?? undefined, body: {} });

before(async () => {
  t = await buildTestApp();
  admin = await t.tokens.admin();
  const stock = { qty: 1000, isInStock: true };
  skuA = (await createTestProduct(t, { price: 10, stockData: stock })).sku;
  skuB = (await createTestProduct(t, { price: 100, stockData: stock })).sku;
});
after(() => t.close());

async function getOrder(id: number) {
  const r = await t.req('GET', `${API}/orders/${id}`, { token: admin });
  assert.equal(r.status, 200, r.text);
  return r.body;
}

async function listInvoices(orderId: number) {
  const r = await t.req('GET', `${API}/orders/${orderId}/invoices`, { token: admin, headers: { accept: 'application/json' } });
  assert.equal(r.status, 200, r.text);
  return r.body as any[];
}

async function snapshot(orderId: number) {
  return { order: await getOrder(orderId), invoices: await listInvoices(orderId) };
}

function assertError(r: { status: number; body: any; text: string }, status: number, message?: RegExp) {
  assert.equal(r.status, status, r.text);
  assert.equal(typeof r.body.error, 'string', r.text);
  if (message) assert.match(r.body.message, message);
}

/** The order's money counters the invoice actions move, and the items' invoiced quantities. */
function counters(o: any) {
  const p = o.prices;
  return {
    state: o.state,
    totalInvoiced: p.totalInvoiced,
    subtotalInvoiced: p.subtotalInvoiced,
    totalPaid: p.totalPaid,
    baseTotalPaid: p.baseTotalPaid,
    totalDue: p.totalDue,
    qtyInvoiced: o.items.map((i: any) => i.qtyInvoiced),
  };
}

describe('capture and void', () => {
  test('an open invoice is captured (paid, the order paid), then voided (canceled, paid and invoiced totals back)', async () => {
    const o = await placeTestOrder(t, { items: [{ sku: skuA, qty: 2 }] });
    const g = o.prices.grandTotal;
    assert.equal(g, 30);
    const open = await invoiceOrder(t, o.id, { capture: 'not_capture' });
    assert.equal(open.stateName, 'open');
    assert.deepEqual(counters(await getOrder(o.id)), {
      state: 'processing',
      totalInvoiced: 30,
      subtotalInvoiced: 20,
      totalPaid: 0,
      baseTotalPaid: 0,
      totalDue: 30,
      qtyInvoiced: [2],
    });

    const captured = await act(open.id, 'capture');
    assert.equal(captured.status, 201, captured.text);
    assert.equal(captured.body.id, open.id);
    assert.equal(captured.body.stateName, 'paid');
    assert.equal(captured.body.state, 2);
    assert.equal(captured.body.canVoidFlag, true);
    assert.equal(captured.body.grandTotal, 30);
    let now = await getOrder(o.id);
    assert.deepEqual(counters(now), {
      state: 'processing',
      totalInvoiced: 30,
      subtotalInvoiced: 20,
      totalPaid: 30,
      baseTotalPaid: 30,
      totalDue: 0,
      qtyInvoiced: [2],
    });
    assert.match(now.statusHistory[0].note, new RegExp(`Invoice #${open.incrementId} captured: 30.00 USD paid`));

    // a paid invoice is neither captured nor canceled again
    let before = await snapshot(o.id);
    assertError(await act(open.id, 'capture'), 400, /The invoice cannot be captured in its current state/);
    assertError(await act(open.id, 'cancel'), 400, /The invoice cannot be canceled in its current state/);
    assert.deepEqual(await snapshot(o.id), before);

    const voided = await act(open.id, 'void');
    assert.equal(voided.status, 201, voided.text);
    assert.equal(voided.body.stateName, 'canceled');
    assert.equal(voided.body.state, 3);
    now = await getOrder(o.id);
    assert.deepEqual(counters(now), {
      state: 'processing',
      totalInvoiced: 0,
      subtotalInvoiced: 0,
      totalPaid: 0,
      baseTotalPaid: 0,
      totalDue: 30,
      qtyInvoiced: [0],
    });
    assert.equal(now.status, 'processing');
    assert.match(now.statusHistory[0].note, /voided/);

    // a canceled invoice refuses everything
    before = await snapshot(o.id);
    for (const action of ['capture', 'void', 'cancel']) assertError(await act(open.id, action), 400, /in its current state/);
    assert.deepEqual(await snapshot(o.id), before);

    // invoiced again, with the shipping the voided invoice gave back
    const again = await invoiceOrder(t, o.id);
    assert.equal(again.stateName, 'paid');
    assert.equal(again.grandTotal, 30);
    assert.equal(again.shippingAmount, 10);
    assert.deepEqual(counters(await getOrder(o.id)), {
      state: 'processing',
      totalInvoiced: 30,
      subtotalInvoiced: 20,
      totalPaid: 30,
      baseTotalPaid: 30,
      totalDue: 0,
      qtyInvoiced: [2],
    });
  });

  test('an invoice paid when it was created cannot be captured, voided or canceled (Maho: an offline payment)', async () => {
    const o = await placeTestOrder(t);
    const paid = await invoiceOrder(t, o.id, { capture: 'offline' });
    assert.equal(paid.canVoidFlag, false);
    const before = await snapshot(o.id);
    assertError(await act(paid.id, 'capture'), 400, /cannot be captured in its current state/);
    assertError(await act(paid.id, 'void'), 400, /cannot be voided in its current state/);
    assertError(await act(paid.id, 'cancel'), 400, /cannot be canceled in its current state/);
    assert.deepEqual(await snapshot(o.id), before);
  });

  test('a refunded invoice cannot be voided', async () => {
    const o = await placeTestOrder(t);
    const inv = await invoiceOrder(t, o.id, { capture: 'not_capture' });
    assert.equal((await act(inv.id, 'capture')).status, 201);
    const memo = await t.req('POST', `${API}/orders/${o.id}/credit-memos`, { token: admin, body: {} });
    assert.equal(memo.status, 201, memo.text);
    const before = await snapshot(o.id);
    assertError(await act(inv.id, 'void'), 400, /cannot be voided in its current state: .*refunded/);
    assert.deepEqual(await snapshot(o.id), before);
  });
});

describe('cancel', () => {
  test('an open partial invoice is canceled: the quantities go back and are invoiced again, the totals add up', async () => {
    const o = await placeTestOrder(t, {
      items: [
        { sku: skuA, qty: 3 },
        { sku: skuB, qty: 1 },
      ],
    });
    const [a, b] = [o.items.find((i) => i.sku === skuA)!, o.items.find((i) => i.sku === skuB)!];
    const first = await invoiceOrder(t, o.id, { items: [{ orderItemId: a.id, qty: 2 }], capture: 'not_capture' });
    const second = await invoiceOrder(t, o.id, { items: [{ orderItemId: b.id, qty: 1 }] });
    assert.equal(first.shippingAmount, 20);
    assert.equal(second.shippingAmount, 0);

    const canceled = await act(first.id, 'cancel');
    assert.equal(canceled.status, 201, canceled.text);
    assert.equal(canceled.body.stateName, 'canceled');
    let now = await getOrder(o.id);
    assert.deepEqual(counters(now), {
      state: 'processing',
      totalInvoiced: 100,
      subtotalInvoiced: 100,
      totalPaid: 100,
      baseTotalPaid: 100,
      totalDue: 50,
      qtyInvoiced: [0, 1],
    });
    assert.match(now.statusHistory[0].note, new RegExp(`Invoice #${first.incrementId} canceled`));

    // everything left: the 3 units of A, with the shipping the canceled invoice took
    const rest = await invoiceOrder(t, o.id);
    assert.deepEqual(
      rest.items.map((i: any) => [i.orderItemId, i.qty]),
      [[a.id, 3]],
    );
    assert.equal(rest.shippingAmount, 20);
    assert.equal(rest.grandTotal, 50);
    now = await getOrder(o.id);
    assert.deepEqual(counters(now), {
      state: 'processing',
      totalInvoiced: 150,
      subtotalInvoiced: 130,
      totalPaid: 150,
      baseTotalPaid: 150,
      totalDue: 0,
      qtyInvoiced: [3, 1],
    });
    const live = (await listInvoices(o.id)).filter((i) => i.stateName !== 'canceled');
    assert.equal(live.reduce((s, i) => s.add(i.grandTotal), dec(0)).toNumber(), o.prices.grandTotal);
  });

  test('canceling the open invoice of a complete order makes it processing; invoicing again completes it', async () => {
    const o = await placeTestOrder(t);
    const inv = await invoiceOrder(t, o.id, { capture: 'not_capture' });
    assert.equal((await t.req('POST', `${API}/orders/${o.id}/shipments`, { token: admin, body: {} })).status, 201);
    assert.equal((await getOrder(o.id)).state, 'complete');
    assert.equal((await act(inv.id, 'cancel')).status, 201);
    const now = await getOrder(o.id);
    assert.equal(now.state, 'processing');
    assert.equal(now.status, 'processing');
    await invoiceOrder(t, o.id);
    assert.equal((await getOrder(o.id)).state, 'complete');
  });

  test('gift cards: a canceled invoice gives its card amount back to the order, the next invoice takes it; card balances stay', async () => {
    const code = 'GC-DEMO-0000-0000-0001';
    const o = await placeTestOrder(t, { items: [{ sku: skuB, qty: 1 }], giftcardCodes: [code] });
    assert.equal(o.prices.giftcardAmount, 50);
    assert.equal(o.prices.grandTotal, 55, '100.00 + 5.00 shipping − 50.00 on the card');
    const balance = async () => {
      const r = await t.req('GET', `${API}/giftcards/balance`, { query: { code } });
      assert.equal(r.status, 200, r.text);
      return r.body.balance;
    };
    assert.equal(await balance(), 0);

    const open = await invoiceOrder(t, o.id, { capture: 'not_capture' });
    assert.equal(open.giftcardAmount, 50);
    assert.equal(open.grandTotal, 55);
    assert.equal((await act(open.id, 'cancel')).status, 201);
    assert.equal((await getOrder(o.id)).prices.totalInvoiced, 0);

    const again = await invoiceOrder(t, o.id);
    assert.equal(again.giftcardAmount, 50, 'the card amount the canceled invoice took');
    assert.equal(again.baseGiftcardAmount, 50);
    assert.equal(again.grandTotal, 55);
    const now = await getOrder(o.id);
    assert.equal(now.prices.totalInvoiced, 55);
    assert.equal(now.prices.totalPaid, 55);
    assert.equal(now.prices.giftcardAmount, 50);
    assert.equal(await balance(), 0, 'invoices do not move card balances');

    // an order whose only invoice was canceled gives the whole card back when it is canceled
    const card = await t.req('POST', `${API}/giftcards`, {
      token: admin,
      body: { code: 'GC-INVOICE-CANCEL-1', balance: 12, websiteId: 1 },
    });
    assert.equal(card.status, 201, card.text);
    const q = await placeTestOrder(t, { items: [{ sku: skuA, qty: 1 }], giftcardCodes: ['GC-INVOICE-CANCEL-1'] });
    assert.equal(q.prices.giftcardAmount, 12);
    const qi = await invoiceOrder(t, q.id, { capture: 'not_capture' });
    assert.equal(qi.giftcardAmount, 12);
    assert.equal((await act(qi.id, 'cancel')).status, 201);
    const canceled = await t.req('POST', `${API}/orders/${q.id}/cancel`, { token: admin, body: {} });
    assert.equal(canceled.status, 201, canceled.text);
    assert.equal(canceled.body.state, 'canceled');
    const r = await t.req('GET', `${API}/giftcards/balance`, { query: { code: 'GC-INVOICE-CANCEL-1' } });
    assert.equal(r.body.balance, 12, 'the card money no live invoice took goes back');
  });
});

describe('refusals and access', () => {
  test('unknown or malformed invoice ids', async () => {
    for (const action of ['capture', 'void', 'cancel']) {
      assertError(await act(99999999, action), 404, /Invoice not found/);
      for (const id of ['abc', '0', '-1', '2147483648']) assertError(await act(id, action), 400);
    }
    assertError(await act(1, 'refund'), 404);
  });

  test('anonymous 401, customers 403, API users need invoices/write, store-limited tokens their stores', async () => {
    const customer = await t.tokens.customer();
    const o = await placeTestOrder(t, { customerToken: customer });
    const inv = await invoiceOrder(t, o.id, { capture: 'not_capture' });
    const before = await snapshot(o.id);
    const creator = await t.tokens.apiUser(['invoices/create']);
    const reader = await t.tokens.apiUser(['invoices/read']);
    const store2 = await t.tokens.apiUser(['invoices/write'], { allowedStoreIds: [2] });
    for (const action of ['capture', 'void', 'cancel']) {
      assertError(await act(inv.id, action, null), 401);
      assertError(await act(inv.id, action, customer), 403);
      assertError(await act(inv.id, action, creator), 403);
      assertError(await act(inv.id, action, reader), 403);
      const r = await t.req('POST', `${API}/invoices/${inv.id}/${action}`, { token: store2, body: {}, query: { store: 'german' } });
      assertError(r, 403);
    }
    assert.deepEqual(await snapshot(o.id), before);
    const writer = await t.tokens.apiUser(['invoices/write']);
    const r = await act(inv.id, 'capture', writer);
    assert.equal(r.status, 201, r.text);
    assert.equal(r.body.stateName, 'paid');
  });
});

describe('GraphQL', () => {
  test('captureInvoice, voidInvoice and cancelInvoice', async () => {
    const o = await placeTestOrder(t);
    const a = await invoiceOrder(t, o.id, { items: [{ orderItemId: o.items[0].id, qty: 1 }], capture: 'not_capture' });
    const b = await invoiceOrder(t, o.id, { capture: 'not_capture' });
    const run = async (field: string, id: number) => {
      const r = await t.gql(`mutation { ${field}(input: {id: ${id}}) { invoice { _id stateName } } }`, admin);
      assert.equal(r.errors, undefined, JSON.stringify(r.errors));
      return r.data[field].invoice;
    };
    assert.deepEqual(await run('captureInvoice', a.id), { _id: a.id, stateName: 'paid' });
    assert.deepEqual(await run('voidInvoice', a.id), { _id: a.id, stateName: 'canceled' });
    assert.deepEqual(await run('cancelInvoice', b.id), { _id: b.id, stateName: 'canceled' });
    const refused = await t.gql(`mutation { cancelInvoice(input: {id: ${b.id}}) { invoice { _id } } }`, admin);
    assert.ok(refused.errors?.length);
    const anon = await t.gql(`mutation { captureInvoice(input: {id: ${b.id}}) { invoice { _id } } }`);
    assert.ok(anon.errors?.length);
    assert.equal((await getOrder(o.id)).prices.totalInvoiced, 0);
  });
});
