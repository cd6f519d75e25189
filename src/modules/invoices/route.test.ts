/**
 * POST /orders/{orderId}/invoices over HTTP: an order paid by check stays pending without an invoice until the
 * back office invoices it; partial and full invoices and the order's totals; capture modes; comments and the
 * invoice mail; who may invoice; bad bodies (4xx, nothing changes); two requests for everything at once; GraphQL.
 * Demo setup: Texas charges no tax, flat rate 5.00 per item.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { asc, eq } from 'drizzle-orm';
import { API, buildTestApp, type TestApp } from '../../../test/helpers.js';
import { createTestProduct } from '../../../test/fixtures/catalog.js';
import { placeTestOrder } from '../../../test/fixtures/checkout.js';
import { mailOutbox } from '../../platform/tables.js';
import { dec } from '../../platform/money.js';
import { deleteConfig, setConfig } from '../stores/service.js';

let t: TestApp;
let admin: string;
let skuA: string; // 10.00
let skuB: string; // 25.50

const url = (orderId: number | string) => `${API}/orders/${orderId}/invoices`;

before(async () => {
  t = await buildTestApp();
  admin = await t.tokens.admin();
  const stock = { qty: 1000, isInStock: true };
  skuA = (await createTestProduct(t, { price: 10, stockData: stock })).sku;
  skuB = (await createTestProduct(t, { price: 25.5, stockData: stock })).sku;
});
after(() => t.close());

async function getOrder(id: number) {
  const r = await t.req('GET', `${API}/orders/${id}`, { token: admin });
  assert.equal(r.status, 200, r.text);
  return r.body;
}

async function listInvoices(orderId: number) {
  const r = await t.req('GET', url(orderId), { token: admin, headers: { accept: 'application/json' } });
  assert.equal(r.status, 200, r.text);
  return r.body as any[];
}

async function invoiceMails() {
  return t.database.db.select().from(mailOutbox).where(eq(mailOutbox.template, 'sales/invoice')).orderBy(asc(mailOutbox.id));
}

/** What an invoice request could change: the order (with its history), its invoices and the invoice mails. */
async function snapshot(orderId: number) {
  const order = await getOrder(orderId);
  return { order, invoices: await listInvoices(orderId), mails: (await invoiceMails()).length };
}

function assertError(r: { status: number; body: any; text: string }, status: number, message?: RegExp) {
  assert.equal(r.status, status, r.text);
  assert.equal(typeof r.body.error, 'string', r.text);
  assert.equal(typeof r.body.message, 'string', r.text);
  if (message) assert.match(r.body.message, message);
}

const twoItems = () => [
  { sku: skuA, qty: 3 },
  { sku: skuB, qty: 1 },
];

