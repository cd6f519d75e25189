/** Creating credit memos: what is refunded and how the order, stock, gift cards and mail follow; what is refused (and that a refusal changes nothing). */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { eq, like, sql } from 'drizzle-orm';
import { API, buildTestApp, type Res, type TestApp } from '../../../test/helpers.js';
import { withTx } from '../../platform/context.js';
import { mailOutbox } from '../../platform/tables.js';
import { createTestProduct } from '../../../test/fixtures/catalog.js';
import { placeInvoicedOrder, placeTestOrder, TEST_ADDRESS } from '../../../test/fixtures/checkout.js';
import { giftcards } from '../giftcards/tables.js';
import { stockOf } from '../inventory/service.js';
import { findOrder, lockOrder, setOrderState } from '../orders/core.js';
import { orderStatusHistory } from '../orders/tables.js';
import { deleteConfig, setConfig } from '../stores/service.js';
import { creditMemoComments, creditMemoItems, creditMemos } from './tables.js';

const GIFTCARD = 'GC-DEMO-0000-0000-0001';
/** a California address: the demo charges 8.25 % tax there */
const CA_ADDRESS = { ...TEST_ADDRESS, city: 'Los Angeles', region: 'CA', postcode: '90001' };

let t: TestApp;
let admin: string;

before(async () => {
  t = await buildTestApp();
  admin = await t.tokens.admin();
});
after(() => t.close());

const refund = (orderId: number, body: unknown = {}, token = admin) =>
  t.req('POST', `${API}/orders/${orderId}/credit-memos`, { token, body });

function created(r: Res) {
  assert.equal(r.status, 201, r.text);
  return r.body;
}

function refusedWith(r: Res, status: number, message?: RegExp) {
  assert.equal(r.status, status, r.text);
  assert.equal(r.body.code, status);
  if (message) assert.match(r.body.message, message);
}

async function orderOf(id: number) {
  const found = await findOrder(t.systemCtx(), id);
  assert.ok(found);
  return found;
}

const getOrder = async (id: number) => {
  const r = await t.req('GET', `${API}/orders/${id}`, { token: admin });
  assert.equal(r.status, 200, r.text);
  return r.body;
};

async function stockQty(productId: number) {
  return (await stockOf(t.systemCtx(), [productId])).get(productId)!.qty;
}

async function cardBalance(): Promise<number> {
  const [c] = await t.database.db.select({ balance: giftcards.balance }).from(giftcards).where(eq(giftcards.code, GIFTCARD));
  return Number(c.balance);
}

async function mailsAbout(incrementId: string) {
  return t.database.db
    .select()
    .from(mailOutbox)
    .where(like(mailOutbox.subject, `%order ${incrementId}%`));
}

/** Everything a refused request must leave as it was. */
async function snapshot(orderId: number) {
  const db = t.database.db;
  const o = await orderOf(orderId);
  const count = async (q: Promise<{ n: number }[]>) => (await q)[0].n;
  return {
    order: o.order,
    items: o.items,
    memos: await count(
      db
        .select({ n: sql<number>`count(*)::int` })
        .from(creditMemos)
        .where(eq(creditMemos.orderId, orderId)),
    ),
    history: await count(
      db
        .select({ n: sql<number>`count(*)::int` })
        .from(orderStatusHistory)
        .where(eq(orderStatusHistory.orderId, orderId)),
    ),
    mails: (await mailsAbout(o.order.incrementId)).length,
    stock: await Promise.all(o.items.map((i) => stockQty(i.productId))),
    card: await cardBalance(),
  };
}

