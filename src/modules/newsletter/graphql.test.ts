/**
 * The newsletter over GraphQL: subscribeNewsletter, unsubscribeNewsletter, confirmNewsletter (public),
 * statusNewsletter (customer), and the admin reads newsletters (a connection) and newsletter(id).
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { eq } from 'drizzle-orm';
import { API, buildTestApp, type TestApp } from '../../../test/helpers.js';
import { unsubscribeCode } from './service.js';
import { newsletterSubscribers } from './tables.js';

let t: TestApp;
let admin: string;
let customer: string;
let other: string;
let seq = 0;

const gql = (query: string, token?: string, variables?: Record<string, unknown>) => t.gql(query, token, variables);
const guest = () => `gql-nl${++seq}@example.com`;
const IRI = (id: number) => `/api/rest/v2/newsletter/subscribers/${id}`;

before(async () => {
  t = await buildTestApp();
  admin = await t.tokens.admin();
  customer = await t.tokens.customer();
  const r = await t.req('POST', `${API}/customers`, {
    body: { email: 'gql-nl-other@example.com', password: 'Secret123', firstname: 'O', lastname: 'Ther' },
  });
  assert.equal(r.status, 201, r.text);
  other = await t.tokens.customer('gql-nl-other@example.com', 'Secret123');
});
after(() => t.close());

describe('newsletter over GraphQL', () => {
  test('a guest subscribes and unsubscribes an email; the answer carries no ids', async () => {
    const email = guest();
    const sub = await gql(
      `mutation { subscribeNewsletter(input: {email: "${email}", clientMutationId: "s"}) { newsletter { email status isSubscribed confirmationRequired message subscriberId customerId } clientMutationId } }`,
    );
    assert.equal(sub.errors, undefined, JSON.stringify(sub.errors));
    assert.deepEqual(sub.data.subscribeNewsletter.newsletter, {
      email,
      status: 'subscribed',
      isSubscribed: true,
      confirmationRequired: false,
      message: sub.data.subscribeNewsletter.newsletter.message,
      subscriberId: null,
      customerId: null,
    });
    assert.equal(sub.data.subscribeNewsletter.clientMutationId, 's');
    const code = unsubscribeCode(
      t.systemCtx(),
      (await t.database.db.select().from(newsletterSubscribers).where(eq(newsletterSubscribers.email, email)))[0],
    );
    const unsub = await gql(
      `mutation { unsubscribeNewsletter(input: {email: "${email}", code: "${code}"}) { newsletter { email status isSubscribed } } }`,
    );
    assert.deepEqual(unsub.data.unsubscribeNewsletter.newsletter, { email, status: 'unsubscribed', isSubscribed: false });
  });

  test('bad input is a 400: a malformed or missing guest email, an unknown store, a wrong confirmation code', async () => {
    const bad = await gql('mutation { subscribeNewsletter(input: {email: "not-an-email"}) { newsletter { status } } }');
    assert.equal(bad.data.subscribeNewsletter, null);
    assert.equal(bad.errors[0].extensions.status, 400);
    const missing = await gql('mutation { unsubscribeNewsletter(input: {}) { newsletter { status } } }');
    assert.equal(missing.errors[0].extensions.status, 400);
    const store = await gql(`mutation { subscribeNewsletter(input: {email: "${guest()}", storeId: 999}) { newsletter { status } } }`);
    assert.equal(store.errors[0].extensions.status, 400);
    const code = await gql(`mutation { confirmNewsletter(input: {email: "${guest()}", code: "nope"}) { newsletter { status } } }`);
    assert.ok(code.errors[0].extensions.status >= 400 && code.errors[0].extensions.status < 500);
  });

  test("statusNewsletter: the customer's own subscription; anonymous 401, an admin 403", async () => {
    const before = await gql('{ statusNewsletter { email status isSubscribed } }', customer);
    assert.equal(before.errors, undefined, JSON.stringify(before.errors));
    assert.deepEqual(before.data.statusNewsletter, { email: 'customer@example.com', status: 'unknown', isSubscribed: false });
    const sub = await gql('mutation { subscribeNewsletter(input: {}) { newsletter { subscriberId customerId status } } }', customer);
    assert.equal(sub.data.subscribeNewsletter.newsletter.status, 'subscribed');
    assert.equal(typeof sub.data.subscribeNewsletter.newsletter.subscriberId, 'number');
    const after = await gql('{ statusNewsletter { subscriberId status isSubscribed } }', customer);
    assert.deepEqual(after.data.statusNewsletter, {
      subscriberId: sub.data.subscribeNewsletter.newsletter.subscriberId,
      status: 'subscribed',
      isSubscribed: true,
    });
    // another customer sees its own (none), not this one
    const others = await gql('{ statusNewsletter { email status } }', other);
    assert.deepEqual(others.data.statusNewsletter, { email: 'gql-nl-other@example.com', status: 'unknown' });
    const anon = await gql('{ statusNewsletter { status } }');
    assert.equal(anon.data.statusNewsletter, null);
    assert.equal(anon.errors[0].extensions.status, 401);
    const adm = await gql('{ statusNewsletter { status } }', admin);
    assert.equal(adm.errors[0].extensions.status, 403);
  });

  test('newsletters and newsletter(id): admin reads with filters and cursors; customers are refused', async () => {
    const emails = [guest(), guest(), guest()];
    for (const email of emails) await gql(`mutation { subscribeNewsletter(input: {email: "${email}"}) { newsletter { status } } }`);
    const [row] = await t.database.db.select().from(newsletterSubscribers).where(eq(newsletterSubscribers.email, emails[2]));
    await gql(
      `mutation { unsubscribeNewsletter(input: {subscriberId: ${row.id}, code: "${unsubscribeCode(t.systemCtx(), row)}"}) { newsletter { status } } }`,
    );

    const all = await gql(
      '{ newsletters(first: 100) { totalCount edges { cursor node { id _id email status isSubscribed } } pageInfo { hasNextPage } } }',
      admin,
    );
    assert.equal(all.errors, undefined, JSON.stringify(all.errors));
    const nodes = all.data.newsletters.edges.map((e: any) => e.node);
    assert.equal(all.data.newsletters.totalCount, nodes.length);
    const mine = nodes.find((n: any) => n.email === emails[0]);
    assert.equal(mine.id, IRI(mine._id));

    const byEmail = await gql(`{ newsletters(email: "${emails[1].toUpperCase()}") { totalCount edges { node { email } } } }`, admin);
    assert.deepEqual(byEmail.data.newsletters, { totalCount: 1, edges: [{ node: { email: emails[1] } }] });
    const unsubscribed = await gql('{ newsletters(status: "unsubscribed") { edges { node { email status } } } }', admin);
    assert.ok(unsubscribed.data.newsletters.edges.some((e: any) => e.node.email === emails[2]));
    assert.ok(unsubscribed.data.newsletters.edges.every((e: any) => e.node.status === 'unsubscribed'));
    const badStatus = await gql('{ newsletters(status: "whatever") { totalCount } }', admin);
    assert.equal(badStatus.errors[0].extensions.status, 400);

    const page1 = await gql('{ newsletters(first: 1) { edges { node { _id } } pageInfo { endCursor hasNextPage } } }', admin);
    assert.equal(page1.data.newsletters.pageInfo.hasNextPage, true);
    const page2 = await gql(
      `{ newsletters(first: 1, after: "${page1.data.newsletters.pageInfo.endCursor}") { edges { node { _id } } } }`,
      admin,
    );
    assert.deepEqual(page2.data.newsletters.edges[0].node._id, nodes[1]._id);

    const one = await gql(`{ newsletter(id: "${mine.id}") { _id email status } }`, admin);
    assert.deepEqual(one.data.newsletter, { _id: mine._id, email: emails[0], status: 'subscribed' });
    const missing = await gql('{ newsletter(id: 999999) { _id } }', admin);
    assert.equal(missing.data.newsletter, null);
    assert.equal(missing.errors[0].extensions.status, 404);

    for (const q of ['{ newsletters { totalCount } }', `{ newsletter(id: "${mine.id}") { email } }`]) {
      const cust = await gql(q, customer);
      assert.equal(cust.errors[0].extensions.status, 403, q);
      const anon = await gql(q);
      assert.equal(anon.errors[0].extensions.status, 401, q);
    }
  });
});
