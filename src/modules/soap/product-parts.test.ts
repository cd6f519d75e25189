/**
 * The product sub-resources of the Magento 1 API: a PIM's round trip with Python's xmlrpc.client (an image, tier
 * prices, related products, a custom option), and every method and fault of images (`product_media`), tier prices
 * and links over JSON-RPC: products by id or SKU, malformed arguments changing nothing, writes at once losing
 * nothing, and the lists of every sub-resource in a fixed number of statements. Custom options, their values,
 * downloadable links, permissions and store-limited users: product-parts-options.test.ts.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import sharp from 'sharp';
import { API, type TestApp } from '../../../test/helpers.js';
import { createTestProduct } from '../../../test/fixtures/catalog.js';
import { LegacyClient, pngBase64, runScenario, skipWithout, type Step } from '../../../test/fixtures/legacy-api.js';
import { newWebsite, startSoapAppWithFiles } from '../../../test/fixtures/soap.js';
import { deleteConfig, setConfig } from '../stores/service.js';
import { productMedia } from '../catalog/tables.js';

let t: TestApp;
let base: string;
let admin: string;
let dataDir: string;
let close: (() => Promise<void>) | undefined;
let png: string;
const api = new LegacyClient(() => base);
const { sessionOf, ok, fault, faultCode: code } = api;

const product = (body: Record<string, unknown> = {}) => createTestProduct(t, body);
const rest = async (url: string) => (await t.req('GET', `${API}${url}`, { token: admin })).body;
const image = (extra: Record<string, unknown> = {}) => ({ file: { content: png, mime: 'image/png', name: 'shot' }, ...extra });

before(async () => {
  ({ t, base, dataDir, close } = await startSoapAppWithFiles('soap-parts-'));
  admin = await t.tokens.admin();
  api.session = await sessionOf();
  png = await pngBase64('#ff0000');
});
after(() => close?.());

describe('a PIM with Python xmlrpc.client', { skip: skipWithout('python') }, () => {
  let r: Record<string, Step>;
  let made: Record<string, any>[];

  before(async () => {
    made = [await product(), await product(), await product()];
    r = await runScenario('python', 'parts_scenario.py', base, { RPC_SKUS: made.map((p) => p.sku).join(',') });
  });

  test('uploads an image, reads and relabels it; REST sees it', async () => {
    const file = r.upload.ok;
    assert.match(file, /^\/p\/i\/pim-photo(_\d+)?\.webp$/, JSON.stringify(r.upload));
    assert.deepEqual(r.gallery.ok, [r.image.ok]);
    const { url, ...info } = r.image.ok;
    assert.deepEqual(info, { file, label: 'Front', position: '1', exclude: '0', types: ['image', 'thumbnail'] });
    assert.ok(url.endsWith(`/media/catalog/product${file}`));
    assert.equal(r.relabel.ok, true);
    assert.deepEqual(r.missingImage.fault, [103, "Requested image not exists in product images' gallery."]);
    const media = (await rest(`/products/${made[0].id}/media`)).member;
    assert.deepEqual(
      media.map((m: any) => [m.file, m.label, m.types]),
      [[file, 'Front view', ['image', 'thumbnail']]],
    );
    const stored = await sharp(path.join(dataDir, 'media/catalog/product', file)).metadata();
    assert.deepEqual([stored.format, stored.width, stored.height], ['webp', 32, 24]);
  });

  test('sets tier prices and reads them back with four places', async () => {
    assert.equal(r.tiers.ok, true, JSON.stringify(r.tiers));
    assert.deepEqual(r.tierInfo.ok, [
      { customer_group_id: 'all', website: 'all', qty: '5.0000', price: '9.5000' },
      { customer_group_id: '1', website: 'base', qty: '10.0000', price: '8.2500' },
    ]);
    const tiers = (await rest(`/products/${made[0].id}/tier-prices`)).member;
    assert.deepEqual(
      tiers.map((x: any) => [x.customerGroupId, x.websiteId, x.qty, x.price]),
      [
        ['all', 0, 5, 9.5],
        [1, 1, 10, 8.25],
      ],
    );
  });

  test('links related products and moves one', async () => {
    assert.deepEqual([r.linkFirst.ok, r.linkSecond.ok, r.moveSecond.ok], [true, true, true]);
    assert.deepEqual(r.links.ok, [
      { product_id: String(made[2].id), type: 'simple', set: '1', sku: made[2].sku, position: '1' },
      { product_id: String(made[1].id), type: 'simple', set: '1', sku: made[1].sku, position: '2' },
    ]);
    const links = (await rest(`/products/${made[0].id}/links/related`)).member;
    assert.deepEqual(
      links.map((l: any) => l.linkedProductId),
      [made[2].id, made[1].id],
    );
  });

  test('adds a drop-down option with values, then a third value', async () => {
    assert.equal(r.addOption.ok, true, JSON.stringify(r.addOption));
    const [o] = r.options.ok;
    assert.deepEqual(
      { ...o, option_id: undefined },
      { option_id: undefined, title: 'Colour', type: 'drop_down', is_require: '1', sort_order: '1' },
    );
    assert.deepEqual(
      r.optionInfo.ok.additional_fields.map((v: any) => [v.title, v.price, v.price_type, v.sku, v.sort_order]),
      [
        ['Red', '1.5000', 'fixed', 'red', '1'],
        ['Blue', '2.0000', 'percent', 'blue', '2'],
      ],
    );
    assert.equal(r.addValue.ok, true);
    assert.deepEqual(
      r.values.ok.map((v: any) => [v.title, v.price]),
      [
        ['Red', '1.5000'],
        ['Blue', '2.0000'],
        ['Green', '0.7500'],
      ],
    );
    const options = (await rest(`/products/${made[0].id}/custom-options`)).member;
    assert.deepEqual(
      options[0].values.map((v: any) => v.title),
      ['Red', 'Blue', 'Green'],
    );
  });
});

describe('product_media over JSON-RPC', () => {
  test('create, list, info, update and remove, by id or SKU; types', async () => {
    const p = await product();
    const first = await ok('catalog_product_attribute_media.create', [p.id, image({ label: 'One' })]);
    const second = await ok('product_media.create', {
      productId: p.sku,
      data: image({ position: 5, exclude: 1, types: ['small_image'] }),
      identifierType: 'sku',
    });
    const list = await ok('product_attribute_media.list', [p.sku]);
    assert.deepEqual(
      list.map((i: any) => [i.file, i.label, i.position, i.exclude, i.types]),
      [
        [first, 'One', '1', '0', []],
        [second, null, '5', '1', ['small_image']],
      ],
      'an upload gets no role unless it names them, as in Magento',
    );
    assert.deepEqual(await ok('product_media.info', [p.id, second, 'default']), list[1]);
    assert.equal(await ok('product_media.update', [p.id, first, { label: 'Main', types: ['image', 'small_image'], exclude: '0' }]), true);
    assert.deepEqual(
      (await ok('product_media.list', [p.id])).map((i: any) => [i.label, i.types]),
      [
        ['Main', ['image', 'small_image']],
        [null, []],
      ],
    );
    // new content is written over the file, which keeps its name
    const blue = (
      await sharp({ create: { width: 12, height: 10, channels: 3, background: '#0000ff' } })
        .jpeg()
        .toBuffer()
    ).toString('base64');
    assert.equal(await ok('product_media.update', [p.id, first, { file: { content: blue, mime: 'image/jpeg' } }]), true);
    const stored = await sharp(path.join(dataDir, 'media/catalog/product', first)).metadata();
    assert.deepEqual([stored.format, stored.width], ['webp', 12]);
    assert.equal(await ok('product_media.remove', [p.sku, second, 'sku']), true);
    assert.deepEqual(await fault('product_media.info', [p.id, second]), [103, "Requested image not exists in product images' gallery."]);
    assert.deepEqual(await ok('product_media.types', [1]), [
      { code: 'image', scope: 'global' },
      { code: 'small_image', scope: 'global' },
      { code: 'thumbnail', scope: 'global' },
    ]);
    assert.deepEqual(await ok('product_media.types', [999999]), []);
  });

  test('faults 100 to 105; a refused upload stores nothing', async () => {
    const p = await product();
    const file = await ok('product_media.create', [p.id, image()]);
    const before = fs.readdirSync(path.join(dataDir, 'media/catalog/product'), { recursive: true }).length;
    assert.deepEqual(await fault('product_media.list', [p.id, 'nowhere']), [100, 'Requested store view not found.']);
    for (const bad of ['no-such-sku', 999999999, null, { id: p.id }]) {
      assert.deepEqual(await fault('product_media.list', [bad]), [101, 'Product not exists.']);
    }
    assert.deepEqual(await fault('product_media.list', [String(p.id), null, 'sku']), [101, 'Product not exists.']);
    const c = (data: unknown) => fault('product_media.create', [p.id, data]);
    assert.deepEqual(await c({ label: 'x' }), [102, 'The image is not specified.']);
    assert.deepEqual(await c('x'), [102, 'The image data must be a struct.']);
    assert.deepEqual(await c(image({ file: { content: png, mime: 'image/svg+xml' } })), [102, 'Invalid image type.']);
    assert.deepEqual(await c(image({ file: { content: '***', mime: 'image/png' } })), [
      102,
      'The image contents is not valid base64 data.',
    ]);
    assert.deepEqual(await c(image({ types: ['swatch'] })), [102, 'Unknown image type "swatch": use image, small_image, thumbnail.']);
    assert.equal(await code('product_media.create', [p.id, image({ position: -1 })]), 102);
    const text = Buffer.from('not an image at all').toString('base64');
    assert.equal((await c(image({ file: { content: text, mime: 'image/png' } })))[0], 104);
    await setConfig(t.database.db, t.services.settings, 'catalog/media/max_upload_bytes', '100');
    try {
      assert.deepEqual(await c(image()), [102, 'The image is larger than 100 bytes.']);
    } finally {
      await deleteConfig(t.database.db, t.services.settings, 'catalog/media/max_upload_bytes');
    }
    assert.equal(fs.readdirSync(path.join(dataDir, 'media/catalog/product'), { recursive: true }).length, before);
    assert.equal((await ok('product_media.list', [p.id])).length, 1);
    const u = (f: unknown, data: unknown) => fault('product_media.update', [p.id, f, data]);
    assert.equal((await u('/n/o/none.webp', { label: 'x' }))[0], 103);
    assert.deepEqual(await u(file, { file: { content: '%%%', mime: 'image/png' } }), [102, 'Image content is not valid base64 data.']);
    assert.equal((await u(file, { file: { content: text, mime: 'image/png' } }))[0], 104);
    // a file another gallery row shares is not written over
    const other = await product();
    await t.database.db.insert(productMedia).values({ productId: other.id, file, position: 1 });
    assert.equal((await u(file, { file: { content: png, mime: 'image/png' }, label: 'Shared' }))[0], 105);
    assert.equal((await ok('product_media.info', [p.id, file])).label, null, 'the refused update changed nothing');
    assert.equal((await fault('product_media.remove', [p.id, '/x/y/z.webp']))[0], 103);
  });
});

describe('product_tier_price over JSON-RPC', () => {
  test('info and update; websites by id or code; faults 100 and 101 change nothing', async () => {
    const p = await product();
    assert.deepEqual(await ok('product_tier_price.info', [p.id]), []);
    const tiers = [
      { qty: '2', price: '12.3456' },
      { website: 1, customer_group_id: 0, qty: 3.5, price: 9 },
    ];
    assert.equal(
      await ok('catalog_product_attribute_tier_price.update', { productId: p.sku, tierPrices: tiers, identifierType: 'sku' }),
      true,
    );
    const read = [
      { customer_group_id: 'all', website: 'all', qty: '2.0000', price: '12.3456' },
      { customer_group_id: '0', website: 'base', qty: '3.5000', price: '9.0000' },
    ];
    assert.deepEqual(await ok('product_attribute_tier_price.info', [p.sku, 'sku']), read);
    const u = (list: unknown) => fault('product_tier_price.update', [p.id, list]);
    assert.deepEqual(await u('x'), [101, 'Invalid Tier Prices']);
    assert.deepEqual(await u([{ qty: 1 }]), [101, 'Invalid Tier Prices']);
    assert.deepEqual(await u([{ qty: 1, price: 'cheap' }]), [101, 'Invalid tier prices. price must be a number.']);
    assert.deepEqual(await u([{ qty: 1, price: 1, website: 'moon' }]), [101, 'Invalid tier prices. Website "moon" does not exist.']);
    assert.equal((await u([{ qty: 1, price: 1, customer_group_id: 9999 }]))[0], 101);
    assert.equal((await u([{ qty: 0, price: 1 }]))[0], 101);
    assert.equal((await u([{ qty: 1, price: '1.23456' }]))[0], 101);
    assert.equal((await u([{ qty: 1, price: '1.000000000000000001' }]))[0], 101, 'no digit is lost unseen');
    assert.equal(
      (
        await u([
          { qty: 1, price: 1 },
          { qty: '1.0', price: 2 },
        ])
      )[0],
      101,
    );
    const second = await newWebsite(t, 'tierweb');
    assert.deepEqual(await u([{ qty: 1, price: 1, website: 'tierweb' }]), [
      101,
      'Invalid tier prices. The product is not associated to the requested website.',
    ]);
    assert.deepEqual(await ok('product_tier_price.info', [p.id]), read, 'refused updates changed nothing');
    const q = await product({ websiteIds: [1, second.websiteId] });
    assert.equal(await ok('product_tier_price.update', [q.id, [{ qty: 1, price: 1, website: second.websiteId }]]), true);
    assert.equal(await ok('product_tier_price.update', [p.id, []]), true);
    assert.deepEqual(await ok('product_tier_price.info', [p.id]), []);
    assert.deepEqual(await fault('product_tier_price.info', ['nope']), [100, 'Product not exists.']);
    assert.deepEqual(await fault('product_tier_price.update', [999999999, []]), [100, 'Product not exists.']);
  });
});

describe('product_link over JSON-RPC', () => {
  test('types and attributes; list, assign, update and remove of each type', async () => {
    assert.deepEqual(await ok('catalog_product_link.types', []), ['related', 'up_sell', 'cross_sell', 'grouped']);
    assert.deepEqual(await ok('product_link.attributes', ['up_sell']), [{ code: 'position', type: 'int' }]);
    assert.deepEqual(await ok('product_link.attributes', ['grouped']), [
      { code: 'position', type: 'int' },
      { code: 'qty', type: 'decimal' },
    ]);
    const [p, a, b] = [await product(), await product(), await product({ type: 'virtual' })];
    for (const [type, path] of [
      ['up_sell', 'up-sell'],
      ['cross_sell', 'cross-sell'],
    ]) {
      assert.equal(await ok('product_link.assign', [type, p.id, a.sku, { position: 4 }]), true);
      assert.equal(await ok('product_link.assign', [type, p.sku, String(b.id), null, 'sku']), true);
      assert.deepEqual(
        (await ok('product_link.list', [type, p.id])).map((l: any) => [l.sku, l.type, l.position]),
        [
          [b.sku, 'virtual', '0'],
          [a.sku, 'simple', '4'],
        ],
      );
      // assign again: its attributes start over; update: only what it sends
      assert.equal(await ok('product_link.assign', [type, p.id, a.id]), true);
      assert.equal(await ok('product_link.update', [type, p.id, b.id, { position: 9 }]), true);
      assert.equal(await ok('product_link.update', [type, p.id, a.id, {}]), true);
      assert.deepEqual(
        (await rest(`/products/${p.id}/links/${path}`)).member.map((l: any) => [l.linkedProductId, l.position]),
        [
          [a.id, 0],
          [b.id, 9],
        ],
      );
      assert.equal(await ok('product_link.remove', [type, p.id, a.sku]), true);
      assert.equal(await ok('product_link.remove', [type, p.id, a.sku]), true, 'a product not linked is removed already');
      assert.deepEqual(
        (await ok('product_link.list', [type, p.id])).map((l: any) => l.product_id),
        [String(b.id)],
      );
    }
    // update of a product not linked links it when it sends an attribute, as Magento does
    assert.equal(await ok('product_link.update', ['related', p.id, a.id, { position: 2 }]), true);
    assert.equal(await ok('product_link.update', ['related', p.id, b.id]), true);
    assert.deepEqual(
      (await ok('product_link.list', ['related', p.id])).map((l: any) => l.product_id),
      [String(a.id)],
    );
    const g = await product({ type: 'grouped' });
    assert.equal(await ok('product_link.assign', ['grouped', g.id, a.id, { qty: '2.5', position: 1 }]), true);
    assert.equal(await ok('product_link.assign', ['grouped', g.id, b.id]), true);
    assert.equal(await ok('product_link.update', ['grouped', g.id, b.id, { qty: 1 }]), true);
    assert.deepEqual(
      (await ok('product_link.list', ['grouped', g.id])).map((l: any) => [l.sku, l.position, l.qty]),
      [
        [b.sku, '0', '1.0000'],
        [a.sku, '1', '2.5000'],
      ],
    );
    assert.equal(await ok('product_link.remove', ['grouped', g.id, b.id]), true);
    assert.deepEqual((await rest(`/products/${g.id}/grouped`)).member.length, 1);
    assert.deepEqual(await ok('product_link.list', ['grouped', p.id]), [], 'only a grouped product has children');
    assert.equal(await ok('product_link.remove', ['grouped', p.id, a.id]), true);
  });

  test('faults 100 to 102; parallel assigns lose nothing', async () => {
    const [p, a] = [await product(), await product()];
    assert.deepEqual(await fault('product_link.list', ['bundle', p.id]), [100, 'Given invalid link type.']);
    assert.deepEqual(await fault('product_link.attributes', ['x']), [100, 'Given invalid link type.']);
    assert.deepEqual(await fault('product_link.assign', ['related', 'no-such-sku', a.id]), [101, 'Product not exists.']);
    assert.deepEqual(await fault('product_link.list', ['related', String(p.id), 'sku']), [101, 'Product not exists.']);
    assert.deepEqual(await fault('product_link.assign', ['related', p.id, 'no-such-sku']), [102, 'Link product does not exist.']);
    assert.equal(await code('product_link.assign', ['related', p.id, p.id]), 102, 'a product links to others only');
    assert.equal(await code('product_link.assign', ['related', p.id, a.id, { position: 'first' }]), 102);
    assert.equal(await code('product_link.assign', ['related', p.id, a.id, 'x']), 102);
    assert.equal(await code('product_link.assign', ['grouped', p.id, a.id]), 102, 'a simple product has no children');
    const g = await product({ type: 'grouped' });
    assert.equal(await code('product_link.assign', ['grouped', g.id, (await product({ type: 'grouped' })).id]), 102);
    assert.equal(await code('product_link.assign', ['grouped', g.id, a.id, { qty: 'many' }]), 102);
    assert.deepEqual(await ok('product_link.list', ['grouped', g.id]), [], 'refused writes changed nothing');
    const more = await Promise.all(Array.from({ length: 6 }, () => product()));
    await Promise.all(more.map((m, i) => ok('product_link.assign', ['cross_sell', p.id, m.id, { position: i }])));
    assert.equal((await ok('product_link.list', ['cross_sell', p.id])).length, 6);
  });
});

describe('statements', () => {
  test('lists read a fixed number of statements whatever their length', async () => {
    const [small, big] = [await product(), await product()];
    const d1 = await product({ type: 'downloadable' });
    const d2 = await product({ type: 'downloadable' });
    const others = await Promise.all(Array.from({ length: 8 }, () => product()));
    for (const [p, n] of [
      [small, 1],
      [big, 8],
    ] as const) {
      for (let i = 0; i < n; i++) {
        await ok('product_link.assign', ['related', p.id, others[i].id]);
        await ok('product_custom_option.add', [
          p.id,
          { title: `O${i}`, type: 'drop_down', additional_fields: [{ title: 'a' }, { title: 'b' }] },
        ]);
      }
      for (let i = 0; i < Math.min(n, 3); i++) await ok('product_media.create', [p.id, image()]);
    }
    for (const [d, n] of [
      [d1, 1],
      [d2, 6],
    ] as const) {
      for (let i = 0; i < n; i++)
        await ok('product_downloadable_link.add', [d.id, { title: `L${i}`, type: 'url', link_url: 'https://example.com/x' }, 'link']);
    }
    const count = async (p: string, args: unknown) => (await api.statementsOf(t, p, args)).n;
    for (const [p, a, b] of [
      ['product_link.list', ['related', small.id], ['related', big.id]],
      ['product_custom_option.list', [small.id], [big.id]],
      ['product_media.list', [small.id], [big.id]],
      ['product_downloadable_link.list', [d1.id], [d2.id]],
    ] as const) {
      await count(p, a);
      assert.equal(await count(p, b), await count(p, a), p);
    }
  });
});
