/** What the back office's grid of revocation declarations asks of the list: search, sorting, pending and verified filters. */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { API, buildTestApp, type TestApp } from '../../../test/helpers.js';
import { placeTestOrder } from '../../../test/fixtures/checkout.js';

let t: TestApp;
let admin: string;
const JSON_ONLY = { accept: 'application/json' };
const declared: { id: number; orderReference: string; email: string }[] = [];

before(async () => {
  t = await buildTestApp();
  admin = await t.tokens.admin();
  for (const name of ['Zora', 'Anton', 'Maja']) {
    const email = `${name.toLowerCase()}-${Date.now()}@grid.example`;
    const c = await t.req('POST', `${API}/customers`, { body: { email, password: 'Secret123', firstname: name, lastname: 'Gridtest' } });
    assert.equal(c.status, 201, c.text);
    const token = await t.tokens.customer(email, 'Secret123');
    const order = await placeTestOrder(t, { customerToken: token });
    const r = await t.req('POST', `${API}/customers/me/revocation-requests`, { token, body: { orderId: order.id } });
    assert.equal(r.status, 201, r.text);
    declared.push(r.body);
  }
  const done = await t.req('PUT', `${API}/revocation-requests/${declared[1].id}`, { token: admin, body: { processedStatus: 'accepted' } });
  assert.equal(done.status, 200, done.text);
});
after(() => t.close());

async function ids(query: Record<string, string>): Promise<number[]> {
  const r = await t.req('GET', `${API}/revocation-requests`, { token: admin, query: { search: 'gridtest', ...query }, headers: JSON_ONLY });
  assert.equal(r.status, 200, r.text);
  return r.body.map((x: { id: number }) => x.id);
}

describe('GET /revocation-requests for a grid', () => {
  test('search finds by name, email and order number (at least 3 characters)', async () => {
    const [zora, anton, maja] = declared;
    assert.deepEqual(await ids({}), [maja.id, anton.id, zora.id]);
    assert.deepEqual(await ids({ search: 'ANTON' }), [anton.id]);
    assert.deepEqual(await ids({ search: maja.email.slice(0, 8) }), [maja.id]);
    assert.deepEqual(await ids({ search: zora.orderReference }), [zora.id]);
    const short = await t.req('GET', `${API}/revocation-requests`, { token: admin, query: { search: 'ab' } });
    assert.equal(short.status, 400, short.text);
  });

  test('sorted newest first by default, or by name, order number, processing either way', async () => {
    const [zora, anton, maja] = declared;
    assert.deepEqual(await ids({ sortBy: 'customerName' }), [anton.id, maja.id, zora.id]);
    assert.deepEqual(await ids({ sortBy: 'customerName', sortDir: 'desc' }), [zora.id, maja.id, anton.id]);
    assert.deepEqual(await ids({ sortBy: 'receivedAt', sortDir: 'asc' }), [zora.id, anton.id, maja.id]);
    // not processed yet: last whichever the direction
    assert.equal((await ids({ sortBy: 'processedAt', sortDir: 'desc' }))[0], anton.id);
    assert.equal((await ids({ sortBy: 'processedAt', sortDir: 'asc' }))[0], anton.id);
    const byOrder = [...declared].sort((x, y) => (x.orderReference < y.orderReference ? -1 : 1)).map((d) => d.id);
    assert.deepEqual(await ids({ sortBy: 'orderReference' }), byOrder);
  });

  test('pending: not processed; verified: declared by the signed-in owner', async () => {
    const [zora, anton, maja] = declared;
    assert.deepEqual(await ids({ processedStatus: 'pending' }), [maja.id, zora.id]);
    assert.deepEqual(await ids({ processedStatus: 'accepted' }), [anton.id]);
    assert.deepEqual(await ids({ verified: 'true' }), [maja.id, anton.id, zora.id]);
    assert.deepEqual(await ids({ verified: 'false' }), []);
  });

  test('bad sort or filter values are a 400', async () => {
    for (const query of [{ sortBy: 'reason' }, { sortDir: 'both' }, { verified: 'sometimes' }] as Record<string, string>[]) {
      const r = await t.req('GET', `${API}/revocation-requests`, { token: admin, query });
      assert.equal(r.status, 400, `${JSON.stringify(query)}: ${r.text}`);
      assert.equal(r.body.error, 'bad_request');
    }
  });
});