describe('full refund', () => {
  test('of a checkmo order: the memo equals the order total, the order closes, a second refund is refused', async () => {
    const p = await createTestProduct(t, { price: 10, stockData: { qty: 100, isInStock: true } });
    const o = await placeInvoicedOrder(t, { items: [{ sku: p.sku, qty: 2 }] });
    assert.equal(o.prices.totalPaid, o.prices.grandTotal);
    const m = created(await refund(o.id, {}));
    assert.equal(m.state, 'refunded');
    assert.equal(m.grandTotal, o.prices.grandTotal);
    assert.equal(m.baseGrandTotal, o.prices.baseGrandTotal);
    assert.equal(m.grandTotal, 30);
    assert.equal(m.subtotal, 20);
    assert.equal(m.shippingAmount, 10);
    assert.equal(m.taxAmount, 0);
    assert.equal(m.discountAmount, 0);
    assert.equal(m.adjustment, 0);
    assert.equal(m.orderId, o.id);
    assert.equal(m.orderIncrementId, o.incrementId);
    assert.match(m.incrementId, /^1\d{8}$/);
    assert.equal(m.currency, 'USD');
    assert.equal(m.baseCurrencyCode, 'USD');
    assert.equal(m.emailSent, true);
    assert.equal(m.comment, undefined);
    assert.deepEqual(m.comments, []);
    assert.equal(m.items.length, 1);
    const item = m.items[0];
    assert.equal(item.orderItemId, o.items[0].id);
    assert.equal(item.productId, p.id);
    assert.equal(item.sku, p.sku);
    assert.equal(item.qty, 2);
    assert.equal(item.price, 10);
    assert.equal(item.rowTotal, 20);
    assert.equal(item.rowTotalInclTax, 20);
    assert.equal(item.backToStock, false);

    // the memo goes against the order's paid invoice
    const inv = await t.req('GET', `${API}/orders/${o.id}/invoices`, { token: admin, headers: { accept: 'application/json' } });
    assert.equal(m.invoiceId, inv.body[0].id);

    const after = await getOrder(o.id);
    assert.equal(after.state, 'closed');
    assert.equal(after.status, 'closed');
    assert.equal(after.prices.totalRefunded, 30);
    assert.equal(after.prices.baseTotalRefunded, 30);
    assert.equal(after.prices.subtotalRefunded, 20);
    assert.equal(after.items[0].qtyRefunded, 2);
    assert.equal(after.items[0].amountRefunded, 20);
    assert.match(after.statusHistory[0].note, new RegExp(`Refunded 30\\.00 USD offline \\(credit memo ${m.incrementId}\\)`));
    assert.equal(after.statusHistory[0].status, 'closed');

    const again = await refund(o.id, {});
    refusedWith(again, 400, /cannot be refunded: it is closed/);
    assert.equal(again.body.error, 'bad_request');

    // reads
    const one = await t.req('GET', `${API}/credit-memos/${m.id}`, { token: admin });
    assert.equal(one.status, 200, one.text);
    assert.deepEqual(one.body, m);
    const list = await t.req('GET', `${API}/orders/${o.id}/credit-memos`, { token: admin });
    assert.equal(list.status, 200, list.text);
    assert.equal(list.body['@type'], 'Collection');
    assert.equal(list.body.totalItems, 1);
    assert.deepEqual(list.body.member, [m]);
    const plain = await t.req('GET', `${API}/orders/${o.id}/credit-memos`, { token: admin, headers: { accept: 'application/json' } });
    assert.deepEqual(plain.body, [m]);
  });

  test('with tax and a coupon: the memo equals the order total, item and order counters match the invoiced ones', async () => {
    const p = await createTestProduct(t, { price: 10.33, taxClassId: 2, stockData: { qty: 100, isInStock: true } });
    const o = await placeInvoicedOrder(t, { items: [{ sku: p.sku, qty: 3 }], address: CA_ADDRESS, couponCode: 'WELCOME10' });
    assert.ok(o.prices.taxAmount > 0, 'the order is taxed');
    assert.ok(o.prices.discountAmount > 0, 'the order is discounted');
    const m = created(await refund(o.id, { items: [{ orderItemId: o.items[0].id, qty: 3 }] }));
    assert.equal(m.grandTotal, o.prices.grandTotal);
    assert.equal(m.baseGrandTotal, o.prices.baseGrandTotal);
    assert.equal(m.taxAmount, o.prices.taxAmount);
    assert.equal(m.discountAmount, o.prices.discountAmount);
    assert.equal(m.subtotalInclTax, o.prices.subtotalInclTax);
    assert.equal(m.shippingTaxAmount, o.prices.shippingTaxAmount);
    assert.equal(m.discountDescription, 'WELCOME10');
    const after = await getOrder(o.id);
    assert.equal(after.state, 'closed');
    assert.equal(after.items[0].taxRefunded, o.items[0].taxAmount);
    assert.equal(after.items[0].discountRefunded, o.items[0].discountAmount);
  });
});

