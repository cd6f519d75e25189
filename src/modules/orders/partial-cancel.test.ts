/**
 * What a cancel gives back when part of the order was already invoiced or shipped: the gift cards get only
 * what no invoice took (the cards are taken in the order they were applied, so what is left is on the last
 * ones), the order's card amount drops to match so that a later invoice takes nothing that was given back,
 * and the coupon use stays with the order. A cancel of an untouched order gives everything back.
 * Demo setup used: Texas (no tax), flat rate 5.00 per item, coupon WELCOME10 (10 % of the items).
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { API, buildTestApp, type TestApp } from '../../../test/helpers.js';
import { withTx } from '../../platform/context.js';
import { createTestProduct } from '../../../test/fixtures/catalog.js';
import { placeTestOrder } from '../../../test/fixtures/checkout.js';
import { createInvoice, type CreateInvoiceOptions } from '../invoices/service.js';
import { lockOrder } from './core.js';

let t: TestApp;
let admin: string;
let customer: string;
let skuA: string; // 60.00
let skuB: string; // 30.00
let couponId: number;

before(async () => {
  t = await buildTestApp();
  admin = await t.tokens.admin();
  customer = await t.tokens.customer();
  const stock = { qty: 1000, isInStock: true };
  skuA = (await createTestProduct(t, { price: 60, stockData: stock })).sku as string;
  skuB = (await createTestProduct(t, { price: 30, stockData: stock })).sku as string;
  const list = await t.req('GET', `${API}/coupons`, { token: admin, query: { code: 'WELCOME10' } });
  couponId = list.body.member.find((c: { code: string }) => c.code === 'WELCOME10').id as number;
});
after(() => t.close());

let cardNo = 0;
/** A new gift card of `balance`; answers its code and a reader of its balance and history. */
async function newCard(balance: number) {
  const code = `GC-PARTIAL-${process.pid}-${++cardNo}`;
  const r = await t.req('POST', `${API}/giftcards`, { token: admin, body: { code, initialBalance: balance, websiteIds: [1] } });
  assert.equal(r.status, 201, r.text);
  const id = r.body.id as number;
  const read = async () => {
    const got = await t.req('GET', `${API}/giftcards/${id}`, { token: admin });
    assert.equal(got.status, 200, got.text);
    const body = got.body as { balance: number; history: { action: string; amount: number; orderId?: number }[] };
    // newest first, without the card's creation
    return { ...body, history: body.history.filter((h) => h.action !== 'created') };
  };
  return { code, read };
}

const couponUses = async () => (await t.req('GET', `${API}/coupons/${couponId}`, { token: admin })).body.timesUsed as number;

/** A cash-on-delivery order of the customer for one A (60.00) and one B (30.00): nothing invoiced yet. */
function orderAB(opts: { giftcardCodes: string[]; couponCode?: string }) {
  return placeTestOrder(t, {
    customerToken: customer,
    paymentMethod: 'cashondelivery',
    items: [
      { sku: skuA, qty: 1 },
      { sku: skuB, qty: 1 },
    ],
    ...opts,
  });
}

/** createInvoice as the shipment workflow calls it: in a transaction, on the locked order. */
function invoice(orderId: number, opts: CreateInvoiceOptions) {
  return withTx(t.systemCtx(), async (tx) => {
    const locked = await lockOrder(tx, orderId);
    assert.ok(locked, `order ${orderId} exists`);
    return createInvoice(tx, locked, opts);
  });
}

async function read(id: number) {
  const r = await t.req('GET', `${API}/orders/${id}`, { token: admin });
  assert.equal(r.status, 200, r.text);
  return r.body;
}

async function invoices(orderId: number) {
  const r = await t.req('GET', `${API}/orders/${orderId}/invoices`, { token: admin, headers: { accept: 'application/json' } });
  assert.equal(r.status, 200, r.text);
  return r.body as {
    giftcardAmount: number;
    baseGiftcardAmount: number;
    grandTotal: number;
    subtotal: number;
    shippingAmount: number;
    discountAmount: number;
  }[];
}

const cancel = (id: number, token = customer) => t.req('POST', `${API}/orders/${id}/cancel`, { token, body: {} });
const lineOf = (o: { items: { id: number; sku: string }[] }, sku: string) => o.items.find((i) => i.sku === sku)!.id;

