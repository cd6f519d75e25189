/**
 * `catalog_product` (`product`) and `catalog_product_type` of the Magento 1 API: a PIM creating and updating a
 * configurable product with its children over Python's xmlrpc.client, and every method and fault over JSON-RPC:
 * Magento's values (decimal strings, status and visibility numbers, option ids), store view values, products by
 * id or SKU, list filters in both forms and in a fixed number of statements, atomic writes, the role's
 * permissions and store-limited API users.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import crypto from 'node:crypto';
import { sql } from 'drizzle-orm';
import { API, type TestApp } from '../../../test/helpers.js';
import { createTestProduct } from '../../../test/fixtures/catalog.js';
import { LegacyClient, runScenario, skipWithout, type Step } from '../../../test/fixtures/legacy-api.js';
import { newApiUser, newWebsite, startSoapApp } from '../../../test/fixtures/soap.js';
import { countStatements } from '../../platform/db.js';
import { generateProducts } from '../catalog/generate.js';

let t: TestApp;
let base: string;
let admin: string;
const api = new LegacyClient(() => base);
const { rpc, sessionOf, ok, fault, faultCodes } = api;

/** The id of an option of a select attribute, by REST. */
async function optionId(code: string, label: string): Promise<string> {
  const r = await t.req('GET', `${API}/product-attributes`, { token: admin, query: { search: code } });
  const attr = r.body.member?.find((a: any) => a.attributeCode === code) ?? r.body.items?.find((a: any) => a.attributeCode === code);
  const id = attr?.options?.find((o: any) => o.label === label)?.value;
  assert.ok(id, `${code}: ${label} in ${r.text.slice(0, 300)}`);
  return String(id);
}

const uid = () => crypto.randomBytes(4).toString('hex');
const rest = async (id: number | string) => (await t.req('GET', `${API}/products/${id}`, { token: admin })).body;
/** The ids of the products whose SKU starts with `prefix`, by REST (what the legacy API changed or did not). */
async function skusLike(prefix: string): Promise<string[]> {
  const r = await ok('product.list', [{ sku: { like: `${prefix}%` } }]);
  return r.map((p: any) => p.sku);
}

before(async () => {
  ({ t, base } = await startSoapApp());
  admin = await t.tokens.admin();
  api.session = await sessionOf();
});
after(() => t?.close());

