import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import crypto from 'node:crypto';
import { sql } from 'drizzle-orm';
import sharp from 'sharp';
import { API, buildTestApp, type Res, type TestApp } from '../../../../test/helpers.js';
import { createWebsite, setCurrencyRate } from '../../stores/service.js';
import { createTestProduct } from '../../../../test/fixtures/catalog.js';
import { countStatements } from '../../../platform/db.js';

let t: TestApp;
let admin: string;
let customer: string;
/** an API user allowed to read products (backend view) */
let reader: string;
/** an API user without any products grant (storefront view) */
let outsider: string;
let png: Buffer;
let secondStore: { websiteId: number; storeId: number };

const tag = `zq${crypto.randomBytes(3).toString('hex')}`;

before(async () => {
  // no background store reloads: query counts must only see the requests
  t = await buildTestApp({ storeRefreshMs: 3_600_000 });
  admin = await t.tokens.admin();
  customer = await t.tokens.customer();
  reader = await t.tokens.apiUser(['products/read']);
  outsider = await t.tokens.apiUser(['orders/read']);
  png = await sharp({ create: { width: 4, height: 3, channels: 3, background: '#ff0000' } })
    .png()
    .toBuffer();
  // round numbers: 1 USD = 0.5 EUR (the German store view shows euros)
  await setCurrencyRate(t.database.db, t.services.settings, 'USD', 'EUR', '0.5');
  secondStore = await createWebsite(t.database.db, t.services.settings, {
    code: 'second',
    name: 'Second Website',
    storeCode: 'second',
    storeName: 'Second Store View',
  });
});
after(() => t.close());

function ok(r: Res, status = 200): Res {
  assert.equal(r.status, status, `${r.status} ${r.text}`);
  return r;
}

function assertError(r: Res, status: number, message?: RegExp) {
  assert.equal(r.status, status, r.text);
  assert.equal(typeof r.body.error, 'string', r.text);
  if (message) assert.match(r.body.message, message);
  if (status !== 401) assert.equal(r.body.code, status);
}

const get = (id: number | string, opts: { token?: string; query?: string; headers?: Record<string, string> } = {}) =>
  t.req('GET', `${API}/products/${id}${opts.query ?? ''}`, { token: opts.token, headers: opts.headers });
const list = (query: string, opts: { token?: string; headers?: Record<string, string> } = {}) =>
  t.req('GET', `${API}/products?${query}`, { token: opts.token, headers: opts.headers });
const names = (r: Res) => (r.body.member as { name: string }[]).map((m) => m.name);
const asAdmin = (method: string, url: string, body?: unknown) => t.req(method, `${API}${url}`, { token: admin, body });

async function category(name: string, body: Record<string, unknown> = {}): Promise<number> {
  const r = ok(await asAdmin('POST', '/categories', { name, ...body }), 201);
  return r.body.id as number;
}

async function optionIds(code: string): Promise<Record<string, number>> {
  const r = ok(await t.req('GET', `${API}/product-attributes?itemsPerPage=100`, { token: admin, headers: { accept: 'application/json' } }));
  const attr = (r.body as { attributeCode: string; options?: { label: string; value: string }[] }[]).find((a) => a.attributeCode === code);
  assert.ok(attr, `attribute ${code}`);
  return Object.fromEntries((attr.options ?? []).map((o) => [o.label, Number(o.value)]));
}

/** Any catalog write invalidates the cached shopper reads (here: a product's updatedAt, set to itself). */
async function bumpCatalog(): Promise<void> {
  await t.database.db.execute(sql`UPDATE products SET updated_at = updated_at WHERE id = (SELECT min(id) FROM products)`);
}

/** Statements run for one request (its own: background work meanwhile is not counted). */
async function queriesOf(fn: () => Promise<Res>): Promise<number> {
  const { n, result } = await countStatements(fn);
  ok(result);
  return n;
}

// ---- one product ----

