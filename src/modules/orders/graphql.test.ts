/**
 * Orders over GraphQL, as Maho's clients use them: order(id: IRI), the orders connection with its filters and
 * cursor paging, customerOrders, guestOrder (one-time token), and the lifecycle mutations with `input` and an
 * `{ order }` payload; per access level, and bad input as 4xx errors.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { buildTestApp, type TestApp } from '../../../test/helpers.js';
import { placeInvoicedOrder, placeTestOrder } from '../../../test/fixtures/checkout.js';
import { registerCustomer } from '../customers/service.js';

let t: TestApp;
let admin: string;
let customer: string;
let other: string;
let reader: string;
let mine: Awaited<ReturnType<typeof placeTestOrder>>;
let guest: Awaited<ReturnType<typeof placeTestOrder>>;

const gql = (query: string, token?: string, variables?: Record<string, unknown>) => t.gql(query, token, variables);

before(async () => {
  t = await buildTestApp();
  admin = await t.tokens.admin();
  customer = await t.tokens.customer();
  reader = await t.tokens.apiUser(['orders/read']);
  await registerCustomer(t.systemCtx(), {
    email: 'gql-orders-other@example.com',
    password: 'Password123!',
    firstname: 'O',
    lastname: 'Ther',
  });
  other = await t.tokens.customer('gql-orders-other@example.com', 'Password123!');
  mine = await placeTestOrder(t, { customerToken: customer, paymentMethod: 'cashondelivery' });
  await placeInvoicedOrder(t, { customerToken: customer });
  guest = await placeTestOrder(t, { guestEmail: 'gql-orders-guest@example.com', paymentMethod: 'cashondelivery' });
});
after(() => t.close());

const NODE = 'id _id incrementId status state customerEmail customerIsGuest prices items statusHistory shipments createdAt';

describe('order(id)', () => {
  test('the owner reads it by IRI or number; prices and items are the REST JSON', async () => {
    const r = await gql(`{ order(id: "/api/rest/v2/orders/${mine.id}") { ${NODE} } }`, customer);
    assert.equal(r.errors, undefined, JSON.stringify(r.errors));
    const o = r.data.order;
    assert.equal(o.id, `/api/rest/v2/orders/${mine.id}`);
    assert.equal(o._id, mine.id);
    assert.equal(o.incrementId, mine.incrementId);
    assert.equal(o.customerIsGuest, false);
    assert.equal(o.prices.grandTotal, mine.prices.grandTotal);
    assert.equal(o.items[0].sku, mine.items[0].sku);
    assert.ok(Array.isArray(o.statusHistory));
    const byNumber = await gql(`{ order(id: ${mine.id}) { _id } }`, admin);
    assert.equal(byNumber.data.order._id, mine.id);
  });

  test("another customer's order, an unknown id or another resource's IRI is null with a 404", async () => {
    for (const [id, token] of [
      [`"/api/rest/v2/orders/${mine.id}"`, other],
      ['999999', admin],
      [`"/api/rest/v2/products/${mine.id}"`, admin],
    ] as const) {
      const r = await gql(`{ order(id: ${id}) { _id } }`, token);
      assert.equal(r.data.order, null, id);
      assert.equal(r.errors[0].extensions.status, 404, id);
    }
  });

  test('anonymous: 401', async () => {
    const r = await gql(`{ order(id: ${mine.id}) { _id } }`);
    assert.equal(r.data.order, null);
    assert.equal(r.errors[0].extensions.status, 401);
  });
});

describe('orders connection (admin)', () => {
  test('filters, totalCount and cursor paging', async () => {
    const all = await gql(
      '{ orders(first: 2) { totalCount edges { cursor node { _id incrementId } } pageInfo { hasNextPage hasPreviousPage endCursor } } }',
      reader,
    );
    assert.equal(all.errors, undefined, JSON.stringify(all.errors));
    const c = all.data.orders;
    assert.ok(c.totalCount >= 3);
    assert.equal(c.edges.length, 2);
    assert.equal(c.pageInfo.hasNextPage, true);
    assert.equal(c.pageInfo.hasPreviousPage, false);
    const next = await gql(
      `{ orders(first: 2, after: "${c.pageInfo.endCursor}") { edges { node { _id } } pageInfo { hasPreviousPage } } }`,
      reader,
    );
    assert.equal(next.data.orders.pageInfo.hasPreviousPage, true);
    const seen = new Set(c.edges.map((e: any) => e.node._id));
    for (const e of next.data.orders.edges) assert.ok(!seen.has(e.node._id), 'pages do not overlap');

    const byEmail = await gql(
      '{ orders(email: "gql-orders-guest@example.com") { totalCount edges { node { _id customerEmail } } } }',
      admin,
    );
    assert.equal(byEmail.data.orders.totalCount, 1);
    assert.equal(byEmail.data.orders.edges[0].node._id, guest.id);
    const byNumber = await gql(`{ orders(incrementId: "${mine.incrementId}") { edges { node { _id } } } }`, admin);
    assert.deepEqual(
      byNumber.data.orders.edges.map((e: any) => e.node._id),
      [mine.id],
    );
    const byStatus = await gql('{ orders(status: "pending", pageSize: 100) { edges { node { status } } } }', admin);
    assert.ok(byStatus.data.orders.edges.length >= 2);
    assert.ok(byStatus.data.orders.edges.every((e: any) => e.node.status === 'pending'));
  });

  test('a customer gets 403, anonymous 401; a bad filter is a 400', async () => {
    const cust = await gql('{ orders { totalCount } }', customer);
    assert.equal(cust.data.orders, null);
    assert.equal(cust.errors[0].extensions.status, 403);
    assert.equal((await gql('{ orders { totalCount } }')).errors[0].extensions.status, 401);
    const bad = await gql('{ orders(customerId: 0) { totalCount } }', admin);
    assert.equal(bad.errors[0].extensions.status, 400);
    const badCursor = await gql('{ orders(after: "nope") { totalCount } }', admin);
    assert.equal(badCursor.errors[0].extensions.status, 400);
  });
});

describe('customerOrders', () => {
  test("the customer's own orders only, with the status filter and paging", async () => {
    const r = await gql(
      '{ customerOrders(pageSize: 5) { totalCount edges { node { id _id incrementId status prices createdAt } } } }',
      customer,
    );
    assert.equal(r.errors, undefined, JSON.stringify(r.errors));
    assert.equal(r.data.customerOrders.totalCount, 2);
    assert.ok(r.data.customerOrders.edges.every((e: any) => e.node.id.startsWith('/api/rest/v2/orders/')));
    assert.ok(!r.data.customerOrders.edges.some((e: any) => e.node._id === guest.id));
    const pending = await gql('{ customerOrders(status: "pending") { totalCount } }', customer);
    assert.equal(pending.data.customerOrders.totalCount, 1);
    const paged = await gql('{ customerOrders(first: 1) { edges { node { _id } } pageInfo { hasNextPage } } }', customer);
    assert.equal(paged.data.customerOrders.edges.length, 1);
    assert.equal(paged.data.customerOrders.pageInfo.hasNextPage, true);
    assert.equal((await gql('{ customerOrders { totalCount } }', other)).data.customerOrders.totalCount, 0);
  });

  test('anonymous 401, an admin token 403', async () => {
    assert.equal((await gql('{ customerOrders { totalCount } }')).errors[0].extensions.status, 401);
    assert.equal((await gql('{ customerOrders { totalCount } }', admin)).errors[0].extensions.status, 403);
  });
});

describe('guestOrder', () => {
  test('answers once for the token; a wrong one is a 404', async () => {
    const o = await placeTestOrder(t, { guestEmail: 'gql-orders-once@example.com' });
    const q =
      'query($n: String!, $t: String!) { guestOrder(incrementId: $n, accessToken: $t) { id _id incrementId customerEmail customerIsGuest } }';
    const wrong = await gql(q, undefined, { n: o.incrementId, t: 'a'.repeat(64) });
    assert.equal(wrong.data.guestOrder, null);
    assert.equal(wrong.errors[0].extensions.status, 404);
    const r = await gql(q, undefined, { n: o.incrementId, t: o.accessToken });
    assert.equal(r.errors, undefined, JSON.stringify(r.errors));
    assert.equal(r.data.guestOrder._id, o.id);
    assert.equal(r.data.guestOrder.customerIsGuest, true);
    const again = await gql(q, undefined, { n: o.incrementId, t: o.accessToken });
    assert.equal(again.errors[0].extensions.status, 404);
    const missing = await gql('{ guestOrder(incrementId: "1") { _id } }');
    assert.equal(missing.errors[0].extensions.code, 'GRAPHQL_VALIDATION_FAILED');
  });
});

describe('lifecycle mutations', () => {
  test('hold and unhold by IRI, comment by number, cancel by orderId; payload { order clientMutationId }', async () => {
    const o = await placeTestOrder(t, { paymentMethod: 'cashondelivery' });
    const held = await gql(
      `mutation { holdOrder(input: {id: "/api/rest/v2/orders/${o.id}", reason: "why", clientMutationId: "h1"}) { clientMutationId order { _id state holdBeforeState } } }`,
      admin,
    );
    assert.equal(held.errors, undefined, JSON.stringify(held.errors));
    assert.equal(held.data.holdOrder.clientMutationId, 'h1');
    assert.equal(held.data.holdOrder.order.state, 'holded');
    const un = await gql(`mutation { unholdOrder(input: {id: "/api/rest/v2/orders/${o.id}"}) { order { state status } } }`, admin);
    assert.deepEqual(un.data.unholdOrder.order, { state: 'new', status: 'pending' });
    const note = await gql(
      `mutation { addCommentOrder(input: {incrementId: "${o.incrementId}", comment: "hi", visibleOnFront: true}) { order { statusHistory } } }`,
      admin,
    );
    assert.equal(note.errors, undefined, JSON.stringify(note.errors));
    assert.equal(note.data.addCommentOrder.order.statusHistory[0].note, 'hi');
    const x = await gql(`mutation { cancelOrder(input: {orderId: ${o.id}, reason: "r"}) { order { id state } } }`, admin);
    assert.equal(x.data.cancelOrder.order.state, 'canceled');
    assert.equal(x.data.cancelOrder.order.id, `/api/rest/v2/orders/${o.id}`);
  });

  test('a customer cancels their own order only (another customer: null with 404); may not hold', async () => {
    const o = await placeTestOrder(t, { customerToken: customer, paymentMethod: 'cashondelivery' });
    const foreign = await gql(`mutation { cancelOrder(input: {incrementId: "${o.incrementId}"}) { order { _id } } }`, other);
    assert.equal(foreign.data.cancelOrder, null);
    assert.equal(foreign.errors[0].extensions.status, 404);
    assert.equal(
      (await gql(`mutation { holdOrder(input: {orderId: ${o.id}}) { order { _id } } }`, customer)).errors[0].extensions.status,
      403,
    );
    assert.equal(
      (await gql(`mutation { holdOrder(input: {orderId: ${o.id}}) { order { _id } } }`, reader)).errors[0].extensions.status,
      403,
    );
    assert.equal((await gql(`mutation { holdOrder(input: {orderId: ${o.id}}) { order { _id } } }`)).errors[0].extensions.status, 401);
    const own = await gql(`mutation { cancelOrder(input: {orderId: ${o.id}}) { order { state } } }`, customer);
    assert.equal(own.data.cancelOrder.order.state, 'canceled');
  });

  test('bad input: no order reference, a bad id, a long reason, an unknown number, a missing comment', async () => {
    const o = await placeTestOrder(t, { paymentMethod: 'cashondelivery' });
    const none = await gql('mutation { holdOrder(input: {reason: "x"}) { order { _id } } }', admin);
    assert.equal(none.errors[0].extensions.status, 400);
    const zero = await gql('mutation { holdOrder(input: {orderId: 0}) { order { _id } } }', admin);
    assert.equal(zero.errors[0].extensions.status, 400);
    const foreignIri = await gql(`mutation { holdOrder(input: {id: "/api/rest/v2/products/${o.id}"}) { order { _id } } }`, admin);
    assert.equal(foreignIri.errors[0].extensions.status, 404);
    const long = await gql(`mutation { holdOrder(input: {orderId: ${o.id}, reason: "${'x'.repeat(1001)}"}) { order { _id } } }`, admin);
    assert.equal(long.errors[0].extensions.status, 400);
    const unknown = await gql('mutation { cancelOrder(input: {incrementId: "nope"}) { order { _id } } }', admin);
    assert.equal(unknown.errors[0].extensions.status, 404);
    const noComment = await gql(`mutation { addCommentOrder(input: {orderId: ${o.id}}) { order { _id } } }`, admin);
    assert.equal(noComment.errors[0].extensions.code, 'GRAPHQL_VALIDATION_FAILED');
    // orderId is an ID, as in Maho: a string that names no order is not found; a list is not an ID at all
    const notAnId = await gql('mutation { holdOrder(input: {orderId: "x"}) { order { _id } } }', admin);
    assert.equal(notAnId.data!.holdOrder, null);
    assert.equal(notAnId.errors[0].extensions.status, 404);
    const wrongType = await gql('mutation { holdOrder(input: {orderId: [1]}) { order { _id } } }', admin);
    assert.equal(wrongType.errors[0].extensions.code, 'GRAPHQL_VALIDATION_FAILED');
  });
});
