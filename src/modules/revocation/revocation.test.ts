/** Revocation declarations (spec "Revocation requests" rules 1–6, wire reference §2.18 and §3.4). */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { and, count, eq, sql } from 'drizzle-orm';
import { API, buildTestApp, type TestApp } from '../../../test/helpers.js';
import { mailOutbox } from '../../platform/tables.js';
import { placeTestOrder } from '../../../test/fixtures/checkout.js';
import { orders } from '../orders/tables.js';
import { deleteConfig, setConfig } from '../stores/service.js';
import { submitRevocation } from './service.js';
import { revocationRequests } from './tables.js';

let t: TestApp;
let admin: string;
before(async () => {
  t = await buildTestApp();
  admin = await t.tokens.admin();
});
after(() => t.close());

let seq = 0;
async function newCustomer(): Promise<{ id: number; email: string; token: string }> {
  const email = `rv${++seq}-${Date.now()}@example.com`;
  const r = await t.req('POST', `${API}/customers`, { body: { email, password: 'Secret123', firstname: 'Rita', lastname: 'Revoker' } });
  assert.equal(r.status, 201, r.text);
  return { id: r.body.id, email, token: await t.tokens.customer(email, 'Secret123') };
}

async function submit(token: string | undefined, body: unknown) {
  return t.req('POST', `${API}/customers/me/revocation-requests`, { token, body, headers: { 'user-agent': 'RevTest/1.0' } });
}

async function rowCount(): Promise<number> {
  const [r] = await t.database.db.select({ n: count() }).from(revocationRequests);
  return r.n;
}

async function mails(template: string, to?: string) {
  return t.database.db
    .select()
    .from(mailOutbox)
    .where(to ? and(eq(mailOutbox.template, template), eq(mailOutbox.toAddress, to)) : eq(mailOutbox.template, template));
}

async function gql(query: string, variables: Record<string, unknown> = {}, token?: string) {
  return t.gql(query, token, variables);
}

async function config(path: string, value: string | undefined, fn: () => Promise<void>) {
  await setConfig(t.database.db, t.services.settings, path, value ?? '');
  try {
    await fn();
  } finally {
    await deleteConfig(t.database.db, t.services.settings, path);
  }
}

const ADMIN_ONLY = ['adminNote', 'ip', 'userAgent'];

