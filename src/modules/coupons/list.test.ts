/** GET /coupons reads a page of coupons with their rules in a fixed number of statements whatever its length. */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { API, buildTestApp, type TestApp } from '../../../test/helpers.js';
import { countStatements } from '../../platform/db.js';

let t: TestApp;
let admin: string;

before(async () => {
  t = await buildTestApp();
  admin = await t.tokens.admin();
  for (let i = 0; i < 5; i++) {
    const made = await t.req('POST', `${API}/coupons`, {
      token: admin,
      body: {
        code: `LISTED_${i}`,
        discountType: i % 2 ? 'fixed' : 'percent',
        discountAmount: 5 + i,
        usagePerCustomer: i + 1,
        websiteIds: [1],
      },
    });
    assert.equal(made.status, 201, made.text);
  }
});
after(() => t.close());

async function listed(size: number) {
  const query = { code: 'LISTED_', pageSize: String(size) };
  assert.equal((await t.req('GET', `${API}/coupons`, { token: admin, query })).status, 200);
  const { n, result: res } = await countStatements(() => t.req('GET', `${API}/coupons`, { token: admin, query }));
  assert.equal(res.status, 200, res.text);
  return { n, items: res.body.member as { code: string }[] };
}

describe('GET /coupons', () => {
  test('a page of five coupons takes the statements a page of one takes', async (c) => {
    const one = await listed(1);
    const five = await listed(5);
    assert.equal(one.items.length, 1);
    assert.deepEqual(
      five.items.map((coupon) => coupon.code),
      ['LISTED_4', 'LISTED_3', 'LISTED_2', 'LISTED_1', 'LISTED_0'],
    );
    c.diagnostic(`one coupon: ${one.n} statements, five coupons: ${five.n}`);
    assert.equal(five.n, one.n, `one coupon: ${one.n} statements, five coupons: ${five.n}`);
  });
});
