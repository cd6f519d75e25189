/**
 * Revocation declarations over GraphQL: submitRevocationRequest and the spec's submitRevocation (input and
 * payload), myRevocationRequests (a paginated connection), revocationRequest(id) for the owner or an admin,
 * revocationRequests with its filters, updateRevocationRequest; per access level, and bad input.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { API, buildTestApp, type TestApp } from '../../../test/helpers.js';
import { placeTestOrder } from '../../../test/fixtures/checkout.js';

let t: TestApp;
let admin: string;
let reader: string;
let seq = 0;

const gql = (query: string, token?: string, variables?: Record<string, unknown>) => t.gql(query, token, variables);
const IRI = (id: number) => `/api/rest/v2/revocation-requests/${id}`;

async function newCustomer(): Promise<{ email: string; token: string }> {
  const email = `gql-rv${++seq}@example.com`;
  const r = await t.req('POST', `${API}/customers`, { body: { email, password: 'Secret123', firstname: 'Rita', lastname: 'Revoker' } });
  assert.equal(r.status, 201, r.text);
  return { email, token: await t.tokens.customer(email, 'Secret123') };
}

before(async () => {
  t = await buildTestApp();
  admin = await t.tokens.admin();
  reader = await t.tokens.apiUser(['revocation-requests/read']);
});
after(() => t.close());

describe('revocation over GraphQL', () => {
  test('both mutation names submit; myRevocationRequests pages with cursors; another customer sees none of it', async () => {
    const c = await newCustomer();
    const ids: number[] = [];
    for (const [field, arg] of [
      ['submitRevocationRequest', 'orderId'],
      ['submitRevocation', 'orderReference'],
      ['submitRevocationRequest', 'orderId'],
    ] as const) {
      const order = await placeTestOrder(t, { customerToken: c.token });
      const value = arg === 'orderId' ? order.id : JSON.stringify(order.incrementId);
      const r = await gql(
        `mutation { ${field}(input: {${arg}: ${value}, reason: "changed my mind", clientMutationId: "x"}) { revocationRequest { id _id orderId reason verified email } clientMutationId } }`,
        c.token,
      );
      assert.equal(r.errors, undefined, JSON.stringify(r.errors));
      const made = r.data[field].revocationRequest;
      assert.equal(r.data[field].clientMutationId, 'x');
      assert.equal(made.id, IRI(made._id));
      assert.equal(made.orderId, order.id);
      assert.equal(made.verified, true);
      assert.equal(made.email, c.email);
      ids.push(made._id);
    }
    const all = await gql('{ myRevocationRequests { totalCount edges { node { _id } } } }', c.token);
    assert.equal(all.data.myRevocationRequests.totalCount, 3);
    const newest = all.data.myRevocationRequests.edges.map((e: any) => e.node._id);
    assert.deepEqual([...newest].sort(), [...ids].sort());
    const first = await gql('{ myRevocationRequests(first: 2) { edges { node { _id } } pageInfo { endCursor hasNextPage } } }', c.token);
    assert.deepEqual(
      first.data.myRevocationRequests.edges.map((e: any) => e.node._id),
      newest.slice(0, 2),
    );
    assert.equal(first.data.myRevocationRequests.pageInfo.hasNextPage, true);
    const next = await gql(
      `{ myRevocationRequests(first: 2, after: "${first.data.myRevocationRequests.pageInfo.endCursor}") { edges { node { _id } } pageInfo { hasNextPage hasPreviousPage } } }`,
      c.token,
    );
    assert.deepEqual(
      next.data.myRevocationRequests.edges.map((e: any) => e.node._id),
      newest.slice(2),
    );
    assert.deepEqual(next.data.myRevocationRequests.pageInfo, { hasNextPage: false, hasPreviousPage: true });
    const paged = await gql('{ myRevocationRequests(pageSize: 1, page: 3) { edges { node { _id } } } }', c.token);
    assert.deepEqual(paged.data.myRevocationRequests.edges, [{ node: { _id: newest[2] } }]);

    const own = await gql(`{ revocationRequest(id: "${IRI(ids[0])}") { _id adminNote ip } }`, c.token);
    assert.deepEqual(own.data.revocationRequest, { _id: ids[0], adminNote: null, ip: null });
    const other = await newCustomer();
    const foreign = await gql(`{ revocationRequest(id: "${IRI(ids[0])}") { _id } }`, other.token);
    assert.equal(foreign.data.revocationRequest, null);
    assert.equal(foreign.errors[0].extensions.status, 404);
    assert.equal((await gql('{ myRevocationRequests { totalCount } }', other.token)).data.myRevocationRequests.totalCount, 0);
  });

  test('bad input is a 400 (no order named, a wrong type, a bad cursor); a foreign order 404; anonymous 401; admins cannot submit', async () => {
    const c = await newCustomer();
    const none = await gql('mutation { submitRevocationRequest(input: {reason: "x"}) { revocationRequest { _id } } }', c.token);
    assert.equal(none.data.submitRevocationRequest, null);
    assert.equal(none.errors[0].extensions.status, 400);
    const zero = await gql('mutation { submitRevocation(input: {orderId: 0}) { revocationRequest { _id } } }', c.token);
    assert.equal(zero.errors[0].extensions.status, 400);
    const long = await gql(
      `mutation { submitRevocation(input: {orderReference: "${'9'.repeat(60)}"}) { revocationRequest { _id } } }`,
      c.token,
    );
    assert.equal(long.errors[0].extensions.status, 400);
    const foreignOrder = await placeTestOrder(t);
    const foreign = await gql(`mutation { submitRevocation(input: {orderId: ${foreignOrder.id}}) { revocationRequest { _id } } }`, c.token);
    assert.equal(foreign.errors[0].extensions.status, 404);
    const cursor = await gql('{ myRevocationRequests(after: "not-a-cursor") { totalCount } }', c.token);
    assert.equal(cursor.errors[0].extensions.status, 400);
    const anon = await gql('mutation { submitRevocation(input: {orderId: 1}) { revocationRequest { _id } } }');
    assert.equal(anon.errors[0].extensions.status, 401);
    const adm = await gql('mutation { submitRevocation(input: {orderId: 1}) { revocationRequest { _id } } }', admin);
    assert.equal(adm.errors[0].extensions.status, 403);
  });

  test('admins: revocationRequests with filters, revocationRequest by IRI or number, updateRevocationRequest', async () => {
    const c = await newCustomer();
    const order = await placeTestOrder(t, { customerToken: c.token });
    const made = (await gql(`mutation { submitRevocation(input: {orderId: ${order.id}}) { revocationRequest { _id } } }`, c.token)).data
      .submitRevocation.revocationRequest;

    const byOrder = await gql(`{ revocationRequests(orderId: ${order.id}) { totalCount edges { node { _id email orderId } } } }`, reader);
    assert.deepEqual(byOrder.data.revocationRequests, {
      totalCount: 1,
      edges: [{ node: { _id: made._id, email: c.email, orderId: order.id } }],
    });
    const byEmail = await gql(`{ revocationRequests(email: "${c.email.toUpperCase()}") { totalCount } }`, reader);
    assert.equal(byEmail.data.revocationRequests.totalCount, 1);
    const unprocessed = await gql(`{ revocationRequests(processedStatus: "accepted", orderId: ${order.id}) { totalCount } }`, reader);
    assert.equal(unprocessed.data.revocationRequests.totalCount, 0);
    const badFilter = await gql('{ revocationRequests(orderId: 0) { totalCount } }', reader);
    assert.equal(badFilter.errors[0].extensions.status, 400);

    const byNumber = await gql(`{ revocationRequest(id: ${made._id}) { _id ip } }`, reader);
    assert.equal(byNumber.data.revocationRequest._id, made._id);
    const unknown = await gql('{ revocationRequest(id: 99999999) { _id } }', reader);
    assert.equal(unknown.data.revocationRequest, null);
    assert.equal(unknown.errors[0].extensions.status, 404);

    const readOnly = await gql(
      `mutation { updateRevocationRequest(input: {id: "${IRI(made._id)}", processedStatus: "accepted"}) { revocationRequest { _id } } }`,
      reader,
    );
    assert.equal(readOnly.errors[0].extensions.status, 403);
    const updated = await gql(
      `mutation { updateRevocationRequest(input: {id: "${IRI(made._id)}", processedStatus: "accepted", adminNote: "ok"}) { revocationRequest { _id processedStatus processedAt adminNote } } }`,
      admin,
    );
    assert.equal(updated.errors, undefined, JSON.stringify(updated.errors));
    const u = updated.data.updateRevocationRequest.revocationRequest;
    assert.deepEqual(
      { ...u, processedAt: typeof u.processedAt },
      { _id: made._id, processedStatus: 'accepted', processedAt: 'string', adminNote: 'ok' },
    );
    const bad = await gql(
      `mutation { updateRevocationRequest(input: {id: "${IRI(made._id)}", processedStatus: "bogus"}) { revocationRequest { _id } } }`,
      admin,
    );
    assert.ok(bad.errors[0].extensions.status >= 400 && bad.errors[0].extensions.status < 500);
    const cust = await gql('{ revocationRequests { totalCount } }', c.token);
    assert.equal(cust.errors[0].extensions.status, 403);
  });
});