describe('partial refunds', () => {
  test('accumulate without drift; the first takes the shipping and the last closes the order', async () => {
    const p = await createTestProduct(t, { price: 10.33, taxClassId: 2, stockData: { qty: 100, isInStock: true } });
    const o = await placeInvoicedOrder(t, { items: [{ sku: p.sku, qty: 3 }], address: CA_ADDRESS });
    const id = o.items[0].id;
    const memos: Record<string, any>[] = [];
    for (let i = 0; i < 3; i++) {
      memos.push(created(await refund(o.id, { items: [{ orderItemId: id, qty: 1 }] })));
      const now = await getOrder(o.id);
      assert.equal(now.items[0].qtyRefunded, i + 1);
      assert.equal(now.state, i < 2 ? 'processing' : 'closed', `after memo ${i + 1}`);
    }
    assert.equal(memos[0].shippingAmount, o.prices.shippingAmount, 'the first memo refunds the shipping');
    assert.equal(memos[1].shippingAmount, 0);
    assert.equal(memos[2].shippingAmount, 0);
    const sum = (k: string) => Math.round(memos.reduce((s, m) => s + m[k] * 100, 0)) / 100;
    assert.equal(sum('grandTotal'), o.prices.grandTotal);
    assert.equal(sum('baseGrandTotal'), o.prices.baseGrandTotal);
    assert.equal(sum('subtotal'), o.prices.subtotal);
    assert.equal(sum('taxAmount'), o.prices.taxAmount);
    assert.equal(sum('subtotalInclTax'), o.prices.subtotalInclTax);
    const after = await getOrder(o.id);
    assert.equal(after.prices.totalRefunded, o.prices.totalPaid);
    assert.equal(after.prices.subtotalRefunded, o.prices.subtotal);
    assert.equal(after.items[0].amountRefunded, o.items[0].rowTotal);
    assert.equal(after.items[0].taxRefunded, o.items[0].taxAmount);
    const list = await t.req('GET', `${API}/orders/${o.id}/credit-memos`, { token: admin });
    assert.deepEqual(
      list.body.member.map((m: { id: number }) => m.id),
      memos.map((m) => m.id),
    );
    refusedWith(await refund(o.id, { items: [{ orderItemId: id, qty: 1 }] }), 400, /closed/);
  });

  test('shippingAmount chooses the shipping refunded; items omitted on a later memo refund the rest, shipping included', async () => {
    const a = await createTestProduct(t, { price: 10, stockData: { qty: 100, isInStock: true } });
    const b = await createTestProduct(t, { price: 7.5, stockData: { qty: 100, isInStock: true } });
    const o = await placeInvoicedOrder(t, {
      items: [
        { sku: a.sku, qty: 2 },
        { sku: b.sku, qty: 1 },
      ],
    });
    assert.equal(o.prices.shippingAmount, 15);
    const m1 = created(await refund(o.id, { items: [{ orderItemId: o.items[1].id, qty: 1 }], shippingAmount: 4 }));
    assert.equal(m1.shippingAmount, 4);
    assert.equal(m1.grandTotal, 11.5);
    refusedWith(await refund(o.id, { items: [{ orderItemId: o.items[0].id, qty: 1 }], shippingAmount: 11.01 }), 400, /shipping/);
    const m2 = created(await refund(o.id, { items: [{ orderItemId: o.items[0].id, qty: 1 }] }));
    assert.equal(m2.shippingAmount, 0, 'a later memo with items refunds no shipping unless asked');
    const m3 = created(await refund(o.id, { items: [] }));
    assert.equal(m3.shippingAmount, 11);
    assert.equal(m3.subtotal, 10);
    assert.equal(m3.grandTotal, 21);
    assert.equal(m1.grandTotal + m2.grandTotal + m3.grandTotal, o.prices.grandTotal);
    assert.equal((await getOrder(o.id)).state, 'closed');
  });
});

