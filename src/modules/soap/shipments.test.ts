/**
 * `sales_order_shipment` and `sales_order_creditmemo` of the Magento 1 API: a warehouse's round trip with Python's
 * xmlrpc.client (ship an invoiced order with a tracking number, list, add and remove a track, carriers; refund an
 * item and read the credit memo), and every method and fault over JSON-RPC: arguments by position and by name,
 * malformed arguments, the role's permissions, store-limited API users, and lists in a fixed number of statements.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { API, type TestApp } from '../../../test/helpers.js';
import { invoiceOrder, placeTestOrder } from '../../../test/fixtures/checkout.js';
import { createTestProduct } from '../../../test/fixtures/catalog.js';
import { LegacyClient, runScenario, skipWithout, type Step } from '../../../test/fixtures/legacy-api.js';
import { newApiUser, startSoapApp } from '../../../test/fixtures/soap.js';
import { and, eq, like } from 'drizzle-orm';
import { mailOutbox } from '../../platform/tables.js';

let t: TestApp;
let base: string;
let admin: string;
const api = new LegacyClient(() => base);
const { rpc, sessionOf, ok, fault, faultCodes } = api;

/** An order of `qty` of one new product (price 10), invoiced in full unless told otherwise. */
async function order(qty = 3, invoiced = true) {
  const sku = (await createTestProduct(t, { price: 10, stockData: { qty: 100, isInStock: true } })).sku as string;
  const placed = await placeTestOrder(t, { items: [{ sku, qty }] });
  if (invoiced) await invoiceOrder(t, placed.id);
  return { id: placed.id, number: placed.incrementId, item: placed.items[0].id as number };
}

/** the texts of the queued mails of a template that mention `text` */
async function mails(template: string, text: string): Promise<string[]> {
  const rows = await t.database.db
    .select({ text: mailOutbox.textBody })
    .from(mailOutbox)
    .where(and(eq(mailOutbox.template, template), like(mailOutbox.textBody, `%${text}%`)));
  return rows.map((r) => r.text);
}

const shipmentsOf = async (orderId: number) =>
  (await t.req('GET', `${API}/orders/${orderId}/shipments`, { token: admin })).body.member as any[];

before(async () => {
  ({ t, base } = await startSoapApp());
  admin = await t.tokens.admin();
  api.session = await sessionOf();
});
after(() => t?.close());

describe('a warehouse with Python xmlrpc.client', { skip: skipWithout('python') }, () => {
  let r: Record<string, Step>;
  let o: Awaited<ReturnType<typeof order>>;

  before(async () => {
    o = await order(3);
    r = await runScenario('python', 'shipment_scenario.py', base, { RPC_ORDER: o.number, RPC_ITEM: String(o.item) });
  });

  test('ships two of three with a tracking number and a comment; the shipment is the one REST reads', async () => {
    assert.deepEqual(r.carriers.ok.custom, 'Custom Value');
    assert.equal(r.carriers.ok.ups, 'United Parcel Service');
    const number = r.create.ok;
    assert.equal(typeof number, 'string');
    const [rest] = await shipmentsOf(o.id);
    assert.equal(rest.incrementId, number);
    assert.equal(rest.totalQty, 2);
    assert.equal(rest.comments[0].comment, 'Packed by the warehouse');
    assert.equal(rest.emailSent, true);
    assert.deepEqual(
      r.list.ok.map((s: any) => [s.increment_id, s.order_increment_id, s.total_qty]),
      [[number, o.number, '2']],
      'values as strings, as XML-RPC sent what Magento read',
    );
  });

  test('adds a track, reads it, removes it; the info shows each step', () => {
    const track = r.addTrack.ok;
    assert.match(String(track), /^\d+$/);
    const tracks = r.infoWithTrack.ok.tracks;
    assert.deepEqual(
      tracks.map((x: any) => [x.track_id, x.carrier_code, x.title, x.track_number, x.number]),
      [[String(track), 'ups', 'UPS Ground', '1Z999', '1Z999']],
    );
    assert.equal(r.infoWithTrack.ok.items[0].qty, '2');
    assert.equal(r.infoWithTrack.ok.items[0].order_item_id, String(o.item));
    assert.equal(r.badCarrier.fault?.[0], 102);
    assert.equal(r.removeTrack.ok, true);
    assert.deepEqual(r.infoWithoutTrack.ok.tracks, []);
    assert.deepEqual(r.removeAgain.fault, [104, 'Requested tracking not exists.']);
    assert.deepEqual(r.missing.fault, [100, 'Requested shipment not exists.']);
  });

  test('refunds one item and reads the credit memo; the REST API sees it', async () => {
    const number = r.refund.ok;
    assert.equal(typeof number, 'string');
    const memo = r.memo.ok;
    assert.equal(memo.increment_id, number);
    assert.equal(memo.order_increment_id, o.number);
    assert.equal(memo.state, '2');
    assert.deepEqual(
      memo.items.map((i: any) => [i.order_item_id, i.qty, i.price]),
      [[String(o.item), '1', '10']],
    );
    assert.equal(memo.comments[0].comment, 'Returned damaged');
    assert.deepEqual(
      r.memos.ok.map((m: any) => m.increment_id),
      [number],
    );
    const rest = await t.req('GET', `${API}/orders/${o.id}/credit-memos`, { token: admin });
    assert.equal(rest.body.member[0].incrementId, number);
    assert.equal(rest.body.member[0].items[0].qty, 1);
  });
});

