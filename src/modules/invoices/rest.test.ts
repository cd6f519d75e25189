/**
 * Invoice routes: the lists and the PDFs under /orders/{orderId} and /customers/me/orders/{orderId}, who may
 * reach them (401, 403, 404 as the wire reference has them), bad ids, the PDF's headers and content, and the
 * invoice mail of a placed order.
 */
import assert from 'node:assert/strict';
import { execFile, execFileSync } from 'node:child_process';
import { after, before, describe, test } from 'node:test';
import { and, eq } from 'drizzle-orm';
import { API, buildTestApp, type TestApp } from '../../../test/helpers.js';
import { mailOutbox } from '../../platform/tables.js';
import { placeTestOrder } from '../../../test/fixtures/checkout.js';
import { registerCustomer } from '../customers/service.js';
import { storeNameOf } from '../orders/mail.js';
import { setConfig } from '../stores/service.js';
import type { OrderDto } from '../orders/schemas.js';

let t: TestApp;
let admin: string;
let customer: string;
let other: string;
let own: OrderDto; // the demo customer's, check/money order: invoiced
let others: OrderDto; // another customer's
let guest: OrderDto; // a guest's
let german: OrderDto; // a guest's, in store view 2 (german)
let unpaid: OrderDto; // the demo customer's, cash on delivery: no invoice yet

const invoicesUrl = (orderId: number | string) => `${API}/orders/${orderId}/invoices`;
const ownUrl = (orderId: number | string) => `${API}/customers/me/orders/${orderId}/invoices`;

