import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { eq, sql } from 'drizzle-orm';
import { API, buildTestApp, type Res, type TestApp } from '../../../../test/helpers.js';
import { describeAttributeValues, normalizeCustomAttributes } from './values.js';
import { createTestProduct } from '../../../../test/fixtures/catalog.js';
import { attributeOptions, attributeSetAttributes, attributeSets, productAttributes, products } from '../tables.js';

let t: TestApp;
let admin: string;
let customer: string;
const tok = { none: '', attrs: '', sets: '', all: '' };

before(async () => {
  t = await buildTestApp();
  admin = await t.tokens.admin();
  customer = await t.tokens.customer();
  tok.none = await t.tokens.apiUser(['products/read', 'products/write']);
  tok.attrs = await t.tokens.apiUser(['product-attributes/read']);
  tok.sets = await t.tokens.apiUser(['attribute-sets/read']);
  tok.all = await t.tokens.apiUser(['product-attributes/all', 'attribute-sets/all']);
});
after(() => t.close());

function assertError(r: Res, status: number, error: string) {
  assert.equal(r.status, status, r.text);
  assert.equal(r.body.error, error, r.text);
  assert.equal(typeof r.body.message, 'string');
  if (status !== 401) assert.equal(r.body.code, status);
}

async function attributeId(code: string): Promise<number> {
  const [row] = await t.database.db.select({ id: productAttributes.id }).from(productAttributes).where(eq(productAttributes.code, code));
  return row.id;
}

async function setId(name: string): Promise<number> {
  const [row] = await t.database.db.select({ id: attributeSets.id }).from(attributeSets).where(eq(attributeSets.name, name));
  return row.id;
}

async function optionId(code: string, label: string): Promise<number> {
  const r = await t.req('GET', `${API}/product-attributes/${await attributeId(code)}`, { token: admin });
  const o = r.body.options.find((x: { label: string }) => x.label === label);
  assert.ok(o, `${code} has no option ${label}`);
  return Number(o.value);
}

describe('install data', () => {
  test('system attributes are columns: isSystem, not user-defined, with their input, backend and scope', async () => {
    const rows = await t.database.db.select().from(productAttributes);
    const byCode = new Map(rows.map((r) => [r.code, r]));
    for (const code of [
      'sku',
      'name',
      'description',
      'short_description',
      'price',
      'special_price',
      'special_from_date',
      'special_to_date',
      'cost',
      'weight',
      'url_key',
      'status',
      'visibility',
      'tax_class_id',
      'meta_title',
      'meta_keywords',
      'meta_description',
      'news_from_date',
      'news_to_date',
      'msrp',
      'image',
      'small_image',
      'thumbnail',
      'media_gallery',
    ]) {
      const a = byCode.get(code);
      assert.ok(a, `${code} installed`);
      assert.equal(a.isSystem, true, code);
      assert.equal(a.isUserDefined, false, code);
    }
    assert.deepEqual(
      ['price', 'name', 'special_from_date', 'image', 'description'].map((c) => {
        const a = byCode.get(c)!;
        return [c, a.frontendInput, a.backendType, a.scope];
      }),
      [
        ['price', 'price', 'decimal', 'website'],
        ['name', 'text', 'varchar', 'store'],
        ['special_from_date', 'date', 'datetime', 'website'],
        ['image', 'media_image', 'varchar', 'store'],
        ['description', 'textarea', 'text', 'store'],
      ],
    );
    for (const code of ['color', 'size', 'manufacturer', 'material', 'gender', 'country_of_manufacture', 'barcode', 'gtin', 'mpn']) {
      assert.equal(byCode.get(code)?.isSystem, false, code);
    }
    const color = byCode.get('color')!;
    assert.equal(color.frontendInput, 'select');
    assert.equal(color.scope, 'global');
    assert.equal(color.isConfigurable, true);
    assert.equal(color.isFilterable, 1);
    assert.equal(color.isVisibleOnFront, true);
    assert.equal(byCode.get('size')!.isConfigurable, true);
    assert.equal(byCode.get('material')!.frontendInput, 'multiselect');
    assert.equal(byCode.get('material')!.isFilterable, 1);
    assert.equal(byCode.get('manufacturer')!.isFilterable, 1);
  });

  test('color options carry color swatches; size, material options in order', async () => {
    const colorOpts = await t.database.db
      .select()
      .from(attributeOptions)
      .where(eq(attributeOptions.attributeId, await attributeId('color')))
      .orderBy(attributeOptions.sortOrder);
    assert.deepEqual(
      colorOpts.map((o) => [o.label, o.swatchType, o.swatchValue]),
      [
        ['Black', 'color', '#000000'],
        ['White', 'color', '#ffffff'],
        ['Red', 'color', '#ff0000'],
        ['Blue', 'color', '#0000ff'],
        ['Green', 'color', '#008000'],
        ['Grey', 'color', '#808080'],
        ['Beige', 'color', '#f5f5dc'],
      ],
    );
    const size = await t.req('GET', `${API}/product-attributes/${await attributeId('size')}`, { token: admin });
    assert.deepEqual(
      size.body.options.map((o: { label: string }) => o.label),
      ['XS', 'S', 'M', 'L', 'XL', 'XXL'],
    );
    const material = await t.req('GET', `${API}/product-attributes/${await attributeId('material')}`, { token: admin });
    assert.deepEqual(
      material.body.options.map((o: { label: string }) => o.label),
      ['Cotton', 'Wool', 'Leather', 'Linen', 'Polyester', 'Silk'],
    );
  });

  test('attribute sets Default (every attribute), Clothing and Shoes (with color, size, material)', async () => {
    const all = (await t.database.db.select({ id: productAttributes.id }).from(productAttributes)).length;
    const members = async (name: string) =>
      (
        await t.database.db
          .select({ code: productAttributes.code })
          .from(attributeSetAttributes)
          .innerJoin(productAttributes, eq(productAttributes.id, attributeSetAttributes.attributeId))
          .where(eq(attributeSetAttributes.setId, await setId(name)))
      ).map((r) => r.code);
    assert.equal((await members('Default')).length, all);
    for (const name of ['Clothing', 'Shoes']) {
      const codes = await members(name);
      for (const c of ['color', 'size', 'material', 'sku', 'name', 'price']) assert.ok(codes.includes(c), `${name} holds ${c}`);
    }
  });
});