describe('catalog_product over JSON-RPC', () => {
  test('product_type.list: the types with their labels, in Maho order', async () => {
    const expected = [
      { type: 'simple', label: 'Simple' },
      { type: 'grouped', label: 'Grouped' },
      { type: 'configurable', label: 'Configurable' },
      { type: 'virtual', label: 'Virtual' },
      { type: 'bundle', label: 'Bundle' },
      { type: 'downloadable', label: 'Downloadable' },
    ];
    assert.deepEqual(await ok('product_type.list', []), expected);
    assert.deepEqual(await ok('catalog_product_type.list', []), expected);
  });

  test('create with Magento fields; info answers them as Magento stores them; REST reads the same product', async () => {
    const sku = `erp-${uid()}`;
    const id = await ok('product.create', [
      'simple',
      1,
      sku,
      {
        name: 'ERP Shirt',
        description: 'Long text',
        short_description: 'Short',
        price: '12.5',
        special_price: 10,
        special_from_date: '2030-01-01 00:00:00',
        special_to_date: '2030-02-01',
        news_from_date: '2030-01-01',
        weight: '1.25',
        status: '2',
        visibility: 2,
        tax_class_id: '2',
        url_key: `erp-shirt-${sku}`,
        meta_title: 'Meta T',
        meta_keyword: 'k1, k2',
        meta_description: 'Meta D',
        websites: ['base'],
        categories: [2],
        stock_data: { qty: '7.0000', is_in_stock: 1 },
        barcode: '4006381333931',
        additional_attributes: { single_data: { color: 'Red', gift_message_available: '1' }, multi_data: { material: ['Cotton', 'Wool'] } },
        tier_price: [{ customer_group_id: 'all', website: 'all', qty: '5', price: '9.5' }],
        product_id: 999,
        set: 3,
        unknown_key: 'ignored',
      },
    ]);
    assert.match(String(id), /^\d+$/);
    const info = await ok('catalog_product.info', [id]);
    const red = await optionId('color', 'Red');
    assert.deepEqual(
      {
        product_id: info.product_id,
        sku: info.sku,
        set: info.set,
        type: info.type,
        categories: info.categories,
        websites: info.websites,
        type_id: info.type_id,
        name: info.name,
        description: info.description,
        short_description: info.short_description,
        price: info.price,
        special_price: info.special_price,
        special_from_date: info.special_from_date,
        special_to_date: info.special_to_date,
        news_from_date: info.news_from_date,
        news_to_date: info.news_to_date,
        weight: info.weight,
        status: info.status,
        visibility: info.visibility,
        tax_class_id: info.tax_class_id,
        url_key: info.url_key,
        meta_title: info.meta_title,
        meta_keyword: info.meta_keyword,
        meta_description: info.meta_description,
        barcode: info.barcode,
        material: info.material?.split(',').length,
        gift_message_available: info.gift_message_available,
        category_ids: info.category_ids,
      },
      {
        product_id: String(id),
        sku,
        set: '1',
        type: 'simple',
        categories: ['2'],
        websites: ['1'],
        type_id: 'simple',
        name: 'ERP Shirt',
        description: 'Long text',
        short_description: 'Short',
        price: '12.5000',
        special_price: '10.0000',
        special_from_date: '2030-01-01 00:00:00',
        special_to_date: '2030-02-01 00:00:00',
        news_from_date: '2030-01-01 00:00:00',
        news_to_date: null,
        weight: '1.2500',
        status: '2',
        visibility: '2',
        tax_class_id: '2',
        url_key: `erp-shirt-${sku}`,
        meta_title: 'Meta T',
        meta_keyword: 'k1, k2',
        meta_description: 'Meta D',
        barcode: '4006381333931',
        material: 2,
        gift_message_available: '1',
        category_ids: ['2'],
      },
    );
    assert.equal(info.color, String(red));
    assert.equal(info.url_path, `erp-shirt-${sku}.html`);
    assert.deepEqual(info.tier_price, [
      {
        price_id: info.tier_price[0].price_id,
        website_id: '0',
        all_groups: '1',
        cust_group: '32000',
        price: '9.5000',
        price_qty: '5.0000',
        website_price: '9.5000',
      },
    ]);
    assert.match(info.created_at, /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/);
    for (const hidden of ['image', 'small_image', 'thumbnail', 'media_gallery', 'entity_id', 'attribute_set_id'])
      assert.ok(!(hidden in info), hidden);
    const r = await rest(id);
    assert.deepEqual(
      [r.sku, r.name, r.price, r.status, r.visibility, r.categoryIds, r.stockItem?.qty, r.customAttributes?.color],
      [sku, 'ERP Shirt', 12.5, 'disabled', 'catalog', [2], 7, Number(red)],
    );
    assert.deepEqual(
      r.tierPrices?.map((x: any) => [x.qty, x.price]),
      [[5, 9.5]],
    );
  });

  test('create: a product without stock data is not stock-managed, as Magento API products are', async () => {
    const sku = `nostock-${uid()}`;
    const id = await ok('product.create', ['virtual', '1', sku, { name: 'No stock', price: 3 }]);
    const stock = (await t.req('GET', `${API}/inventory/${sku}`, { token: admin })).body;
    assert.equal(stock.manageStock, false);
    assert.equal((await ok('product.info', [id])).weight, undefined, 'weight does not apply to virtual products');
  });

  test('create: faults 102, 104, 105 and 100; a refused create leaves nothing', async () => {
    const sku = `bad-${uid()}`;
    const data = { name: 'Bad', price: 1 };
    for (const args of [
      [null, 1, sku, data],
      ['simple', null, sku, data],
      ['simple', 1, '', data],
      ['simple', 1],
    ]) {
      assert.deepEqual(await fault('product.create', args), [102, 'Invalid data given. Details in error message.']);
    }
    assert.deepEqual(await fault('product.create', ['gift', 1, sku, data]), [104, 'Product type is not in allowed types.']);
    assert.deepEqual(await fault('product.create', ['Simple', 1, sku, data]), [104, 'Product type is not in allowed types.']);
    assert.deepEqual(await fault('product.create', ['simple', 999999, sku, data]), [105, 'Product attribute set is not existed']);
    assert.deepEqual(await fault('product.create', ['simple', 'abc', sku, data]), [105, 'Product attribute set is not existed']);
    assert.deepEqual(await fault('product.create', ['simple', 1, sku, data, 'nowhere']), [100, 'Requested store view not found.']);
    assert.deepEqual(await fault('product.create', ['simple', 1, sku, { price: 1 }]), [102, 'Name is required']);
    assert.deepEqual(await fault('product.create', ['simple', 1, sku, { name: 'x', price: 'cheap' }]), [
      102,
      'Attribute "price" is invalid: not a number',
    ]);
    const [code, message] = await fault('product.create', ['simple', 1, sku, { name: 'x', visibility: 7 }]);
    assert.equal(code, 102);
    assert.match(message, /^Attribute "visibility" is invalid: /);
    assert.equal((await fault('product.create', ['simple', 1, sku, { name: 'x', websites: ['nowebsite'] }]))[0], 102);
    assert.equal((await fault('product.create', ['simple', 1, sku, { name: 'x', categories: [999999] }]))[0], 102);
    assert.equal((await fault('product.create', ['simple', 1, sku, { name: 'x', color: 'Purple' }]))[0], 102);
    assert.equal((await fault('product.create', ['simple', 1, sku, { name: 'x', stock_data: { qty: -3 } }]))[0], 102);
    // stock_data: Magento's stock keys (unknown ones and nulls left out), whole quantities and 0/1 or true/false flags
    assert.deepEqual(await fault('product.create', ['simple', 1, sku, { name: 'x', stock_data: { qty: '2.5' } }]), [
      102,
      'Attribute "stock_data.qty" is invalid: not a whole number',
    ]);
    assert.deepEqual(await fault('product.create', ['simple', 1, sku, { name: 'x', stock_data: { is_in_stock: 'maybe' } }]), [
      102,
      'Attribute "stock_data.is_in_stock" is invalid.',
    ]);
    const stocked = `stock-${uid()}`;
    const stockData = { qty: '4.0000', is_in_stock: 'true', min_sale_qty: 2, max_sale_qty: null, no_such_key: 1 };
    assert.match(String(await ok('product.create', ['simple', 1, stocked, { name: 'Stocked', stock_data: stockData }])), /^\d+$/);
    const stock = (await t.req('GET', `${API}/inventory/${stocked}`, { token: admin })).body;
    assert.deepEqual([stock.qty, stock.isInStock, stock.minSaleQty], [4, true, 2]);
    assert.deepEqual(await fault('product.create', ['simple', 1, sku, 'not a struct']), [102, 'Product data must be a struct.']);
    // the tier price's website is not the product's: the product written before it is rolled back with it
    const second = await newWebsite(t, `tier${uid()}`);
    assert.deepEqual(
      await fault('product.create', [
        'simple',
        1,
        sku,
        { name: 'x', websites: [1], tier_price: [{ website: second.websiteId, qty: 2, price: 1 }] },
      ]),
      [102, 'Invalid tier prices. The product is not associated to the requested website.'],
    );
    assert.deepEqual(await fault('product.create', ['simple', 1, sku, { name: 'x', tier_price: [{ qty: 2 }] }]), [
      102,
      'Invalid Tier Prices',
    ]);
    assert.deepEqual(await skusLike(sku), []);
    const made = await ok('product.create', ['simple', 1, sku, data]);
    assert.equal((await fault('product.create', ['simple', 1, sku.toUpperCase(), data]))[0], 102, 'the SKU is taken');
    assert.deepEqual(await skusLike(sku), [sku]);
    assert.equal((await ok('product.info', [made])).sku, sku);
  });
});

