/**
 * GET /invoices (every invoice: filters, search, sort, paging, store scope, cost) and GET /invoices/{id}, over REST
 * and GraphQL (`invoices` connection, `invoice(id:)`), per access level, with bad input.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { API, buildTestApp, type Res, type TestApp } from '../../../test/helpers.js';
import { createTestProduct } from '../../../test/fixtures/catalog.js';
import { invoiceOrder, placeTestOrder, TEST_ADDRESS } from '../../../test/fixtures/checkout.js';
import { countStatements } from '../../platform/db.js';
import type { OrderDto } from '../orders/schemas.js';
import type { InvoiceDto } from './schemas.js';

let t: TestApp;
let admin: string;
/** Ann's order (qty 1: 15.00), invoiced paid */
let annOrder: OrderDto;
let ann: InvoiceDto;
/** Bob's order (qty 3), invoiced in two: one unit paid, then two left open (not captured) */
let bobOrder: OrderDto;
let bobPaid: InvoiceDto;
let bobOpen: InvoiceDto;
/** Cleo's order in store view 2 (qty 2), invoiced and then canceled */
let cleoOrder: OrderDto;
let cleo: InvoiceDto;

async function order(first: string, email: string, qty: number, storeId?: number): Promise<OrderDto> {
  const p = await createTestProduct(t, { price: 10, stockData: { qty: 100, isInStock: true } });
  return placeTestOrder(t, {
    items: [{ sku: p.sku as string, qty }],
    address: { ...TEST_ADDRESS, firstName: first, lastName: 'Invoiced' },
    guestEmail: email,
    storeId,
  });
}

function ok(r: Res, status = 200): Res {
  assert.equal(r.status, status, r.text);
  return r;
}

function assertError(r: Res, status: number) {
  assert.equal(r.status, status, r.text);
  assert.equal(typeof r.body.error, 'string', r.text);
}

before(async () => {
  t = await buildTestApp();
  admin = await t.tokens.admin();
  annOrder = await order('Ann', 'ann@example.com', 1);
  ann = await invoiceOrder(t, annOrder.id);
  bobOrder = await order('Bob', 'bob@example.org', 3);
  bobPaid = await invoiceOrder(t, bobOrder.id, { items: [{ orderItemId: bobOrder.items[0].id, qty: 1 }] });
  bobOpen = await invoiceOrder(t, bobOrder.id, { capture: 'not_capture' });
  cleoOrder = await order('Cleo', 'cleo@example.com', 2, 2);
  cleo = await invoiceOrder(t, cleoOrder.id, { capture: 'not_capture' });
  ok(await t.req('POST', `${API}/invoices/${cleo.id}/cancel`, { token: admin, body: {} }), 201);
});
after(() => t.close());

const list = (query: Record<string, string> = {}, token = admin) => t.req('GET', `${API}/invoices`, { token, query });
const ids = async (query: Record<string, string> = {}, token = admin) =>
  (ok(await list(query, token)).body.member as InvoiceDto[]).map((i) => i.id);

