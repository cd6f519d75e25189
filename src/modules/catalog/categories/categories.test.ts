import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { eq } from 'drizzle-orm';
import { API, buildTestApp, type Res, type TestApp } from '../../../../test/helpers.js';
import { createWebsite, setConfig } from '../../stores/service.js';
import { storeGroups } from '../../stores/tables.js';
import { urlRewrites } from '../../url-resolver/tables.js';
import { createTestProduct } from '../../../../test/fixtures/catalog.js';
import { countStatements } from '../../../platform/db.js';
import { categories, categoryProducts, products } from '../tables.js';

let t: TestApp;
let admin: string;
let customer: string;
/** API-user tokens by the permissions their role holds */
const tok: Record<'none' | 'read' | 'write' | 'delete', string> = { none: '', read: '', write: '', delete: '' };

before(async () => {
  t = await buildTestApp();
  admin = await t.tokens.admin();
  customer = await t.tokens.customer();
  tok.none = await t.tokens.apiUser(['products/read']);
  tok.read = await t.tokens.apiUser(['categories/read']);
  tok.write = await t.tokens.apiUser(['categories/read', 'categories/write']);
  tok.delete = await t.tokens.apiUser(['categories/delete']);
});
after(() => t.close());

const JSON_ONLY = { accept: 'application/json' };

function assertError(r: Res, status: number, error: string) {
  assert.equal(r.status, status, r.text);
  assert.equal(r.body.error, error, r.text);
  assert.equal(typeof r.body.message, 'string');
  if (status !== 401) assert.equal(r.body.code, status);
}

/** Everything a category write can change: the tree, product assignments and url paths. */
async function snapshot() {
  const db = t.database.db;
  return {
    categories: await db.select().from(categories).orderBy(categories.id),
    products: await db.select().from(categoryProducts).orderBy(categoryProducts.categoryId, categoryProducts.productId),
    urls: await db.select().from(urlRewrites).orderBy(urlRewrites.id),
  };
}

let seq = 0;
/** A unique name for this file's categories. */
const uname = (base: string) => `${base} ${++seq}`;

async function createCat(body: Record<string, unknown>, token = admin): Promise<Record<string, any>> {
  const r = await t.req('POST', `${API}/categories`, { token, body });
  assert.equal(r.status, 201, r.text);
  return r.body;
}

async function getCat(id: number, token?: string, query = ''): Promise<Res> {
  return t.req('GET', `${API}/categories/${id}${query}`, { token });
}

async function resolve(path: string, query = ''): Promise<any[]> {
  const r = await t.req('GET', `${API}/url-resolver?path=${encodeURIComponent(path)}${query}`, { headers: JSON_ONLY });
  assert.equal(r.status, 200, r.text);
  return r.body;
}

/**
 * The category's paths as stored, without the url suffix (whether the URL resolver stores it or adds it when
 * resolving): `suffix` is put back on each; the redirects the resolver may keep for old paths are left out.
 */
/**
 * An old path no longer leads to the category itself: it resolves to nothing, or to a permanent redirect to
 * `current` where the URL resolver keeps the history of paths.
 */
function assertNotLeading(found: any[], current: string): void {
  for (const m of found) assert.deepEqual([m.type, m.redirectType, m.redirectUrl], ['redirect', 301, current], JSON.stringify(found));
}

async function pathsOf(id: number, suffix = '.html'): Promise<{ storeId: number; requestPath: string }[]> {
  const rows = await t.database.db.select().from(urlRewrites).where(eq(urlRewrites.entityId, id));
  return rows
    .filter((r) => r.entityType === 'category' && r.redirectType === 0)
    .map((r) => ({ storeId: r.storeId, requestPath: `${suffix ? r.requestPath.replace(/\.html$/, '') : r.requestPath}${suffix}` }))
    .sort((a, b) => a.storeId - b.storeId || a.requestPath.localeCompare(b.requestPath));
}

describe('install data', () => {
  test('the tree root (id 1) and Default Category (id 2), the default store root', async () => {
    const root = await getCat(1, admin);
    assert.equal(root.status, 200, root.text);
    assert.equal(root.body.name, 'Root Catalog');
    assert.equal(root.body.level, 0);
    assert.equal(root.body.path, '1');
    assert.equal(root.body.parentId, undefined);
    assert.ok(root.body.childrenIds.includes(2));
    const def = await getCat(2);
    assert.equal(def.status, 200, def.text);
    assert.equal(def.body.name, 'Default Category');
    assert.equal(def.body.level, 1);
    assert.equal(def.body.path, '1/2');
    assert.equal(def.body.parentId, 1);
    assert.equal(def.body.urlPath, undefined);
    // new categories get ids after the installed ones
    const c = await createCat({ name: uname('Sequence') });
    assert.ok(c.id > 2);
  });

  test('the tree root is outside every store: public readers get a 404', async () => {
    assertError(await getCat(1), 404, 'not_found');
  });
});

