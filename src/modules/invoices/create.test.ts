/**
 * Creating invoices: the invoice placement makes for a capturing method, partial invoices that add up to the
 * order to the cent, shipping and gift cards on the first invoice, what is refused (and that a refusal changes
 * nothing), comments, and when the invoice mail goes out.
 * Demo setup used: US-CA 8.25 % on Taxable Goods (class 2), flat rate 5.00 per item, free shipping from
 * 100.00, coupon WELCOME10 (10 %), gift card GC-DEMO-0000-0000-0001 (50.00).
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { asc, eq, sql } from 'drizzle-orm';
import { buildTestApp, type TestApp } from '../../../test/helpers.js';
import { withTx } from '../../platform/context.js';
import { rows } from '../../platform/db.js';
import { AppError } from '../../platform/errors.js';
import { dec } from '../../platform/money.js';
import { mailOutbox } from '../../platform/tables.js';
import { createTestProduct } from '../../../test/fixtures/catalog.js';
import { placeTestOrder } from '../../../test/fixtures/checkout.js';
import { findOrder, lockOrder, setOrderState } from '../orders/core.js';
import { orderStatusHistory } from '../orders/tables.js';
import { deleteConfig, setConfig } from '../stores/service.js';
import { createInvoice, INVOICE_STATE, invoicesOfOrder, type CreateInvoiceOptions } from './service.js';
import { invoices } from './tables.js';

let t: TestApp;
let skuA: string; // 19.99, taxable
let skuB: string; // 100.00, taxable

const CA = {
  firstName: 'Ann',
  lastName: 'Lee',
  street: ['1 Main St'],
  city: 'Los Angeles',
  postcode: '90001',
  countryId: 'US',
  region: 'CA',
  telephone: '555-0100',
};

before(async () => {
  t = await buildTestApp();
  const stock = { qty: 1000, isInStock: true };
  skuA = (await createTestProduct(t, { price: 19.99, taxClassId: 2, stockData: stock })).sku;
  skuB = (await createTestProduct(t, { price: 100, taxClassId: 2, stockData: stock })).sku;
});
after(() => t.close());

/** createInvoice as the workflow calls it: in a transaction, on the locked order. */
function invoice(orderId: number, opts: CreateInvoiceOptions) {
  return withTx(t.systemCtx(), async (tx) => {
    const locked = await lockOrder(tx, orderId);
    assert.ok(locked, `order ${orderId} exists`);
    return createInvoice(tx, locked, opts);
  });
}

async function order(id: number) {
  const found = await findOrder(t.systemCtx(), id);
  assert.ok(found);
  return found;
}

const list = (orderId: number) => invoicesOfOrder(t.systemCtx(), orderId);

async function invoiceMails(to: string) {
  const all = await t.database.db.select().from(mailOutbox).where(eq(mailOutbox.template, 'sales/invoice')).orderBy(asc(mailOutbox.id));
  return all.filter((m) => m.toAddress === to);
}

/** Everything an invoice attempt could touch, to show that a refused one touched nothing. */
async function snapshot(orderId: number) {
  const [counts] = await rows<{ mails: string; history: string; seq: string | null }>(
    t.database.db,
    sql`SELECT (SELECT count(*) FROM mail_outbox)::text AS mails,
               (SELECT count(*) FROM order_status_history WHERE order_id = ${orderId})::text AS history,
               (SELECT max(last_value) FROM sales_sequences WHERE entity = 'invoice')::text AS seq`,
  );
  return { order: await order(orderId), invoices: await list(orderId), counts };
}

async function assertRefused(p: Promise<unknown>, status: number, message: RegExp) {
  await assert.rejects(p, (err: unknown) => {
    assert.ok(err instanceof AppError, String(err));
    assert.equal(err.status, status);
    assert.match(err.message, message);
    return true;
  });
}

/** Sums a money field over invoices (or their items) exactly. */
const total = <T>(rows: T[], pick: (r: T) => number) => rows.reduce((s, r) => s.add(pick(r)), dec(0)).toNumber();