describe('GET /product-attributes', () => {
  test('lists attributes by code with the wire fields (20 a page by default)', async () => {
    const r = await t.req('GET', `${API}/product-attributes`, { token: admin });
    assert.equal(r.status, 200, r.text);
    assert.equal(r.body['@type'], 'Collection');
    assert.equal(r.body['@context'], '/api/contexts/ProductAttribute');
    const total = (await t.database.db.select({ id: productAttributes.id }).from(productAttributes)).length;
    assert.equal(r.body.totalItems, total);
    assert.equal(r.body.member.length, 20);
    const codes = r.body.member.map((a: { attributeCode: string }) => a.attributeCode);
    assert.deepEqual(codes, [...codes].sort());
    assert.ok(r.body.view.next);
    assert.equal(r.headers['cache-control'], 'no-store');
  });

  test('an attribute has exactly the wire fields; options values are string ids', async () => {
    const r = await t.req('GET', `${API}/product-attributes?search=color`, { token: admin });
    assert.equal(r.status, 200);
    const color = r.body.member.find((a: { attributeCode: string }) => a.attributeCode === 'color');
    const id = await attributeId('color');
    const red = await optionId('color', 'Red');
    assert.deepEqual(Object.keys(color).sort(), [
      'applyTo',
      'attributeCode',
      'backendType',
      'frontendInput',
      'frontendLabel',
      'id',
      'isComparable',
      'isConfigurable',
      'isFilterable',
      'isFilterableInSearch',
      'isGlobal',
      'isHtmlAllowedOnFront',
      'isRequired',
      'isSearchable',
      'isUnique',
      'isUsedForPriceRules',
      'isUserDefined',
      'isVisibleInAdvancedSearch',
      'isVisibleOnFront',
      'isWysiwygEnabled',
      'options',
      'position',
      'scope',
      'usedForSortBy',
      'usedInProductListing',
    ]);
    assert.equal(color.id, id);
    assert.equal(color.frontendLabel, 'Color');
    assert.equal(color.scope, 'global');
    assert.equal(color.isGlobal, 1);
    assert.equal(color.isFilterable, 1);
    assert.equal(color.isUserDefined, true);
    assert.deepEqual(color.applyTo, ['simple', 'virtual', 'configurable']);
    assert.equal(color.options.length, 7);
    assert.deepEqual(color.options[2], { label: 'Red', value: String(red) });
  });

  test('isGlobal follows the scope; built-in lists are options with their fixed values', async () => {
    const name = await t.req('GET', `${API}/product-attributes/${await attributeId('name')}`, { token: admin });
    assert.equal(name.body.scope, 'store');
    assert.equal(name.body.isGlobal, 0);
    const price = await t.req('GET', `${API}/product-attributes/${await attributeId('price')}`, { token: admin });
    assert.equal(price.body.isGlobal, 2);
    assert.equal(price.body.isUserDefined, false);
    const visibility = await t.req('GET', `${API}/product-attributes/${await attributeId('visibility')}`, { token: admin });
    assert.deepEqual(
      visibility.body.options.map((o: { value: string }) => o.value),
      ['not_visible', 'catalog', 'search', 'catalog_search'],
    );
    assert.equal(visibility.body.defaultValue, 'catalog_search');
    const desc = await t.req('GET', `${API}/product-attributes/${await attributeId('description')}`, { token: admin });
    assert.equal(desc.body.defaultValue, undefined, 'null fields are omitted');
    assert.deepEqual(desc.body.options, []);
  });

  test('search|q matches code or label, case-insensitively; LIKE wildcards are literal', async () => {
    const byLabel = await t.req('GET', `${API}/product-attributes?q=MANUFACTURER`, { token: admin });
    assert.deepEqual(
      byLabel.body.member.map((a: { attributeCode: string }) => a.attributeCode),
      ['manufacturer', 'mpn', 'msrp'],
    );
    const byCode = await t.req('GET', `${API}/product-attributes?search=special_`, { token: admin });
    assert.deepEqual(
      byCode.body.member.map((a: { attributeCode: string }) => a.attributeCode),
      ['special_from_date', 'special_price', 'special_to_date'],
    );
    const wild = await t.req('GET', `${API}/product-attributes?search=%25`, { token: admin });
    assert.equal(wild.body.totalItems, 0);
    assert.deepEqual(wild.body.member, []);
  });

  test('pages with itemsPerPage (alias pageSize); Accept: application/json gets the bare array', async () => {
    const p2 = await t.req('GET', `${API}/product-attributes?page=2&itemsPerPage=5`, { token: admin });
    const all = await t.req('GET', `${API}/product-attributes?itemsPerPage=100`, { token: admin });
    assert.deepEqual(
      p2.body.member.map((a: { id: number }) => a.id),
      all.body.member.slice(5, 10).map((a: { id: number }) => a.id),
    );
    const alias = await t.req('GET', `${API}/product-attributes?pageSize=3`, { token: admin, headers: { accept: 'application/json' } });
    assert.ok(Array.isArray(alias.body));
    assert.equal(alias.body.length, 3);
    const far = await t.req('GET', `${API}/product-attributes?page=9999`, { token: admin });
    assert.deepEqual(far.body.member, []);
    assert.equal(far.body.totalItems, all.body.totalItems);
  });

  test('bad query values are a 400', async () => {
    for (const q of ['page=abc', 'itemsPerPage=1.5', `search=${'x'.repeat(256)}`]) {
      assertError(await t.req('GET', `${API}/product-attributes?${q}`, { token: admin }), 400, 'bad_request');
    }
  });

  test('needs product-attributes/read', async () => {
    assertError(await t.req('GET', `${API}/product-attributes`), 401, 'unauthorized');
    assertError(await t.req('GET', `${API}/product-attributes`, { token: customer }), 403, 'forbidden');
    assertError(await t.req('GET', `${API}/product-attributes`, { token: tok.none }), 403, 'forbidden');
    assertError(await t.req('GET', `${API}/product-attributes`, { token: tok.sets }), 403, 'forbidden');
    assert.equal((await t.req('GET', `${API}/product-attributes`, { token: tok.attrs })).status, 200);
    assert.equal((await t.req('GET', `${API}/product-attributes`, { token: tok.all })).status, 200);
    assert.equal((await t.req('GET', `${API}/product-attributes`, { token: await t.tokens.client() })).status, 200);
  });
});