describe('POST /categories', () => {
  test("creates under the store's root with defaults, a url key from the name, last among siblings", async () => {
    const r = await t.req('POST', `${API}/categories`, { token: tok.write, body: { name: '  Summer Sale & Deals!  ' } });
    assert.equal(r.status, 201, r.text);
    assert.equal(r.headers['cache-control'], 'no-store');
    const c = r.body;
    assert.equal(c.name, 'Summer Sale & Deals!');
    assert.equal(c.parentId, 2);
    assert.equal(c.level, 2);
    assert.equal(c.path, `1/2/${c.id}`);
    assert.equal(c.urlKey, 'summer-sale-and-deals');
    assert.equal(c.urlPath, 'summer-sale-and-deals');
    assert.equal(c.isActive, true);
    assert.equal(c.includeInMenu, true);
    assert.equal(c.isAnchor, true);
    assert.equal(c.childrenCount, 0);
    assert.deepEqual(c.childrenIds, []);
    assert.deepEqual(c.children, []);
    assert.equal(c.productCount, 0);
    assert.match(c.createdAt, /^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d$/);
    const next = await createCat({ name: uname('After Summer') });
    assert.equal(next.position, c.position + 1);
    const read = await getCat(c.id);
    assert.deepEqual(read.body, c);
    assert.deepEqual(await pathsOf(c.id), [
      { storeId: 1, requestPath: 'summer-sale-and-deals.html' },
      { storeId: 2, requestPath: 'summer-sale-and-deals.html' },
    ]);
  });

  test('takes every writable field; read-only and unknown keys are ignored', async () => {
    const parent = await createCat({ name: uname('Parent') });
    const c = await createCat({
      name: 'Full',
      parentId: parent.id,
      urlKey: 'Full Category',
      description: '<p>All of it</p>',
      image: 'full.jpg',
      isActive: false,
      includeInMenu: false,
      isAnchor: false,
      availableSortBy: ['name', 'price'],
      defaultSortBy: 'price',
      landingPageId: 7,
      displayMode: 'products_and_page',
      metaTitle: 'Full title',
      metaKeywords: 'full, all',
      metaDescription: 'Everything',
      pageLayout: 'two_columns_left',
      filterPriceRange: 25.5,
      id: 9999,
      level: 7,
      path: '1/9',
      urlPath: 'x/y',
      childrenCount: 5,
      productCount: 3,
      extra: true,
    });
    assert.notEqual(c.id, 9999);
    assert.equal(c.parentId, parent.id);
    assert.equal(c.level, 3);
    assert.equal(c.path, `${parent.path}/${c.id}`);
    assert.equal(c.urlKey, 'full-category');
    assert.equal(c.urlPath, `${parent.urlKey}/full-category`);
    assert.equal(c.description, '<p>All of it</p>');
    assert.equal(c.image, 'http://shop.test/media/catalog/category/full.jpg');
    assert.equal(c.isActive, false);
    assert.equal(c.includeInMenu, false);
    assert.equal(c.isAnchor, false);
    assert.deepEqual(c.availableSortBy, ['name', 'price']);
    assert.equal(c.defaultSortBy, 'price');
    assert.equal(c.landingPageId, 7);
    assert.equal(c.displayMode, 'PRODUCTS_AND_PAGE');
    assert.equal(c.metaTitle, 'Full title');
    assert.equal(c.metaKeywords, 'full, all');
    assert.equal(c.metaDescription, 'Everything');
    assert.equal(c.pageLayout, 'two_columns_left');
    assert.equal(c.filterPriceRange, 25.5);
    assert.equal(c.childrenCount, 0);
    assert.equal(c.productCount, 0);
    assert.equal('extra' in c, false);
  });

  test('a position places the new category among its siblings and renumbers them from 1', async () => {
    const parent = await createCat({ name: uname('Ordered') });
    const a = await createCat({ name: 'A', parentId: parent.id });
    const b = await createCat({ name: 'B', parentId: parent.id });
    const first = await createCat({ name: 'First', parentId: parent.id, position: 1 });
    const list = await t.req('GET', `${API}/categories?parentId=${parent.id}`, { headers: JSON_ONLY });
    assert.deepEqual(
      list.body.map((c: any) => [c.id, c.position]),
      [
        [first.id, 1],
        [a.id, 2],
        [b.id, 3],
      ],
    );
  });

  test('a name without letters or digits gets a url key from the id', async () => {
    const c = await createCat({ name: '日本' });
    assert.equal(c.urlKey, `category-${c.id}`);
  });

  test('a url key used by a sibling is a 409 and creates nothing; under another parent it is fine', async () => {
    const parent = await createCat({ name: uname('Siblings') });
    await createCat({ name: 'Shoes', parentId: parent.id });
    const before = await snapshot();
    for (const body of [{ name: 'Shoes' }, { name: 'Other', urlKey: 'SHOES' }, { name: 'Other', urlKey: ' shoes ' }]) {
      const r = await t.req('POST', `${API}/categories`, { token: admin, body: { ...body, parentId: parent.id } });
      assertError(r, 409, 'conflict');
      assert.equal(r.body.details.field, 'urlKey');
      assert.match(r.body.message, /shoes/);
    }
    assert.deepEqual(await snapshot(), before);
    const other = await createCat({ name: uname('Elsewhere') });
    const shoes = await createCat({ name: 'Shoes', parentId: other.id });
    assert.equal(shoes.urlPath, `${other.urlKey}/shoes`);
  });

  test('an unknown parent is a 400 and creates nothing', async () => {
    const before = await snapshot();
    const r = await t.req('POST', `${API}/categories`, { token: admin, body: { name: 'Orphan', parentId: 999999 } });
    assertError(r, 400, 'bad_request');
    assert.equal(r.body.details.field, 'parentId');
    assert.deepEqual(await snapshot(), before);
  });

  test('bad input is a 400 and creates nothing', async () => {
    const before = await snapshot();
    const bodies: unknown[] = [
      {},
      { name: '' },
      { name: '   ' },
      { name: null },
      { name: 42 },
      { name: 'x'.repeat(256) },
      { name: 'Bad\u0007Name' },
      { name: 'Ok', parentId: 0 },
      { name: 'Ok', parentId: '2' },
      { name: 'Ok', parentId: 1.5 },
      { name: 'Ok', parentId: 99999999999 },
      { name: 'Ok', isActive: 'yes' },
      { name: 'Ok', position: -1 },
      { name: 'Ok', urlKey: '!!!' },
      { name: 'Ok', image: '../etc/passwd' },
      { name: 'Ok', image: 'a/b.jpg' },
      { name: 'Ok', displayMode: 'GRID' },
      { name: 'Ok', availableSortBy: 'name' },
      { name: 'Ok', availableSortBy: ['Not A Code'] },
      { name: 'Ok', availableSortBy: ['name'], defaultSortBy: 'price' },
      { name: 'Ok', pageLayout: '<b>' },
      { name: 'Ok', filterPriceRange: -1 },
      { name: 'Ok', landingPageId: -3 },
      { name: 'Ok', productPositions: { abc: 1 } },
      { name: 'Ok', productPositions: { 0: 1 } },
      { name: 'Ok', productPositions: { 1: 'first' } },
      { name: 'Ok', productPositions: { 999999: 1 } },
      { name: 'Ok', productPositions: [1, 2] },
      [],
      'Ok',
    ];
    for (const body of bodies) {
      const r = await t.req('POST', `${API}/categories`, { token: admin, body });
      assertError(r, 400, 'bad_request');
    }
    const json = { 'content-type': 'application/json' };
    assertError(await t.req('POST', `${API}/categories`, { token: admin, raw: '{"name": ', headers: json }), 400, 'bad_request');
    assertError(await t.req('POST', `${API}/categories`, { token: admin, raw: '', headers: json }), 400, 'bad_request');
    assert.deepEqual(await snapshot(), before);
  });

  test('needs categories/create (write covers it)', async () => {
    const before = await snapshot();
    const body = { name: 'Nope' };
    assertError(await t.req('POST', `${API}/categories`, { body }), 401, 'unauthorized');
    assertError(await t.req('POST', `${API}/categories`, { token: customer, body }), 403, 'forbidden');
    assertError(await t.req('POST', `${API}/categories`, { token: tok.none, body }), 403, 'forbidden');
    assertError(await t.req('POST', `${API}/categories`, { token: tok.read, body }), 403, 'forbidden');
    assertError(await t.req('POST', `${API}/categories`, { token: tok.delete, body }), 403, 'forbidden');
    assert.deepEqual(await snapshot(), before);
    assert.equal(
      (await t.req('POST', `${API}/categories`, { token: await t.tokens.client(), body: { name: uname('Client') } })).status,
      201,
    );
  });
});