describe('invoice made at placement (a shop whose check / money order captures: payment_action authorize_capture)', () => {
  before(() => setConfig(t.database.db, t.services.settings, 'payment/checkmo/payment_action', 'authorize_capture'));
  after(() => deleteConfig(t.database.db, t.services.settings, 'payment/checkmo/payment_action'));

  test('a check/money order has one paid invoice equal to the order; the order is paid, invoiced and processing', async () => {
    const o = await placeTestOrder(t, {
      items: [
        { sku: skuA, qty: 3 },
        { sku: skuB, qty: 1 },
      ],
      address: CA,
      couponCode: 'WELCOME10',
    });
    assert.equal(o.state, 'processing');
    assert.equal(o.status, 'processing');
    const p = o.prices;
    assert.ok(p.taxAmount > 0 && p.discountAmount > 0, 'the order has tax and a discount');
    assert.equal(p.totalPaid, p.grandTotal);
    assert.equal(p.totalInvoiced, p.grandTotal);
    assert.equal(p.subtotalInvoiced, p.subtotal);
    assert.equal(p.totalDue, 0);
    for (const i of o.items) assert.equal(i.qtyInvoiced, i.qtyOrdered);

    const invs = await list(o.id);
    assert.equal(invs.length, 1);
    const inv = invs[0];
    assert.equal(inv.state, INVOICE_STATE.paid);
    assert.equal(inv.stateName, 'paid');
    assert.equal(inv.orderId, o.id);
    assert.equal(inv.orderIncrementId, o.incrementId);
    assert.match(inv.incrementId, /^1\d{8}$/);
    assert.equal(inv.storeId, o.storeId);
    assert.equal(inv.currency, o.currency);
    assert.equal(inv.emailSent, true);
    assert.equal(inv.canVoidFlag, false);
    assert.equal(inv.isUsedForRefund, false);
    assert.equal(inv.discountDescription, 'WELCOME10');
    assert.equal(inv.transactionId, undefined);
    assert.deepEqual(
      {
        grandTotal: inv.grandTotal,
        subtotal: inv.subtotal,
        subtotalInclTax: inv.subtotalInclTax,
        taxAmount: inv.taxAmount,
        shippingAmount: inv.shippingAmount,
        shippingInclTax: inv.shippingInclTax,
        discountAmount: inv.discountAmount,
        giftcardAmount: inv.giftcardAmount,
        baseGrandTotal: inv.baseGrandTotal,
        baseSubtotal: inv.baseSubtotal,
        baseTaxAmount: inv.baseTaxAmount,
        baseShippingAmount: inv.baseShippingAmount,
        baseDiscountAmount: inv.baseDiscountAmount,
      },
      {
        grandTotal: p.grandTotal,
        subtotal: p.subtotal,
        subtotalInclTax: p.subtotalInclTax,
        taxAmount: p.taxAmount,
        shippingAmount: p.shippingAmount,
        shippingInclTax: p.shippingAmountInclTax,
        discountAmount: p.discountAmount,
        giftcardAmount: p.giftcardAmount,
        baseGrandTotal: p.baseGrandTotal,
        baseSubtotal: p.baseSubtotal,
        baseTaxAmount: p.baseTaxAmount,
        baseShippingAmount: p.baseShippingAmount,
        baseDiscountAmount: p.baseDiscountAmount,
      },
    );
    assert.equal(inv.totalQty, 4);
    assert.equal(inv.items.length, 2);
    for (const oi of o.items) {
      const ii = inv.items.find((i) => i.orderItemId === oi.id);
      assert.ok(ii, `item ${oi.sku} is on the invoice`);
      assert.deepEqual(
        [
          ii.sku,
          ii.name,
          ii.productId,
          ii.qty,
          ii.price,
          ii.priceInclTax,
          ii.rowTotal,
          ii.rowTotalInclTax,
          ii.taxAmount,
          ii.discountAmount,
          ii.basePrice,
          ii.baseRowTotal,
        ],
        [
          oi.sku,
          oi.name,
          oi.productId,
          oi.qtyOrdered,
          oi.price,
          oi.priceInclTax,
          oi.rowTotal,
          oi.rowTotalInclTax,
          oi.taxAmount,
          oi.discountAmount ?? 0,
          oi.basePrice,
          oi.baseRowTotal,
        ],
      );
    }
    assert.deepEqual(inv.comments, []);

    const history = await t.database.db.select().from(orderStatusHistory).where(eq(orderStatusHistory.orderId, o.id));
    const entry = history.find((h) => h.entityName === 'invoice');
    assert.ok(entry);
    assert.equal(entry.comment, `Invoice #${inv.incrementId} created`);
    assert.equal(entry.isCustomerNotified, true);
  });

  test('a cash-on-delivery order has no invoice', async () => {
    const o = await placeTestOrder(t, { paymentMethod: 'cashondelivery' });
    assert.equal(o.state, 'new');
    assert.deepEqual(await list(o.id), []);
    assert.equal((await order(o.id)).order.totalInvoiced, '0.0000');
  });

  test('an unknown order has no invoices', async () => {
    assert.deepEqual(await list(2147483647), []);
    assert.deepEqual(await list(0), []);
  });
});

