import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { and, eq, inArray, sql } from 'drizzle-orm';
import { API, buildTestApp, type Res, type TestApp } from '../../../../test/helpers.js';
import { createWebsite } from '../../stores/service.js';
import { stockItems } from '../../inventory/tables.js';
import { urlRewrites } from '../../url-resolver/tables.js';
import { createTestProduct } from '../../../../test/fixtures/catalog.js';
import { refreshPriceRanges } from './price.js';
import {
  attributeOptions,
  attributeSets,
  categories,
  categoryProducts,
  configurableChildren,
  productAttributes,
  products,
} from '../tables.js';
import { countStatements } from '../../../platform/db.js';

let t: TestApp;
let admin: string;
let customer: string;
const tok: Record<'read' | 'create' | 'write' | 'delete', string> = { read: '', create: '', write: '', delete: '' };
let seq = 0;
const uniq = (p: string) => `${p}-${process.pid}-${++seq}`;

before(async () => {
  // no background store reloads: query counts must only see the requests
  t = await buildTestApp({ storeRefreshMs: 3_600_000 });
  admin = await t.tokens.admin();
  customer = await t.tokens.customer();
  tok.read = await t.tokens.apiUser(['products/read']);
  tok.create = await t.tokens.apiUser(['products/read', 'products/create']);
  tok.write = await t.tokens.apiUser(['products/read', 'products/write']);
  tok.delete = await t.tokens.apiUser(['products/delete']);
});
after(() => t.close());

function assertError(r: Res, status: number, error: string, message?: RegExp) {
  assert.equal(r.status, status, r.text);
  assert.equal(r.body.error, error, r.text);
  assert.equal(typeof r.body.message, 'string');
  if (message) assert.match(r.body.message, message);
  if (status !== 401) assert.equal(r.body.code, status);
}

const post = (body: unknown, token = admin, query = '') => t.req('POST', `${API}/products${query}`, { token, body });
const put = (id: number, body: unknown, query = '', token = admin) => t.req('PUT', `${API}/products/${id}${query}`, { token, body });
const get = (id: number, query = '', token = admin) => t.req('GET', `${API}/products/${id}${query}`, { token });

async function productCount(): Promise<number> {
  const [r] = await t.database.db.select({ n: sql<number>`count(*)::int` }).from(products);
  return r.n;
}

async function row(id: number) {
  const [r] = await t.database.db.select().from(products).where(eq(products.id, id));
  return r;
}

/**
 * The product's paths as clients use them (with the .html suffix, whether the URL resolver stores it or adds it
 * when resolving); the redirects the resolver may keep for old paths are left out.
 */
async function pathsOf(id: number) {
  const rows = await t.database.db
    .select({ storeId: urlRewrites.storeId, requestPath: urlRewrites.requestPath })
    .from(urlRewrites)
    .where(and(eq(urlRewrites.entityType, 'product'), eq(urlRewrites.entityId, id), eq(urlRewrites.redirectType, 0)));
  return rows
    .map((r) => ({ storeId: r.storeId, requestPath: `${r.requestPath.replace(/\.html$/, '')}.html` }))
    .sort((a, b) => a.storeId - b.storeId || a.requestPath.localeCompare(b.requestPath));
}

/** A POST that must be refused without creating anything. */
async function refusedCreate(body: unknown, status: number, message?: RegExp, fieldName?: string): Promise<Res> {
  const before = await productCount();
  const r = await post(body);
  assertError(r, status, status === 409 ? 'conflict' : 'bad_request', message);
  if (fieldName) assert.equal(r.body.details?.field, fieldName, r.text);
  assert.equal(await productCount(), before, 'nothing is created');
  return r;
}

/** A PUT that must be refused without changing the product. */
async function refusedUpdate(id: number, body: unknown, status: number, message?: RegExp, query = ''): Promise<Res> {
  const beforeRow = await row(id);
  const r = await put(id, body, query);
  assert.equal(r.status, status, r.text);
  if (message) assert.match(r.body.message, message);
  assert.deepEqual(await row(id), beforeRow, 'nothing is changed');
  return r;
}