describe('GET /categories', () => {
  test("no parameters: the active direct children of the store's root, in menu order, cacheable", async () => {
    const a = await createCat({ name: uname('Top A') });
    const hidden = await createCat({ name: uname('Top Hidden'), isActive: false });
    const child = await createCat({ name: uname('Below A'), parentId: a.id });
    const r = await t.req('GET', `${API}/categories`);
    assert.equal(r.status, 200);
    assert.equal(r.body['@type'], 'Collection');
    assert.equal(r.body['@context'], '/api/contexts/Category');
    assert.equal(r.headers['cache-control'], 'public, max-age=3600');
    const members = r.body.member as any[];
    assert.equal(r.body.totalItems, members.length);
    assert.ok(members.every((c) => c.parentId === 2 && c.isActive === true));
    const ids = members.map((c) => c.id);
    assert.ok(ids.includes(a.id));
    assert.ok(!ids.includes(hidden.id));
    assert.ok(!ids.includes(child.id));
    const positions = members.map((c) => c.position);
    assert.deepEqual(
      positions,
      [...positions].sort((x, y) => x - y),
    );
    const listed = members.find((c) => c.id === a.id);
    assert.deepEqual(listed.childrenIds, [child.id]);
    assert.equal(listed.childrenCount, 1);
    assert.equal(listed.children, undefined);
    const plain = await t.req('GET', `${API}/categories`, { headers: JSON_ONLY });
    assert.deepEqual(plain.body, members);
  });

  test('admins holding categories/read also see inactive categories', async () => {
    const hidden = await createCat({ name: uname('Admin Only'), isActive: false });
    const r = await t.req('GET', `${API}/categories?itemsPerPage=500`, { token: tok.read, headers: JSON_ONLY });
    assert.ok(r.body.some((c: any) => c.id === hidden.id));
    assert.equal(r.headers['cache-control'], 'no-store');
    const other = await t.req('GET', `${API}/categories?itemsPerPage=500`, { token: tok.none, headers: JSON_ONLY });
    assert.ok(!other.body.some((c: any) => c.id === hidden.id));
  });

  test('filters: parentId, includeInMenu, search and q (any depth, case-insensitive)', async () => {
    const parent = await createCat({ name: uname('Filter Parent') });
    const inMenu = await createCat({ name: 'Zebra Stripes', parentId: parent.id });
    const notInMenu = await createCat({ name: 'Hidden From Menu', parentId: parent.id, includeInMenu: false });
    const deep = await createCat({ name: 'Deep Zebra', parentId: inMenu.id });
    const ids = async (q: string) =>
      ((await t.req('GET', `${API}/categories?${q}`, { headers: JSON_ONLY })).body as any[]).map((c) => c.id);
    assert.deepEqual(await ids(`parentId=${parent.id}`), [inMenu.id, notInMenu.id]);
    assert.deepEqual(await ids(`parentId=${parent.id}&includeInMenu=false`), [notInMenu.id]);
    assert.deepEqual(await ids(`parentId=${parent.id}&includeInMenu=1`), [inMenu.id]);
    assert.deepEqual(
      await ids('search=zEBRA'),
      [inMenu.id, deep.id].sort((x, y) => x - y),
    );
    assert.deepEqual(await ids('q=deep%20zebra'), [deep.id]);
    assert.deepEqual(await ids('q=100%25'), []);
    assert.deepEqual(await ids(`parentId=${deep.id}`), []);
    assert.deepEqual(await ids('parentId=999999'), []);
  });

  test('pages: 100 a page by default, itemsPerPage clamped to 500', async () => {
    const parent = await createCat({ name: uname('Paged') });
    for (const n of ['One', 'Two', 'Three']) await createCat({ name: n, parentId: parent.id });
    const p2 = await t.req('GET', `${API}/categories?parentId=${parent.id}&itemsPerPage=2&page=2`);
    assert.equal(p2.body.totalItems, 3);
    assert.deepEqual(
      p2.body.member.map((c: any) => c.name),
      ['Three'],
    );
    assert.equal(p2.body.view.previous, `${API}/categories?parentId=${parent.id}&itemsPerPage=2&page=1`);
    const far = await t.req('GET', `${API}/categories?parentId=${parent.id}&page=50`);
    assert.equal(far.body.totalItems, 3);
    assert.deepEqual(far.body.member, []);
    const big = await t.req('GET', `${API}/categories?parentId=${parent.id}&itemsPerPage=100000`);
    assert.equal(big.status, 200);
    assert.equal(big.body.member.length, 3);
  });

  test('bad parameters are a 400', async () => {
    for (const q of ['parentId=abc', 'parentId=0', 'parentId=1.5', 'includeInMenu=maybe', 'page=x', `search=${'x'.repeat(256)}`]) {
      assertError(await t.req('GET', `${API}/categories?${q}`), 400, 'bad_request');
    }
    assertError(await t.req('GET', `${API}/categories?store=nowhere`), 400, 'bad_request');
  });

  test('is public; a bad token is still a 401', async () => {
    assert.equal((await t.req('GET', `${API}/categories`, { token: customer })).status, 200);
    assert.equal((await t.req('GET', `${API}/categories`, { token: admin })).status, 200);
    assertError(await t.req('GET', `${API}/categories`, { token: 'not-a-token' }), 401, 'authentication_error');
  });
});

describe('GET /categories/{id}', () => {
  test('one category with one level of active children and the read-only fields', async () => {
    const parent = await createCat({ name: uname('Tree') });
    const c1 = await createCat({ name: 'Child One', parentId: parent.id });
    const c2 = await createCat({ name: 'Child Two', parentId: parent.id });
    const off = await createCat({ name: 'Child Off', parentId: parent.id, isActive: false });
    const grand = await createCat({ name: 'Grandchild', parentId: c1.id });
    const r = await getCat(parent.id);
    assert.equal(r.status, 200);
    assert.deepEqual(r.body.childrenIds, [c1.id, c2.id]);
    assert.equal(r.body.childrenCount, 2);
    assert.deepEqual(
      r.body.children.map((c: any) => c.id),
      [c1.id, c2.id],
    );
    const first = r.body.children[0];
    assert.deepEqual(first.childrenIds, [grand.id]);
    assert.equal(first.children, undefined);
    assert.equal(first.urlPath, `${parent.urlKey}/child-one`);
    assert.equal(first.level, 3);
    // admins with categories/read see the inactive child among the ids
    const asAdmin = await getCat(parent.id, tok.read);
    assert.deepEqual(asAdmin.body.childrenIds, [c1.id, c2.id, off.id]);
    assert.deepEqual(
      asAdmin.body.children.map((c: any) => c.id),
      [c1.id, c2.id],
    );
  });

  test('an inactive category: 404 for the public, customers and admins without categories/read; 200 with it', async () => {
    const off = await createCat({ name: uname('Inactive'), isActive: false });
    assertError(await getCat(off.id), 404, 'not_found');
    assertError(await getCat(off.id, customer), 404, 'not_found');
    assertError(await getCat(off.id, tok.none), 404, 'not_found');
    const r = await getCat(off.id, tok.read);
    assert.equal(r.status, 200);
    assert.equal(r.body.isActive, false);
    assert.equal((await getCat(off.id, admin)).status, 200);
  });

  test('unknown is a 404; a malformed id a 400', async () => {
    assertError(await getCat(999999), 404, 'not_found');
    assertError(await getCat(999999, admin), 404, 'not_found');
    for (const id of ['abc', '0', '-1', '1.5', '99999999999']) {
      assertError(await t.req('GET', `${API}/categories/${id}`), 400, 'bad_request');
    }
  });
});