describe('partial invoices', () => {
  test('one unit at a time, then the rest: every amount adds up to the order exactly, shipping and gift card on the first', async () => {
    const o = await placeTestOrder(t, {
      paymentMethod: 'cashondelivery',
      items: [
        { sku: skuA, qty: 3 },
        { sku: skuB, qty: 1 },
      ],
      address: CA,
      couponCode: 'WELCOME10',
      giftcardCodes: ['GC-DEMO-0000-0000-0001'],
      guestEmail: 'partial@example.com',
    });
    assert.equal(o.prices.giftcardAmount, 50);
    const [a, b] = [o.items.find((i) => i.sku === skuA)!, o.items.find((i) => i.sku === skuB)!];

    // 1 of A, left open: the gift card is larger than this invoice, the rest of it carries over
    const first = await invoice(o.id, { items: [{ orderItemId: a.id, qty: 1 }], capture: 'not_capture' });
    assert.equal(first.order.order.state, 'processing');
    let invs = await list(o.id);
    assert.equal(invs.length, 1);
    const i1 = invs[0];
    assert.equal(i1.id, first.invoiceId);
    assert.equal(i1.stateName, 'open');
    assert.equal(i1.items.length, 1);
    assert.equal(i1.items[0].qty, 1);
    assert.equal(i1.items[0].rowTotal, 19.99);
    assert.equal(i1.shippingAmount, o.prices.shippingAmount);
    const due1 = dec(i1.subtotal).add(i1.shippingAmount).add(i1.taxAmount).sub(i1.discountAmount);
    assert.ok(due1.lt(50), 'the first invoice is smaller than the gift card');
    assert.equal(i1.giftcardAmount, due1.toNumber());
    assert.equal(i1.grandTotal, 0);
    assert.equal(i1.grandTotal, due1.sub(i1.giftcardAmount).toNumber());
    let now = (await order(o.id)).order;
    assert.equal(now.totalPaid, '0.0000', 'an open invoice is not paid');
    assert.equal(dec(now.totalInvoiced).toNumber(), i1.grandTotal);
    assert.equal(dec(now.shippingInvoiced).toNumber(), o.prices.shippingAmount);

    // another unit of A, paid: no shipping again
    await invoice(o.id, { items: [{ orderItemId: a.id, qty: 1 }], capture: 'offline', notifyCustomer: false });
    invs = await list(o.id);
    assert.equal(invs.length, 2);
    assert.equal(invs[1].shippingAmount, 0);
    assert.equal(invs[1].stateName, 'paid');
    assert.ok(invs[1].giftcardAmount > 0, 'the rest of the gift card carries over');

    // the rest (items omitted): one A and the B
    await invoice(o.id, { capture: 'offline' });
    invs = await list(o.id);
    assert.equal(invs.length, 3);
    assert.deepEqual(
      invs[2].items.map((i) => [i.orderItemId, i.qty]),
      [
        [a.id, 1],
        [b.id, 1],
      ],
    );
    assert.deepEqual(
      invs.map((i) => i.id),
      [...invs.map((i) => i.id)].sort((x, y) => x - y),
      'oldest first',
    );
    assert.equal(new Set(invs.map((i) => i.incrementId)).size, 3);

    // the invoices add up to the order, field by field
    const p = o.prices;
    const sums = {
      subtotal: total(invs, (i) => i.subtotal),
      subtotalInclTax: total(invs, (i) => i.subtotalInclTax),
      taxAmount: total(invs, (i) => i.taxAmount),
      shippingAmount: total(invs, (i) => i.shippingAmount),
      shippingInclTax: total(invs, (i) => i.shippingInclTax),
      discountAmount: total(invs, (i) => i.discountAmount),
      giftcardAmount: total(invs, (i) => i.giftcardAmount),
      grandTotal: total(invs, (i) => i.grandTotal),
      baseSubtotal: total(invs, (i) => i.baseSubtotal),
      baseTaxAmount: total(invs, (i) => i.baseTaxAmount),
      baseDiscountAmount: total(invs, (i) => i.baseDiscountAmount),
      baseShippingAmount: total(invs, (i) => i.baseShippingAmount),
      baseGrandTotal: total(invs, (i) => i.baseGrandTotal),
    };
    assert.deepEqual(sums, {
      subtotal: p.subtotal,
      subtotalInclTax: p.subtotalInclTax,
      taxAmount: p.taxAmount,
      shippingAmount: p.shippingAmount,
      shippingInclTax: p.shippingAmountInclTax,
      discountAmount: p.discountAmount,
      giftcardAmount: p.giftcardAmount,
      grandTotal: p.grandTotal,
      baseSubtotal: p.baseSubtotal,
      baseTaxAmount: p.baseTaxAmount,
      baseDiscountAmount: p.baseDiscountAmount,
      baseShippingAmount: p.baseShippingAmount,
      baseGrandTotal: p.baseGrandTotal,
    });
    // and per item
    const lines = invs.flatMap((i) => i.items);
    for (const oi of o.items) {
      const mine = lines.filter((l) => l.orderItemId === oi.id);
      assert.equal(
        total(mine, (l) => l.qty),
        oi.qtyOrdered,
      );
      assert.equal(
        total(mine, (l) => l.rowTotal),
        oi.rowTotal,
        `${oi.sku} row total`,
      );
      assert.equal(
        total(mine, (l) => l.rowTotalInclTax),
        oi.rowTotalInclTax,
        `${oi.sku} row total incl tax`,
      );
      assert.equal(
        total(mine, (l) => l.taxAmount),
        oi.taxAmount,
        `${oi.sku} tax`,
      );
      assert.equal(
        total(mine, (l) => l.discountAmount),
        oi.discountAmount ?? 0,
        `${oi.sku} discount`,
      );
      assert.equal(
        total(mine, (l) => l.baseRowTotal),
        oi.baseRowTotal,
        `${oi.sku} base row total`,
      );
    }
    // the order's counters
    now = (await order(o.id)).order;
    const items = (await order(o.id)).items;
    assert.equal(dec(now.totalInvoiced).toNumber(), p.grandTotal);
    assert.equal(dec(now.subtotalInvoiced).toNumber(), p.subtotal);
    assert.equal(dec(now.taxInvoiced).toNumber(), p.taxAmount);
    assert.equal(dec(now.discountInvoiced).toNumber(), p.discountAmount);
    assert.equal(dec(now.shippingInvoiced).toNumber(), p.shippingAmount);
    assert.equal(dec(now.baseTotalInvoiced).toNumber(), p.baseGrandTotal);
    assert.equal(dec(now.totalPaid).toNumber(), dec(invs[1].grandTotal).add(invs[2].grandTotal).toNumber(), 'only the paid invoices');
    for (const i of items) {
      assert.equal(dec(i.qtyInvoiced).toNumber(), dec(i.qtyOrdered).toNumber());
      assert.equal(i.rowInvoiced, i.rowTotal);
      assert.equal(i.taxInvoiced, i.taxAmount);
      assert.equal(i.discountInvoiced, i.discountAmount);
    }
    assert.equal(now.state, 'processing', 'invoiced but not shipped');

    // nothing is left
    const before = await snapshot(o.id);
    await assertRefused(invoice(o.id, { capture: 'offline' }), 400, /nothing is left to invoice/);
    await assertRefused(invoice(o.id, { items: [{ orderItemId: a.id, qty: 1 }], capture: 'offline' }), 400, /only 0 of item/);
    assert.deepEqual(await snapshot(o.id), before);
  });

  test('amounts that do not divide by the quantity: each invoice is rounded, the last takes what is left', async () => {
    const p = await createTestProduct(t, { price: 3.33, taxClassId: 2, stockData: { qty: 100, isInStock: true } });
    // 3 × 3.33 = 9.99 with 8.25 % tax = 0.82 (0.824175), so 10.81 with tax: none of them divides by 3
    const o = await placeTestOrder(t, { paymentMethod: 'cashondelivery', items: [{ sku: p.sku, qty: 3 }], address: CA });
    const item = o.items[0];
    assert.deepEqual([item.rowTotal, item.taxAmount, item.rowTotalInclTax], [9.99, 0.82, 10.81]);
    for (let n = 0; n < 3; n++) await invoice(o.id, { items: [{ orderItemId: item.id, qty: 1 }], capture: 'offline' });
    const invs = await list(o.id);
    assert.deepEqual(
      invs.map((i) => [i.items[0].rowTotal, i.items[0].taxAmount, i.items[0].rowTotalInclTax]),
      [
        [3.33, 0.27, 3.6],
        [3.33, 0.28, 3.61],
        [3.33, 0.27, 3.6],
      ],
    );
    // below the free-shipping threshold: 3 × 5.00 of shipping, all on the first invoice
    assert.deepEqual(
      invs.map((i) => i.shippingAmount),
      [15, 0, 0],
    );
    assert.equal(
      total(invs, (i) => i.taxAmount),
      o.prices.taxAmount,
    );
    assert.equal(
      total(invs, (i) => i.grandTotal),
      o.prices.grandTotal,
    );
    assert.equal(dec((await order(o.id)).order.totalPaid).toNumber(), o.prices.grandTotal);
  });
});