describe('POST /customers/me/revocation-requests', () => {
  test('records a verified declaration from the order, with receipt and store notice mails (rule 2)', async () => {
    const c = await newCustomer();
    const order = await placeTestOrder(t, { customerToken: c.token });
    const r = await submit(c.token, { orderId: order.id, reason: 'Changed my mind', extra: 'dropped' });
    assert.equal(r.status, 201, r.text);
    assert.equal(r.body.orderId, order.id);
    assert.equal(r.body.orderReference, order.incrementId);
    assert.equal(r.body.reason, 'Changed my mind');
    assert.equal(r.body.verified, true);
    assert.equal(r.body.email, c.email.toLowerCase());
    assert.equal(r.body.customerName, 'Rita Revoker');
    assert.equal(r.body.storeId, order.storeId);
    assert.match(r.body.receivedAt, /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/);
    assert.equal(r.body.processedStatus, undefined, 'new requests are unprocessed (§3.4)');
    assert.equal(r.body.processedAt, undefined);
    assert.equal(r.body.suppressedAt, undefined);
    for (const k of ADMIN_ONLY) assert.equal(k in r.body, false, `${k} hidden from customers (rule 6)`);
    const [row] = await t.database.db.select().from(revocationRequests).where(eq(revocationRequests.id, r.body.id));
    assert.equal(row.channel, 'api');
    assert.equal(row.userAgent, 'RevTest/1.0');
    assert.ok(row.ip);
    assert.equal(row.customerId, c.id);
    assert.equal((await mails('revocation/receipt', c.email.toLowerCase())).length, 1);
    const notices = (await mails('revocation/notice')).filter((m) => m.textBody.includes(order.incrementId));
    assert.equal(notices.length, 1);
    assert.equal(notices[0].toAddress, 'owner@example.com');
  });

  test('orderReference (the increment id) finds the order too', async () => {
    const c = await newCustomer();
    const order = await placeTestOrder(t, { customerToken: c.token });
    const r = await submit(c.token, { orderReference: order.incrementId });
    assert.equal(r.status, 201, r.text);
    assert.equal(r.body.orderId, order.id);
    assert.equal(r.body.reason, undefined);
  });

  test("another customer's order is a 404, by id and by reference, and nothing is written (rule 1)", async () => {
    const owner = await newCustomer();
    const other = await newCustomer();
    const order = await placeTestOrder(t, { customerToken: owner.token });
    const guestOrder = await placeTestOrder(t);
    const before = await rowCount();
    assert.equal((await submit(other.token, { orderId: order.id })).status, 404);
    assert.equal((await submit(other.token, { orderReference: order.incrementId })).status, 404);
    assert.equal((await submit(other.token, { orderId: guestOrder.id })).status, 404);
    assert.equal((await submit(other.token, { orderId: 999999 })).status, 404);
    assert.equal((await submit(other.token, { orderReference: 'nope' })).status, 404);
    assert.equal(await rowCount(), before);
  });

  test('bad input: neither orderId nor orderReference, or a reason over 2000 characters, is a 400', async () => {
    const c = await newCustomer();
    const order = await placeTestOrder(t, { customerToken: c.token });
    const before = await rowCount();
    assert.equal((await submit(c.token, {})).status, 400);
    assert.equal((await submit(c.token, { reason: 'x' })).status, 400);
    assert.equal((await submit(c.token, { orderId: 'abc' })).status, 400);
    assert.equal((await submit(c.token, { orderId: order.id, reason: 'x'.repeat(2001) })).status, 400);
    assert.equal(await rowCount(), before);
  });

  test('access: anonymous 401, admin token 403', async () => {
    assert.equal((await submit(undefined, { orderId: 1 })).status, 401);
    assert.equal((await submit(admin, { orderId: 1 })).status, 403);
  });

  test('a second declaration the same day is still written, its receipt suppressed (rule 3)', async () => {
    const c = await newCustomer();
    const order = await placeTestOrder(t, { customerToken: c.token });
    const first = await submit(c.token, { orderId: order.id });
    assert.equal(first.status, 201);
    const second = await submit(c.token, { orderId: order.id, reason: 'again' });
    assert.equal(second.status, 201, second.text);
    assert.equal(second.body.suppressedReason, 'rate_limit_recipient');
    assert.match(second.body.suppressedAt, /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/);
    const rows = await t.database.db.select().from(revocationRequests).where(eq(revocationRequests.orderId, order.id));
    assert.equal(rows.length, 2, 'both declarations recorded');
    assert.equal((await mails('revocation/receipt', c.email.toLowerCase())).length, 1, 'one receipt only');
    const notices = (await mails('revocation/notice')).filter((m) => m.textBody.includes(order.incrementId));
    assert.equal(notices.length, 2, 'the store is told of both');
  });

  test('the store notice goes to revocation/general/notify_email when set', async () => {
    const c = await newCustomer();
    const order = await placeTestOrder(t, { customerToken: c.token });
    await config('revocation/general/notify_email', 'legal@example.com', async () => {
      assert.equal((await submit(c.token, { orderId: order.id })).status, 201);
    });
    const notices = await mails('revocation/notice', 'legal@example.com');
    assert.equal(notices.length, 1);
  });
});

