import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { API, buildTestApp, type Res, type TestApp } from '../../../test/helpers.js';
import type { UrlResolverCheck } from '../../platform/context.js';
import { AppError } from '../../platform/errors.js';
import { createTestProduct } from '../../../test/fixtures/catalog.js';
import { createStoreView, setConfig } from '../stores/service.js';
import { removeEntityPaths, replaceEntityPaths, resolvePath } from './service.js';
import { urlRewrites } from './tables.js';

let t: TestApp;
let admin: string;

before(async () => {
  t = await buildTestApp();
  admin = await t.tokens.admin();
});
after(() => t.close());

const JSON_ONLY = { accept: 'application/json' };

function assertError(r: Res, status: number, error: string) {
  assert.equal(r.status, status, r.text);
  assert.equal(r.body.error, error, r.text);
  assert.equal(r.body.code, status);
}

async function resolve(path: string | undefined, opts: { token?: string; store?: string } = {}): Promise<Res> {
  const params = new URLSearchParams();
  if (path !== undefined) params.set('path', path);
  if (opts.store) params.set('store', opts.store);
  return t.req('GET', `${API}/url-resolver?${params.toString()}`, { token: opts.token, headers: JSON_ONLY });
}

async function createCat(body: Record<string, unknown>): Promise<Record<string, any>> {
  const r = await t.req('POST', `${API}/categories`, { token: admin, body });
  assert.equal(r.status, 201, r.text);
  return r.body;
}

async function allRows() {
  return t.database.db.select().from(urlRewrites).orderBy(urlRewrites.id);
}

