/** Tracking numbers and comments of shipments (REST and GraphQL), and who may reach the shipment routes. */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { and, eq, sql } from 'drizzle-orm';
import { API, buildTestApp, type TestApp } from '../../../test/helpers.js';
import { mailOutbox } from '../../platform/tables.js';
import { placeTestOrder } from '../../../test/fixtures/checkout.js';
import { findOrder } from '../orders/core.js';
import { shipmentComments, shipmentTracks, shipments } from './tables.js';

let t: TestApp;
let admin: string;
let customer: string;
const tok = { none: '', read: '', write: '', create: '', del: '', otherStore: '', ownStore: '' };

before(async () => {
  t = await buildTestApp();
  admin = await t.tokens.admin();
  customer = await t.tokens.customer();
  tok.none = await t.tokens.apiUser(['orders/read', 'orders/write']);
  tok.read = await t.tokens.apiUser(['shipments/read']);
  tok.write = await t.tokens.apiUser(['shipments/read', 'shipments/write']);
  tok.create = await t.tokens.apiUser(['shipments/create']);
  tok.del = await t.tokens.apiUser(['shipments/delete']);
  tok.otherStore = await t.tokens.apiUser(['shipments/all'], { allowedStoreIds: [2] });
  tok.ownStore = await t.tokens.apiUser(['shipments/all'], { allowedStoreIds: [1] });
});
after(() => t.close());

/** A new order of store 1 with one shipment (and one track on it). */
async function shipped(email = 'guest@example.com') {
  const placed = await placeTestOrder(t, { guestEmail: email });
  const r = await t.req('POST', `${API}/orders/${placed.id}/shipments`, {
    token: admin,
    body: { items: [{ orderItemId: placed.items[0].id, qty: 1 }], tracks: [{ trackNumber: 'FIRST' }] },
  });
  assert.equal(r.status, 201, r.text);
  return { order: placed, shipment: r.body };
}

async function trackCount(shipmentId: number) {
  const [r] = await t.database.db
    .select({ n: sql<number>`count(*)::int` })
    .from(shipmentTracks)
    .where(eq(shipmentTracks.shipmentId, shipmentId));
  return r.n;
}

/** the store view the restricted token may act in (store 2) */
const GERMAN = { 'x-store-code': 'german' };

async function gql(query: string, variables: Record<string, unknown>, token?: string, headers?: Record<string, string>) {
  const r = await t.req('POST', '/api/graphql', { token, body: { query, variables }, headers });
  assert.equal(r.status, 200, r.text);
  return r.body as { data: Record<string, any> | null; errors?: { message: string; extensions: { code: string; status: number } }[] };
}