describe('back to stock', () => {
  test('backToStock returns the qty to inventory; without it stock is unchanged', async () => {
    const p = await createTestProduct(t, { price: 10, stockData: { qty: 100, isInStock: true } });
    const o = await placeInvoicedOrder(t, { items: [{ sku: p.sku, qty: 3 }] });
    assert.equal(await stockQty(p.id), 97);
    const m = created(await refund(o.id, { items: [{ orderItemId: o.items[0].id, qty: 2, backToStock: true }] }));
    assert.equal(m.items[0].backToStock, true);
    assert.equal(await stockQty(p.id), 99);
    const product = await t.req('GET', `${API}/products/${p.id}`, { token: admin });
    assert.equal(product.status, 200, product.text);
    const m2 = created(await refund(o.id, { items: [{ orderItemId: o.items[0].id, qty: 1 }] }));
    assert.equal(m2.items[0].backToStock, false);
    assert.equal(await stockQty(p.id), 99);
  });
});

describe('adjustments', () => {
  test('adjustmentPositive adds to the refund, adjustmentNegative takes off; the order counts both', async () => {
    const p = await createTestProduct(t, { price: 10, stockData: { qty: 100, isInStock: true } });
    const o = await placeInvoicedOrder(t, { items: [{ sku: p.sku, qty: 2 }] });
    const m = created(
      await refund(o.id, { items: [{ orderItemId: o.items[0].id, qty: 1 }], adjustmentPositive: 3.5, adjustmentNegative: 1.25 }),
    );
    assert.equal(m.adjustmentPositive, 3.5);
    assert.equal(m.adjustmentNegative, 1.25);
    assert.equal(m.adjustment, 2.25);
    assert.equal(m.baseAdjustment, 2.25);
    assert.equal(m.grandTotal, 10 + 10 + 2.25);
    const after = await getOrder(o.id);
    assert.equal(after.prices.adjustmentPositive, 3.5);
    assert.equal(after.prices.adjustmentNegative, 1.25);
    assert.equal(after.prices.totalRefunded, 22.25);
    // 7.75 is left to refund: the last unit (10) is more, so it needs a fee
    refusedWith(await refund(o.id, {}), 400, /above what can still be refunded \(7\.75\)/);
    const last = created(await refund(o.id, { adjustmentNegative: 2.25 }));
    assert.equal(last.grandTotal, 7.75);
    const closed = await getOrder(o.id);
    assert.equal(closed.state, 'closed');
    assert.equal(closed.prices.totalRefunded, 30);
  });

  test('a fee that leaves nothing to refund is refused; a full refund less a fee leaves the order open for the rest', async () => {
    const p = await createTestProduct(t, { price: 10, stockData: { qty: 100, isInStock: true } });
    const o = await placeInvoicedOrder(t, { items: [{ sku: p.sku, qty: 1 }] });
    const before = await snapshot(o.id);
    refusedWith(await refund(o.id, { adjustmentNegative: 15 }), 400, /Nothing to refund/);
    assert.deepEqual(await snapshot(o.id), before);
    const m = created(await refund(o.id, { adjustmentNegative: 2 }));
    assert.equal(m.grandTotal, 13);
    const open = await getOrder(o.id);
    assert.notEqual(open.state, 'closed', 'money is left to refund');
    const rest = created(await refund(o.id, { adjustmentPositive: 2 }));
    assert.deepEqual(rest.items, []);
    assert.equal(rest.grandTotal, 2);
    assert.equal((await getOrder(o.id)).state, 'closed');
  });

  test('a refund above what was paid is refused and changes nothing', async () => {
    const p = await createTestProduct(t, { price: 10, stockData: { qty: 100, isInStock: true } });
    const o = await placeInvoicedOrder(t, { items: [{ sku: p.sku, qty: 2 }] });
    const before = await snapshot(o.id);
    const r = await refund(o.id, {
      items: [{ orderItemId: o.items[0].id, qty: 2, backToStock: true }],
      adjustmentPositive: 0.01,
      comment: 'too much',
    });
    refusedWith(r, 400, /30\.01 is above what can still be refunded \(30\.00\)/);
    assert.deepEqual(await snapshot(o.id), before);
  });
});

