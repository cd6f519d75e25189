/**
 * The Magento 1 API's sales_order and sales_order_invoice resources: an ERP's export driven by Python's
 * xmlrpc.client, and every method and fault over JSON-RPC (filters, the order's info as Magento answers it,
 * hold/unhold/cancel/comments, invoicing by an item → qty map, capture/void/cancel), the roles' permissions and a
 * store-limited API user.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import crypto from 'node:crypto';
import { API, type TestApp } from '../../../test/helpers.js';
import { invoiceOrder } from '../../../test/fixtures/checkout.js';
import { LegacyClient, runScenario, skipWithout, twoLineOrder, type Step } from '../../../test/fixtures/legacy-api.js';
import { newApiUser, startSoapApp } from '../../../test/fixtures/soap.js';
import { sql } from 'drizzle-orm';
import { countStatements } from '../../platform/db.js';

let t: TestApp;
let base: string;
const api = new LegacyClient(() => base);
const { sessionOf, call } = api;

before(async () => {
  ({ t, base } = await startSoapApp());
  api.session = await sessionOf();
});
after(() => t?.close());

describe('an ERP export over XML-RPC with Python xmlrpc.client', { skip: skipWithout('python') }, () => {
  let r: Record<string, Step>;
  let placed: Awaited<ReturnType<typeof twoLineOrder>>;

  before(async () => {
    const email = `erp-${crypto.randomBytes(4).toString('hex')}@example.com`;
    placed = await twoLineOrder(t, email);
    const other = await twoLineOrder(t, email);
    const open = await invoiceOrder(t, other.id, { capture: 'not_capture' });
    r = await runScenario('python', 'sales_scenario.py', base, {
      RPC_SINCE: new Date(Date.now() - 3_600_000).toISOString().slice(0, 19).replace('T', ' '),
      RPC_EMAIL: email,
      RPC_OPEN_INVOICE: open.incrementId,
    });
  });

  test('lists the new orders, reads one, invoices part of it, captures, comments', async () => {
    assert.equal(r.newOrders.ok.length, 2);
    assert.equal(r.newOrders.ok[0].increment_id, placed.incrementId);
    assert.equal(r.newOrders.ok[0].billing_name, 'Tess Tester');
    assert.equal(r.info.ok.order_id, String(placed.id));
    assert.equal(r.info.ok.items.length, 2);
    assert.match(r.invoice.ok, /^\d+$/);
    assert.equal(r.invoiceInfo.ok.order_increment_id, placed.incrementId);
    assert.equal(r.invoiceInfo.ok.items.length, 1);
    assert.equal(r.invoiceInfo.ok.items[0].qty, '1.0000');
    assert.equal(r.invoiceInfo.ok.state, '2', 'paid at creation');
    assert.deepEqual(r.captureInvoiced.fault, [104, 'Invoice cannot be captured.']);
    assert.equal(r.captureOpen.ok, true);
    assert.equal(r.invoiceComment.ok, true);
    assert.equal(r.orderComment.ok, true);
    assert.equal(r.after.ok.state, 'processing');
    assert.equal(r.after.ok.items[0].qty_invoiced, '1.0000');
    assert.equal(r.after.ok.status_history[0].comment, 'Exported to the ERP');
    assert.deepEqual(
      r.invoices.ok.map((i: any) => i.increment_id),
      [r.invoice.ok],
    );
    assert.deepEqual(r.missing.fault, [100, 'Requested order not exists.']);
    assert.equal(r.badFilter.fault?.[0], 101);
    const rest = await t.req('GET', `${API}/orders/${placed.id}/invoices`, { token: await t.tokens.admin() });
    assert.equal(rest.body.member[0].comments.at(-1).comment, 'Booked in the ERP', 'the REST API sees the same invoice');
  });
});

describe('sales_order over JSON-RPC', () => {
  const email = `so-${crypto.randomBytes(4).toString('hex')}@example.com`;
  let orders: Awaited<ReturnType<typeof twoLineOrder>>[];

  before(async () => {
    orders = [await twoLineOrder(t, email), await twoLineOrder(t, email), await twoLineOrder(t, email)];
  });

  test('list: flat order rows, filtered by Magento fields in the V1 and V2 forms', async () => {
    const numbers = async (filters: unknown) => {
      const r = await call('sales_order.list', [filters]);
      assert.ok(r.result, JSON.stringify(r));
      return r.result.map((o: any) => o.increment_id);
    };
    const all = orders.map((o) => o.incrementId);
    assert.deepEqual(await numbers({ customer_email: email }), all);
    assert.deepEqual(await numbers({ customer_email: email, increment_id: { in: all.slice(1) } }), all.slice(1));
    assert.deepEqual(await numbers({ customer_email: email, order_id: { gt: orders[1].id } }), all.slice(2));
    assert.deepEqual(await numbers({ customer_email: email, created_at: { from: '2000-01-01', to: '2999-01-01 00:00:00' } }), all);
    assert.deepEqual(await numbers({ customer_email: email, updated_at: { lt: '2000-01-01' } }), []);
    assert.deepEqual(await numbers({ customer_email: email, grand_total: { gteq: '57' }, state: 'new', status: 'pending' }), all);
    assert.deepEqual(await numbers({ customer_email: email, billing_lastname: 'Tester', store_id: '1' }), all);
    assert.deepEqual(
      await numbers({
        filter: [{ key: 'customer_email', value: email }],
        complex_filter: [{ key: 'increment_id', value: { key: 'neq', value: all[0] } }],
      }),
      all.slice(1),
    );
    const row = (await call('sales_order.list', [{ increment_id: all[0] }])).result[0];
    assert.equal(row.order_id, String(orders[0].id));
    assert.ok(!('entity_id' in row), 'entity_id is answered as order_id');
    assert.equal(row.grand_total, '57.0000');
    assert.equal(row.shipping_name, 'Tess Tester');
    assert.match(row.created_at, /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/);
    for (const bad of [
      { nope: 1 },
      { status: { regexp: '.*' } },
      { grand_total: { gt: 'abc' } },
      { created_at: { from: 'yesterday' } },
      'x',
    ]) {
      const r = await call('sales_order.list', [bad]);
      assert.equal(r.error?.code, 101, `${JSON.stringify(bad)}: ${JSON.stringify(r)}`);
    }
  });

  test('list runs in a fixed number of statements whatever the number of orders', async () => {
    const count = async (filters: unknown) => {
      const post = () =>
        t.req('POST', '/api/jsonrpc/', {
          body: { jsonrpc: '2.0', method: 'call', params: [api.session, 'sales_order.list', [filters]], id: 1 },
        });
      await post();
      const { n, result } = await countStatements(post);
      return { n, orders: result.body.result.length };
    };
    const one = await count({ increment_id: orders[0].incrementId, created_at: { from: '2000-01-01' } });
    const three = await count({ customer_email: email, created_at: { from: '2000-01-01' } });
    assert.deepEqual([one.orders, three.orders], [1, 3]);
    assert.equal(three.n, one.n, 'no statement per order');
    assert.ok(three.n <= 4, `statements: ${three.n}`);
  });

  test('info: the order with addresses, items, payment and status history as Magento answers them', async () => {
    const o = (await call('order.info', [orders[0].incrementId])).result;
    assert.equal(o.increment_id, orders[0].incrementId);
    assert.equal(o.state, 'new');
    assert.equal(o.customer_email, email);
    assert.equal(o.subtotal, '32.0000');
    assert.equal(o.order_currency_code, 'USD');
    assert.equal(o.billing_address.firstname, 'Tess');
    assert.equal(o.billing_address.address_type, 'billing');
    assert.equal(o.shipping_address.street, '1 Test Road');
    assert.equal(o.items.length, 2);
    assert.equal(o.items[0].qty_ordered, '2.0000');
    assert.equal(o.items[0].price, '10.0000');
    assert.match(o.items[0].product_options, /^a:\d+:\{s:15:"info_buyRequest";a:/);
    assert.equal(o.payment.method, 'checkmo');
    assert.equal(o.payment.amount_ordered, '57.0000');
    assert.ok(Array.isArray(o.status_history));
    assert.equal((await call('sales_order.info', ['999999999'])).error?.code, 100);
    assert.equal((await call('sales_order.info', [])).error?.code, 100);
    assert.equal((await call('sales_order.info', [{ a: 1 }])).error?.code, 100);
  });

  test('hold, unhold, addComment and cancel go through the orders service; refusals are fault 103', async () => {
    const n = orders[1].incrementId;
    assert.equal((await call('sales_order.hold', [n])).result, true);
    assert.equal((await call('sales_order.hold', [n])).error?.code, 103);
    assert.equal((await call('sales_order.info', [n])).result.status, 'holded');
    assert.equal((await call('sales_order.unhold', [n])).result, true);
    assert.equal((await call('sales_order.unhold', [n])).error?.code, 103);
    assert.equal((await call('sales_order.addComment', [n, 'pending', 'Checked', true])).result, true);
    const info = (await call('sales_order.info', [n])).result;
    assert.equal(info.status_history[0].comment, 'Checked');
    assert.equal(info.status_history[0].is_customer_notified, '1');
    assert.equal((await call('sales_order.addComment', [n, 'complete', 'No'])).error?.code, 103);
    assert.equal((await call('sales_order.addComment', [n, 'pending', ''])).error?.code, 102);
    assert.equal((await call('sales_order.addComment', [n, ['x'], 'No'])).error?.code, 102);
    assert.equal((await call('sales_order.addComment', ['nope', 'pending', 'x'])).error?.code, 100);
    assert.equal((await call('sales_order.cancel', [n])).result, true);
    assert.equal((await call('sales_order.info', [n])).result.state, 'canceled');
    assert.deepEqual((await call('sales_order.cancel', [n])).error, {
      code: 103,
      message: 'Order status not changed. Details in error message.',
    });
    // an order with an invoiced line keeps it: what was left is canceled, and Magento answers 103
    const partly = orders[2];
    await invoiceOrder(t, partly.id, { items: [{ orderItemId: partly.items[0].id, qty: 2 }] });
    assert.equal((await call('sales_order.cancel', [partly.incrementId])).error?.code, 103);
    assert.equal((await call('sales_order.hold', ['nope'])).error?.code, 100);
  });
});

describe('sales_order_invoice over JSON-RPC', () => {
  let order: Awaited<ReturnType<typeof twoLineOrder>>;
  let first: string;

  before(async () => {
    order = await twoLineOrder(t, `inv-${crypto.randomBytes(4).toString('hex')}@example.com`);
  });

  test('create invoices an item → qty map (paid), then what is left; faults 103 and 102', async () => {
    const [a, b] = order.items;
    const r = await call('sales_order_invoice.create', [order.incrementId, { [a.id]: 1, [b.id]: 0 }, 'First part', false]);
    assert.match(r.result, /^\d+$/, JSON.stringify(r));
    first = r.result;
    const info = (await call('sales_order_invoice.info', [first])).result;
    assert.equal(info.increment_id, first);
    assert.equal(info.state, '2');
    assert.equal(info.order_increment_id, order.incrementId);
    assert.equal(info.billing_firstname, 'Tess');
    assert.deepEqual(
      info.items.map((i: any) => [i.order_item_id, i.qty]),
      [[String(a.id), '1.0000']],
    );
    assert.equal(info.comments[0].comment, 'First part');
    assert.equal((await call('sales_order_invoice.create', ['nope'])).error?.code, 103);
    assert.equal((await call('sales_order_invoice.create', [order.incrementId, { [a.id]: 5 }])).error?.code, 102);
    assert.equal((await call('sales_order_invoice.create', [order.incrementId, { 999999999: 1 }])).error?.code, 102);
    assert.equal((await call('sales_order_invoice.create', [order.incrementId, { [a.id]: -1 }])).error?.code, 102);
    assert.equal((await call('sales_order_invoice.create', [order.incrementId, { [a.id]: 0 }])).error?.code, 102);
    assert.equal((await call('sales_order_invoice.create', [order.incrementId, 'x'])).error?.code, 102);
    const rest = await call('sales_order_invoice.create', [order.incrementId, [{ order_item_id: b.id, qty: '3' }]]);
    assert.match(rest.result, /^\d+$/);
    // an empty map is everything left: the other unit of the first line
    assert.match((await call('sales_order_invoice.create', [order.incrementId, {}])).result, /^\d+$/);
    assert.deepEqual((await call('sales_order_invoice.create', [order.incrementId, {}])).error, {
      code: 102,
      message: 'Cannot do invoice for order.',
    });
  });

  test('list with filters, addComment, capture, void and cancel', async () => {
    const listed = (await call('sales_order_invoice.list', [{ order_id: order.id }])).result;
    assert.equal(listed.length, 3);
    assert.deepEqual(Object.keys(listed[0]), [
      'order_id',
      'increment_id',
      'created_at',
      'state',
      'grand_total',
      'order_currency_code',
      'invoice_id',
    ]);
    assert.deepEqual(
      (await call('sales_order_invoice.list', [{ increment_id: first, state: { in: [1, 2] } }])).result.map((i: any) => i.increment_id),
      [first],
    );
    assert.equal((await call('sales_order_invoice.list', [{ nope: 1 }])).error?.code, 101);
    assert.equal((await call('sales_order_invoice.addComment', [first, 'Paid by transfer', true, true])).result, true);
    assert.equal((await call('sales_order_invoice.info', [first])).result.comments.at(-1).is_customer_notified, '1');
    assert.equal((await call('sales_order_invoice.addComment', [first, ''])).error?.code, 102);
    assert.equal((await call('sales_order_invoice.addComment', ['nope', 'x'])).error?.code, 100);
    assert.deepEqual((await call('sales_order_invoice.capture', [first])).error, { code: 104, message: 'Invoice cannot be captured.' });
    assert.deepEqual((await call('sales_order_invoice.void', [first])).error, { code: 104, message: 'Invoice cannot be voided.' });
    assert.deepEqual((await call('sales_order_invoice.cancel', [first])).error, { code: 104, message: 'Invoice cannot be canceled.' });
    // an open invoice (the back office's not_capture): captured, then voided; another one canceled
    const other = await twoLineOrder(t, `inv2-${crypto.randomBytes(4).toString('hex')}@example.com`);
    const open = await invoiceOrder(t, other.id, { capture: 'not_capture', items: [{ orderItemId: other.items[0].id, qty: 1 }] });
    assert.equal((await call('order_invoice.capture', [open.incrementId])).result, true);
    assert.equal((await call('sales_order_invoice.info', [open.incrementId])).result.can_void_flag, '1');
    assert.equal((await call('sales_order_invoice.void', [open.incrementId])).result, true);
    assert.equal((await call('sales_order_invoice.info', [open.incrementId])).result.state, '3');
    const another = await invoiceOrder(t, other.id, { capture: 'not_capture', items: [{ orderItemId: other.items[1].id, qty: 1 }] });
    assert.equal((await call('sales_order_invoice.cancel', [another.incrementId])).result, true);
    assert.equal((await call('sales_order_invoice.cancel', [another.incrementId])).error?.code, 104);
    for (const m of ['info', 'capture', 'void', 'cancel']) {
      assert.equal((await call(`sales_order_invoice.${m}`, ['nope'])).error?.code, 100, m);
      assert.equal((await call(`sales_order_invoice.${m}`, [])).error?.code, 100, m);
    }
  });
});

describe('permissions and store-limited API users', () => {
  test('a role without the permission gets fault 2; a user limited to other store views sees no order', async () => {
    const order = await twoLineOrder(t, `perm-${crypto.randomBytes(4).toString('hex')}@example.com`);
    const reader = await newApiUser(t, ['orders/read']);
    const s = await sessionOf(reader);
    assert.equal((await call('sales_order.info', [order.incrementId], s)).result.increment_id, order.incrementId);
    for (const m of ['hold', 'unhold', 'cancel']) assert.equal((await call(`sales_order.${m}`, [order.incrementId], s)).error?.code, 2, m);
    assert.equal((await call('sales_order.addComment', [order.incrementId, 'pending', 'x'], s)).error?.code, 2);
    assert.equal((await call('sales_order_invoice.list', [], s)).error?.code, 2);
    assert.equal((await call('sales_order_invoice.create', [order.incrementId], s)).error?.code, 2);
    const invoiceReader = await newApiUser(t, ['invoices/read']);
    const si = await sessionOf(invoiceReader);
    for (const m of ['create', 'addComment', 'capture', 'void', 'cancel'])
      assert.equal((await call(`sales_order_invoice.${m}`, ['x'], si)).error?.code, 2, m);
    assert.equal((await call('sales_order.list', [], si)).error?.code, 2);

    // a user limited to store view 1, and an order (with its invoice) of another store view
    const limited = await sessionOf(await newApiUser(t, ['all'], [1]));
    const mine = await twoLineOrder(t, `mine-${crypto.randomBytes(4).toString('hex')}@example.com`);
    assert.equal((await call('sales_order.info', [mine.incrementId], limited)).result.increment_id, mine.incrementId);
    const invoice = await invoiceOrder(t, order.id, { capture: 'not_capture' });
    await t.database.db.execute(sql`UPDATE orders SET store_id = 999 WHERE id = ${order.id}`);
    await t.database.db.execute(sql`UPDATE invoices SET store_id = 999 WHERE order_id = ${order.id}`);
    const none = await call('sales_order.list', [{ increment_id: { in: [order.incrementId, mine.incrementId] } }], limited);
    assert.deepEqual(
      none.result.map((o: any) => o.increment_id),
      [mine.incrementId],
    );
    for (const m of ['info', 'hold', 'unhold', 'cancel'])
      assert.equal((await call(`sales_order.${m}`, [order.incrementId], limited)).error?.code, 100, m);
    assert.equal((await call('sales_order.addComment', [order.incrementId, 'pending', 'x'], limited)).error?.code, 100);
    assert.equal((await call('sales_order_invoice.create', [order.incrementId], limited)).error?.code, 103);
    assert.deepEqual((await call('sales_order_invoice.list', [{ order_id: order.id }], limited)).result, []);
    for (const m of ['info', 'capture', 'void', 'cancel'])
      assert.equal((await call(`sales_order_invoice.${m}`, [invoice.incrementId], limited)).error?.code, 100, m);
    assert.equal((await call('sales_order_invoice.addComment', [invoice.incrementId, 'x'], limited)).error?.code, 100);
    assert.equal((await call('sales_order_invoice.capture', [invoice.incrementId])).result, true, 'an unlimited user still may');
  });
});
