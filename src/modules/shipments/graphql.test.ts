/**
 * Shipments over GraphQL: shipment(id: IRI), the shipments connection (admin, cursor paging), orderShipments,
 * createShipment, addTrackShipment, removeTrackShipment, addCommentShipment with `input` and `{ shipment }`
 * payloads; per access level, and bad input as 4xx errors.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { buildTestApp, type TestApp } from '../../../test/helpers.js';
import { placeTestOrder } from '../../../test/fixtures/checkout.js';

let t: TestApp;
let admin: string;
let customer: string;
let reader: string;

const gql = (query: string, token?: string, variables?: Record<string, unknown>) => t.gql(query, token, variables);

before(async () => {
  t = await buildTestApp();
  admin = await t.tokens.admin();
  customer = await t.tokens.customer();
  reader = await t.tokens.apiUser(['shipments/read']);
});
after(() => t.close());

async function ship(orderId: number, extra = '') {
  const r = await gql(
    `mutation { createShipment(input: {orderId: ${orderId}${extra}}) { shipment { id _id orderId incrementId totalQty tracks items comments } } }`,
    admin,
  );
  assert.equal(r.errors, undefined, JSON.stringify(r.errors));
  return r.data.createShipment.shipment;
}

describe('shipments over GraphQL', () => {
  test('createShipment, shipment by IRI, orderShipments, tracks and comments', async () => {
    const o = await placeTestOrder(t, { customerToken: customer });
    const s = await ship(o.id, `, items: [{orderItemId: ${o.items[0].id}, qty: 1}], tracks: [{trackNumber: "T-1"}], comment: "first"`);
    assert.equal(s.id, `/api/rest/v2/shipments/${s._id}`);
    assert.equal(s.orderId, o.id);
    assert.equal(s.totalQty, 1);
    assert.equal(s.tracks[0].trackNumber, 'T-1');

    const one = await gql(`{ shipment(id: "${s.id}") { _id incrementId orderIncrementId items } }`, reader);
    assert.equal(one.data.shipment.orderIncrementId, o.incrementId);
    const list = await gql(`{ orderShipments(orderId: ${o.id}) { totalCount edges { node { _id } } } }`, reader);
    assert.deepEqual(list.data.orderShipments, { totalCount: 1, edges: [{ node: { _id: s._id } }] });

    const added = await gql(
      `mutation { addTrackShipment(input: {shipmentId: ${s._id}, carrierCode: "ups", trackNumber: "T-2"}) { shipment { tracks } } }`,
      admin,
    );
    assert.equal(added.errors, undefined, JSON.stringify(added.errors));
    const track = added.data.addTrackShipment.shipment.tracks.at(-1);
    assert.deepEqual([track.carrier, track.trackNumber], ['ups', 'T-2']);
    const removed = await gql(
      `mutation { removeTrackShipment(input: {shipmentId: ${s._id}, trackId: ${track.id}}) { shipment { id _id } } }`,
      admin,
    );
    assert.deepEqual(removed.data.removeTrackShipment.shipment, { id: s.id, _id: s._id });
    const comment = await gql(
      `mutation { addCommentShipment(input: {id: "${s.id}", comment: "second"}) { shipment { comments } } }`,
      admin,
    );
    assert.equal(comment.data.addCommentShipment.shipment.comments[0].comment, 'second');
  });

  test('the shipments connection lists every shipment for an admin, newest first, with cursor paging', async () => {
    const a = await placeTestOrder(t);
    const b = await placeTestOrder(t);
    const sa = await ship(a.id);
    const sb = await ship(b.id);
    const r = await gql(
      '{ shipments(first: 1) { totalCount edges { node { id _id orderId } } pageInfo { hasNextPage endCursor } } }',
      reader,
    );
    assert.equal(r.errors, undefined, JSON.stringify(r.errors));
    assert.ok(r.data.shipments.totalCount >= 2);
    assert.equal(r.data.shipments.edges[0].node._id, sb._id);
    assert.equal(r.data.shipments.pageInfo.hasNextPage, true);
    const next = await gql(
      `{ shipments(first: 1, after: "${r.data.shipments.pageInfo.endCursor}") { edges { node { _id } } pageInfo { hasPreviousPage } } }`,
      reader,
    );
    assert.equal(next.data.shipments.edges[0].node._id, sa._id);
    assert.equal(next.data.shipments.pageInfo.hasPreviousPage, true);
  });

  test('access: customers get an error (even for their own order), anonymous 401, a read grant may not write', async () => {
    const o = await placeTestOrder(t, { customerToken: customer });
    const s = await ship(o.id);
    const cust = await gql('{ shipments { totalCount } }', customer);
    assert.equal(cust.data.shipments, null);
    assert.equal(cust.errors[0].extensions.status, 403);
    assert.equal((await gql(`{ shipment(id: ${s._id}) { _id } }`, customer)).errors[0].extensions.status, 403);
    assert.equal((await gql(`{ orderShipments(orderId: ${o.id}) { totalCount } }`)).errors[0].extensions.status, 401);
    const ro = await gql(`mutation { addTrackShipment(input: {shipmentId: ${s._id}, trackNumber: "X"}) { shipment { _id } } }`, reader);
    assert.equal(ro.errors[0].extensions.status, 403);
  });

  test('bad input: unknown ids are 404, a blank track number or a bad qty 400, a bad cursor 400', async () => {
    assert.equal((await gql('{ shipment(id: "/api/rest/v2/shipments/99999999") { _id } }', admin)).errors[0].extensions.status, 404);
    assert.equal((await gql('{ shipment(id: "/api/rest/v2/orders/1") { _id } }', admin)).errors[0].extensions.status, 404);
    assert.equal((await gql('{ orderShipments(orderId: 99999999) { totalCount } }', admin)).errors[0].extensions.status, 404);
    const o = await placeTestOrder(t);
    const s = await ship(o.id);
    const blank = await gql(`mutation { addTrackShipment(input: {shipmentId: ${s._id}, trackNumber: " "}) { shipment { _id } } }`, admin);
    assert.equal(blank.errors[0].extensions.status, 400);
    const o2 = await placeTestOrder(t);
    const badQty = await gql(
      `mutation { createShipment(input: {orderId: ${o2.id}, items: [{orderItemId: ${o2.items[0].id}, qty: -1}]}) { shipment { _id } } }`,
      admin,
    );
    assert.equal(badQty.data.createShipment, null);
    assert.equal(badQty.errors[0].extensions.status, 400);
    assert.equal((await gql('{ shipments(after: "nope") { totalCount } }', admin)).errors[0].extensions.status, 400);
    assert.equal((await gql('{ shipments(first: -1) { totalCount } }', admin)).errors[0].extensions.status, 400);
  });
});