describe('refused', () => {
  test('offlineRefund false: every method here is offline, so 400 and nothing changes', async () => {
    const p = await createTestProduct(t, { price: 10, stockData: { qty: 100, isInStock: true } });
    const o = await placeInvoicedOrder(t, { items: [{ sku: p.sku, qty: 1 }] });
    const before = await snapshot(o.id);
    const r = await refund(o.id, { offlineRefund: false, items: [{ orderItemId: o.items[0].id, qty: 1, backToStock: true }] });
    refusedWith(r, 400, /^Check \/ Money order cannot refund online; refund offline$/);
    assert.deepEqual(await snapshot(o.id), before);
    created(await refund(o.id, { offlineRefund: true }));
  });

  test('a cash-on-delivery order not yet invoiced: nothing was paid (400)', async () => {
    const o = await placeTestOrder(t, { paymentMethod: 'cashondelivery' });
    assert.equal(o.prices.totalPaid, 0);
    const before = await snapshot(o.id);
    refusedWith(await refund(o.id, {}), 400, /nothing was paid/);
    refusedWith(await refund(o.id, { items: [{ orderItemId: o.items[0].id, qty: 1 }] }), 400, /nothing was paid/);
    assert.deepEqual(await snapshot(o.id), before);
  });

  test('an order on hold cannot be refunded (400); nothing changes', async () => {
    const o = await placeInvoicedOrder(t);
    await withTx(t.systemCtx(), async (tx) => {
      const locked = await lockOrder(tx, o.id);
      assert.ok(locked);
      await setOrderState(tx, locked.order, {
        state: 'holded',
        status: 'holded',
        holdBeforeState: locked.order.state,
        holdBeforeStatus: locked.order.status,
      });
    });
    const before = await snapshot(o.id);
    const r = await refund(o.id, {});
    refusedWith(r, 400, /cannot be refunded: it is holded/);
    assert.equal(r.body.error, 'bad_request');
    assert.deepEqual(await snapshot(o.id), before);
  });

  test('a canceled order cannot be refunded (400)', async () => {
    const o = await placeInvoicedOrder(t);
    await withTx(t.systemCtx(), async (tx) => {
      const locked = await lockOrder(tx, o.id);
      await setOrderState(tx, locked!.order, { state: 'canceled', status: 'canceled' });
    });
    refusedWith(await refund(o.id, {}), 400, /it is canceled/);
  });

  test('bad items: unknown, ≤ 0, fractional, above what is refundable, listed twice: 400, nothing changes', async () => {
    const p = await createTestProduct(t, { price: 10, stockData: { qty: 100, isInStock: true } });
    const o = await placeInvoicedOrder(t, { items: [{ sku: p.sku, qty: 2 }] });
    const other = await placeInvoicedOrder(t);
    const id = o.items[0].id;
    const before = await snapshot(o.id);
    const cases: [unknown, RegExp][] = [
      [{ items: [{ orderItemId: 0, qty: 1 }] }, /orderItemId must be a positive integer/],
      [{ items: [{ orderItemId: -3, qty: 1 }] }, /orderItemId must be a positive integer/],
      [{ items: [{ orderItemId: 2147483648, qty: 1 }] }, /orderItemId/],
      [{ items: [{ orderItemId: other.items[0].id, qty: 1 }] }, /is not on this order/],
      [{ items: [{ orderItemId: id, qty: 0 }] }, /qty must be a number greater than 0/],
      [{ items: [{ orderItemId: id, qty: -1 }] }, /qty must be a number greater than 0/],
      [{ items: [{ orderItemId: id, qty: 0.5 }] }, /must be a whole number/],
      [{ items: [{ orderItemId: id, qty: 3 }] }, /Cannot refund 3 of .*: 2 invoiced and not yet refunded/],
      [
        {
          items: [
            { orderItemId: id, qty: 1 },
            { orderItemId: id, qty: 1 },
          ],
        },
        /listed twice/,
      ],
      [{ items: [{ orderItemId: id }] }, /qty is required/],
      [{ items: [{ qty: 1 }] }, /orderItemId is required/],
      [{ items: [{ orderItemId: id, qty: '1' }] }, /qty must be number/],
      [{ items: [{ orderItemId: '1', qty: 1 }] }, /orderItemId must be integer/],
      [{ items: [{ orderItemId: id, qty: 1, backToStock: 'yes' }] }, /backToStock must be boolean/],
      [{ items: 'all' }, /items must be array/],
      [{ adjustmentPositive: -1 }, /adjustmentPositive must be >= 0/],
      [{ adjustmentNegative: 'x' }, /adjustmentNegative must be number/],
      [{ shippingAmount: -1 }, /shippingAmount must be >= 0/],
      [{ shippingAmount: 10.01 }, /Cannot refund 10\.01 of shipping/],
      [{ offlineRefund: 'no' }, /offlineRefund must be boolean/],
      [{ comment: 5 }, /comment must be string/],
      [[], /JSON object/],
    ];
    for (const [body, message] of cases) refusedWith(await refund(o.id, body), 400, message);
    const malformed = await t.req('POST', `${API}/orders/${o.id}/credit-memos`, {
      token: admin,
      raw: '{"items":',
      headers: { 'content-type': 'application/json' },
    });
    refusedWith(malformed, 400, /Invalid JSON/);
    const empty = await t.req('POST', `${API}/orders/${o.id}/credit-memos`, {
      token: admin,
      raw: '',
      headers: { 'content-type': 'application/json' },
    });
    refusedWith(empty, 400, /Invalid JSON/);
    assert.deepEqual(await snapshot(o.id), before);
    // unknown keys are ignored
    const m = created(await refund(o.id, { items: [{ orderItemId: id, qty: 1, foo: 1 }], bar: true }));
    assert.equal(m.items[0].qty, 1);
  });

  test('an unknown order is 404; ids out of range are 400', async () => {
    refusedWith(await refund(99999999, {}), 404, /Order not found/);
    refusedWith(await refund(0, {}), 400);
    refusedWith(await t.req('POST', `${API}/orders/abc/credit-memos`, { token: admin, body: {} }), 400);
    refusedWith(await t.req('GET', `${API}/orders/99999999/credit-memos`, { token: admin }), 404, /Order not found/);
    refusedWith(await t.req('GET', `${API}/credit-memos/99999999`, { token: admin }), 404, /Credit memo not found/);
    refusedWith(await t.req('GET', `${API}/credit-memos/0`, { token: admin }), 400);
    refusedWith(await t.req('GET', `${API}/credit-memos/2147483648`, { token: admin }), 400);
  });

  test('an order without credit memos lists none', async () => {
    const o = await placeInvoicedOrder(t);
    const r = await t.req('GET', `${API}/orders/${o.id}/credit-memos`, { token: admin });
    assert.equal(r.status, 200);
    assert.equal(r.body.totalItems, 0);
    assert.deepEqual(r.body.member, []);
  });
});