describe('POST /products', () => {
  test('creates a product of each type and returns it as it reads (201)', async () => {
    for (const type of ['simple', 'virtual', 'configurable', 'bundle', 'grouped', 'downloadable']) {
      const sku = uniq(`type-${type}`);
      const r = await post({ sku, name: `A ${type} product`, type, price: 12.5 });
      assert.equal(r.status, 201, r.text);
      assert.equal(r.body.sku, sku);
      assert.equal(r.body.type, type);
      assert.equal(r.body.name, `A ${type} product`);
      assert.equal(typeof r.body.id, 'number');
      const g = await get(r.body.id);
      assert.equal(g.status, 200);
      assert.equal(g.body.type, type);
    }
  });

  test('applies the defaults: simple, Default attribute set, enabled, catalog_search, tax class 0, website of the store', async () => {
    const sku = uniq('defaults');
    const r = await post({ sku, name: 'Défaut Product' });
    assert.equal(r.status, 201, r.text);
    const [set] = await t.database.db.select().from(attributeSets).where(eq(attributeSets.name, 'Default'));
    assert.ok(set, 'the Default attribute set is installed');
    assert.equal(r.body.type, 'simple');
    assert.equal(r.body.attributeSetId, set.id);
    assert.equal(r.body.isActive, true);
    assert.equal(r.body.status, 'enabled');
    assert.equal(r.body.visibility, 'catalog_search');
    assert.equal(r.body.taxClassId, 0);
    assert.equal(r.body.urlKey, 'defaut-product');
    const p = await row(r.body.id);
    assert.deepEqual(p.websiteIds, [1]);
    assert.equal(p.price, null);
    assert.equal(p.minPrice, null);
    assert.match(p.searchText, new RegExp(sku));
    assert.match(p.searchText, /Défaut Product/);
  });

  test('stores every writable field', async () => {
    const sku = uniq('full');
    const r = await post({
      sku,
      name: 'Full product',
      status: 'disabled',
      visibility: 'search',
      price: 99.99,
      specialPrice: 79.5,
      specialFromDate: '2020-01-01',
      specialToDate: '2099-12-31',
      newsFromDate: '2024-01-01',
      newsToDate: '2024-02-01 00:00:00',
      cost: 40,
      msrp: 120,
      weight: 1.25,
      urlKey: 'My Full Product',
      description: '<p>Long text</p>',
      shortDescription: 'Short text',
      metaTitle: 'Meta title',
      metaDescription: 'Meta description',
      metaKeywords: 'a, b',
      taxClassId: 2,
      websiteIds: [1],
      readOnlyJunk: 'ignored',
      finalPrice: 1,
    });
    assert.equal(r.status, 201, r.text);
    assert.equal(r.body.isActive, false);
    assert.equal(r.body.visibility, 'search');
    assert.equal(r.body.price, 99.99);
    assert.equal(r.body.specialPrice, 79.5);
    assert.equal(r.body.finalPrice, 79.5);
    assert.equal(r.body.urlKey, 'my-full-product');
    assert.equal(r.body.taxClassId, 2);
    const p = await row(r.body.id);
    assert.equal(p.cost, '40.0000');
    assert.equal(p.msrp, '120.0000');
    assert.equal(p.weight, '1.2500');
    assert.equal(p.specialFromDate, '2020-01-01');
    assert.equal(p.newsToDate, '2024-02-01');
    assert.equal(p.metaKeywords, 'a, b');
    assert.equal(p.minPrice, '79.5000');
    assert.equal(p.maxPrice, '79.5000');
    assert.match(p.searchText, /Long text/);
    assert.doesNotMatch(p.searchText, /<p>/);
  });

  test('bundle and downloadable fields', async () => {
    const b = await post({ sku: uniq('bundle'), name: 'Bundle', type: 'bundle', priceType: 1, priceView: 1, shipmentType: 1 });
    assert.equal(b.status, 201, b.text);
    const br = await row(b.body.id);
    assert.deepEqual([br.skuType, br.priceType, br.weightType, br.priceView, br.shipmentType], [0, 1, 0, 1, 1]);
    const d = await post({ sku: uniq('dl'), name: 'Download', type: 'downloadable', linksTitle: 'Files', linksPurchasedSeparately: false });
    assert.equal(d.status, 201, d.text);
    const dr = await row(d.body.id);
    assert.equal(dr.linksTitle, 'Files');
    assert.equal(dr.linksPurchasedSeparately, false);
    assert.equal(dr.samplesTitle, 'Samples');
  });

  test('the fixture creates a product with a unique sku', async () => {
    const a = await createTestProduct(t);
    const b = await createTestProduct(t, { price: 3 });
    assert.notEqual(a.sku, b.sku);
    assert.equal(b.price, 3);
  });
});

