/**
 * Comments kept for the back office (not visible on the storefront) are never answered to customers or to the
 * guest order lookup: the order's status history, its invoices' comments and its shipments' comments, over
 * REST and GraphQL. The back office (admin and API users) sees them all.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { API, buildTestApp, type TestApp } from '../../../test/helpers.js';
import { withTx } from '../../platform/context.js';
import { placeTestOrder } from '../../../test/fixtures/checkout.js';
import { createInvoice } from '../invoices/service.js';
import { invoiceComments } from '../invoices/tables.js';
import { lockOrder } from './core.js';

let t: TestApp;
let admin: string;
let reader: string;
let customer: string;

const INTERNAL = 'Internal: fraud check passed, margin is thin';
const VISIBLE = 'Your parcel is being packed';
const INVOICE_INTERNAL = 'Internal: paid by bank transfer ref 42';
const INVOICE_VISIBLE = 'Thank you for your payment';
const SHIPMENT_INTERNAL = 'Internal: shipped from the back store';
const SHIPMENT_VISIBLE = 'Left with the neighbour';

before(async () => {
  t = await buildTestApp();
  admin = await t.tokens.admin();
  reader = await t.tokens.apiUser(['orders/read', 'invoices/read']);
  customer = await t.tokens.customer();
});
after(() => t.close());

type Note = { note?: string; isVisibleOnFront: boolean };
type Comment = { comment: string; isVisibleOnFront: boolean };
type Order = { id: number; incrementId: string; accessToken?: string; statusHistory: Note[]; shipments: { comments: Comment[] }[] };

/** A cash-on-delivery order with an internal and a visible history comment, one shipment with an internal and a visible comment, and one invoice with an internal and a visible comment. */
async function orderWithComments(opts: { customerToken?: string } = {}): Promise<Order> {
  const o = await placeTestOrder(t, { paymentMethod: 'cashondelivery', ...opts });
  for (const [comment, visibleOnFront] of [
    [INTERNAL, false],
    [VISIBLE, true],
  ] as const) {
    const r = await t.req('POST', `${API}/orders/${o.id}/comments`, { token: admin, body: { comment, visibleOnFront } });
    assert.equal(r.status, 201, r.text);
  }
  // billed before shipping, so that the shipment does not invoice it on its own
  const { invoiceId } = await withTx(t.systemCtx(), async (tx) => {
    const locked = await lockOrder(tx, o.id);
    assert.ok(locked);
    return createInvoice(tx, locked, { capture: 'offline', comment: INVOICE_INTERNAL, notifyCustomer: false });
  });
  const s = await t.req('POST', `${API}/orders/${o.id}/shipments`, {
    token: admin,
    body: { comment: SHIPMENT_INTERNAL, visibleOnFront: false },
  });
  assert.equal(s.status, 201, s.text);
  const c = await t.req('POST', `${API}/shipments/${s.body.id}/comments`, {
    token: admin,
    body: { comment: SHIPMENT_VISIBLE, visibleOnFront: true },
  });
  assert.ok(c.status === 200 || c.status === 201, c.text);
  // a comment shown on the storefront, as the importer brings them over from Maho
  await t.database.db
    .insert(invoiceComments)
    .values({ invoiceId, comment: INVOICE_VISIBLE, isVisibleOnFront: true, createdAt: new Date() });
  return o as unknown as Order;
}

const notes = (o: Order) => o.statusHistory.map((h) => h.note).filter(Boolean);
const shipmentNotes = (o: Order) => o.shipments.flatMap((s) => s.comments.map((c) => c.comment));
const invoiceNotes = (list: { comments: Comment[] }[]) => list.flatMap((i) => i.comments.map((c) => c.comment));

function assertCustomerView(o: Order) {
  assert.ok(notes(o).includes(VISIBLE), JSON.stringify(o.statusHistory));
  assert.ok(!notes(o).includes(INTERNAL), 'the internal comment is not shown');
  assert.ok(
    o.statusHistory.every((h) => h.isVisibleOnFront),
    'only entries visible on the storefront',
  );
  assert.deepEqual(shipmentNotes(o), [SHIPMENT_VISIBLE]);
}

function assertBackOfficeView(o: Order) {
  assert.ok(notes(o).includes(VISIBLE));
  assert.ok(notes(o).includes(INTERNAL));
  assert.deepEqual(shipmentNotes(o).sort(), [SHIPMENT_INTERNAL, SHIPMENT_VISIBLE].sort());
}

