/**
 * The date filters of back-office lists whose rows have timestamps (customers, reviews, revocation requests,
 * newsletter subscribers), declared once with the operation and so offered by REST, GraphQL and MCP alike:
 * createdFrom, createdTo (a bare date covers its whole day), updatedSince; a malformed date is a 400.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { API, buildTestApp, type TestApp } from '../helpers.js';
import { createTestProduct } from '../fixtures/catalog.js';
import { placeTestOrder } from '../fixtures/checkout.js';

let t: TestApp;
let admin: string;
const day = (offset: number) => new Date(Date.now() + offset * 86_400_000).toISOString().slice(0, 10);
const today = day(0);

before(async () => {
  t = await buildTestApp();
  admin = await t.tokens.admin();
  // one record of each kind, made today
  const customer = await t.req('POST', `${API}/customers`, {
    body: { email: 'dated@example.com', password: 'Password123!', firstname: 'Dee', lastname: 'Ated' },
  });
  assert.equal(customer.status, 201, customer.text);
  const token = await t.tokens.customer('dated@example.com', 'Password123!');
  const product = await createTestProduct(t, { price: 5, stockData: { qty: 10, isInStock: true } });
  assert.equal(
    (
      await t.req('POST', `${API}/products/${product.id}/reviews`, {
        token,
        body: { title: 'Dated', detail: 'A review made today.', nickname: 'Dee' },
      })
    ).status,
    201,
  );
  const order = await placeTestOrder(t, { customerToken: token, items: [{ sku: product.sku, qty: 1 }] });
  assert.equal((await t.req('POST', `${API}/customers/me/revocation-requests`, { token, body: { orderId: order.id } })).status, 201);
  assert.equal((await t.req('POST', `${API}/newsletter/subscribe`, { body: { email: 'dated-reader@example.com' } })).status, 201);
});
after(() => t.close());

const LISTS = [
  { path: '/customers', has: (r: any) => r.email === 'dated@example.com', updated: true },
  { path: '/reviews', has: (r: any) => r.title === 'Dated', updated: false },
  { path: '/revocation-requests', has: (r: any) => r.email === 'dated@example.com', updated: false },
  { path: '/newsletter/subscribers', has: (r: any) => r.email === 'dated-reader@example.com', updated: true },
];

async function list(path: string, query: Record<string, string>) {
  const r = await t.req('GET', `${API}${path}`, {
    token: admin,
    query: { ...query, itemsPerPage: '100' },
    headers: { accept: 'application/json' },
  });
  return r;
}

describe('date filters of back-office lists', () => {
  for (const l of LISTS) {
    test(`${l.path}: createdFrom, createdTo${l.updated ? ', updatedSince' : ''}`, async () => {
      const found = async (query: Record<string, string>) => {
        const r = await list(l.path, query);
        assert.equal(r.status, 200, `${l.path} ${JSON.stringify(query)}: ${r.text}`);
        return r.body.some(l.has);
      };
      assert.equal(await found({}), true);
      assert.equal(await found({ createdFrom: today }), true);
      assert.equal(await found({ createdTo: today }), true, 'a bare date as the upper bound covers the whole day');
      assert.equal(await found({ createdFrom: day(1) }), false);
      assert.equal(await found({ createdTo: day(-1) }), false);
      assert.equal(await found({ createdFrom: `${day(-1)} 00:00:00`, createdTo: `${day(1)} 23:59:59` }), true);
      if (l.updated) {
        assert.equal(await found({ updatedSince: today }), true);
        assert.equal(await found({ updatedSince: day(1) }), false);
      }
      for (const bad of ['yesterday', '2026-13-01', '2026-02-30', '2026-01-01 25:00']) {
        const r = await list(l.path, { createdFrom: bad });
        assert.equal(r.status, 400, `${bad}: ${r.text}`);
        assert.equal(r.body.details?.field, 'createdFrom');
      }
    });
  }

  test('GraphQL takes the same filters', async () => {
    const q = (from: string) => `{ customers(createdFrom: "${from}") { totalCount } }`;
    const now = await t.gql(q(today), admin);
    assert.equal(now.errors, undefined, JSON.stringify(now.errors));
    assert.ok(now.data.customers.totalCount >= 1);
    assert.equal((await t.gql(q(day(1)), admin)).data.customers.totalCount, 0);
  });
});