describe('POST /products validation (nothing is created)', () => {
  test('sku and name are required', async () => {
    await refusedCreate({ name: 'No sku' }, 400, /^SKU is required$/, 'sku');
    await refusedCreate({ sku: '   ', name: 'Blank sku' }, 400, /^SKU is required$/, 'sku');
    await refusedCreate({ sku: uniq('noname') }, 400, /^Name is required$/, 'name');
    await refusedCreate({ sku: uniq('noname'), name: '' }, 400, /^Name is required$/, 'name');
  });

  test('type must be one of the six', async () => {
    await refusedCreate({ sku: uniq('t'), name: 'x', type: 'giftcard' }, 400, /type/, 'type');
    await refusedCreate({ sku: uniq('t'), name: 'x', type: 5 }, 400, /type/);
  });

  test('unknown references are named', async () => {
    await refusedCreate({ sku: uniq('r'), name: 'x', attributeSetId: 9999 }, 400, /attribute set/i, 'attributeSetId');
    await refusedCreate({ sku: uniq('r'), name: 'x', websiteIds: [1, 77] }, 400, /website/i, 'websiteIds');
    await refusedCreate({ sku: uniq('r'), name: 'x', categoryIds: [987654] }, 400, /categor/i, 'categoryIds');
    await refusedCreate({ sku: uniq('r'), name: 'x', taxClassId: 999 }, 400, /tax class/i, 'taxClassId');
    // 3 is a customer tax class
    await refusedCreate({ sku: uniq('r'), name: 'x', taxClassId: 3 }, 400, /tax class/i, 'taxClassId');
  });

  test('prices are numbers not below 0', async () => {
    await refusedCreate({ sku: uniq('p'), name: 'x', price: -1 }, 400, /price/, 'price');
    await refusedCreate({ sku: uniq('p'), name: 'x', specialPrice: -0.01 }, 400, /specialPrice/, 'specialPrice');
    await refusedCreate({ sku: uniq('p'), name: 'x', cost: -5 }, 400, /cost/);
    await refusedCreate({ sku: uniq('p'), name: 'x', price: '10' }, 400, /price/);
    await refusedCreate({ sku: uniq('p'), name: 'x', price: 1e20 }, 400, /price/);
    await refusedCreate({ sku: uniq('p'), name: 'x', weight: -1 }, 400, /weight/);
  });

  test('dates must exist and be in order', async () => {
    await refusedCreate({ sku: uniq('d'), name: 'x', specialFromDate: '2024-02-30' }, 400, /specialFromDate/, 'specialFromDate');
    await refusedCreate({ sku: uniq('d'), name: 'x', newsToDate: 'tomorrow' }, 400, /newsToDate/, 'newsToDate');
    await refusedCreate({ sku: uniq('d'), name: 'x', specialFromDate: '2024-05-02', specialToDate: '2024-05-01' }, 400, /specialFromDate/);
    await refusedCreate({ sku: uniq('d'), name: 'x', newsFromDate: '2024-05-02', newsToDate: '2024-05-01' }, 400, /newsFromDate/);
  });

  test('status, visibility and wrong types', async () => {
    await refusedCreate({ sku: uniq('s'), name: 'x', status: 'maybe' }, 400, /status/);
    await refusedCreate({ sku: uniq('s'), name: 'x', visibility: 'everywhere' }, 400, /visibility/);
    await refusedCreate({ sku: uniq('s'), name: 'x', isActive: 'yes' }, 400, /isActive/);
    await refusedCreate({ sku: uniq('s'), name: 'x', categoryIds: 'all' }, 400, /categoryIds/);
    await refusedCreate({ sku: uniq('s'), name: 'x', websiteIds: [-1] }, 400, /websiteIds/);
    await refusedCreate([], 400);
    await refusedCreate({ sku: uniq('s'), name: 'x', useDefault: ['name'] }, 400, /store/, 'useDefault');
  });

  test('malformed JSON is a 400', async () => {
    const before = await productCount();
    const r = await t.req('POST', `${API}/products`, {
      token: admin,
      raw: '{"sku": "x",',
      headers: { 'content-type': 'application/json' },
    });
    assertError(r, 400, 'bad_request', /Invalid JSON/);
    const e = await t.req('POST', `${API}/products`, { token: admin, raw: '', headers: { 'content-type': 'application/json' } });
    assertError(e, 400, 'bad_request');
    assert.equal(await productCount(), before);
  });

  test('stockData with a bad qty refuses the whole create', async () => {
    await refusedCreate({ sku: uniq('stock'), name: 'x', stockData: { qty: -1 } }, 400, /qty/);
  });

  test('a system code in customAttributesWrite is a 400 naming it', async () => {
    const r = await refusedCreate({ sku: uniq('ca'), name: 'x', customAttributesWrite: { sku: 'other' } }, 400, /sku/);
    assert.match(String(r.body.details?.field ?? ''), /sku/);
    await refusedCreate({ sku: uniq('ca'), name: 'x', customAttributesWrite: { status: 1 } }, 400, /status/);
  });

  test('custom attributes and attribute-backed fields are stored; searchable option labels are searchable', async () => {
    const opts = await t.database.db
      .select({ id: attributeOptions.id, label: attributeOptions.label, code: productAttributes.code })
      .from(attributeOptions)
      .innerJoin(productAttributes, eq(productAttributes.id, attributeOptions.attributeId))
      .where(inArray(productAttributes.code, ['color', 'size']));
    const red = opts.find((o) => o.code === 'color' && o.label === 'Red')!;
    const xxl = opts.find((o) => o.code === 'size' && o.label === 'XXL')!;
    const r = await post({
      sku: uniq('ca'),
      name: 'Attr product',
      barcode: '4006381333931',
      customAttributesWrite: { color: red.id, size: xxl.id },
    });
    assert.equal(r.status, 201, r.text);
    const db = await row(r.body.id);
    assert.deepEqual(db.attributes, { barcode: '4006381333931', color: red.id, size: xxl.id });
    assert.equal(r.body.barcode, '4006381333931');
    assert.match(db.searchText, /\bRed\b/);
    assert.match(db.searchText, /4006381333931/);
    // size is not searchable
    assert.doesNotMatch(db.searchText, /XXL/);
    const u = await put(r.body.id, { customAttributesWrite: { color: null } });
    assert.equal(u.status, 200, u.text);
    const after = await row(r.body.id);
    assert.deepEqual(after.attributes, { barcode: '4006381333931', size: xxl.id });
    assert.doesNotMatch(after.searchText, /\bRed\b/);
  });

  test('unknown custom attribute codes are skipped', async () => {
    const r = await post({ sku: uniq('ca'), name: 'x', customAttributesWrite: { no_such_attribute_here: 'v' } });
    assert.equal(r.status, 201, r.text);
    assert.deepEqual((await row(r.body.id)).attributes, {});
  });
});

describe('sku uniqueness', () => {
  test('a sku is unique case-insensitively (409 naming it)', async () => {
    const sku = uniq('Case-SKU');
    assert.equal((await post({ sku, name: 'First' })).status, 201);
    const r = await refusedCreate({ sku: sku.toLowerCase(), name: 'Second' }, 409, new RegExp(sku.toLowerCase()));
    assert.equal(r.body.details?.field, 'sku');
  });

  test('two parallel creates of one sku: exactly one succeeds', async () => {
    const sku = uniq('race');
    const before = await productCount();
    const rs = await Promise.all([post({ sku, name: 'Race one' }), post({ sku: sku.toUpperCase(), name: 'Race two' })]);
    const statuses = rs.map((r) => r.status).sort();
    assert.deepEqual(statuses, [201, 409], rs.map((r) => r.text).join('\n'));
    const lost = rs.find((r) => r.status === 409)!;
    assert.equal(lost.body.error, 'conflict');
    assert.equal(await productCount(), before + 1);
  });

  test("PUT to another product's sku is a 409", async () => {
    const a = await createTestProduct(t);
    const b = await createTestProduct(t);
    await refusedUpdate(b.id, { sku: String(a.sku).toUpperCase() }, 409, /already exists/);
    // its own sku in another case is fine
    const r = await put(b.id, { sku: String(b.sku).toUpperCase() });
    assert.equal(r.status, 200, r.text);
    assert.equal(r.body.sku, String(b.sku).toUpperCase());
  });
});

