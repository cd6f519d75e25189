/**
 * Shipment reads cost a fixed number of SQL statements whatever their length: the back office's list of every
 * shipment (each on its own order), an order's shipments, and the order read that embeds them. Counted in the
 * request's own async context (`countStatements`), so that background work meanwhile is not among them (as
 * test/statement-budget.test.ts does).
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { API, buildTestApp, type ReqOptions, type TestApp } from '../../../test/helpers.js';
import { placeTestOrder } from '../../../test/fixtures/checkout.js';
import { createTestProduct } from '../../../test/fixtures/catalog.js';
import { countStatements } from '../../platform/db.js';

let t: TestApp;
let admin: string;

before(async () => {
  t = await buildTestApp();
  admin = await t.tokens.admin();
});
after(() => t.close());

/** The statements of a read (made once before, so that per-process caches are warm), and its reply. */
async function statementsOf(url: string, opts: ReqOptions = {}) {
  assert.equal((await t.req('GET', url, opts)).status, 200, url);
  const { n, result: res } = await countStatements(() => t.req('GET', url, opts));
  assert.equal(res.status, 200, res.text);
  return { n, body: res.body };
}

async function ship(orderId: number, body: Record<string, unknown> = {}) {
  const r = await t.req('POST', `${API}/orders/${orderId}/shipments`, { token: admin, body });
  assert.equal(r.status, 201, r.text);
  return r.body;
}

describe('shipment reads in a fixed number of statements', () => {
  test('GET /shipments: the same statements for a page of 1 and of 5 shipments of 5 orders', async () => {
    const placed = [];
    for (let n = 0; n < 5; n++) {
      const o = await placeTestOrder(t);
      placed.push(o);
      await ship(o.id, { tracks: [{ carrierCode: 'ups', title: 'UPS', trackNumber: `T-${n}` }], comment: `shipment ${n}` });
    }
    const one = await statementsOf(`${API}/shipments`, { token: admin, query: { itemsPerPage: '1' } });
    const five = await statementsOf(`${API}/shipments`, { token: admin, query: { itemsPerPage: '5' } });
    assert.equal(one.body.member.length, 1);
    assert.equal(five.body.member.length, 5);
    assert.equal(five.n, one.n, `a page of 5 shipments takes ${five.n} statements, a page of 1 ${one.n}`);
    // each shipment names its own order, newest first
    assert.deepEqual(
      five.body.member.map((s: { orderId: number; orderIncrementId: string }) => [s.orderId, s.orderIncrementId]),
      placed.map((o) => [o.id, o.incrementId]).reverse(),
    );
    assert.ok(five.body.member.every((s: { tracks: unknown[]; comments: unknown[] }) => s.tracks.length === 1 && s.comments.length === 1));
  });

  test("an order's shipments and the order read embedding them: the same statements for 1 and for 5 shipments", async () => {
    const sku = (await createTestProduct(t, { price: 4, stockData: { qty: 100, isInStock: true } })).sku as string;
    const single = await placeTestOrder(t, { items: [{ sku, qty: 5 }] });
    const several = await placeTestOrder(t, { items: [{ sku, qty: 5 }] });
    await ship(single.id);
    for (let n = 0; n < 5; n++) await ship(several.id, { items: [{ orderItemId: several.items[0].id, qty: 1 }] });

    const listOne = await statementsOf(`${API}/orders/${single.id}/shipments`, { token: admin });
    const listFive = await statementsOf(`${API}/orders/${several.id}/shipments`, { token: admin });
    assert.equal(listOne.body.member.length, 1);
    assert.equal(listFive.body.member.length, 5);
    assert.equal(listFive.n, listOne.n, `an order's 5 shipments take ${listFive.n} statements, 1 takes ${listOne.n}`);

    const readOne = await statementsOf(`${API}/orders/${single.id}`, { token: admin });
    const readFive = await statementsOf(`${API}/orders/${several.id}`, { token: admin });
    assert.equal(readOne.body.shipments.length, 1);
    assert.equal(readFive.body.shipments.length, 5);
    assert.equal(readFive.n, readOne.n, `an order read with 5 shipments takes ${readFive.n} statements, with 1 ${readOne.n}`);
    assert.deepEqual(readFive.body.shipments, listFive.body.member);
  });
});
