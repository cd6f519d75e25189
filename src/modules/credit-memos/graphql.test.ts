/**
 * Credit memos over GraphQL: creditMemo(id: IRI), the creditMemos connection (admin, cursor paging),
 * orderCreditMemos, createCreditMemo with `input` and a `{ creditMemo }` payload; per access level, bad input.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { buildTestApp, type TestApp } from '../../../test/helpers.js';
import { placeInvoicedOrder } from '../../../test/fixtures/checkout.js';

let t: TestApp;
let admin: string;
let customer: string;
let reader: string;

const gql = (query: string, token?: string, variables?: Record<string, unknown>) => t.gql(query, token, variables);

before(async () => {
  t = await buildTestApp();
  admin = await t.tokens.admin();
  customer = await t.tokens.customer();
  reader = await t.tokens.apiUser(['credit-memos/read']);
});
after(() => t.close());

async function refund(orderId: number, extra = '') {
  const r = await gql(
    `mutation { createCreditMemo(input: {orderId: ${orderId}${extra}}) { creditMemo { id _id incrementId state grandTotal orderId items } } }`,
    admin,
  );
  assert.equal(r.errors, undefined, JSON.stringify(r.errors));
  return r.data.createCreditMemo.creditMemo;
}

describe('credit memos over GraphQL', () => {
  test('createCreditMemo, creditMemo by IRI, orderCreditMemos', async () => {
    const o = await placeInvoicedOrder(t);
    const m = await refund(o.id, `, items: [{orderItemId: ${o.items[0].id}, qty: 1}], comment: "part", offlineRefund: true`);
    assert.equal(m.id, `/api/rest/v2/credit-memos/${m._id}`);
    assert.equal(m.state, 'refunded');
    assert.equal(m.grandTotal, 20);
    const one = await gql(`{ creditMemo(id: "${m.id}") { _id incrementId orderIncrementId comment comments } }`, reader);
    assert.equal(one.data.creditMemo.incrementId, m.incrementId);
    assert.equal(one.data.creditMemo.orderIncrementId, o.incrementId);
    const list = await gql(`{ orderCreditMemos(orderId: ${o.id}) { totalCount edges { node { _id } } } }`, reader);
    assert.deepEqual(list.data.orderCreditMemos, { totalCount: 1, edges: [{ node: { _id: m._id } }] });
  });

  test('the creditMemos connection lists every credit memo for an admin, newest first, with cursor paging', async () => {
    const a = await refund((await placeInvoicedOrder(t)).id);
    const b = await refund((await placeInvoicedOrder(t)).id);
    const r = await gql('{ creditMemos(first: 1) { totalCount edges { node { _id } } pageInfo { hasNextPage endCursor } } }', reader);
    assert.equal(r.errors, undefined, JSON.stringify(r.errors));
    assert.ok(r.data.creditMemos.totalCount >= 2);
    assert.equal(r.data.creditMemos.edges[0].node._id, b._id);
    const next = await gql(
      `{ creditMemos(first: 1, after: "${r.data.creditMemos.pageInfo.endCursor}") { edges { node { _id } } } }`,
      reader,
    );
    assert.equal(next.data.creditMemos.edges[0].node._id, a._id);
  });

  test('access: customers get an error, anonymous 401, a read grant may not refund', async () => {
    const o = await placeInvoicedOrder(t, { customerToken: customer });
    const cust = await gql('{ creditMemos { totalCount } }', customer);
    assert.equal(cust.data.creditMemos, null);
    assert.equal(cust.errors[0].extensions.status, 403);
    assert.equal((await gql(`{ orderCreditMemos(orderId: ${o.id}) { totalCount } }`)).errors[0].extensions.status, 401);
    const ro = await gql(`mutation { createCreditMemo(input: {orderId: ${o.id}}) { creditMemo { _id } } }`, reader);
    assert.equal(ro.data.createCreditMemo, null);
    assert.equal(ro.errors[0].extensions.status, 403);
  });

  test('bad input: unknown ids 404, a bad qty or adjustment 400, a bad cursor 400', async () => {
    assert.equal((await gql('{ creditMemo(id: 99999999) { _id } }', admin)).errors[0].extensions.status, 404);
    assert.equal((await gql('{ orderCreditMemos(orderId: 99999999) { totalCount } }', admin)).errors[0].extensions.status, 404);
    const o = await placeInvoicedOrder(t);
    const zero = await gql(
      `mutation { createCreditMemo(input: {orderId: ${o.id}, items: [{orderItemId: ${o.items[0].id}, qty: 0}]}) { creditMemo { _id } } }`,
      admin,
    );
    assert.equal(zero.errors[0].extensions.status, 400);
    const neg = await gql(`mutation { createCreditMemo(input: {orderId: ${o.id}, adjustmentNegative: -1}) { creditMemo { _id } } }`, admin);
    assert.equal(neg.errors[0].extensions.status, 400);
    const badItems = await gql(`mutation { createCreditMemo(input: {orderId: ${o.id}, items: "all"}) { creditMemo { _id } } }`, admin);
    assert.equal(badItems.errors[0].extensions.status, 400);
    assert.equal((await gql('{ creditMemos(after: "nope") { totalCount } }', admin)).errors[0].extensions.status, 400);
  });
});