describe('sales_order_shipment over JSON-RPC', () => {
  test('create: all that is left (no itemsQty), part of it (V1 map, V2 list, by name), faults for what cannot ship', async () => {
    const a = await order(3);
    const first = await ok('order_shipment.create', [a.number, { [a.item]: 1, 999999: 0 }, 'first box']);
    assert.equal(typeof first, 'string');
    const second = await ok('sales_order_shipment.create', {
      orderIncrementId: a.number,
      itemsQty: [{ order_item_id: a.item, qty: '1' }],
    });
    const rest = await shipmentsOf(a.id);
    assert.deepEqual(
      rest.map((s) => [s.incrementId, s.totalQty, s.emailSent]),
      [
        [first, 1, false],
        [second, 1, false],
      ],
    );
    assert.equal(rest[0].comments[0].comment, 'first box');
    const third = await ok('order_shipment.create', [a.number]);
    assert.equal((await shipmentsOf(a.id)).find((s) => s.incrementId === third).totalQty, 1);
    // nothing left to ship
    assert.deepEqual(await fault('order_shipment.create', [a.number]), [102, 'Cannot do shipment for order.']);

    const b = await order(2);
    assert.deepEqual(await fault('order_shipment.create', ['no-such-order']), [103, 'Requested order not exists.']);
    assert.equal((await fault('order_shipment.create', [{ x: 1 }]))[0], 103);
    assert.equal((await fault('order_shipment.create', []))[0], 103);
    for (const bad of [
      'x',
      5,
      [1, 2],
      { [b.item]: 'many' },
      { abc: 1 },
      { [b.item]: -1 },
      { [b.item]: 0 },
      { [b.item]: 3 },
      { 999999: 1 },
    ]) {
      const [code] = await fault('order_shipment.create', [b.number, bad]);
      assert.equal(code, 102, JSON.stringify(bad));
    }
    assert.equal((await fault('order_shipment.create', [b.number, {}, { no: 'text' }]))[0], 102);
    assert.deepEqual(await shipmentsOf(b.id), [], 'a refused create changes nothing');
  });

  test('create with email: the comment is mailed with includeComment, else kept on the shipment unmailed', async () => {
    const a = await order(2);
    const mailed = await ok('order_shipment.create', [a.number, { [a.item]: 1 }, 'in the mail', 1, 1]);
    const kept = await ok('order_shipment.create', [a.number, { [a.item]: 1 }, 'not in the mail', true, false]);
    const [m, k] = await shipmentsOf(a.id);
    assert.deepEqual([m.incrementId, m.emailSent, m.comments[0].isCustomerNotified], [mailed, true, true]);
    assert.deepEqual(
      [k.incrementId, k.emailSent, k.comments[0].comment, k.comments[0].isCustomerNotified],
      [kept, true, 'not in the mail', false],
    );
  });

  test('list: every field, filters in both forms, unknown fields and operators are fault 101', async () => {
    const a = await order(2);
    const s1 = await ok('order_shipment.create', [a.number, { [a.item]: 1 }]);
    const s2 = await ok('order_shipment.create', [a.number, { [a.item]: 1 }]);
    const all = await ok('order_shipment.list', [{ order_increment_id: a.number }]);
    assert.deepEqual(
      all.map((s: any) => s.increment_id),
      [s1, s2],
    );
    const one = all[0];
    assert.deepEqual(Object.keys(one), [
      'shipment_id',
      'increment_id',
      'store_id',
      'order_id',
      'order_increment_id',
      'total_qty',
      'total_weight',
      'email_sent',
      'shipment_status',
      'created_at',
      'updated_at',
    ]);
    // the untyped wires carry numbers as strings, as Magento sent the values it read
    assert.equal(one.order_id, String(a.id));
    assert.equal(one.store_id, '1');
    assert.match(one.created_at, /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/);
    const byId = await ok('order_shipment.list', [{ order_id: a.id, shipment_id: { gt: one.shipment_id } }]);
    assert.deepEqual(
      byId.map((s: any) => s.increment_id),
      [s2],
    );
    const v2 = await ok('order_shipment.list', [
      {
        filter: [{ key: 'order_id', value: String(a.id) }],
        complex_filter: [{ key: 'increment_id', value: { key: 'in', value: `${s1},nope` } }],
      },
    ]);
    assert.deepEqual(
      v2.map((s: any) => s.increment_id),
      [s1],
    );
    assert.deepEqual(await ok('order_shipment.list', [{ order_increment_id: 'none' }]), []);
    for (const bad of [{ nope: 1 }, { order_id: { regexp: '.' } }, { created_at: { from: 'soon' } }, 'x']) {
      assert.equal((await fault('order_shipment.list', [bad]))[0], 101, JSON.stringify(bad));
    }
  });

  test('list: the same number of statements for 1 and for 4 shipments', async () => {
    const a = await order(1);
    const b = await order(4);
    await ok('order_shipment.create', [a.number]);
    for (let n = 0; n < 4; n++) await ok('order_shipment.create', [b.number, { [b.item]: 1 }]);
    const count = async (filters: unknown, expected: number) => {
      await ok('order_shipment.list', [filters]);
      const { n, result: list } = await api.statementsOf(t, 'order_shipment.list', [filters]);
      assert.equal(list.length, expected);
      return n;
    };
    assert.equal(await count({ order_id: b.id }, 4), await count({ order_id: a.id }, 1));
  });

  test('info, addComment, addTrack, removeTrack, sendInfo and getCarriers, with their faults', async () => {
    const a = await order(2);
    const number = await ok('order_shipment.create', [a.number, {}, 'boxed']);
    const info = await ok('order_shipment.info', [number]);
    assert.equal(info.increment_id, number);
    assert.equal(info.order_increment_id, a.number);
    assert.deepEqual(
      info.items.map((i: any) => [i.order_item_id, i.qty, i.price, i.row_total]),
      [[String(a.item), '2', '10', '20']],
    );
    assert.deepEqual(info.tracks, []);
    assert.equal(info.comments[0].comment, 'boxed');
    for (const bad of ['nope', '', null, { a: 1 }, [number]]) {
      assert.deepEqual(await fault('order_shipment.info', [bad]), [100, 'Requested shipment not exists.'], JSON.stringify(bad));
    }

    assert.equal(await ok('order_shipment.addComment', [number, 'left the dock', 0]), true);
    assert.equal(await ok('order_shipment.addComment', { shipmentIncrementId: number, comment: 'told them', email: '1' }), true);
    const comments = (await ok('order_shipment.info', [number])).comments;
    assert.deepEqual(
      comments.map((c: any) => [c.comment, c.is_customer_notified]),
      [
        ['told them', '1'],
        ['left the dock', '0'],
        ['boxed', '0'],
      ],
    );
    assert.equal((await fault('order_shipment.addComment', [number, '  ']))[0], 102);
    assert.equal((await fault('order_shipment.addComment', [number, ['x']]))[0], 102);
    assert.equal((await fault('order_shipment.addComment', ['nope', 'x']))[0], 100);

    const carriers = await ok('order_shipment.getCarriers', [a.number]);
    assert.deepEqual(Object.keys(carriers), ['custom', 'ups', 'usps', 'fedex', 'dhl']);
    assert.deepEqual(await fault('order_shipment.getCarriers', ['nope']), [103, 'Requested order not exists.']);

    const custom = await ok('order_shipment.addTrack', [number, 'custom', 'Our van', 'VAN-7']);
    const ups = await ok('order_shipment.addTrack', { shipmentIncrementId: number, carrier: 'ups', title: 'UPS', trackNumber: '1Z1' });
    assert.ok(Number(ups) > Number(custom));
    const rest = (await shipmentsOf(a.id))[0];
    assert.deepEqual(
      rest.tracks.map((x: any) => [x.id, x.carrier, x.title, x.trackNumber]),
      [
        [Number(custom), 'custom', 'Our van', 'VAN-7'],
        [Number(ups), 'ups', 'UPS', '1Z1'],
      ],
    );
    assert.deepEqual(await fault('order_shipment.addTrack', [number, 'pigeon', 'P', '1']), [102, 'Invalid carrier specified.']);
    assert.equal((await fault('order_shipment.addTrack', [number, 'ups', 'UPS', '']))[0], 102);
    assert.equal((await fault('order_shipment.addTrack', [number, 'ups', 'UPS']))[0], 102);
    assert.equal((await fault('order_shipment.addTrack', [number, { x: 1 }, 'UPS', '1']))[0], 102);
    assert.equal((await fault('order_shipment.addTrack', ['nope', 'ups', 'UPS', '1']))[0], 100);

    assert.equal(await ok('order_shipment.removeTrack', [number, String(custom)]), true);
    assert.deepEqual(await fault('order_shipment.removeTrack', [number, custom]), [104, 'Requested tracking not exists.']);
    for (const bad of ['abc', -1, null, 99999999999]) {
      assert.equal((await fault('order_shipment.removeTrack', [number, bad]))[0], 104, JSON.stringify(bad));
    }
    // a track of another shipment is not this shipment's
    const other = await order(1);
    const otherNumber = await ok('order_shipment.create', [other.number]);
    assert.equal((await fault('order_shipment.removeTrack', [otherNumber, ups]))[0], 104);
    assert.equal((await fault('order_shipment.removeTrack', ['nope', ups]))[0], 100);
    assert.deepEqual(
      (await shipmentsOf(a.id))[0].tracks.map((x: any) => x.id),
      [Number(ups)],
    );

    assert.equal((await shipmentsOf(other.id))[0].emailSent, false);
    assert.equal(await ok('order_shipment.sendInfo', [otherNumber, 'on its way']), true);
    assert.equal((await shipmentsOf(other.id))[0].emailSent, true);
    assert.equal((await ok('order_shipment.info', [otherNumber])).email_sent, '1');
    assert.equal(await ok('order_shipment.sendInfo', [otherNumber]), true);
    const sent = await mails('sales/shipment', `(shipment ${otherNumber})`);
    assert.equal(sent.length, 2, 'each sendInfo mails the shipment');
    assert.ok(sent.some((m) => m.includes('on its way')));
    assert.equal((await fault('order_shipment.sendInfo', ['nope']))[0], 100);
    assert.equal((await fault('order_shipment.sendInfo', [otherNumber, { x: 1 }]))[0], 102);
  });
});