describe('cooling-off window (rule 4)', () => {
  async function backdate(orderId: number, days: number) {
    await t.database.db
      .update(orders)
      .set({ createdAt: sql`now() - make_interval(days => ${days})` })
      .where(eq(orders.id, orderId));
  }

  test('an order older than 14 days without shipment is refused with 422; nothing written', async () => {
    const c = await newCustomer();
    const order = await placeTestOrder(t, { customerToken: c.token });
    await backdate(order.id, 20);
    const before = await rowCount();
    const r = await submit(c.token, { orderId: order.id });
    assert.equal(r.status, 422, r.text);
    assert.equal(r.body.error, 'unprocessable_entity');
    assert.match(r.body.message, /revocation period.*expired/);
    assert.equal(await rowCount(), before);
    await config('revocation/general/cooling_off_days', '0', async () => {
      assert.equal((await submit(c.token, { orderId: order.id })).status, 201, '0 days = no limit');
    });
    await config('revocation/general/cooling_off_days', '30', async () => {
      assert.equal((await submit(c.token, { orderId: order.id })).status, 201, 'within a longer window');
    });
  });

  test('the window counts from the latest shipment when it is later than the order', async () => {
    const c = await newCustomer();
    const order = await placeTestOrder(t, { customerToken: c.token });
    const shipped = await t.req('POST', `${API}/orders/${order.id}/shipments`, { token: admin, body: {} });
    assert.equal(shipped.status, 201, shipped.text);
    await backdate(order.id, 20);
    assert.equal((await submit(c.token, { orderId: order.id })).status, 201, 'shipped today: within 14 days');
    // the shipment itself is now old as well
    await t.database.db.execute(sql`UPDATE shipments SET created_at = now() - interval '16 days' WHERE order_id = ${order.id}`);
    assert.equal((await submit(c.token, { orderId: order.id })).status, 422, 'shipped 16 days ago');
    await config('revocation/general/cooling_off_days', '20', async () => {
      assert.equal((await submit(c.token, { orderId: order.id })).status, 201);
    });
  });
});