describe('catalog_product: reads and updates over JSON-RPC', () => {
  test('info: by id or SKU (identifierType, or guessed), restricted attributes in both forms; faults 101 and 100', async () => {
    const p = await createTestProduct(t, { price: 4 });
    const numeric = await createTestProduct(t, { sku: `${900000000 + Math.floor(Math.random() * 99999999)}` });
    const bySku = await ok('product.info', [p.sku.toUpperCase()]);
    assert.equal(bySku.product_id, String(p.id));
    assert.equal((await ok('product.info', { productId: p.sku, identifierType: 'SKU' })).product_id, String(p.id));
    assert.equal((await ok('product.info', [String(p.id), null, null, 'id'])).sku, p.sku);
    // a SKU of digits is an id unless identifierType says sku
    assert.equal((await ok('product.info', [numeric.sku, null, null, 'sku'])).product_id, String(numeric.id));
    assert.deepEqual(await fault('product.info', [numeric.sku]), [101, 'Product not exists.']);
    assert.deepEqual(await fault('product.info', [String(p.id), null, null, 'sku']), [101, 'Product not exists.']);
    for (const bad of ['no-such-sku', 999999999, null, 1.5, { id: p.id }, '']) {
      assert.deepEqual(await fault('product.info', [bad]), [101, 'Product not exists.'], JSON.stringify(bad));
    }
    assert.deepEqual(await fault('product.info', [p.id, 'nowhere']), [100, 'Requested store view not found.']);
    assert.deepEqual(await fault('product.info', [p.id, 99999]), [100, 'Requested store view not found.']);
    const some = await ok('product.info', [p.id, null, ['name', 'price', 'meta_keyword', 'no_such']]);
    assert.deepEqual(Object.keys(some), ['product_id', 'sku', 'set', 'type', 'categories', 'websites', 'name', 'price', 'meta_keyword']);
    assert.equal(some.price, '4.0000');
    const v2 = await ok('product.info', [p.id, null, { attributes: ['name'], additional_attributes: ['barcode', 'status'] }]);
    assert.deepEqual(Object.keys(v2), ['product_id', 'sku', 'set', 'type', 'categories', 'websites', 'name', 'additional_attributes']);
    assert.deepEqual(v2.additional_attributes, [
      { key: 'status', value: '1' },
      { key: 'barcode', value: null },
    ]);
    const all = await ok('product.info', [p.id, 0]);
    assert.ok(['name', 'price', 'status', 'visibility', 'url_path', 'tier_price', 'created_at', 'has_options'].every((k) => k in all));
  });

  test('update: default values, and a name in a store view (id or code) that only that store view reads', async () => {
    const p = await createTestProduct(t, { name: 'Default Name', price: 10 });
    assert.equal(
      await ok('product.update', [p.id, { name: 'Deutscher Name', description: 'Beschreibung', price: '11.5' }, 'german']),
      true,
    );
    const german = t.services.settings.storeByCode('german')!.id;
    const de = await ok('product.info', [p.id, german]);
    assert.deepEqual([de.name, de.description, de.price], ['Deutscher Name', 'Beschreibung', '11.5000'], 'prices are global');
    const def = await ok('product.info', [p.id]);
    assert.deepEqual([def.name, def.description, def.price], ['Default Name', null, '11.5000']);
    assert.equal((await ok('product.info', [p.id, 'default'])).name, 'Default Name');
    const listed = await ok('product.list', [{ product_id: p.id }, 'german']);
    assert.deepEqual(listed, [
      { product_id: String(p.id), sku: p.sku, name: 'Deutscher Name', set: '1', type: 'simple', category_ids: [], website_ids: ['1'] },
    ]);
    assert.equal((await ok('product.list', [{ product_id: p.id }]))[0].name, 'Default Name');
    assert.deepEqual(
      (await ok('product.list', [{ name: 'Deutscher Name' }, german])).map((x: any) => x.sku),
      [p.sku],
    );
    // a store view's status, and a value that only the default values hold
    assert.equal(
      await ok('product.update', { productId: p.sku, productData: { status: 2 }, store: 'german', identifierType: 'sku' }),
      true,
    );
    assert.deepEqual([(await ok('product.info', [p.id, 'german'])).status, (await ok('product.info', [p.id])).status], ['2', '1']);
    assert.equal(await ok('product.update', [p.sku, { sku: `${p.sku}-renamed`, visibility: '3', weight: '' }]), true);
    const r = await rest(p.id);
    assert.deepEqual([r.sku, r.visibility, r.name, r.weight], [`${p.sku}-renamed`, 'search', 'Default Name', undefined]);
  });

  test('update: faults 101, 102 and 100, each changing nothing', async () => {
    const p = await createTestProduct(t, { name: 'Stays', price: 5 });
    const other = await createTestProduct(t);
    assert.deepEqual(await fault('product.update', ['no-such-sku', { name: 'x' }]), [101, 'Product not exists.']);
    assert.deepEqual(await fault('product.update', [p.id, { name: 'x' }, 'nowhere']), [100, 'Requested store view not found.']);
    assert.deepEqual(await fault('product.update', [p.id, { price: -1 }]), [102, 'Value for "price" is invalid: not a number']);
    assert.deepEqual(await fault('product.update', [p.id, { name: '' }]), [102, 'Name is required']);
    assert.deepEqual(await fault('product.update', [p.id, { sku: other.sku }]), [102, `A product with SKU "${other.sku}" already exists`]);
    assert.equal((await fault('product.update', [p.id, { special_from_date: '2030-02-01', special_to_date: '2030-01-01' }]))[0], 102);
    assert.equal((await fault('product.update', [p.id, { special_from_date: 'someday' }]))[0], 102);
    assert.equal((await fault('product.update', [p.id, { tax_class_id: 99999 }]))[0], 102);
    assert.equal((await fault('product.update', [p.id, { status: 'maybe' }]))[0], 102);
    assert.equal((await fault('product.update', [p.id, { name: 'Changed', tier_price: [{ qty: 1, price: 'x' }] }]))[0], 102);
    assert.deepEqual(await fault('product.update', [p.id, 42]), [102, 'Product data must be a struct.']);
    const r = await rest(p.id);
    assert.deepEqual([r.name, r.price, r.sku], ['Stays', 5, p.sku]);
  });

  test('multiUpdate: each product on its own; 107 when the lists differ, 108 naming the failed ones', async () => {
    const [a, b] = [await createTestProduct(t, { price: 1 }), await createTestProduct(t, { price: 2 })];
    assert.equal(
      await ok('product.multiUpdate', [
        [a.id, b.sku],
        [{ price: '3' }, { price: '4', name: 'B4' }],
      ]),
      true,
    );
    assert.deepEqual([(await rest(a.id)).price, (await rest(b.id)).price, (await rest(b.id)).name], [3, 4, 'B4']);
    assert.deepEqual(await fault('product.multiUpdate', [[a.id, b.id], [{ price: 1 }]]), [
      107,
      'Quantity of product IDs and product data should match. No changes made.',
    ]);
    assert.equal((await fault('product.multiUpdate', [a.id, { price: 1 }]))[0], 107);
    assert.equal(await ok('product.multiUpdate', [[], []]), true);
    assert.deepEqual(
      await fault('product.multiUpdate', {
        productIds: [a.sku, 'no-such-sku', b.sku],
        productData: [{ price: '5' }, { price: '6' }, { price: 'x' }],
        identifierType: 'sku',
      }),
      [108, `Product ID no-such-sku:\n Product not exists.\nProduct ID ${b.sku}:\n Value for "price" is invalid: not a number`],
    );
    assert.deepEqual([(await rest(a.id)).price, (await rest(b.id)).price], [5, 4], 'the good one is updated, the bad one not');
  });

  test('getSpecialPrice and setSpecialPrice (null leaves a value as it is)', async () => {
    const p = await createTestProduct(t, { price: 20 });
    assert.deepEqual(await ok('product.getSpecialPrice', [p.id]), { special_price: null, special_from_date: null, special_to_date: null });
    assert.equal(await ok('product.setSpecialPrice', [p.sku, '15.5', '2030-01-01', '2030-01-31']), true);
    assert.deepEqual(await ok('product.getSpecialPrice', [p.sku, 'german']), {
      special_price: '15.5000',
      special_from_date: '2030-01-01 00:00:00',
      special_to_date: '2030-01-31 00:00:00',
    });
    assert.equal(await ok('product.setSpecialPrice', { productId: p.id, specialPrice: 14 }), true);
    assert.equal((await ok('product.getSpecialPrice', [p.id])).special_to_date, '2030-01-31 00:00:00');
    assert.equal(await ok('product.setSpecialPrice', [p.id, '', null, '']), true);
    assert.deepEqual(await ok('product.getSpecialPrice', [p.id]), {
      special_price: null,
      special_from_date: '2030-01-01 00:00:00',
      special_to_date: null,
    });
    assert.deepEqual(await fault('product.getSpecialPrice', ['no-such-sku']), [101, 'Product not exists.']);
    assert.deepEqual(await fault('product.getSpecialPrice', [p.id, 'nowhere']), [100, 'Requested store view not found.']);
    assert.deepEqual(await fault('product.setSpecialPrice', ['no-such-sku', 1]), [101, 'Product not exists.']);
    assert.equal((await fault('product.setSpecialPrice', [p.id, 'cheap']))[0], 102);
    assert.equal((await fault('product.setSpecialPrice', [p.id, 1, '2030-02-01', '2030-01-01']))[0], 102);
  });

  test('listOfAdditionalAttributes: the set attributes beyond the default list, for the type; faults 104 and 105', async () => {
    const simple = await ok('product.listOfAdditionalAttributes', ['simple', 1]);
    const codes = simple.map((a: any) => a.code);
    for (const code of ['color', 'size', 'cost', 'news_from_date', 'country_of_manufacture']) assert.ok(codes.includes(code), code);
    for (const code of ['name', 'price', 'meta_keyword', 'meta_keywords', 'image', 'media_gallery', 'sku_type', 'links_title']) {
      assert.ok(!codes.includes(code), code);
    }
    const color = simple.find((a: any) => a.code === 'color');
    assert.deepEqual(Object.keys(color), ['attribute_id', 'code', 'type', 'required', 'scope']);
    assert.deepEqual([color.type, color.required, color.scope], ['select', '0', 'global']);
    const bundle = (await ok('product.listOfAdditionalAttributes', ['bundle', '1'])).map((a: any) => a.code);
    assert.ok(bundle.includes('sku_type') && !bundle.includes('color'));
    // a set of its own: its members only, while the system attributes (columns of every product) are always written
    const set = await t.req('POST', `${API}/attribute-sets`, {
      token: admin,
      body: {
        attributeSetName: `Lean ${uid()}`,
        groups: [{ name: 'General', attributes: ['name', 'sku', 'status', 'visibility', 'color', 'gtin'] }],
      },
    });
    assert.equal(set.status, 201, set.text);
    assert.deepEqual(
      (await ok('product.listOfAdditionalAttributes', ['simple', set.body.id])).map((a: any) => a.code),
      ['color', 'gtin'],
    );
    const lean = await ok('product.create', [
      'simple',
      set.body.id,
      `lean-${uid()}`,
      { name: 'Lean', price: 2, color: 'Red', barcode: 'x' },
    ]);
    const leanInfo = await ok('product.info', [lean]);
    assert.deepEqual(
      [leanInfo.set, leanInfo.name, leanInfo.price, leanInfo.color, 'barcode' in leanInfo],
      [String(set.body.id), 'Lean', '2.0000', await optionId('color', 'Red'), false],
    );
    assert.deepEqual(await fault('product.listOfAdditionalAttributes', ['gift', 1]), [104, 'Product type is not in allowed types.']);
    assert.deepEqual(await fault('product.listOfAdditionalAttributes', ['simple', 999999]), [105, 'Product attribute set is not existed']);
  });

  test('delete: by id or SKU; 101 for none; 103 when the database refuses', async () => {
    const [a, b, c] = [await createTestProduct(t), await createTestProduct(t), await createTestProduct(t)];
    assert.equal(await ok('product.delete', [a.id]), true);
    assert.equal(await ok('product.delete', { productId: b.sku, identifierType: 'sku' }), true);
    assert.equal((await t.req('GET', `${API}/products/${a.id}`, { token: admin })).status, 404);
    assert.deepEqual(await fault('product.delete', [a.id]), [101, 'Product not exists.']);
    assert.deepEqual(await fault('product.delete', [String(c.id), 'sku']), [101, 'Product not exists.']);
    // a row elsewhere that still names the product (no such reference exists in the schema today)
    const db = t.database.db;
    await db.execute(sql`CREATE TABLE legacy_test_refs (product_id int REFERENCES products(id))`);
    try {
      await db.execute(sql`INSERT INTO legacy_test_refs VALUES (${c.id})`);
      assert.deepEqual(await fault('product.delete', [c.id]), [103, 'The product is still referenced and cannot be deleted']);
      assert.equal((await rest(c.id)).id, c.id);
    } finally {
      await db.execute(sql`DROP TABLE legacy_test_refs`);
    }
  });
});

