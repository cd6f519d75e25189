/** GET /credit-memos: every credit memo, newest first, paged; credit-memos/read only; bad input a 400. */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { API, buildTestApp, type Res, type TestApp } from '../../../test/helpers.js';
import { placeInvoicedOrder } from '../../../test/fixtures/checkout.js';

let t: TestApp;
let admin: string;
const ids: number[] = [];
const json = { accept: 'application/json' };

function assertError(r: Res, status: number) {
  assert.equal(r.status, status, r.text);
  assert.equal(typeof r.body.error, 'string', r.text);
}

before(async () => {
  t = await buildTestApp();
  admin = await t.tokens.admin();
  for (let i = 0; i < 2; i++) {
    const o = await placeInvoicedOrder(t);
    const r = await t.req('POST', `${API}/orders/${o.id}/credit-memos`, { token: admin, body: {} });
    assert.equal(r.status, 201, r.text);
    ids.push(r.body.id);
  }
});
after(() => t.close());

test('every credit memo, newest first, paged', async () => {
  const reader = await t.tokens.apiUser(['credit-memos/read']);
  const r = await t.req('GET', `${API}/credit-memos`, { token: reader, headers: json });
  assert.equal(r.status, 200, r.text);
  assert.deepEqual(
    r.body.slice(0, 2).map((m: { id: number }) => m.id),
    [ids[1], ids[0]],
  );
  assert.equal(typeof r.body[0].incrementId, 'string');
  const second = await t.req('GET', `${API}/credit-memos?pageSize=1&page=2`, { token: admin });
  assert.equal(second.status, 200, second.text);
  assert.deepEqual(
    second.body.member.map((m: { id: number }) => m.id),
    [ids[0]],
  );
  assert.equal(second.body.totalItems, r.body.length);
});

test('access: anonymous 401, customer and another grant 403', async () => {
  assertError(await t.req('GET', `${API}/credit-memos`), 401);
  assertError(await t.req('GET', `${API}/credit-memos`, { token: await t.tokens.customer() }), 403);
  assertError(await t.req('GET', `${API}/credit-memos`, { token: await t.tokens.apiUser(['orders/read']) }), 403);
});

test('bad input: a page that is not a number is a 400', async () => {
  assertError(await t.req('GET', `${API}/credit-memos?page=x`, { token: admin }), 400);
});