describe('gift cards', () => {
  test('an order paid partly with a gift card: the refund pays cash back first, then the card (last applied first)', async () => {
    const startBalance = await cardBalance();
    assert.equal(startBalance, 50);
    const p = await createTestProduct(t, { price: 40, stockData: { qty: 100, isInStock: true } });
    const o = await placeInvoicedOrder(t, { items: [{ sku: p.sku, qty: 2 }], giftcardCodes: [GIFTCARD] });
    assert.equal(o.prices.giftcardAmount, 50);
    assert.equal(o.prices.grandTotal, 40);
    assert.equal(o.prices.totalPaid, 40);
    assert.equal(await cardBalance(), 0);

    // one unit and the shipping: 50, of which 40 cash and 10 to the card
    const m1 = created(await refund(o.id, { items: [{ orderItemId: o.items[0].id, qty: 1 }] }));
    assert.equal(m1.grandTotal, 50);
    assert.equal(await cardBalance(), 10);
    let now = await getOrder(o.id);
    assert.equal(now.prices.totalRefunded, 40);
    assert.equal(now.state, 'processing');
    let stored = (await orderOf(o.id)).order.giftcards;
    assert.equal(Number(stored[0].baseRefunded), 10);

    // the rest (40) all goes to the card
    const m2 = created(await refund(o.id, {}));
    assert.equal(m2.grandTotal, 40);
    assert.equal(await cardBalance(), 50);
    now = await getOrder(o.id);
    assert.equal(now.state, 'closed');
    assert.equal(now.prices.totalRefunded, 40);
    stored = (await orderOf(o.id)).order.giftcards;
    assert.equal(Number(stored[0].baseRefunded), 50);
    const balance = await t.req('POST', '/api/graphql', {
      body: { query: `{ checkGiftcardBalance(code: "${GIFTCARD}") { balance status } }` },
    });
    assert.deepEqual(balance.body.data.checkGiftcardBalance, { balance: 50, status: 'active' });
  });

  test('a full refund of a gift-card order in one memo gives the card its whole part back', async () => {
    const p = await createTestProduct(t, { price: 40, stockData: { qty: 100, isInStock: true } });
    const o = await placeInvoicedOrder(t, { items: [{ sku: p.sku, qty: 2 }], giftcardCodes: [GIFTCARD] });
    const before = await cardBalance();
    const before2 = await snapshot(o.id);
    refusedWith(await refund(o.id, { adjustmentPositive: 1 }), 400, /91\.00 is above what can still be refunded \(90\.00\)/);
    assert.deepEqual(await snapshot(o.id), before2);
    const m = created(await refund(o.id, {}));
    assert.equal(m.grandTotal, o.prices.grandTotal + o.prices.giftcardAmount);
    assert.equal(await cardBalance(), before + o.prices.giftcardAmount);
    assert.equal((await getOrder(o.id)).state, 'closed');
  });
});