describe('catalog_product.list', () => {
  test("Magento's fields; filters in the V1 and V2 forms over columns, store values and attributes", async () => {
    const tag = `flt-${uid()}`;
    const red = await optionId('color', 'Red');
    const cotton = await optionId('material', 'Cotton');
    const a = await ok('product.create', [
      'simple',
      1,
      `${tag}-a`,
      { name: 'Alpha', price: '5', status: 1, color: red, material: ['Cotton', 'Silk'], categories: [2], special_from_date: '2030-03-01' },
    ]);
    const b = await ok('product.create', ['virtual', 1, `${tag}-b`, { name: 'Beta', price: '12.5', status: 2, visibility: 1 }]);
    const c = await ok('product.create', ['simple', 1, `${tag}-c`, { name: 'Gamma', price: '9.99', color: 'Blue' }]);
    const list = (filters: unknown, store?: unknown) => ok('product.list', store === undefined ? [filters] : [filters, store]);
    const skus = async (filters: unknown) => (await list(filters)).map((p: any) => p.sku.slice(tag.length + 1)).join(',');
    const byTag = { sku: { like: `${tag}-%` } };
    assert.deepEqual(await list(byTag), [
      { product_id: String(a), sku: `${tag}-a`, name: 'Alpha', set: '1', type: 'simple', category_ids: ['2'], website_ids: ['1'] },
      { product_id: String(b), sku: `${tag}-b`, name: 'Beta', set: '1', type: 'virtual', category_ids: [], website_ids: ['1'] },
      { product_id: String(c), sku: `${tag}-c`, name: 'Gamma', set: '1', type: 'simple', category_ids: [], website_ids: ['1'] },
    ]);
    assert.equal(await skus({ ...byTag, type: 'virtual' }), 'b');
    assert.equal(await skus({ ...byTag, type_id: { neq: 'virtual' } }), 'a,c');
    assert.equal(await skus({ ...byTag, status: '2' }), 'b');
    assert.equal(await skus({ ...byTag, visibility: { in: [1, 2] } }), 'b');
    assert.equal(await skus({ ...byTag, price: { from: '5', to: '10' } }), 'a,c');
    assert.equal(await skus({ ...byTag, price: { gt: 9.99 } }), 'b');
    assert.equal(await skus({ ...byTag, name: { like: '%amm%' } }), 'c');
    assert.equal(await skus({ ...byTag, product_id: { in: [String(a), String(c)] } }), 'a,c');
    assert.equal(await skus({ ...byTag, entity_id: b }), 'b');
    assert.equal(await skus({ ...byTag, set: 1, attribute_set_id: { eq: 1 } }), 'a,b,c');
    assert.equal(await skus({ ...byTag, color: red }), 'a');
    assert.equal(await skus({ ...byTag, color: { notnull: true } }), 'a,c');
    assert.equal(await skus({ ...byTag, material: { finset: cotton } }), 'a');
    assert.equal(await skus({ ...byTag, special_from_date: { from: '2030-03-01 00:00:00', to: '2030-03-01' } }), 'a');
    assert.equal(await skus({ ...byTag, special_from_date: { null: true } }), 'b,c');
    assert.equal(await skus({ ...byTag, created_at: { from: '2000-01-01 00:00:00' } }), 'a,b,c');
    assert.equal(await skus({ ...byTag, created_at: { lt: '2000-01-01' } }), '');
    assert.equal(await skus({ sku: [`${tag}-a`, `${tag}-c`] }), 'a,c');
    assert.equal(
      await skus({
        filter: [{ key: 'type', value: 'simple' }],
        complex_filter: [
          { key: 'sku', value: { key: 'like', value: `${tag}-%` } },
          { key: 'price', value: { key: 'lt', value: '9' } },
        ],
      }),
      'a',
    );
    for (const bad of [{ nope: 1 }, { price: { about: 5 } }, { price: 'cheap' }, { created_at: { from: 'yesterday' } }, 'x']) {
      const [code] = await fault('product.list', [bad]);
      assert.equal(code, 0, JSON.stringify(bad));
    }
    assert.deepEqual(await fault('product.list', [{ nope: 1 }]), [0, 'Unknown filter field: nope']);
    assert.deepEqual(await fault('product.list', [byTag, 'nowhere']), [100, 'Requested store view not found.']);
    assert.deepEqual(await list({ sku: 'no-such-sku' }), []);
  });

  test('a fixed number of statements whatever the number of products', async () => {
    await t.mail.stop();
    await t.webhooks.stop();
    await generateProducts(t.systemCtx(), 300);
    const count = async (filters: unknown) => {
      const body = { jsonrpc: '2.0', method: 'call', params: [api.session, 'catalog_product.list', [filters]], id: 1 };
      const { n, result } = await countStatements(() => t.req('POST', '/api/jsonrpc/', { body }));
      assert.equal(result.status, 200);
      assert.ok(!result.body.error, JSON.stringify(result.body.error));
      return { n, found: result.body.result.length as number };
    };
    await count({ sku: 'GEN-000001' });
    const one = await count({ sku: 'GEN-000001' });
    const many = await count({ sku: { like: 'GEN-%' } });
    const all = await count({});
    assert.deepEqual([one.found, many.found >= 300, all.found > many.found], [1, true, true]);
    assert.equal(many.n, one.n);
    assert.equal(all.n, one.n);
    assert.ok(one.n <= 4, `${one.n} statements`);
    // a filter on an attribute kept with the product's values reads the attributes once more
    const red = await optionId('color', 'Red');
    const byColor = await count({ color: red, sku: { like: 'GEN-%' } });
    assert.ok(byColor.found > 0 && byColor.found < many.found);
    assert.equal(byColor.n, one.n + 1);
  });
});

