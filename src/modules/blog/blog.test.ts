/** Blog posts and categories over REST: visibility (store view, status, publish date), access, validation, conflicts, URL paths. */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { API, buildTestApp, type Res, type TestApp } from '../../../test/helpers.js';

let t: TestApp;
let admin: string;
let customer: string;
let reader: string;
let writer: string;
let deleter: string;
let catWriter: string;
let n = 0;

before(async () => {
  t = await buildTestApp();
  admin = await t.tokens.admin();
  customer = await t.tokens.customer();
  reader = await t.tokens.apiUser(['blog-posts/read', 'blog-categories/read']);
  writer = await t.tokens.apiUser(['blog-posts/write']);
  deleter = await t.tokens.apiUser(['blog-posts/delete']);
  catWriter = await t.tokens.apiUser(['blog-categories/all']);
});
after(() => t.close());

const JSON_ONLY = { accept: 'application/json' };
const PAST = '2024-01-02 03:04:05';
const FUTURE = '2999-01-01';

function assertError(r: Res, status: number, error: string) {
  assert.equal(r.status, status, r.text);
  assert.equal(r.body.error, error, r.text);
}

const uniq = (p: string) => `${p}-${++n}`;

async function post(body: Record<string, unknown>, token = admin): Promise<Record<string, any>> {
  const r = await t.req('POST', `${API}/blog-posts`, { token, body });
  assert.equal(r.status, 201, r.text);
  return r.body;
}

async function category(body: Record<string, unknown>, token = admin): Promise<Record<string, any>> {
  const r = await t.req('POST', `${API}/blog-categories`, { token, body });
  assert.equal(r.status, 201, r.text);
  return r.body;
}

async function allPosts(): Promise<Record<string, any>[]> {
  const r = await t.req('GET', `${API}/blog-posts?scope=all&itemsPerPage=100`, { token: admin, headers: JSON_ONLY });
  assert.equal(r.status, 200, r.text);
  return r.body;
}

async function allCategories(): Promise<Record<string, any>[]> {
  const r = await t.req('GET', `${API}/blog-categories?scope=all&itemsPerPage=100`, { token: admin, headers: JSON_ONLY });
  assert.equal(r.status, 200, r.text);
  return r.body;
}

const resolve = (path: string, store?: string) =>
  t.req('GET', `${API}/url-resolver`, { query: { path, ...(store ? { store } : {}) }, headers: JSON_ONLY });

describe('demo content', () => {
  test('category News and one published post in it, found by the URL resolver', async () => {
    const cats = await t.req('GET', `${API}/blog-categories`);
    assert.equal(cats.status, 200, cats.text);
    assert.equal(cats.body['@context'], '/api/contexts/BlogCategory');
    const news = cats.body.member.find((c: any) => c.name === 'News');
    assert.ok(news);
    assert.equal(news.urlKey, 'news');
    assert.equal(news.level, 1);
    assert.equal(news.path, String(news.id));
    assert.deepEqual(news.stores, [0]);
    const r = await t.req('GET', `${API}/blog-posts`, { query: { categoryId: String(news.id) }, headers: JSON_ONLY });
    assert.equal(r.status, 200, r.text);
    assert.equal(r.body.length, 1);
    const p = r.body[0];
    assert.equal(p.urlKey, 'welcome-to-our-blog');
    assert.deepEqual(p.categoryIds, [news.id]);
    assert.match(p.publishDate, /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/);
    assert.equal(p.excerpt, 'News, tips and stories from our shop.');
    assert.deepEqual((await resolve('blog/welcome-to-our-blog')).body, [
      { type: 'blog_post', id: p.id, identifier: 'blog/welcome-to-our-blog', redirectType: 0 },
    ]);
    assert.equal((await t.req('GET', `${API}/blog-categories/${news.id}`)).body.name, 'News');
  });
});