describe('PUT /categories/{id}', () => {
  test('changes only the fields sent', async () => {
    const c = await createCat({ name: uname('Editable'), description: 'Before', metaTitle: 'Meta' });
    const r = await t.req('PUT', `${API}/categories/${c.id}`, {
      token: tok.write,
      body: { name: 'Edited', description: null, includeInMenu: false, filterPriceRange: 10, id: 5, childrenIds: [1], extra: 1 },
    });
    assert.equal(r.status, 200, r.text);
    assert.equal(r.body.id, c.id);
    assert.equal(r.body.name, 'Edited');
    assert.equal(r.body.description, undefined);
    assert.equal(r.body.includeInMenu, false);
    assert.equal(r.body.filterPriceRange, 10);
    assert.equal(r.body.metaTitle, 'Meta');
    // a rename keeps the url key
    assert.equal(r.body.urlKey, c.urlKey);
    const same = await t.req('PUT', `${API}/categories/${c.id}`, { token: admin, body: {} });
    assert.equal(same.status, 200);
    assert.deepEqual({ ...same.body, updatedAt: '' }, { ...r.body, updatedAt: '' });
  });

  test('a url key change rewrites the url paths of the whole subtree', async () => {
    const top = await createCat({ name: uname('Renamed Top') });
    const mid = await createCat({ name: 'Middle', parentId: top.id });
    const leaf = await createCat({ name: 'Leaf', parentId: mid.id });
    assert.equal(leaf.urlPath, `${top.urlKey}/middle/leaf`);
    assert.deepEqual(
      (await resolve(`${top.urlKey}/middle/leaf`)).map((m) => m.id),
      [leaf.id],
    );
    const r = await t.req('PUT', `${API}/categories/${top.id}`, { token: admin, body: { urlKey: 'New Top' } });
    assert.equal(r.status, 200, r.text);
    assert.equal(r.body.urlKey, 'new-top');
    assert.equal(r.body.urlPath, 'new-top');
    assert.equal((await getCat(leaf.id)).body.urlPath, 'new-top/middle/leaf');
    assert.equal((await getCat(mid.id)).body.urlPath, 'new-top/middle');
    assert.deepEqual(await pathsOf(leaf.id), [
      { storeId: 1, requestPath: 'new-top/middle/leaf.html' },
      { storeId: 2, requestPath: 'new-top/middle/leaf.html' },
    ]);
    assertNotLeading(await resolve(`${top.urlKey}/middle/leaf`), 'new-top/middle/leaf.html');
    assert.deepEqual(
      (await resolve('/new-top/middle/leaf.html')).map((m) => m.id),
      [leaf.id],
    );
    // null regenerates the key from the name
    const regen = await t.req('PUT', `${API}/categories/${top.id}`, { token: admin, body: { urlKey: null, name: 'Back Again' } });
    assert.equal(regen.body.urlKey, 'back-again');
    assert.equal((await getCat(leaf.id)).body.urlPath, 'back-again/middle/leaf');
  });

  test('a move rewrites path, level and url paths of the subtree and appends to the new siblings', async () => {
    const from = await createCat({ name: uname('Move From') });
    const to = await createCat({ name: uname('Move To') });
    const existing = await createCat({ name: 'Already There', parentId: to.id });
    const moving = await createCat({ name: 'Moving', parentId: from.id });
    const child = await createCat({ name: 'Moving Child', parentId: moving.id });
    const grand = await createCat({ name: 'Moving Grandchild', parentId: child.id });
    const r = await t.req('PUT', `${API}/categories/${moving.id}`, { token: tok.write, body: { parentId: to.id } });
    assert.equal(r.status, 200, r.text);
    assert.equal(r.body.parentId, to.id);
    assert.equal(r.body.path, `${to.path}/${moving.id}`);
    assert.equal(r.body.level, 3);
    assert.equal(r.body.position, existing.position + 1);
    assert.equal(r.body.urlPath, `${to.urlKey}/moving`);
    const g = (await getCat(grand.id)).body;
    assert.equal(g.path, `${to.path}/${moving.id}/${child.id}/${grand.id}`);
    assert.equal(g.level, 5);
    assert.equal(g.urlPath, `${to.urlKey}/moving/moving-child/moving-grandchild`);
    assert.deepEqual((await getCat(from.id)).body.childrenIds, []);
    assert.deepEqual((await getCat(to.id)).body.childrenIds, [existing.id, moving.id]);
    assertNotLeading(await resolve(`${from.urlKey}/moving/moving-child`), `${to.urlKey}/moving/moving-child.html`);
    assert.deepEqual(
      (await resolve(`${to.urlKey}/moving/moving-child`)).map((m) => m.id),
      [child.id],
    );
    // one level up, to the store root, at the front
    const up = await t.req('PUT', `${API}/categories/${child.id}`, { token: admin, body: { parentId: 2, position: 1 } });
    assert.equal(up.status, 200, up.text);
    assert.equal(up.body.level, 2);
    assert.equal(up.body.position, 1);
    assert.equal(up.body.urlPath, 'moving-child');
    assert.equal((await getCat(grand.id)).body.level, 3);
    const top = await t.req('GET', `${API}/categories`, { headers: JSON_ONLY });
    assert.equal(top.body[0].id, child.id);
  });

  test('a move onto a sibling url key is a 409 and changes nothing', async () => {
    const a = await createCat({ name: uname('Clash A') });
    const b = await createCat({ name: uname('Clash B') });
    await createCat({ name: 'Socks', parentId: a.id });
    const socks = await createCat({ name: 'Socks', parentId: b.id });
    const before = await snapshot();
    assertError(await t.req('PUT', `${API}/categories/${socks.id}`, { token: admin, body: { parentId: a.id } }), 409, 'conflict');
    const other = await createCat({ name: 'Tights', parentId: a.id });
    const afterCreate = await snapshot();
    assert.notDeepEqual(afterCreate, before);
    assertError(await t.req('PUT', `${API}/categories/${other.id}`, { token: admin, body: { urlKey: 'socks' } }), 409, 'conflict');
    assert.deepEqual(await snapshot(), afterCreate);
  });

  test('position reorders the siblings', async () => {
    const parent = await createCat({ name: uname('Reorder') });
    const [a, b, c] = [
      await createCat({ name: 'A', parentId: parent.id }),
      await createCat({ name: 'B', parentId: parent.id }),
      await createCat({ name: 'C', parentId: parent.id }),
    ];
    const order = async () =>
      ((await t.req('GET', `${API}/categories?parentId=${parent.id}`, { headers: JSON_ONLY })).body as any[]).map((x) => [
        x.id,
        x.position,
      ]);
    await t.req('PUT', `${API}/categories/${c.id}`, { token: admin, body: { position: 1 } });
    assert.deepEqual(await order(), [
      [c.id, 1],
      [a.id, 2],
      [b.id, 3],
    ]);
    await t.req('PUT', `${API}/categories/${c.id}`, { token: admin, body: { position: 99 } });
    assert.deepEqual(await order(), [
      [a.id, 1],
      [b.id, 2],
      [c.id, 3],
    ]);
    await t.req('PUT', `${API}/categories/${a.id}`, { token: admin, body: { position: 2 } });
    assert.deepEqual(await order(), [
      [b.id, 1],
      [a.id, 2],
      [c.id, 3],
    ]);
  });

  test('a move under itself or its descendants, of the tree root or of a store root is a 400 and changes nothing', async () => {
    const top = await createCat({ name: uname('Cycle') });
    const kid = await createCat({ name: 'Kid', parentId: top.id });
    const before = await snapshot();
    for (const [id, parentId] of [
      [top.id, top.id],
      [top.id, kid.id],
      [1, 2],
      [2, top.id],
      [top.id, 999999],
    ]) {
      const r = await t.req('PUT', `${API}/categories/${id}`, { token: admin, body: { parentId } });
      assertError(r, 400, 'bad_request');
      assert.equal(r.body.details.field, 'parentId');
    }
    assert.deepEqual(await snapshot(), before);
  });

  test('bad input is a 400 and changes nothing; unknown is a 404', async () => {
    const c = await createCat({ name: uname('Stable') });
    const before = await snapshot();
    const bodies: unknown[] = [
      { name: '' },
      { name: null },
      { name: 5 },
      { isActive: null },
      { urlKey: '---' },
      { position: 'first' },
      { displayMode: 'LIST' },
      { defaultSortBy: 'Bad Code' },
      { productPositions: { x: 1 } },
      { productPositions: { 999999: 1 } },
      { useDefault: ['name'] },
      [],
    ];
    for (const body of bodies) {
      assertError(await t.req('PUT', `${API}/categories/${c.id}`, { token: admin, body }), 400, 'bad_request');
    }
    const json = { 'content-type': 'application/json' };
    assertError(await t.req('PUT', `${API}/categories/${c.id}`, { token: admin, raw: '{', headers: json }), 400, 'bad_request');
    assert.deepEqual(await snapshot(), before);
    assertError(await t.req('PUT', `${API}/categories/999999`, { token: admin, body: { name: 'X' } }), 404, 'not_found');
    assertError(await t.req('PUT', `${API}/categories/abc`, { token: admin, body: { name: 'X' } }), 400, 'bad_request');
  });

  test('needs categories/write', async () => {
    const c = await createCat({ name: uname('Guarded') });
    const before = await snapshot();
    const body = { name: 'Changed' };
    assertError(await t.req('PUT', `${API}/categories/${c.id}`, { body }), 401, 'unauthorized');
    assertError(await t.req('PUT', `${API}/categories/${c.id}`, { token: customer, body }), 403, 'forbidden');
    assertError(await t.req('PUT', `${API}/categories/${c.id}`, { token: tok.none, body }), 403, 'forbidden');
    assertError(await t.req('PUT', `${API}/categories/${c.id}`, { token: tok.read, body }), 403, 'forbidden');
    assertError(await t.req('PUT', `${API}/categories/${c.id}`, { token: tok.delete, body }), 403, 'forbidden');
    assert.deepEqual(await snapshot(), before);
  });
});