describe('GET /product-attributes/{id}', () => {
  test('returns one attribute', async () => {
    const id = await attributeId('size');
    const r = await t.req('GET', `${API}/product-attributes/${id}`, { token: tok.attrs });
    assert.equal(r.status, 200);
    assert.equal(r.body.attributeCode, 'size');
    assert.equal(r.body.isConfigurable, true);
  });

  test('unknown is a 404; a malformed id a 400', async () => {
    assertError(await t.req('GET', `${API}/product-attributes/999999`, { token: admin }), 404, 'not_found');
    for (const id of ['abc', '0', '-1', '1.5', '99999999999', 'color']) {
      assertError(await t.req('GET', `${API}/product-attributes/${id}`, { token: admin }), 400, 'bad_request');
    }
  });

  test('needs product-attributes/read', async () => {
    const id = await attributeId('color');
    assertError(await t.req('GET', `${API}/product-attributes/${id}`), 401, 'unauthorized');
    assertError(await t.req('GET', `${API}/product-attributes/${id}`, { token: customer }), 403, 'forbidden');
    assertError(await t.req('GET', `${API}/product-attributes/${id}`, { token: tok.sets }), 403, 'forbidden');
  });
});

describe('GET /attribute-sets', () => {
  test('lists the sets by name with their groups and codes', async () => {
    const r = await t.req('GET', `${API}/attribute-sets`, { token: admin });
    assert.equal(r.status, 200, r.text);
    assert.equal(r.body['@context'], '/api/contexts/AttributeSet');
    assert.deepEqual(
      r.body.member.map((s: { attributeSetName: string }) => s.attributeSetName),
      ['Clothing', 'Default', 'Shoes'],
    );
    assert.equal(r.body.totalItems, 3);
    const def = r.body.member[1];
    assert.deepEqual(Object.keys(def).sort(), ['attributeCodes', 'attributeSetName', 'groups', 'id']);
    assert.equal(def.groups[0].name, 'General');
    assert.deepEqual(
      def.groups.map((g: { sortOrder: number }) => g.sortOrder),
      [...def.groups.map((g: { sortOrder: number }) => g.sortOrder)].sort((a: number, b: number) => a - b),
    );
    const fromGroups = def.groups.flatMap((g: { attributes: { code: string }[] }) => g.attributes.map((a) => a.code));
    assert.deepEqual(def.attributeCodes, fromGroups);
    assert.ok(def.attributeCodes.includes('color'));
    const clothing = r.body.member[0];
    assert.ok(
      clothing.groups.some(
        (g: { name: string; attributes: { code: string }[] }) => g.name === 'Clothing' && g.attributes.some((a) => a.code === 'size'),
      ),
    );
  });

  test('pages; bad paging is a 400', async () => {
    const r = await t.req('GET', `${API}/attribute-sets?itemsPerPage=1&page=2`, { token: admin });
    assert.deepEqual(
      r.body.member.map((s: { attributeSetName: string }) => s.attributeSetName),
      ['Default'],
    );
    assert.equal(r.body.totalItems, 3);
    assertError(await t.req('GET', `${API}/attribute-sets?page=x`, { token: admin }), 400, 'bad_request');
  });

  test('needs attribute-sets/read', async () => {
    assertError(await t.req('GET', `${API}/attribute-sets`), 401, 'unauthorized');
    assertError(await t.req('GET', `${API}/attribute-sets`, { token: customer }), 403, 'forbidden');
    assertError(await t.req('GET', `${API}/attribute-sets`, { token: tok.attrs }), 403, 'forbidden');
    assert.equal((await t.req('GET', `${API}/attribute-sets`, { token: tok.sets })).status, 200);
  });
});

