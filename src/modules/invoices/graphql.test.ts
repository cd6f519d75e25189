/**
 * Invoices over GraphQL: orderInvoices(orderId:) for the order's customer and the back office, and
 * myOrderInvoices(orderId:) for the customer's own orders; per access level, and bad input as 4xx errors.
 * (The PDFs are REST-only downloads.)
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { buildTestApp, type TestApp } from '../../../test/helpers.js';
import { placeInvoicedOrder } from '../../../test/fixtures/checkout.js';
import { registerCustomer } from '../customers/service.js';

let t: TestApp;
let admin: string;
let customer: string;
let other: string;
let order: Awaited<ReturnType<typeof placeInvoicedOrder>>;

const gql = (query: string, token?: string) => t.gql(query, token);

before(async () => {
  t = await buildTestApp();
  admin = await t.tokens.admin();
  customer = await t.tokens.customer();
  await registerCustomer(t.systemCtx(), {
    email: 'gql-invoice-other@example.com',
    password: 'Password123!',
    firstname: 'O',
    lastname: 'Ther',
  });
  other = await t.tokens.customer('gql-invoice-other@example.com', 'Password123!');
  order = await placeInvoicedOrder(t, { customerToken: customer });
});
after(() => t.close());

const FIELDS =
  'totalCount edges { cursor node { id _id incrementId orderId orderIncrementId grandTotal subtotal state stateName pdfUrl items comments } } pageInfo { hasNextPage }';

describe('invoices over GraphQL', () => {
  test('the order customer and the back office read orderInvoices; the customer reads myOrderInvoices', async () => {
    for (const token of [customer, admin]) {
      const r = await gql(`{ orderInvoices(orderId: ${order.id}) { ${FIELDS} } }`, token);
      assert.equal(r.errors, undefined, JSON.stringify(r.errors));
      assert.equal(r.data.orderInvoices.totalCount, 1);
      const inv = r.data.orderInvoices.edges[0].node;
      assert.equal(inv.orderId, order.id);
      assert.equal(inv.orderIncrementId, order.incrementId);
      assert.equal(inv.grandTotal, order.prices.grandTotal);
      assert.equal(inv.pdfUrl, `/api/rest/v2/orders/${order.id}/invoices/${inv._id}/pdf`);
      assert.ok(Array.isArray(inv.items) && inv.items.length > 0);
    }
    const mine = await gql(`{ myOrderInvoices(orderId: ${order.id}) { ${FIELDS} } }`, customer);
    assert.equal(mine.errors, undefined, JSON.stringify(mine.errors));
    assert.equal(
      mine.data.myOrderInvoices.edges[0].node.pdfUrl,
      `/api/rest/v2/customers/me/orders/${order.id}/invoices/${mine.data.myOrderInvoices.edges[0].node._id}/pdf`,
    );
  });

  test("another customer's order: 403 on orderInvoices, 404 on myOrderInvoices; anonymous 401; admin on myOrderInvoices 403", async () => {
    const foreign = await gql(`{ orderInvoices(orderId: ${order.id}) { totalCount } }`, other);
    assert.equal(foreign.data.orderInvoices, null);
    assert.equal(foreign.errors[0].extensions.status, 403);
    const foreignMine = await gql(`{ myOrderInvoices(orderId: ${order.id}) { totalCount } }`, other);
    assert.equal(foreignMine.data.myOrderInvoices, null);
    assert.equal(foreignMine.errors[0].extensions.status, 404);
    assert.equal((await gql(`{ orderInvoices(orderId: ${order.id}) { totalCount } }`)).errors[0].extensions.status, 401);
    assert.equal((await gql(`{ myOrderInvoices(orderId: ${order.id}) { totalCount } }`, admin)).errors[0].extensions.status, 403);
  });

  test('bad input: an out-of-range order id is a 400, an unknown one a 404, a wrong type a validation error', async () => {
    assert.equal((await gql('{ orderInvoices(orderId: 0) { totalCount } }', admin)).errors[0].extensions.status, 400);
    assert.equal((await gql('{ orderInvoices(orderId: 99999999) { totalCount } }', admin)).errors[0].extensions.status, 404);
    assert.equal(
      (await gql('{ orderInvoices(orderId: "x") { totalCount } }', admin)).errors[0].extensions.code,
      'GRAPHQL_VALIDATION_FAILED',
    );
  });
});