describe('POST /blog-posts', () => {
  test('201 with defaults; urlKey from the title; excerpt and imageUrl read-only', async () => {
    const long = `<p>${'word '.repeat(60)}</p>`;
    const p = await post({
      title: `  Hello, Wörld & Friends ${++n}! `,
      content: long,
      image: 'blog/pic.webp',
      excerpt: 'ignored',
      imageUrl: 'x',
      unknownKey: 1,
    });
    assert.equal(p.title, `Hello, Wörld & Friends ${n}!`);
    assert.equal(p.urlKey, `hello-world-friends-${n}`);
    assert.equal(p.isActive, true);
    assert.equal(p.status, 'enabled');
    assert.deepEqual(p.stores, [0]);
    assert.deepEqual(p.categoryIds, []);
    assert.equal(p.publishDate, undefined);
    assert.equal(p.unknownKey, undefined);
    assert.ok(p.excerpt.length <= 203 && p.excerpt.length > 190, p.excerpt);
    assert.ok(p.excerpt.endsWith('...'));
    assert.ok(!p.excerpt.includes('<'));
    assert.equal(p.image, 'blog/pic.webp');
    assert.match(p.imageUrl, /^https?:\/\/.+\/media\/blog\/pic\.webp$/);
  });

  test('all fields round-trip; categoryIds as ids or {id, position}; stores by code', async () => {
    const a = await category({ name: uniq('Cat A') });
    const b = await category({ name: uniq('Cat B') });
    const p = await post({
      title: 'Full',
      urlKey: uniq('Full-Post'),
      content: '<b>c</b>',
      shortContent: 'short',
      publishDate: PAST,
      metaTitle: 'mt',
      metaDescription: 'md',
      metaKeywords: 'mk',
      metaRobots: 'NOINDEX,FOLLOW',
      stores: ['default', 2],
      categoryIds: [
        { id: a.id, position: 5 },
        { id: b.id, position: 1 },
      ],
    });
    assert.match(p.urlKey, /^full-post-\d+$/);
    assert.equal(p.publishDate, PAST);
    assert.deepEqual(p.stores, [1, 2]);
    assert.deepEqual(p.categoryIds, [b.id, a.id]);
    assert.equal(p.metaRobots, 'NOINDEX,FOLLOW');
    const p2 = await post({ title: uniq('ids'), categoryIds: [a.id, b.id] });
    assert.deepEqual(p2.categoryIds, [a.id, b.id]);
  });

  test('bad input is a 400 and creates nothing', async () => {
    const before = (await allPosts()).length;
    const bad: Record<string, unknown>[] = [
      {},
      { title: '   ' },
      { title: '!!!' },
      { title: 'x', urlKey: 'has space' },
      { title: 'x', urlKey: 'under_score' },
      { title: 'x', urlKey: 'x'.repeat(101) },
      { title: 'x', publishDate: '2026-02-30' },
      { title: 'x', publishDate: 'soon' },
      { title: 'x', stores: [999] },
      { title: 'x', stores: [] },
      { title: 'x', categoryIds: [999999] },
      { title: 'x', categoryIds: [{ id: 999999 }] },
      { title: 5 },
      { title: 'x', isActive: 'maybe' },
    ];
    for (const body of bad) assertError(await t.req('POST', `${API}/blog-posts`, { token: admin, body }), 400, 'bad_request');
    assert.equal((await allPosts()).length, before);
  });

  test('a urlKey is unique per store view (409); other store views may reuse it', async () => {
    const urlKey = uniq('dup');
    await post({ title: 'German', urlKey, stores: ['german'] });
    const before = (await allPosts()).length;
    for (const stores of [['german'], ['all'], [1, 2], undefined]) {
      assertError(await t.req('POST', `${API}/blog-posts`, { token: admin, body: { title: 'x', urlKey, stores } }), 409, 'conflict');
    }
    assert.equal((await allPosts()).length, before);
    await post({ title: 'Default', urlKey, stores: ['default'] });
    // generated keys clash too
    const title = uniq('Same Title');
    await post({ title });
    assertError(await t.req('POST', `${API}/blog-posts`, { token: admin, body: { title } }), 409, 'conflict');
  });

  test('access: anonymous 401, customer 403, read-only 403, category grant 403, write grant 201', async () => {
    const body = { title: uniq('acl') };
    assertError(await t.req('POST', `${API}/blog-posts`, { body }), 401, 'unauthorized');
    assertError(await t.req('POST', `${API}/blog-posts`, { token: customer, body }), 403, 'forbidden');
    assertError(await t.req('POST', `${API}/blog-posts`, { token: reader, body }), 403, 'forbidden');
    assertError(await t.req('POST', `${API}/blog-posts`, { token: catWriter, body }), 403, 'forbidden');
    await post(body, writer);
  });
});