describe('catalog_product: product types', () => {
  /** A simple child with a colour and a size, by the option labels. */
  const child = (tag: string, color: string, size: string, suffix = '') =>
    ok('product.create', [
      'simple',
      1,
      `${tag}-${color}-${size}${suffix}`.toLowerCase(),
      { name: `${color} ${size}`, price: 20, visibility: 1, color, size, stock_data: { qty: 5, is_in_stock: 1 } },
    ]);
  const configurable = async (id: number) =>
    (await t.req('GET', `${API}/products/${id}/configurable`, { token: admin })).body.member?.[0] ??
    (await t.req('GET', `${API}/products/${id}/configurable`, { token: admin })).body.items?.[0];

  test("configurable: super attributes and children in the product model's keys, in the create's and the update's transaction", async () => {
    const tag = `cfg-${uid()}`;
    const [c1, c2, c3] = [await child(tag, 'Red', 'S'), await child(tag, 'Blue', 'S'), await child(tag, 'Red', 'M')];
    const id = await ok('product.create', [
      'configurable',
      1,
      tag,
      {
        name: 'Tee',
        price: '25',
        configurable_attributes_data: [
          { attribute_code: 'size', position: 1 },
          {
            attribute_id: (await ok('product.listOfAdditionalAttributes', ['simple', 1])).find((a: any) => a.code === 'color').attribute_id,
            position: 0,
          },
        ],
        configurable_products_data: { [c1]: {}, [c2]: {} },
      },
    ]);
    assert.deepEqual(await configurable(id), {
      id: Number(id),
      superAttributes: ['color', 'size'],
      childProductIds: [Number(c1), Number(c2)],
    });
    // a child whose combination another child has: the whole update is refused, its price change too
    const [code, message] = await fault('product.update', [tag, { price: '30', child_product_ids: [c1, c2, c3, c1] }, null, 'sku']);
    assert.equal(code, 102);
    assert.match(message, /listed twice/);
    const dup = await child(tag, 'Blue', 'S', '-copy');
    const refused = await fault('product.update', [tag, { price: '30', child_product_ids: [c1, c2, dup] }, null, 'sku']);
    assert.equal(refused[0], 102);
    assert.match(refused[1], /same combination of color, size/);
    assert.equal((await rest(id)).price, 25);
    assert.deepEqual((await configurable(id)).childProductIds, [Number(c1), Number(c2)]);
    assert.equal(await ok('product.update', [tag, { price: '30', child_product_ids: [c1, c3] }, null, 'sku']), true);
    assert.deepEqual((await configurable(id)).childProductIds, [Number(c1), Number(c3)]);
    assert.equal((await rest(id)).price, 30);
    // a create whose children cannot be linked leaves no product behind
    const orphan = `${tag}-orphan`;
    assert.equal(
      (
        await fault('product.create', [
          'configurable',
          1,
          orphan,
          { name: 'x', super_attributes: ['color'], child_product_ids: [999999999] },
        ])
      )[0],
      102,
    );
    assert.equal((await fault('product.create', ['configurable', 1, orphan, { name: 'x', super_attributes: ['description'] }]))[0], 102);
    assert.equal((await fault('product.create', ['configurable', 1, orphan, { name: 'x', super_attributes: true }]))[0], 102);
    assert.deepEqual(await skusLike(orphan), []);
    // the keys mean nothing to other types, as in Magento
    const simple = await ok('product.create', ['simple', 1, `${tag}-plain`, { name: 'Plain', super_attributes: ['color'] }]);
    assert.equal((await ok('product.info', [simple])).type, 'simple');
  });

  test('virtual, grouped, bundle and downloadable products with the fields productData carries for them', async () => {
    const tag = `types-${uid()}`;
    const bundle = await ok('product.create', [
      'bundle',
      1,
      `${tag}-bundle`,
      { name: 'Box', sku_type: 1, price_type: '1', weight_type: 0, price_view: 1, shipment_type: 1, price: 50 },
    ]);
    const b = await ok('product.info', [bundle]);
    assert.deepEqual([b.type, b.sku_type, b.price_type, b.weight_type, b.price_view, b.shipment_type], ['bundle', '1', '1', '0', '1', '1']);
    assert.equal((await fault('product.update', [bundle, { sku_type: 2 }]))[0], 102);
    const dl = await ok('product.create', [
      'downloadable',
      1,
      `${tag}-dl`,
      { name: 'E-book', links_title: 'Files', samples_title: 'Previews', links_purchased_separately: 0, price: 9 },
    ]);
    const d = await ok('product.info', [dl]);
    assert.deepEqual([d.links_title, d.samples_title, d.links_purchased_separately], ['Files', 'Previews', '0']);
    assert.ok(!('sku_type' in d) && !('weight' in d));
    const grouped = await ok('product.create', ['grouped', 1, `${tag}-grouped`, { name: 'Set', sku_type: 1 }]);
    const g = await ok('product.info', [grouped]);
    assert.deepEqual([g.type, 'sku_type' in g], ['grouped', false]);
    const virtual = await ok('product.create', ['virtual', '1', `${tag}-virtual`, { name: 'Service', price: 1, weight: 3 }]);
    assert.equal((await rest(virtual)).weight, undefined, 'weight does not apply to virtual products');
    assert.deepEqual(
      (await ok('product.list', [{ sku: { like: `${tag}-%` } }])).map((p: any) => p.type),
      ['bundle', 'downloadable', 'grouped', 'virtual'],
    );
  });
});

