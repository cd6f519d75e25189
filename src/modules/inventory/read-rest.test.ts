/**
 * The stock reads over REST: GET /inventory (every stock row, paged) and GET /inventory/{sku}; admin grants
 * only; bad input a 4xx.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { API, buildTestApp, type Res, type TestApp } from '../../../test/helpers.js';
import { createTestProduct } from '../../../test/fixtures/catalog.js';

let t: TestApp;
let admin: string;
let customer: string;
let reader: string;
let writer: string;
const skus: string[] = [];
const json = { accept: 'application/json' };

function assertError(r: Res, status: number) {
  assert.equal(r.status, status, r.text);
  assert.equal(typeof r.body.error, 'string', r.text);
}

before(async () => {
  t = await buildTestApp();
  admin = await t.tokens.admin();
  customer = await t.tokens.customer();
  reader = await t.tokens.apiUser(['inventory/read']);
  writer = await t.tokens.apiUser(['inventory/write']);
  for (let i = 0; i < 2; i++) {
    const p = await createTestProduct(t, { sku: `rest-stock-${i}` });
    skus.push(p.sku as string);
    const r = await t.req('PUT', `${API}/inventory`, { token: admin, body: { sku: p.sku, qty: 5 + i, maxSaleQty: i ? 3 : null } });
    assert.equal(r.status, 200, r.text);
  }
});
after(() => t.close());

describe('GET /inventory and /inventory/{sku}', () => {
  test('one stock by SKU (any case); keys without a value are left out', async () => {
    const r = await t.req('GET', `${API}/inventory/${skus[1].toUpperCase()}`, { token: reader });
    assert.equal(r.status, 200, r.text);
    assert.equal(r.body.sku, skus[1]);
    assert.equal(r.body.qty, 6);
    assert.equal(r.body.maxSaleQty, 3);
    assert.equal(r.body.isInStock, true);
    const none = await t.req('GET', `${API}/inventory/${skus[0]}`, { token: admin });
    assert.equal(none.status, 200, none.text);
    assert.equal('maxSaleQty' in none.body, false);
  });

  test('every stock row by product id, paged', async () => {
    const all = await t.req('GET', `${API}/inventory?itemsPerPage=100`, { token: reader, headers: json });
    assert.equal(all.status, 200, all.text);
    const found = all.body.map((s: { sku: string }) => s.sku);
    assert.ok(
      skus.every((s) => found.includes(s)),
      all.text,
    );
    const page = await t.req('GET', `${API}/inventory?itemsPerPage=1&page=2`, { token: reader });
    assert.equal(page.status, 200, page.text);
    assert.equal(page.body.member.length, 1);
    assert.equal(page.body.member[0].sku, all.body[1].sku);
    assert.equal(page.body.totalItems, all.body.length);
  });

  test('access: anonymous 401, customer and a write-only grant 403', async () => {
    for (const url of [`${API}/inventory`, `${API}/inventory/${skus[0]}`]) {
      assertError(await t.req('GET', url), 401);
      assertError(await t.req('GET', url, { token: customer }), 403);
      assertError(await t.req('GET', url, { token: writer }), 403);
    }
  });

  test('bad input: an unknown SKU is a 404, a bad page a 400', async () => {
    assertError(await t.req('GET', `${API}/inventory/no-such-sku`, { token: admin }), 404);
    assertError(await t.req('GET', `${API}/inventory?itemsPerPage=many`, { token: admin }), 400);
    assertError(await t.req('GET', `${API}/inventory/${'x'.repeat(256)}`, { token: admin }), 400);
  });
});