describe('url keys', () => {
  test('generated from the name, ASCII-folded; collisions get -1, -2', async () => {
    const name = `Crème Brûlée ${uniq('Ünïcode')} — Größe XL!`;
    const a = await post({ sku: uniq('u'), name });
    const b = await post({ sku: uniq('u'), name });
    const c = await post({ sku: uniq('u'), name });
    for (const r of [a, b, c]) assert.equal(r.status, 201, r.text);
    const base = a.body.urlKey as string;
    assert.match(base, /^creme-brulee-unicode-\d+-\d+-grosse-xl$/);
    assert.equal(b.body.urlKey, `${base}-1`);
    assert.equal(c.body.urlKey, `${base}-2`);
    // one path per store view of the product's website, with the .html suffix
    assert.deepEqual(await pathsOf(a.body.id), [
      { storeId: 1, requestPath: `${base}.html` },
      { storeId: 2, requestPath: `${base}.html` },
    ]);
    assert.deepEqual(
      (await pathsOf(b.body.id)).map((p) => p.requestPath),
      [`${base}-1.html`, `${base}-1.html`],
    );
  });

  test('parallel creates of one name get distinct url keys', async () => {
    const name = `Parallel ${uniq('name')}`;
    const rs = await Promise.all([1, 2, 3].map(() => post({ sku: uniq('par'), name })));
    for (const r of rs) assert.equal(r.status, 201, r.text);
    const keys = rs.map((r) => r.body.urlKey as string).sort();
    const base = keys[0];
    assert.deepEqual(keys, [base, `${base}-1`, `${base}-2`]);
  });

  test('an explicit url key that is taken is a 409 naming the path', async () => {
    const key = uniq('taken-key');
    assert.equal((await post({ sku: uniq('k'), name: 'One', urlKey: key })).status, 201);
    const r = await refusedCreate({ sku: uniq('k'), name: 'Two', urlKey: key }, 409, new RegExp(`${key}\\.html`));
    assert.equal(r.body.error, 'conflict');
    const other = await createTestProduct(t);
    await refusedUpdate(other.id, { urlKey: key }, 409, new RegExp(key));
  });

  test('changing the url key moves the paths; "" regenerates it from the name', async () => {
    const p = await createTestProduct(t, { name: 'Path Mover', urlKey: uniq('old-key') });
    const key = uniq('new-key');
    const r = await put(p.id, { urlKey: key });
    assert.equal(r.status, 200, r.text);
    assert.equal(r.body.urlKey, key);
    assert.deepEqual(
      (await pathsOf(p.id)).map((x) => x.requestPath),
      [`${key}.html`, `${key}.html`],
    );
    const g = await put(p.id, { urlKey: '' });
    assert.equal(g.status, 200, g.text);
    assert.match(g.body.urlKey, /^path-mover(-\d+)?$/);
  });

  test('a url key with nothing usable is a 400', async () => {
    await refusedCreate({ sku: uniq('k'), name: 'x', urlKey: '!!!' }, 400, /urlKey/);
  });

  test('the Nth product of one name takes as many queries as the second: the free suffix is looked up at once', async () => {
    const name = `Shirt ${uniq('many')}`;
    const counts: number[] = [];
    let base = '';
    for (let i = 0; i < 40; i++) {
      const { n, result: r } = await countStatements(() => post({ sku: uniq('shirt'), name }));
      counts.push(n);
      assert.equal(r.status, 201, r.text);
      if (i === 0) base = r.body.urlKey;
      else assert.equal(r.body.urlKey, `${base}-${i}`);
    }
    // each create's own statements (background work meanwhile is not among them): a lookup per taken suffix would
    // make the late ones cost ~35 more
    const second = counts[1];
    assert.deepEqual(
      counts.slice(1),
      counts.slice(1).map(() => second),
      `queries per create: ${counts.join(', ')}`,
    );
    assert.ok(second <= counts[0] + 1, `queries per create: ${counts.join(', ')}`);
  });

  test("taken suffixes are skipped: other products' keys, store-view keys and paths held by a category", async () => {
    const base = `gap-${uniq('k')}`.toLowerCase();
    const name = base.replace(/-/g, ' ');
    assert.equal((await post({ sku: uniq('g'), name, urlKey: base })).status, 201);
    assert.equal((await post({ sku: uniq('g'), name: 'Other', urlKey: `${base}-2` })).status, 201);
    const storeKeyed = await createTestProduct(t);
    assert.equal((await put(storeKeyed.id, { urlKey: `${base}-3` }, '?store=german')).status, 200);
    // a category directly under the store root has the path "<key>.html", as a product would
    const cat = await t.req('POST', `${API}/categories`, { token: admin, body: { name: 'Gap category', urlKey: `${base}-4` } });
    assert.equal(cat.status, 201, cat.text);
    const keys: string[] = [];
    for (let i = 0; i < 3; i++) {
      const r = await post({ sku: uniq('g'), name });
      assert.equal(r.status, 201, r.text);
      keys.push(r.body.urlKey);
    }
    assert.deepEqual(keys, [`${base}-1`, `${base}-5`, `${base}-6`]);
  });
});