describe('GET /attribute-sets/{id}', () => {
  test('returns one set', async () => {
    const id = await setId('Shoes');
    const r = await t.req('GET', `${API}/attribute-sets/${id}`, { token: tok.sets });
    assert.equal(r.status, 200);
    assert.equal(r.body.id, id);
    assert.equal(r.body.attributeSetName, 'Shoes');
    for (const c of ['color', 'size', 'material']) assert.ok(r.body.attributeCodes.includes(c));
  });

  test('unknown is a 404; a malformed id a 400', async () => {
    assertError(await t.req('GET', `${API}/attribute-sets/99999`, { token: admin }), 404, 'not_found');
    for (const id of ['abc', '0', '-5', '2.5', '99999999999']) {
      assertError(await t.req('GET', `${API}/attribute-sets/${id}`, { token: admin }), 400, 'bad_request');
    }
  });

  test('needs attribute-sets/read', async () => {
    const id = await setId('Default');
    assertError(await t.req('GET', `${API}/attribute-sets/${id}`), 401, 'unauthorized');
    assertError(await t.req('GET', `${API}/attribute-sets/${id}`, { token: customer }), 403, 'forbidden');
    assertError(await t.req('GET', `${API}/attribute-sets/${id}`, { token: tok.none }), 403, 'forbidden');
  });
});