describe('tracks', () => {
  test('POST /shipments/{id}/tracks adds a track (201) and answers with the shipment; defaults custom / the carrier code', async () => {
    const { shipment } = await shipped();
    const a = await t.req('POST', `${API}/shipments/${shipment.id}/tracks`, { token: admin, body: { trackNumber: 'T-1' } });
    assert.equal(a.status, 201, a.text);
    assert.equal(a.body.id, shipment.id);
    const added = a.body.tracks.at(-1);
    assert.equal(added.carrier, 'custom');
    assert.equal(added.title, 'custom');
    assert.equal(added.trackNumber, 'T-1');
    assert.ok(Number.isInteger(added.id));
    assert.match(added.createdAt, /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/);
    const b = await t.req('POST', `${API}/shipments/${shipment.id}/tracks`, {
      token: admin,
      body: { carrierCode: 'fedex', trackNumber: 'T-2' },
    });
    assert.deepEqual([b.body.tracks.at(-1).carrier, b.body.tracks.at(-1).title], ['fedex', 'fedex']);
    const c = await t.req('POST', `${API}/shipments/${shipment.id}/tracks`, {
      token: admin,
      body: { carrierCode: 'usps', title: 'USPS Priority', trackNumber: 'T-3' },
    });
    assert.deepEqual([c.body.tracks.at(-1).carrier, c.body.tracks.at(-1).title], ['usps', 'USPS Priority']);
    assert.deepEqual(
      c.body.tracks.map((x: { trackNumber: string }) => x.trackNumber),
      ['FIRST', 'T-1', 'T-2', 'T-3'],
    );
    const read = await t.req('GET', `${API}/shipments/${shipment.id}`, { token: admin });
    assert.deepEqual(read.body.tracks, c.body.tracks);
  });

  test('a track without a (non-blank) trackNumber is 400 and adds nothing; an unknown shipment is 404', async () => {
    const { shipment } = await shipped();
    for (const body of [
      {},
      { trackNumber: '' },
      { trackNumber: '  ' },
      { trackNumber: 5 },
      { carrierCode: 'ups' },
      { trackNumber: 'x'.repeat(256) },
    ]) {
      const r = await t.req('POST', `${API}/shipments/${shipment.id}/tracks`, { token: admin, body });
      assert.equal(r.status, 400, `${JSON.stringify(body)}: ${r.text}`);
    }
    assert.equal(await trackCount(shipment.id), 1);
    assert.equal((await t.req('POST', `${API}/shipments/99999999/tracks`, { token: admin, body: { trackNumber: 'x' } })).status, 404);
    assert.equal((await t.req('POST', `${API}/shipments/0/tracks`, { token: admin, body: { trackNumber: 'x' } })).status, 400);
  });

  test('DELETE /shipments/{id}/tracks/{trackId} removes by row id (204); a track of another shipment is 404 and stays', async () => {
    const one = await shipped();
    const two = await shipped();
    const mine = one.shipment.tracks[0].id;
    const theirs = two.shipment.tracks[0].id;
    const cross = await t.req('DELETE', `${API}/shipments/${one.shipment.id}/tracks/${theirs}`, { token: admin });
    assert.equal(cross.status, 404, cross.text);
    assert.equal(cross.body.message, 'Track not found on this shipment');
    assert.equal(await trackCount(two.shipment.id), 1);

    const r = await t.req('DELETE', `${API}/shipments/${one.shipment.id}/tracks/${mine}`, { token: admin });
    assert.equal(r.status, 204, r.text);
    assert.equal(r.text, '');
    assert.equal(await trackCount(one.shipment.id), 0);
    assert.deepEqual((await t.req('GET', `${API}/shipments/${one.shipment.id}`, { token: admin })).body.tracks, []);
    assert.equal(
      (await t.req('DELETE', `${API}/shipments/${one.shipment.id}/tracks/${mine}`, { token: admin })).status,
      404,
      'already gone',
    );
    assert.equal((await t.req('DELETE', `${API}/shipments/99999999/tracks/${theirs}`, { token: admin })).status, 404);
    assert.equal((await t.req('DELETE', `${API}/shipments/${one.shipment.id}/tracks/abc`, { token: admin })).status, 400);
    assert.equal((await t.req('DELETE', `${API}/shipments/${one.shipment.id}/tracks/2147483648`, { token: admin })).status, 400);
  });
});

describe('comments', () => {
  test('POST /shipments/{id}/comments adds a comment (201), newest first; note is an alias', async () => {
    const { shipment, order } = await shipped('comments@example.com');
    const a = await t.req('POST', `${API}/shipments/${shipment.id}/comments`, { token: admin, body: { comment: 'Packed' } });
    assert.equal(a.status, 201, a.text);
    assert.equal(a.body.comments.length, 1);
    assert.equal(a.body.comments[0].comment, 'Packed');
    assert.equal(a.body.comments[0].isCustomerNotified, false);
    assert.equal(a.body.comments[0].isVisibleOnFront, false);
    const b = await t.req('POST', `${API}/shipments/${shipment.id}/comments`, {
      token: admin,
      body: { note: 'Handed over', visibleOnFront: true },
    });
    assert.equal(b.status, 201, b.text);
    assert.deepEqual(
      b.body.comments.map((c: { comment: string }) => c.comment),
      ['Handed over', 'Packed'],
    );
    assert.equal(b.body.comments[0].isVisibleOnFront, true);
    const mails = await t.database.db
      .select()
      .from(mailOutbox)
      .where(and(eq(mailOutbox.toAddress, 'comments@example.com'), eq(mailOutbox.template, 'sales/shipment_comment')));
    assert.equal(mails.length, 0, 'no mail without notifyCustomer');

    const c = await t.req('POST', `${API}/shipments/${shipment.id}/comments`, {
      token: admin,
      body: { comment: 'On its way', notifyCustomer: true },
    });
    assert.equal(c.status, 201, c.text);
    assert.equal(c.body.comments[0].isCustomerNotified, true);
    const sent = await t.database.db
      .select()
      .from(mailOutbox)
      .where(and(eq(mailOutbox.toAddress, 'comments@example.com'), eq(mailOutbox.template, 'sales/shipment_comment')));
    assert.equal(sent.length, 1);
    assert.match(sent[0].subject, new RegExp(order.incrementId));
    assert.match(sent[0].textBody, /On its way/);
  });

  test('a comment is required (400, nothing added); an unknown shipment is 404', async () => {
    const { shipment } = await shipped();
    for (const body of [{}, { comment: '' }, { comment: '   ' }, { note: '' }, { comment: 5 }, { notifyCustomer: true }]) {
      const r = await t.req('POST', `${API}/shipments/${shipment.id}/comments`, { token: admin, body });
      assert.equal(r.status, 400, `${JSON.stringify(body)}: ${r.text}`);
    }
    const [{ n }] = await t.database.db
      .select({ n: sql<number>`count(*)::int` })
      .from(shipmentComments)
      .where(eq(shipmentComments.shipmentId, shipment.id));
    assert.equal(n, 0);
    assert.equal((await t.req('POST', `${API}/shipments/99999999/comments`, { token: admin, body: { comment: 'x' } })).status, 404);
  });
});