describe('catalog_product: permissions and store views', () => {
  test('a role without the permission gets fault 2; each permission opens its methods', async () => {
    const p = await createTestProduct(t);
    const reader = await sessionOf(await newApiUser(t, ['products/read']));
    assert.equal((await ok('product.info', [p.id], reader)).sku, p.sku);
    assert.ok((await ok('product.list', [{ sku: p.sku }], reader)).length === 1);
    assert.equal((await ok('product_type.list', [], reader)).length, 6);
    assert.ok((await ok('product.listOfAdditionalAttributes', ['simple', 1], reader)).length > 0);
    assert.ok(await ok('product.getSpecialPrice', [p.id], reader));
    for (const [path, args] of [
      ['product.create', ['simple', 1, `x-${uid()}`, { name: 'x' }]],
      ['product.update', [p.id, { name: 'x' }]],
      ['product.multiUpdate', [[p.id], [{ name: 'x' }]]],
      ['product.setSpecialPrice', [p.id, 1]],
      ['product.delete', [p.id]],
    ] as const) {
      assert.deepEqual(await fault(path, args, reader), [2, 'Access denied.'], path);
    }
    const creator = await sessionOf(await newApiUser(t, ['products/create']));
    const made = await ok('product.create', ['simple', 1, `creator-${uid()}`, { name: 'Hidden', status: 2, websites: [] }], creator);
    assert.match(String(made), /^\d+$/);
    assert.deepEqual(await fault('product.info', [made], creator), [2, 'Access denied.']);
    assert.deepEqual(await fault('product.update', [made, { name: 'x' }], creator), [2, 'Access denied.']);
    const deleter = await sessionOf(await newApiUser(t, ['products/delete']));
    assert.equal(await ok('product.delete', [made], deleter), true);
    const none = await sessionOf(await newApiUser(t, ['customers/read']));
    for (const path of [
      'product.list',
      'product.info',
      'product_type.list',
      'product.getSpecialPrice',
      'product.listOfAdditionalAttributes',
    ]) {
      assert.deepEqual(await fault(path, [p.id], none), [2, 'Access denied.'], path);
    }
    const resources = (await rpc('resources', [reader])).result;
    assert.deepEqual(
      resources
        .filter((r: any) => ['catalog_product', 'catalog_product_type'].includes(r.name))
        .map((r: any) => [r.name, r.aliases, r.methods.map((m: any) => m.name)]),
      [
        ['catalog_product', ['product'], ['currentStore', 'list', 'info', 'getSpecialPrice', 'listOfAdditionalAttributes']],
        ['catalog_product_type', ['product_type'], ['list']],
      ],
    );
    assert.deepEqual(await faultCodes('product'), ['100', '101', '102', '103', '104', '105', '106', '107', '108']);
  });

  test("an API user limited to a store view reaches only its website's products and its own store views", async () => {
    const code = `pw${uid()}`;
    const second = await newWebsite(t, code);
    const mine = await createTestProduct(t, { name: 'Mine', websiteIds: [second.websiteId] });
    const other = await createTestProduct(t, { name: 'Other', websiteIds: [1] });
    const s = await sessionOf(await newApiUser(t, ['products/all'], [second.storeId]), { 'x-store-code': code });
    assert.deepEqual(
      (await ok('product.list', [{ product_id: { in: [mine.id, other.id] } }], s)).map((p: any) => p.sku),
      [mine.sku],
    );
    assert.deepEqual(await fault('product.info', [other.id], s), [101, 'Product not exists.']);
    assert.deepEqual(await fault('product.update', [other.sku, { name: 'x' }], s), [101, 'Product not exists.']);
    assert.deepEqual(await fault('product.delete', [other.id], s), [101, 'Product not exists.']);
    assert.deepEqual(await fault('product.info', [mine.id, 'german'], s), [100, 'Requested store view not found.']);
    // without a store argument it works in its session's store view, as its REST requests do
    assert.equal(await ok('product.update', [mine.id, { name: 'Meins' }], s), true);
    assert.equal((await ok('product.info', [mine.id, code], s)).name, 'Meins');
    assert.equal((await ok('product.info', [mine.id])).name, 'Mine');
    assert.equal((await fault('product.update', [mine.id, { websites: [1] }], s))[0], 102, 'it may not assign another website');
    const made = await ok('product.create', ['simple', 1, `lim-${uid()}`, { name: 'Limited', websites: [second.websiteId] }], s);
    assert.equal((await fault('product.create', ['simple', 1, `lim-${uid()}`, { name: 'x', websites: [1] }], s))[0], 102);
    const cfg = await ok('product.create', ['configurable', 1, `lim-cfg-${uid()}`, { name: 'Cfg', websites: [second.websiteId] }], s);
    assert.deepEqual(await fault('product.update', [cfg, { child_product_ids: [other.id] }], s), [102, `Product ${other.id} not exists.`]);
    assert.equal(await ok('product.delete', [made], s), true);
  });
});