describe('websites', () => {
  test('a product gets the website of the current store; paths follow its websites', async () => {
    const w = await createWebsite(t.database.db, t.services.settings, {
      code: 'pw_second',
      name: 'Second',
      storeCode: 'pw_second_en',
      storeName: 'Second EN',
    });
    const key = uniq('site-key');
    const r = await post({ sku: uniq('site'), name: 'Second site product', urlKey: key }, admin, '?store=pw_second_en');
    assert.equal(r.status, 201, r.text);
    assert.deepEqual((await row(r.body.id)).websiteIds, [w.websiteId]);
    assert.deepEqual(await pathsOf(r.body.id), [{ storeId: w.storeId, requestPath: `${key}.html` }]);
    // the same url key is free in another website's store views
    const other = await post({ sku: uniq('site'), name: 'Main site product', urlKey: key });
    assert.equal(other.status, 201, other.text);
    assert.equal(other.body.urlKey, key);
    // joining the main website now collides with the other product's paths there
    await refusedUpdate(r.body.id, { websiteIds: [1, w.websiteId] }, 409, new RegExp(`${key}\\.html`));
    const moved = await put(other.body.id, { websiteIds: [w.websiteId] });
    assert.equal(moved.status, 409, moved.text);
    const u = await put(r.body.id, { websiteIds: [] });
    assert.equal(u.status, 200, u.text);
    assert.deepEqual(await pathsOf(r.body.id), []);
  });
});

describe('PUT /products/{id}', () => {
  test('updates only the keys sent', async () => {
    const p = await createTestProduct(t, { price: 10, description: 'Keep me', visibility: 'catalog' });
    const r = await put(p.id, { price: 12, name: 'Renamed' });
    assert.equal(r.status, 200, r.text);
    assert.equal(r.body.price, 12);
    assert.equal(r.body.name, 'Renamed');
    assert.equal(r.body.description, 'Keep me');
    assert.equal(r.body.visibility, 'catalog');
    const db = await row(p.id);
    assert.equal(db.minPrice, '12.0000');
    assert.match(db.searchText, /Renamed/);
    assert.ok(db.updatedAt.getTime() >= db.createdAt.getTime());
  });

  test('null clears optional values', async () => {
    const p = await createTestProduct(t, { specialPrice: 5, specialFromDate: '2020-01-01', description: 'text' });
    const r = await put(p.id, { specialPrice: null, specialFromDate: '', description: null });
    assert.equal(r.status, 200, r.text);
    const db = await row(p.id);
    assert.equal(db.specialPrice, null);
    assert.equal(db.specialFromDate, null);
    assert.equal(db.description, null);
    assert.equal(db.minPrice, '10.0000');
  });

  test('the type cannot change (400); the same type is accepted', async () => {
    const p = await createTestProduct(t);
    await refusedUpdate(p.id, { type: 'virtual' }, 400, /type/);
    assert.equal((await put(p.id, { type: 'simple' })).status, 200);
  });

  test('bad values change nothing', async () => {
    const p = await createTestProduct(t, { specialFromDate: '2024-05-01' });
    await refusedUpdate(p.id, { name: '' }, 400, /^Name is required$/);
    await refusedUpdate(p.id, { sku: null }, 400, /^SKU is required$/);
    await refusedUpdate(p.id, { specialToDate: '2024-04-30' }, 400, /specialFromDate/);
    await refusedUpdate(p.id, { price: -3, name: 'Changed' }, 400, /price/);
    await refusedUpdate(p.id, { taxClassId: 3 }, 400, /tax class/i);
    await refusedUpdate(p.id, { websiteIds: [55] }, 400, /website/i);
    await refusedUpdate(p.id, { categoryIds: [123456] }, 400, /categor/i);
    await refusedUpdate(p.id, { attributeSetId: 12345 }, 400, /attribute set/i);
    await refusedUpdate(p.id, { name: 'Changed', stockData: { qty: -4 } }, 400, /qty/);
    await refusedUpdate(p.id, { name: 'Changed', customAttributesWrite: { type_id: 'virtual' } }, 400, /type_id/);
    await refusedUpdate(p.id, { useDefault: ['name'] }, 400, /store/);
  });

  test('an unknown product is a 404', async () => {
    const r = await put(99999999, { name: 'x' });
    assertError(r, 404, 'not_found');
    const bad = await put(0, { name: 'x' });
    assert.equal(bad.status, 400);
  });
});

