/**
 * Gift cards over GraphQL, in Maho's names and the spec's: giftCard(id: IRI), the giftCards connection,
 * createGiftCard, checkBalanceGiftCard / checkGiftcardBalance, adjustBalanceGiftCard (newBalance) /
 * adjustGiftcardBalance (input or flat); per access level, and bad input as 4xx errors.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { buildTestApp, type TestApp } from '../../../test/helpers.js';

let t: TestApp;
let admin: string;
let customer: string;
let reader: string;

const gql = (query: string, token?: string, variables?: Record<string, unknown>) => t.gql(query, token, variables);

async function create(balance: number) {
  const r = await gql(
    `mutation { createGiftCard(input: {initialBalance: ${balance}, recipientName: null}) { giftCard { id _id code balance initialBalance status history } } }`,
    admin,
  );
  assert.equal(r.errors, undefined, JSON.stringify(r.errors));
  return r.data.createGiftCard.giftCard;
}

before(async () => {
  t = await buildTestApp();
  admin = await t.tokens.admin();
  customer = await t.tokens.customer();
  reader = await t.tokens.apiUser(['giftcards/read']);
});
after(() => t.close());

describe('gift cards over GraphQL', () => {
  test('createGiftCard, giftCard by IRI, the giftCards connection with cursor paging', async () => {
    const a = await create(10);
    const b = await create(20.5);
    assert.equal(b.id, `/api/rest/v2/giftcards/${b._id}`);
    assert.equal(b.balance, 20.5);
    const one = await gql(`{ giftCard(id: "${a.id}") { _id code balance currencyCode websiteIds history } }`, reader);
    assert.equal(one.data.giftCard.code, a.code);
    const list = await gql('{ giftCards(first: 1) { totalCount edges { node { _id } } pageInfo { hasNextPage endCursor } } }', reader);
    assert.equal(list.errors, undefined, JSON.stringify(list.errors));
    assert.ok(list.data.giftCards.totalCount >= 3, 'the demo card and the two new ones');
    assert.equal(list.data.giftCards.edges[0].node._id, b._id);
    const next = await gql(
      `{ giftCards(first: 1, after: "${list.data.giftCards.pageInfo.endCursor}") { edges { node { _id } } } }`,
      reader,
    );
    assert.equal(next.data.giftCards.edges[0].node._id, a._id);
  });

  test('checkBalanceGiftCard and its spec name checkGiftcardBalance, public', async () => {
    for (const name of ['checkBalanceGiftCard', 'checkGiftcardBalance']) {
      const r = await gql(`{ ${name}(code: "GC-DEMO-0000-0000-0001") { code balance currencyCode status } }`);
      assert.equal(r.errors, undefined, JSON.stringify(r.errors));
      assert.equal(r.data[name].balance, 50);
      const missing = await gql(`{ ${name}(code: "NOPE") { balance } }`, customer);
      assert.equal(missing.data[name], null);
      assert.equal(missing.errors[0].extensions.status, 404);
    }
  });

  test('adjustBalanceGiftCard sets newBalance; adjustGiftcardBalance takes input or flat arguments', async () => {
    const c = await create(10);
    const set = await gql(
      `mutation { adjustBalanceGiftCard(input: {code: "${c.code}", newBalance: 25.25, comment: "fix", clientMutationId: "a"}) { clientMutationId giftCard { _id balance history } } }`,
      admin,
    );
    assert.equal(set.errors, undefined, JSON.stringify(set.errors));
    assert.equal(set.data.adjustBalanceGiftCard.clientMutationId, 'a');
    assert.equal(set.data.adjustBalanceGiftCard.giftCard.balance, 25.25);
    assert.equal(set.data.adjustBalanceGiftCard.giftCard.history[0].amount, 15.25);
    const spec = await gql(`mutation { adjustGiftcardBalance(input: {id: "${c.id}", amount: -5.25}) { giftCard { balance } } }`, admin);
    assert.equal(spec.data.adjustGiftcardBalance.giftCard.balance, 20);
    const flat = await gql(`mutation { adjustGiftcardBalance(code: "${c.code}", newBalance: 0) { giftCard { balance status } } }`, admin);
    assert.deepEqual(flat.data.adjustGiftcardBalance.giftCard, { balance: 0, status: 'used' });
  });

  test('access: anonymous 401, customer 403, a read grant may not write', async () => {
    const c = await create(5);
    assert.equal((await gql('{ giftCards { totalCount } }')).errors[0].extensions.status, 401);
    const cust = await gql('{ giftCards { totalCount } }', customer);
    assert.equal(cust.data.giftCards, null);
    assert.equal(cust.errors[0].extensions.status, 403);
    assert.equal((await gql(`{ giftCard(id: ${c._id}) { _id } }`, customer)).errors[0].extensions.status, 403);
    const ro = await gql(`mutation { adjustBalanceGiftCard(input: {code: "${c.code}", newBalance: 1}) { giftCard { _id } } }`, reader);
    assert.equal(ro.errors[0].extensions.status, 403);
    assert.equal(
      (await gql('mutation { createGiftCard(input: {initialBalance: 1}) { giftCard { _id } } }', reader)).errors[0].extensions.status,
      403,
    );
  });

  test('bad input: out of range, neither or both of amount and newBalance, unknown card, bad cursor', async () => {
    const c = await create(5);
    const over = await gql(
      `mutation { adjustBalanceGiftCard(input: {code: "${c.code}", newBalance: 10000.01}) { giftCard { _id } } }`,
      admin,
    );
    assert.equal(over.errors[0].extensions.status, 400);
    const neither = await gql(`mutation { adjustBalanceGiftCard(input: {code: "${c.code}"}) { giftCard { _id } } }`, admin);
    assert.equal(neither.errors[0].extensions.status, 400);
    const both = await gql(`mutation { adjustGiftcardBalance(code: "${c.code}", amount: 1, newBalance: 3) { giftCard { _id } } }`, admin);
    assert.equal(both.errors[0].extensions.status, 400);
    const unknown = await gql(
      'mutation { adjustBalanceGiftCard(input: {id: "/api/rest/v2/products/1", newBalance: 1}) { giftCard { _id } } }',
      admin,
    );
    assert.equal(unknown.errors[0].extensions.status, 404);
    const badCreate = await gql('mutation { createGiftCard(input: {initialBalance: -1}) { giftCard { _id } } }', admin);
    assert.equal(badCreate.data.createGiftCard, null);
    assert.equal(badCreate.errors[0].extensions.status, 400);
    assert.equal((await gql('{ giftCards(after: "nope") { totalCount } }', admin)).errors[0].extensions.status, 400);
    assert.equal((await gql('{ giftCard(id: "/api/rest/v2/giftcards/99999999") { _id } }', admin)).errors[0].extensions.status, 404);
  });
});