describe('a PIM with Python xmlrpc.client', { skip: skipWithout('python') }, () => {
  let r: Record<string, Step> & { ids?: any };
  let tag: string;

  before(async () => {
    tag = `pim-${uid()}`;
    r = await runScenario('python', 'product_scenario.py', base, { RPC_TAG: tag });
  });

  test('creates a configurable product with two children, then adds a third and renames it; REST reads the same', async () => {
    assert.deepEqual(
      r.types.ok.map((x: any) => x.type),
      ['simple', 'grouped', 'configurable', 'virtual', 'bundle', 'downloadable'],
    );
    const { c1, c2, c3 } = r.ids;
    for (const c of [c1, c2, c3]) assert.match(String(c), /^\d+$/);
    const id = r.create.ok;
    assert.match(String(id), /^\d+$/, JSON.stringify(r.create));
    assert.deepEqual(r.info.ok, {
      product_id: String(id),
      sku: tag,
      set: '1',
      type: 'configurable',
      categories: ['2'],
      websites: ['1'],
      name: 'Tee',
      status: '1',
      visibility: '4',
      price: '25.0000',
    });
    assert.equal(r.update.ok, true, JSON.stringify(r.update));
    assert.equal(r.updateGerman.ok, true);
    assert.deepEqual([r.infoGerman.ok.name, r.infoGerman.ok.price], ['T-Shirt Klassik', '27.5000']);
    assert.equal(r.infoDefault.ok.name, 'Tee Classic');
    const cfg = (await t.req('GET', `${API}/products/${id}/configurable`, { token: admin })).body;
    const setup = cfg.member?.[0] ?? cfg.items?.[0];
    assert.deepEqual(setup, { id: Number(id), superAttributes: ['color', 'size'], childProductIds: [c1, c2, c3].map(Number) });
    const p = await rest(id);
    assert.deepEqual([p.type, p.name, p.price, p.categoryIds], ['configurable', 'Tee Classic', 27.5, [2]]);
    assert.deepEqual(
      p.variants?.map((v: any) => v.id),
      [c1, c2, c3].map(Number),
    );
  });

  test('lists by SKU and type, refuses a duplicate combination, multi-updates prices, sets a special price, deletes', async () => {
    const { c1, c2, c3 } = r.ids;
    assert.deepEqual(
      r.list.ok.map((p: any) => [p.sku, p.type]),
      [
        [`${tag}-Red-S`, 'simple'],
        [`${tag}-Blue-S`, 'simple'],
        [`${tag}-Red-M`, 'simple'],
        [tag, 'configurable'],
      ],
    );
    assert.deepEqual(
      r.listConfigurable.ok.map((p: any) => [p.sku, p.name, p.category_ids]),
      [[tag, 'T-Shirt Klassik', ['2']]],
    );
    assert.equal(r.dupSize.ok, true);
    assert.equal(r.dupLink.fault?.[0], 102);
    assert.match(r.dupLink.fault![1], /same combination of color, size/);
    assert.equal(r.multiUpdate.ok, true);
    assert.deepEqual(await Promise.all([c1, c2, c3].map(async (c) => (await rest(c)).price)), [21, 22, 23]);
    assert.equal(r.setSpecialPrice.ok, true);
    assert.deepEqual(r.getSpecialPrice.ok, { special_price: '24.0000', special_from_date: '2030-01-01 00:00:00', special_to_date: null });
    assert.equal(r.delete.ok, true);
    assert.deepEqual(r.deleted.fault, [101, 'Product not exists.']);
  });
});
