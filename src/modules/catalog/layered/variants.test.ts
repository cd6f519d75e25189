/**
 * Layered filters and attribute filters of the listing on the demo catalog: configurable, grouped and bundle
 * products carry the values of their children, counted once per option, and the listing agrees with the counts.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { API, buildTestApp, type Res, type TestApp } from '../../../../test/helpers.js';
import { seedCatalogDemo } from '../demo.js';
import { countStatements } from '../../../platform/db.js';

let t: TestApp;
let admin: string;
const cat: Record<string, number> = {};
const opt: Record<string, Record<string, string>> = {};
const sku: Record<string, number> = {};

interface Filter {
  code: string;
  type: string;
  options: { value: string; label: string; count: number }[];
}

function ok(r: Res, status = 200): Res {
  assert.equal(r.status, status, r.text);
  return r;
}

async function filters(query: string, token?: string): Promise<Filter[]> {
  return ok(await t.req('GET', `${API}/layered-filters?${query}`, { token, headers: { accept: 'application/json' } })).body as Filter[];
}

/** code → option label → count (attribute filters only) */
async function counts(query: string, token?: string): Promise<Record<string, Record<string, number>>> {
  const list = (await filters(query, token)).filter((f) => f.type !== 'price');
  return Object.fromEntries(list.map((f) => [f.code, Object.fromEntries(f.options.map((o) => [o.label, o.count]))]));
}

/** The skus the listing shows, in name order. */
async function listed(query: string, token?: string): Promise<string[]> {
  const r = ok(await t.req('GET', `${API}/products?itemsPerPage=100&${query}`, { token }));
  assert.equal(r.body.totalItems, r.body.member.length);
  return (r.body.member as { sku: string }[]).map((p) => p.sku);
}

/** Every option's count is the number of products the listing shows with that option chosen. */
async function assertCountsMatchListing(base: string, token?: string): Promise<void> {
  for (const f of (await filters(base, token)).filter((x) => x.type !== 'price')) {
    for (const o of f.options) {
      const query = `${base}&attr_${f.code}=${o.value}`;
      assert.equal((await listed(query, token)).length, o.count, `${f.code} ${o.label}: ${query}`);
    }
  }
}

async function put(path: string, body: unknown): Promise<void> {
  ok(await t.req('PUT', `${API}${path}`, { token: admin, body }));
}

before(async () => {
  t = await buildTestApp();
  await seedCatalogDemo(t.systemCtx());
  admin = await t.tokens.admin();
  const categories = async (query: string) =>
    ok(await t.req('GET', `${API}/categories?itemsPerPage=500&${query}`, { headers: { accept: 'application/json' } })).body as {
      id: number;
      name: string;
    }[];
  for (const top of await categories('')) {
    cat[top.name] = top.id;
    for (const c of await categories(`parentId=${top.id}`)) cat[c.name] ??= c.id;
  }
  const attrs = ok(
    await t.req('GET', `${API}/product-attributes?itemsPerPage=100`, { token: admin, headers: { accept: 'application/json' } }),
  ).body;
  for (const a of attrs as { attributeCode: string; options?: { label: string; value: string }[] }[]) {
    opt[a.attributeCode] = Object.fromEntries((a.options ?? []).map((o) => [o.label, o.value]));
  }
  const all = ok(await t.req('GET', `${API}/products?itemsPerPage=100`, { token: admin, headers: { accept: 'application/json' } })).body;
  for (const p of all as { id: number; sku: string }[]) sku[p.sku] = p.id;
  assert.ok(cat.Women && cat.Bags && cat.Kitchen && sku.TEE && sku['TEE-BLUE-S'], 'demo catalog seeded');
});
after(() => t.close());

