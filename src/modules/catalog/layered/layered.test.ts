import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { eq } from 'drizzle-orm';
import { API, buildTestApp, type Res, type TestApp } from '../../../../test/helpers.js';
import { createTestProduct } from '../../../../test/fixtures/catalog.js';
import { countStatements } from '../../../platform/db.js';
import { productAttributes } from '../tables.js';

let t: TestApp;
let admin: string;
let customer: string;
/** the category of the products below, one with a fixed price step, and one with a single product elsewhere */
let cat: number;
let stepped: number;
let other: number;
const opt: Record<string, Record<string, string>> = {};

interface Filter {
  code: string;
  label: string;
  type: string;
  position: number;
  multiple: boolean;
  options: { value: string; label: string; count: number; swatch?: { type: string; value: string } }[];
}

async function createCategory(body: Record<string, unknown>): Promise<number> {
  const r = await t.req('POST', `${API}/categories`, { token: admin, body: { parentId: 2, ...body } });
  assert.equal(r.status, 201, r.text);
  return r.body.id as number;
}

async function filters(query: string, token?: string, headers?: Record<string, string>): Promise<Filter[]> {
  const r = await t.req('GET', `${API}/layered-filters?${query}`, { token, headers });
  assert.equal(r.status, 200, r.text);
  assert.equal(r.body['@type'], 'Collection');
  assert.equal(r.body.totalItems, r.body.member.length);
  return r.body.member as Filter[];
}

/** code → option label → count */
function counts(list: Filter[]): Record<string, Record<string, number>> {
  return Object.fromEntries(list.map((f) => [f.code, Object.fromEntries(f.options.map((o) => [o.label, o.count]))]));
}

async function listingTotal(query: string, token?: string): Promise<number> {
  const r = await t.req('GET', `${API}/products?${query}`, { token });
  assert.equal(r.status, 200, r.text);
  return r.body.totalItems as number;
}

/** Every option's count is the number of products the listing shows when that option is chosen instead. */
async function assertCountsMatchListing(base: string, list: Filter[], token?: string) {
  for (const f of list) {
    for (const o of f.options) {
      let query: string;
      if (f.type === 'price') {
        const [from, to] = o.value.split('-').map(Number);
        query = `${base.replace(/&?price(Min|Max)=[^&]*/g, '')}&priceMin=${from}&priceMax=${(to - 0.01).toFixed(2)}`;
      } else {
        query = `${base.replace(new RegExp(`&?attr_${f.code}=[^&]*`), '')}&attr_${f.code}=${o.value}`;
      }
      assert.equal(await listingTotal(query, token), o.count, `${f.code} ${o.label} (${query})`);
    }
  }
}

function assertError(r: Res, status: number, error: string) {
  assert.equal(r.status, status, r.text);
  assert.equal(r.body.error, error, r.text);
}

before(async () => {
  t = await buildTestApp();
  admin = await t.tokens.admin();
  customer = await t.tokens.customer();
  for (const code of ['color', 'size', 'material', 'manufacturer']) {
    const [row] = await t.database.db.select({ id: productAttributes.id }).from(productAttributes).where(eq(productAttributes.code, code));
    const r = await t.req('GET', `${API}/product-attributes/${row.id}`, { token: admin });
    opt[code] = Object.fromEntries(r.body.options.map((o: { label: string; value: string }) => [o.label, o.value]));
  }
  cat = await createCategory({ name: 'Layered Shirts' });
  stepped = await createCategory({ name: 'Layered Stepped', filterPriceRange: 50 });
  other = await createCategory({ name: 'Layered Elsewhere' });
  const both = [cat, stepped];
  await createTestProduct(t, {
    name: 'Zephyr shirt A',
    price: 15,
    categoryIds: both,
    customAttributesWrite: { color: 'Red', size: 'M', material: ['Cotton'], gender: 'Men' },
  });
  await createTestProduct(t, {
    name: 'Zephyr shirt B',
    price: 25,
    categoryIds: both,
    customAttributesWrite: { color: 'Red', size: 'L', material: ['Cotton', 'Wool'] },
  });
  await createTestProduct(t, {
    name: 'Zephyr shirt C',
    price: 35,
    categoryIds: both,
    customAttributesWrite: { color: 'Blue', size: 'M', material: ['Wool'] },
  });
  await createTestProduct(t, {
    name: 'Zephyr coat D',
    price: 120,
    categoryIds: both,
    customAttributesWrite: { color: 'Black', size: 'S' },
  });
  // not in the category listing: disabled, visible in search only
  await createTestProduct(t, {
    name: 'Zephyr shirt E',
    price: 50,
    isActive: false,
    categoryIds: both,
    customAttributesWrite: { color: 'Green', size: 'XL' },
  });
  await createTestProduct(t, {
    name: 'Zephyr shirt F',
    price: 45,
    visibility: 'search',
    categoryIds: both,
    customAttributesWrite: { color: 'White', size: 'XS' },
  });
  await createTestProduct(t, { name: 'Elsewhere G', price: 5, categoryIds: [other], customAttributesWrite: { color: 'Beige' } });
});
after(() => t.close());