describe('GET /products/{id}', () => {
  let rich: Record<string, any>;
  let bare: Record<string, any>;
  let related: Record<string, any>;
  let relatedOff: Record<string, any>;
  let crossSell: Record<string, any>;
  let upSell: Record<string, any>;
  let cat: number;
  let groupId: number;

  before(async () => {
    cat = await category(`Detail ${tag}`);
    related = await createTestProduct(t, { name: `Related ${tag}`, price: 5, stockData: { qty: 3 } });
    relatedOff = await createTestProduct(t, { name: `Related off ${tag}`, price: 6, isActive: false });
    crossSell = await createTestProduct(t, { name: `Cross ${tag}`, price: 7, specialPrice: 6 });
    upSell = await createTestProduct(t, { name: `Up ${tag}`, price: 8, stockData: { qty: 1 } });
    rich = await createTestProduct(t, {
      name: `Rich ${tag}`,
      price: 100,
      specialPrice: 80,
      specialFromDate: '2000-01-01',
      cost: 40,
      msrp: 120,
      weight: 1.5,
      description: 'Long text',
      shortDescription: 'Short text',
      metaTitle: 'Meta title',
      categoryIds: [cat],
      stockData: { qty: 7 },
      customAttributesWrite: { color: 'Red', barcode: 'B-1', gift_message_available: 1, material: ['Cotton', 'Wool'] },
    });
    bare = await createTestProduct(t, { name: `Bare ${tag}`, price: 12 });
    const id = rich.id as number;
    const media = (body: Record<string, unknown>) => asAdmin('POST', `/products/${id}/media`, { base64: png.toString('base64'), ...body });
    ok(await media({ filename: 'front.png', types: ['image', 'small_image', 'thumbnail'], label: 'Front', position: 1 }), 201);
    ok(await media({ filename: 'back.png', types: [], label: 'Back', position: 2 }), 201);
    ok(await media({ filename: 'hidden.png', types: [], label: 'Hidden', position: 3, disabled: true }), 201);
    ok(
      await asAdmin('POST', `/products/${id}/custom-options`, {
        title: 'Engraving',
        type: 'field',
        price: 5,
        priceType: 'fixed',
        maxCharacters: 20,
        sortOrder: 1,
      }),
      201,
    );
    ok(
      await asAdmin('POST', `/products/${id}/custom-options`, {
        title: 'Size',
        type: 'drop_down',
        required: true,
        sortOrder: 2,
        values: [
          { title: 'S', price: 0, sortOrder: 1 },
          { title: 'L', price: 10, priceType: 'percent', sortOrder: 2 },
        ],
      }),
      201,
    );
    const me = ok(await t.req('GET', `${API}/customers/me`, { token: customer }));
    groupId = me.body.groupId;
    ok(
      await asAdmin('POST', `/products/${id}/tier-prices`, [
        { qty: 5, price: 72 },
        { qty: 10, price: 60, customerGroupId: groupId },
      ]),
      201,
    );
    ok(await asAdmin('POST', `/products/${id}/links/related`, { linkedProductId: related.id, position: 1 }), 201);
    ok(await asAdmin('POST', `/products/${id}/links/related`, { linkedProductId: relatedOff.id, position: 2 }), 201);
    ok(await asAdmin('POST', `/products/${id}/links/cross-sell`, { linkedProductId: crossSell.id }), 201);
    ok(await asAdmin('POST', `/products/${id}/links/up-sell`, { linkedProductId: upSell.id }), 201);
    for (const [rating, token] of [
      [4, customer],
      [5, admin],
    ] as const) {
      const review = ok(
        await t.req('POST', `${API}/products/${id}/reviews`, { token, body: { title: 'Good', detail: 'Works.', nickname: 'N', rating } }),
        201,
      );
      ok(await asAdmin('PUT', `/reviews/${review.body.id}`, { status: 'approved' }), 200);
    }
  });

  test('a shopper reads every stored field in the store view, with the detail', async () => {
    const p = ok(await get(rich.id)).body;
    assert.equal(p.id, rich.id);
    assert.equal(p.sku, rich.sku);
    assert.equal(p.name, `Rich ${tag}`);
    assert.equal(p.type, 'simple');
    assert.equal(p.status, 'enabled');
    assert.equal(p.isActive, true);
    assert.equal(p.visibility, 'catalog_search');
    assert.equal(p.price, 100);
    assert.equal(p.specialPrice, 80);
    assert.equal(p.specialFromDate, '2000-01-01');
    assert.equal(p.finalPrice, 80);
    assert.equal(p.minimalPrice, 80);
    assert.equal(p.currency, 'USD');
    assert.equal(p.msrp, 120);
    assert.equal(p.weight, 1.5);
    assert.equal(p.description, 'Long text');
    assert.equal(p.shortDescription, 'Short text');
    assert.equal(p.metaTitle, 'Meta title');
    assert.equal(p.barcode, 'B-1');
    assert.equal(p.giftMessageAvailable, 1);
    assert.equal(p.stockStatus, 'in_stock');
    assert.equal(p.stockQty, 7);
    assert.deepEqual(p.categoryIds, [cat]);
    assert.equal(p.reviewCount, 2);
    assert.equal(p.averageRating, 4.5);
    assert.equal(p.attributeSetId, rich.attributeSetId);
    assert.equal(p.taxClassId, 0);
    // the required Size option
    assert.equal(p.hasRequiredOptions, true);
    assert.match(p.createdAt, /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/);
    assert.match(p.updatedAt, /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/);
    assert.equal(p.urlPath, `${p.urlKey}.html`);
    // images by role, under the store's media URL
    assert.match(p.imageUrl, /^http:\/\/shop\.test\/media\/catalog\/product\/.+\.\w+$/);
    assert.equal(p.smallImageUrl, p.imageUrl);
    assert.equal(p.thumbnailUrl, p.imageUrl);
    assert.equal(p.imageLabel, 'Front');
    assert.deepEqual(
      p.mediaGallery.map((m: any) => [m.label, m.position]),
      [
        ['Front', 1],
        ['Back', 2],
      ],
    );
    assert.equal(p.mediaGallery[0].url, p.imageUrl);
    // backend-only fields stay hidden
    for (const k of ['cost', 'customAttributes', 'customDesign']) assert.equal(k in p, false, k);
    // the NOT LOGGED IN group's tier prices, with the saving against the final price
    assert.deepEqual(p.tierPrices, [{ qty: 5, price: 72, savePercent: 10 }]);
    assert.deepEqual(
      p.customOptions.map((o: any) => ({ title: o.title, type: o.type, required: o.required, price: o.price, priceType: o.priceType })),
      [
        { title: 'Engraving', type: 'field', required: false, price: 5, priceType: 'fixed' },
        { title: 'Size', type: 'drop_down', required: true, price: undefined, priceType: undefined },
      ],
    );
    assert.equal(p.customOptions[0].maxCharacters, 20);
    assert.deepEqual(
      p.customOptions[1].values.map((v: any) => [v.title, v.price, v.priceType]),
      [
        ['S', 0, 'fixed'],
        ['L', 10, 'percent'],
      ],
    );
    // a disabled linked product is not shown to shoppers
    assert.deepEqual(
      p.relatedProducts.map((r: any) => r.id),
      [related.id],
    );
    assert.equal(p.relatedProducts[0].stockStatus, 'in_stock');
    assert.equal(p.relatedProducts[0].finalPrice, 5);
    assert.equal(p.relatedProducts[0].name, `Related ${tag}`);
    assert.deepEqual(
      p.crosssellProducts.map((r: any) => [r.id, r.price, r.specialPrice, r.finalPrice, r.stockStatus]),
      [[crossSell.id, 7, 6, 6, 'out_of_stock']],
    );
    assert.deepEqual(
      p.upsellProducts.map((r: any) => r.id),
      [upSell.id],
    );
    assert.deepEqual(p.additionalAttributes, [
      { code: 'color', label: 'Color', value: 'Red' },
      { code: 'material', label: 'Material', value: 'Cotton, Wool' },
    ]);
    assert.deepEqual(p.websiteIds, [1]);
    assert.equal(p.stockItem.qty, 7);
    assert.equal(p.stockItem.isInStock, true);
    assert.equal(p.stockItem.manageStock, true);
    for (const k of ['configurableOptions', 'variants', 'groupedProducts', 'bundleOptions', 'downloadableLinks'])
      assert.deepEqual(p[k], [], k);
  });

  test('a customer sees the tier prices of their group and no backend fields', async () => {
    const p = ok(await get(rich.id, { token: customer })).body;
    assert.deepEqual(p.tierPrices, [
      { qty: 5, price: 72, savePercent: 10 },
      { qty: 10, price: 60, savePercent: 25 },
    ]);
    assert.equal('cost' in p, false);
    assert.equal('customAttributes' in p, false);
  });

  test('backend readers see backend-only fields and disabled linked products; other grants do not', async () => {
    for (const token of [admin, reader]) {
      const p = ok(await get(rich.id, { token })).body;
      assert.equal(p.cost, 40);
      assert.deepEqual(p.customAttributes.barcode, 'B-1');
      assert.equal(typeof p.customAttributes.color, 'number');
      assert.deepEqual(
        p.relatedProducts.map((r: any) => r.id),
        [related.id, relatedOff.id],
      );
    }
    const p = ok(await get(rich.id, { token: outsider })).body;
    assert.equal('cost' in p, false);
    assert.equal('customAttributes' in p, false);
  });

  test('prices come in the X-Currency-Code currency for shoppers and in the base currency for backend readers', async () => {
    const p = ok(await get(rich.id, { headers: { 'x-currency-code': 'eur' } })).body;
    assert.equal(p.currency, 'EUR');
    assert.equal(p.price, 50);
    assert.equal(p.specialPrice, 40);
    assert.equal(p.finalPrice, 40);
    assert.equal(p.minimalPrice, 40);
    assert.equal(p.msrp, 60);
    assert.deepEqual(p.tierPrices, [{ qty: 5, price: 36, savePercent: 10 }]);
    assert.equal(p.customOptions[0].price, 2.5);
    // a percentage stays a percentage
    assert.equal(p.customOptions[1].values[1].price, 10);
    assert.equal(p.relatedProducts[0].price, 2.5);
    const b = ok(await get(rich.id, { token: admin, headers: { 'x-currency-code': 'EUR' } })).body;
    assert.equal(b.currency, 'USD');
    assert.equal(b.price, 100);
    assertError(await get(rich.id, { headers: { 'x-currency-code': 'GBP' } }), 400, /currency/i);
  });

  test('a store view shows its own values and currency (?store=)', async () => {
    ok(
      await asAdmin('PUT', `/products/${bare.id}?store=german`, {
        name: `Hemd ${tag}`,
        description: 'Beschreibung',
        urlKey: `hemd-${tag}`,
      }),
    );
    const de = ok(await get(bare.id, { query: '?store=german' })).body;
    assert.equal(de.name, `Hemd ${tag}`);
    assert.equal(de.description, 'Beschreibung');
    assert.equal(de.urlKey, `hemd-${tag}`);
    assert.equal(de.urlPath, `hemd-${tag}.html`);
    assert.equal(de.currency, 'EUR');
    assert.equal(de.price, 6);
    const en = ok(await get(bare.id)).body;
    assert.equal(en.name, `Bare ${tag}`);
    assert.equal('description' in en, false);
    assert.equal(en.currency, 'USD');
    // the X-Store-Code header works as well
    assert.equal(ok(await get(bare.id, { headers: { 'x-store-code': 'german' } })).body.name, `Hemd ${tag}`);
    // backend readers see the default values unless they name a store view, always in the base currency
    assert.equal(ok(await get(bare.id, { token: admin })).body.name, `Bare ${tag}`);
    const adminDe = ok(await get(bare.id, { token: admin, query: '?store=german' })).body;
    assert.equal(adminDe.name, `Hemd ${tag}`);
    assert.equal(adminDe.currency, 'USD');
    assert.equal(adminDe.price, 12);
    assertError(await get(bare.id, { query: '?store=nope' }), 400, /Unknown store/);
  });

  test('a product disabled in one store view is 404 there for shoppers and readable by backend readers', async () => {
    const p = await createTestProduct(t, { name: `Store off ${tag}` });
    ok(await asAdmin('PUT', `/products/${p.id}?store=german`, { isActive: false }));
    assertError(await get(p.id, { query: '?store=german' }), 404);
    assertError(await get(p.id, { query: '?store=german', token: customer }), 404);
    ok(await get(p.id));
    const b = ok(await get(p.id, { query: '?store=german', token: admin })).body;
    assert.equal(b.status, 'disabled');
    assert.equal(b.isActive, false);
  });

  test('disabled, not visible and other-website products are 404 for shoppers and 200 for backend readers', async () => {
    const disabled = await createTestProduct(t, { name: `Off ${tag}`, isActive: false });
    const hidden = await createTestProduct(t, { name: `Hidden ${tag}`, visibility: 'not_visible' });
    const elsewhere = await createTestProduct(t, { name: `Elsewhere ${tag}`, websiteIds: [secondStore.websiteId] });
    for (const p of [disabled, hidden, elsewhere]) {
      for (const token of [undefined, customer, outsider]) {
        const r = await get(p.id, { token });
        assertError(r, 404, /Product not found/);
      }
      for (const token of [admin, reader]) assert.equal(ok(await get(p.id, { token })).body.id, p.id);
    }
    assert.equal(ok(await get(disabled.id, { token: admin })).body.status, 'disabled');
    // the other website's own store view shows it
    assert.equal(ok(await get(elsewhere.id, { query: '?store=second' })).body.name, `Elsewhere ${tag}`);
  });

  test('a backend reader limited to one website sees the products of that website only', async () => {
    const limited = await t.tokens.apiUser(['products/read'], { allowedStoreIds: [secondStore.storeId] });
    const here = await createTestProduct(t, { name: `Here off ${tag}`, isActive: false });
    const there = await createTestProduct(t, { name: `There off ${tag}`, isActive: false, websiteIds: [secondStore.websiteId] });
    assertError(await get(here.id, { token: limited, query: '?store=second' }), 404);
    const b = ok(await get(there.id, { token: limited, query: '?store=second' })).body;
    assert.equal(b.status, 'disabled');
    assert.equal(b.cost, undefined);
    assert.equal(typeof b.customAttributes, 'object');
    // outside its store views the token is refused
    assertError(await get(there.id, { token: limited }), 403);
    const l = ok(await list(`search=${tag}&store=second&itemsPerPage=100`, { token: limited })).body;
    const ids = l.member.map((m: any) => m.id);
    assert.ok(ids.includes(there.id));
    assert.ok(!ids.includes(here.id));
  });

  test('unknown and malformed ids', async () => {
    assertError(await get(2_000_000_000), 404);
    assertError(await get(2_000_000_000, { token: admin }), 404);
    assertError(await get('abc'), 400);
    assertError(await get(0), 400);
    assertError(await get('99999999999'), 400);
    assertError(await get('1.5'), 400);
  });

  test('a bad bearer token is refused even on this public route', async () => {
    assertError(await get(rich.id, { token: 'not-a-jwt' }), 401);
  });

  test('stock: a product created without stockData is out of stock with qty 0; unmanaged stock is in stock', async () => {
    const none = await createTestProduct(t, {});
    assert.equal(ok(await get(none.id)).body.stockStatus, 'out_of_stock');
    assert.equal(ok(await get(none.id)).body.stockQty, 0);
    assert.deepEqual(
      (({ qty, isInStock, manageStock }) => ({ qty, isInStock, manageStock }))(ok(await get(none.id, { token: admin })).body.stockItem),
      { qty: 0, isInStock: false, manageStock: true },
    );
    const unmanaged = await createTestProduct(t, { stockData: { manageStock: false } });
    assert.equal(ok(await get(unmanaged.id)).body.stockStatus, 'in_stock');
    const empty = await createTestProduct(t, { stockData: { qty: 0 } });
    assert.equal(ok(await get(empty.id)).body.stockStatus, 'out_of_stock');
  });

  test('GET /products/{id} takes one statement whatever the number of sub-rows (plus the cache version check)', async () => {
    await bumpCatalog();
    const anonRich = await queriesOf(() => get(rich.id));
    const anonBare = await queriesOf(() => get(bare.id));
    assert.equal(anonRich, 2);
    assert.equal(anonBare, 2);
    // read again: the cached answer, after the version check alone
    assert.equal(await queriesOf(() => get(rich.id)), 1);
    // a token adds only the principal lookup, the same for both
    const adminRich = await queriesOf(() => get(rich.id, { token: admin }));
    const adminBare = await queriesOf(() => get(bare.id, { token: admin }));
    assert.equal(adminRich, adminBare);
    const customerRich = await queriesOf(() => get(rich.id, { token: customer }));
    const customerBare = await queriesOf(() => get(bare.id, { token: customer }));
    assert.equal(customerRich, customerBare);
  });
});