describe('GraphQL', () => {
  const ADD = `mutation($s: Int!, $c: String, $t: String, $n: String!) {
    addTrackShipment(input: {shipmentId: $s, carrierCode: $c, title: $t, trackNumber: $n}) { shipment { id _id incrementId orderIncrementId totalQty tracks items } }
  }`;
  const REMOVE = `mutation($s: Int!, $t: Int!) { removeTrackShipment(input: {shipmentId: $s, trackId: $t}) { shipment { _id } } }`;

  test('addTrackShipment adds a track and answers with the shipment; removeTrackShipment answers the shipment', async () => {
    const { shipment, order } = await shipped();
    const a = await gql(ADD, { s: shipment.id, n: 'G-1' }, admin);
    assert.equal(a.errors, undefined, JSON.stringify(a.errors));
    const s = a.data!.addTrackShipment.shipment;
    assert.equal(s._id, shipment.id);
    assert.equal(s.id, `/api/rest/v2/shipments/${shipment.id}`);
    assert.equal(s.orderIncrementId, order.incrementId);
    const added = s.tracks.at(-1);
    assert.deepEqual([added.carrier, added.title, added.trackNumber], ['custom', 'custom', 'G-1']);
    const b = await gql(ADD, { s: shipment.id, c: 'ups', t: null, n: 'G-2' }, admin);
    assert.deepEqual(
      [b.data!.addTrackShipment.shipment.tracks.at(-1).carrier, b.data!.addTrackShipment.shipment.tracks.at(-1).title],
      ['ups', 'ups'],
    );

    const r = await gql(REMOVE, { s: shipment.id, t: added.id }, admin);
    assert.equal(r.errors, undefined, JSON.stringify(r.errors));
    assert.equal(r.data!.removeTrackShipment.shipment._id, shipment.id);
    assert.equal(await trackCount(shipment.id), 2);
  });

  test('errors: a blank track number, a track of another shipment, an unknown shipment', async () => {
    const one = await shipped();
    const two = await shipped();
    const blank = await gql(ADD, { s: one.shipment.id, n: ' ' }, admin);
    assert.equal(blank.errors?.[0].extensions.code, 'VALIDATION_FAILED');
    assert.equal(blank.errors?.[0].extensions.status, 400);
    const cross = await gql(REMOVE, { s: one.shipment.id, t: two.shipment.tracks[0].id }, admin);
    assert.equal(cross.errors?.[0].extensions.code, 'TRACK_NOT_FOUND');
    assert.equal(cross.errors?.[0].extensions.status, 404);
    assert.equal(await trackCount(two.shipment.id), 1);
    const missing = await gql(ADD, { s: 99999999, n: 'x' }, admin);
    assert.equal(missing.errors?.[0].extensions.code, 'SHIPMENT_NOT_FOUND');
  });

  test('access: anonymous, customers and API users without the permission are refused, and nothing changes', async () => {
    const { shipment } = await shipped();
    const trackId = shipment.tracks[0].id;
    const cases: [string | undefined, string][] = [
      [undefined, 'UNAUTHENTICATED'],
      [customer, 'ADMIN_REQUIRED'],
      [tok.none, 'PERMISSION_DENIED'],
      [tok.read, 'PERMISSION_DENIED'],
    ];
    for (const [token, code] of cases) {
      const a = await gql(ADD, { s: shipment.id, n: 'nope' }, token);
      assert.equal(a.errors?.[0].extensions.code, code);
      const r = await gql(REMOVE, { s: shipment.id, t: trackId }, token);
      assert.equal(r.errors?.[0].extensions.code, code);
    }
    // write/create may add, but removing needs shipments/delete
    assert.equal((await gql(REMOVE, { s: shipment.id, t: trackId }, tok.write)).errors?.[0].extensions.code, 'PERMISSION_DENIED');
    assert.equal(await trackCount(shipment.id), 1);
    const other = await gql(ADD, { s: shipment.id, n: 'nope' }, tok.otherStore, GERMAN);
    assert.equal(other.errors?.[0].extensions.code, 'STORE_NOT_ALLOWED', 'outside its store views');
    assert.equal(await trackCount(shipment.id), 1);
    assert.equal((await gql(ADD, { s: shipment.id, n: 'yes' }, tok.create)).errors, undefined);
    assert.equal((await gql(REMOVE, { s: shipment.id, t: trackId }, tok.del)).data?.removeTrackShipment.shipment._id, shipment.id);
  });
});

