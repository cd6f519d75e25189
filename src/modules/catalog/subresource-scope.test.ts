/**
 * A token limited to some store views writes the sub-resources of its websites' products only: every
 * sub-resource write on a product of another website is a 404, like a missing product, and changes nothing.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import sharp from 'sharp';
import { API, buildTestApp, type TestApp } from '../../../test/helpers.js';
import { createWebsite } from '../stores/service.js';
import { createTestProduct } from '../../../test/fixtures/catalog.js';

let t: TestApp;
let admin: string;
let limited: string;
let png: string;
let ids: { simple: number; other: number; bundle: number; configurable: number; downloadable: number; grouped: number };
let subIds: { option: number; bundleOption: number; link: number; media: number };

const url = (path: string) => `${API}/products/${path}`;
/** the token acts in its own store view */
const scoped = (path: string) => `${url(path)}${path.includes('?') ? '&' : '?'}store=sr_scope_en`;

async function ok(method: string, path: string, body: unknown, status = 201) {
  const r = await t.req(method, url(path), { token: admin, body });
  assert.equal(r.status, status, `${method} ${path}: ${r.text}`);
  return r.body;
}

before(async () => {
  t = await buildTestApp();
  admin = await t.tokens.admin();
  const site = await createWebsite(t.database.db, t.services.settings, {
    code: 'sr_scope',
    name: 'Scoped',
    storeCode: 'sr_scope_en',
    storeName: 'Scoped EN',
  });
  limited = await t.tokens.apiUser(['products/all'], { allowedStoreIds: [site.storeId] });
  png = (
    await sharp({ create: { width: 8, height: 8, channels: 3, background: '#336699' } })
      .png()
      .toBuffer()
  ).toString('base64');
  // products of the main website only
  ids = {
    simple: (await createTestProduct(t)).id,
    other: (await createTestProduct(t)).id,
    bundle: (await createTestProduct(t, { type: 'bundle' })).id,
    configurable: (await createTestProduct(t, { type: 'configurable' })).id,
    downloadable: (await createTestProduct(t, { type: 'downloadable' })).id,
    grouped: (await createTestProduct(t, { type: 'grouped' })).id,
  };
  subIds = {
    option: (await ok('POST', `${ids.simple}/custom-options`, { title: 'Engraving', type: 'field', price: 1 })).id,
    bundleOption: (await ok('POST', `${ids.bundle}/bundle-options`, { title: 'Pick', selections: [{ productId: ids.other }] })).id,
    link: (await ok('POST', `${ids.downloadable}/downloadable-links`, { title: 'Book', linkUrl: 'http://example.com/book.pdf' })).id,
    media: (await ok('POST', `${ids.simple}/media`, { base64: png, filename: 'a.png' })).id,
  };
  await ok('POST', `${ids.simple}/tier-prices`, [{ qty: 2, price: 8 }]);
  await ok('POST', `${ids.simple}/links/related`, { linkedProductId: ids.other });
  await ok('POST', `${ids.grouped}/grouped`, { childProductId: ids.other });
});
after(() => t.close());

/** What an admin reads of every sub-resource of the test products. */
async function snapshot() {
  const paths = [
    `${ids.simple}/media`,
    `${ids.simple}/tier-prices`,
    `${ids.simple}/custom-options`,
    `${ids.simple}/links/related`,
    `${ids.simple}/links/up-sell`,
    `${ids.bundle}/bundle-options`,
    `${ids.configurable}/configurable`,
    `${ids.downloadable}/downloadable-links`,
    `${ids.grouped}/grouped`,
    `${ids.simple}`,
  ];
  const out: Record<string, unknown> = {};
  for (const p of paths) {
    const r = await t.req('GET', url(p), { token: admin, headers: { accept: 'application/json' } });
    assert.equal(r.status, 200, `${p}: ${r.text}`);
    out[p] = p === `${ids.simple}` ? { ...r.body, updatedAt: undefined } : r.body;
  }
  return out;
}

describe('sub-resource writes by a store-restricted token', () => {
  test("every write on a product outside the token's websites is a 404 and changes nothing", async () => {
    const writes: [string, string, unknown][] = [
      ['POST', `${ids.simple}/media`, { base64: png, filename: 'b.png' }],
      ['PUT', `${ids.simple}/media`, { valueId: subIds.media, label: 'Taken' }],
      ['DELETE', `${ids.simple}/media?valueId=${subIds.media}`, undefined],
      ['POST', `${ids.simple}/tier-prices`, [{ qty: 3, price: 1 }]],
      ['DELETE', `${ids.simple}/tier-prices`, undefined],
      ['POST', `${ids.simple}/custom-options`, { title: 'More', type: 'field' }],
      ['PUT', `${ids.simple}/custom-options/${subIds.option}`, { title: 'Taken' }],
      ['DELETE', `${ids.simple}/custom-options/${subIds.option}`, undefined],
      ['POST', `${ids.simple}/links/up-sell`, { linkedProductId: ids.other }],
      ['PUT', `${ids.simple}/links/related`, []],
      ['DELETE', `${ids.simple}/links/related/${ids.other}`, undefined],
      ['POST', `${ids.bundle}/bundle-options`, { title: 'More' }],
      ['PUT', `${ids.bundle}/bundle-options/${subIds.bundleOption}`, { title: 'Taken' }],
      ['DELETE', `${ids.bundle}/bundle-options/${subIds.bundleOption}`, undefined],
      ['PUT', `${ids.configurable}/configurable`, { superAttributes: ['color'] }],
      ['POST', `${ids.downloadable}/downloadable-links`, { title: 'More', linkUrl: 'http://example.com/more.pdf' }],
      ['PUT', `${ids.downloadable}/downloadable-links/${subIds.link}`, { title: 'Taken' }],
      ['DELETE', `${ids.downloadable}/downloadable-links/${subIds.link}`, undefined],
      ['POST', `${ids.grouped}/grouped`, { childProductId: ids.simple }],
      ['PUT', `${ids.grouped}/grouped`, []],
      ['DELETE', `${ids.grouped}/grouped/${ids.other}`, undefined],
    ];
    const before = await snapshot();
    for (const [method, path, body] of writes) {
      const r = await t.req(method, scoped(path), { token: limited, body });
      assert.equal(r.status, 404, `${method} ${path}: ${r.status} ${r.text}`);
      assert.equal(r.body.error, 'not_found');
    }
    assert.deepEqual(await snapshot(), before);
  });

  test('the same token writes the sub-resources of its own products', async () => {
    // a product the token creates is in its website
    const made = await t.req('POST', `${API}/products?store=sr_scope_en`, {
      token: limited,
      body: { sku: 'scoped-own', name: 'Scoped own', price: 5 },
    });
    assert.equal(made.status, 201, made.text);
    const r = await t.req('POST', scoped(`${made.body.id}/tier-prices`), { token: limited, body: [{ qty: 2, price: 4 }] });
    assert.equal(r.status, 201, r.text);
    const o = await t.req('POST', scoped(`${made.body.id}/custom-options`), { token: limited, body: { title: 'Note', type: 'field' } });
    assert.equal(o.status, 201, o.text);
  });
});