// ---- composite products ----

describe('configurable, grouped, bundle and downloadable products', () => {
  let colors: Record<string, number>;
  let conf: Record<string, any>;
  let red: Record<string, any>;
  let blue: Record<string, any>;
  let cat: number;

  before(async () => {
    colors = await optionIds('color');
    cat = await category(`Composite ${tag}`);
    red = await createTestProduct(t, {
      name: `Red child ${tag}`,
      price: 20,
      visibility: 'not_visible',
      stockData: { qty: 5 },
      customAttributesWrite: { color: 'Red', barcode: 'RED-1' },
    });
    blue = await createTestProduct(t, {
      name: `Blue child ${tag}`,
      price: 15,
      visibility: 'not_visible',
      stockData: { qty: 0 },
      customAttributesWrite: { color: 'Blue' },
    });
    conf = await createTestProduct(t, { name: `Configurable ${tag}`, type: 'configurable', price: 25, categoryIds: [cat] });
    ok(await asAdmin('PUT', `/products/${conf.id}/configurable`, { superAttributes: ['color'], childProductIds: [red.id, blue.id] }));
  });

  test('configurable: options of the children, variants, stock from the children, price-index minimum', async () => {
    const p = ok(await get(conf.id)).body;
    assert.equal(p.stockStatus, 'in_stock');
    assert.equal(p.minimalPrice, 15);
    assert.equal(p.configurableOptions.length, 1);
    const opt = p.configurableOptions[0];
    assert.equal(opt.code, 'color');
    assert.equal(opt.label, 'Color');
    assert.deepEqual(
      opt.values.map((v: any) => [v.id, v.label]),
      [
        [colors.Red, 'Red'],
        [colors.Blue, 'Blue'],
      ],
    );
    assert.equal(opt.values[0].swatchType, 'color');
    const variants = Object.fromEntries(p.variants.map((v: any) => [v.sku, v]));
    assert.deepEqual(variants[red.sku].attributes, { color: colors.Red });
    assert.equal(variants[red.sku].inStock, true);
    assert.equal(variants[red.sku].stockQty, 5);
    assert.equal(variants[red.sku].price, 20);
    assert.equal(variants[red.sku].finalPrice, 20);
    assert.equal(variants[red.sku].barcode, 'RED-1');
    assert.equal(variants[blue.sku].inStock, false);
    // in a listing, the price is the price-index minimum
    const l = ok(await list(`categoryId=${cat}`)).body;
    assert.equal(l.member[0].id, conf.id);
    assert.equal(l.member[0].price, 15);
  });

  test('configurable without a child in stock is out of stock; a disabled child is left out for shoppers', async () => {
    const c = await createTestProduct(t, { type: 'configurable', price: 9 });
    ok(await asAdmin('PUT', `/products/${c.id}/configurable`, { superAttributes: ['color'], childProductIds: [blue.id] }));
    assert.equal(ok(await get(c.id)).body.stockStatus, 'out_of_stock');
    const off = await createTestProduct(t, { price: 3, isActive: false, stockData: { qty: 9 }, customAttributesWrite: { color: 'Black' } });
    ok(await asAdmin('POST', `/products/${c.id}/configurable/children`, { childId: off.id }), 201);
    const p = ok(await get(c.id)).body;
    assert.deepEqual(
      p.variants.map((v: any) => v.id),
      [blue.id],
    );
    assert.deepEqual(
      p.configurableOptions[0].values.map((v: any) => v.label),
      ['Blue'],
    );
    assert.equal(p.stockStatus, 'out_of_stock');
    const b = ok(await get(c.id, { token: admin })).body;
    assert.deepEqual(b.variants.map((v: any) => v.id).sort(), [blue.id, off.id].sort());
  });

  test('grouped: children with default qty and stock', async () => {
    const child = await createTestProduct(t, { name: `Grouped child ${tag}`, price: 3, stockData: { qty: 2 } });
    const g = await createTestProduct(t, { name: `Grouped ${tag}`, type: 'grouped' });
    ok(await asAdmin('POST', `/products/${g.id}/grouped`, { childProductId: child.id, qty: 2, position: 1 }), 201);
    const p = ok(await get(g.id)).body;
    assert.equal(p.stockStatus, 'in_stock');
    assert.deepEqual(p.groupedProducts, [
      {
        id: child.id,
        sku: child.sku,
        name: `Grouped child ${tag}`,
        price: 3,
        finalPrice: 3,
        inStock: true,
        stockQty: 2,
        defaultQty: 2,
        position: 1,
      },
    ]);
  });

  test('bundle: options with their selections', async () => {
    const child = await createTestProduct(t, { name: `Bundle child ${tag}`, price: 4, stockData: { qty: 2 } });
    const b = await createTestProduct(t, { name: `Bundle ${tag}`, type: 'bundle', priceType: 0 });
    ok(
      await asAdmin('POST', `/products/${b.id}/bundle-options`, {
        title: 'Pick one',
        type: 'select',
        required: true,
        position: 1,
        selections: [{ productId: child.id, qty: 2, isDefault: true, canChangeQty: true }],
      }),
      201,
    );
    const p = ok(await get(b.id)).body;
    assert.equal(p.priceType, 0);
    assert.equal(p.stockStatus, 'in_stock');
    assert.equal(p.bundleOptions.length, 1);
    const o = p.bundleOptions[0];
    assert.deepEqual([o.title, o.type, o.required, o.position], ['Pick one', 'select', true, 1]);
    assert.equal(o.selections.length, 1);
    const s = o.selections[0];
    assert.equal(s.productId, child.id);
    assert.equal(s.sku, child.sku);
    assert.equal(s.name, `Bundle child ${tag}`);
    assert.equal(s.price, 4);
    assert.equal(s.priceType, 'fixed');
    assert.equal(s.inStock, true);
    assert.equal(s.isDefault, true);
    assert.equal(s.canChangeQty, true);
    assert.equal(s.defaultQty, 2);
  });

  test('downloadable: links with url samples and the link titles', async () => {
    const d = await createTestProduct(t, { type: 'downloadable', price: 9 });
    ok(
      await asAdmin('POST', `/products/${d.id}/downloadable-links`, {
        title: 'Manual',
        price: 2,
        linkType: 'url',
        linkUrl: 'https://example.com/manual.pdf',
        sampleType: 'url',
        sampleUrl: 'https://example.com/sample.pdf',
        numberOfDownloads: 3,
      }),
      201,
    );
    const p = ok(await get(d.id)).body;
    assert.deepEqual(
      p.downloadableLinks.map((l: any) => [l.title, l.price, l.numberOfDownloads, l.sampleUrl]),
      [['Manual', 2, 3, 'https://example.com/sample.pdf']],
    );
    assert.equal(p.linksTitle, 'Links');
    assert.equal(p.samplesTitle, 'Samples');
    assert.equal(p.linksPurchasedSeparately, true);
    // the link itself is not shown
    assert.equal(JSON.stringify(p).includes('manual.pdf'), false);
  });
});