describe('GET /blog-posts visibility', () => {
  test('unpublished, future, inactive and other-store posts are hidden from public callers; back office sees them', async () => {
    const tag = uniq('vis');
    const live = await post({ title: `${tag} live`, publishDate: PAST });
    const none = await post({ title: `${tag} none` });
    const future = await post({ title: `${tag} future`, publishDate: FUTURE });
    const off = await post({ title: `${tag} off`, publishDate: PAST, isActive: false });
    const ger = await post({ title: `${tag} ger`, publishDate: PAST, stores: ['german'] });
    assert.equal(off.status, 'disabled');
    for (const token of [undefined, customer, writer]) {
      const list = await t.req('GET', `${API}/blog-posts`, { token, query: { search: tag }, headers: JSON_ONLY });
      assert.equal(list.status, 200, list.text);
      assert.deepEqual(
        list.body.map((p: any) => p.id),
        [live.id],
      );
      assert.equal((await t.req('GET', `${API}/blog-posts/${live.id}`, { token })).status, 200);
      for (const hidden of [none, future, off, ger])
        assertError(await t.req('GET', `${API}/blog-posts/${hidden.id}`, { token }), 404, 'not_found');
    }
    const german = await t.req('GET', `${API}/blog-posts`, { query: { search: tag, store: 'german' }, headers: JSON_ONLY });
    assert.deepEqual(german.body.map((p: any) => p.id).sort(), [live.id, ger.id].sort());
    for (const hidden of [none, future, off, ger])
      assert.equal((await t.req('GET', `${API}/blog-posts/${hidden.id}`, { token: reader })).status, 200);
    const bo = await t.req('GET', `${API}/blog-posts`, { token: reader, query: { search: tag }, headers: JSON_ONLY });
    // newest first by publish date, unscheduled last
    assert.deepEqual(
      bo.body.map((p: any) => p.id),
      [future.id, off.id, live.id, none.id],
    );
    const all = await t.req('GET', `${API}/blog-posts`, { token: reader, query: { search: tag, scope: 'all' }, headers: JSON_ONLY });
    assert.equal(all.body.length, 5);
    // the URL resolver follows the same rules
    assert.equal((await resolve(`blog/${live.urlKey}`)).body.length, 1);
    assert.deepEqual((await resolve(`blog/${future.urlKey}`)).body, []);
    assert.deepEqual((await resolve(`blog/${ger.urlKey}`)).body, []);
    assert.equal((await resolve(`blog/${ger.urlKey}`, 'german')).body.length, 1);
  });

  test('filters urlKey and categoryId; pagination; bad filters', async () => {
    const c = await category({ name: uniq('Filter') });
    const a = await post({ title: uniq('Filter one'), publishDate: '2024-03-01', categoryIds: [c.id] });
    const b = await post({ title: uniq('Filter two'), publishDate: '2024-04-01', categoryIds: [c.id] });
    const byCat = await t.req('GET', `${API}/blog-posts`, { query: { categoryId: String(c.id) } });
    assert.equal(byCat.body.totalItems, 2);
    assert.deepEqual(
      byCat.body.member.map((p: any) => p.id),
      [b.id, a.id],
    );
    const page2 = await t.req('GET', `${API}/blog-posts`, {
      query: { categoryId: String(c.id), itemsPerPage: '1', page: '2' },
      headers: JSON_ONLY,
    });
    assert.deepEqual(
      page2.body.map((p: any) => p.id),
      [a.id],
    );
    const byKey = await t.req('GET', `${API}/blog-posts`, { query: { urlKey: a.urlKey.toUpperCase() }, headers: JSON_ONLY });
    assert.deepEqual(
      byKey.body.map((p: any) => p.id),
      [a.id],
    );
    assertError(await t.req('GET', `${API}/blog-posts`, { query: { search: 'ab' } }), 400, 'bad_request');
    assertError(await t.req('GET', `${API}/blog-posts`, { query: { categoryId: 'x' } }), 400, 'bad_request');
    assertError(await t.req('GET', `${API}/blog-posts`, { query: { scope: 'some' }, token: admin }), 400, 'bad_request');
    assertError(await t.req('GET', `${API}/blog-posts/abc`), 400, 'bad_request');
    assertError(await t.req('GET', `${API}/blog-posts/99999`, { token: admin }), 404, 'not_found');
  });

  test('scope=all: anonymous 401, customer and writer 403', async () => {
    assertError(await t.req('GET', `${API}/blog-posts?scope=all`), 401, 'unauthorized');
    assertError(await t.req('GET', `${API}/blog-posts?scope=all`, { token: customer }), 403, 'forbidden');
    assertError(await t.req('GET', `${API}/blog-posts?scope=all`, { token: writer }), 403, 'forbidden');
    assertError(await t.req('GET', `${API}/blog-categories?scope=all`), 401, 'unauthorized');
    assertError(await t.req('GET', `${API}/blog-categories?scope=all`, { token: writer }), 403, 'forbidden');
  });
});