describe('store-view values', () => {
  test('PUT with ?store= writes that store view; the default stays', async () => {
    const p = await createTestProduct(t, { name: 'Plain Name', description: 'Default description', metaTitle: 'Default meta' });
    const r = await put(
      p.id,
      {
        name: 'Deutscher Name',
        description: 'Deutsche Beschreibung',
        shortDescription: 'Kurz',
        metaTitle: 'Meta DE',
        status: 'disabled',
        price: 15,
      },
      '?store=german',
    );
    assert.equal(r.status, 200, r.text);
    assert.equal(r.body.name, 'Deutscher Name');
    assert.equal(r.body.isActive, false);
    const de = await get(p.id, '?store=german');
    assert.equal(de.body.name, 'Deutscher Name');
    assert.equal(de.body.description, 'Deutsche Beschreibung');
    assert.equal(de.body.shortDescription, 'Kurz');
    const def = await get(p.id);
    assert.equal(def.body.name, 'Plain Name');
    assert.equal(def.body.description, 'Default description');
    assert.equal(def.body.isActive, true);
    // price is global
    assert.equal(def.body.price, 15);
    const db = await row(p.id);
    assert.equal(db.name, 'Plain Name');
    assert.equal(db.metaTitle, 'Default meta');
    assert.equal(db.isActive, true);
    assert.deepEqual(db.storeValues['2'], {
      name: 'Deutscher Name',
      description: 'Deutsche Beschreibung',
      shortDescription: 'Kurz',
      metaTitle: 'Meta DE',
      isActive: false,
    });
    assert.match(db.searchText, /Plain Name/);
    assert.match(db.searchText, /Deutscher Name/);
    assert.match(db.searchText, /Deutsche Beschreibung/);
  });

  test('useDefault drops the store view values named', async () => {
    const p = await createTestProduct(t, { name: 'Base' });
    assert.equal((await put(p.id, { name: 'Basis', metaTitle: 'M', urlKey: uniq('basis') }, '?store=german')).status, 200);
    const r = await put(p.id, { useDefault: ['name', 'url_key'] }, '?store=german');
    assert.equal(r.status, 200, r.text);
    assert.equal(r.body.name, 'Base');
    assert.deepEqual((await row(p.id)).storeValues['2'], { metaTitle: 'M' });
    assert.doesNotMatch((await row(p.id)).searchText, /Basis/);
    const def = await get(p.id, '?store=german');
    assert.equal(def.body.name, 'Base');
    assert.deepEqual(
      (await pathsOf(p.id)).map((x) => x.requestPath),
      [`${p.urlKey}.html`, `${p.urlKey}.html`],
    );
    await refusedUpdate(p.id, { useDefault: ['price'] }, 400, /price/, '?store=german');
  });

  test('a store-view url key gives that store view its own path', async () => {
    const p = await createTestProduct(t);
    const key = uniq('de-key');
    const r = await put(p.id, { urlKey: key }, '?store=german');
    assert.equal(r.status, 200, r.text);
    assert.deepEqual(await pathsOf(p.id), [
      { storeId: 1, requestPath: `${p.urlKey}.html` },
      { storeId: 2, requestPath: `${key}.html` },
    ]);
    assert.equal((await row(p.id)).urlKey, p.urlKey);
  });
});

describe('categories and stock', () => {
  let catA: number;
  let catB: number;
  let catC: number;
  before(async () => {
    const rows = await t.database.db
      .insert(categories)
      .values(['A', 'B', 'C'].map((n, i) => ({ name: `Cat ${n}`, path: '1', level: 1, position: i, urlKey: `pw-cat-${n.toLowerCase()}` })))
      .returning({ id: categories.id });
    [catA, catB, catC] = rows.map((r) => r.id);
  });

  async function assignments(productId: number) {
    const rows = await t.database.db
      .select({ categoryId: categoryProducts.categoryId, position: categoryProducts.position })
      .from(categoryProducts)
      .where(eq(categoryProducts.productId, productId));
    return rows.sort((a, b) => a.categoryId - b.categoryId);
  }

  test('categoryIds replaces the assignments and keeps the positions of those that stay', async () => {
    const p = await createTestProduct(t, { categoryIds: [catA, catB] });
    assert.deepEqual(await assignments(p.id), [
      { categoryId: catA, position: 0 },
      { categoryId: catB, position: 0 },
    ]);
    await t.database.db
      .update(categoryProducts)
      .set({ position: 7 })
      .where(and(eq(categoryProducts.productId, p.id), eq(categoryProducts.categoryId, catB)));
    const r = await put(p.id, { categoryIds: [catB, catC] });
    assert.equal(r.status, 200, r.text);
    assert.deepEqual(await assignments(p.id), [
      { categoryId: catB, position: 7 },
      { categoryId: catC, position: 0 },
    ]);
    assert.equal((await put(p.id, { name: 'No category change' })).status, 200);
    assert.equal((await assignments(p.id)).length, 2);
    assert.equal((await put(p.id, { categoryIds: [] })).status, 200);
    assert.deepEqual(await assignments(p.id), []);
  });

  async function stockRow(productId: number) {
    const [s] = await t.database.db.select().from(stockItems).where(eq(stockItems.productId, productId));
    return s && { qty: s.qty, isInStock: s.isInStock, manageStock: s.manageStock };
  }
  const stockView = (b: any) => ({ stockStatus: b.stockStatus, stockQty: b.stockQty, ...b.stockItem });

  test('a product created without stockData has a stock row: qty 0, managed, out of stock', async () => {
    for (const type of ['simple', 'virtual', 'downloadable']) {
      const r = await post({ sku: uniq(`nostock-${type}`), name: `No stock ${type}`, type, price: 5 });
      assert.equal(r.status, 201, r.text);
      assert.deepEqual(await stockRow(r.body.id), { qty: 0, isInStock: false, manageStock: true }, type);
      assert.equal(r.body.stockStatus, 'out_of_stock');
      assert.equal(r.body.stockQty, 0);
    }
    // configurable, grouped and bundle products: their children's stock decides; their own row does not manage any
    for (const type of ['configurable', 'grouped', 'bundle']) {
      const r = await post({ sku: uniq(`nostock-${type}`), name: `No stock ${type}`, type });
      assert.equal(r.status, 201, r.text);
      assert.deepEqual(await stockRow(r.body.id), { qty: 0, isInStock: true, manageStock: false }, type);
      assert.equal(r.body.stockStatus, 'out_of_stock', 'no child in stock');
    }
  });

  test('stockData overrides the initial stock, key by key', async () => {
    const unmanaged = await createTestProduct(t, { stockData: { manageStock: false } });
    assert.deepEqual(await stockRow(unmanaged.id), { qty: 0, isInStock: false, manageStock: false });
    assert.equal(unmanaged.stockStatus, 'in_stock');
    const stocked = await createTestProduct(t, { stockData: { qty: 4 } });
    assert.deepEqual(await stockRow(stocked.id), { qty: 4, isInStock: true, manageStock: true });
    assert.equal(stocked.stockStatus, 'in_stock');
  });

  test('the inventory and the product agree on the stock of a product created without stockData', async () => {
    const p = await createTestProduct(t);
    assert.deepEqual(stockView((await get(p.id)).body), {
      stockStatus: 'out_of_stock',
      stockQty: 0,
      qty: 0,
      isInStock: false,
      manageStock: true,
      minQty: 0,
      minSaleQty: 1,
      backorders: 0,
    });
    const inv = await t.req('PUT', `${API}/inventory`, { token: admin, body: { sku: p.sku, isInStock: true } });
    assert.equal(inv.status, 200, inv.text);
    assert.deepEqual([inv.body.qty, inv.body.isInStock, inv.body.manageStock, inv.body.previousQty], [0, true, true, 0]);
    let g = (await get(p.id)).body;
    assert.deepEqual([g.stockStatus, g.stockQty, g.stockItem.isInStock, g.stockItem.manageStock], ['in_stock', 0, true, true]);
    const more = await t.req('PUT', `${API}/inventory`, { token: admin, body: { sku: p.sku, qty: 6 } });
    assert.equal(more.status, 200, more.text);
    g = (await get(p.id)).body;
    assert.deepEqual([g.stockStatus, g.stockQty, g.stockItem.qty], ['in_stock', 6, 6]);
    const none = await t.req('PUT', `${API}/inventory`, { token: admin, body: { sku: p.sku, qty: 0 } });
    assert.equal(none.status, 200, none.text);
    assert.equal((await get(p.id)).body.stockStatus, 'out_of_stock');
  });

  test('stockData is written to the stock', async () => {
    const p = await createTestProduct(t, { stockData: { qty: 5, isInStock: true, manageStock: true } });
    let [s] = await t.database.db.select().from(stockItems).where(eq(stockItems.productId, p.id));
    assert.equal(s.qty, 5);
    assert.equal(s.isInStock, true);
    const r = await put(p.id, { stockData: { qty: 0 } });
    assert.equal(r.status, 200, r.text);
    [s] = await t.database.db.select().from(stockItems).where(eq(stockItems.productId, p.id));
    assert.equal(s.qty, 0);
    assert.equal(s.isInStock, false);
  });
});