// ---- listing ----

describe('prices of configurable, grouped and bundle products', () => {
  let cat: number;
  let conf: Record<string, any>;
  let grouped: Record<string, any>;
  let bundle: Record<string, any>;
  let linker: Record<string, any>;

  before(async () => {
    cat = await category(`Composite prices ${tag}`);
    // as the demo's summer dress: the parent and every variant cost 79, one variant is on sale at 59
    const red = await createTestProduct(t, {
      price: 79,
      visibility: 'not_visible',
      stockData: { qty: 8 },
      customAttributesWrite: { color: 'Red' },
    });
    const green = await createTestProduct(t, {
      price: 79,
      specialPrice: 59,
      visibility: 'not_visible',
      stockData: { qty: 8 },
      customAttributesWrite: { color: 'Green' },
    });
    conf = await createTestProduct(t, { name: `Dress ${tag}`, type: 'configurable', price: 79, categoryIds: [cat] });
    ok(await asAdmin('PUT', `/products/${conf.id}/configurable`, { superAttributes: ['color'], childProductIds: [red.id, green.id] }));

    const cheap = await createTestProduct(t, { price: 12, stockData: { qty: 1 } });
    const dear = await createTestProduct(t, { price: 30, stockData: { qty: 1 } });
    grouped = await createTestProduct(t, { name: `Grouped set ${tag}`, type: 'grouped', categoryIds: [cat] });
    ok(await asAdmin('POST', `/products/${grouped.id}/grouped`, { childProductId: cheap.id }), 201);
    ok(await asAdmin('POST', `/products/${grouped.id}/grouped`, { childProductId: dear.id }), 201);

    bundle = await createTestProduct(t, { name: `Kit ${tag}`, type: 'bundle', categoryIds: [cat] });
    ok(
      await asAdmin('POST', `/products/${bundle.id}/bundle-options`, {
        title: 'Pick',
        type: 'select',
        required: true,
        selections: [{ productId: cheap.id, qty: 2 }, { productId: dear.id }],
      }),
      201,
    );
    linker = await createTestProduct(t, { name: `Links to the dress ${tag}`, price: 1 });
    ok(await asAdmin('POST', `/products/${linker.id}/links/related`, { linkedProductId: conf.id, position: 1 }), 201);
  });

  const prices = (p: any) => ({ price: p.price, finalPrice: p.finalPrice, minimalPrice: p.minimalPrice });

  test('a configurable shows its cheapest variant as price, finalPrice and minimalPrice, in the list and on its page', async () => {
    const expected = { price: 59, finalPrice: 59, minimalPrice: 59 };
    const item = (ok(await list(`categoryId=${cat}&itemsPerPage=100`)).body.member as any[]).find((m) => m.id === conf.id);
    assert.deepEqual(prices(item), expected);
    const page = ok(await get(conf.id)).body;
    assert.deepEqual(prices(page), expected);
    assert.equal(page.maximalPrice, 79);
    // the same with fullDetail, and for the related product that links to it
    const full = (ok(await list(`categoryId=${cat}&fullDetail=1`)).body.member as any[]).find((m) => m.id === conf.id);
    assert.deepEqual(prices(full), expected);
    const rel = ok(await get(linker.id)).body.relatedProducts.find((r: any) => r.id === conf.id);
    assert.deepEqual([rel.price, rel.finalPrice], [59, 59]);
  });

  test('backend readers see the same finalPrice and minimalPrice; their detail keeps the stored price', async () => {
    const item = (ok(await list(`categoryId=${cat}&itemsPerPage=100`, { token: admin })).body.member as any[]).find(
      (m) => m.id === conf.id,
    );
    assert.deepEqual(prices(item), { price: 59, finalPrice: 59, minimalPrice: 59 });
    const page = ok(await get(conf.id, { token: admin })).body;
    assert.deepEqual(prices(page), { price: 79, finalPrice: 59, minimalPrice: 59 });
  });

  test('grouped and bundle products: the price-index minimum in the list and on the page', async () => {
    const members = ok(await list(`categoryId=${cat}&itemsPerPage=100`)).body.member as any[];
    for (const [p, min] of [
      [grouped, 12],
      [bundle, 24],
    ] as const) {
      const expected = { price: min, finalPrice: min, minimalPrice: min };
      assert.deepEqual(prices(members.find((m) => m.id === p.id)), expected, p.name);
      assert.deepEqual(prices(ok(await get(p.id)).body), expected, p.name);
    }
  });

  test('in storefront replies the final price of a composite is never above its price', async () => {
    const members = ok(await list(`categoryId=${cat}&itemsPerPage=100`)).body.member as any[];
    assert.equal(members.length, 3);
    for (const m of members) assert.ok(m.finalPrice <= m.price, `${m.name}: ${m.finalPrice} > ${m.price}`);
  });
});