describe('PUT and DELETE /blog-posts/{id}', () => {
  test('partial update; new urlKey moves the URL path; categories replaced', async () => {
    const c = await category({ name: uniq('Upd') });
    const p = await post({ title: uniq('Upd post'), content: 'body', publishDate: PAST, categoryIds: [c.id] });
    const r = await t.req('PUT', `${API}/blog-posts/${p.id}`, { token: writer, body: { title: 'Renamed' } });
    assert.equal(r.status, 200, r.text);
    assert.equal(r.body.title, 'Renamed');
    assert.equal(r.body.urlKey, p.urlKey);
    assert.equal(r.body.content, 'body');
    assert.deepEqual(r.body.categoryIds, [c.id]);
    const key = uniq('moved');
    const m = await t.req('PUT', `${API}/blog-posts/${p.id}`, { token: admin, body: { urlKey: key, categoryIds: [], publishDate: '' } });
    assert.equal(m.status, 200, m.text);
    assert.equal(m.body.urlKey, key);
    assert.deepEqual(m.body.categoryIds, []);
    assert.equal(m.body.publishDate, undefined);
    await t.req('PUT', `${API}/blog-posts/${p.id}`, { token: admin, body: { publishDate: PAST } });
    assert.equal((await resolve(`blog/${key}`)).body[0].id, p.id);
  });

  test('bad input 400, clash 409, unknown 404, access; nothing changed', async () => {
    const p = await post({ title: uniq('Keep') });
    const other = await post({ title: uniq('Other') });
    for (const body of [{ title: '' }, { urlKey: 'A B' }, { categoryIds: [999999] }, { publishDate: 'x' }, { stores: ['nowhere'] }]) {
      assertError(await t.req('PUT', `${API}/blog-posts/${p.id}`, { token: admin, body }), 400, 'bad_request');
    }
    assertError(await t.req('PUT', `${API}/blog-posts/${p.id}`, { token: admin, body: { urlKey: other.urlKey } }), 409, 'conflict');
    assertError(await t.req('PUT', `${API}/blog-posts/999999`, { token: admin, body: { title: 'x' } }), 404, 'not_found');
    assertError(await t.req('PUT', `${API}/blog-posts/${p.id}`, { body: { title: 'x' } }), 401, 'unauthorized');
    assertError(await t.req('PUT', `${API}/blog-posts/${p.id}`, { token: customer, body: { title: 'x' } }), 403, 'forbidden');
    assertError(await t.req('PUT', `${API}/blog-posts/${p.id}`, { token: reader, body: { title: 'x' } }), 403, 'forbidden');
    const now = (await t.req('GET', `${API}/blog-posts/${p.id}`, { token: admin })).body;
    assert.equal(now.title, p.title);
    assert.equal(now.urlKey, p.urlKey);
  });

  test('delete: 204, then 404; URL path gone; access', async () => {
    const p = await post({ title: uniq('Gone'), publishDate: PAST });
    assertError(await t.req('DELETE', `${API}/blog-posts/${p.id}`), 401, 'unauthorized');
    assertError(await t.req('DELETE', `${API}/blog-posts/${p.id}`, { token: customer }), 403, 'forbidden');
    assertError(await t.req('DELETE', `${API}/blog-posts/${p.id}`, { token: writer }), 403, 'forbidden');
    const r = await t.req('DELETE', `${API}/blog-posts/${p.id}`, { token: deleter });
    assert.equal(r.status, 204, r.text);
    assert.equal(r.text, '');
    assertError(await t.req('GET', `${API}/blog-posts/${p.id}`, { token: admin }), 404, 'not_found');
    assertError(await t.req('DELETE', `${API}/blog-posts/${p.id}`, { token: admin }), 404, 'not_found');
    assert.deepEqual((await resolve(`blog/${p.urlKey}`)).body, []);
  });
});