describe('price ranges', () => {
  test('a configurable follows its enabled children', async () => {
    const parent = await createTestProduct(t, { type: 'configurable', price: 50 });
    const c1 = await createTestProduct(t, { price: 20 });
    const c2 = await createTestProduct(t, { price: 30 });
    await t.database.db.insert(configurableChildren).values([
      { parentId: parent.id, childId: c1.id },
      { parentId: parent.id, childId: c2.id },
    ]);
    await refreshPriceRanges(t.systemCtx(), [c1.id]);
    let pr = await row(parent.id);
    assert.deepEqual([pr.minPrice, pr.maxPrice], ['20.0000', '30.0000']);

    assert.equal((await put(c1.id, { price: 35 })).status, 200);
    pr = await row(parent.id);
    assert.deepEqual([pr.minPrice, pr.maxPrice], ['30.0000', '35.0000']);

    assert.equal((await put(c2.id, { specialPrice: 9.99 })).status, 200);
    pr = await row(parent.id);
    assert.deepEqual([pr.minPrice, pr.maxPrice], ['9.9900', '35.0000']);

    // a disabled child no longer counts
    assert.equal((await put(c1.id, { isActive: false })).status, 200);
    pr = await row(parent.id);
    assert.deepEqual([pr.minPrice, pr.maxPrice], ['9.9900', '9.9900']);

    // deleting a child refreshes the parent
    assert.equal((await t.req('DELETE', `${API}/products/${c2.id}`, { token: admin })).status, 204);
    pr = await row(parent.id);
    assert.deepEqual([pr.minPrice, pr.maxPrice], ['50.0000', '50.0000']);
  });

  test('a future special price does not count yet', async () => {
    const p = await createTestProduct(t, { price: 10, specialPrice: 5, specialFromDate: '2999-01-01' });
    const db = await row(p.id);
    assert.deepEqual([db.minPrice, db.maxPrice], ['10.0000', '10.0000']);
  });
});

describe('DELETE /products/{id}', () => {
  test('removes the product, its assignments, stock and paths (204)', async () => {
    const p = await createTestProduct(t, { stockData: { qty: 3 } });
    assert.equal((await pathsOf(p.id)).length, 2);
    const r = await t.req('DELETE', `${API}/products/${p.id}`, { token: admin });
    assert.equal(r.status, 204, r.text);
    assert.equal(r.text, '');
    assert.equal(await row(p.id), undefined);
    assert.deepEqual(await pathsOf(p.id), []);
    assert.equal((await t.database.db.select().from(stockItems).where(eq(stockItems.productId, p.id))).length, 0);
    assertError(await get(p.id), 404, 'not_found');
    assertError(await t.req('DELETE', `${API}/products/${p.id}`, { token: admin }), 404, 'not_found');
    // its url key is free again
    assert.equal((await post({ sku: uniq('reuse'), name: 'Reuse', urlKey: p.urlKey })).status, 201);
  });
});