describe('a customer reading their order', () => {
  let o: Order;
  before(async () => {
    o = await orderWithComments({ customerToken: customer });
  });

  test('REST: the order shows only the visible history and shipment comments; the invoices only the visible comment', async () => {
    const r = await t.req('GET', `${API}/orders/${o.id}`, { token: customer });
    assert.equal(r.status, 200, r.text);
    assertCustomerView(r.body);
    for (const path of [`${API}/orders/${o.id}/invoices`, `${API}/customers/me/orders/${o.id}/invoices`]) {
      const inv = await t.req('GET', path, { token: customer, headers: { accept: 'application/json' } });
      assert.equal(inv.status, 200, inv.text);
      assert.deepEqual(invoiceNotes(inv.body), [INVOICE_VISIBLE], path);
      assert.ok(inv.body.every((i: { comments: Comment[] }) => i.comments.every((c) => c.isVisibleOnFront)));
    }
  });

  test('GraphQL: order, orderInvoices and myOrderInvoices show only the visible comments', async () => {
    const r = await t.gql(`{ order(id: "/api/rest/v2/orders/${o.id}") { statusHistory shipments } }`, customer);
    assert.equal(r.errors, undefined, JSON.stringify(r.errors));
    assertCustomerView(r.data.order);
    for (const field of ['orderInvoices', 'myOrderInvoices']) {
      const inv = await t.gql(`{ ${field}(orderId: ${o.id}) { edges { node { comments } } } }`, customer);
      assert.equal(inv.errors, undefined, JSON.stringify(inv.errors));
      assert.deepEqual(invoiceNotes(inv.data[field].edges.map((e: { node: { comments: Comment[] } }) => e.node)), [INVOICE_VISIBLE], field);
    }
  });

  test('a comment the customer cannot see is not in the answer to their own cancel either', async () => {
    const open = await placeTestOrder(t, { customerToken: customer, paymentMethod: 'cashondelivery' });
    const c = await t.req('POST', `${API}/orders/${open.id}/comments`, { token: admin, body: { comment: INTERNAL } });
    assert.equal(c.status, 201, c.text);
    const r = await t.req('POST', `${API}/orders/${open.id}/cancel`, { token: customer, body: {} });
    assert.equal(r.status, 201, r.text);
    assert.ok(!notes(r.body).includes(INTERNAL));
    assert.ok(r.body.statusHistory.every((h: Note) => h.isVisibleOnFront));
  });

  test('the back office (admin, API user) sees every comment, over REST and GraphQL', async () => {
    for (const token of [admin, reader]) {
      const r = await t.req('GET', `${API}/orders/${o.id}`, { token });
      assert.equal(r.status, 200, r.text);
      assertBackOfficeView(r.body);
      const inv = await t.req('GET', `${API}/orders/${o.id}/invoices`, { token, headers: { accept: 'application/json' } });
      assert.equal(inv.status, 200, inv.text);
      assert.deepEqual(invoiceNotes(inv.body).sort(), [INVOICE_INTERNAL, INVOICE_VISIBLE].sort());
      const g = await t.gql(`{ order(id: ${o.id}) { statusHistory shipments } }`, token);
      assert.equal(g.errors, undefined, JSON.stringify(g.errors));
      assertBackOfficeView(g.data.order);
      const gi = await t.gql(`{ orderInvoices(orderId: ${o.id}) { edges { node { comments } } } }`, token);
      assert.equal(gi.errors, undefined, JSON.stringify(gi.errors));
      assert.deepEqual(
        invoiceNotes(gi.data.orderInvoices.edges.map((e: { node: { comments: Comment[] } }) => e.node)).sort(),
        [INVOICE_INTERNAL, INVOICE_VISIBLE].sort(),
      );
    }
  });
});

describe('the guest order lookup', () => {
  test('REST: the holder of the order token sees only the visible comments', async () => {
    const o = await orderWithComments();
    const r = await t.req('GET', `${API}/orders/${o.incrementId}/details`, { headers: { 'x-order-token': o.accessToken! } });
    assert.equal(r.status, 200, r.text);
    assertCustomerView(r.body);
  });

  test('GraphQL guestOrder: only the visible comments', async () => {
    const o = await orderWithComments();
    const r = await t.gql(
      'query ($n: String!, $t: String!) { guestOrder(incrementId: $n, accessToken: $t) { statusHistory shipments } }',
      undefined,
      {
        n: o.incrementId,
        t: o.accessToken,
      },
    );
    assert.equal(r.errors, undefined, JSON.stringify(r.errors));
    assertCustomerView(r.data.guestOrder);
  });
});
