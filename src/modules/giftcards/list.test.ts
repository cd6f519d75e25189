/**
 * GET /giftcards reads the histories of a page of cards together: the same number of statements for one card as
 * for five, each card shown as a read of it alone shows it.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { API, buildTestApp, type TestApp } from '../../../test/helpers.js';
import { countStatements } from '../../platform/db.js';

let t: TestApp;
let admin: string;
const made: number[] = [];

before(async () => {
  t = await buildTestApp();
  admin = await t.tokens.admin();
  for (let i = 0; i < 5; i++) {
    const card = await t.req('POST', `${API}/giftcards`, { token: admin, body: { initialBalance: 20 + i, websiteIds: [1] } });
    assert.equal(card.status, 201, card.text);
    // a history of one to three rows
    for (let k = 0; k < i % 3; k++) {
      const adjusted = await t.req('POST', `${API}/giftcards/adjust-balance`, {
        token: admin,
        body: { id: card.body.id, amount: -(k + 1), comment: `use ${k}` },
      });
      assert.equal(adjusted.status, 200, adjusted.text);
    }
    made.unshift(card.body.id);
  }
});
after(() => t.close());

/** The statements of GET /giftcards for a page of `size` (made once before), and the page. */
async function listed(size: number) {
  const query = { pageSize: String(size) };
  assert.equal((await t.req('GET', `${API}/giftcards`, { token: admin, query })).status, 200);
  const { n, result: res } = await countStatements(() => t.req('GET', `${API}/giftcards`, { token: admin, query }));
  assert.equal(res.status, 200, res.text);
  return { n, items: res.body.member as Record<string, unknown>[] };
}

describe('GET /giftcards', () => {
  test('a page of five cards takes the statements a page of one takes', async (c) => {
    const one = await listed(1);
    const five = await listed(5);
    assert.equal(one.items.length, 1);
    assert.deepEqual(
      five.items.map((card) => card.id),
      made,
    );
    c.diagnostic(`one card: ${one.n} statements, five cards: ${five.n}`);
    assert.equal(five.n, one.n, `one card: ${one.n} statements, five cards: ${five.n}`);
  });

  test('each listed card shows its own history, as a read of that card alone shows it', async () => {
    const { items } = await listed(5);
    for (const card of items) {
      const alone = await t.req('GET', `${API}/giftcards/${card.id}`, { token: admin });
      assert.equal(alone.status, 200, alone.text);
      assert.deepEqual(card, alone.body);
    }
    assert.deepEqual(
      items.map((card) => (card.history as unknown[]).length),
      [2, 1, 3, 2, 1],
    );
  });
});