describe('store-view values', () => {
  test('?store= writes name, url key, isActive and meta for that store view only', async () => {
    const c = await createCat({ name: uname('Clothing'), metaTitle: 'Clothes' });
    const child = await createCat({ name: 'Shirts', parentId: c.id });
    const r = await t.req('PUT', `${API}/categories/${c.id}?store=german`, {
      token: admin,
      body: { name: 'Kleidung', urlKey: 'Kleidung', metaTitle: 'Kleider', includeInMenu: false },
    });
    assert.equal(r.status, 200, r.text);
    assert.equal(r.body.name, 'Kleidung');
    assert.equal(r.body.urlKey, 'kleidung');
    assert.equal(r.body.urlPath, 'kleidung');
    assert.equal(r.body.metaTitle, 'Kleider');
    // structural fields are global
    assert.equal(r.body.includeInMenu, false);
    const def = (await getCat(c.id)).body;
    assert.equal(def.name, c.name);
    assert.equal(def.urlKey, c.urlKey);
    assert.equal(def.metaTitle, 'Clothes');
    assert.equal(def.includeInMenu, false);
    assert.equal((await getCat(child.id, undefined, '?store=german')).body.urlPath, 'kleidung/shirts');
    assert.equal((await getCat(child.id)).body.urlPath, `${c.urlKey}/shirts`);
    // the german paths follow the german key; the default store keeps its own
    assert.deepEqual(await pathsOf(child.id), [
      { storeId: 1, requestPath: `${c.urlKey}/shirts.html` },
      { storeId: 2, requestPath: 'kleidung/shirts.html' },
    ]);
    assert.deepEqual(
      (await resolve('kleidung/shirts', '&store=german')).map((m) => m.id),
      [child.id],
    );
    assert.deepEqual(await resolve('kleidung/shirts'), []);
    const list = await t.req('GET', `${API}/categories?search=kleidung&store=german`, { headers: JSON_ONLY });
    assert.deepEqual(
      list.body.map((x: any) => x.id),
      [c.id],
    );
    assert.equal(list.headers['cache-control'], 'private, max-age=3600');
  });

  test('a store view may deactivate a category for itself; useDefault drops its values', async () => {
    const c = await createCat({ name: uname('Seasonal') });
    await t.req('PUT', `${API}/categories/${c.id}?store=german`, { token: admin, body: { isActive: false, name: 'Saisonal' } });
    assertError(await getCat(c.id, undefined, '?store=german'), 404, 'not_found');
    assert.equal((await getCat(c.id)).status, 200);
    assert.deepEqual(await resolve(c.urlPath, '&store=german'), []);
    assert.equal((await resolve(c.urlPath)).length, 1);
    const r = await t.req('PUT', `${API}/categories/${c.id}?store=german`, { token: admin, body: { useDefault: ['isActive', 'name'] } });
    assert.equal(r.status, 200, r.text);
    assert.equal(r.body.isActive, true);
    assert.equal(r.body.name, c.name);
    assert.equal((await getCat(c.id, undefined, '?store=german')).status, 200);
    const [row] = await t.database.db.select().from(categories).where(eq(categories.id, c.id));
    assert.deepEqual(row.storeValues, {});
    assertError(
      await t.req('PUT', `${API}/categories/${c.id}?store=german`, { token: admin, body: { useDefault: ['position'] } }),
      400,
      'bad_request',
    );
  });

  test('a store url key used by a sibling in that store view is a 409', async () => {
    const parent = await createCat({ name: uname('Store Keys') });
    const a = await createCat({ name: 'Hats', parentId: parent.id });
    const b = await createCat({ name: 'Caps', parentId: parent.id });
    await t.req('PUT', `${API}/categories/${a.id}?store=german`, { token: admin, body: { urlKey: 'huete' } });
    const before = await snapshot();
    assertError(await t.req('PUT', `${API}/categories/${b.id}?store=german`, { token: admin, body: { urlKey: 'huete' } }), 409, 'conflict');
    assert.deepEqual(await snapshot(), before);
    // in the german store view "hats" is free (a shows "huete" there), and the default store view has no "huete"
    const free = await t.req('PUT', `${API}/categories/${b.id}?store=german`, { token: admin, body: { urlKey: 'hats' } });
    assert.equal(free.status, 200, free.text);
    const ok = await t.req('PUT', `${API}/categories/${b.id}?store=default`, { token: admin, body: { urlKey: 'huete' } });
    assert.equal(ok.status, 200, ok.text);
    assert.deepEqual(await pathsOf(b.id), [
      { storeId: 1, requestPath: `${parent.urlKey}/huete.html` },
      { storeId: 2, requestPath: `${parent.urlKey}/hats.html` },
    ]);
  });
});

