/** The guest order lookup: GET /orders/{incrementId}/details with X-Order-Token, and GraphQL guestOrder. */
import assert from 'node:assert/strict';
import crypto from 'node:crypto';
import { after, before, describe, test } from 'node:test';
import { API, buildSecondApp, buildTestApp, type TestApp } from '../../../test/helpers.js';
import { placeTestOrder } from '../../../test/fixtures/checkout.js';

let t: TestApp;

before(async () => {
  t = await buildTestApp();
});
after(() => t.close());

const details = (incrementId: string, token?: string, query?: Record<string, string>) =>
  t.req('GET', `${API}/orders/${encodeURIComponent(incrementId)}/details`, {
    headers: token === undefined ? {} : { 'x-order-token': token },
    query,
  });

const NOT_FOUND = { error: 'not_found', message: 'Order not found', code: 404 };

async function gql(query: string, variables: Record<string, unknown> = {}) {
  return t.gql(query, undefined, variables);
}

describe('GET /orders/{incrementId}/details', () => {
  test('the token in X-Order-Token reads the order once: 200 with the order and an accountToken, then 404', async () => {
    const o = await placeTestOrder(t, { guestEmail: 'new-guest@example.com' });
    assert.match(o.accessToken!, /^[0-9a-f]{64}$/);
    const r = await details(o.incrementId, o.accessToken);
    assert.equal(r.status, 200, r.text);
    assert.equal(r.headers['cache-control'], 'no-store');
    assert.equal(r.body.id, o.id);
    assert.equal(r.body.incrementId, o.incrementId);
    assert.equal(r.body.customerEmail, 'new-guest@example.com');
    assert.equal(r.body.customerIsGuest, true);
    assert.equal(r.body.items.length, 1);
    assert.ok(r.body.shippingAddress);
    assert.deepEqual(r.body.statusHistory, [], 'the placement entry is not visible on the storefront');
    assert.deepEqual(r.body.shipments, []);
    assert.equal(r.body.accessToken, undefined, 'the token is never shown again');
    assert.equal(r.body.remoteIp, undefined);
    const [payload, sig] = r.body.accountToken.split('.');
    assert.match(sig, /^[0-9a-f]{64}$/);
    const claims = JSON.parse(Buffer.from(payload, 'base64').toString('utf8'));
    assert.equal(claims.orderId, o.id);
    assert.equal(claims.email, 'new-guest@example.com');
    assert.equal(claims.action, 'create_account');
    assert.ok(Math.abs(claims.timestamp - Date.now() / 1000) < 60);

    const again = await details(o.incrementId, o.accessToken);
    assert.equal(again.status, 404);
    assert.deepEqual(again.body, NOT_FOUND);
  });

  test('the token is read from the header only: token or accessToken in the query string is ignored (404), and not spent', async () => {
    const o = await placeTestOrder(t);
    const queries: Record<string, string>[] = [
      { token: o.accessToken! },
      { accessToken: o.accessToken! },
      { 'x-order-token': o.accessToken! },
    ];
    for (const q of queries) {
      const r = await details(o.incrementId, undefined, q);
      assert.equal(r.status, 404, JSON.stringify(Object.keys(q)));
      assert.deepEqual(r.body, NOT_FOUND);
    }
    assert.equal((await details(o.incrementId, o.accessToken)).status, 200);
  });

  test('missing, malformed and wrong tokens, unknown and mismatched numbers are the same 404, and spend nothing', async () => {
    const a = await placeTestOrder(t);
    const b = await placeTestOrder(t);
    const cases: [string, string | undefined][] = [
      [a.incrementId, undefined],
      [a.incrementId, ''],
      [a.incrementId, 'abc'],
      [a.incrementId, `${a.accessToken}0`],
      [a.incrementId, crypto.randomBytes(32).toString('hex')],
      [a.incrementId, b.accessToken],
      ['999999999', a.accessToken],
      [b.incrementId, a.accessToken],
      ['x'.repeat(300), a.accessToken],
      [`${a.incrementId} `, 'zz'.repeat(32)],
    ];
    for (const [number, token] of cases) {
      const r = await details(number, token);
      assert.equal(r.status, 404, `${number} / ${token}`);
      assert.deepEqual(r.body, NOT_FOUND);
    }
    assert.equal((await details(a.incrementId, a.accessToken!.toUpperCase())).status, 200, 'hex is read in any case');
    assert.equal((await details(b.incrementId, b.accessToken)).status, 200);
  });

  test('no accountToken when an account of the website has the order email, or the order is a customer order', async () => {
    const o = await placeTestOrder(t, { guestEmail: 'Customer@Example.com' });
    const r = await details(o.incrementId, o.accessToken);
    assert.equal(r.status, 200);
    assert.equal(r.body.accountToken, undefined);

    const customer = await t.tokens.customer();
    const c = await placeTestOrder(t, { customerToken: customer });
    assert.equal(c.accessToken, undefined, 'customer orders have no one-time token');
    assert.equal((await details(c.incrementId, crypto.randomBytes(32).toString('hex'))).status, 404);
  });

  test('a bearer token changes nothing: the lookup still needs and spends the order token', async () => {
    const o = await placeTestOrder(t);
    const admin = await t.tokens.admin();
    const noToken = await t.req('GET', `${API}/orders/${o.incrementId}/details`, { token: admin });
    assert.equal(noToken.status, 404);
    const r = await t.req('GET', `${API}/orders/${o.incrementId}/details`, { token: admin, headers: { 'x-order-token': o.accessToken! } });
    assert.equal(r.status, 200);
    assert.equal((await details(o.incrementId, o.accessToken)).status, 404);
  });

  test('twenty parallel reads of one token: exactly one succeeds (PostgreSQL)', { skip: !process.env.TEST_DATABASE_URL }, async () => {
    const o = await placeTestOrder(t);
    const all = await Promise.all(Array.from({ length: 20 }, () => details(o.incrementId, o.accessToken)));
    assert.equal(all.filter((r) => r.status === 200).length, 1);
    assert.equal(all.filter((r) => r.status === 404).length, 19);
  });

  test(
    'parallel reads through two app instances: exactly one succeeds (PostgreSQL)',
    { skip: !process.env.TEST_DATABASE_URL },
    async () => {
      const second = await buildSecondApp(t);
      try {
        const o = await placeTestOrder(t);
        const url = `${API}/orders/${o.incrementId}/details`;
        const headers = { 'x-order-token': o.accessToken! };
        const all = await Promise.all(
          Array.from({ length: 20 }, (_, i) =>
            (i % 2 ? second.app : t.app).inject({ method: 'GET', url, headers }).then((r) => r.statusCode),
          ),
        );
        assert.equal(all.filter((s) => s === 200).length, 1);
        assert.equal(all.filter((s) => s === 404).length, 19);
      } finally {
        await second.app.close();
      }
    },
  );
});