describe('sales_order_creditmemo over JSON-RPC', () => {
  test('create (V1 qtys map, V2 list, adjustments, shipping), info, addComment, cancel, and their faults', async () => {
    const a = await order(3);
    const first = await ok('order_creditmemo.create', [a.number, { qtys: { [a.item]: 1 } }, 'first return']);
    const memo = await ok('order_creditmemo.info', [first]);
    assert.equal(memo.increment_id, first);
    assert.equal(memo.order_increment_id, a.number);
    assert.equal(memo.order_id, String(a.id));
    assert.equal(memo.state, '2');
    assert.equal(memo.email_sent, '0', 'no mail unless notifyCustomer');
    // the first memo takes all the shipping (3 × 5.00), as Magento's default
    assert.deepEqual([memo.subtotal, memo.shipping_amount, memo.grand_total], ['10.0000', '15.0000', '25.0000']);
    assert.deepEqual(
      memo.items.map((i: any) => [i.order_item_id, i.qty, i.row_total]),
      [[String(a.item), '1', '10']],
    );
    assert.equal(memo.comments[0].comment, 'first return');

    const second = await ok('sales_order_creditmemo.create', {
      orderIncrementId: a.number,
      creditmemoData: { qtys: [{ order_item_id: a.item, qty: 1 }], adjustment_negative: '2', adjustment_positive: 0.5 },
    });
    const m2 = await ok('order_creditmemo.info', [second]);
    assert.deepEqual([m2.subtotal, m2.shipping_amount, m2.adjustment, m2.grand_total], ['10.0000', '0.0000', '-1.5000', '8.5000']);

    assert.equal(await ok('order_creditmemo.addComment', [second, 'checked', 1, 1]), true);
    assert.equal(await ok('order_creditmemo.addComment', { creditmemoIncrementId: second, comment: 'stocked' }), true);
    assert.deepEqual(
      (await ok('order_creditmemo.info', [second])).comments.map((c: any) => [c.comment, c.is_customer_notified]),
      [
        ['stocked', '0'],
        ['checked', '1'],
      ],
    );
    assert.equal(await ok('order_creditmemo.addComment', [second, 'private note', 1, 0]), true);
    const updates = await mails('sales/creditmemo_comment', `credit memo ${second} of your order`);
    assert.equal(updates.length, 2, 'a mail for each comment with notifyCustomer');
    assert.ok(updates.some((m) => m.includes('checked')));
    assert.ok(!updates.some((m) => m.includes('private note')), 'without includeComment the mail leaves the comment out');
    assert.equal((await fault('order_creditmemo.addComment', [second, '']))[0], 102);
    assert.deepEqual(await fault('order_creditmemo.addComment', ['nope', 'x']), [100, 'Requested credit memo does not exist']);

    assert.deepEqual(await fault('order_creditmemo.cancel', [second]), [104, 'Credit memo cannot be canceled.']);
    assert.equal((await fault('order_creditmemo.cancel', ['nope']))[0], 100);

    for (const bad of [
      'x',
      { qtys: 'x' },
      { qtys: { [a.item]: 5 } },
      { qtys: { abc: 1 } },
      { qtys: { [a.item]: 0 } },
      { shipping_amount: 'lots' },
      { shipping_amount: 99 },
      { adjustment_positive: -1 },
    ]) {
      assert.equal((await fault('order_creditmemo.create', [a.number, bad]))[0], 102, JSON.stringify(bad));
    }
    assert.deepEqual(await fault('order_creditmemo.create', ['no-such-order']), [103, 'Requested order does not exist']);
    assert.equal((await fault('order_creditmemo.create', [null]))[0], 103);
    const unpaid = await order(1, false);
    assert.deepEqual(await fault('order_creditmemo.create', [unpaid.number]), [106, 'Credit memo for requested order can not be created.']);
    for (const bad of ['nope', null, { a: 1 }]) assert.equal((await fault('order_creditmemo.info', [bad]))[0], 100);

    // the rest, mailed with the comment kept off the mail
    const last = await ok('order_creditmemo.create', [a.number, null, 'kept', 1, 0]);
    const m3 = await ok('order_creditmemo.info', [last]);
    assert.equal(m3.email_sent, '1');
    assert.deepEqual(
      m3.comments.map((c: any) => [c.comment, c.is_customer_notified]),
      [['kept', '0']],
    );
    // what is left of a (the fee kept by the negative adjustment) is no refund of anything
    assert.equal((await fault('order_creditmemo.create', [a.number]))[0], 102);
    const refunded = await order(1);
    await ok('order_creditmemo.create', [refunded.number]);
    assert.deepEqual(await fault('order_creditmemo.create', [refunded.number]), [
      106,
      'Credit memo for requested order can not be created.',
    ]);
  });

  test('list: filters in both forms, fault 101, a fixed number of statements', async () => {
    const a = await order(2);
    const m1 = await ok('order_creditmemo.create', [a.number, { qtys: { [a.item]: 1 } }]);
    const m2 = await ok('order_creditmemo.create', [a.number, { qtys: { [a.item]: 1 } }]);
    const all = await ok('order_creditmemo.list', [{ order_id: a.id }]);
    assert.deepEqual(
      all.map((m: any) => m.increment_id),
      [m1, m2],
    );
    assert.ok(Number(all[0].creditmemo_id) > 0);
    assert.equal(all[0].order_increment_id, a.number);
    const v2 = await ok('order_creditmemo.list', [
      {
        filter: [{ key: 'order_increment_id', value: a.number }],
        complex_filter: [{ key: 'grand_total', value: { key: 'lt', value: '15' } }],
      },
    ]);
    assert.deepEqual(
      v2.map((m: any) => m.increment_id),
      [m2],
    );
    for (const bad of [{ nope: 1 }, { grand_total: { gt: 'x' } }, 7]) {
      assert.equal((await fault('order_creditmemo.list', [bad]))[0], 101, JSON.stringify(bad));
    }
    const b = await order(1);
    await ok('order_creditmemo.create', [b.number]);
    const count = async (filters: unknown, n: number) => {
      await ok('order_creditmemo.list', [filters]);
      const { n: used, result } = await api.statementsOf(t, 'order_creditmemo.list', [filters]);
      assert.equal(result.length, n);
      return used;
    };
    assert.equal(await count({ order_id: a.id }, 2), await count({ order_id: b.id }, 1));
  });
});