describe('GET /url-resolver', () => {
  test('a category path, with and without the suffix, with a leading slash, a query string, in any case', async () => {
    const women = await createCat({ name: 'Resolver Women' });
    const dresses = await createCat({ name: 'Resolver Dresses', parentId: women.id });
    const want = [{ type: 'category', id: dresses.id, redirectType: 0 }];
    for (const path of [
      'resolver-women/resolver-dresses.html',
      'resolver-women/resolver-dresses',
      '/resolver-women/resolver-dresses',
      '/Resolver-Women/Resolver-Dresses.HTML',
      'resolver-women/resolver-dresses/',
      '/resolver-women/resolver-dresses.html?color=red#top',
    ]) {
      const r = await resolve(path);
      assert.equal(r.status, 200, r.text);
      assert.deepEqual(r.body, want, path);
    }
    const ld = await t.req('GET', `${API}/url-resolver?path=resolver-women`);
    assert.equal(ld.body['@type'], 'Collection');
    assert.equal(ld.body['@context'], '/api/contexts/UrlResolveResult');
    assert.equal(ld.body.totalItems, 1);
    assert.deepEqual(ld.body.member, [{ type: 'category', id: women.id, redirectType: 0 }]);
    assert.equal(ld.body.view, undefined);
  });

  test('an unknown path is an empty collection (200)', async () => {
    const r = await t.req('GET', `${API}/url-resolver?path=no/such/page.html`);
    assert.equal(r.status, 200);
    assert.equal(r.body.totalItems, 0);
    assert.deepEqual(r.body.member, []);
  });

  test("an empty or missing path is the store's home page", async () => {
    // the demo home page has a path, so its id comes along
    const home = (await t.req('GET', `${API}/cms-pages`, { query: { identifier: 'home' } })).body.member[0];
    const want = [{ type: 'cms_page', id: home.id, identifier: 'home', redirectType: 0 }];
    assert.deepEqual((await resolve('')).body, want);
    assert.deepEqual((await resolve('/')).body, want);
    assert.deepEqual((await resolve(undefined)).body, want);
    await setConfig(t.database.db, t.services.settings, 'web/default/cms_home_page', 'welcome', 'stores', 2);
    try {
      assert.deepEqual((await resolve('', { store: 'german' })).body, [{ type: 'cms_page', identifier: 'welcome', redirectType: 0 }]);
      assert.deepEqual((await resolve('')).body, want);
      // with a path registered for the page, its id comes along
      await replaceEntityPaths(t.systemCtx(), 'cms_page', 41, [{ storeId: 2, requestPath: 'welcome' }]);
      assert.deepEqual((await resolve('', { store: 'german' })).body, [
        { type: 'cms_page', id: 41, identifier: 'welcome', redirectType: 0 },
      ]);
    } finally {
      await removeEntityPaths(t.systemCtx(), 'cms_page', 41);
      await setConfig(t.database.db, t.services.settings, 'web/default/cms_home_page', null, 'stores', 2);
    }
  });

  test('hostile paths are a 400 or an empty collection, never a 5xx', async () => {
    const empty = [
      '..',
      '../../etc/passwd',
      '/../resolver-women',
      'women/../../x',
      '%2e%2e/%2e%2e',
      "' OR 1=1 --",
      'a%zz',
      '💥/ünïcödé',
      '\\windows\\system32',
      '*',
      '%',
      '_',
    ];
    for (const path of empty) {
      const r = await resolve(path);
      assert.equal(r.status, 200, `${path}: ${r.text}`);
      assert.deepEqual(r.body, [], path);
    }
    for (const path of ['a\u0000b', '\u0000', 'x\ny', 'tab\there', 'x'.repeat(256), `/${'ab/'.repeat(100)}`]) {
      assertError(await resolve(path), 400, 'bad_request');
    }
    // raw percent-encodings in the query string
    assertError(await t.req('GET', `${API}/url-resolver?path=%00`), 400, 'bad_request');
    assertError(await t.req('GET', `${API}/url-resolver?path=resolver-women%00.html`), 400, 'bad_request');
    const bad = await t.req('GET', `${API}/url-resolver?path=%E0%A4%A`);
    assert.ok(bad.status === 200 || bad.status === 400, bad.text);
    assertError(await t.req('GET', `${API}/url-resolver?path=${'y'.repeat(5000)}`), 400, 'bad_request');
    // 255 characters are fine
    assert.equal((await resolve('z'.repeat(255))).status, 200);
    assert.equal((await t.req('GET', `${API}/url-resolver?path=a&path=b`)).status < 500, true);
  });

  test('resolves in the store view asked for', async () => {
    await replaceEntityPaths(t.systemCtx(), 'blog_post', 7, [{ storeId: 2, requestPath: 'blog/hallo-welt' }]);
    assert.deepEqual((await resolve('blog/hallo-welt', { store: 'german' })).body, [
      { type: 'blog_post', id: 7, identifier: 'blog/hallo-welt', redirectType: 0 },
    ]);
    assert.deepEqual((await resolve('blog/hallo-welt')).body, []);
    assertError(await resolve('blog/hallo-welt', { store: 'nowhere' }), 400, 'bad_request');
  });

  test('redirects come back with their target and type', async () => {
    await t.database.db
      .insert(urlRewrites)
      .values({ storeId: 1, requestPath: 'old-sale', entityType: 'redirect', targetPath: 'sale.html', redirectType: 301 });
    assert.deepEqual((await resolve('/old-sale')).body, [{ type: 'redirect', redirectUrl: 'sale.html', redirectType: 301 }]);
  });

  test('is public; customer and admin tokens work too; a bad token is a 401', async () => {
    assert.equal((await resolve('x', { token: await t.tokens.customer() })).status, 200);
    assert.equal((await resolve('x', { token: admin })).status, 200);
    const r = await resolve('x', { token: 'garbage' });
    assert.equal(r.status, 401);
    assert.equal(r.body.error, 'authentication_error');
  });
});

