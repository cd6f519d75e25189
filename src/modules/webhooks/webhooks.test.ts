/**
 * Outbound webhooks over HTTP with a receiver on 127.0.0.1: subscriptions and who may manage them, every event
 * signed per Standard Webhooks (checked with the `standardwebhooks` library) with the resource's REST shape,
 * retries on the schedule, disabling after failing, ping, redelivery, secret rotation, nothing emitted for a
 * rolled-back change, two app instances on one database delivering each event once, and the SSRF rules.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { sql } from 'drizzle-orm';
import { Webhook } from 'standardwebhooks';
import { API, buildSecondApp, buildTestApp, type TestApp } from '../../../test/helpers.js';
import { rows } from '../../platform/db.js';
import { createTestProduct } from '../../../test/fixtures/catalog.js';
import { placeTestOrder, TEST_ADDRESS } from '../../../test/fixtures/checkout.js';
import { unsubscribeCode } from '../newsletter/service.js';
import { startReceiver, type Receiver, type Received } from '../../../test/fixtures/webhooks.js';
import { webhookDeliverer } from './background.js';
import { guardedLookup, isPublicAddress, urlProblem } from './target.js';

const FAST = {
  WEBHOOK_RETRY_BASE: '100',
  WEBHOOK_RETRY_MAX: '400',
  WEBHOOK_RETRY_FOR: '1500',
  WEBHOOK_POLL: '50',
  WEBHOOK_TIMEOUT: '2000',
};

let t: TestApp;
let admin: string;
let rx: Receiver;

before(async () => {
  t = await buildTestApp({ env: FAST });
  admin = await t.tokens.admin();
  rx = await startReceiver();
});
after(async () => {
  await rx.close();
  await t.close();
});

async function subscribe(body: Record<string, unknown>, app = t): Promise<{ id: number; secret: string }> {
  const r = await app.req('POST', `${API}/webhooks`, { token: admin, body });
  assert.equal(r.status, 201, r.text);
  return r.body;
}

function verify(secret: string, r: Received): any {
  return new Webhook(secret).verify(r.body, r.headers as Record<string, string>);
}

const eventsOf = (path: string) => rx.received.filter((r) => r.path === path);

describe('subscriptions', () => {
  test('create shows the secret once; reads never show it; list, filter, update and delete', async () => {
    const created = await t.req('POST', `${API}/webhooks`, {
      token: admin,
      body: { url: rx.url('/crud'), events: ['order.*', 'product.created'], description: 'ERP', storeCodes: ['default'] },
    });
    assert.equal(created.status, 201, created.text);
    assert.match(created.body.secret, /^whsec_[A-Za-z0-9+/]{43}=$/);
    assert.deepEqual(
      {
        url: created.body.url,
        events: created.body.events,
        active: created.body.active,
        storeCodes: created.body.storeCodes,
        description: created.body.description,
      },
      { url: rx.url('/crud'), events: ['order.*', 'product.created'], active: true, storeCodes: ['default'], description: 'ERP' },
    );
    const id = created.body.id;
    const read = await t.req('GET', `${API}/webhooks/${id}`, { token: admin });
    assert.equal(read.status, 200);
    assert.equal(read.body.secret, undefined);
    const stored = await rows<{ secret: string }>(t.database.db, sql`SELECT secret FROM webhook_subscriptions WHERE id = ${id}`);
    assert.ok(!stored[0].secret.includes(created.body.secret.slice(6)), 'the secret is stored encrypted');

    const byEvent = await t.req('GET', `${API}/webhooks`, {
      token: admin,
      query: { event: 'order.canceled' },
      headers: { accept: 'application/json' },
    });
    assert.ok(byEvent.body.some((w: any) => w.id === id));
    const other = await t.req('GET', `${API}/webhooks`, {
      token: admin,
      query: { event: 'customer.created' },
      headers: { accept: 'application/json' },
    });
    assert.ok(!other.body.some((w: any) => w.id === id));

    const updated = await t.req('PUT', `${API}/webhooks/${id}`, { token: admin, body: { active: false, events: ['*'], storeCodes: null } });
    assert.equal(updated.status, 200, updated.text);
    assert.deepEqual([updated.body.active, updated.body.events, updated.body.storeCodes], [false, ['*'], null]);

    const gql = await t.gql(`query { webhook(id: "${API}/webhooks/${id}") { url active events } }`, admin);
    assert.deepEqual(gql.data.webhook, { url: rx.url('/crud'), active: false, events: ['*'] });

    assert.equal((await t.req('DELETE', `${API}/webhooks/${id}`, { token: admin })).status, 204);
    assert.equal((await t.req('GET', `${API}/webhooks/${id}`, { token: admin })).status, 404);
    assert.equal((await t.req('DELETE', `${API}/webhooks/${id}`, { token: admin })).status, 404);
  });

  test('bad input is a 400 and creates nothing', async () => {
    const [{ n: before }] = await rows<{ n: number }>(t.database.db, sql`SELECT count(*)::int AS n FROM webhook_subscriptions`);
    const cases: [string, unknown][] = [
      ['no url', { events: ['*'] }],
      ['relative url', { url: '/hook', events: ['*'] }],
      ['ftp url', { url: 'ftp://example.com/x', events: ['*'] }],
      ['credentials in url', { url: 'http://u:p@127.0.0.1/x', events: ['*'] }],
      ['no events', { url: rx.url(), events: [] }],
      ['unknown event', { url: rx.url(), events: ['order.exploded'] }],
      ['unknown group', { url: rx.url(), events: ['parcel.*'] }],
      ['malformed pattern', { url: rx.url(), events: ['order.**'] }],
      ['unknown store', { url: rx.url(), events: ['*'], storeCodes: ['nowhere'] }],
      ['wrong type', { url: rx.url(), events: 'order.placed' }],
    ];
    for (const [name, body] of cases) {
      const r = await t.req('POST', `${API}/webhooks`, { token: admin, body });
      assert.equal(r.status, 400, `${name}: ${r.status} ${r.text}`);
    }
    const malformed = await t.req('POST', `${API}/webhooks`, {
      token: admin,
      raw: '{"url":',
      headers: { 'content-type': 'application/json' },
    });
    assert.equal(malformed.status, 400);
    assert.equal((await t.req('GET', `${API}/webhooks/abc`, { token: admin })).status, 400);
    assert.equal((await t.req('GET', `${API}/webhooks/999999`, { token: admin })).status, 404);
    const [{ n: afterwards }] = await rows<{ n: number }>(t.database.db, sql`SELECT count(*)::int AS n FROM webhook_subscriptions`);
    assert.equal(afterwards, before);
  });

  test('only admin principals with the webhooks grants may manage subscriptions', async () => {
    const body = { url: rx.url('/acl'), events: ['*'] };
    assert.equal((await t.req('GET', `${API}/webhooks`)).status, 401);
    assert.equal((await t.req('POST', `${API}/webhooks`, { body })).status, 401);
    const customer = await t.tokens.customer();
    assert.equal((await t.req('GET', `${API}/webhooks`, { token: customer })).status, 403);
    assert.equal((await t.req('POST', `${API}/webhooks`, { token: customer, body })).status, 403);
    const reader = await t.tokens.apiUser(['webhooks/read']);
    assert.equal((await t.req('GET', `${API}/webhooks`, { token: reader })).status, 200);
    assert.equal((await t.req('POST', `${API}/webhooks`, { token: reader, body })).status, 403);
    const other = await t.tokens.apiUser(['orders/all']);
    assert.equal((await t.req('GET', `${API}/webhooks`, { token: other })).status, 403);
    const writer = await t.tokens.apiUser(['webhooks/read', 'webhooks/create', 'webhooks/write']);
    const made = await t.req('POST', `${API}/webhooks`, { token: writer, body });
    assert.equal(made.status, 201);
    assert.equal((await t.req('DELETE', `${API}/webhooks/${made.body.id}`, { token: writer })).status, 403);
    assert.equal((await t.req('DELETE', `${API}/webhooks/${made.body.id}`, { token: admin })).status, 204);
  });
});

describe('events', () => {
  test('every event arrives signed, with the REST shape of its resource and a sequence per resource', async () => {
    const sub = await subscribe({ url: rx.url('/all'), events: ['*'] });
    const customerToken = await t.tokens.customer();

    // catalog and stock
    const product = await createTestProduct(t, { price: 10, stockData: { qty: 50, isInStock: true } });
    assert.equal((await t.req('PUT', `${API}/products/${product.id}`, { token: admin, body: { name: 'Renamed lamp' } })).status, 200);
    assert.equal((await t.req('PUT', `${API}/inventory`, { token: admin, body: { sku: product.sku, qty: 40 } })).status, 200);
    // orders: placed, invoiced (open) and the invoice captured, held, released, shipped with a track, a track added, refunded
    const order = await placeTestOrder(t, { customerToken, items: [{ sku: product.sku, qty: 2 }] });
    const invoiced = await t.req('POST', `${API}/orders/${order.id}/invoices`, { token: admin, body: { capture: 'not_capture' } });
    assert.equal(invoiced.status, 201, invoiced.text);
    assert.equal((await t.req('POST', `${API}/invoices/${invoiced.body.id}/capture`, { token: admin, body: {} })).status, 201);
    assert.equal((await t.req('POST', `${API}/orders/${order.id}/hold`, { token: admin, body: {} })).status, 201);
    assert.equal((await t.req('POST', `${API}/orders/${order.id}/unhold`, { token: admin, body: {} })).status, 201);
    const shipment = await t.req('POST', `${API}/orders/${order.id}/shipments`, {
      token: admin,
      body: { tracks: [{ carrierCode: 'ups', title: 'UPS', trackNumber: '1Z1' }] },
    });
    assert.equal(shipment.status, 201, shipment.text);
    const track = await t.req('POST', `${API}/shipments/${shipment.body.id}/tracks`, {
      token: admin,
      body: { carrierCode: 'dhl', title: 'DHL', trackNumber: 'JD2' },
    });
    assert.ok(track.status === 200 || track.status === 201, track.text);
    const memo = await t.req('POST', `${API}/orders/${order.id}/credit-memos`, { token: admin, body: {} });
    assert.equal(memo.status, 201, memo.text);
    // a second order, canceled
    const second = await placeTestOrder(t, { items: [{ sku: product.sku, qty: 1 }], paymentMethod: 'cashondelivery' });
    assert.equal((await t.req('POST', `${API}/orders/${second.id}/cancel`, { token: admin, body: {} })).status, 201);
    // customers
    const made = await t.req('POST', `${API}/customers`, {
      body: { email: 'hooked@example.com', password: 'Password123!', firstname: 'Hook', lastname: 'Ed' },
    });
    assert.equal(made.status, 201, made.text);
    assert.equal((await t.req('PUT', `${API}/customers/${made.body.id}`, { token: admin, body: { firstname: 'Hooked' } })).status, 200);
    assert.equal((await t.req('DELETE', `${API}/customers/${made.body.id}`, { token: admin })).status, 204);
    // review, revocation, newsletter
    const review = await t.req('POST', `${API}/products/${product.id}/reviews`, {
      token: customerToken,
      body: { title: 'Bright', detail: 'Lights the room.', nickname: 'Al' },
    });
    assert.equal(review.status, 201, review.text);
    const revocation = await t.req('POST', `${API}/customers/me/revocation-requests`, {
      token: customerToken,
      body: { orderId: order.id, reason: 'Changed my mind' },
    });
    assert.equal(revocation.status, 201, revocation.text);
    assert.equal((await t.req('POST', `${API}/newsletter/subscribe`, { body: { email: 'reader@example.com' } })).status, 201);
    const reader = (await t.req('GET', `${API}/newsletter/subscribers`, { token: admin, query: { email: 'reader@example.com' } })).body
      .member[0];
    const code = unsubscribeCode(t.systemCtx(), { id: reader.id, email: reader.email });
    assert.equal((await t.req('POST', `${API}/newsletter/unsubscribe`, { body: { email: 'reader@example.com', code } })).status, 201);
    // and the product goes
    const doomed = await createTestProduct(t, { price: 3 });
    assert.equal((await t.req('DELETE', `${API}/products/${doomed.id}`, { token: admin })).status, 204);

    const expected = [
      'product.created',
      'product.updated',
      'stock.changed',
      'order.placed',
      'invoice.created',
      'invoice.updated',
      'order.updated',
      'order.canceled',
      'shipment.created',
      'shipment.tracking_added',
      'creditmemo.created',
      'customer.created',
      'customer.updated',
      'customer.deleted',
      'review.submitted',
      'revocation.submitted',
      'newsletter.subscribed',
      'newsletter.unsubscribed',
      'product.deleted',
    ];
    const started = Date.now();
    let got: any[] = [];
    while (Date.now() - started < 15_000) {
      got = eventsOf('/all').map((r) => verify(sub.secret, r));
      if (expected.every((e) => got.some((g) => g.type === e)) && got.filter((g) => g.type === 'product.deleted').length) break;
      await new Promise((r) => setTimeout(r, 50));
    }
    assert.deepEqual(
      expected.filter((e) => !got.some((g) => g.type === e)),
      [],
      'every event type arrived',
    );
    for (const r of eventsOf('/all')) {
      assert.equal(r.headers['content-type'], 'application/json');
      assert.equal(r.headers['webhook-id'], r.json.id);
      assert.match(String(r.headers['webhook-timestamp']), /^\d{10}$/);
      assert.match(String(r.headers['webhook-signature']), /^v1,[A-Za-z0-9+/]+=*$/);
      assert.deepEqual(Object.keys(r.json), ['id', 'type', 'createdAt', 'storeCode', 'sequence', 'data']);
      assert.equal(r.json.id, `evt_${r.json.sequence}`);
    }
    const one = (type: string, pred: (d: any) => boolean = () => true) => got.find((g) => g.type === type && pred(g.data));

    const placed = one('order.placed', (d) => d.id === order.id);
    assert.equal(placed.storeCode, 'default');
    assert.equal(placed.data.incrementId, order.incrementId);
    assert.equal(placed.data.grandTotal, (order as { grandTotal?: number }).grandTotal);
    assert.equal(placed.data.items.length, 1);
    const invoice = one('invoice.created', (d) => d.orderId === order.id);
    assert.equal(invoice.data.stateName, 'open');
    const captured = one('invoice.updated', (d) => d.orderId === order.id);
    const invoices = await t.req('GET', `${API}/orders/${order.id}/invoices`, { token: admin, headers: { accept: 'application/json' } });
    // the same invoice as the API reads it (its pdfUrl is the address of the route the caller came by)
    const { pdfUrl: _pdf, ...invoiceRead } = invoices.body[0];
    assert.equal(invoiceRead.stateName, 'paid');
    assert.deepEqual(captured.data, invoiceRead);
    assert.deepEqual({ ...invoice.data, stateName: 'paid', state: 2, canVoidFlag: true, updatedAt: invoiceRead.updatedAt }, invoiceRead);
    const held = got.filter((g) => g.type === 'order.updated' && g.data.id === order.id);
    assert.ok(
      held.some((g) => g.data.state === 'holded'),
      'the hold is an order.updated',
    );
    const seqs = held.map((g) => g.sequence);
    assert.deepEqual(
      [...seqs].sort((a, b) => a - b),
      seqs.slice().sort((a, b) => a - b),
    );
    assert.equal(one('order.canceled', (d) => d.id === second.id).data.state, 'canceled');
    const shipped = one('shipment.created', (d) => d.id === shipment.body.id);
    assert.equal(shipped.data.tracks.length, 1);
    const tracked = got.filter((g) => g.type === 'shipment.tracking_added' && g.data.id === shipment.body.id);
    assert.deepEqual(tracked.map((g) => g.data.tracks.length).sort(), [1, 2]);
    assert.equal(one('creditmemo.created', (d) => d.orderId === order.id).data.id, memo.body.id);
    assert.equal(one('product.created', (d) => d.id === product.id).data.sku, product.sku);
    assert.equal(one('product.updated', (d) => d.id === product.id).data.name, 'Renamed lamp');
    assert.equal(one('product.deleted', (d) => d.id === doomed.id).data.sku, doomed.sku);
    assert.equal(one('product.created', (d) => d.id === product.id).storeCode, null);
    const stock = got.filter((g) => g.type === 'stock.changed' && g.data.sku === product.sku).map((g) => [g.data.oldQty, g.data.newQty]);
    assert.deepEqual(
      stock.slice(0, 3),
      [
        [0, 50],
        [50, 40],
        [40, 38],
      ],
      'created, set, then reserved by the order',
    );
    assert.equal(one('customer.created', (d) => d.id === made.body.id).data.email, 'hooked@example.com');
    assert.equal(one('customer.updated', (d) => d.id === made.body.id).data.firstname, 'Hooked');
    assert.equal(one('customer.deleted', (d) => d.id === made.body.id).data.firstname, 'Hooked');
    assert.equal(one('review.submitted', (d) => d.id === review.body.id).data.title, 'Bright');
    assert.equal(one('revocation.submitted', (d) => d.id === revocation.body.id).data.orderId, order.id);
    assert.equal(one('newsletter.subscribed', (d) => d.email === 'reader@example.com').data.status, 'subscribed');
    assert.equal(one('newsletter.unsubscribed', (d) => d.email === 'reader@example.com').data.status, 'unsubscribed');

    // each delivery is logged as succeeded with its attempt
    const log = await t.req('GET', `${API}/webhooks/${sub.id}/deliveries`, {
      token: admin,
      query: { itemsPerPage: '100' },
      headers: { accept: 'application/json' },
    });
    assert.equal(log.status, 200);
    assert.ok(log.body.length >= expected.length);
    assert.ok(
      log.body.every((d: any) => d.status === 'succeeded' && d.attempts === 1 && d.lastStatusCode === 200 && d.nextAttemptAt === null),
    );
    const detail = await t.req('GET', `${API}/webhooks/${sub.id}/deliveries/${log.body[0].id}`, { token: admin });
    assert.equal(detail.body.attemptLog.length, 1);
    assert.equal(detail.body.attemptLog[0].statusCode, 200);
    assert.equal(detail.body.attemptLog[0].response, 'ok');
    await t.req('DELETE', `${API}/webhooks/${sub.id}`, { token: admin });
  });

  test("a change to a product's sub-resources (tier prices) is a product.updated", async () => {
    const sub = await subscribe({ url: rx.url('/tiers'), events: ['product.updated'] });
    const p = await createTestProduct(t, { price: 20 });
    const r = await t.req('POST', `${API}/products/${p.id}/tier-prices`, {
      token: admin,
      body: { tierPrices: [{ customerGroupId: 2, qty: 3, price: 15 }] },
    });
    assert.ok(r.status < 300, r.text);
    const [got] = await rx.waitFor(1, '/tiers');
    const event = verify(sub.secret, got);
    assert.equal(event.data.id, p.id);
    // the product as the back office reads it after the change
    const read = await t.req('GET', `${API}/products/${p.id}`, { token: admin, headers: { accept: 'application/json' } });
    assert.equal(event.data.updatedAt, read.body.updatedAt);
    assert.deepEqual(event.data.tierPrices, read.body.tierPrices);
    await t.req('DELETE', `${API}/webhooks/${sub.id}`, { token: admin });
  });

  test('a placement that fails emits nothing', async () => {
    const sub = await subscribe({ url: rx.url('/none'), events: ['order.*', 'stock.changed', 'invoice.created'] });
    const scarce = await createTestProduct(t, { price: 5, stockData: { qty: 1, isInStock: true } });
    const [{ n: before }] = await rows<{ n: number }>(t.database.db, sql`SELECT count(*)::int AS n FROM webhook_events`);
    const cart = (await t.req('POST', `${API}/guest-carts`, { body: {} })).body.maskedId;
    assert.equal((await t.req('POST', `${API}/guest-carts/${cart}/items`, { body: { sku: scarce.sku, qty: 1 } })).status, 200);
    assert.equal((await t.req('PUT', `${API}/guest-carts/${cart}/shipping-address`, { body: TEST_ADDRESS })).status, 200);
    // the last unit goes elsewhere before this cart is placed
    assert.equal((await t.req('PUT', `${API}/inventory`, { token: admin, body: { sku: scarce.sku, qty: 0 } })).status, 200);
    const failed = await t.req('POST', `${API}/guest-carts/${cart}/place-order`, {
      body: {
        billingAddress: { sameAsShipping: true },
        shippingMethod: 'flatrate_flatrate',
        paymentMethod: 'checkmo',
        guestEmail: 'nope@example.com',
      },
    });
    assert.ok(failed.status >= 400 && failed.status < 500, failed.text);
    const types = await rows<{ type: string }>(t.database.db, sql`SELECT type FROM webhook_events ORDER BY id OFFSET ${before}`);
    assert.deepEqual(
      types.map((r) => r.type),
      ['stock.changed'],
      'only the inventory update emitted',
    );
    await t.req('DELETE', `${API}/webhooks/${sub.id}`, { token: admin });
  });
});

describe('delivery', () => {
  test('a receiver answering 500 is retried with growing delays until the window closes; redeliver sends again', async () => {
    rx.answer('/flaky', 500);
    const sub = await subscribe({ url: rx.url('/flaky'), events: ['product.created'] });
    await createTestProduct(t, { price: 1 });
    const [first] = await rx.waitFor(1, '/flaky');
    const [{ id }] = (await t.req('GET', `${API}/webhooks/${sub.id}/deliveries`, { token: admin, headers: { accept: 'application/json' } }))
      .body;
    // retried at 100 ms, 200, 400, 400 ... ±20%, until 1.5 s after the event, then failed: five or six attempts
    // on time, at least three when the machine is so busy that passes start late
    let d: any;
    const started = Date.now();
    do {
      await new Promise((r) => setTimeout(r, 100));
      d = (await t.req('GET', `${API}/webhooks/${sub.id}/deliveries/${id}`, { token: admin })).body;
    } while (d.status === 'pending' && Date.now() - started < 10_000);
    assert.equal(d.status, 'failed');
    const hits = eventsOf('/flaky');
    assert.ok(hits.length >= 3 && hits.length <= 8, `attempts: ${hits.length}`);
    assert.equal(d.attempts, hits.length);
    assert.deepEqual(
      d.attemptLog.map((a: any) => a.attempt),
      hits.map((_, i) => i + 1),
    );
    assert.ok(d.attemptLog.every((a: any) => a.statusCode === 500 && a.response === 'not now'));
    assert.ok(
      hits.every((h) => h.body === first.body && h.headers['webhook-id'] === first.headers['webhook-id']),
      'the same message each time',
    );
    const gaps = hits.slice(1).map((h, i) => h.at - hits[i].at);
    assert.ok(gaps[0] >= 70 && gaps[1] >= 150, `gaps ${gaps.join(', ')}`);
    assert.equal(d.lastError, 'answered 500');

    rx.answer('/flaky', 204);
    const again = await t.req('POST', `${API}/webhooks/${sub.id}/deliveries/${id}/redeliver`, { token: admin });
    assert.equal(again.status, 200, again.text);
    assert.equal(again.body.status, 'succeeded');
    assert.equal(again.body.lastStatusCode, 204);
    assert.equal(again.body.attempts, hits.length + 1);
    await t.req('DELETE', `${API}/webhooks/${sub.id}`, { token: admin });
  });

  test('ping delivers a webhook.ping now; rotation signs with both secrets for a day', async () => {
    const sub = await subscribe({ url: rx.url('/ping'), events: ['customer.created'] });
    const ping = await t.req('POST', `${API}/webhooks/${sub.id}/ping`, { token: admin });
    assert.equal(ping.status, 200, ping.text);
    assert.equal(ping.body.event, 'webhook.ping');
    assert.equal(ping.body.status, 'succeeded');
    const [got] = await rx.waitFor(1, '/ping');
    assert.equal(verify(sub.secret, got).data.webhookId, sub.id);

    const rotated = await t.req('POST', `${API}/webhooks/${sub.id}/rotate-secret`, { token: admin });
    assert.equal(rotated.status, 200);
    assert.notEqual(rotated.body.secret, sub.secret);
    assert.ok(Date.parse(rotated.body.previousSecretExpiresAt) - Date.now() > 23 * 3600 * 1000);
    await t.req('POST', `${API}/webhooks/${sub.id}/ping`, { token: admin });
    const [, second] = await rx.waitFor(2, '/ping');
    assert.equal(String(second.headers['webhook-signature']).split(' ').length, 2);
    assert.equal(verify(rotated.body.secret, second).type, 'webhook.ping');
    assert.equal(verify(sub.secret, second).type, 'webhook.ping');
    assert.throws(() => verify(sub.secret, { ...second, body: second.body.replace('ping', 'pong') }));
    assert.equal((await t.req('POST', `${API}/webhooks/424242/ping`, { token: admin })).status, 404);
    await t.req('DELETE', `${API}/webhooks/${sub.id}`, { token: admin });
  });

  test('a subscription failing for the configured time is disabled and the store contact is mailed', async () => {
    const t2 = await buildTestApp({ env: { ...FAST, WEBHOOK_DISABLE_AFTER: '0' } });
    try {
      const token = await t2.tokens.admin();
      rx.answer('/dead', 503);
      const made = await t2.req('POST', `${API}/webhooks`, { token, body: { url: rx.url('/dead'), events: ['product.*'] } });
      await createTestProduct(t2, { price: 2 });
      await rx.waitFor(1, '/dead');
      let sub: any;
      const started = Date.now();
      do {
        await new Promise((r) => setTimeout(r, 50));
        sub = (await t2.req('GET', `${API}/webhooks/${made.body.id}`, { token })).body;
      } while (sub.active && Date.now() - started < 5000);
      assert.equal(sub.active, false);
      assert.ok(sub.disabledAt && sub.failingSince && sub.disabledReason);
      const mail = await rows<{ to_address: string; subject: string }>(
        t2.database.db,
        sql`SELECT to_address, subject FROM mail_outbox WHERE template = 'webhooks/subscription_disabled'`,
      );
      assert.equal(mail.length, 1);
      assert.match(mail[0].subject, new RegExp(`subscription ${made.body.id} was disabled`));
      // switched on again, it is a fresh start
      const on = await t2.req('PUT', `${API}/webhooks/${made.body.id}`, { token, body: { active: true } });
      assert.deepEqual([on.body.active, on.body.failingSince, on.body.disabledAt], [true, null, null]);
    } finally {
      await t2.close();
    }
  });

  test('two app instances on one database deliver each event exactly once', async () => {
    // on PostgreSQL the second instance polls rarely: it learns of the new subscription by notification
    const second = await buildSecondApp(t, { ...FAST, ...(t.databaseUrl ? { WEBHOOK_POLL: '60000' } : {}) });
    try {
      const sub = await subscribe({ url: rx.url('/once'), events: ['stock.changed'] });
      const started = Date.now();
      while (!second.services.background(webhookDeliverer).wants('stock.changed', null) && Date.now() - started < 2000)
        await new Promise((r) => setTimeout(r, 10));
      assert.ok(second.services.background(webhookDeliverer).wants('stock.changed', null), 'the other instance knows of the subscription');
      const p = await createTestProduct(t, { price: 1, stockData: { qty: 1000, isInStock: true } });
      const n = 30;
      const apps = [t.app, second.app];
      await Promise.all(
        Array.from({ length: n }, (_, i) =>
          apps[i % 2].inject({
            method: 'PUT',
            url: `${API}/inventory`,
            headers: { authorization: `Bearer ${admin}`, 'content-type': 'application/json' },
            payload: JSON.stringify({ sku: p.sku, qty: 100 + i }),
          }),
        ),
      );
      const got = await rx.waitFor(n + 1, '/once');
      await new Promise((r) => setTimeout(r, 300));
      const ids = eventsOf('/once').map((r) => r.headers['webhook-id']);
      assert.equal(ids.length, n + 1, 'no event twice');
      assert.equal(new Set(ids).size, n + 1);
      assert.ok(got.every((r) => verify(sub.secret, r).type === 'stock.changed'));
      await t.req('DELETE', `${API}/webhooks/${sub.id}`, { token: admin });
    } finally {
      await second.app.close();
    }
  });
});

describe('GraphQL and metrics', () => {
  test('GraphQL twins create and ping a subscription; /metrics shows the backlog and the delivery latency', async () => {
    const made = await t.gql(
      `mutation($url: String!) { createWebhook(input: { url: $url, events: ["customer.*"] }) { webhook { id _id secret events active } } }`,
      admin,
      { url: rx.url('/gql') },
    );
    assert.equal(made.errors, undefined, JSON.stringify(made.errors));
    const hook = made.data.createWebhook.webhook;
    assert.match(hook.secret, /^whsec_/);
    assert.deepEqual([hook.events, hook.active], [['customer.*'], true]);
    const ping = await t.gql(
      `mutation { pingWebhook(input: { id: "${hook.id}" }) { webhookDelivery { event status lastStatusCode attempts } } }`,
      admin,
    );
    assert.deepEqual(ping.data.pingWebhook.webhookDelivery, {
      event: 'webhook.ping',
      status: 'succeeded',
      lastStatusCode: 200,
      attempts: 1,
    });
    const [got] = await rx.waitFor(1, '/gql');
    assert.equal(verify(hook.secret, got).type, 'webhook.ping');
    const anonymous = await t.gql(`mutation { pingWebhook(input: { id: "${hook.id}" }) { webhookDelivery { status } } }`);
    assert.ok(anonymous.errors?.length, 'anonymous callers are refused');

    const metrics = await t.req('GET', '/metrics');
    assert.equal(metrics.status, 200);
    for (const family of [
      'webhook_deliveries_pending',
      'webhook_deliveries_oldest_pending_seconds',
      'webhook_delivery_duration_seconds_bucket',
    ]) {
      assert.match(metrics.text, new RegExp(`^${family}`, 'm'), family);
    }
    assert.match(metrics.text, /^webhook_delivery_duration_seconds_count\{[^}]*outcome="success"[^}]*\} [1-9]/m);
    await t.req('DELETE', `${API}/webhooks/${hook._id}`, { token: admin });
  });
});

describe('targets', () => {
  test('in production only https URLs that resolve to public addresses are taken, at save and at delivery', async () => {
    const strict = { allowPrivate: false };
    for (const url of [
      'http://example.com/x',
      'https://127.0.0.1/x',
      'https://10.1.2.3/x',
      'https://192.168.0.1/x',
      'https://169.254.169.254/latest',
      'https://[::1]/x',
      'https://[fd00::1]/x',
      'https://localhost/x',
      'https://api.localhost/x',
      'https://[::ffff:127.0.0.1]/x',
    ]) {
      assert.ok(urlProblem(url, strict), url);
    }
    assert.equal(urlProblem('https://hooks.example.com/x', strict), undefined);
    assert.equal(urlProblem('http://127.0.0.1:9/x', { allowPrivate: true }), undefined);
    assert.ok(isPublicAddress('93.184.216.34'));
    assert.ok(!isPublicAddress('100.64.0.1'));
    // the delivery-time lookup refuses a name that resolves to loopback
    const lookup = guardedLookup(strict)!;
    const err = await new Promise<Error | null>((resolve) => lookup('localhost', {}, (e) => resolve(e)));
    assert.match(String(err?.message), /non-public/);

    const prod = await buildTestApp({ env: { ...FAST, WEBHOOK_ALLOW_PRIVATE: 'false' } });
    try {
      const token = await prod.tokens.admin();
      for (const url of [rx.url('/ssrf'), 'https://127.0.0.1/x', 'https://localhost/x']) {
        const r = await prod.req('POST', `${API}/webhooks`, { token, body: { url, events: ['*'] } });
        assert.equal(r.status, 400, `${url}: ${r.text}`);
        assert.equal(r.body.details?.field ?? r.body.field ?? 'url', 'url');
      }
      // a subscription saved before the rules tightened is still refused when delivering
      await prod.database.db.execute(
        sql`INSERT INTO webhook_subscriptions (url, events, secret) VALUES (${rx.url('/ssrf')}, ARRAY['product.created'], 'v1:x:y:z')`,
      );
      await prod.services.background(webhookDeliverer).refresh();
      await createTestProduct(prod, { price: 1 });
      await prod.services.background(webhookDeliverer).runOnce();
      const [d] = await rows<{ last_error: string }>(prod.database.db, sql`SELECT last_error FROM webhook_deliveries`);
      assert.ok(d.last_error, 'the attempt failed');
      assert.equal(eventsOf('/ssrf').length, 0, 'nothing reached the private address');
    } finally {
      await prod.close();
    }
  });
});