describe('comments and mail', () => {
  test('the comment is kept and mailed; the credit memo mail goes to the customer', async () => {
    const customer = await t.tokens.customer();
    const o = await placeInvoicedOrder(t, { customerToken: customer });
    const m = created(await refund(o.id, { comment: '  Damaged in transit  ' }));
    assert.equal(m.comment, 'Damaged in transit');
    assert.equal(m.comments.length, 1);
    assert.equal(m.comments[0].comment, 'Damaged in transit');
    assert.equal(m.comments[0].isCustomerNotified, true);
    assert.equal(m.comments[0].isVisibleOnFront, false);
    const mails = (await mailsAbout(o.incrementId)).filter((x) => x.template === 'sales/creditmemo');
    assert.equal(mails.length, 1);
    assert.equal(mails[0].toAddress, 'customer@example.com');
    assert.match(mails[0].subject, new RegExp(`Credit memo ${m.incrementId} for order ${o.incrementId}`));
    assert.match(mails[0].textBody, /We have refunded 30\.00 USD/);
    assert.match(mails[0].textBody, /Damaged in transit/);
    assert.match(mails[0].textBody, /Total refunded: 30\.00 USD/);
  });

  test('no mail with notifyCustomer false or when sales_email/creditmemo/enabled is 0', async () => {
    const o1 = await placeInvoicedOrder(t);
    const m1 = created(await refund(o1.id, { notifyCustomer: false, comment: 'quiet' }));
    assert.equal(m1.emailSent, false);
    assert.equal(m1.comments[0].isCustomerNotified, false);
    assert.equal((await mailsAbout(o1.incrementId)).filter((x) => x.template === 'sales/creditmemo').length, 0);

    await setConfig(t.database.db, t.services.settings, 'sales_email/creditmemo/enabled', '0');
    try {
      const o2 = await placeInvoicedOrder(t);
      const m2 = created(await refund(o2.id, {}));
      assert.equal(m2.emailSent, false);
      assert.equal((await mailsAbout(o2.incrementId)).filter((x) => x.template === 'sales/creditmemo').length, 0);
    } finally {
      await deleteConfig(t.database.db, t.services.settings, 'sales_email/creditmemo/enabled');
    }
  });

  test('stored rows: items and comments belong to the memo', async () => {
    const o = await placeInvoicedOrder(t);
    const m = created(await refund(o.id, { comment: 'row check' }));
    const db = t.database.db;
    const items = await db.select().from(creditMemoItems).where(eq(creditMemoItems.creditMemoId, m.id));
    const comments = await db.select().from(creditMemoComments).where(eq(creditMemoComments.creditMemoId, m.id));
    const [row] = await db.select().from(creditMemos).where(eq(creditMemos.id, m.id));
    assert.equal(items.length, 1);
    assert.equal(comments.length, 1);
    assert.equal(row.state, 2);
    assert.equal(row.offline, true);
  });
});

describe('concurrency', () => {
  test('parallel full refunds of one order: exactly one succeeds', async () => {
    const o = await placeInvoicedOrder(t);
    const results = await Promise.all(Array.from({ length: 5 }, () => refund(o.id, {})));
    const statuses = results.map((r) => r.status).sort();
    assert.deepEqual(statuses, [201, 400, 400, 400, 400], results.map((r) => r.text).join('\n'));
    const after = await getOrder(o.id);
    assert.equal(after.prices.totalRefunded, o.prices.grandTotal);
  });
});
