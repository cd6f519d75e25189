/** Creating shipments: what ships, how the order moves, what is refused (and that a refusal changes nothing). */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { and, eq, like, sql } from 'drizzle-orm';
import { API, buildTestApp, type Res, type TestApp } from '../../../test/helpers.js';
import { withTx } from '../../platform/context.js';
import { mailOutbox } from '../../platform/tables.js';
import { createTestProduct } from '../../../test/fixtures/catalog.js';
import { invoiceOrder, placeInvoicedOrder, placeTestOrder } from '../../../test/fixtures/checkout.js';
import { invoices } from '../invoices/tables.js';
import { findOrder, lockOrder, setOrderState } from '../orders/core.js';
import { orderStatusHistory } from '../orders/tables.js';
import { shipmentsForOrder } from './service.js';
import { shipmentComments, shipmentItems, shipmentTracks, shipments } from './tables.js';

let t: TestApp;
let admin: string;

before(async () => {
  t = await buildTestApp();
  admin = await t.tokens.admin();
});
after(() => t.close());

const ship = (orderId: number, body: unknown, token = admin) => t.req('POST', `${API}/orders/${orderId}/shipments`, { token, body });

function ok(r: Res, status = 201) {
  assert.equal(r.status, status, r.text);
  return r.body;
}

function refusedWith(r: Res, status: number, reason?: RegExp) {
  assert.equal(r.status, status, r.text);
  assert.equal(r.body.code, status);
  assert.equal(typeof r.body.message, 'string');
  if (reason) assert.match(r.body.message, reason);
}

async function order(id: number) {
  const found = await findOrder(t.systemCtx(), id);
  assert.ok(found);
  return found;
}

/** Everything a refused request must leave as it was. */
async function snapshot(orderId: number) {
  const db = t.database.db;
  const o = await order(orderId);
  const [s] = await db
    .select({ n: sql<number>`count(*)::int` })
    .from(shipments)
    .where(eq(shipments.orderId, orderId));
  const [h] = await db
    .select({ n: sql<number>`count(*)::int` })
    .from(orderStatusHistory)
    .where(eq(orderStatusHistory.orderId, orderId));
  const [m] = await db
    .select({ n: sql<number>`count(*)::int` })
    .from(mailOutbox)
    .where(like(mailOutbox.subject, `%${o.order.incrementId}%`));
  const [tr] = await db
    .select({ n: sql<number>`count(*)::int` })
    .from(shipmentTracks)
    .where(eq(shipmentTracks.orderId, orderId));
  return {
    state: o.order.state,
    status: o.order.status,
    shipped: o.items.map((i) => i.qtyShipped),
    invoiced: o.items.map((i) => i.qtyInvoiced),
    shipments: s.n,
    history: h.n,
    mails: m.n,
    tracks: tr.n,
  };
}

async function putInState(orderId: number, state: string, status = state) {
  await withTx(t.systemCtx(), async (tx) => {
    const locked = await lockOrder(tx, orderId);
    assert.ok(locked);
    await setOrderState(tx, locked.order, { state, status, holdBeforeState: locked.order.state, holdBeforeStatus: locked.order.status });
  });
}

async function newSku(body: Record<string, unknown> = {}) {
  return (await createTestProduct(t, { price: 10, stockData: { qty: 100, isInStock: true }, ...body })).sku as string;
}