describe('refusals change nothing', () => {
  test('more than is left, an unknown item, a duplicate, zero, negative, fractional and non-finite quantities', async () => {
    const o = await placeTestOrder(t, { paymentMethod: 'cashondelivery', items: [{ sku: skuA, qty: 2 }] });
    const id = o.items[0].id;
    const before = await snapshot(o.id);
    const cases: [CreateInvoiceOptions['items'], RegExp][] = [
      [[{ orderItemId: id, qty: 3 }], /only 2 of item .* is left to invoice, 3 asked/],
      [[{ orderItemId: 2147483647, qty: 1 }], /not on this order/],
      [[{ orderItemId: -1, qty: 1 }], /not on this order/],
      [
        [
          { orderItemId: id, qty: 1 },
          { orderItemId: id, qty: 1 },
        ],
        /more than once/,
      ],
      [[{ orderItemId: id, qty: 0 }], /must be above 0/],
      [[{ orderItemId: id, qty: -1 }], /must be above 0/],
      [[{ orderItemId: id, qty: Number.NaN }], /must be above 0/],
      [[{ orderItemId: id, qty: Number.POSITIVE_INFINITY }], /must be above 0/],
      [[{ orderItemId: id, qty: 1.5 }], /whole units/],
    ];
    for (const [items, message] of cases) {
      await assertRefused(invoice(o.id, { items, capture: 'offline' }), 400, message);
    }
    await assertRefused(invoice(o.id, { capture: 'online' as 'offline' }), 400, /Unknown capture mode/);
    // the refusals name the reason on the wire
    await assert.rejects(
      invoice(o.id, { items: [{ orderItemId: id, qty: 3 }], capture: 'offline' }),
      (e: AppError) => e.reason === 'ORDER_NOT_INVOICEABLE',
    );
    assert.deepEqual(await snapshot(o.id), before);
  });

  test('an order on hold, canceled or complete cannot be invoiced', async () => {
    for (const state of ['holded', 'canceled', 'complete', 'closed', 'payment_review'] as const) {
      const o = await placeTestOrder(t, { paymentMethod: 'cashondelivery' });
      await withTx(t.systemCtx(), async (tx) => {
        const locked = await lockOrder(tx, o.id);
        await setOrderState(tx, locked!.order, { state, status: state });
      });
      const before = await snapshot(o.id);
      await assertRefused(invoice(o.id, { capture: 'offline' }), 400, new RegExp(`cannot be invoiced: it is ${state}`));
      assert.deepEqual(await snapshot(o.id), before, state);
    }
  });
});