describe('replaceEntityPaths', () => {
  test('stores normalized paths and replaces all paths of the entity', async () => {
    const ctx = t.systemCtx();
    await replaceEntityPaths(ctx, 'cms_page', 3, [
      { storeId: 1, requestPath: '/About/Us/' },
      { storeId: 2, requestPath: 'ueber//uns' },
      { storeId: 1, requestPath: 'about/us' },
    ]);
    const paths = async () =>
      (await allRows()).filter((r) => r.entityType === 'cms_page' && r.entityId === 3).map((r) => [r.storeId, r.requestPath]);
    assert.deepEqual(await paths(), [
      [1, 'about/us'],
      [2, 'ueber/uns'],
    ]);
    assert.deepEqual((await resolve('about/us')).body, [{ type: 'cms_page', id: 3, identifier: 'about/us', redirectType: 0 }]);
    await replaceEntityPaths(ctx, 'cms_page', 3, [{ storeId: 1, requestPath: 'about' }]);
    // the old path of store 1 stays as a redirect; store 2, where the page has no path any more, keeps nothing
    assert.deepEqual(await paths(), [
      [1, 'about/us'],
      [1, 'about'],
    ]);
    assert.deepEqual((await resolve('about/us')).body, [{ type: 'redirect', redirectUrl: 'about', redirectType: 301 }]);
    assert.deepEqual((await resolve('ueber/uns', { store: 'german' })).body, []);
    await removeEntityPaths(ctx, 'cms_page', 3);
    assert.deepEqual(await paths(), []);
    assert.deepEqual((await resolve('about/us')).body, []);
  });

  test('a path another entity holds in the same store view is a 409 naming the path; nothing changes', async () => {
    const ctx = t.systemCtx();
    await replaceEntityPaths(ctx, 'cms_page', 10, [{ storeId: 1, requestPath: 'contact-us' }]);
    await replaceEntityPaths(ctx, 'blog_post', 10, [{ storeId: 1, requestPath: 'news/one' }]);
    const before = await allRows();
    await assert.rejects(
      replaceEntityPaths(ctx, 'blog_post', 10, [
        { storeId: 1, requestPath: 'news/two' },
        { storeId: 1, requestPath: '/Contact-Us' },
      ]),
      (err: unknown) => {
        assert.ok(err instanceof AppError);
        assert.equal(err.status, 409);
        assert.match(err.message, /"contact-us"/);
        assert.equal(err.details?.requestPath, 'contact-us');
        return true;
      },
    );
    assert.deepEqual(await allRows(), before);
    // the same path in another store view is fine
    await replaceEntityPaths(ctx, 'blog_post', 10, [{ storeId: 2, requestPath: 'contact-us' }]);
  });

  test('a clash between a category and a product path reaches the client as a 409', async () => {
    const cat = await createCat({ name: 'Resolver Gadgets' });
    const r = await t.req('POST', `${API}/products`, {
      token: admin,
      body: { sku: 'gadget-clash', name: 'Gadgets', urlKey: 'resolver-gadgets', price: 5 },
    });
    assertError(r, 409, 'conflict');
    assert.match(r.body.message, /resolver-gadgets\.html/);
    assert.deepEqual((await resolve('resolver-gadgets')).body, [{ type: 'category', id: cat.id, redirectType: 0 }]);
  });

  test('a redirect at the path gives way', async () => {
    await t.database.db
      .insert(urlRewrites)
      .values({ storeId: 1, requestPath: 'moved-here', entityType: 'redirect', targetPath: 'x.html', redirectType: 302 });
    await replaceEntityPaths(t.systemCtx(), 'cms_page', 12, [{ storeId: 1, requestPath: 'moved-here' }]);
    assert.deepEqual((await resolve('moved-here')).body, [{ type: 'cms_page', id: 12, identifier: 'moved-here', redirectType: 0 }]);
  });

  test('empty, over-long or control-character paths are refused', async () => {
    const ctx = t.systemCtx();
    for (const requestPath of ['', '///', 'x'.repeat(256), 'a\u0000b']) {
      await assert.rejects(
        replaceEntityPaths(ctx, 'cms_page', 13, [{ storeId: 1, requestPath }]),
        (err: unknown) => err instanceof AppError && err.status === 400,
      );
    }
  });
});