describe('POST /orders/{orderId}/shipments', () => {
  test('shipping everything of an invoiced order completes it', async () => {
    const placed = await placeInvoicedOrder(t);
    assert.equal(placed.state, 'processing', 'invoiced');
    const s = ok(await ship(placed.id, {}));
    assert.ok(Number.isInteger(s.id));
    assert.equal(s.orderId, placed.id);
    assert.equal(s.orderIncrementId, placed.incrementId);
    assert.match(s.incrementId, /^1\d{8}$/);
    assert.equal(s.storeId, placed.storeId);
    assert.equal(s.totalQty, 2);
    assert.equal(s.emailSent, false);
    assert.deepEqual(s.packages, []);
    assert.deepEqual(s.tracks, []);
    assert.deepEqual(s.comments, []);
    assert.match(s.createdAt, /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/);
    assert.match(s.updatedAt, /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/);
    assert.equal(s.items.length, 1);
    const item = s.items[0];
    assert.equal(item.orderItemId, placed.items[0].id);
    assert.equal(item.productId, placed.items[0].productId);
    assert.equal(item.sku, placed.items[0].sku);
    assert.equal(item.name, placed.items[0].name);
    assert.equal(item.qty, 2);
    assert.equal(item.price, 10);
    assert.equal(item.rowTotal, 20);
    assert.equal('shipmentStatus' in s, false, 'nulls are omitted');

    const o = await order(placed.id);
    assert.equal(o.order.state, 'complete');
    assert.equal(o.order.status, 'complete');
    assert.equal(Number(o.items[0].qtyShipped), 2);
    const history = await t.database.db.select().from(orderStatusHistory).where(eq(orderStatusHistory.orderId, placed.id));
    const entry = history.find((h) => h.entityName === 'shipment');
    assert.ok(entry, 'a status-history entry about the shipment');
    assert.equal(entry.status, 'complete');
    assert.match(entry.comment ?? '', new RegExp(s.incrementId));

    // the order read embeds the same shipments, and so does the list
    const embedded = await shipmentsForOrder(t.systemCtx(), placed);
    assert.deepEqual(embedded, [s]);
    const read = await t.req('GET', `${API}/orders/${placed.id}`, { token: admin });
    assert.equal(read.status, 200, read.text);
    assert.deepEqual(read.body.shipments, [s]);
    const list = await t.req('GET', `${API}/orders/${placed.id}/shipments`, { token: admin });
    assert.equal(list.status, 200, list.text);
    assert.equal(list.body['@type'], 'Collection');
    assert.equal(list.body.totalItems, 1);
    assert.deepEqual(list.body.member, [s]);
    const plain = await t.req('GET', `${API}/orders/${placed.id}/shipments`, { token: admin, headers: { accept: 'application/json' } });
    assert.deepEqual(plain.body, [s]);
    const one = await t.req('GET', `${API}/shipments/${s.id}`, { token: admin });
    assert.equal(one.status, 200, one.text);
    assert.deepEqual(one.body, s);
  });

  test('partial shipments accumulate, and a last one without items ships the rest', async () => {
    const [a, b] = [await newSku({ weight: 1.5 }), await newSku({ price: 7.35 })];
    const placed = await placeInvoicedOrder(t, {
      items: [
        { sku: a, qty: 3 },
        { sku: b, qty: 2 },
      ],
    });
    const [ia, ib] = [placed.items.find((i) => i.sku === a)!, placed.items.find((i) => i.sku === b)!];

    const first = ok(await ship(placed.id, { items: [{ orderItemId: ia.id, qty: 1 }] }));
    assert.equal(first.totalQty, 1);
    assert.equal(first.totalWeight, 1.5);
    assert.equal(first.items[0].weight, 1.5);
    assert.equal((await order(placed.id)).order.state, 'processing');

    const second = ok(
      await ship(placed.id, {
        items: [
          { orderItemId: ia.id, qty: 1 },
          { orderItemId: ib.id, qty: 2 },
        ],
      }),
    );
    assert.equal(second.totalQty, 3);
    assert.deepEqual(
      second.items.map((i: { orderItemId: number; qty: number; price: number; rowTotal: number }) => [
        i.orderItemId,
        i.qty,
        i.price,
        i.rowTotal,
      ]),
      [
        [ia.id, 1, 10, 10],
        [ib.id, 2, 7.35, 14.7],
      ],
    );
    let o = await order(placed.id);
    assert.equal(o.order.state, 'processing');
    assert.deepEqual(
      o.items.map((i) => [i.id, Number(i.qtyShipped)]),
      [
        [ia.id, 2],
        [ib.id, 2],
      ],
    );

    const last = ok(await ship(placed.id, {}));
    assert.deepEqual(
      last.items.map((i: { orderItemId: number; qty: number }) => [i.orderItemId, i.qty]),
      [[ia.id, 1]],
    );
    o = await order(placed.id);
    assert.equal(o.order.state, 'complete');
    assert.deepEqual(
      o.items.map((i) => Number(i.qtyShipped)),
      [3, 2],
    );
    assert.notEqual(first.incrementId, second.incrementId);

    const list = await t.req('GET', `${API}/orders/${placed.id}/shipments`, { token: admin });
    assert.deepEqual(
      list.body.member.map((x: { id: number }) => x.id),
      [first.id, second.id, last.id],
      'oldest first',
    );
  });

  test('shipping an order already fully shipped is 400 and changes nothing', async () => {
    const placed = await placeTestOrder(t);
    ok(await ship(placed.id, {}));
    const before = await snapshot(placed.id);
    refusedWith(await ship(placed.id, {}), 400, /cannot be shipped/);
    refusedWith(await ship(placed.id, { items: [{ orderItemId: placed.items[0].id, qty: 1 }] }), 400);
    const r = await ship(placed.id, {});
    assert.equal(r.body.error, 'bad_request');
    assert.deepEqual(await snapshot(placed.id), before);
  });

  test('bad lines and bad bodies are 400 and change nothing (not even the shipment numbering)', async () => {
    const placed = await placeTestOrder(t);
    const other = await placeTestOrder(t);
    const id = placed.items[0].id;
    const before = await snapshot(placed.id);
    const bodies: [string, unknown][] = [
      ['more than ordered', { items: [{ orderItemId: id, qty: 3 }] }],
      ['orderItemId 0', { items: [{ orderItemId: 0, qty: 1 }] }],
      ['negative orderItemId', { items: [{ orderItemId: -5, qty: 1 }] }],
      ['orderItemId beyond int4', { items: [{ orderItemId: 2147483648, qty: 1 }] }],
      ['unknown order item', { items: [{ orderItemId: 99999999, qty: 1 }] }],
      ["another order's item", { items: [{ orderItemId: other.items[0].id, qty: 1 }] }],
      ['qty 0', { items: [{ orderItemId: id, qty: 0 }] }],
      ['negative qty', { items: [{ orderItemId: id, qty: -1 }] }],
      ['fraction of a whole-unit item', { items: [{ orderItemId: id, qty: 1.5 }] }],
      ['too many decimals', { items: [{ orderItemId: id, qty: 1.00001 }] }],
      [
        'the same item twice',
        {
          items: [
            { orderItemId: id, qty: 1 },
            { orderItemId: id, qty: 1 },
          ],
        },
      ],
      ['qty as a string', { items: [{ orderItemId: id, qty: '1' }] }],
      ['orderItemId as a string', { items: [{ orderItemId: String(id), qty: 1 }] }],
      ['fractional orderItemId', { items: [{ orderItemId: id + 0.5, qty: 1 }] }],
      ['line without qty', { items: [{ orderItemId: id }] }],
      ['items not an array', { items: { orderItemId: id, qty: 1 } }],
      ['track without trackNumber', { tracks: [{ carrierCode: 'ups' }] }],
      ['blank trackNumber', { tracks: [{ trackNumber: '   ' }] }],
      ['notifyCustomer not a boolean', { notifyCustomer: 'yes' }],
      ['comment not a string', { comment: 5 }],
      ['body an array', []],
    ];
    for (const [what, body] of bodies) {
      const r = await ship(placed.id, body);
      assert.equal(r.status, 400, `${what}: ${r.text}`);
      assert.equal(r.body.error, 'bad_request', what);
    }
    for (const raw of ['{"items": [', '', 'null']) {
      const r = await t.req('POST', `${API}/orders/${placed.id}/shipments`, {
        token: admin,
        raw,
        headers: { 'content-type': 'application/json' },
      });
      assert.equal(r.status, 400, `raw ${JSON.stringify(raw)}: ${r.text}`);
    }
    assert.deepEqual(await snapshot(placed.id), before);
    // a good request still takes the next shipment number: the refused ones used none
    const [{ n: count }] = await t.database.db.select({ n: sql<number>`count(*)::int` }).from(shipments);
    const s = ok(await ship(placed.id, { items: [{ orderItemId: id, qty: 1 }] }));
    assert.equal(Number(s.incrementId.slice(1)), count + 1);
  });

  test('unknown body keys are ignored, as everywhere in this API (wire reference §1.1)', async () => {
    const placed = await placeTestOrder(t);
    const s = ok(
      await ship(placed.id, {
        foo: 1,
        items: [{ orderItemId: placed.items[0].id, qty: 1, bar: 2 }],
        tracks: [{ trackNumber: 'T1', baz: 3 }],
      }),
    );
    assert.equal(s.totalQty, 1);
    assert.equal(s.tracks.length, 1);
  });

  test('an unknown order is 404; a malformed order id is 400', async () => {
    refusedWith(await ship(99999999, {}), 404);
    for (const id of ['0', '-1', 'abc', '2147483648', '1.5']) assert.equal((await ship(id as unknown as number, {})).status, 400, id);
    assert.equal((await t.req('GET', `${API}/orders/99999999/shipments`, { token: admin })).status, 404);
  });

  for (const [state, status] of [
    ['holded', 'holded'],
    ['canceled', 'canceled'],
    ['payment_review', 'payment_review'],
    ['closed', 'closed'],
    ['complete', 'complete'],
  ] as const) {
    test(`an order in state ${state} is not shipped (400, nothing changes)`, async () => {
      const placed = await placeTestOrder(t);
      await putInState(placed.id, state, status);
      const before = await snapshot(placed.id);
      const r = await ship(placed.id, { tracks: [{ trackNumber: 'X' }], comment: 'c', notifyCustomer: true });
      refusedWith(r, 400, new RegExp(state));
      assert.deepEqual(await snapshot(placed.id), before);
    });
  }

  test('virtual lines are never shipped; a virtual order is not shippable', async () => {
    const virtualSku = await newSku({ type: 'virtual' });
    const mixed = await placeInvoicedOrder(t, {
      items: [
        { sku: await newSku(), qty: 1 },
        { sku: virtualSku, qty: 1 },
      ],
    });
    const vItem = mixed.items.find((i) => i.sku === virtualSku)!;
    refusedWith(await ship(mixed.id, { items: [{ orderItemId: vItem.id, qty: 1 }] }), 400, /virtual/);
    const s = ok(await ship(mixed.id, {}));
    assert.deepEqual(
      s.items.map((i: { sku: string }) => i.sku),
      [mixed.items.find((i) => i.sku !== virtualSku)!.sku],
    );
    const o = await order(mixed.id);
    assert.equal(o.order.state, 'complete', 'everything invoiced, and the only shippable line shipped');
    assert.equal(Number(o.items.find((i) => i.id === vItem.id)!.qtyShipped), 0);

    // a virtual order not invoiced yet is new, and has nothing to ship
    const virtualOnly = await placeTestOrder(t, { items: [{ sku: virtualSku, qty: 1 }], paymentMethod: 'cashondelivery' });
    assert.equal(virtualOnly.isVirtual, true);
    assert.equal(virtualOnly.state, 'new');
    const before = await snapshot(virtualOnly.id);
    refusedWith(await ship(virtualOnly.id, {}), 400, /virtual/);
    assert.deepEqual(await snapshot(virtualOnly.id), before);
  });

  test('tracks and a comment come with the shipment; carrierCode defaults to custom and the title to the carrier', async () => {
    const placed = await placeTestOrder(t);
    const s = ok(
      await ship(placed.id, {
        tracks: [
          { trackNumber: 'TN-1' },
          { carrierCode: 'ups', trackNumber: 'TN-2' },
          { carrierCode: 'dhl', title: 'DHL Express', trackNumber: ' TN-3 ' },
        ],
        comment: 'Left at the door',
        visibleOnFront: true,
      }),
    );
    assert.deepEqual(
      s.tracks.map((x: { carrier: string; title: string; trackNumber: string }) => [x.carrier, x.title, x.trackNumber]),
      [
        ['custom', 'custom', 'TN-1'],
        ['ups', 'ups', 'TN-2'],
        ['dhl', 'DHL Express', 'TN-3'],
      ],
    );
    assert.equal('carrierCode' in s.tracks[0], false, 'the read key is carrier');
    assert.equal(s.comments.length, 1);
    assert.equal(s.comments[0].comment, 'Left at the door');
    assert.equal(s.comments[0].isVisibleOnFront, true);
    assert.equal(s.comments[0].isCustomerNotified, false);
    const rows = await t.database.db.select().from(shipmentTracks).where(eq(shipmentTracks.shipmentId, s.id));
    assert.ok(rows.every((r) => r.orderId === placed.id));
  });

  test('the shipment mail goes out only with notifyCustomer, with the items and tracking numbers', async () => {
    const quiet = await placeTestOrder(t, { guestEmail: 'quiet@example.com' });
    const q = ok(await ship(quiet.id, { tracks: [{ trackNumber: 'Q-1' }] }));
    assert.equal(q.emailSent, false);
    const quietMails = await t.database.db
      .select()
      .from(mailOutbox)
      .where(and(eq(mailOutbox.toAddress, 'quiet@example.com'), eq(mailOutbox.template, 'sales/shipment')));
    assert.equal(quietMails.length, 0);

    const loud = await placeTestOrder(t, { guestEmail: 'loud@example.com' });
    const s = ok(
      await ship(loud.id, {
        tracks: [{ carrierCode: 'ups', title: 'UPS', trackNumber: '1Z999' }],
        comment: 'Fragile',
        notifyCustomer: true,
      }),
    );
    assert.equal(s.emailSent, true);
    assert.equal(s.comments[0].isCustomerNotified, true);
    const mails = await t.database.db
      .select()
      .from(mailOutbox)
      .where(and(eq(mailOutbox.toAddress, 'loud@example.com'), eq(mailOutbox.template, 'sales/shipment')));
    assert.equal(mails.length, 1);
    assert.match(mails[0].subject, new RegExp(loud.incrementId));
    assert.match(mails[0].textBody, new RegExp(`2 x .*\\(${loud.items[0].sku}\\)`));
    assert.match(mails[0].textBody, /1Z999/);
    assert.match(mails[0].textBody, /Fragile/);
  });

  test('a shipment never invoices (as Maho): shipped in full but not invoiced is processing; invoicing then completes it', async () => {
    for (const paymentMethod of ['cashondelivery', 'checkmo']) {
      const placed = await placeTestOrder(t, { paymentMethod, items: [{ sku: await newSku(), qty: 2 }] });
      assert.equal(placed.state, 'new');
      const invoicesOf = () => t.database.db.select().from(invoices).where(eq(invoices.orderId, placed.id));
      ok(await ship(placed.id, { items: [{ orderItemId: placed.items[0].id, qty: 1 }] }));
      assert.equal((await order(placed.id)).order.state, 'processing');
      ok(await ship(placed.id, {}));
      assert.equal((await invoicesOf()).length, 0, paymentMethod);
      let o = await order(placed.id);
      assert.equal(o.order.state, 'processing', 'shipped, not invoiced');
      assert.equal(o.order.totalPaid, '0.0000');
      assert.equal(Number(o.items[0].qtyInvoiced), 0);

      await invoiceOrder(t, placed.id);
      const list = await invoicesOf();
      assert.equal(list.length, 1);
      assert.equal(list[0].state, 2, 'paid');
      o = await order(placed.id);
      assert.equal(o.order.state, 'complete');
      assert.equal(Number(o.order.totalPaid), Number(placed.prices.grandTotal));
    }
  });

  test('concurrent full shipments of one order: exactly one succeeds', async () => {
    const placed = await placeTestOrder(t);
    const results = await Promise.all([ship(placed.id, {}), ship(placed.id, {}), ship(placed.id, {})]);
    assert.deepEqual(results.map((r) => r.status).sort(), [201, 400, 400], results.map((r) => r.text).join('\n'));
    const o = await order(placed.id);
    assert.equal(Number(o.items[0].qtyShipped), 2);
    const rows = await t.database.db
      .select()
      .from(shipmentItems)
      .innerJoin(shipments, eq(shipments.id, shipmentItems.shipmentId))
      .where(eq(shipments.orderId, placed.id));
    assert.equal(rows.length, 1);
  });

  test('comments and tracks of a refused shipment are not written', async () => {
    const [{ n: comments }] = await t.database.db.select({ n: sql<number>`count(*)::int` }).from(shipmentComments);
    const placed = await placeTestOrder(t);
    refusedWith(
      await ship(placed.id, { items: [{ orderItemId: placed.items[0].id, qty: 5 }], tracks: [{ trackNumber: 'N' }], comment: 'never' }),
      400,
    );
    const [{ n: after }] = await t.database.db.select({ n: sql<number>`count(*)::int` }).from(shipmentComments);
    assert.equal(after, comments);
  });
});
