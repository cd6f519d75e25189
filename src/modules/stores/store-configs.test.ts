/** GET /store-configs: the configuration of every active store view, for anyone; bad input a 400. */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { API, buildTestApp, type TestApp } from '../../../test/helpers.js';

let t: TestApp;
before(async () => {
  t = await buildTestApp();
});
after(() => t.close());

const json = { accept: 'application/json' };

test('one configuration per active store view, in the order of GET /stores, as GET /{code}/config answers it', async () => {
  const r = await t.req('GET', `${API}/store-configs`, { headers: json });
  assert.equal(r.status, 200, r.text);
  const stores = await t.req('GET', `${API}/stores`, { headers: json });
  assert.deepEqual(
    r.body.map((c: { storeCode: string }) => c.storeCode),
    stores.body.map((s: { code: string }) => s.code),
  );
  const one = await t.req('GET', `${API}/${r.body[0].storeCode}/config`);
  assert.deepEqual(r.body[0], one.body);
  const doc = await t.req('GET', `${API}/store-configs`);
  assert.equal(doc.body.totalItems, r.body.length);
});

test('anyone: anonymous, a customer and an admin read the same list', async () => {
  const anonymous = await t.req('GET', `${API}/store-configs`, { headers: json });
  for (const token of [await t.tokens.customer(), await t.tokens.admin()]) {
    const r = await t.req('GET', `${API}/store-configs`, { token, headers: json });
    assert.equal(r.status, 200, r.text);
    assert.deepEqual(r.body, anonymous.body);
  }
});

test('bad input: an unknown store code is a 400 in the error shape', async () => {
  const r = await t.req('GET', `${API}/store-configs?store=nope`);
  assert.equal(r.status, 400, r.text);
  assert.equal(typeof r.body.error, 'string');
});