function hasPdftotext(): boolean {
  try {
    execFileSync('pdftotext', ['-v'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

/** The text of a PDF, as poppler's pdftotext reads it. */
function pdfText(pdf: Buffer): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = execFile('pdftotext', ['-layout', '-', '-'], { encoding: 'utf8', maxBuffer: 10 * 1024 * 1024 }, (err, stdout) =>
      err ? reject(err) : resolve(stdout),
    );
    child.stdin!.end(pdf);
  });
}

/** A GET whose raw bytes are kept (t.req reads the body as text). */
async function getRaw(url: string, token?: string, headers: Record<string, string> = {}) {
  const res = await t.app.inject({ method: 'GET', url, headers: { ...headers, ...(token ? { authorization: `Bearer ${token}` } : {}) } });
  return { status: res.statusCode, headers: res.headers, raw: res.rawPayload, json: () => JSON.parse(res.body) };
}

before(async () => {
  t = await buildTestApp();
  // these orders are invoiced (and the invoice mailed) at placement, as a shop whose check / money order captures
  await setConfig(t.database.db, t.services.settings, 'payment/checkmo/payment_action', 'authorize_capture');
  admin = await t.tokens.admin();
  customer = await t.tokens.customer();
  await registerCustomer(t.systemCtx(), { email: 'invoice-other@example.com', password: 'Password123!', firstname: 'O', lastname: 'Ther' });
  other = await t.tokens.customer('invoice-other@example.com', 'Password123!');
  own = await placeTestOrder(t, { customerToken: customer });
  others = await placeTestOrder(t, { customerToken: other });
  guest = await placeTestOrder(t);
  german = await placeTestOrder(t, { storeId: 2 });
  unpaid = await placeTestOrder(t, { customerToken: customer, paymentMethod: 'cashondelivery' });
});
after(() => t.close());

describe('GET /orders/{orderId}/invoices', () => {
  test('admin: the whole list as a JSON-LD collection, each invoice with its items and pdfUrl', async () => {
    const r = await t.req('GET', invoicesUrl(guest.id), { token: admin });
    assert.equal(r.status, 200, r.text);
    assert.match(String(r.headers['content-type']), /^application\/ld\+json/);
    assert.equal(r.body['@type'], 'Collection');
    assert.equal(r.body['@id'], invoicesUrl(guest.id));
    assert.equal(r.body.totalItems, 1);
    assert.equal(r.body.view, undefined, 'unpaginated');
    const inv = r.body.member[0];
    assert.equal(inv.orderId, guest.id);
    assert.equal(inv.orderIncrementId, guest.incrementId);
    assert.equal(inv.state, 2);
    assert.equal(inv.stateName, 'paid');
    assert.equal(inv.grandTotal, guest.prices.grandTotal);
    assert.equal(inv.subtotal, guest.prices.subtotal);
    assert.equal(inv.shippingAmount, guest.prices.shippingAmount);
    assert.equal(inv.totalQty, 2);
    assert.equal(inv.currency, 'USD');
    assert.equal(inv.pdfUrl, `${invoicesUrl(guest.id)}/${inv.id}/pdf`);
    assert.match(inv.createdAt, /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/);
    assert.equal(inv.items.length, 1);
    assert.deepEqual(Object.keys(inv.items[0]).sort(), [
      'baseDiscountAmount',
      'basePrice',
      'basePriceInclTax',
      'baseRowTotal',
      'baseRowTotalInclTax',
      'baseTaxAmount',
      'discountAmount',
      'id',
      'name',
      'orderItemId',
      'price',
      'priceInclTax',
      'productId',
      'qty',
      'rowTotal',
      'rowTotalInclTax',
      'sku',
      'taxAmount',
    ]);
    assert.equal(inv.items[0].orderItemId, guest.items[0].id);
    assert.deepEqual(inv.comments, []);
    assert.equal('transactionId' in inv, false, 'nulls are omitted');
    assert.equal('discountDescription' in inv, false);
  });

  test('Accept: application/json gets a bare array; an order without invoices an empty list', async () => {
    const r = await t.req('GET', invoicesUrl(guest.id), { token: admin, headers: { accept: 'application/json' } });
    assert.equal(r.status, 200);
    assert.ok(Array.isArray(r.body));
    assert.equal(r.body.length, 1);
    const none = await t.req('GET', invoicesUrl(unpaid.id), { token: admin });
    assert.equal(none.status, 200);
    assert.equal(none.body.totalItems, 0);
    assert.deepEqual(none.body.member, []);
  });

  test("a customer sees the invoices of their own order; another customer's or a guest order is 403, an unknown one 404", async () => {
    const mine = await t.req('GET', invoicesUrl(own.id), { token: customer });
    assert.equal(mine.status, 200, mine.text);
    assert.equal(mine.body.totalItems, 1);
    assert.equal(mine.body.member[0].orderId, own.id);
    for (const o of [others, guest]) {
      const r = await t.req('GET', invoicesUrl(o.id), { token: customer });
      assert.equal(r.status, 403, r.text);
      assert.equal(r.body.error, 'forbidden');
    }
    const unknown = await t.req('GET', invoicesUrl(2147483647), { token: customer });
    assert.equal(unknown.status, 404);
    assert.equal(unknown.body.message, 'Order not found');
    assert.equal((await t.req('GET', invoicesUrl(2147483647), { token: admin })).status, 404);
  });

  test('anonymous 401; an API user needs invoices/read; a store-restricted token only reaches its stores', async () => {
    const anon = await t.req('GET', invoicesUrl(guest.id));
    assert.equal(anon.status, 401);
    assert.equal(anon.body.error, 'unauthorized');
    const ordersOnly = await t.tokens.apiUser(['orders/read']);
    assert.equal((await t.req('GET', invoicesUrl(guest.id), { token: ordersOnly })).status, 403);
    const writer = await t.tokens.apiUser(['invoices/write']);
    assert.equal((await t.req('GET', invoicesUrl(guest.id), { token: writer })).status, 403, 'write does not grant read');
    const reader = await t.tokens.apiUser(['invoices/read']);
    assert.equal((await t.req('GET', invoicesUrl(guest.id), { token: reader })).status, 200);
    assert.equal((await t.req('GET', invoicesUrl(german.id), { token: reader })).status, 200);

    const store1 = await t.tokens.apiUser(['invoices/read'], { allowedStoreIds: [1] });
    assert.equal((await t.req('GET', invoicesUrl(guest.id), { token: store1 })).status, 200);
    const outside = await t.req('GET', invoicesUrl(german.id), { token: store1 });
    assert.equal(outside.status, 403, outside.text);
    const store2 = await t.tokens.apiUser(['invoices/read'], { allowedStoreIds: [2] });
    assert.equal((await t.req('GET', invoicesUrl(german.id), { token: store2 })).status, 403, 'the default store is outside its stores');
    const inGerman = await t.req('GET', invoicesUrl(german.id), { token: store2, query: { store: 'german' } });
    assert.equal(inGerman.status, 200, inGerman.text);
    assert.equal(inGerman.body.member[0].currency, german.currency);
    assert.equal((await t.req('GET', invoicesUrl(guest.id), { token: store2, query: { store: 'german' } })).status, 403);
  });

  test('malformed or out-of-range order ids are 400', async () => {
    for (const id of ['0', '-1', 'abc', '1.5', '2147483648', '99999999999999999999']) {
      const r = await t.req('GET', invoicesUrl(id), { token: admin });
      assert.equal(r.status, 400, `${id}: ${r.text}`);
      assert.equal(r.body.error, 'bad_request');
    }
  });

  test('an order not invoiced yet has an empty list', async () => {
    const list = await t.req('GET', invoicesUrl(unpaid.id), { token: admin });
    assert.equal(list.status, 200, list.text);
    assert.equal(list.body.totalItems, 0);
    assert.deepEqual(list.body.member, []);
  });
});

describe('GET /customers/me/orders/{orderId}/invoices', () => {
  test("the customer's own order: the list, with pdfUrl under /customers/me", async () => {
    const r = await t.req('GET', ownUrl(own.id), { token: customer });
    assert.equal(r.status, 200, r.text);
    assert.equal(r.body['@id'], ownUrl(own.id));
    assert.equal(r.body.totalItems, 1);
    const inv = r.body.member[0];
    assert.equal(inv.pdfUrl, `${ownUrl(own.id)}/${inv.id}/pdf`);
    const none = await t.req('GET', ownUrl(unpaid.id), { token: customer });
    assert.deepEqual([none.status, none.body.totalItems], [200, 0]);
  });

  test("another customer's, a guest's or an unknown order is 404; admin and API tokens 403; anonymous 401", async () => {
    for (const id of [others.id, guest.id, 2147483647]) {
      const r = await t.req('GET', ownUrl(id), { token: customer });
      assert.equal(r.status, 404, `${id}: ${r.text}`);
      assert.equal(r.body.message, 'Order not found');
    }
    assert.equal((await t.req('GET', ownUrl(own.id), { token: admin })).status, 403);
    assert.equal((await t.req('GET', ownUrl(own.id), { token: await t.tokens.apiUser(['all']) })).status, 403);
    assert.equal((await t.req('GET', ownUrl(own.id))).status, 401);
    assert.equal((await t.req('GET', ownUrl('abc'), { token: customer })).status, 400);
  });
});

describe('invoice PDF', () => {
  async function firstInvoiceId(orderId: number): Promise<number> {
    const r = await t.req('GET', invoicesUrl(orderId), { token: admin });
    return r.body.member[0].id;
  }

  test('admin: a PDF attachment named after the invoice, not cached, showing the store, numbers, item and totals', async (tt) => {
    const list = await t.req('GET', invoicesUrl(guest.id), { token: admin });
    const inv = list.body.member[0];
    const r = await getRaw(inv.pdfUrl, admin);
    assert.equal(r.status, 200);
    assert.equal(r.headers['content-type'], 'application/pdf');
    assert.equal(r.headers['content-disposition'], `attachment; filename="invoice_${inv.incrementId}.pdf"`);
    assert.equal(r.headers['cache-control'], 'private, max-age=0, must-revalidate');
    assert.equal(r.raw.subarray(0, 5).toString('latin1'), '%PDF-');
    assert.match(r.raw.subarray(-8).toString('latin1'), /%%EOF\s*$/);

    // the same invoice gives the same bytes: the ETag holds
    const again = await getRaw(inv.pdfUrl, admin);
    assert.ok(again.raw.equals(r.raw));
    assert.equal((await getRaw(inv.pdfUrl, admin, { 'if-none-match': String(r.headers.etag) })).status, 304);

    if (!hasPdftotext()) {
      tt.skip('pdftotext is not installed');
      return;
    }
    const text = await pdfText(r.raw);
    const store = storeNameOf(t.systemCtx(), guest.storeId);
    assert.ok(text.includes(store), `store name ${store} in:\n${text}`);
    assert.ok(text.includes(inv.incrementId), 'invoice number');
    assert.ok(text.includes(guest.incrementId), 'order number');
    assert.ok(text.includes(guest.items[0].name), 'item name');
    assert.ok(text.includes(guest.items[0].sku), 'sku');
    assert.ok(text.includes(`${guest.prices.grandTotal.toFixed(2)} USD`), 'grand total with currency');
    assert.match(text, /Grand total/);
    assert.match(text, /Tess Tester/, 'the address');
    assert.match(text, /Check \/ Money order/, 'the payment method');
    assert.match(text, /Flat Rate/, 'the shipping method');
  });

  test('customers get their own invoice PDFs under both paths; others are 403 (orders) or 404 (me)', async () => {
    const id = await firstInvoiceId(own.id);
    const a = await getRaw(`${invoicesUrl(own.id)}/${id}/pdf`, customer);
    assert.equal(a.status, 200);
    assert.equal(a.headers['content-type'], 'application/pdf');
    const b = await getRaw(`${ownUrl(own.id)}/${id}/pdf`, customer);
    assert.equal(b.status, 200);
    assert.ok(a.raw.equals(b.raw));

    const foreign = await firstInvoiceId(others.id);
    assert.equal((await getRaw(`${invoicesUrl(others.id)}/${foreign}/pdf`, customer)).status, 403);
    assert.equal((await getRaw(`${ownUrl(others.id)}/${foreign}/pdf`, customer)).status, 404);
    assert.equal((await getRaw(`${ownUrl(own.id)}/${id}/pdf`, admin)).status, 403);
    assert.equal((await getRaw(`${ownUrl(own.id)}/${id}/pdf`)).status, 401);
  });

  test('an invoice not on that order, an unknown invoice and bad ids', async () => {
    const foreign = await firstInvoiceId(others.id);
    const notHere = await getRaw(`${invoicesUrl(guest.id)}/${foreign}/pdf`, admin);
    assert.equal(notHere.status, 404);
    assert.equal(notHere.json().message, 'Invoice not found');
    assert.equal((await getRaw(`${ownUrl(own.id)}/${foreign}/pdf`, customer)).status, 404);
    assert.equal((await getRaw(`${invoicesUrl(guest.id)}/2147483647/pdf`, admin)).status, 404);
    assert.equal((await getRaw(`${invoicesUrl(2147483647)}/1/pdf`, admin)).status, 404);
    for (const bad of ['0', 'x', '2147483648']) {
      assert.equal((await getRaw(`${invoicesUrl(guest.id)}/${bad}/pdf`, admin)).status, 400, bad);
    }
  });

  test('API users need invoices/read; anonymous 401', async () => {
    const id = await firstInvoiceId(guest.id);
    const url = `${invoicesUrl(guest.id)}/${id}/pdf`;
    assert.equal((await getRaw(url, await t.tokens.apiUser(['orders/read']))).status, 403);
    assert.equal((await getRaw(url, await t.tokens.apiUser(['invoices/read']))).status, 200);
    assert.equal((await getRaw(url)).status, 401);
  });
});

describe('invoice mail and OpenAPI', () => {
  test('the invoice of a placed order is mailed to the customer', async () => {
    const id = (await t.req('GET', invoicesUrl(own.id), { token: admin })).body.member[0];
    const mails = await t.database.db
      .select()
      .from(mailOutbox)
      .where(and(eq(mailOutbox.template, 'sales/invoice'), eq(mailOutbox.toAddress, 'customer@example.com')));
    const mail = mails.find((m) => m.subject.includes(`Invoice #${id.incrementId}`));
    assert.ok(mail, 'an invoice mail');
    assert.match(mail.subject, new RegExp(`for order #${own.incrementId}`));
    assert.match(mail.textBody, new RegExp(`2 x ${own.items[0].name}`));
    assert.match(mail.textBody, new RegExp(`Grand total: ${own.prices.grandTotal.toFixed(2)} USD`));
    assert.equal(id.emailSent, true);
  });

  test('every invoice route is in the OpenAPI document', async () => {
    const r = await t.req('GET', `${API}/openapi.json`);
    assert.equal(r.status, 200);
    const ops = new Set<string>();
    for (const methods of Object.values(r.body.paths as Record<string, Record<string, { operationId?: string }>>)) {
      for (const op of Object.values(methods)) if (op.operationId) ops.add(op.operationId);
    }
    for (const id of [
      'invoices.list',
      'invoices.pdf',
      'invoices.listOwn',
      'invoices.pdfOwn',
      'invoices.create',
      'invoices.capture',
      'invoices.void',
      'invoices.cancel',
    ])
      assert.ok(ops.has(id), id);
  });
});