describe('reading and processing', () => {
  let owner: { id: number; email: string; token: string };
  let other: { id: number; email: string; token: string };
  let id: number;
  let orderId: number;
  before(async () => {
    owner = await newCustomer();
    other = await newCustomer();
    const order = await placeTestOrder(t, { customerToken: owner.token });
    orderId = order.id;
    const r = await submit(owner.token, { orderId: order.id, reason: 'mine' });
    assert.equal(r.status, 201);
    id = r.body.id;
  });

  test("GET /customers/me/revocation-requests lists only the caller's own, without admin fields", async () => {
    const mine = await t.req('GET', `${API}/customers/me/revocation-requests`, { token: owner.token });
    assert.equal(mine.status, 200, mine.text);
    assert.equal(mine.body.totalItems, 1);
    assert.equal(mine.body.member[0].id, id);
    for (const k of ADMIN_ONLY) assert.equal(k in mine.body.member[0], false);
    const theirs = await t.req('GET', `${API}/customers/me/revocation-requests`, { token: other.token });
    assert.equal(theirs.body.totalItems, 0);
    assert.equal((await t.req('GET', `${API}/customers/me/revocation-requests`)).status, 401);
    assert.equal((await t.req('GET', `${API}/customers/me/revocation-requests`, { token: admin })).status, 403);
  });

  test('GET /revocation-requests/{id}: owner yes, other customer 404, admin sees ip and userAgent (rule 6)', async () => {
    const own = await t.req('GET', `${API}/revocation-requests/${id}`, { token: owner.token });
    assert.equal(own.status, 200);
    for (const k of ADMIN_ONLY) assert.equal(k in own.body, false);
    assert.equal((await t.req('GET', `${API}/revocation-requests/${id}`, { token: other.token })).status, 404);
    assert.equal((await t.req('GET', `${API}/revocation-requests/${id}`)).status, 401);
    const a = await t.req('GET', `${API}/revocation-requests/${id}`, { token: admin });
    assert.equal(a.status, 200);
    assert.equal(a.body.userAgent, 'RevTest/1.0');
    assert.equal(typeof a.body.ip, 'string');
    assert.equal((await t.req('GET', `${API}/revocation-requests/99999999`, { token: admin })).status, 404);
    const noPerm = await t.tokens.apiUser(['orders/read']);
    assert.equal((await t.req('GET', `${API}/revocation-requests/${id}`, { token: noPerm })).status, 403);
  });

  test('GET /revocation-requests: admin only, filters, newest first', async () => {
    const reader = await t.tokens.apiUser(['revocation-requests/read']);
    const all = await t.req('GET', `${API}/revocation-requests`, { token: reader });
    assert.equal(all.status, 200, all.text);
    assert.ok(all.body.totalItems >= 1);
    const ids = all.body.member.map((m: { id: number }) => m.id);
    assert.deepEqual(
      ids,
      [...ids].sort((a: number, b: number) => b - a),
      'newest first',
    );
    const byEmail = await t.req('GET', `${API}/revocation-requests`, { token: reader, query: { email: owner.email.toUpperCase() } });
    assert.deepEqual(
      byEmail.body.member.map((m: { id: number }) => m.id),
      [id],
    );
    const byOrder = await t.req('GET', `${API}/revocation-requests`, { token: reader, query: { orderId: String(orderId) } });
    assert.deepEqual(
      byOrder.body.member.map((m: { id: number }) => m.id),
      [id],
    );
    const byStatus = await t.req('GET', `${API}/revocation-requests`, {
      token: reader,
      query: { processedStatus: 'info_requested', orderId: String(orderId) },
    });
    assert.equal(byStatus.body.totalItems, 0);
    assert.equal((await t.req('GET', `${API}/revocation-requests`, { token: owner.token })).status, 403);
    assert.equal((await t.req('GET', `${API}/revocation-requests`)).status, 401);
  });

  test('PUT /revocation-requests/{id}: bad status 422 with nothing changed; valid status stamps processedAt; "" clears the note', async () => {
    const bad = await t.req('PUT', `${API}/revocation-requests/${id}`, { token: admin, body: { processedStatus: 'done', adminNote: 'x' } });
    assert.equal(bad.status, 422, bad.text);
    const [unchanged] = await t.database.db.select().from(revocationRequests).where(eq(revocationRequests.id, id));
    assert.equal(unchanged.processedStatus, null);
    assert.equal(unchanged.adminNote, null);
    assert.equal((await t.req('PUT', `${API}/revocation-requests/${id}`, { token: admin, body: {} })).status, 400);

    const ok = await t.req('PUT', `${API}/revocation-requests/${id}`, {
      token: admin,
      body: { processedStatus: 'accepted', adminNote: 'refund sent' },
    });
    assert.equal(ok.status, 200, ok.text);
    assert.equal(ok.body.processedStatus, 'accepted');
    assert.match(ok.body.processedAt, /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/);
    assert.equal(ok.body.adminNote, 'refund sent');
    const seen = await t.req('GET', `${API}/revocation-requests/${id}`, { token: owner.token });
    assert.equal(seen.body.processedStatus, 'accepted');
    assert.equal('adminNote' in seen.body, false, 'the note stays back-office');

    const cleared = await t.req('PUT', `${API}/revocation-requests/${id}`, { token: admin, body: { adminNote: '' } });
    assert.equal(cleared.status, 200);
    assert.equal('adminNote' in cleared.body, false);
    assert.equal(cleared.body.processedStatus, 'accepted');
  });

  test('PUT access: customer 403, read-only API user 403, write API user 200, unknown id 404', async () => {
    assert.equal(
      (await t.req('PUT', `${API}/revocation-requests/${id}`, { token: owner.token, body: { processedStatus: 'rejected' } })).status,
      403,
    );
    const reader = await t.tokens.apiUser(['revocation-requests/read']);
    assert.equal(
      (await t.req('PUT', `${API}/revocation-requests/${id}`, { token: reader, body: { processedStatus: 'rejected' } })).status,
      403,
    );
    const writer = await t.tokens.apiUser(['revocation-requests/write']);
    const r = await t.req('PUT', `${API}/revocation-requests/${id}`, { token: writer, body: { processedStatus: 'info_requested' } });
    assert.equal(r.status, 200, r.text);
    assert.equal(r.body.processedStatus, 'info_requested');
    assert.equal(
      (await t.req('PUT', `${API}/revocation-requests/99999999`, { token: writer, body: { processedStatus: 'rejected' } })).status,
      404,
    );
  });
});