describe('GraphQL', () => {
  async function gql(query: string, variables: Record<string, unknown> = {}, token?: string) {
    const r = await t.req('POST', '/api/graphql', { token, body: { query, variables } });
    assert.equal(r.status, 200, r.text);
    return r.body as { data: Record<string, any> | null; errors?: { message: string; extensions: { code: string; status: number } }[] };
  }

  test('productAttributes and productAttribute(code) match REST', async () => {
    const list = await gql(
      'query { productAttributes(search: "col", pageSize: 5) { totalCount edges { node { attributeCode options } } } }',
      {},
      admin,
    );
    assert.equal(list.errors, undefined);
    assert.equal(list.data!.productAttributes.totalCount, 1);
    assert.equal(list.data!.productAttributes.edges[0].node.attributeCode, 'color');
    const rest = await t.req('GET', `${API}/product-attributes/${await attributeId('size')}`, { token: admin });
    const one = await gql(
      'query($c: String!) { productAttribute(code: $c) { id _id attributeCode frontendLabel isGlobal isFilterable defaultValue options } }',
      { c: 'size' },
      tok.attrs,
    );
    assert.deepEqual(one.data!.productAttribute, {
      id: `/api/rest/v2/product-attributes/${rest.body.id}`,
      _id: rest.body.id,
      attributeCode: 'size',
      frontendLabel: 'Size',
      isGlobal: 1,
      isFilterable: 1,
      defaultValue: null,
      options: rest.body.options,
    });
    const paged = await gql('query { productAttributes(page: 2, pageSize: 4) { totalCount edges { node { attributeCode } } } }', {}, admin);
    const restPage = await t.req('GET', `${API}/product-attributes?page=2&itemsPerPage=4`, { token: admin });
    assert.deepEqual(
      paged.data!.productAttributes.edges.map((e: { node: { attributeCode: string } }) => e.node.attributeCode),
      restPage.body.member.map((a: { attributeCode: string }) => a.attributeCode),
    );
    const missing = await gql('query { productAttribute(code: "nope") { id } }', {}, admin);
    assert.equal(missing.errors?.[0].extensions.code, 'ATTRIBUTE_NOT_FOUND');
    assert.equal(missing.errors?.[0].extensions.status, 404);
  });

  test('attributeSets and attributeSet(id)', async () => {
    const list = await gql(
      'query { attributeSets { totalCount edges { node { id _id attributeSetName attributeCodes groups } } } }',
      {},
      tok.sets,
    );
    assert.equal(list.errors, undefined);
    assert.equal(list.data!.attributeSets.totalCount, 3);
    const id = await setId('Clothing');
    const rest = await t.req('GET', `${API}/attribute-sets/${id}`, { token: admin });
    const one = await gql(
      'query($id: ID!) { attributeSet(id: $id) { id _id attributeSetName attributeCodes groups } }',
      { id: `/api/rest/v2/attribute-sets/${id}` },
      admin,
    );
    const { id: restId, ...restRest } = rest.body;
    assert.deepEqual(one.data!.attributeSet, { id: `/api/rest/v2/attribute-sets/${restId}`, _id: restId, ...restRest });
    const missing = await gql('query { attributeSet(id: 9999) { id } }', {}, admin);
    assert.equal(missing.data!.attributeSet, null);
    assert.equal(missing.errors?.[0].extensions.status, 404);
  });

  test('without an admin token: errors with extensions.code, no data', async () => {
    const anon = await gql('query { productAttributes { totalCount } }');
    assert.equal(anon.data?.productAttributes ?? null, null);
    assert.equal(anon.errors?.[0].extensions.code, 'UNAUTHENTICATED');
    assert.equal(anon.errors?.[0].extensions.status, 401);
    const cust = await gql('query { attributeSets { totalCount } }', {}, customer);
    assert.equal(cust.errors?.[0].extensions.code, 'ADMIN_REQUIRED');
    const noGrant = await gql('query { productAttribute(code: "color") { id } }', {}, tok.sets);
    assert.equal(noGrant.errors?.[0].extensions.code, 'PERMISSION_DENIED');
    const noSetGrant = await gql('query { attributeSet(id: 1) { id } }', {}, tok.attrs);
    assert.equal(noSetGrant.errors?.[0].extensions.code, 'PERMISSION_DENIED');
  });
});

