/**
 * Reviews over GraphQL in Maho's shape: productReviews (a paginated connection), review(id), myReviews (with
 * productName), submitReview (input and payload), reviews and updateReview for moderators; per access level.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { API, buildTestApp, type TestApp } from '../../../test/helpers.js';
import { deleteConfig, setConfig } from '../stores/service.js';
import { createTestProduct } from '../../../test/fixtures/catalog.js';

let t: TestApp;
let admin: string;
let alice: string;
let bob: string;
let reader: string;
let product: Record<string, any>;

const gql = (query: string, token?: string, variables?: Record<string, unknown>) => t.gql(query, token, variables);
const IRI = (id: number) => `/api/rest/v2/reviews/${id}`;
const SUBMIT = (productId: number, extra = '') =>
  `mutation { submitReview(input: {productId: ${productId}, title: "Great", detail: "Works well", nickname: "Al", rating: 4${extra}, clientMutationId: "r"}) {
    review { id _id productId productName title detail nickname rating status ratings stores createdAt } clientMutationId } }`;

async function approve(id: number) {
  const r = await t.req('PUT', `${API}/reviews/${id}`, { token: admin, body: { status: 'approved' } });
  assert.equal(r.status, 200, r.text);
}

before(async () => {
  t = await buildTestApp();
  await setConfig(t.database.db, t.services.settings, 'api/rate_limit/review_submit', '0');
  admin = await t.tokens.admin();
  alice = await t.tokens.customer();
  const reg = await t.req('POST', `${API}/customers`, {
    body: { email: 'gql-bob@example.com', password: 'Password123!', firstname: 'Bob', lastname: 'R' },
  });
  assert.equal(reg.status, 201, reg.text);
  bob = await t.tokens.customer('gql-bob@example.com', 'Password123!');
  reader = await t.tokens.apiUser(['reviews/read']);
  product = await createTestProduct(t, { name: 'GraphQL Lamp' });
});
after(async () => {
  await deleteConfig(t.database.db, t.services.settings, 'api/rate_limit/review_submit');
  await t.close();
});

describe('reviews over GraphQL', () => {
  test('submitReview (customer) answers the pending review; it shows in myReviews with productName, not yet in productReviews', async () => {
    const r = await gql(SUBMIT(product.id), alice);
    assert.equal(r.errors, undefined, JSON.stringify(r.errors));
    const review = r.data.submitReview.review;
    assert.equal(r.data.submitReview.clientMutationId, 'r');
    assert.equal(review.id, IRI(review._id));
    assert.equal(review.productId, product.id);
    assert.equal(review.productName, 'GraphQL Lamp');
    assert.equal(review.nickname, 'Al');
    assert.equal(review.rating, 4);
    assert.equal(review.status, 'pending');
    assert.ok(Array.isArray(review.ratings) && Array.isArray(review.stores));

    const mine = await gql('{ myReviews { totalCount edges { node { _id productName status } } } }', alice);
    assert.deepEqual(mine.data.myReviews.edges, [{ node: { _id: review._id, productName: 'GraphQL Lamp', status: 'pending' } }]);
    const bobs = await gql('{ myReviews { totalCount } }', bob);
    assert.equal(bobs.data.myReviews.totalCount, 0);
    const pub = await gql(`{ productReviews(productId: ${product.id}) { totalCount } }`);
    assert.equal(pub.data.productReviews.totalCount, 0);
    // a pending review is not for shoppers: null with a 404
    const hidden = await gql(`{ review(id: "${review.id}") { _id } }`, bob);
    assert.equal(hidden.data.review, null);
    assert.equal(hidden.errors[0].extensions.status, 404);
    const moderator = await gql(`{ review(id: "${review.id}") { _id status } }`, reader);
    assert.deepEqual(moderator.data.review, { _id: review._id, status: 'pending' });
  });

  test('productReviews: approved reviews with page/pageSize and cursors; review(id) by IRI or number', async () => {
    const p = await createTestProduct(t, { name: 'Paged Lamp' });
    const ids: number[] = [];
    for (let i = 0; i < 3; i++) {
      const r = await gql(SUBMIT(p.id), i % 2 ? bob : alice);
      ids.push(r.data.submitReview.review._id);
      await approve(ids[i]);
    }
    const all = await gql(
      `{ productReviews(productId: ${p.id}) { totalCount edges { cursor node { _id title detail nickname rating status } } pageInfo { hasNextPage } } }`,
    );
    assert.equal(all.errors, undefined, JSON.stringify(all.errors));
    assert.equal(all.data.productReviews.totalCount, 3);
    const newest = all.data.productReviews.edges.map((e: any) => e.node._id);
    assert.deepEqual([...newest].sort(), [...ids].sort());
    assert.deepEqual(all.data.productReviews.edges[0].node, {
      _id: newest[0],
      title: 'Great',
      detail: 'Works well',
      nickname: 'Al',
      rating: 4,
      status: 'approved',
    });

    const paged = await gql(
      `{ productReviews(productId: ${p.id}, pageSize: 1, page: 2) { edges { node { _id } } pageInfo { hasNextPage hasPreviousPage } } }`,
    );
    assert.deepEqual(paged.data.productReviews.edges, [{ node: { _id: newest[1] } }]);
    const first = await gql(
      `{ productReviews(productId: ${p.id}, first: 2) { edges { node { _id } } pageInfo { endCursor hasNextPage } } }`,
    );
    assert.deepEqual(
      first.data.productReviews.edges.map((e: any) => e.node._id),
      newest.slice(0, 2),
    );
    assert.equal(first.data.productReviews.pageInfo.hasNextPage, true);
    const rest = await gql(
      `{ productReviews(productId: ${p.id}, first: 2, after: "${first.data.productReviews.pageInfo.endCursor}") { edges { node { _id } } pageInfo { hasNextPage } } }`,
    );
    assert.deepEqual(
      rest.data.productReviews.edges.map((e: any) => e.node._id),
      newest.slice(2),
    );
    assert.equal(rest.data.productReviews.pageInfo.hasNextPage, false);

    const byIri = await gql(`{ review(id: "${IRI(ids[0])}") { _id productName } }`);
    assert.deepEqual(byIri.data.review, { _id: ids[0], productName: 'Paged Lamp' });
    const byNumber = await gql(`{ review(id: ${ids[0]}) { _id } }`);
    assert.deepEqual(byNumber.data.review, { _id: ids[0] });
    const foreign = await gql(`{ review(id: "/api/rest/v2/products/${ids[0]}") { _id } }`);
    assert.equal(foreign.data.review, null);
    assert.equal(foreign.errors[0].extensions.status, 404);
  });

  test('bad input: submitReview(input: {}) and bad values are errors (400), an unknown product 404; anonymous 401', async () => {
    const empty = await gql('mutation { submitReview(input: {}) { review { _id } } }', alice);
    assert.ok(empty.errors.length);
    assert.equal(empty.data?.submitReview ?? null, null);
    const bad = await gql(SUBMIT(product.id).replace('rating: 4', 'rating: 9'), alice);
    assert.equal(bad.data.submitReview, null);
    assert.equal(bad.errors[0].extensions.status, 400);
    const unknown = await gql(SUBMIT(99999999), alice);
    assert.equal(unknown.errors[0].extensions.status, 404);
    const badProduct = await gql(SUBMIT(0), alice);
    assert.equal(badProduct.errors[0].extensions.status, 400);
    const anon = await gql(SUBMIT(product.id));
    assert.equal(anon.errors[0].extensions.status, 401);
    const badPage = await gql(`{ productReviews(productId: ${product.id}, after: "zzz") { totalCount } }`);
    assert.equal(badPage.errors[0].extensions.status, 400);
    const anonMine = await gql('{ myReviews { totalCount } }');
    assert.equal(anonMine.errors[0].extensions.status, 401);
  });

  test('moderation: reviews and updateReview for reviews/read and reviews/write; customers refused', async () => {
    const r = await gql(SUBMIT(product.id), bob);
    const id = r.data.submitReview.review._id;
    const queue = await gql(
      `{ reviews(status: "pending", productId: ${product.id}) { totalCount edges { node { _id status } } } }`,
      reader,
    );
    assert.ok(queue.data.reviews.edges.some((e: any) => e.node._id === id));
    assert.ok(queue.data.reviews.edges.every((e: any) => e.node.status === 'pending'));
    const cust = await gql('{ reviews { totalCount } }', alice);
    assert.equal(cust.errors[0].extensions.status, 403);

    const readOnly = await gql(`mutation { updateReview(input: {id: "${IRI(id)}", status: "approved"}) { review { _id } } }`, reader);
    assert.equal(readOnly.errors[0].extensions.status, 403);
    const ok = await gql(`mutation { updateReview(input: {id: "${IRI(id)}", status: "approved"}) { review { _id status } } }`, admin);
    assert.deepEqual(ok.data.updateReview.review, { _id: id, status: 'approved' });
    const bad = await gql(`mutation { updateReview(input: {id: "${IRI(id)}", status: "bogus"}) { review { _id } } }`, admin);
    assert.equal(bad.errors[0].extensions.status, 400);
  });
});