describe('blog categories', () => {
  test('tree: path and level computed; position/name order; inactive hidden publicly', async () => {
    const top = await category({ name: uniq('Top'), position: 900 });
    assert.equal(top.path, String(top.id));
    assert.equal(top.level, 1);
    assert.equal(top.parentId, undefined);
    const child = await category({ name: 'Zeta', parentId: top.id, position: 1 });
    const child2 = await category({ name: 'Alpha', parentId: top.id, position: 1 });
    const grand = await category({ name: uniq('Grand'), parentId: child.id, isActive: false });
    assert.equal(child.path, `${top.id}/${child.id}`);
    assert.equal(child.level, 2);
    assert.equal(grand.path, `${top.id}/${child.id}/${grand.id}`);
    assert.equal(grand.level, 3);
    const kids = await t.req('GET', `${API}/blog-categories`, { query: { parentId: String(top.id) }, headers: JSON_ONLY });
    assert.deepEqual(
      kids.body.map((c: any) => c.id),
      [child2.id, child.id],
    );
    assertError(await t.req('GET', `${API}/blog-categories/${grand.id}`), 404, 'not_found');
    assert.equal((await t.req('GET', `${API}/blog-categories/${grand.id}`, { token: reader })).status, 200);
    const ger = await category({ name: uniq('Ger'), stores: ['german'] });
    assertError(await t.req('GET', `${API}/blog-categories/${ger.id}`), 404, 'not_found');
    assert.equal((await t.req('GET', `${API}/blog-categories/${ger.id}`, { query: { store: 'german' } })).status, 200);
  });

  test('move re-computes the subtree; own subtree or unknown parent → 400; delete removes descendants', async () => {
    const a = await category({ name: uniq('A') });
    const b = await category({ name: uniq('B'), parentId: a.id });
    const c = await category({ name: uniq('C'), parentId: b.id });
    const other = await category({ name: uniq('Other') });
    for (const parentId of [b.id, c.id, a.id, 999999]) {
      assertError(await t.req('PUT', `${API}/blog-categories/${a.id}`, { token: admin, body: { parentId } }), 400, 'bad_request');
    }
    const moved = await t.req('PUT', `${API}/blog-categories/${b.id}`, { token: catWriter, body: { parentId: other.id, name: 'Moved' } });
    assert.equal(moved.status, 200, moved.text);
    assert.equal(moved.body.path, `${other.id}/${b.id}`);
    assert.equal(moved.body.name, 'Moved');
    const cc = (await t.req('GET', `${API}/blog-categories/${c.id}`, { token: admin })).body;
    assert.equal(cc.path, `${other.id}/${b.id}/${c.id}`);
    assert.equal(cc.level, 3);
    const top = await t.req('PUT', `${API}/blog-categories/${b.id}`, { token: admin, body: { parentId: null } });
    assert.equal(top.body.level, 1);
    assert.equal(top.body.path, String(b.id));
    assert.equal((await t.req('GET', `${API}/blog-categories/${c.id}`, { token: admin })).body.path, `${b.id}/${c.id}`);
    // a post linked to a deleted category loses the link
    const p = await post({ title: uniq('Linked'), categoryIds: [c.id, other.id] });
    const r = await t.req('DELETE', `${API}/blog-categories/${b.id}`, { token: catWriter });
    assert.equal(r.status, 204, r.text);
    const ids = (await allCategories()).map((x) => x.id);
    assert.ok(!ids.includes(b.id) && !ids.includes(c.id) && ids.includes(a.id) && ids.includes(other.id));
    assert.deepEqual((await t.req('GET', `${API}/blog-posts/${p.id}`, { token: admin })).body.categoryIds, [other.id]);
    assertError(await t.req('DELETE', `${API}/blog-categories/${b.id}`, { token: admin }), 404, 'not_found');
  });

  test('bad input 400; access matrix', async () => {
    const before = (await allCategories()).length;
    for (const body of [
      {},
      { name: ' ' },
      { name: 'x', urlKey: 'Bad Key' },
      { name: 'x', parentId: 999999 },
      { name: 'x', stores: [999] },
      { name: 'x', position: 'first' },
    ]) {
      assertError(await t.req('POST', `${API}/blog-categories`, { token: admin, body }), 400, 'bad_request');
    }
    assert.equal((await allCategories()).length, before);
    const body = { name: uniq('Acl') };
    assertError(await t.req('POST', `${API}/blog-categories`, { body }), 401, 'unauthorized');
    assertError(await t.req('POST', `${API}/blog-categories`, { token: customer, body }), 403, 'forbidden');
    assertError(await t.req('POST', `${API}/blog-categories`, { token: writer, body }), 403, 'forbidden');
    assertError(await t.req('POST', `${API}/blog-categories`, { token: reader, body }), 403, 'forbidden');
    const c = await category(body, catWriter);
    assertError(await t.req('PUT', `${API}/blog-categories/${c.id}`, { token: writer, body: { name: 'x' } }), 403, 'forbidden');
    assertError(await t.req('DELETE', `${API}/blog-categories/${c.id}`, { token: deleter }), 403, 'forbidden');
    assertError(await t.req('DELETE', `${API}/blog-categories/${c.id}`), 401, 'unauthorized');
    assertError(await t.req('PUT', `${API}/blog-categories/999999`, { token: admin, body: { name: 'x' } }), 404, 'not_found');
  });
});