describe('GET /products', () => {
  // a word of its own, so that searches find only these products
  const lt = `ly${crypto.randomBytes(3).toString('hex')}`;
  let L: number;
  let Lsub: number;
  let N: number;
  let P: number;
  const p: Record<string, Record<string, any>> = {};

  before(async () => {
    L = await category(`List ${lt}`, { isAnchor: true });
    Lsub = await category(`List sub ${lt}`, { parentId: L });
    N = await category(`Plain ${lt}`, { isAnchor: false });
    const Nsub = await category(`Plain sub ${lt}`, { parentId: N });
    P = await category(`Positions ${lt}`);
    p.a = await createTestProduct(t, {
      name: `Alpha ${lt}`,
      sku: `${lt}-a`,
      price: 30,
      specialPrice: 25,
      categoryIds: [L],
      stockData: { qty: 1 },
      customAttributesWrite: { color: 'Red', material: ['Cotton', 'Wool'] },
    });
    p.b = await createTestProduct(t, {
      name: `Bravo ${lt}`,
      sku: `${lt}-b`,
      price: 10,
      categoryIds: [Lsub, Nsub],
      customAttributesWrite: { color: 'Blue', material: ['Silk'] },
    });
    p.c = await createTestProduct(t, {
      name: `Charlie ${lt}`,
      sku: `${lt}-c`,
      type: 'virtual',
      price: 20,
      specialPrice: 5,
      specialFromDate: '2999-01-01',
      categoryIds: [L],
      customAttributesWrite: { color: 'Red' },
    });
    p.d = await createTestProduct(t, { name: `Delta ${lt}`, sku: `${lt}-d`, isActive: false, categoryIds: [L] });
    p.e = await createTestProduct(t, { name: `Echo ${lt}`, sku: `${lt}-e`, visibility: 'search', categoryIds: [L] });
    p.f = await createTestProduct(t, { name: `Foxtrot ${lt}`, sku: `${lt}-f`, visibility: 'not_visible', categoryIds: [L] });
    p.g = await createTestProduct(t, { name: `Golf ${lt}`, sku: `${lt}-g`, websiteIds: [secondStore.websiteId], categoryIds: [L] });
    p.h = await createTestProduct(t, { name: `Hotel ${lt}`, sku: `${lt}-h`, price: 40, visibility: 'catalog', categoryIds: [L] });
    ok(await asAdmin('PUT', `/categories/${P}`, { productPositions: { [p.a.id]: 3, [p.c.id]: 1, [p.h.id]: 2 } }));
    // Alpha changes last
    ok(await asAdmin('PUT', `/products/${p.a.id}`, { description: 'changed' }));
  });

  test('shoppers see enabled, catalog-visible products of their website; an anchor category includes its sub-categories', async () => {
    const r = ok(await list(`categoryId=${L}`));
    assert.deepEqual(names(r), [`Alpha ${lt}`, `Bravo ${lt}`, `Charlie ${lt}`, `Hotel ${lt}`]);
    assert.equal(r.body.totalItems, 4);
    for (const token of [customer, outsider]) assert.equal(ok(await list(`categoryId=${L}`, { token })).body.totalItems, 4);
    assert.deepEqual(names(ok(await list(`categoryId=${Lsub}`))), [`Bravo ${lt}`]);
    // a category that is not an anchor holds only its own products
    assert.equal(ok(await list(`categoryId=${N}`)).body.totalItems, 0);
    // the other website's store view sees its product only
    assert.deepEqual(names(ok(await list(`categoryId=${L}&store=second`))), [`Golf ${lt}`]);
  });

  test('backend readers see every product', async () => {
    for (const token of [admin, reader]) {
      const r = ok(await list(`categoryId=${L}`, { token }));
      assert.equal(r.body.totalItems, 8);
      const d = r.body.member.find((m: any) => m.id === p.d.id);
      assert.equal(d.status, 'disabled');
    }
  });

  test('list items carry prices, stock, images and urls; backend fields only for backend readers', async () => {
    const a = ok(await list(`categoryId=${L}&sku=${lt}-a`)).body.member[0];
    assert.equal(a.id, p.a.id);
    assert.equal(a.price, 30);
    assert.equal(a.specialPrice, 25);
    assert.equal(a.finalPrice, 25);
    assert.equal(a.minimalPrice, 25);
    assert.equal(a.currency, 'USD');
    assert.equal(a.stockStatus, 'in_stock');
    assert.equal(a.stockQty, 1);
    // Alpha is also placed in the positions category
    assert.deepEqual(a.categoryIds, [L, P]);
    assert.equal(a.urlPath, `${a.urlKey}.html`);
    assert.equal('cost' in a, false);
    assert.equal('customAttributes' in a, false);
    assert.equal('tierPrices' in a, false);
    const b = ok(await list(`categoryId=${L}&sku=${lt}-a`, { token: admin })).body.member[0];
    assert.equal(typeof b.customAttributes, 'object');
  });

  test('fullDetail=1 adds the detail fields to list items', async () => {
    const r = ok(await list(`categoryId=${L}&fullDetail=1`)).body.member;
    assert.equal(r.length, 4);
    for (const m of r) {
      assert.ok(Array.isArray(m.tierPrices));
      assert.ok(Array.isArray(m.customOptions));
      assert.deepEqual(m.websiteIds, [1]);
    }
    const a = r.find((m: any) => m.id === p.a.id);
    assert.deepEqual(a.additionalAttributes[0], { code: 'color', label: 'Color', value: 'Red' });
    assertError(await list(`categoryId=${L}&fullDetail=maybe`), 400, /fullDetail/);
  });

  test('full-text search over names and sku prefixes, with search visibility', async () => {
    const r = ok(await list(`search=${lt}&sortBy=name`));
    // search-only Echo is found, catalog-only Hotel is not
    assert.deepEqual(names(r), [`Alpha ${lt}`, `Bravo ${lt}`, `Charlie ${lt}`, `Echo ${lt}`]);
    assert.deepEqual(names(ok(await list(`q=${encodeURIComponent(`Bravo ${lt}`)}`))), [`Bravo ${lt}`]);
    assert.deepEqual(names(ok(await list(`search=${lt}-c`))), [`Charlie ${lt}`]);
    assert.equal(ok(await list(`search=${lt}nothing`)).body.totalItems, 0);
    // relevance first when no sort is named: every match is there
    assert.equal(ok(await list(`q=${lt}`)).body.totalItems, 4);
    // backend readers find everything
    assert.equal(ok(await list(`search=${lt}&categoryId=${L}`, { token: admin })).body.totalItems, 8);
  });

  test('price range on the price-index minimum, in the response currency', async () => {
    assert.deepEqual(names(ok(await list(`categoryId=${L}&priceMin=15&priceMax=26`))), [`Alpha ${lt}`, `Charlie ${lt}`]);
    assert.deepEqual(names(ok(await list(`categoryId=${L}&priceMin=30`))), [`Hotel ${lt}`]);
    assert.deepEqual(names(ok(await list(`categoryId=${L}&priceMax=10`))), [`Bravo ${lt}`]);
    const eur = ok(await list(`categoryId=${L}&priceMin=10&priceMax=12.5`, { headers: { 'x-currency-code': 'EUR' } }));
    assert.deepEqual(names(eur), [`Alpha ${lt}`, `Charlie ${lt}`]);
    assert.equal(eur.body.member[0].price, 15);
    assert.equal(eur.body.member[0].finalPrice, 12.5);
    assert.equal(eur.body.member[0].currency, 'EUR');
    assertError(await list(`priceMin=abc`), 400, /priceMin/);
    assertError(await list(`priceMin=-1`), 400, /priceMin/);
    assertError(await list(`priceMin=20&priceMax=10`), 400, /priceMin/);
  });

  test('attr_<code> filters: option labels or ids, comma lists are any-of', async () => {
    const colors = await optionIds('color');
    assert.deepEqual(names(ok(await list(`categoryId=${L}&attr_color=Red`))), [`Alpha ${lt}`, `Charlie ${lt}`]);
    assert.deepEqual(names(ok(await list(`categoryId=${L}&attr_color=red`))), [`Alpha ${lt}`, `Charlie ${lt}`]);
    assert.deepEqual(names(ok(await list(`categoryId=${L}&attr_color=${colors.Blue}`))), [`Bravo ${lt}`]);
    assert.deepEqual(names(ok(await list(`categoryId=${L}&attr_color=${colors.Blue},Red`))), [
      `Alpha ${lt}`,
      `Bravo ${lt}`,
      `Charlie ${lt}`,
    ]);
    assert.deepEqual(names(ok(await list(`categoryId=${L}&attr_material=Silk`))), [`Bravo ${lt}`]);
    assert.deepEqual(names(ok(await list(`categoryId=${L}&attr_material=Cotton,Silk`))), [`Alpha ${lt}`, `Bravo ${lt}`]);
    assert.deepEqual(names(ok(await list(`categoryId=${L}&attr_material=Wool&attr_color=Red`))), [`Alpha ${lt}`]);
    assert.equal(ok(await list(`categoryId=${L}&attr_material=Linen`)).body.totalItems, 0);
    assert.equal(ok(await list(`categoryId=${L}&attr_nosuchattribute=1`)).body.totalItems, 0);
    assertError(await list(`attr_Bad-Code=1`), 400, /attr_Bad-Code/);
  });

  test('attributeFilters: a JSON object; invalid JSON or another type is a 400', async () => {
    const q = (v: unknown) => `categoryId=${L}&attributeFilters=${encodeURIComponent(typeof v === 'string' ? v : JSON.stringify(v))}`;
    assert.deepEqual(names(ok(await list(q({ color: 'Red' })))), [`Alpha ${lt}`, `Charlie ${lt}`]);
    assert.deepEqual(names(ok(await list(q({ material: ['Wool', 'Silk'] })))), [`Alpha ${lt}`, `Bravo ${lt}`]);
    assert.deepEqual(names(ok(await list(q({ color: ['Blue'], material: 'Silk' })))), [`Bravo ${lt}`]);
    assert.equal(ok(await list(q({}))).body.totalItems, 4);
    assertError(await list(q('{"color":')), 400, /attributeFilters/);
    assertError(await list(q('[1,2]')), 400, /attributeFilters/);
    assertError(await list(q('"Red"')), 400, /attributeFilters/);
    assertError(await list(q({ 'bad code': 1 })), 400, /attributeFilters/);
    assertError(await list(q({ color: { from: 'x' } })), 400, /attributeFilters/);
    assertError(await list(q({ color: { between: 1 } })), 400, /attributeFilters/);
    assertError(await list(q({ color: [] })), 400, /attributeFilters/);
  });

  test('sku, urlKey and type filters', async () => {
    assert.deepEqual(names(ok(await list(`sku=${lt.toUpperCase()}-B`))), [`Bravo ${lt}`]);
    const c = ok(await get(p.c.id)).body;
    assert.deepEqual(names(ok(await list(`urlKey=${c.urlKey}`))), [`Charlie ${lt}`]);
    assert.deepEqual(names(ok(await list(`categoryId=${L}&type=virtual`))), [`Charlie ${lt}`]);
    assertError(await list(`type=spaceship`), 400, /type/);
  });

  test('date filters: d or dt, a bare createdTo covers its day', async () => {
    const today = new Date().toISOString().slice(0, 10);
    const day = (n: number) => new Date(Date.now() + n * 86_400_000).toISOString().slice(0, 10);
    assert.equal(ok(await list(`categoryId=${L}&createdFrom=${today}`)).body.totalItems, 4);
    assert.equal(ok(await list(`categoryId=${L}&createdTo=${today}`)).body.totalItems, 4);
    assert.equal(ok(await list(`categoryId=${L}&createdTo=${day(-1)}`)).body.totalItems, 0);
    assert.equal(ok(await list(`categoryId=${L}&createdFrom=${day(1)}`)).body.totalItems, 0);
    assert.equal(ok(await list(`categoryId=${L}&createdFrom=${encodeURIComponent(`${day(-1)} 00:00:00`)}`)).body.totalItems, 4);
    assert.equal(ok(await list(`categoryId=${L}&updatedSince=${day(1)}`)).body.totalItems, 0);
    assert.equal(ok(await list(`categoryId=${L}&updatedSince=${day(-1)}`)).body.totalItems, 4);
    assertError(await list(`createdFrom=2020-13-01`), 400, /createdFrom/);
    assertError(await list(`createdTo=yesterday`), 400, /createdTo/);
    assertError(await list(`updatedSince=${encodeURIComponent('2020-01-01 25:00:00')}`), 400, /updatedSince/);
  });

  test('sorting by every allowed field, both directions', async () => {
    const order = async (q: string) => names(ok(await list(`categoryId=${L}&${q}`))).map((n) => n[0]);
    assert.deepEqual(await order(''), ['A', 'B', 'C', 'H']);
    assert.deepEqual(await order('sortBy=name&sortDir=desc'), ['H', 'C', 'B', 'A']);
    assert.deepEqual(await order('sortBy=name&sortDir=DESC'), ['H', 'C', 'B', 'A']);
    assert.deepEqual(await order('sortBy=price'), ['B', 'C', 'A', 'H']);
    assert.deepEqual(await order('sortBy=price&sortDir=desc'), ['H', 'A', 'C', 'B']);
    assert.deepEqual(await order('sortBy=special_price'), ['C', 'A', 'B', 'H']);
    assert.deepEqual(await order('sortBy=sku&sortDir=desc'), ['H', 'C', 'B', 'A']);
    assert.deepEqual(await order('sortBy=entity_id'), ['A', 'B', 'C', 'H']);
    assert.deepEqual(await order('sortBy=entity_id&sortDir=desc'), ['H', 'C', 'B', 'A']);
    assert.deepEqual(await order('sortBy=created_at'), ['A', 'B', 'C', 'H']);
    assert.deepEqual((await order('sortBy=updated_at&sortDir=desc'))[0], 'A');
    const pos = async (q: string) => names(ok(await list(`categoryId=${P}&sortBy=position${q}`))).map((n) => n[0]);
    assert.deepEqual(await pos(''), ['C', 'H', 'A']);
    assert.deepEqual(await pos('&sortDir=desc'), ['A', 'H', 'C']);
    assertError(await list('sortBy=color'), 400, /sortBy/);
    assertError(await list('sortDir=up'), 400, /sortDir/);
  });

  test('pagination: JSON-LD envelope by default, a bare array for application/json', async () => {
    const r = ok(await list(`categoryId=${L}&itemsPerPage=3`));
    assert.match(String(r.headers['content-type']), /application\/ld\+json/);
    assert.equal(r.body['@type'], 'Collection');
    assert.equal(r.body['@context'], '/api/contexts/Product');
    assert.equal(r.body['@id'], `${API}/products`);
    assert.equal(r.body.totalItems, 4);
    assert.equal(r.body.member.length, 3);
    assert.equal(r.body.view['@type'], 'PartialCollectionView');
    assert.match(r.body.view.next, /page=2/);
    assert.match(r.body.view.last, /page=2/);
    const page2 = ok(await list(`categoryId=${L}&itemsPerPage=3&page=2`));
    assert.deepEqual(names(page2), [`Hotel ${lt}`]);
    assert.equal(page2.body.totalItems, 4);
    // past the last page: no members, the real total
    const far = ok(await list(`categoryId=${L}&itemsPerPage=3&page=9`));
    assert.deepEqual(far.body.member, []);
    assert.equal(far.body.totalItems, 4);
    // pageSize is an alias; page below 1 reads as 1; sizes are clamped to 1..100
    assert.equal(ok(await list(`categoryId=${L}&pageSize=2`)).body.member.length, 2);
    assert.deepEqual(names(ok(await list(`categoryId=${L}&pageSize=2&page=0`))), [`Alpha ${lt}`, `Bravo ${lt}`]);
    assert.equal(ok(await list(`categoryId=${L}&itemsPerPage=0`)).body.member.length, 1);
    assert.match(ok(await list(`categoryId=${L}&itemsPerPage=1000`)).body.view.last, /page=1/);
    const plain = ok(await list(`categoryId=${L}&itemsPerPage=3`, { headers: { accept: 'application/json' } }));
    assert.match(String(plain.headers['content-type']), /application\/json/);
    assert.ok(Array.isArray(plain.body));
    assert.deepEqual(
      plain.body.map((m: any) => m.name),
      [`Alpha ${lt}`, `Bravo ${lt}`, `Charlie ${lt}`],
    );
    assertError(await list('page=abc'), 400, /page/);
    assertError(await list('itemsPerPage=many'), 400, /itemsPerPage/);
    assertError(await list('categoryId=abc'), 400, /categoryId/);
  });

  test('odd values are answered with a 200 or a 400, never a 5xx', async () => {
    const odd = [
      `search=${encodeURIComponent(`'"\\:*&|!() <-> ${lt}`)}`,
      `q=${encodeURIComponent('%_\\')}`,
      `attr_color=${encodeURIComponent('"{},\\')}`,
      `attr_color=Red&attr_color=Blue`,
      `attributeFilters=${encodeURIComponent(JSON.stringify({ color: { from: 1e300, to: '-5' } }))}`,
      `attributeFilters=${encodeURIComponent(JSON.stringify({ color: [{ nested: true }] }))}`,
      `attributeFilters=${encodeURIComponent(JSON.stringify({ color: null }))}`,
      `attr_=1`,
      `priceMin=1e300`,
      `priceMax=Infinity`,
      `page=99999999999999999999`,
      `itemsPerPage=-5`,
      `sortBy=`,
      `urlKey=${encodeURIComponent('%')}`,
      `sku=${encodeURIComponent("'; drop table products; --")}`,
      `createdFrom=${encodeURIComponent('2020-02-30')}`,
      `createdTo=${encodeURIComponent('2020-01-01T10:00')}`,
      `categoryId=2147483647`,
      `categoryId=2147483648`,
      `type=`,
    ];
    for (const q of odd) {
      for (const token of [undefined, admin]) {
        const r = await list(q, { token });
        assert.ok(r.status === 200 || r.status === 400, `${q}: ${r.status} ${r.text}`);
      }
    }
  });

  test('a store view lists its own names and leaves out what it disabled', async () => {
    ok(await asAdmin('PUT', `/products/${p.b.id}?store=german`, { name: `Zulu ${lt}` }));
    ok(await asAdmin('PUT', `/products/${p.c.id}?store=german`, { isActive: false }));
    const de = ok(await list(`categoryId=${L}&store=german`));
    assert.deepEqual(names(de), [`Alpha ${lt}`, `Hotel ${lt}`, `Zulu ${lt}`]);
    assert.equal(de.body.member[0].currency, 'EUR');
    assert.equal(de.body.member[0].price, 15);
    assert.deepEqual(names(ok(await list(`categoryId=${L}`))), [`Alpha ${lt}`, `Bravo ${lt}`, `Charlie ${lt}`, `Hotel ${lt}`]);
    ok(await asAdmin('PUT', `/products/${p.b.id}?store=german`, { useDefault: ['name'] }));
    ok(await asAdmin('PUT', `/products/${p.c.id}?store=german`, { useDefault: ['isActive'] }));
  });
});