describe('store-view values in admin reads', () => {
  test('admins read the default values unless they name a store view, as for products', async () => {
    const c = await createCat({ name: uname('Default Name'), description: 'Default text' });
    const scoped = await t.req('PUT', `${API}/categories/${c.id}?store=default`, {
      token: admin,
      body: { name: 'StoreName', description: 'Store text' },
    });
    assert.equal(scoped.status, 200, scoped.text);
    assert.deepEqual([scoped.body.name, scoped.body.description], ['StoreName', 'Store text']);
    const plain = await t.req('PUT', `${API}/categories/${c.id}`, { token: admin, body: { name: 'NewDefault' } });
    assert.equal(plain.status, 200, plain.text);
    assert.deepEqual([plain.body.name, plain.body.description], ['NewDefault', 'Default text']);
    // admin reads: the defaults without ?store=, the store view's values with it
    for (const token of [admin, tok.read]) {
      assert.equal((await getCat(c.id, token)).body.name, 'NewDefault');
      assert.equal((await getCat(c.id, token, '?store=default')).body.name, 'StoreName');
      const found = await t.req('GET', `${API}/categories?search=NewDefault`, { token, headers: JSON_ONLY });
      assert.deepEqual(
        found.body.map((x: any) => [x.id, x.name]),
        [[c.id, 'NewDefault']],
      );
      const parent = await t.req('GET', `${API}/categories?parentId=${c.parentId}&itemsPerPage=500`, { token, headers: JSON_ONLY });
      assert.equal(parent.body.find((x: any) => x.id === c.id).name, 'NewDefault');
    }
    // the children of an item read are shown in the same values
    const child = await createCat({ name: 'Child default', parentId: c.id });
    await t.req('PUT', `${API}/categories/${child.id}?store=default`, { token: admin, body: { name: 'Child store' } });
    assert.deepEqual(
      (await getCat(c.id, admin)).body.children.map((x: any) => x.name),
      ['Child default'],
    );
    assert.deepEqual(
      (await getCat(c.id, admin, '?store=default')).body.children.map((x: any) => x.name),
      ['Child store'],
    );
    // the storefront reads the store view it is in
    assert.equal((await getCat(c.id)).body.name, 'StoreName');
    assert.deepEqual(
      (await getCat(c.id)).body.children.map((x: any) => x.name),
      ['Child store'],
    );
    const pub = await t.req('GET', `${API}/categories?search=StoreName`, { headers: JSON_ONLY });
    assert.deepEqual(
      pub.body.map((x: any) => x.id),
      [c.id],
    );
  });
});

describe('store-restricted tokens', () => {
  let site: { websiteId: number; groupId: number; storeId: number };
  /** categories/all, limited to the store view of a website with its own root category */
  let limited: string;
  let root: Record<string, any>;
  let inside: Record<string, any>;
  let foreign: Record<string, any>;
  let foreignChild: Record<string, any>;
  const Q = '?store=scoped_en';
  const req = (method: string, id: number | '', body?: unknown) =>
    t.req(method, `${API}/categories${id === '' ? '' : `/${id}`}${Q}`, { token: limited, body });

  before(async () => {
    site = await createWebsite(t.database.db, t.services.settings, {
      code: 'scoped',
      name: 'Scoped',
      storeCode: 'scoped_en',
      storeName: 'Scoped EN',
    });
    root = await createCat({ name: uname('Scoped Root'), parentId: 1 });
    await t.database.db.update(storeGroups).set({ rootCategoryId: root.id }).where(eq(storeGroups.id, site.groupId));
    await t.services.settings.reload();
    limited = await t.tokens.apiUser(['categories/all'], { allowedStoreIds: [site.storeId] });
    inside = await createCat({ name: uname('Scoped Inside'), parentId: root.id });
    foreign = await createCat({ name: uname('Main Tree') });
    foreignChild = await createCat({ name: uname('Main Tree Child'), parentId: foreign.id });
  });

  /** A request that must be refused with `status` and change nothing. */
  async function refused(status: number, error: string, method: string, id: number | '', body?: unknown): Promise<Res> {
    const before = await snapshot();
    const r = await req(method, id, body);
    assertError(r, status, error);
    assert.deepEqual(await snapshot(), before, `${method} ${id} ${JSON.stringify(body)}`);
    return r;
  }

  test('create: only under its own root category', async () => {
    await refused(400, 'bad_request', 'POST', '', { name: 'Intruder', parentId: 2 });
    await refused(400, 'bad_request', 'POST', '', { name: 'Intruder', parentId: foreign.id });
    await refused(400, 'bad_request', 'POST', '', { name: 'Intruder', parentId: 1 });
    const made = await req('POST', '', { name: uname('Scoped New') });
    assert.equal(made.status, 201, made.text);
    assert.equal(made.body.parentId, root.id);
    const nested = await req('POST', '', { name: uname('Scoped Nested'), parentId: inside.id });
    assert.equal(nested.status, 201, nested.text);
  });

  test('update: a category outside its tree, its root and the default root are 404 and unchanged', async () => {
    for (const id of [2, 1, foreign.id, foreignChild.id, root.id]) {
      const r = await refused(404, 'not_found', 'PUT', id, { name: 'Renamed', isActive: false });
      assert.match(r.body.message, /Category not found/);
    }
    await refused(404, 'not_found', 'PUT', foreign.id, { productPositions: {} });
    assert.equal((await getCat(2, admin)).body.name, 'Default Category');
    const ok = await req('PUT', inside.id, { description: 'Scoped text' });
    assert.equal(ok.status, 200, ok.text);
  });

  test('move: neither out of its tree nor into it from outside', async () => {
    await refused(400, 'bad_request', 'PUT', inside.id, { parentId: foreign.id });
    await refused(400, 'bad_request', 'PUT', inside.id, { parentId: 2 });
    await refused(404, 'not_found', 'PUT', foreign.id, { parentId: root.id });
    await refused(404, 'not_found', 'PUT', foreignChild.id, { parentId: inside.id });
    const sibling = await createCat({ name: uname('Scoped Sibling'), parentId: root.id });
    const moved = await req('PUT', sibling.id, { parentId: inside.id });
    assert.equal(moved.status, 200, moved.text);
    assert.equal(moved.body.parentId, inside.id);
  });

  test('delete: a category outside its tree, or a root, is 404 and deletes nothing', async () => {
    for (const id of [foreignChild.id, foreign.id, 2, root.id, 1]) await refused(404, 'not_found', 'DELETE', id);
    const mine = await createCat({ name: uname('Scoped Doomed'), parentId: root.id });
    const r = await req('DELETE', mine.id);
    assert.equal(r.status, 204, r.text);
    assertError(await getCat(mine.id, admin), 404, 'not_found');
  });
});

