/**
 * The product listing's back-office filters and sorts (the products grid): status in the store view read,
 * visibility, stock status, website; sorted by type, status and visibility. Over HTTP, on a fresh database.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { API, buildTestApp, type TestApp } from '../../../../test/helpers.js';
import { createTestProduct } from '../../../../test/fixtures/catalog.js';
import { countStatements } from '../../../platform/db.js';

let t: TestApp;
let admin: string;
const tag = `flt${Date.now().toString(36)}`;
const ids: Record<string, number> = {};

before(async () => {
  t = await buildTestApp();
  admin = await t.tokens.admin();
  // four products found by their common search word, each differing in one property
  ids.enabled = (await createTestProduct(t, { name: `${tag} Alpha`, stockData: { qty: 5, isInStock: true } })).id;
  ids.disabled = (await createTestProduct(t, { name: `${tag} Bravo`, status: 'disabled', stockData: { qty: 5, isInStock: true } })).id;
  ids.hidden = (
    await createTestProduct(t, { name: `${tag} Charlie`, visibility: 'not_visible', stockData: { qty: 0, isInStock: false } })
  ).id;
  ids.virtual = (
    await createTestProduct(t, { name: `${tag} Delta`, type: 'virtual', visibility: 'search', stockData: { qty: 3, isInStock: true } })
  ).id;
  // disabled in the German store view only
  const r = await t.req('PUT', `${API}/products/${ids.enabled}`, {
    token: admin,
    headers: { 'x-store-code': 'german' },
    body: { status: 'disabled' },
  });
  assert.equal(r.status, 200, r.text);
});
after(() => t.close());

async function list(query: Record<string, string>, headers: Record<string, string> = {}) {
  const r = await t.req('GET', `${API}/products`, { token: admin, query: { search: tag, itemsPerPage: '50', ...query }, headers });
  assert.equal(r.status, 200, r.text);
  return (r.body.member as { id: number; name: string }[]).map((p) => p.id);
}

describe('products list: back-office filters', () => {
  test('status filters on the status of the store view read', async () => {
    assert.deepEqual(await list({ status: 'disabled' }), [ids.disabled]);
    assert.deepEqual((await list({ status: 'enabled' })).sort(), [ids.enabled, ids.hidden, ids.virtual].sort());
    assert.deepEqual((await list({ status: 'disabled' }, { 'x-store-code': 'german' })).sort(), [ids.enabled, ids.disabled].sort());
  });

  test('visibility, stock status, type and website filter', async () => {
    assert.deepEqual(await list({ visibility: 'not_visible' }), [ids.hidden]);
    assert.deepEqual(await list({ visibility: 'search' }), [ids.virtual]);
    assert.deepEqual(await list({ stockStatus: 'out_of_stock' }), [ids.hidden]);
    assert.deepEqual((await list({ stockStatus: 'in_stock' })).sort(), [ids.enabled, ids.disabled, ids.virtual].sort());
    assert.deepEqual(await list({ type: 'virtual', stockStatus: 'in_stock' }), [ids.virtual]);
    assert.equal((await list({ websiteId: '1' })).length, 4);
    assert.deepEqual(await list({ websiteId: '999' }), []);
  });

  test('a configurable product is in stock through an in-stock child', async () => {
    const parent = await createTestProduct(t, { name: `${tag}cfg Parent`, type: 'configurable' });
    const query = { search: `${tag}cfg`, itemsPerPage: '50' };
    const stock = async (s: string) =>
      (await t.req('GET', `${API}/products`, { token: admin, query: { ...query, stockStatus: s } })).body.member.map(
        (p: { id: number }) => p.id,
      );
    assert.deepEqual(await stock('out_of_stock'), [parent.id], 'no child yet');
    const color = await t.req('GET', `${API}/product-attributes`, { token: admin, query: { search: 'color' } });
    const attr = color.body.member.find((a: { attributeCode: string }) => a.attributeCode === 'color');
    const child = await createTestProduct(t, {
      name: `${tag}kid Child`,
      customAttributesWrite: { color: attr.options[0].value },
      stockData: { qty: 2, isInStock: true },
    });
    const set = await t.req('PUT', `${API}/products/${parent.id}/configurable`, {
      token: admin,
      body: { superAttributes: ['color'], childProductIds: [child.id] },
    });
    assert.equal(set.status, 200, set.text);
    assert.deepEqual(await stock('in_stock'), [parent.id]);
  });

  test('sorts by type, status and visibility, both ways', async () => {
    const byType = await list({ sortBy: 'type', sortDir: 'desc' });
    assert.equal(byType[0], ids.virtual);
    const byStatus = await list({ sortBy: 'status' });
    assert.equal(byStatus[byStatus.length - 1], ids.disabled, 'enabled first ascending');
    const byStatusDesc = await list({ sortBy: 'status', sortDir: 'desc' });
    assert.equal(byStatusDesc[0], ids.disabled);
    const byVisibility = await list({ sortBy: 'visibility' });
    assert.equal(byVisibility[byVisibility.length - 1], ids.virtual, 'search sorts last of catalog_search, not_visible, search');
    assert.equal((await list({ sortBy: 'visibility', sortDir: 'desc' }))[0], ids.virtual);
  });

  test('the storefront sees only enabled products whatever the status filter asks', async () => {
    const r = await t.req('GET', `${API}/products`, { query: { search: tag, status: 'disabled' } });
    assert.equal(r.status, 200, r.text);
    assert.deepEqual(r.body.member, []);
  });

  test('bad filter values are a 400 naming the parameter', async () => {
    for (const [k, v] of [
      ['status', 'maybe'],
      ['visibility', 'everywhere'],
      ['stockStatus', 'plenty'],
      ['websiteId', 'abc'],
      ['sortBy', 'colour'],
    ]) {
      const r = await t.req('GET', `${API}/products`, { token: admin, query: { [k]: v } });
      assert.equal(r.status, 400, `${k}=${v}: ${r.text}`);
    }
  });

  test('a filtered page costs the same statements for 1 or 20 products', async () => {
    const one = await countStatements(() => list({ status: 'enabled', stockStatus: 'in_stock', itemsPerPage: '1' }));
    const many = await countStatements(() => list({ status: 'enabled', stockStatus: 'in_stock', itemsPerPage: '20' }));
    assert.equal(one.n, many.n);
  });
});