describe('query counts of the listing', () => {
  let Q: number;

  before(async () => {
    Q = await category(`Counted ${tag}`);
    const related = await createTestProduct(t, { price: 1 });
    for (let i = 0; i < 20; i++) {
      const p = await createTestProduct(t, {
        name: `Counted ${String(i).padStart(2, '0')} ${tag}`,
        price: 10 + i,
        categoryIds: [Q],
        stockData: { qty: i },
      });
      if (i % 2 === 0) {
        ok(await asAdmin('POST', `/products/${p.id}/links/related`, { linkedProductId: related.id }), 201);
        ok(await asAdmin('POST', `/products/${p.id}/tier-prices`, [{ qty: 2, price: 5 }]), 201);
      }
    }
  });

  test('a page takes one statement whatever its size; fullDetail one more (plus the cache version check)', async () => {
    await bumpCatalog();
    const five = await queriesOf(() => list(`categoryId=${Q}&itemsPerPage=5`));
    const twenty = await queriesOf(() => list(`categoryId=${Q}&itemsPerPage=20`));
    assert.equal(five, 2);
    assert.equal(twenty, 2);
    const fiveFull = await queriesOf(() => list(`categoryId=${Q}&itemsPerPage=5&fullDetail=1`));
    const twentyFull = await queriesOf(() => list(`categoryId=${Q}&itemsPerPage=20&fullDetail=1`));
    assert.equal(fiveFull, 3);
    assert.equal(twentyFull, 3);
    assert.equal(await queriesOf(() => list(`categoryId=${Q}&itemsPerPage=20&fullDetail=1`)), 1, 'cached');
    // with a token: the principal lookup on top, the same for both sizes
    const adminFive = await queriesOf(() => list(`categoryId=${Q}&itemsPerPage=5&fullDetail=1`, { token: admin }));
    const adminTwenty = await queriesOf(() => list(`categoryId=${Q}&itemsPerPage=20&fullDetail=1`, { token: admin }));
    assert.equal(adminFive, adminTwenty);
    const r = ok(await list(`categoryId=${Q}&itemsPerPage=20&fullDetail=1`)).body;
    assert.equal(r.totalItems, 20);
    assert.equal(r.member.length, 20);
    assert.equal(r.member.filter((m: any) => m.relatedProducts.length === 1).length, 10);
  });
});