describe('GET /invoices', () => {
  test('every invoice, newest first, with its order number, items, comments and PDF path', async () => {
    const r = ok(await list());
    assert.equal(r.body['@type'], 'Collection');
    assert.equal(r.body.totalItems, 4);
    const rows = r.body.member as InvoiceDto[];
    assert.deepEqual(
      rows.map((i) => i.id),
      [cleo.id, bobOpen.id, bobPaid.id, ann.id],
    );
    const first = rows.find((i) => i.id === bobPaid.id)!;
    assert.equal(first.orderIncrementId, bobOrder.incrementId);
    assert.equal(first.incrementId, bobPaid.incrementId);
    assert.equal(first.stateName, 'paid');
    assert.equal(first.items.length, 1);
    assert.equal(first.items[0].qty, 1);
    assert.equal(first.pdfUrl, `${API}/orders/${bobOrder.id}/invoices/${bobPaid.id}/pdf`);
    const pdf = await t.req('GET', first.pdfUrl!, { token: admin });
    assert.equal(pdf.status, 200);
    assert.match(String(pdf.headers['content-type']), /application\/pdf/);
  });

  test('paging: itemsPerPage (alias pageSize) and page', async () => {
    const p1 = ok(await list({ itemsPerPage: '3' }));
    assert.equal(p1.body.member.length, 3);
    assert.equal(p1.body.totalItems, 4);
    assert.deepEqual(await ids({ pageSize: '3', page: '2' }), [ann.id]);
    assert.deepEqual(await ids({ page: '5' }), []);
  });

  test('filters: invoice number, order id, order number, state, store view, dates', async () => {
    assert.deepEqual(await ids({ incrementId: bobOpen.incrementId }), [bobOpen.id]);
    assert.deepEqual(await ids({ orderId: String(bobOrder.id) }), [bobOpen.id, bobPaid.id]);
    assert.deepEqual(await ids({ orderIncrementId: annOrder.incrementId }), [ann.id]);
    assert.deepEqual(await ids({ orderIncrementId: 'no-such-order' }), []);
    assert.deepEqual(await ids({ state: 'paid' }), [bobPaid.id, ann.id]);
    assert.deepEqual(await ids({ state: 'open' }), [bobOpen.id]);
    assert.deepEqual(await ids({ state: 'canceled' }), [cleo.id]);
    assert.deepEqual(await ids({ storeId: '2' }), [cleo.id]);
    const today = new Date().toISOString().slice(0, 10);
    assert.equal(ok(await list({ createdFrom: today, createdTo: today })).body.totalItems, 4);
    assert.equal(ok(await list({ createdTo: '2001-01-01' })).body.totalItems, 0);
  });

  test("search: part of the invoice number, or the order's number, customer email or name", async () => {
    assert.deepEqual(await ids({ search: bobOpen.incrementId }), [bobOpen.id]);
    assert.deepEqual(await ids({ search: annOrder.incrementId }), [ann.id]);
    assert.deepEqual(await ids({ search: 'EXAMPLE.ORG' }), [bobOpen.id, bobPaid.id]);
    assert.deepEqual(await ids({ search: 'cleo invoiced' }), [cleo.id]);
    assert.deepEqual(await ids({ search: 'ann', state: 'paid' }), [ann.id]);
    assert.deepEqual(await ids({ search: '%' }), []);
  });

  test('sort: grand total, number and state, both ways; pages of a sorted list do not overlap', async () => {
    // grand totals: Ann 15, Bob's paid unit 15 (with all the shipping: 10 + 15), Bob's open two 20, Cleo's 30
    const totals = (q: Record<string, string>) => list(q).then((r) => (r.body.member as InvoiceDto[]).map((i) => i.grandTotal));
    const asc = await totals({ sortBy: 'grandTotal', sortDir: 'asc' });
    assert.deepEqual(
      asc,
      [...asc].sort((a, b) => a - b),
    );
    assert.deepEqual(await totals({ sortBy: 'grandTotal', sortDir: 'desc' }), [...asc].reverse());
    const numbers = (ok(await list({ sortBy: 'incrementId', sortDir: 'asc' })).body.member as InvoiceDto[]).map((i) => i.incrementId);
    assert.deepEqual(numbers, [...numbers].sort());
    // open (1), paid (2), canceled (3)
    assert.deepEqual(await ids({ sortBy: 'state', sortDir: 'asc' }), [bobOpen.id, ann.id, bobPaid.id, cleo.id]);
    assert.deepEqual(await ids({ sortBy: 'createdAt', sortDir: 'asc' }), [ann.id, bobPaid.id, bobOpen.id, cleo.id]);
    const seen: number[] = [];
    for (let page = 1; page <= 4; page++)
      seen.push(...(await ids({ sortBy: 'state', sortDir: 'desc', itemsPerPage: '1', page: String(page) })));
    assert.deepEqual(seen, [cleo.id, bobPaid.id, ann.id, bobOpen.id]);
  });

  test('access: anonymous 401, a customer and another grant 403, invoices/read 200', async () => {
    assertError(await t.req('GET', `${API}/invoices`), 401);
    assertError(await list({}, await t.tokens.customer()), 403);
    assertError(await list({}, await t.tokens.apiUser(['orders/read'])), 403);
    assert.equal(ok(await list({}, await t.tokens.apiUser(['invoices/read']))).body.totalItems, 4);
  });

  test('a token limited to store view 1 lists only its invoices, and finds nothing of store view 2', async () => {
    const scoped = await t.tokens.apiUser(['invoices/read'], { allowedStoreIds: [1] });
    assert.deepEqual(await ids({}, scoped), [bobOpen.id, bobPaid.id, ann.id]);
    assert.deepEqual(await ids({ storeId: '2' }, scoped), []);
    assert.deepEqual(await ids({ search: 'cleo' }, scoped), []);
  });

  test('bad input is a 400 naming the field: state, sort, order id, date, page', async () => {
    for (const [field, value] of [
      ['state', 'paid-ish'],
      ['sortBy', 'customer'],
      ['sortDir', 'sideways'],
      ['orderId', 'abc'],
      ['orderId', '0'],
      ['createdFrom', '2024-13-45'],
      ['page', 'x'],
      ['search', 'x'.repeat(256)],
    ]) {
      const r = await list({ [field]: value });
      assertError(r, 400);
      assert.match(r.text, new RegExp(field), `${field}=${value}: ${r.text}`);
    }
  });

  test('a page reads in four statements (besides the token) whatever its size', async () => {
    const measure = async (query: Record<string, string>) => {
      const { n, result } = await countStatements(() => list(query));
      ok(result);
      return { n, found: result.body.member.length as number };
    };
    const one = await measure({ itemsPerPage: '1' });
    const all = await measure({ itemsPerPage: '100', search: 'invoiced', sortBy: 'grandTotal' });
    assert.equal(one.found, 1);
    assert.equal(all.found, 4);
    assert.equal(all.n, one.n);
    assert.ok(all.n <= 5, `${all.n} statements`);
  });
});