describe('access to the REST routes', () => {
  test('anonymous 401, customers 403 (even for their own order), API users without the permission 403; nothing changes', async () => {
    const mine = await placeTestOrder(t, { customerToken: customer });
    const s = await t.req('POST', `${API}/orders/${mine.id}/shipments`, {
      token: admin,
      body: { items: [{ orderItemId: mine.items[0].id, qty: 1 }], tracks: [{ trackNumber: 'A' }] },
    });
    assert.equal(s.status, 201, s.text);
    const shipment = s.body;
    const trackId = shipment.tracks[0].id;
    const calls: [string, string, unknown, string][] = [
      ['GET', `/orders/${mine.id}/shipments`, undefined, 'read'],
      ['POST', `/orders/${mine.id}/shipments`, {}, 'create'],
      ['GET', `/shipments/${shipment.id}`, undefined, 'read'],
      ['POST', `/shipments/${shipment.id}/tracks`, { trackNumber: 'B' }, 'create'],
      ['DELETE', `/shipments/${shipment.id}/tracks/${trackId}`, undefined, 'delete'],
      ['POST', `/shipments/${shipment.id}/comments`, { comment: 'c' }, 'write'],
    ];
    const state = async () => {
      const o = await findOrder(t.systemCtx(), mine.id);
      const [{ n: ships }] = await t.database.db
        .select({ n: sql<number>`count(*)::int` })
        .from(shipments)
        .where(eq(shipments.orderId, mine.id));
      const [{ n: comments }] = await t.database.db
        .select({ n: sql<number>`count(*)::int` })
        .from(shipmentComments)
        .where(eq(shipmentComments.shipmentId, shipment.id));
      return { shipped: o!.items.map((i) => i.qtyShipped), ships, tracks: await trackCount(shipment.id), comments };
    };
    const before = await state();
    for (const [method, path, body, op] of calls) {
      const what = `${method} ${path}`;
      const anon = await t.req(method, `${API}${path}`, { body });
      assert.equal(anon.status, 401, `anonymous ${what}: ${anon.text}`);
      assert.equal(anon.body.error, 'unauthorized');
      const cust = await t.req(method, `${API}${path}`, { token: customer, body });
      assert.equal(cust.status, 403, `customer ${what}: ${cust.text}`);
      assert.equal((await t.req(method, `${API}${path}`, { token: tok.none, body })).status, 403, `orders-only API user ${what}`);
      if (op !== 'read')
        assert.equal((await t.req(method, `${API}${path}`, { token: tok.read, body })).status, 403, `read-only API user ${what}`);
      if (op === 'delete')
        assert.equal(
          (await t.req(method, `${API}${path}`, { token: tok.write, body })).status,
          403,
          `write does not grant delete: ${what}`,
        );
      if (op === 'read') assert.equal((await t.req(method, `${API}${path}`, { token: tok.read })).status, 200, `read API user ${what}`);
      const outside = await t.req(method, `${API}${path}`, { token: tok.otherStore, body, headers: GERMAN });
      assert.equal(outside.status, 403, `store-restricted, an order outside its stores ${what}: ${outside.text}`);
      const wrongStore = await t.req(method, `${API}${path}`, { token: tok.otherStore, body });
      assert.equal(wrongStore.status, 403, `store-restricted, in a store view it may not use ${what}: ${wrongStore.text}`);
    }
    assert.deepEqual(await state(), before);

    // within its stores a restricted principal works; shipments/write covers create
    const inside = await t.req('GET', `${API}/shipments/${shipment.id}`, { token: tok.ownStore });
    assert.equal(inside.status, 200, inside.text);
    const created = await t.req('POST', `${API}/orders/${mine.id}/shipments`, { token: tok.write, body: {} });
    assert.equal(created.status, 201, created.text);
    const tracked = await t.req('POST', `${API}/shipments/${shipment.id}/tracks`, { token: tok.create, body: { trackNumber: 'C' } });
    assert.equal(tracked.status, 201, tracked.text);
    const removed = await t.req('DELETE', `${API}/shipments/${shipment.id}/tracks/${trackId}`, { token: tok.del });
    assert.equal(removed.status, 204, removed.text);
    const commented = await t.req('POST', `${API}/shipments/${shipment.id}/comments`, { token: tok.write, body: { comment: 'ok' } });
    assert.equal(commented.status, 201, commented.text);
  });
});