describe('an order paid by check', () => {
  test('stays pending without an invoice until invoiced; a partial invoice, then the rest, add up to the order', async () => {
    const o = await placeTestOrder(t, { items: twoItems() });
    assert.equal(o.state, 'new');
    assert.equal(o.status, 'pending');
    assert.equal(o.prices.totalPaid, 0);
    assert.equal(o.prices.totalInvoiced, 0);
    assert.equal(o.prices.totalDue, o.prices.grandTotal);
    assert.deepEqual(await listInvoices(o.id), []);
    assert.equal(o.prices.grandTotal, 30 + 25.5 + 20, 'items 55.50, shipping 4 x 5.00');

    const [a, b] = [o.items.find((i) => i.sku === skuA)!, o.items.find((i) => i.sku === skuB)!];
    const r1 = await t.req('POST', url(o.id), { token: admin, body: { items: [{ orderItemId: a.id, qty: 2 }] } });
    assert.equal(r1.status, 201, r1.text);
    const i1 = r1.body;
    assert.equal(i1.orderId, o.id);
    assert.equal(i1.orderIncrementId, o.incrementId);
    assert.equal(i1.stateName, 'paid', 'an offline capture by default');
    assert.equal(i1.state, 2);
    assert.equal(i1.totalQty, 2);
    assert.deepEqual(
      i1.items.map((i: any) => [i.orderItemId, i.qty, i.rowTotal]),
      [[a.id, 2, 20]],
    );
    assert.equal(i1.subtotal, 20);
    assert.equal(i1.shippingAmount, 20, 'the shipping goes on the first invoice');
    assert.equal(i1.grandTotal, 40);
    assert.equal(i1.emailSent, false, 'no mail unless asked (notifyCustomer)');
    assert.equal(i1.canVoidFlag, false);

    let now = await getOrder(o.id);
    assert.equal(now.state, 'processing');
    assert.equal(now.status, 'processing');
    assert.equal(now.prices.totalInvoiced, 40);
    assert.equal(now.prices.subtotalInvoiced, 20);
    assert.equal(now.prices.totalPaid, 40);
    assert.equal(now.prices.baseTotalPaid, 40);
    assert.equal(now.prices.totalDue, 35.5);
    assert.deepEqual(
      now.items.map((i: any) => [i.sku, i.qtyInvoiced]),
      [
        [skuA, 2],
        [skuB, 0],
      ],
    );
    assert.match(now.statusHistory[0].note, new RegExp(`Invoice #${i1.incrementId} created`));

    // the rest: items omitted
    const r2 = await t.req('POST', url(o.id), { token: admin, body: {} });
    assert.equal(r2.status, 201, r2.text);
    assert.deepEqual(
      r2.body.items.map((i: any) => [i.orderItemId, i.qty]),
      [
        [a.id, 1],
        [b.id, 1],
      ],
    );
    assert.equal(r2.body.shippingAmount, 0);
    assert.equal(r2.body.grandTotal, 35.5);
    now = await getOrder(o.id);
    assert.equal(now.state, 'processing', 'invoiced, not shipped');
    assert.equal(now.prices.totalInvoiced, now.prices.grandTotal);
    assert.equal(now.prices.subtotalInvoiced, now.prices.subtotal);
    assert.equal(now.prices.totalPaid, now.prices.grandTotal);
    assert.equal(now.prices.baseTotalPaid, now.prices.baseGrandTotal);
    assert.equal(now.prices.totalDue, 0);
    const invs = await listInvoices(o.id);
    assert.equal(invs.length, 2);
    assert.equal(invs.reduce((s, i) => s.add(i.grandTotal), dec(0)).toNumber(), o.prices.grandTotal);

    // nothing is left
    const again = await t.req('POST', url(o.id), { token: admin, body: {} });
    assertError(again, 400, /nothing is left to invoice/);

    // shipping everything completes it
    const shipped = await t.req('POST', `${API}/orders/${o.id}/shipments`, { token: admin, body: {} });
    assert.equal(shipped.status, 201, shipped.text);
    assert.equal((await getOrder(o.id)).state, 'complete');
  });

  test('a shipment does not invoice: shipped in full but not invoiced is processing, invoicing then completes it', async () => {
    for (const paymentMethod of ['checkmo', 'cashondelivery']) {
      const o = await placeTestOrder(t, { paymentMethod });
      assert.equal(o.state, 'new', paymentMethod);
      const shipped = await t.req('POST', `${API}/orders/${o.id}/shipments`, { token: admin, body: {} });
      assert.equal(shipped.status, 201, shipped.text);
      let now = await getOrder(o.id);
      assert.equal(now.state, 'processing', paymentMethod);
      assert.equal(now.prices.totalInvoiced, 0);
      assert.deepEqual(await listInvoices(o.id), [], paymentMethod);
      const inv = await t.req('POST', url(o.id), { token: admin, body: {} });
      assert.equal(inv.status, 201, inv.text);
      now = await getOrder(o.id);
      assert.equal(now.state, 'complete', paymentMethod);
      assert.equal(now.status, 'complete');
    }
  });

  test('not_capture leaves the invoice open: invoiced, not paid', async () => {
    const o = await placeTestOrder(t);
    const r = await t.req('POST', url(o.id), { token: admin, body: { capture: 'not_capture' } });
    assert.equal(r.status, 201, r.text);
    assert.equal(r.body.stateName, 'open');
    assert.equal(r.body.state, 1);
    const now = await getOrder(o.id);
    assert.equal(now.state, 'processing');
    assert.equal(now.prices.totalInvoiced, o.prices.grandTotal);
    assert.equal(now.prices.totalPaid, 0);
    assert.equal(now.prices.totalDue, o.prices.grandTotal);
  });

  test('a shop that captures at placement (payment_action authorize_capture) still gets a paid invoice with the order', async () => {
    const ctx = t.systemCtx();
    await setConfig(ctx.db, ctx.app.settings, 'payment/checkmo/payment_action', 'authorize_capture', 'default', 0);
    try {
      const o = await placeTestOrder(t);
      assert.equal(o.state, 'processing');
      assert.equal(o.prices.totalPaid, o.prices.grandTotal);
      const invs = await listInvoices(o.id);
      assert.equal(invs.length, 1);
      assert.equal(invs[0].stateName, 'paid');
    } finally {
      await deleteConfig(ctx.db, ctx.app.settings, 'payment/checkmo/payment_action', 'default', 0);
    }
    assert.equal((await placeTestOrder(t)).state, 'new');
  });
});