describe('productPositions', () => {
  test('sets the products of the category with their positions; replaces them on update', async () => {
    const p1 = await createTestProduct(t);
    const p2 = await createTestProduct(t);
    const p3 = await createTestProduct(t);
    const c = await createCat({ name: uname('With Products'), productPositions: { [p1.id]: 2, [p2.id]: 1 } });
    assert.equal(c.productCount, 2);
    const rowsOf = async () =>
      (await t.database.db.select().from(categoryProducts).where(eq(categoryProducts.categoryId, c.id)))
        .map((r) => [r.productId, r.position])
        .sort((x, y) => x[0] - y[0]);
    assert.deepEqual(await rowsOf(), [
      [p1.id, 2],
      [p2.id, 1],
    ]);
    const r = await t.req('PUT', `${API}/categories/${c.id}`, { token: admin, body: { productPositions: { [p1.id]: 5, [p3.id]: 0 } } });
    assert.equal(r.status, 200, r.text);
    assert.equal(r.body.productCount, 2);
    assert.deepEqual(await rowsOf(), [
      [p1.id, 5],
      [p3.id, 0],
    ]);
    const before = await snapshot();
    const bad = await t.req('PUT', `${API}/categories/${c.id}`, {
      token: admin,
      body: { name: 'Renamed', productPositions: { [p1.id]: 1, 999999: 2 } },
    });
    assertError(bad, 400, 'bad_request');
    assert.match(bad.body.message, /999999/);
    assert.deepEqual(await snapshot(), before);
    await t.req('PUT', `${API}/categories/${c.id}`, { token: admin, body: { productPositions: {} } });
    assert.deepEqual(await rowsOf(), []);
  });
});

describe('DELETE /categories/{id}', () => {
  test('deletes the subtree, unlinks its products (they stay) and removes its url paths', async () => {
    const product = await createTestProduct(t);
    const top = await createCat({ name: uname('Doomed') });
    const kid = await createCat({ name: 'Doomed Kid', parentId: top.id, productPositions: { [product.id]: 1 } });
    const grand = await createCat({ name: 'Doomed Grandchild', parentId: kid.id, productPositions: { [product.id]: 3 } });
    const keep = await createCat({ name: uname('Survivor'), productPositions: { [product.id]: 1 } });
    const r = await t.req('DELETE', `${API}/categories/${top.id}`, { token: tok.delete });
    assert.equal(r.status, 204);
    assert.equal(r.text, '');
    for (const id of [top.id, kid.id, grand.id]) {
      assertError(await getCat(id, admin), 404, 'not_found');
      assert.deepEqual(await pathsOf(id), []);
    }
    assert.deepEqual(await resolve(`${top.urlKey}/doomed-kid`), []);
    const links = await t.database.db.select().from(categoryProducts).where(eq(categoryProducts.productId, product.id));
    assert.deepEqual(
      links.map((l) => l.categoryId),
      [keep.id],
    );
    const [still] = await t.database.db.select({ id: products.id }).from(products).where(eq(products.id, product.id));
    assert.equal(still.id, product.id);
    assertError(await t.req('DELETE', `${API}/categories/${top.id}`, { token: admin }), 404, 'not_found');
  });

  test('the tree root and store roots cannot be deleted (400, nothing changed)', async () => {
    const before = await snapshot();
    for (const id of [1, 2]) assertError(await t.req('DELETE', `${API}/categories/${id}`, { token: admin }), 400, 'bad_request');
    assert.deepEqual(await snapshot(), before);
  });

  test('needs categories/delete (write does not cover it)', async () => {
    const c = await createCat({ name: uname('Protected') });
    const before = await snapshot();
    assertError(await t.req('DELETE', `${API}/categories/${c.id}`), 401, 'unauthorized');
    assertError(await t.req('DELETE', `${API}/categories/${c.id}`, { token: customer }), 403, 'forbidden');
    assertError(await t.req('DELETE', `${API}/categories/${c.id}`, { token: tok.read }), 403, 'forbidden');
    assertError(await t.req('DELETE', `${API}/categories/${c.id}`, { token: tok.write }), 403, 'forbidden');
    assertError(await t.req('DELETE', `${API}/categories/abc`, { token: admin }), 400, 'bad_request');
    assert.deepEqual(await snapshot(), before);
  });
});