describe('cancel after a partial invoice', () => {
  test('the card gets back only what no invoice took, nothing when the invoice took it all; the coupon use is kept', async () => {
    // 60 + 30 + 10 shipping = 100.00, 50.00 of it by card; A with the shipping (70.00) takes all of the card
    const card = await newCard(50);
    const o = await orderAB({ giftcardCodes: [card.code] });
    assert.equal(o.prices.grandTotal, 50);
    assert.equal(o.prices.giftcardAmount, 50);
    await invoice(o.id, { items: [{ orderItemId: lineOf(o, skuA), qty: 1 }], capture: 'offline' });
    const [i1] = await invoices(o.id);
    assert.deepEqual([i1.giftcardAmount, i1.grandTotal], [50, 20]);

    const r = await cancel(o.id);
    assert.equal(r.status, 201, r.text);
    assert.equal(r.body.state, 'processing');
    const after = await card.read();
    assert.equal(after.balance, 0, 'the invoice of A used the whole card');
    assert.deepEqual(
      after.history.map((h) => [h.action, h.amount]),
      [['used', -50]],
    );
    const now = await read(o.id);
    assert.equal(now.prices.giftcardAmount, 50);
    assert.equal(now.prices.totalCanceled, 30);
    assert.equal(now.prices.totalInvoiced, 20);
  });

  test('two cards and a coupon: the unused part goes back to the card applied last, the coupon use stays, a credit memo refunds the rest', async () => {
    const first = await newCard(30);
    const second = await newCard(50);
    const uses = await couponUses();
    // 60 + 30 − 9 (10 %) + 10 shipping = 91.00; the cards pay 80.00 of it
    const o = await orderAB({ giftcardCodes: [first.code, second.code], couponCode: 'WELCOME10' });
    assert.equal(o.prices.discountAmount, 9);
    assert.equal(o.prices.giftcardAmount, 80);
    assert.equal(o.prices.grandTotal, 11);
    assert.equal(await couponUses(), uses + 1);
    assert.deepEqual([(await first.read()).balance, (await second.read()).balance], [0, 0]);

    // A: 60 − 6 + 10 shipping = 64.00, all of it by card (the first card's 30.00, then 34.00 of the second)
    await invoice(o.id, { items: [{ orderItemId: lineOf(o, skuA), qty: 1 }], capture: 'offline' });
    const [i1] = await invoices(o.id);
    assert.deepEqual([i1.subtotal, i1.discountAmount, i1.shippingAmount, i1.giftcardAmount, i1.grandTotal], [60, 6, 10, 64, 0]);

    const r = await cancel(o.id);
    assert.equal(r.status, 201, r.text);
    assert.equal(r.body.items.find((i: { sku: string }) => i.sku === skuB).qtyCanceled, 1);
    assert.equal(r.body.prices.giftcardAmount, 64, "the order's card amount is what the invoices took");
    assert.equal(r.body.prices.baseGiftcardAmount, 64);
    assert.equal(r.body.prices.totalCanceled, 11);

    const a = await first.read();
    const b = await second.read();
    assert.equal(a.balance, 0);
    assert.deepEqual(
      a.history.map((h) => [h.action, h.amount]),
      [['used', -30]],
    );
    assert.equal(b.balance, 16, '80.00 on the order − 64.00 invoiced');
    assert.deepEqual(
      b.history.map((h) => [h.action, h.amount, h.orderId]),
      [
        ['refunded', 16, o.id],
        ['used', -50, o.id],
      ],
    );
    assert.equal(await couponUses(), uses + 1, 'part of the order was invoiced: the coupon use stays');

    // a credit memo of A refunds the 64.00 the cards paid for it, to the cards
    const memo = await t.req('POST', `${API}/orders/${o.id}/credit-memos`, { token: admin, body: {} });
    assert.equal(memo.status, 201, memo.text);
    assert.equal(memo.body.grandTotal, 64);
    assert.deepEqual([(await first.read()).balance, (await second.read()).balance], [30, 50]);
    const closed = await read(o.id);
    assert.equal(closed.state, 'closed');
    assert.equal(closed.prices.totalRefunded, 0, 'no cash was paid, none is refunded');
  });

  test('parallel cancels: one succeeds, the others are 409, the card is credited once', async () => {
    const card = await newCard(80);
    const o = await orderAB({ giftcardCodes: [card.code] });
    await invoice(o.id, { items: [{ orderItemId: lineOf(o, skuA), qty: 1 }], capture: 'offline' });
    const all = await Promise.all(Array.from({ length: 6 }, () => cancel(o.id)));
    assert.equal(all.filter((r) => r.status === 201).length, 1);
    assert.equal(all.filter((r) => r.status === 409).length, 5);
    const after = await card.read();
    assert.equal(after.balance, 10, '80.00 − A and shipping (70.00)');
    assert.equal(after.history.filter((h) => h.action === 'refunded').length, 1);
  });
});