describe('GET /layered-filters', () => {
  test('a category: select, multiselect and price filters counted over the listing; disabled products not counted', async () => {
    const list = await filters(`categoryId=${cat}`);
    assert.deepEqual(
      list.map((f) => [f.code, f.type, f.multiple]),
      [
        ['price', 'price', false],
        ['color', 'select', false],
        ['size', 'select', false],
        ['material', 'multiselect', true],
      ],
    );
    assert.deepEqual(counts(list), {
      price: { '$0.00 - $99.99': 3, '$100.00 - $199.99': 1 },
      color: { Black: 1, Red: 2, Blue: 1 },
      size: { S: 1, M: 2, L: 1 },
      material: { Cotton: 2, Wool: 2 },
    });
    const color = list.find((f) => f.code === 'color')!;
    assert.deepEqual(color.options[1], { value: opt.color.Red, label: 'Red', count: 2, swatch: { type: 'color', value: '#ff0000' } });
    assert.equal(color.label, 'Color');
    assert.deepEqual(
      list.find((f) => f.code === 'price')!.options.map((o) => o.value),
      ['0-100', '100-200'],
    );
    assert.equal(list.find((f) => f.code === 'size')!.options[0].swatch, undefined);
    assert.equal(await listingTotal(`categoryId=${cat}`), 4);
    await assertCountsMatchListing(`categoryId=${cat}`, list);
  });

  test('a filtered attribute keeps its other options; the other filters count the filtered listing', async () => {
    const list = await filters(`categoryId=${cat}&attr_color=${opt.color.Red}`);
    assert.deepEqual(counts(list), {
      price: { '$10.00 - $19.99': 1, '$20.00 - $29.99': 1 },
      color: { Black: 1, Red: 2, Blue: 1 },
      size: { M: 1, L: 1 },
      material: { Cotton: 2, Wool: 1 },
    });
    await assertCountsMatchListing(
      `categoryId=${cat}&attr_color=${opt.color.Red}`,
      list.filter((f) => f.code !== 'color'),
    );
    const byLabel = await filters(`categoryId=${cat}&attributeFilters=${encodeURIComponent(JSON.stringify({ color: 'Red' }))}`);
    assert.deepEqual(counts(byLabel), counts(list));
  });

  test('multiselect filters are any-of; price bounds leave the price ranges as they are', async () => {
    const wool = await filters(`categoryId=${cat}&attr_material=${opt.material.Wool}`);
    assert.deepEqual(counts(wool).material, { Cotton: 2, Wool: 2 });
    assert.deepEqual(counts(wool).color, { Red: 1, Blue: 1 });
    const priced = await filters(`categoryId=${cat}&priceMin=10&priceMax=30`);
    assert.deepEqual(counts(priced), {
      price: { '$0.00 - $99.99': 3, '$100.00 - $199.99': 1 },
      color: { Red: 2 },
      size: { M: 1, L: 1 },
      material: { Cotton: 2, Wool: 1 },
    });
    await assertCountsMatchListing(
      `categoryId=${cat}&priceMin=10&priceMax=30`,
      priced.filter((f) => f.code !== 'price'),
    );
  });

  test('a category price step (filterPriceRange) replaces the automatic one', async () => {
    const list = await filters(`categoryId=${stepped}`);
    assert.deepEqual(counts(list).price, { '$0.00 - $49.99': 3, '$100.00 - $149.99': 1 });
    await assertCountsMatchListing(`categoryId=${stepped}`, list);
  });

  test('search results: attributes filterable in search, only options with results', async () => {
    await t.database.db.update(productAttributes).set({ isFilterableInSearch: false }).where(eq(productAttributes.code, 'size'));
    try {
      const list = await filters('search=zephyr');
      assert.deepEqual(
        list.map((f) => f.code),
        ['price', 'color', 'material'],
      );
      // the search-only product F is found, the disabled one is not
      assert.deepEqual(counts(list).color, { Black: 1, White: 1, Red: 2, Blue: 1 });
      await assertCountsMatchListing('search=zephyr', list);
      const inCategory = await filters(`q=shirt&categoryId=${cat}`);
      assert.deepEqual(counts(inCategory).color, { White: 1, Red: 2, Blue: 1 });
    } finally {
      await t.database.db.update(productAttributes).set({ isFilterableInSearch: true }).where(eq(productAttributes.code, 'size'));
    }
  });

  test('"filterable without results" (2) lists every option, with 0 counts', async () => {
    await t.database.db.update(productAttributes).set({ isFilterable: 2 }).where(eq(productAttributes.code, 'size'));
    try {
      const list = await filters(`categoryId=${cat}`);
      assert.deepEqual(counts(list).size, { XS: 0, S: 1, M: 2, L: 1, XL: 0, XXL: 0 });
      assert.equal(counts(list).manufacturer, undefined, 'filterable with results and none: no filter');
    } finally {
      await t.database.db.update(productAttributes).set({ isFilterable: 1 }).where(eq(productAttributes.code, 'size'));
    }
  });

  test('prices in the display currency', async () => {
    const list = await filters(`categoryId=${cat}`, undefined, { 'x-currency-code': 'EUR' });
    const price = list.find((f) => f.code === 'price')!;
    assert.deepEqual(
      price.options.map((o) => [o.value, o.count]),
      [
        ['0-100', 3],
        ['100-200', 1],
      ],
    );
    assert.match(price.options[0].label, /^€0\.00 - €99\.99$/);
  });

  test('the backend listing counts what backend readers see', async () => {
    const list = await filters(`categoryId=${cat}`, admin);
    assert.deepEqual(
      counts(list).color,
      await (async () => {
        const out: Record<string, number> = {};
        for (const [label, id] of Object.entries(opt.color)) {
          const n = await listingTotal(`categoryId=${cat}&attr_color=${id}`, admin);
          if (n) out[label] = n;
        }
        return out;
      })(),
    );
  });

  test('two statements whatever the number of attributes', async () => {
    const { n } = await countStatements(() => filters(`categoryId=${cat}&attr_color=${opt.color.Red}&attr_size=${opt.size.M}`));
    assert.equal(n, 2);
  });

  test('no categoryId and no search: an empty collection; an empty category: no filters', async () => {
    const none = await t.req('GET', `${API}/layered-filters`);
    assert.equal(none.status, 200);
    assert.deepEqual(none.body.member, []);
    assert.equal(none.body.totalItems, 0);
    assert.deepEqual(await filters('search=%20%20'), []);
    const empty = await createCategory({ name: 'Layered Empty' });
    assert.deepEqual(await filters(`categoryId=${empty}`), []);
    assert.deepEqual(await filters('categoryId=999999'), []);
    const plain = await t.req('GET', `${API}/layered-filters?categoryId=${other}`, { headers: { accept: 'application/json' } });
    assert.deepEqual(
      plain.body.map((f: Filter) => f.code),
      ['price', 'color'],
    );
  });

  test('public: anonymous, customers and admins alike', async () => {
    assert.equal((await t.req('GET', `${API}/layered-filters?categoryId=${cat}`)).status, 200);
    assert.equal((await t.req('GET', `${API}/layered-filters?categoryId=${cat}`, { token: customer })).status, 200);
    assert.equal((await t.req('GET', `${API}/layered-filters?categoryId=${cat}`, { token: admin })).status, 200);
    assertError(await t.req('GET', `${API}/layered-filters?categoryId=${cat}`, { token: 'not-a-token' }), 401, 'authentication_error');
  });

  test('bad query values are a 400', async () => {
    const c = `categoryId=${cat}`;
    for (const q of [
      'categoryId=abc',
      'categoryId=0',
      `${c}&priceMin=-1`,
      `${c}&priceMin=x`,
      `${c}&attributeFilters=%7Bnot`,
      `${c}&attributeFilters=%5B1%5D`,
      `${c}&attr_Bad!=1`,
      `${c}&priceMin=50&priceMax=10`,
      'search=zephyr&sortBy=nope',
    ]) {
      assertError(await t.req('GET', `${API}/layered-filters?${q}`), 400, 'bad_request');
    }
  });
});