describe('visibility checks', () => {
  test('a contributed check hides entities it refuses; without one an entity resolves', async () => {
    const base = t.systemCtx();
    await replaceEntityPaths(base, 'blog_post', 20, [{ storeId: 1, requestPath: 'draft-post' }]);
    await replaceEntityPaths(base, 'blog_post', 21, [{ storeId: 1, requestPath: 'live-post' }]);
    const withChecks = (checks: [string, UrlResolverCheck][]) => ({ ...base, app: { ...base.app, urlResolverChecks: new Map(checks) } });
    assert.equal((await resolvePath(withChecks([]), 'draft-post'))?.id, 20);
    const ctx = withChecks([['blog_post', async (_ctx, id) => id !== 20]]);
    assert.equal(await resolvePath(ctx, 'draft-post'), undefined);
    assert.equal((await resolvePath(ctx, '/live-post'))?.id, 21);
  });

  test('every module that owns an entity type checks its paths', async () => {
    assert.deepEqual([...t.systemCtx().app.urlResolverChecks.keys()].sort(), ['blog_post', 'category', 'cms_page', 'product']);
  });

  test('an inactive category does not resolve', async () => {
    const c = await createCat({ name: 'Resolver Sleeping', isActive: false });
    assert.deepEqual((await resolve('resolver-sleeping.html')).body, []);
    await t.req('PUT', `${API}/categories/${c.id}`, { token: admin, body: { isActive: true } });
    assert.deepEqual((await resolve('resolver-sleeping.html')).body, [{ type: 'category', id: c.id, redirectType: 0 }]);
  });
});

// ---- paths that outlive config changes, new store views and new url keys ----

const hit = (type: string, id: number) => [{ type, id, redirectType: 0 }];
const moved = (redirectUrl: string) => [{ type: 'redirect', redirectUrl, redirectType: 301 }];

async function resolved(path: string, store?: string): Promise<unknown> {
  const r = await resolve(path, { store });
  assert.equal(r.status, 200, r.text);
  return r.body;
}

async function put(path: string, body: Record<string, unknown>): Promise<Res> {
  const r = await t.req('PUT', `${API}${path}`, { token: admin, body });
  assert.equal(r.status, 200, r.text);
  return r;
}

async function config(path: string, value: string | null, scope: 'default' | 'stores' = 'default', scopeId = 0): Promise<void> {
  await setConfig(t.database.db, t.services.settings, path, value, scope, scopeId);
}

describe('url suffix', () => {
  test('a changed suffix applies to existing paths at once: with or without the suffix configured now', async () => {
    const p = await createTestProduct(t, { urlKey: 'suffix-tee' });
    const c = await createCat({ name: 'Suffix Cat' });
    assert.deepEqual(await resolved('suffix-tee.html'), hit('product', p.id));
    assert.deepEqual(await resolved('suffix-cat.html'), hit('category', c.id));
    let q: Record<string, any> | undefined;
    try {
      await config('catalog/seo/product_url_suffix', 'htm');
      for (const path of ['suffix-tee.htm', '/Suffix-Tee.HTM', 'suffix-tee'])
        assert.deepEqual(await resolved(path), hit('product', p.id), path);
      assert.deepEqual(await resolved('suffix-tee.html'), []);
      // the category suffix is its own
      assert.deepEqual(await resolved('suffix-cat.html'), hit('category', c.id));
      assert.deepEqual(await resolved('suffix-cat.htm'), []);
      await config('catalog/seo/product_url_suffix', '');
      assert.deepEqual(await resolved('suffix-tee'), hit('product', p.id));
      assert.deepEqual(await resolved('suffix-tee.html'), []);
      // per store view
      await config('catalog/seo/category_url_suffix', '.php', 'stores', 2);
      assert.deepEqual(await resolved('suffix-cat.php', 'german'), hit('category', c.id));
      assert.deepEqual(await resolved('suffix-cat.html', 'german'), []);
      assert.deepEqual(await resolved('suffix-cat.html'), hit('category', c.id));
      // products written meanwhile resolve the same way, and a path stays one entity's whatever the suffixes
      q = await createTestProduct(t, { urlKey: 'suffix-shirt' });
      assert.deepEqual(await resolved('suffix-shirt'), hit('product', q.id));
      const clash = await t.req('POST', `${API}/products`, {
        token: admin,
        body: { sku: 'suffix-clash', name: 'Clash', urlKey: 'suffix-cat', price: 5 },
      });
      assertError(clash, 409, 'conflict');
      assert.match(clash.body.message, /"suffix-cat"/);
    } finally {
      await config('catalog/seo/product_url_suffix', null);
      await config('catalog/seo/category_url_suffix', null, 'stores', 2);
    }
    assert.deepEqual(await resolved('suffix-tee.html'), hit('product', p.id));
    assert.deepEqual(await resolved('suffix-shirt.html'), hit('product', q!.id));
  });
});

