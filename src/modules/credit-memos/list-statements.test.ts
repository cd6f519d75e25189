/**
 * The back office's list of every credit memo costs a fixed number of SQL statements whatever its length (the
 * memos' orders and their items and comments are read for the whole page at once). Counted in the request's own
 * async context (`countStatements`), so that background work meanwhile is not among them (as
 * test/statement-budget.test.ts does).
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { API, buildTestApp, type ReqOptions, type TestApp } from '../../../test/helpers.js';
import { placeInvoicedOrder } from '../../../test/fixtures/checkout.js';
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

describe('the credit memo list in a fixed number of statements', () => {
  test('GET /credit-memos: the same statements for a page of 1 and of 5 memos of 5 orders', async () => {
    const placed = [];
    for (let n = 0; n < 5; n++) {
      const o = await placeInvoicedOrder(t);
      placed.push(o);
      const r = await t.req('POST', `${API}/orders/${o.id}/credit-memos`, { token: admin, body: { comment: `refund ${n}` } });
      assert.equal(r.status, 201, r.text);
    }
    const one = await statementsOf(`${API}/credit-memos`, { token: admin, query: { itemsPerPage: '1' } });
    const five = await statementsOf(`${API}/credit-memos`, { token: admin, query: { itemsPerPage: '5' } });
    assert.equal(one.body.member.length, 1);
    assert.equal(five.body.member.length, 5);
    assert.equal(five.n, one.n, `a page of 5 memos takes ${five.n} statements, a page of 1 ${one.n}`);
    // each memo names its own order, newest first, with its items and comment
    assert.deepEqual(
      five.body.member.map((m: { orderId: number; orderIncrementId: string }) => [m.orderId, m.orderIncrementId]),
      placed.map((o) => [o.id, o.incrementId]).reverse(),
    );
    assert.ok(
      five.body.member.every(
        (m: { items: unknown[]; comment: string }, n: number) => m.items.length === 1 && m.comment === `refund ${4 - n}`,
      ),
    );
  });
});