describe('comments and the invoice mail', () => {
  test('notifyCustomer mails the invoice and marks it sent; the comment is kept on the invoice and in the history', async () => {
    const o = await placeTestOrder(t, { guestEmail: 'invoice-route@example.com' });
    const before = (await invoiceMails()).length;
    const r = await t.req('POST', url(o.id), { token: admin, body: { comment: '  Paid by cheque 1234  ', notifyCustomer: true } });
    assert.equal(r.status, 201, r.text);
    assert.equal(r.body.emailSent, true);
    assert.equal(r.body.comments.length, 1);
    assert.equal(r.body.comments[0].comment, 'Paid by cheque 1234');
    assert.equal(r.body.comments[0].isCustomerNotified, true);
    const mails = await invoiceMails();
    assert.equal(mails.length, before + 1);
    const mail = mails.at(-1)!;
    assert.equal(mail.toAddress, 'invoice-route@example.com');
    assert.match(mail.subject, new RegExp(`Invoice #${r.body.incrementId} for order #${o.incrementId}`));
    const now = await getOrder(o.id);
    assert.equal(now.statusHistory[0].note, 'Paid by cheque 1234');
    assert.equal(now.statusHistory[0].isCustomerNotified, true);

    // without notifyCustomer (or with false): no mail
    for (const body of [{}, { notifyCustomer: false, comment: 'quiet' }]) {
      const p = await placeTestOrder(t);
      const n = (await invoiceMails()).length;
      const q = await t.req('POST', url(p.id), { token: admin, body });
      assert.equal(q.status, 201, q.text);
      assert.equal(q.body.emailSent, false);
      assert.equal((await invoiceMails()).length, n);
    }
  });
});

describe('who may invoice', () => {
  test('anonymous 401, customer 403 (even their own order), API users need invoices/create, store-limited tokens their stores', async () => {
    const customer = await t.tokens.customer();
    const own = await placeTestOrder(t, { customerToken: customer });
    const before = await snapshot(own.id);
    assertError(await t.req('POST', url(own.id), { body: {} }), 401);
    assertError(await t.req('POST', url(own.id), { token: customer, body: {} }), 403);
    for (const permissions of [['invoices/read'], ['orders/all'], ['invoices/delete']]) {
      assertError(await t.req('POST', url(own.id), { token: await t.tokens.apiUser(permissions), body: {} }), 403);
    }
    assert.deepEqual(await snapshot(own.id), before, 'the refusals changed nothing');

    const creator = await t.tokens.apiUser(['invoices/create']);
    const made = await t.req('POST', url(own.id), { token: creator, body: { items: [{ orderItemId: own.items[0].id, qty: 1 }] } });
    assert.equal(made.status, 201, made.text);
    const writer = await t.tokens.apiUser(['invoices/write']);
    assert.equal((await t.req('POST', url(own.id), { token: writer, body: {} })).status, 201, 'write covers create');

    const german = await placeTestOrder(t, { storeId: 2 });
    const store1 = await t.tokens.apiUser(['invoices/create'], { allowedStoreIds: [1] });
    assertError(await t.req('POST', url(german.id), { token: store1, body: {} }), 403);
    assert.deepEqual(await listInvoices(german.id), []);
    const store2 = await t.tokens.apiUser(['invoices/create'], { allowedStoreIds: [2] });
    const inGerman = await t.req('POST', url(german.id), { token: store2, body: {}, query: { store: 'german' } });
    assert.equal(inGerman.status, 201, inGerman.text);
    assert.equal(inGerman.body.currency, german.currency);
  });
});