describe('GraphQL', () => {
  const FIELDS = 'id _id orderId orderReference verified processedStatus adminNote ip userAgent';
  const IRI = (id: number) => `/api/rest/v2/revocation-requests/${id}`;

  test('submitRevocation, myRevocationRequests and revocationRequest for the customer; admin fields null', async () => {
    const c = await newCustomer();
    const order = await placeTestOrder(t, { customerToken: c.token });
    const s = await gql(
      `mutation($ref: String) { submitRevocation(input: {orderReference: $ref, reason: "gql"}) { revocationRequest { ${FIELDS} } } }`,
      { ref: order.incrementId },
      c.token,
    );
    assert.equal(s.errors, undefined, JSON.stringify(s.errors));
    const created = s.data!.submitRevocation.revocationRequest;
    assert.equal(created.id, IRI(created._id));
    assert.equal(created.orderId, order.id);
    assert.equal(created.verified, true);
    assert.equal(created.ip, null);
    const mine = await gql(`{ myRevocationRequests { totalCount edges { node { _id } } } }`, {}, c.token);
    assert.deepEqual(mine.data!.myRevocationRequests, { totalCount: 1, edges: [{ node: { _id: created._id } }] });
    const one = await gql(`query($id: ID!) { revocationRequest(id: $id) { ${FIELDS} } }`, { id: created.id }, c.token);
    assert.equal(one.data!.revocationRequest._id, created._id);
    assert.equal(one.data!.revocationRequest.userAgent, null);
    const other = await newCustomer();
    const denied = await gql(`query($id: ID!) { revocationRequest(id: $id) { id } }`, { id: created.id }, other.token);
    assert.equal(denied.errors?.[0].extensions.status, 404);
    const foreign = await gql(
      `mutation($id: Int) { submitRevocationRequest(input: {orderId: $id}) { revocationRequest { id } } }`,
      { id: order.id },
      other.token,
    );
    assert.equal(foreign.errors?.[0].extensions.status, 404);
    const none = await gql(`mutation { submitRevocation(input: {reason: "x"}) { revocationRequest { id } } }`, {}, c.token);
    assert.equal(none.errors?.[0].extensions.status, 400);
  });

  test('revocationRequests and revocationRequest for admins, with admin fields; customers refused', async () => {
    const c = await newCustomer();
    const order = await placeTestOrder(t, { customerToken: c.token });
    assert.equal((await submit(c.token, { orderId: order.id })).status, 201);
    const list = await gql(
      `query($o: Int) { revocationRequests(orderId: $o) { totalCount edges { node { ${FIELDS} } } } }`,
      { o: order.id },
      admin,
    );
    assert.equal(list.errors, undefined, JSON.stringify(list.errors));
    assert.equal(list.data!.revocationRequests.totalCount, 1);
    assert.equal(list.data!.revocationRequests.edges[0].node.userAgent, 'RevTest/1.0');
    const denied = await gql(`{ revocationRequests { totalCount } }`, {}, c.token);
    assert.equal(denied.errors?.[0].extensions.status, 403);
    const anon = await gql(`{ myRevocationRequests { totalCount } }`);
    assert.equal(anon.errors?.[0].extensions.status, 401);
  });
});

describe('disabled (rule 5)', () => {
  test('revocation/general/enabled = 0: every endpoint and GraphQL field is a 404, nothing written', async () => {
    const c = await newCustomer();
    const order = await placeTestOrder(t, { customerToken: c.token });
    const made = await submit(c.token, { orderId: order.id });
    assert.equal(made.status, 201);
    const before = await rowCount();
    await config('revocation/general/enabled', '0', async () => {
      assert.equal((await submit(c.token, { orderId: order.id })).status, 404);
      assert.equal((await t.req('GET', `${API}/customers/me/revocation-requests`, { token: c.token })).status, 404);
      assert.equal((await t.req('GET', `${API}/revocation-requests`, { token: admin })).status, 404);
      assert.equal((await t.req('GET', `${API}/revocation-requests/${made.body.id}`, { token: admin })).status, 404);
      assert.equal((await t.req('GET', `${API}/revocation-requests/${made.body.id}`, { token: c.token })).status, 404);
      assert.equal(
        (await t.req('PUT', `${API}/revocation-requests/${made.body.id}`, { token: admin, body: { processedStatus: 'accepted' } })).status,
        404,
      );
      const g1 = await gql(
        `mutation($id: Int) { submitRevocation(input: {orderId: $id}) { revocationRequest { id } } }`,
        { id: order.id },
        c.token,
      );
      assert.equal(g1.errors?.[0].extensions.status, 404);
      const g2 = await gql(`{ myRevocationRequests { totalCount } }`, {}, c.token);
      assert.equal(g2.errors?.[0].extensions.status, 404);
      const g3 = await gql(`{ revocationRequests { totalCount } }`, {}, admin);
      assert.equal(g3.errors?.[0].extensions.status, 404);
      const g4 = await gql(`query($id: ID!) { revocationRequest(id: $id) { id } }`, { id: made.body.id }, admin);
      assert.equal(g4.errors?.[0].extensions.status, 404);
    });
    assert.equal(await rowCount(), before);
    assert.equal((await t.req('GET', `${API}/revocation-requests/${made.body.id}`, { token: admin })).status, 200, 'back on');
  });
});