describe('GraphQL guestOrder', () => {
  const query =
    'query ($n: String!, $t: String!) { guestOrder(incrementId: $n, accessToken: $t) { id _id incrementId customerEmail accountToken items statusHistory } }';

  test('answers once per token, like the REST route (the two share the token)', async () => {
    const o = await placeTestOrder(t, { guestEmail: 'gql-guest@example.com' });
    const r = await gql(query, { n: o.incrementId, t: o.accessToken });
    assert.equal(r.errors, undefined, JSON.stringify(r.errors));
    assert.equal(r.data!.guestOrder._id, o.id);
    assert.equal(r.data!.guestOrder.id, `/api/rest/v2/orders/${o.id}`);
    assert.ok(Array.isArray(r.data!.guestOrder.items) && r.data!.guestOrder.items[0].sku);
    assert.equal(r.data!.guestOrder.customerEmail, 'gql-guest@example.com');
    assert.ok(r.data!.guestOrder.accountToken);
    const again = await gql(query, { n: o.incrementId, t: o.accessToken });
    assert.equal(again.errors![0].extensions.status, 404);
    assert.equal(again.errors![0].message, 'Order not found');
    assert.equal((await details(o.incrementId, o.accessToken)).status, 404, 'spent for REST as well');
  });

  test('a wrong token or number is a 404 error', async () => {
    const o = await placeTestOrder(t);
    for (const v of [
      { n: o.incrementId, t: 'f'.repeat(64) },
      { n: '123', t: o.accessToken },
      { n: o.incrementId, t: '' },
    ]) {
      const r = await gql(query, v);
      assert.equal(r.errors![0].extensions.status, 404, JSON.stringify(v));
    }
    assert.equal((await details(o.incrementId, o.accessToken)).status, 200);
  });
});