describe('store roots', () => {
  test('a store group with its own root: lists, reads and url paths are scoped to that root', async () => {
    const site = await createWebsite(t.database.db, t.services.settings, {
      code: 'outlet',
      name: 'Outlet',
      storeCode: 'outlet',
      storeName: 'Outlet View',
    });
    const root = await createCat({ name: 'Outlet Root', parentId: 1 });
    assert.equal(root.level, 1);
    assert.equal(root.urlPath, undefined);
    assert.deepEqual(await pathsOf(root.id), []);
    // the stores module has no write for a group's root category: set it directly
    await t.database.db.update(storeGroups).set({ rootCategoryId: root.id }).where(eq(storeGroups.id, site.groupId));
    await t.services.settings.reload();

    const inOutlet = await createCat({ name: 'Bargains', parentId: root.id });
    const inMain = await createCat({ name: uname('Main Only') });
    assert.equal(inOutlet.urlPath, 'bargains');
    assert.deepEqual(await pathsOf(inOutlet.id), [{ storeId: site.storeId, requestPath: 'bargains.html' }]);

    const outletList = await t.req('GET', `${API}/categories?store=outlet`, { headers: JSON_ONLY });
    assert.deepEqual(
      outletList.body.map((c: any) => c.id),
      [inOutlet.id],
    );
    const mainList = await t.req('GET', `${API}/categories`, { headers: JSON_ONLY });
    assert.ok(!mainList.body.some((c: any) => c.id === inOutlet.id));
    // POST under ?store=outlet defaults to that store's root
    const r = await t.req('POST', `${API}/categories?store=outlet`, { token: admin, body: { name: 'Clearance' } });
    assert.equal(r.body.parentId, root.id);

    assertError(await getCat(inMain.id, undefined, '?store=outlet'), 404, 'not_found');
    assertError(await getCat(inOutlet.id), 404, 'not_found');
    assert.equal((await getCat(inOutlet.id, undefined, '?store=outlet')).status, 200);
    assert.equal((await getCat(inOutlet.id, tok.read)).status, 200);
    assert.deepEqual(await t.req('GET', `${API}/categories?parentId=${root.id}`, { headers: JSON_ONLY }).then((x) => x.body), []);
    assert.deepEqual(
      (await resolve('bargains', '&store=outlet')).map((m) => m.id),
      [inOutlet.id],
    );
    assert.deepEqual(await resolve('bargains'), []);

    // a store root is not deletable, nor movable
    assertError(await t.req('DELETE', `${API}/categories/${root.id}`, { token: admin }), 400, 'bad_request');
    assertError(await t.req('PUT', `${API}/categories/${root.id}`, { token: admin, body: { parentId: 2 } }), 400, 'bad_request');

    // moving a category from one store's tree to another's moves its url paths
    const moved = await t.req('PUT', `${API}/categories/${inMain.id}`, { token: admin, body: { parentId: root.id } });
    assert.equal(moved.status, 200, moved.text);
    assert.deepEqual(await pathsOf(inMain.id), [{ storeId: site.storeId, requestPath: `${inMain.urlKey}.html` }]);
  });

  test('the category url suffix comes from store config', async () => {
    await setConfig(t.database.db, t.services.settings, 'catalog/seo/category_url_suffix', '', 'stores', 2);
    try {
      const c = await createCat({ name: uname('No Suffix') });
      // the default store view answers the path with its suffix, the german one without
      assert.deepEqual(
        (await resolve(`${c.urlKey}.html`)).map((m) => m.id),
        [c.id],
      );
      assert.deepEqual(
        (await resolve(c.urlKey, '&store=german')).map((m) => m.id),
        [c.id],
      );
      assert.deepEqual(await resolve(`${c.urlKey}.html`, '&store=german'), []);
    } finally {
      await setConfig(t.database.db, t.services.settings, 'catalog/seo/category_url_suffix', null, 'stores', 2);
    }
  });
});

describe('URL resolver and categories', () => {
  test('an inactive category does not resolve for the public; it does for admins holding categories/read', async () => {
    const c = await createCat({ name: uname('Dormant'), isActive: false });
    assert.deepEqual(await resolve(c.urlPath), []);
    const r = await t.req('GET', `${API}/url-resolver?path=${c.urlPath}`, { token: tok.read, headers: JSON_ONLY });
    assert.deepEqual(r.body, [{ type: 'category', id: c.id, redirectType: 0 }]);
  });

  test('a category path taken by a product is a 409 naming the path, and nothing is created', async () => {
    const product = await createTestProduct(t, { urlKey: 'taken-by-product' });
    assert.ok(product.id);
    const before = await snapshot();
    const r = await t.req('POST', `${API}/categories`, { token: admin, body: { name: 'Taken', urlKey: 'taken-by-product' } });
    assertError(r, 409, 'conflict');
    assert.match(r.body.message, /taken-by-product\.html/);
    assert.deepEqual(await snapshot(), before);
  });
});

describe('concurrency', () => {
  test('parallel creates of one url key under one parent: one wins, the others get a 409', async () => {
    const parent = await createCat({ name: uname('Race Parent') });
    const results = await Promise.all(
      ['Race', 'RACE', 'race'].map((name) => t.req('POST', `${API}/categories`, { token: admin, body: { name, parentId: parent.id } })),
    );
    assert.deepEqual(results.map((r) => r.status).sort(), [201, 409, 409]);
    assert.equal((await getCat(parent.id)).body.childrenCount, 1);
  });

  test('two crossing moves cannot make a cycle', async () => {
    const a = await createCat({ name: uname('Cross A') });
    const b = await createCat({ name: uname('Cross B') });
    const results = await Promise.all([
      t.req('PUT', `${API}/categories/${a.id}`, { token: admin, body: { parentId: b.id } }),
      t.req('PUT', `${API}/categories/${b.id}`, { token: admin, body: { parentId: a.id } }),
    ]);
    assert.deepEqual(results.map((r) => r.status).sort(), [200, 400]);
    const [ra, rb] = [(await getCat(a.id, admin)).body, (await getCat(b.id, admin)).body];
    assert.ok((ra.parentId === b.id && rb.parentId === 2) || (rb.parentId === a.id && ra.parentId === 2));
    assert.ok(ra.path.startsWith('1/2/') && rb.path.startsWith('1/2/'));
  });
});

describe('hot reads', () => {
  test('a public item read and a list are one query each (a list once cached: the catalog version)', async () => {
    const c = await createCat({ name: uname('Counted') });
    await createCat({ name: 'Counted Child', parentId: c.id });
    for (const url of [`${API}/categories/${c.id}`, `${API}/categories`, `${API}/categories?parentId=${c.id}&search=child`]) {
      for (const round of ['cold', 'warm']) {
        const { n, result: r } = await countStatements(() => t.req('GET', url));
        assert.equal(r.status, 200);
        // a list not cached yet reads the version and then the list
        const expected = round === 'cold' && !url.includes(`/categories/${c.id}`) ? 2 : 1;
        assert.equal(n, expected, `${url} ${round}`);
      }
    }
  });

  test('a cached list follows a change of the catalog at once', async () => {
    const c = await createCat({ name: uname('Cached') });
    const url = `${API}/categories?parentId=${c.id}`;
    assert.deepEqual((await t.req('GET', url)).body.member, []);
    await t.req('GET', url);
    const child = await createCat({ name: 'Cached Child', parentId: c.id });
    assert.deepEqual(
      (await t.req('GET', url)).body.member.map((m: { id: number }) => m.id),
      [child.id],
    );
  });
});