describe('old paths redirect', () => {
  test('a new product url key: the old path is a 301 to the new one, chains collapse, a new owner takes the path', async () => {
    const p = await createTestProduct(t, { urlKey: 'history-a' });
    await put(`/products/${p.id}`, { urlKey: 'history-b' });
    assert.deepEqual(await resolved('history-a.html'), moved('history-b.html'));
    assert.deepEqual(await resolved('/History-A'), moved('history-b.html'));
    assert.deepEqual(await resolved('history-b.html'), hit('product', p.id));
    assert.deepEqual(await resolved('history-a.html', 'german'), moved('history-b.html'));
    // A -> B, then B -> C: A leads to C
    await put(`/products/${p.id}`, { urlKey: 'history-c' });
    assert.deepEqual(await resolved('history-a.html'), moved('history-c.html'));
    assert.deepEqual(await resolved('history-b.html'), moved('history-c.html'));
    // the redirect gives way to another product claiming the path
    const q = await createTestProduct(t, { urlKey: 'history-a' });
    assert.equal(q.urlKey, 'history-a');
    assert.deepEqual(await resolved('history-a.html'), hit('product', q.id));
    assert.deepEqual(await resolved('history-b.html'), moved('history-c.html'));
    // back to an old key: the path is the product's again, and the key it leaves redirects
    await put(`/products/${p.id}`, { urlKey: 'history-b' });
    assert.deepEqual(await resolved('history-b.html'), hit('product', p.id));
    assert.deepEqual(await resolved('history-c.html'), moved('history-b.html'));
    // a store view's own key redirects in that store view only
    await put(`/products/${p.id}?store=german`, { urlKey: 'geschichte' });
    assert.deepEqual(await resolved('history-b.html', 'german'), moved('geschichte.html'));
    assert.deepEqual(await resolved('history-c.html', 'german'), moved('geschichte.html'));
    assert.deepEqual(await resolved('history-b.html'), hit('product', p.id));
    // the target follows the suffix configured now
    try {
      await config('catalog/seo/product_url_suffix', '.htm');
      assert.deepEqual(await resolved('history-c.htm'), moved('history-b.htm'));
    } finally {
      await config('catalog/seo/product_url_suffix', null);
    }
    // a disabled product's old paths lead nowhere; a deleted product's are gone
    await put(`/products/${p.id}`, { status: 'disabled' });
    assert.deepEqual(await resolved('history-c.html'), []);
    await put(`/products/${p.id}`, { status: 'enabled' });
    assert.deepEqual(await resolved('history-c.html'), moved('history-b.html'));
    assert.equal((await t.req('DELETE', `${API}/products/${p.id}`, { token: admin })).status, 204);
    assert.deepEqual(await resolved('history-c.html'), []);
    assert.equal((await allRows()).filter((r) => r.entityType === 'product' && r.entityId === p.id).length, 0);
  });

  test('a category move redirects the old paths of the category and its subtree, in every store view', async () => {
    const top = await createCat({ name: 'Move Top' });
    const mid = await createCat({ name: 'Move Mid', parentId: top.id });
    const leaf = await createCat({ name: 'Move Leaf', parentId: mid.id });
    const dest = await createCat({ name: 'Move Dest' });
    await put(`/categories/${mid.id}`, { parentId: dest.id });
    for (const store of [undefined, 'german']) {
      assert.deepEqual(await resolved('move-top/move-mid.html', store), moved('move-dest/move-mid.html'));
      assert.deepEqual(await resolved('move-top/move-mid/move-leaf', store), moved('move-dest/move-mid/move-leaf.html'));
      assert.deepEqual(await resolved('move-dest/move-mid/move-leaf.html', store), hit('category', leaf.id));
    }
    assert.deepEqual(await resolved('move-top.html'), hit('category', top.id));
    // a url key change above: the subtree's old paths, older ones included, lead to the newest
    await put(`/categories/${dest.id}`, { urlKey: 'move-renamed' });
    assert.deepEqual(await resolved('move-dest/move-mid/move-leaf.html'), moved('move-renamed/move-mid/move-leaf.html'));
    assert.deepEqual(await resolved('move-top/move-mid/move-leaf.html'), moved('move-renamed/move-mid/move-leaf.html'));
    assert.deepEqual(await resolved('move-dest.html'), moved('move-renamed.html'));
    // moving back revives the first paths; the ones left redirect to them
    await put(`/categories/${mid.id}`, { parentId: top.id });
    assert.deepEqual(await resolved('move-top/move-mid/move-leaf.html'), hit('category', leaf.id));
    assert.deepEqual(await resolved('move-renamed/move-mid.html'), moved('move-top/move-mid.html'));
    // a new category takes over a path that is only a redirect now
    const again = await createCat({ name: 'Move Dest', urlKey: 'move-dest' });
    assert.deepEqual(await resolved('move-dest.html'), hit('category', again.id));
    // a deleted category takes its redirects along
    assert.equal((await t.req('DELETE', `${API}/categories/${mid.id}`, { token: admin })).status, 204);
    assert.deepEqual(await resolved('move-renamed/move-mid/move-leaf.html'), []);
    assert.deepEqual(await resolved('move-renamed/move-mid.html'), []);
  });
});