describe('bad requests change nothing', () => {
  test('unknown items, quantities over what is left, wrong types, bad capture modes, malformed JSON', async () => {
    const o = await placeTestOrder(t, { items: twoItems() });
    const [a, b] = [o.items.find((i) => i.sku === skuA)!, o.items.find((i) => i.sku === skuB)!];
    const before = await snapshot(o.id);
    const cases: [unknown, number, RegExp?][] = [
      [{ items: [{ orderItemId: 99999999, qty: 1 }] }, 400, /not on this order/],
      [{ items: [{ orderItemId: a.id, qty: 4 }] }, 400, /only 3 of item .* left to invoice, 4 asked/],
      [
        {
          items: [
            { orderItemId: a.id, qty: 1 },
            { orderItemId: b.id, qty: 2 },
          ],
        },
        400,
        /only 1 of item/,
      ],
      [{ items: [{ orderItemId: a.id, qty: 0 }] }, 400, /must be above 0/],
      [{ items: [{ orderItemId: a.id, qty: -1 }] }, 400],
      [{ items: [{ orderItemId: a.id, qty: 1.5 }] }, 400, /whole units/],
      [
        {
          items: [
            { orderItemId: a.id, qty: 1 },
            { orderItemId: a.id, qty: 1 },
          ],
        },
        400,
        /more than once/,
      ],
      [{ items: [{ orderItemId: a.id }] }, 400],
      [{ items: [{ orderItemId: 'x', qty: 1 }] }, 400],
      [{ items: [{ orderItemId: a.id, qty: 'two' }] }, 400],
      [{ items: 'all' }, 400],
      [{ items: [5] }, 400],
      [{ capture: 'later' }, 400],
      [{ capture: 'online' }, 400, /does not support online capture/],
      [{ capture: 5 }, 400],
      [{ notifyCustomer: 'often' }, 400],
      [{ comment: { text: 'x' } }, 400],
      [[], 400],
    ];
    for (const [body, status, message] of cases) {
      assertError(await t.req('POST', url(o.id), { token: admin, body }), status, message);
    }
    const raw = await t.req('POST', url(o.id), { token: admin, raw: '{"items": [', headers: { 'content-type': 'application/json' } });
    assertError(raw, 400);
    assertError(await t.req('POST', url(99999999), { token: admin, body: {} }), 404);
    for (const id of ['abc', '0', '-1', '2147483648']) assertError(await t.req('POST', url(id), { token: admin, body: {} }), 400);
    assert.deepEqual(await snapshot(o.id), before);
  });

  test('an order on hold or canceled cannot be invoiced', async () => {
    const held = await placeTestOrder(t);
    assert.equal((await t.req('POST', `${API}/orders/${held.id}/hold`, { token: admin, body: {} })).status, 201);
    const canceled = await placeTestOrder(t);
    assert.equal((await t.req('POST', `${API}/orders/${canceled.id}/cancel`, { token: admin, body: {} })).status, 201);
    for (const [o, state] of [
      [held, 'holded'],
      [canceled, 'canceled'],
    ] as const) {
      const before = await snapshot(o.id);
      assertError(await t.req('POST', url(o.id), { token: admin, body: {} }), 400, new RegExp(`cannot be invoiced: it is ${state}`));
      assert.deepEqual(await snapshot(o.id), before);
    }
  });
});

describe('concurrency', () => {
  test('two requests to invoice everything at once: one invoice, the other request refused', async () => {
    const o = await placeTestOrder(t, { items: twoItems() });
    const [r1, r2] = await Promise.all([
      t.req('POST', url(o.id), { token: admin, body: {} }),
      t.req('POST', url(o.id), { token: admin, body: {} }),
    ]);
    assert.deepEqual([r1.status, r2.status].sort(), [201, 400], `${r1.text} ${r2.text}`);
    assert.equal((await listInvoices(o.id)).length, 1);
    const now = await getOrder(o.id);
    assert.equal(now.prices.totalInvoiced, o.prices.grandTotal);
    assert.equal(now.prices.totalPaid, o.prices.grandTotal);
    assert.deepEqual(
      now.items.map((i: any) => i.qtyInvoiced),
      [3, 1],
    );
  });
});

describe('GraphQL', () => {
  test('createInvoice: the back office invoices; customers and anonymous callers cannot', async () => {
    const o = await placeTestOrder(t, { items: twoItems() });
    const a = o.items.find((i) => i.sku === skuA)!;
    const mutation = `mutation { createInvoice(input: {orderId: ${o.id}, items: [{orderItemId: ${a.id}, qty: 1}], capture: "not_capture", comment: "via GraphQL"}) { invoice { _id orderId stateName totalQty items comments } } }`;
    const anon = await t.gql(mutation);
    assert.ok(anon.errors?.length, 'anonymous is refused');
    const asCustomer = await t.gql(mutation, await t.tokens.customer());
    assert.ok(asCustomer.errors?.length, 'a customer is refused');
    assert.deepEqual(await listInvoices(o.id), []);

    const r = await t.gql(mutation, admin);
    assert.equal(r.errors, undefined, JSON.stringify(r.errors));
    const inv = r.data.createInvoice.invoice;
    assert.equal(inv.orderId, o.id);
    assert.equal(inv.stateName, 'open');
    assert.equal(inv.totalQty, 1);
    assert.equal(inv.comments[0].comment, 'via GraphQL');

    const bad = await t.gql(`mutation { createInvoice(input: {orderId: ${o.id}, capture: "online"}) { invoice { _id } } }`, admin);
    assert.ok(bad.errors?.length);
    assert.equal((await listInvoices(o.id)).length, 1);
  });
});