describe('submitRevocation for the web form (guests)', () => {
  test("a guest's declaration needs the order's email (else 404) and is not verified", async () => {
    const order = await placeTestOrder(t);
    const ctx = { ...t.systemCtx(), actor: { kind: 'anonymous' as const } };
    await assert.rejects(submitRevocation(ctx, { orderReference: order.incrementId, email: 'someone@else.example', channel: 'web_form' }), {
      status: 404,
    });
    await assert.rejects(submitRevocation(ctx, { orderReference: order.incrementId, channel: 'web_form' }), { status: 404 });
    const made = await submitRevocation(ctx, {
      orderReference: order.incrementId,
      email: order.customerEmail.toUpperCase(),
      channel: 'web_form',
    });
    assert.equal(made.orderId, order.id);
    assert.equal(made.verified, false);
    const [row] = await t.database.db.select().from(revocationRequests).where(eq(revocationRequests.id, made.id));
    assert.equal(row.channel, 'web_form');
  });

  test('declarations belong to the customer who made them, not to whoever holds the address now', async () => {
    // a guest order and its declaration under an address that a customer account has, or takes over later
    const holder = await newCustomer();
    const guestOrder = await placeTestOrder(t, { guestEmail: holder.email });
    const ctx = { ...t.systemCtx(), actor: { kind: 'anonymous' as const } };
    const guests = await submitRevocation(ctx, { orderReference: guestOrder.incrementId, email: holder.email, channel: 'web_form' });
    // a customer's own declaration keeps belonging to them when the address on it moves to another account
    const owner = await newCustomer();
    const order = await placeTestOrder(t, { customerToken: owner.token });
    const owners = await submit(owner.token, { orderId: order.id });
    assert.equal(owners.status, 201, owners.text);
    await t.database.db.execute(sql`UPDATE customers SET email = ${`moved-${owner.email}`} WHERE id = ${owner.id}`);
    await t.database.db.execute(sql`UPDATE customers SET email = ${owner.email} WHERE id = ${holder.id}`);
    const newcomer = await t.tokens.customer(owner.email, 'Secret123');

    for (const token of [holder.token, newcomer]) {
      const list = await t.req('GET', `${API}/customers/me/revocation-requests`, { token });
      assert.equal(list.status, 200, list.text);
      assert.deepEqual(list.body.member, [], 'no declaration of a guest or of another account');
      for (const id of [guests.id, owners.body.id]) {
        assert.equal((await t.req('GET', `${API}/revocation-requests/${id}`, { token })).status, 404);
      }
    }
    const own = await t.req('GET', `${API}/customers/me/revocation-requests`, { token: owner.token });
    assert.deepEqual(
      own.body.member.map((m: { id: number }) => m.id),
      [owners.body.id],
    );
    assert.equal((await t.req('GET', `${API}/revocation-requests/${owners.body.id}`, { token: owner.token })).status, 200);
  });
});

// last: concurrent requests may stamp receivedAt out of id order, and the "newest first" list test above compares ids
describe('concurrency', () => {
  test('parallel declarations of one address send one receipt; the others are marked suppressed', async () => {
    const c = await newCustomer();
    const order = await placeTestOrder(t, { customerToken: c.token });
    const replies = await Promise.all(Array.from({ length: 6 }, (_, i) => submit(c.token, { orderId: order.id, reason: `parallel ${i}` })));
    for (const r of replies) assert.equal(r.status, 201, r.text);
    const rows = await t.database.db.select().from(revocationRequests).where(eq(revocationRequests.orderId, order.id));
    assert.equal(rows.length, 6);
    assert.equal(rows.filter((r) => r.suppressedAt === null).length, 1, 'one declaration had its receipt sent');
    assert.equal((await mails('revocation/receipt', c.email.toLowerCase())).length, 1);
  });
});
