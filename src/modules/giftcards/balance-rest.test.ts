/**
 * The gift card list, the public balance check and the balance adjustment over REST (GET /giftcards,
 * GET /giftcards/balance, POST /giftcards/adjust-balance): success, each access level, bad input.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { API, buildTestApp, type Res, type TestApp } from '../../../test/helpers.js';

let t: TestApp;
let admin: string;
let customer: string;
let reader: string;
let writer: string;
let other: string;

const json = { accept: 'application/json' };

function assertError(r: Res, status: number) {
  assert.equal(r.status, status, r.text);
  assert.equal(typeof r.body.error, 'string', r.text);
  assert.equal(typeof r.body.message, 'string', r.text);
}

async function create(balance: number): Promise<{ id: number; code: string }> {
  const r = await t.req('POST', `${API}/giftcards`, { token: admin, body: { initialBalance: balance } });
  assert.equal(r.status, 201, r.text);
  return r.body;
}

before(async () => {
  t = await buildTestApp();
  admin = await t.tokens.admin();
  customer = await t.tokens.customer();
  reader = await t.tokens.apiUser(['giftcards/read']);
  writer = await t.tokens.apiUser(['giftcards/write']);
  other = await t.tokens.apiUser(['orders/read']);
});
after(() => t.close());

describe('GET /giftcards', () => {
  test('every card, newest first, paged', async () => {
    const a = await create(3);
    const b = await create(4);
    const r = await t.req('GET', `${API}/giftcards?itemsPerPage=2`, { token: reader, headers: json });
    assert.equal(r.status, 200, r.text);
    assert.deepEqual(
      r.body.map((c: { id: number }) => c.id),
      [b.id, a.id],
    );
    assert.equal(r.body[0].balance, 4);
    const second = await t.req('GET', `${API}/giftcards?itemsPerPage=1&page=2`, { token: reader, headers: json });
    assert.deepEqual(
      second.body.map((c: { id: number }) => c.id),
      [a.id],
    );
    const hydra = await t.req('GET', `${API}/giftcards?pageSize=1`, { token: admin });
    assert.equal(hydra.status, 200, hydra.text);
    assert.ok(hydra.body.totalItems >= 3, hydra.text);
  });

  test('access: anonymous 401, customer and another grant 403', async () => {
    assertError(await t.req('GET', `${API}/giftcards`), 401);
    assertError(await t.req('GET', `${API}/giftcards`, { token: customer }), 403);
    assertError(await t.req('GET', `${API}/giftcards`, { token: other }), 403);
  });

  test('bad input: a page that is not a number is a 400', async () => {
    assertError(await t.req('GET', `${API}/giftcards?page=two`, { token: admin }), 400);
  });
});

describe('GET /giftcards/balance', () => {
  test('anyone reads the balance of a card by its code (any case); the answer is not cached', async () => {
    const r = await t.req('GET', `${API}/giftcards/balance?code=gc-demo-0000-0000-0001`);
    assert.equal(r.status, 200, r.text);
    assert.equal(r.body.code, 'GC-DEMO-0000-0000-0001');
    assert.equal(r.body.balance, 50);
    assert.equal(typeof r.body.currencyCode, 'string');
    assert.equal(r.body.status, 'active');
    assert.equal(r.body.id, undefined, 'no more than the balance');
    assert.equal(r.body.history, undefined);
    assert.equal(r.headers['cache-control'], 'no-store');
    for (const token of [customer, admin])
      assert.equal((await t.req('GET', `${API}/giftcards/balance?code=GC-DEMO-0000-0000-0001`, { token })).status, 200);
  });

  test('unknown, empty and disabled codes are the same 404', async () => {
    assertError(await t.req('GET', `${API}/giftcards/balance?code=NOPE-NOPE`), 404);
    assertError(await t.req('GET', `${API}/giftcards/balance?code=`), 404);
    const c = await t.req('POST', `${API}/giftcards`, { token: admin, body: { initialBalance: 5, status: 'disabled' } });
    assert.equal(c.status, 201, c.text);
    assertError(await t.req('GET', `${API}/giftcards/balance?code=${c.body.code}`), 404);
  });

  test('bad input: no code, or one longer than any code, is a 400', async () => {
    assertError(await t.req('GET', `${API}/giftcards/balance`), 400);
    assertError(await t.req('GET', `${API}/giftcards/balance?code=${'X'.repeat(256)}`), 400);
  });
});

describe('POST /giftcards/adjust-balance', () => {
  test('sets newBalance or adds amount, by id or code, with a history entry', async () => {
    const c = await create(10);
    const set = await t.req('POST', `${API}/giftcards/adjust-balance`, {
      token: writer,
      body: { id: c.id, newBalance: 12.5, comment: 'fix' },
    });
    assert.equal(set.status, 200, set.text);
    assert.equal(set.body.balance, 12.5);
    assert.equal(set.body.history[0].action, 'adjusted');
    assert.equal(set.body.history[0].amount, 2.5);
    const add = await t.req('POST', `${API}/giftcards/adjust-balance`, {
      token: admin,
      body: { code: c.code.toLowerCase(), amount: -12.5 },
    });
    assert.equal(add.status, 200, add.text);
    assert.equal(add.body.balance, 0);
    assert.equal(add.body.status, 'used');
  });

  test('access: anonymous 401, customer 403, a read grant may not write', async () => {
    const c = await create(5);
    const body = { id: c.id, amount: 1 };
    assertError(await t.req('POST', `${API}/giftcards/adjust-balance`, { body }), 401);
    assertError(await t.req('POST', `${API}/giftcards/adjust-balance`, { token: customer, body }), 403);
    assertError(await t.req('POST', `${API}/giftcards/adjust-balance`, { token: reader, body }), 403);
    const after = await t.req('GET', `${API}/giftcards/${c.id}`, { token: admin });
    assert.equal(after.body.balance, 5, 'unchanged');
  });

  test('bad input is a 4xx and changes nothing', async () => {
    const c = await create(5);
    const cases: [unknown, number][] = [
      [{ id: c.id }, 400],
      [{ id: c.id, amount: 1, newBalance: 2 }, 400],
      [{ id: c.id, newBalance: 10000.01 }, 400],
      [{ id: c.id, amount: -6 }, 400],
      [{ id: c.id, amount: 'one' }, 400],
      [{ id: 0, amount: 1 }, 400],
      [{ amount: 1 }, 400],
      [[1], 400],
      [{ id: 99999999, amount: 1 }, 404],
      [{ code: 'NOPE-NOPE', amount: 1 }, 404],
    ];
    for (const [body, status] of cases) {
      assertError(await t.req('POST', `${API}/giftcards/adjust-balance`, { token: admin, body }), status);
    }
    const raw = await t.app.inject({
      method: 'POST',
      url: `${API}/giftcards/adjust-balance`,
      headers: { authorization: `Bearer ${admin}`, 'content-type': 'application/json' },
      payload: '{"id": ',
    });
    assert.equal(raw.statusCode, 400, raw.body);
    const after = await t.req('GET', `${API}/giftcards/${c.id}`, { token: admin });
    assert.equal(after.body.balance, 5, 'unchanged');
    assert.equal(after.body.history.length, 1);
  });
});
