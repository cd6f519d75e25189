import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { API, buildTestApp, type TestApp } from '../../../test/helpers.js';
import { seedCatalogDemo } from './demo.js';

let t: TestApp;
before(async () => {
  // test databases start from a template seeded without the demo catalog; seed it here as a first start would
  t = await buildTestApp();
  await seedCatalogDemo(t.systemCtx());
});
after(() => t.close());

const get = async (path: string, query: Record<string, string> = {}) => {
  const r = await t.req('GET', `${API}${path}`, { query, headers: { accept: 'application/json' } });
  assert.equal(r.status, 200, r.text);
  return r.body;
};

describe('the demo catalog', () => {
  test('a storefront can browse it: categories, a listing, and products of every type', async () => {
    const top = await get('/categories');
    assert.deepEqual(
      top.map((c: { name: string }) => c.name),
      ['Women', 'Men', 'Accessories', 'Home & Living', 'Books & Downloads', 'Sale'],
    );
    const list = await get('/products', { itemsPerPage: '100' });
    const types = new Set(list.map((p: { type: string }) => p.type));
    for (const type of ['simple', 'virtual', 'configurable', 'bundle', 'grouped', 'downloadable']) assert.ok(types.has(type), type);
    assert.ok(list.length >= 20, `visible products: ${list.length}`);
    assert.ok(!list.some((p: { sku: string }) => p.sku === 'SHIRT-FLANNEL'), 'the disabled product is not listed');
    assert.ok(!list.some((p: { sku: string }) => p.sku.startsWith('TEE-')), 'configurable children are not listed on their own');
  });

  test('the configurable tee has its variants, images, stock and related products', async () => {
    const [tee] = await get('/products', { sku: 'TEE' });
    const detail = await get(`/products/${tee.id}`);
    assert.equal(detail.type, 'configurable');
    assert.equal(detail.variants.length, 9);
    assert.deepEqual(detail.configurableOptions.map((o: { code: string }) => o.code).sort(), ['color', 'size']);
    assert.equal(detail.stockStatus, 'in_stock');
    assert.ok(detail.relatedProducts.length >= 2);
    const image = await t.app.inject({ method: 'GET', url: new URL(detail.imageUrl).pathname });
    assert.equal(image.statusCode, 200);
    assert.match(String(image.headers['content-type']), /^image\//);
  });

  test('options, tier prices, bundle options, grouped children and downloadable links are in place', async () => {
    const bySku = async (sku: string) => get(`/products/${(await get('/products', { sku }))[0].id}`);
    const wallet = await bySku('WALLET-LEATHER');
    assert.equal(wallet.customOptions.length, 2);
    const mug = await bySku('MUG-STONEWARE');
    assert.equal(mug.tierPrices.length, 2);
    const kit = await bySku('KIT-TRAVEL');
    assert.equal(kit.bundleOptions.length, 2);
    const set = await bySku('SET-DINNER');
    assert.equal(set.groupedProducts.length, 3);
    const ebook = await bySku('EBOOK-CARE');
    assert.equal(ebook.downloadableLinks.length, 2);
  });

  test('product URLs resolve: with and without the suffix, a variant to its parent, a disabled product not at all', async () => {
    const [tee] = await get('/products', { sku: 'TEE' });
    for (const path of [tee.urlPath, tee.urlKey]) {
      const hit = await get('/url-resolver', { path });
      assert.deepEqual(
        hit.map((h: { type: string; id: number }) => [h.type, h.id]),
        [['product', tee.id]],
        path,
      );
    }
    const admin = await t.tokens.admin();
    const variant = (
      await t.req('GET', `${API}/products`, { token: admin, query: { sku: 'TEE-BLACK-S' }, headers: { accept: 'application/json' } })
    ).body[0];
    const viaVariant = await get('/url-resolver', { path: variant.urlKey });
    assert.deepEqual(
      viaVariant.map((h: { id: number }) => h.id),
      [tee.id],
    );
    const flannel = (
      await t.req('GET', `${API}/products`, { token: admin, query: { sku: 'SHIRT-FLANNEL' }, headers: { accept: 'application/json' } })
    ).body[0];
    assert.deepEqual(await get('/url-resolver', { path: flannel.urlKey }), []);
  });
});