describe('cancel after a partial shipment (cash on delivery)', () => {
  test('the card gets back what no invoice took; the later invoice takes none of it; the coupon use stays', async () => {
    const card = await newCard(50);
    const uses = await couponUses();
    const o = await orderAB({ giftcardCodes: [card.code], couponCode: 'WELCOME10' });
    assert.equal(o.prices.giftcardAmount, 50);
    assert.equal(o.prices.grandTotal, 41);
    const s = await t.req('POST', `${API}/orders/${o.id}/shipments`, {
      token: admin,
      body: { items: [{ orderItemId: lineOf(o, skuA), qty: 1 }] },
    });
    assert.equal(s.status, 201, s.text);
    assert.deepEqual(await invoices(o.id), [], 'cash on delivery invoices once everything is shipped');

    const r = await cancel(o.id);
    assert.equal(r.status, 201, r.text);
    assert.equal(r.body.state, 'processing');
    assert.equal(r.body.prices.giftcardAmount, 0);
    assert.equal(r.body.prices.baseGiftcardAmount, 0);
    assert.equal((await card.read()).balance, 50);
    assert.equal(await couponUses(), uses + 1, 'part of the order was shipped: the coupon use stays');

    // A is paid on delivery, in full: 60 − 6 + 10 shipping
    await invoice(o.id, { capture: 'offline' });
    const [i1] = await invoices(o.id);
    assert.deepEqual(
      [i1.subtotal, i1.discountAmount, i1.shippingAmount, i1.giftcardAmount, i1.baseGiftcardAmount, i1.grandTotal],
      [60, 6, 10, 0, 0, 64],
    );
    const now = await read(o.id);
    assert.equal(now.state, 'complete');
    assert.equal(now.prices.totalInvoiced, 64);
    assert.equal(now.prices.totalPaid, 64);
    assert.equal(now.prices.giftcardAmount, 0);
    const after = await card.read();
    assert.equal(after.balance, 50, 'the invoice took nothing of the card given back');
    assert.deepEqual(
      after.history.map((h) => [h.action, h.amount]),
      [
        ['refunded', 50],
        ['used', -50],
      ],
    );

    // a credit memo refunds the cash paid, and nothing to the card
    const memo = await t.req('POST', `${API}/orders/${o.id}/credit-memos`, { token: admin, body: {} });
    assert.equal(memo.status, 201, memo.text);
    assert.equal(memo.body.grandTotal, 64);
    assert.equal((await read(o.id)).prices.totalRefunded, 64);
    assert.equal((await card.read()).balance, 50);
  });
});

describe('cancel of an order nothing of which was invoiced or shipped', () => {
  test('every card gets back all it paid and the coupon use is released', async () => {
    const first = await newCard(30);
    const second = await newCard(50);
    const uses = await couponUses();
    const o = await orderAB({ giftcardCodes: [first.code, second.code], couponCode: 'WELCOME10' });
    assert.equal(o.prices.giftcardAmount, 80);
    assert.equal(await couponUses(), uses + 1);

    const r = await cancel(o.id);
    assert.equal(r.status, 201, r.text);
    assert.equal(r.body.state, 'canceled');
    assert.equal(r.body.prices.totalCanceled, 11);
    assert.equal(r.body.prices.giftcardAmount, 0);
    for (const [card, paid] of [
      [first, 30],
      [second, 50],
    ] as const) {
      const c = await card.read();
      assert.equal(c.balance, paid);
      assert.deepEqual(
        c.history.map((h) => [h.action, h.amount]),
        [
          ['refunded', paid],
          ['used', -paid],
        ],
      );
    }
    assert.equal(await couponUses(), uses);
    assert.equal((await cancel(o.id)).status, 409);
    assert.equal((await second.read()).balance, 50, 'given back once');
  });
});