describe('concurrency', () => {
  test('two invoices of everything at once: one is made, the other is refused, nothing is billed twice', async () => {
    const o = await placeTestOrder(t, { paymentMethod: 'cashondelivery', items: [{ sku: skuA, qty: 2 }] });
    const results = await Promise.allSettled([invoice(o.id, { capture: 'offline' }), invoice(o.id, { capture: 'offline' })]);
    assert.deepEqual(results.map((r) => r.status).sort(), ['fulfilled', 'rejected']);
    const failed = results.find((r) => r.status === 'rejected') as PromiseRejectedResult;
    assert.ok(failed.reason instanceof AppError && failed.reason.status === 400, String(failed.reason));
    assert.equal((await list(o.id)).length, 1);
    const now = await order(o.id);
    assert.equal(dec(now.items[0].qtyInvoiced).toNumber(), 2);
    assert.equal(dec(now.order.totalPaid).toNumber(), o.prices.grandTotal);
  });
});

describe('comments and mail', () => {
  test('a comment goes on the invoice and into the history; the mail lists the items and totals', async () => {
    const o = await placeTestOrder(t, {
      paymentMethod: 'cashondelivery',
      items: [{ sku: skuB, qty: 1 }],
      guestEmail: 'mail-check@example.com',
    });
    await invoice(o.id, { capture: 'offline', comment: '  Paid at the counter  ' });
    const [inv] = await list(o.id);
    assert.equal(inv.comments.length, 1);
    assert.equal(inv.comments[0].comment, 'Paid at the counter');
    assert.equal(inv.comments[0].isCustomerNotified, true);
    assert.equal(inv.comments[0].isVisibleOnFront, false);
    const history = await t.database.db.select().from(orderStatusHistory).where(eq(orderStatusHistory.orderId, o.id));
    assert.ok(history.some((h) => h.entityName === 'invoice' && h.comment === 'Paid at the counter' && h.isCustomerNotified));

    const mails = await invoiceMails('mail-check@example.com');
    assert.equal(mails.length, 1);
    const m = mails[0];
    assert.match(m.subject, new RegExp(`Invoice #${inv.incrementId} for order #${o.incrementId}`));
    assert.match(m.textBody, new RegExp(`1 x ${o.items[0].name} \\(${skuB}\\)  100\\.00 USD`));
    assert.match(m.textBody, new RegExp(`Grand total: ${inv.grandTotal.toFixed(2)} USD`));
    assert.match(m.textBody, /Paid at the counter/);
  });

  test('no mail when sales_email/invoice/enabled is 0 or notifyCustomer is false; emailSent says so', async () => {
    const settings = t.services.settings;
    await setConfig(t.database.db, settings, 'sales_email/invoice/enabled', '0');
    try {
      const o = await placeTestOrder(t, { guestEmail: 'no-invoice-mail@example.com' });
      await invoice(o.id, { capture: 'offline' });
      const [inv] = await list(o.id);
      assert.equal(inv.emailSent, false);
      assert.equal((await invoiceMails('no-invoice-mail@example.com')).length, 0);
      const history = await t.database.db.select().from(orderStatusHistory).where(eq(orderStatusHistory.orderId, o.id));
      assert.equal(history.find((h) => h.entityName === 'invoice')?.isCustomerNotified, false);
    } finally {
      await deleteConfig(t.database.db, settings, 'sales_email/invoice/enabled');
    }
    const o = await placeTestOrder(t, { paymentMethod: 'cashondelivery', guestEmail: 'quiet@example.com' });
    await invoice(o.id, { capture: 'offline', notifyCustomer: false, comment: 'quiet' });
    const [inv] = await list(o.id);
    assert.equal(inv.emailSent, false);
    assert.equal(inv.comments[0].isCustomerNotified, false);
    assert.equal((await invoiceMails('quiet@example.com')).length, 0);
  });

  test('rows are written in one transaction: an invoice whose transaction rolls back leaves nothing', async () => {
    const o = await placeTestOrder(t, { paymentMethod: 'cashondelivery', guestEmail: 'rollback@example.com' });
    const before = await snapshot(o.id);
    await assert.rejects(
      withTx(t.systemCtx(), async (tx) => {
        const locked = await lockOrder(tx, o.id);
        await createInvoice(tx, locked!, { capture: 'offline' });
        throw new Error('the caller fails later');
      }),
      /the caller fails later/,
    );
    // the number may be gone (numbers are drawn outside the transaction on PostgreSQL); nothing else is
    const after = await snapshot(o.id);
    assert.deepEqual({ ...after, counts: { ...after.counts, seq: null } }, { ...before, counts: { ...before.counts, seq: null } });
    assert.equal((await t.database.db.select().from(invoices).where(eq(invoices.orderId, o.id))).length, 0);
  });
});