describe('customAttributesWrite on product writes', () => {
  async function storedAttributes(id: number): Promise<Record<string, unknown>> {
    const [row] = await t.database.db.select({ attributes: products.attributes }).from(products).where(eq(products.id, id));
    return row.attributes;
  }
  async function productCount(): Promise<number> {
    return (await t.database.db.select({ id: products.id }).from(products)).length;
  }

  test('select by label or id, multiselect by list or comma string, text; unknown codes skipped', async () => {
    const red = await optionId('color', 'Red');
    const m = await optionId('size', 'M');
    const cotton = await optionId('material', 'Cotton');
    const wool = await optionId('material', 'Wool');
    const p = await createTestProduct(t, {
      customAttributesWrite: {
        color: 'red',
        size: String(m),
        material: 'Wool, Cotton,wool',
        gtin: '4006381333931',
        no_such_code: 'x',
        gift_message_available: true,
      },
    });
    assert.deepEqual(await storedAttributes(p.id), {
      color: red,
      size: m,
      material: [wool, cotton],
      gtin: '4006381333931',
      gift_message_available: 1,
    });
    const put = await t.req('PUT', `${API}/products/${p.id}`, {
      token: admin,
      body: { customAttributesWrite: { color: null, material: [cotton], custom_design_from: '2026-02-03', size: '' } },
    });
    assert.equal(put.status, 200, put.text);
    assert.deepEqual(await storedAttributes(p.id), {
      material: [cotton],
      gtin: '4006381333931',
      gift_message_available: 1,
      custom_design_from: '2026-02-03',
    });
  });

  test('reserved and system codes are a 400 naming the field; nothing is created', async () => {
    const before = await productCount();
    for (const code of [
      'entity_id',
      'type_id',
      'sku',
      'attribute_set_id',
      'tax_class_id',
      'website_ids',
      'stock_data',
      'status',
      'visibility',
      'created_at',
      'updated_at',
      'entity_type_id',
      'price',
      'name',
      'url_key',
      'special_price',
      'media_gallery',
    ]) {
      const r = await t.req('POST', `${API}/products`, {
        token: admin,
        body: { sku: `sys-${code}`, name: 'x', price: 1, customAttributesWrite: { [code]: '1' } },
      });
      assertError(r, 400, 'bad_request');
      assert.equal(r.body.details?.field, `customAttributesWrite.${code}`, r.text);
      assert.match(r.body.message, new RegExp(code));
    }
    assert.equal(await productCount(), before);
  });

  test('bad values are a 400 naming the field and change nothing', async () => {
    const p = await createTestProduct(t, { customAttributesWrite: { barcode: 'KEEP' } });
    const cases: [Record<string, unknown>, string][] = [
      [{ color: 'Purple' }, 'color'],
      [{ color: 999999 }, 'color'],
      [{ color: { id: 1 } }, 'color'],
      [{ material: ['Cotton', 'Velvet'] }, 'material'],
      [{ material: true }, 'material'],
      [{ gift_message_available: 'maybe' }, 'gift_message_available'],
      [{ custom_design_from: '2026-02-30' }, 'custom_design_from'],
      [{ custom_design_from: '03/02/2026' }, 'custom_design_from'],
      [{ barcode: 'x'.repeat(256) }, 'barcode'],
      [{ barcode: ['a'] }, 'barcode'],
      [{ custom_layout_update: { a: 1 } }, 'custom_layout_update'],
      [{ meta_robots: 'FOLLOW,EVERYTHING' }, 'meta_robots'],
    ];
    for (const [input, code] of cases) {
      const r = await t.req('PUT', `${API}/products/${p.id}`, { token: admin, body: { name: 'Changed', customAttributesWrite: input } });
      assertError(r, 400, 'bad_request');
      assert.equal(r.body.details?.field, `customAttributesWrite.${code}`, r.text);
    }
    const [row] = await t.database.db
      .select({ name: products.name, attributes: products.attributes })
      .from(products)
      .where(eq(products.id, p.id));
    assert.notEqual(row.name, 'Changed');
    assert.deepEqual(row.attributes, { barcode: 'KEEP' });
  });

  test('an attribute outside the product attribute set is a 400', async () => {
    const [set] = await t.database.db.insert(attributeSets).values({ name: 'Bare' }).returning();
    await t.database.db.insert(attributeSetAttributes).values({ setId: set.id, attributeId: await attributeId('barcode') });
    const r = await t.req('POST', `${API}/products`, {
      token: admin,
      body: { sku: 'bare-1', name: 'Bare', price: 1, attributeSetId: set.id, customAttributesWrite: { color: 'Red' } },
    });
    assertError(r, 400, 'bad_request');
    assert.equal(r.body.details?.field, 'customAttributesWrite.color');
    const ok = await createTestProduct(t, { attributeSetId: set.id, customAttributesWrite: { barcode: 'B', color_unknown: 1 } });
    assert.deepEqual(await storedAttributes(ok.id), { barcode: 'B' });
  });

  test('service: price and weight inputs take non-negative decimals; labels of built-in lists map to their values', async () => {
    const ctx = t.systemCtx();
    const defaultSet = await setId('Default');
    const [deposit] = await t.database.db
      .insert(productAttributes)
      .values({ code: 'test_deposit', label: 'Deposit', frontendInput: 'price', backendType: 'decimal' })
      .returning();
    const [pkg] = await t.database.db
      .insert(productAttributes)
      .values({ code: 'test_package_weight', label: 'Package weight', frontendInput: 'weight', backendType: 'decimal' })
      .returning();
    await t.database.db.insert(attributeSetAttributes).values([
      { setId: defaultSet, attributeId: deposit.id },
      { setId: defaultSet, attributeId: pkg.id },
    ]);
    assert.deepEqual(await normalizeCustomAttributes(ctx, defaultSet, { test_deposit: 12.5, test_package_weight: '0.12345' }), {
      test_deposit: '12.5',
      test_package_weight: '0.1235',
    });
    assert.deepEqual(
      await normalizeCustomAttributes(ctx, defaultSet, {
        test_deposit: '',
        msrp_enabled: 'Use config',
        meta_robots: 'noindex,follow',
        page_layout: 'one_column',
      }),
      {
        test_deposit: null,
        msrp_enabled: 2,
        meta_robots: 'NOINDEX,FOLLOW',
        page_layout: 'one_column',
      },
    );
    for (const bad of [-1, '-0.5', 'abc', '1,5', true, '1e40']) {
      await assert.rejects(
        normalizeCustomAttributes(ctx, defaultSet, { test_deposit: bad }),
        (err: { status: number; details: { field: string } }) => {
          assert.equal(err.status, 400);
          assert.equal(err.details.field, 'customAttributesWrite.test_deposit');
          return true;
        },
      );
    }
    await assert.rejects(
      normalizeCustomAttributes(ctx, 999999, { color: 'Red' }),
      (err: { status: number; details: { field: string } }) => {
        assert.equal(err.status, 400);
        assert.equal(err.details.field, 'attributeSetId');
        return true;
      },
    );
    assert.deepEqual(await normalizeCustomAttributes(ctx, defaultSet, {}), {});
    await t.database.db.delete(productAttributes).where(sql`${productAttributes.code} IN ('test_deposit', 'test_package_weight')`);
  });

  test('describeAttributeValues: storefront labels of stored values', async () => {
    const red = await optionId('color', 'Red');
    const silk = await optionId('material', 'Silk');
    const linen = await optionId('material', 'Linen');
    const out = await describeAttributeValues(t.systemCtx(), {
      color: red,
      material: [silk, linen],
      barcode: 'hidden',
      gift_message_available: 1,
    });
    assert.deepEqual(out, [
      { code: 'color', label: 'Color', value: 'Red' },
      { code: 'material', label: 'Material', value: 'Silk, Linen' },
    ]);
  });
});