describe('access', () => {
  test('POST: anonymous 401, customer 403, without products/create 403, with it 201', async () => {
    const body = () => ({ sku: uniq('acl'), name: 'ACL product' });
    const before = await productCount();
    assertError(await post(body(), ''), 401, 'unauthorized');
    assertError(await post(body(), customer), 403, 'forbidden');
    assertError(await post(body(), tok.read), 403, 'forbidden');
    assertError(await post(body(), tok.delete), 403, 'forbidden');
    assert.equal(await productCount(), before);
    assert.equal((await post(body(), tok.create)).status, 201);
    assert.equal((await post(body(), tok.write)).status, 201);
  });

  test('PUT needs products/write; DELETE needs products/delete', async () => {
    const p = await createTestProduct(t);
    assertError(await put(p.id, { name: 'x' }, '', ''), 401, 'unauthorized');
    assertError(await put(p.id, { name: 'x' }, '', customer), 403, 'forbidden');
    assertError(await put(p.id, { name: 'x' }, '', tok.create), 403, 'forbidden');
    assertError(await put(p.id, { name: 'x' }, '', tok.delete), 403, 'forbidden');
    assert.equal((await row(p.id)).name, p.name);
    const ok = await put(p.id, { name: 'Written' }, '', tok.write);
    assert.equal(ok.status, 200, ok.text);

    const del = (token: string) => t.req('DELETE', `${API}/products/${p.id}`, { token });
    assertError(await del(''), 401, 'unauthorized');
    assertError(await del(customer), 403, 'forbidden');
    assertError(await del(tok.write), 403, 'forbidden');
    assertError(await del(tok.create), 403, 'forbidden');
    assert.ok(await row(p.id));
    assert.equal((await del(tok.delete)).status, 204);
  });

  test('reads are public', async () => {
    const p = await createTestProduct(t);
    const r = await t.req('GET', `${API}/products/${p.id}`);
    assert.equal(r.status, 200, r.text);
    assert.equal(r.body.sku, p.sku);
    const l = await t.req('GET', `${API}/products`);
    assert.equal(l.status, 200, l.text);
  });
});

describe('store-restricted tokens', () => {
  let site: { websiteId: number; storeId: number };
  /** products/all, limited to the store view of the second website */
  let limited: string;
  const Q = '?store=pw_scope_en';

  before(async () => {
    site = await createWebsite(t.database.db, t.services.settings, {
      code: 'pw_scope',
      name: 'Scoped',
      storeCode: 'pw_scope_en',
      storeName: 'Scoped EN',
    });
    limited = await t.tokens.apiUser(['products/all'], { allowedStoreIds: [site.storeId] });
  });

  /** Everything a product write or delete can change. */
  async function state(id: number) {
    const db = t.database.db;
    return {
      row: await row(id),
      stock: await db.select().from(stockItems).where(eq(stockItems.productId, id)),
      categories: await db.select().from(categoryProducts).where(eq(categoryProducts.productId, id)),
      paths: await pathsOf(id),
    };
  }

  test("PUT of a product outside the token's websites is a 404 and changes nothing", async () => {
    const main = await createTestProduct(t, { price: 20, stockData: { qty: 3 } });
    const before = await state(main.id);
    for (const body of [
      { price: 1 },
      { name: 'Taken over', urlKey: uniq('taken-over') },
      { websiteIds: [1, site.websiteId] },
      { stockData: { qty: 99 } },
      { categoryIds: [] },
    ]) {
      assertError(await put(main.id, body, Q, limited), 404, 'not_found', /Product not found/);
      assert.deepEqual(await state(main.id), before, JSON.stringify(body));
    }
    // the same for store-view values
    assertError(await put(main.id, { name: 'Store name' }, Q, limited), 404, 'not_found');
    assert.deepEqual(await state(main.id), before);
    assert.equal((await get(main.id)).body.price, 20);
  });

  test("DELETE of a product outside the token's websites is a 404 and deletes nothing", async () => {
    const main = await createTestProduct(t, { stockData: { qty: 3 } });
    const before = await state(main.id);
    assertError(await t.req('DELETE', `${API}/products/${main.id}${Q}`, { token: limited }), 404, 'not_found', /Product not found/);
    assert.deepEqual(await state(main.id), before);
    assert.equal((await get(main.id)).status, 200);
  });

  test('the token writes and deletes the products of its websites', async () => {
    const own = await createTestProduct(t, { price: 20, websiteIds: [site.websiteId] });
    const r = await put(own.id, { price: 15, name: 'Scoped name' }, Q, limited);
    assert.equal(r.status, 200, r.text);
    assert.equal((await row(own.id)).price, '15.0000');
    const made = await post({ sku: uniq('scoped'), name: 'Made by the scoped token' }, limited, Q);
    assert.equal(made.status, 201, made.text);
    assert.deepEqual(made.body.websiteIds, [site.websiteId]);
    assert.equal((await t.req('DELETE', `${API}/products/${own.id}${Q}`, { token: limited })).status, 204);
    assert.equal(await row(own.id), undefined);
  });

  test("on a product of several websites, the token changes only its own websites' assignment", async () => {
    const shared = await createTestProduct(t, { websiteIds: [1, site.websiteId] });
    const before = await state(shared.id);
    // dropping the main website, or leaving all of its own websites, is refused
    for (const websiteIds of [[site.websiteId], [1], []]) {
      assertError(await put(shared.id, { websiteIds }, Q, limited), 403, 'forbidden');
      assert.deepEqual(await state(shared.id), before, JSON.stringify(websiteIds));
    }
    // sent back as it is, with other changes, is fine
    const r = await put(shared.id, { websiteIds: [1, site.websiteId], price: 11 }, Q, limited);
    assert.equal(r.status, 200, r.text);
    assert.deepEqual((await row(shared.id)).websiteIds, [1, site.websiteId]);
    // a product only in the main website cannot be pulled in
    const main = await createTestProduct(t);
    const mainBefore = await state(main.id);
    assertError(await put(main.id, { websiteIds: [1, site.websiteId] }, Q, limited), 404, 'not_found');
    assert.deepEqual(await state(main.id), mainBefore);
    // nor created there
    const count = await productCount();
    assertError(await post({ sku: uniq('scoped'), name: 'Main site', websiteIds: [1] }, limited, Q), 403, 'forbidden');
    assert.equal(await productCount(), count);
  });
});