describe('attribute filters through children', () => {
  test("Women: the tee's and the dress's variant colours and sizes are filters, each parent counted once per option", async () => {
    assert.deepEqual(await counts(`categoryId=${cat.Women}`), {
      color: { Black: 1, White: 1, Red: 1, Blue: 1, Green: 1, Grey: 1 },
      size: { S: 2, M: 2, L: 2 },
      material: { Cotton: 1, Wool: 1, Linen: 1 },
    });
    await assertCountsMatchListing(`categoryId=${cat.Women}`);
  });

  test('the listing finds a configurable by a variant value: attr_<code> and attributeFilters, ids and labels', async () => {
    assert.deepEqual(await listed(`categoryId=${cat.Women}&attr_color=${opt.color.Blue}`), ['TEE']);
    assert.deepEqual(await listed(`categoryId=${cat.Women}&attr_color=blue`), ['TEE']);
    assert.deepEqual(await listed(`categoryId=${cat.Women}&attr_size=M`), ['TEE', 'DRESS-SUMMER']);
    assert.deepEqual(await listed(`categoryId=${cat.Women}&attr_color=Red,Grey`), ['SWEATER-WOOL', 'DRESS-SUMMER']);
    const json = encodeURIComponent(JSON.stringify({ color: 'Green', size: ['L', 'XL'] }));
    assert.deepEqual(await listed(`categoryId=${cat.Women}&attributeFilters=${json}`), ['DRESS-SUMMER']);
    // the variants themselves stay out of the storefront listing; the parent is listed once
    assert.deepEqual(await listed(`attr_color=${opt.color.Blue}&attr_size=S`), ['TEE']);
    assert.deepEqual(await listed(`attr_color=${opt.color.Blue}`), ['TEE', 'SHIRT-LINEN', 'JEANS-DENIM']);
  });

  test('a filtered attribute keeps its other options; the other filters count the filtered listing', async () => {
    const base = `categoryId=${cat.Women}&attr_color=${opt.color.Blue}`;
    assert.deepEqual(await counts(base), {
      color: { Black: 1, White: 1, Red: 1, Blue: 1, Green: 1, Grey: 1 },
      size: { S: 1, M: 1, L: 1 },
      material: { Cotton: 1 },
    });
    for (const code of ['size', 'material']) {
      for (const f of (await filters(base)).filter((x) => x.code === code)) {
        for (const o of f.options) assert.equal((await listed(`${base}&attr_${code}=${o.value}`)).length, o.count, `${code} ${o.label}`);
      }
    }
  });

  test('bundle and grouped products carry the values of their items', async () => {
    // Bags: the tote (Green), the backpack (Black) and the travel kit (tote, backpack, scarf, wallet)
    assert.deepEqual((await counts(`categoryId=${cat.Bags}`)).color, { Black: 2, Red: 1, Green: 2 });
    assert.deepEqual(await listed(`categoryId=${cat.Bags}&attr_color=Red`), ['KIT-TRAVEL']);
    await assertCountsMatchListing(`categoryId=${cat.Bags}`);
    // a grouped product whose items have no colour has none either
    assert.equal((await counts(`categoryId=${cat.Kitchen}`)).color, undefined);
    await put(`/products/${sku['MUG-STONEWARE']}`, { customAttributesWrite: { color: Number(opt.color.Blue) } });
    assert.deepEqual((await counts(`categoryId=${cat.Kitchen}`)).color, { Blue: 2 });
    assert.deepEqual(await listed(`categoryId=${cat.Kitchen}&attr_color=Blue`), ['SET-DINNER', 'MUG-STONEWARE']);
  });

  test('search results count children too', async () => {
    assert.deepEqual((await counts('search=tee')).size, { S: 1, M: 1, L: 1 });
    await assertCountsMatchListing('search=tee');
  });

  test('an out-of-stock variant still counts: out-of-stock products are listed', async () => {
    for (const s of ['S', 'M', 'L']) await put(`/products/${sku[`TEE-WHITE-${s}`]}`, { stockData: { qty: 0, isInStock: false } });
    assert.equal((await counts(`categoryId=${cat.Women}`)).color.White, 1);
    assert.deepEqual(await listed(`categoryId=${cat.Women}&attr_color=White`), ['TEE']);
  });

  test('a disabled variant does not count, nor one disabled in the store view; backend readers see every child', async () => {
    for (const s of ['S', 'M', 'L']) {
      await put(`/products/${sku[`TEE-BLUE-${s}`]}`, { status: 'disabled' });
      await put(`/products/${sku[`DRESS-SUMMER-GREEN-${s}`]}?store=german`, { status: 'disabled' });
    }
    const women = await counts(`categoryId=${cat.Women}`);
    assert.equal(women.color.Blue, undefined);
    assert.equal(women.color.Green, 1);
    assert.deepEqual(await listed(`categoryId=${cat.Women}&attr_color=Blue`), []);
    assert.deepEqual(await listed(`categoryId=${cat.Women}&attr_color=Green`), ['DRESS-SUMMER']);
    await assertCountsMatchListing(`categoryId=${cat.Women}`);
    // in the german store view the dress has no green variant left
    const german = await counts(`categoryId=${cat.Women}&store=german`);
    assert.equal(german.color.Green, undefined);
    assert.equal(german.color.Red, 1);
    assert.deepEqual(await listed(`categoryId=${cat.Women}&attr_color=Green&store=german`), []);
    await assertCountsMatchListing(`categoryId=${cat.Women}&store=german`);
    // the back office lists the tee under Blue (its children exist, disabled or not)
    assert.deepEqual(await listed(`categoryId=${cat.Women}&attr_color=Blue`, admin), ['TEE']);
    assert.equal((await counts(`categoryId=${cat.Women}`, admin)).color.Blue, 1);
    await assertCountsMatchListing(`categoryId=${cat.Women}`, admin);
  });

  test('statements per request do not grow with children: the listing as unfiltered-by-attribute, layered filters two', async () => {
    // the request's own statements: a background pass landing meanwhile is not the request's
    const statements = async (url: string) => {
      const { n, result } = await countStatements(() => t.req('GET', url));
      ok(result);
      return n;
    };
    const plain = await statements(`${API}/products?categoryId=${cat.Women}`);
    assert.equal(await statements(`${API}/products?categoryId=${cat.Women}&attr_color=Blue&attr_size=M`), plain);
    assert.equal(await statements(`${API}/layered-filters?categoryId=${cat.Women}&attr_color=Blue`), 2);
  });
});