describe('GET /invoices/{id}', () => {
  test('one invoice with its items, comments, order number and PDF path', async () => {
    const r = ok(await t.req('GET', `${API}/invoices/${bobOpen.id}`, { token: await t.tokens.apiUser(['invoices/read']) }));
    assert.equal(r.body.id, bobOpen.id);
    assert.equal(r.body.orderId, bobOrder.id);
    assert.equal(r.body.orderIncrementId, bobOrder.incrementId);
    assert.equal(r.body.stateName, 'open');
    assert.deepEqual(
      r.body.items.map((i: { qty: number }) => i.qty),
      [2],
    );
    assert.equal(r.body.pdfUrl, `${API}/orders/${bobOrder.id}/invoices/${bobOpen.id}/pdf`);
  });

  test('access: anonymous 401, customer 403, another store view 403; missing 404; a bad id 400', async () => {
    assertError(await t.req('GET', `${API}/invoices/${ann.id}`), 401);
    assertError(await t.req('GET', `${API}/invoices/${ann.id}`, { token: await t.tokens.customer() }), 403);
    const scoped = await t.tokens.apiUser(['invoices/read'], { allowedStoreIds: [1] });
    assertError(await t.req('GET', `${API}/invoices/${cleo.id}`, { token: scoped }), 403);
    ok(await t.req('GET', `${API}/invoices/${ann.id}`, { token: scoped }));
    assertError(await t.req('GET', `${API}/invoices/99999999`, { token: admin }), 404);
    assertError(await t.req('GET', `${API}/invoices/abc`, { token: admin }), 400);
    assertError(await t.req('GET', `${API}/invoices/0`, { token: admin }), 400);
  });
});

describe('invoices over GraphQL', () => {
  test('the invoices connection takes the filters and the sort; invoice(id:) reads one by IRI', async () => {
    const reader = await t.tokens.apiUser(['invoices/read']);
    const r = await t.gql(
      `{ invoices(state: "paid", sortBy: "grandTotal", sortDir: "asc", first: 10) { totalCount edges { node { id _id incrementId orderIncrementId } } } }`,
      reader,
    );
    assert.equal(r.errors, undefined, JSON.stringify(r.errors));
    assert.equal(r.data.invoices.totalCount, 2);
    const node = r.data.invoices.edges.find((e: { node: { _id: number } }) => e.node._id === ann.id).node;
    assert.equal(node.id, `${API}/invoices/${ann.id}`);
    assert.equal(node.orderIncrementId, annOrder.incrementId);
    const one = await t.gql(`{ invoice(id: "${node.id}") { _id incrementId stateName items } }`, reader);
    assert.equal(one.errors, undefined, JSON.stringify(one.errors));
    assert.equal(one.data.invoice.incrementId, ann.incrementId);
    const searched = await t.gql(`{ invoices(search: "cleo") { totalCount } }`, reader);
    assert.equal(searched.data.invoices.totalCount, 1);
    const cust = await t.gql('{ invoices { totalCount } }', await t.tokens.customer());
    assert.equal(cust.errors[0].extensions.status, 403);
    const bad = await t.gql('{ invoices(state: "nope") { totalCount } }', reader);
    assert.equal(bad.errors[0].extensions.status, 400);
  });
});