describe('permissions and store views', () => {
  test("a role without the permission gets fault 2; resources lists only the role's methods", async () => {
    const a = await order(1);
    const number = await ok('order_shipment.create', [a.number]);
    const reader = await newApiUser(t, ['shipments/read', 'credit-memos/read']);
    const s = await sessionOf(reader);
    assert.equal((await ok('order_shipment.info', [number], s)).increment_id, number);
    assert.ok(await ok('order_shipment.getCarriers', [a.number], s));
    for (const [p, args] of [
      ['order_shipment.create', [a.number]],
      ['order_shipment.addComment', [number, 'x']],
      ['order_shipment.addTrack', [number, 'ups', 'UPS', '1']],
      ['order_shipment.removeTrack', [number, 1]],
      ['order_shipment.sendInfo', [number]],
      ['order_creditmemo.create', [a.number]],
      ['order_creditmemo.addComment', ['x', 'x']],
      ['order_creditmemo.cancel', ['x']],
    ] as const) {
      assert.deepEqual(await fault(p, args, s), [2, 'Access denied.'], p);
    }
    const resources = (await rpc('resources', [s])).result;
    assert.deepEqual(
      resources
        .filter((r: any) => r.name.startsWith('sales_order'))
        .map((r: any) => [r.name, r.aliases, r.methods.map((m: any) => m.name)]),
      [
        ['sales_order_shipment', ['order_shipment'], ['list', 'info', 'getCarriers']],
        ['sales_order_creditmemo', ['order_creditmemo'], ['list', 'info']],
      ],
    );
    const none = await newApiUser(t, ['customers/read']);
    const n = await sessionOf(none);
    assert.deepEqual(await fault('order_shipment.list', [], n), [2, 'Access denied.']);
    assert.deepEqual(await fault('order_creditmemo.list', [], n), [2, 'Access denied.']);
    assert.equal((await rpc('resourceFaults', [n, 'order_shipment'])).error?.code, 2);
    assert.deepEqual(await faultCodes('order_creditmemo'), ['100', '101', '102', '103', '104', '106']);
  });

  test('an API user limited to other store views reaches none of these shipments, memos or orders', async () => {
    const a = await order(2);
    const number = await ok('order_shipment.create', [a.number, { [a.item]: 1 }]);
    const memo = await ok('order_creditmemo.create', [a.number, { qtys: { [a.item]: 1 } }]);
    const s = await sessionOf(await newApiUser(t, ['shipments/all', 'credit-memos/all'], [2]), { 'x-store-code': 'german' });
    const own = await ok('order_shipment.list', [{ order_id: a.id }]);
    assert.equal(own.length, 1, 'the unlimited user sees it');
    assert.deepEqual(await ok('order_shipment.list', [{ order_id: a.id }], s), []);
    assert.ok((await ok('order_shipment.list', [], s)).every((x: any) => x.store_id === '2'));
    assert.equal((await fault('order_shipment.info', [number], s))[0], 100);
    assert.equal((await fault('order_shipment.addTrack', [number, 'ups', 'UPS', '1'], s))[0], 100);
    assert.equal((await fault('order_shipment.removeTrack', [number, 1], s))[0], 100);
    assert.equal((await fault('order_shipment.addComment', [number, 'x'], s))[0], 100);
    assert.equal((await fault('order_shipment.sendInfo', [number], s))[0], 100);
    assert.equal((await fault('order_shipment.create', [a.number], s))[0], 103);
    assert.equal((await fault('order_shipment.getCarriers', [a.number], s))[0], 103);
    assert.deepEqual(await ok('order_creditmemo.list', [{ order_id: a.id }], s), []);
    assert.equal((await fault('order_creditmemo.info', [memo], s))[0], 100);
    assert.equal((await fault('order_creditmemo.addComment', [memo, 'x'], s))[0], 100);
    assert.equal((await fault('order_creditmemo.cancel', [memo], s))[0], 100);
    assert.equal((await fault('order_creditmemo.create', [a.number], s))[0], 103);
    assert.equal((await shipmentsOf(a.id)).length, 1, 'nothing changed');
    assert.equal((await shipmentsOf(a.id))[0].comments.length, 0);
  });
});