// last: the store view added here sees every product and category made before
describe('a store view added later', () => {
  test('resolves existing products and categories through the default registrations; its own url keys hide them', async () => {
    const p = await createTestProduct(t, { urlKey: 'late-shirt' });
    const de = await createTestProduct(t, { urlKey: 'late-hose' });
    await put(`/products/${de.id}?store=german`, { urlKey: 'late-hose-de' });
    const c = await createCat({ name: 'Late Cat' });
    const renamed = await createTestProduct(t, { urlKey: 'late-old' });
    await put(`/products/${renamed.id}`, { urlKey: 'late-new' });
    await createStoreView(t.database.db, t.services.settings, { code: 'late', name: 'Late View', sortOrder: 9 });
    assert.deepEqual(await resolved('late-shirt.html', 'late'), hit('product', p.id));
    assert.deepEqual(await resolved('late-shirt', 'late'), hit('product', p.id));
    assert.deepEqual(await resolved('late-cat.html', 'late'), hit('category', c.id));
    // the default store view's key, not another store view's
    assert.deepEqual(await resolved('late-hose.html', 'late'), hit('product', de.id));
    assert.deepEqual(await resolved('late-hose-de.html', 'late'), []);
    // once the product has a path of its own in the new store view, that one counts there
    await put(`/products/${p.id}?store=late`, { urlKey: 'late-own' });
    assert.deepEqual(await resolved('late-own.html', 'late'), hit('product', p.id));
    assert.deepEqual(await resolved('late-shirt.html', 'late'), []);
    assert.deepEqual(await resolved('late-shirt.html'), hit('product', p.id));
    // an old path kept before the store view existed redirects there too
    assert.deepEqual(await resolved('late-old.html', 'late'), moved('late-new.html'));
    assert.deepEqual(await resolved('late-new.html', 'late'), hit('product', renamed.id));
    // products written from now on have their paths in the new store view as well
    const fresh = await createTestProduct(t, { urlKey: 'late-fresh' });
    assert.deepEqual(await resolved('late-fresh.html', 'late'), hit('product', fresh.id));
  });
});
