/**
 * GET /categories/{categoryId}/products: the products of a category (an anchor category's sub-categories too), in
 * category position order unless sortBy, paged; public; bad input a 400.
 */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { API, buildTestApp, type Res, type TestApp } from '../../../../test/helpers.js';
import { createTestProduct } from '../../../../test/fixtures/catalog.js';

let t: TestApp;
let admin: string;
let cat: number;
const p: Record<string, number> = {};
const json = { accept: 'application/json' };

function assertError(r: Res, status: number) {
  assert.equal(r.status, status, r.text);
  assert.equal(typeof r.body.error, 'string', r.text);
}

const ids = (r: Res) => r.body.map((x: { id: number }) => x.id);

before(async () => {
  t = await buildTestApp();
  admin = await t.tokens.admin();
  const c = await t.req('POST', `${API}/categories`, { token: admin, body: { name: 'Rest Lamps', isAnchor: true } });
  assert.equal(c.status, 201, c.text);
  cat = c.body.id;
  const child = await t.req('POST', `${API}/categories`, { token: admin, body: { name: 'Rest Desk Lamps', parentId: cat } });
  assert.equal(child.status, 201, child.text);
  p.cheap = (await createTestProduct(t, { name: 'Rest Alpha Lamp', price: 10, categoryIds: [cat] })).id;
  p.dear = (await createTestProduct(t, { name: 'Rest Beta Lamp', price: 90, categoryIds: [child.body.id] })).id;
  p.mid = (await createTestProduct(t, { name: 'Rest Gamma Lamp', price: 40, categoryIds: [cat] })).id;
  p.off = (await createTestProduct(t, { name: 'Rest Delta Lamp', price: 5, categoryIds: [cat], status: 'disabled' })).id;
});
after(() => t.close());

test('the products of the category and its sub-categories; sortBy and paging', async () => {
  const all = await t.req('GET', `${API}/categories/${cat}/products`, { headers: json });
  assert.equal(all.status, 200, all.text);
  assert.deepEqual(ids(all).sort(), [p.cheap, p.dear, p.mid].sort(), 'no disabled product');
  const byPrice = await t.req('GET', `${API}/categories/${cat}/products?sortBy=price&sortDir=desc`, { headers: json });
  assert.deepEqual(ids(byPrice), [p.dear, p.mid, p.cheap]);
  const page = await t.req('GET', `${API}/categories/${cat}/products?sortBy=price&pageSize=1&page=2`);
  assert.equal(page.status, 200, page.text);
  assert.equal(page.body.totalItems, 3);
  assert.deepEqual(
    page.body.member.map((x: { id: number }) => x.id),
    [p.mid],
  );
});

test('anyone: anonymous, a customer and an admin', async () => {
  for (const token of [undefined, await t.tokens.customer(), admin]) {
    const r = await t.req('GET', `${API}/categories/${cat}/products`, { token, headers: json });
    assert.equal(r.status, 200, r.text);
    assert.ok(ids(r).includes(p.cheap));
  }
});

test('bad input: a category id that is not a positive number, an unknown sortBy, a bad page', async () => {
  assertError(await t.req('GET', `${API}/categories/abc/products`), 400);
  assertError(await t.req('GET', `${API}/categories/0/products`), 400);
  assertError(await t.req('GET', `${API}/categories/${cat}/products?sortBy=colour`), 400);
  assertError(await t.req('GET', `${API}/categories/${cat}/products?page=x`), 400);
});
