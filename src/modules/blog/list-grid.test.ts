/** What the back office's grids of blog posts and categories ask of the lists: sorting, search, active and store-view filters. */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { API, buildTestApp, type TestApp } from '../../../test/helpers.js';

let t: TestApp;
let admin: string;
let german: number;
const tag = `bg${Date.now().toString(36)}`;
const JSON_ONLY = { accept: 'application/json' };

before(async () => {
  t = await buildTestApp();
  admin = await t.tokens.admin();
  const stores = await t.req('GET', `${API}/stores`, { token: admin, headers: JSON_ONLY });
  german = stores.body.find((s: { code: string }) => s.code === 'german').id;
});
after(() => t.close());

async function create(path: string, body: Record<string, unknown>): Promise<{ id: number }> {
  const r = await t.req('POST', `${API}${path}`, { token: admin, body });
  assert.equal(r.status, 201, r.text);
  return r.body;
}

async function ids(path: string, query: Record<string, string>, token: string | undefined = admin): Promise<number[]> {
  const r = await t.req('GET', `${API}${path}`, { token, query: { itemsPerPage: '100', ...query }, headers: JSON_ONLY });
  assert.equal(r.status, 200, r.text);
  return r.body.map((x: { id: number }) => x.id);
}

describe('GET /blog-posts for a grid', () => {
  let a: { id: number }, b: { id: number }, c: { id: number };
  const all = (q: Record<string, string> = {}) => ids('/blog-posts', { scope: 'all', search: tag, ...q });

  before(async () => {
    a = await create('/blog-posts', { title: `Alpha ${tag}`, publishDate: '2024-03-01', isActive: false, stores: ['german'] });
    b = await create('/blog-posts', { title: `Bravo ${tag}`, publishDate: '2024-01-01' });
    c = await create('/blog-posts', { title: `Charlie ${tag}`, stores: ['default'] });
  });

  test('newest publish date first by default (no date last); by title, URL key, creation either way', async () => {
    assert.deepEqual(await all(), [a.id, b.id, c.id]);
    assert.deepEqual(await all({ sortBy: 'publishDate' }), [b.id, a.id, c.id]);
    assert.deepEqual(await all({ sortBy: 'title' }), [a.id, b.id, c.id]);
    assert.deepEqual(await all({ sortBy: 'title', sortDir: 'desc' }), [c.id, b.id, a.id]);
    assert.deepEqual(await all({ sortBy: 'urlKey', sortDir: 'desc' }), [c.id, b.id, a.id]);
    assert.deepEqual(await all({ sortBy: 'createdAt' }), [a.id, b.id, c.id]);
  });

  test('filtered by active and by store view', async () => {
    assert.deepEqual(await all({ isActive: 'false' }), [a.id]);
    assert.deepEqual(await all({ isActive: 'true', sortBy: 'title' }), [b.id, c.id]);
    assert.deepEqual(await all({ storeId: String(german), sortBy: 'title' }), [a.id, b.id]);
    assert.deepEqual(await all({ storeId: '0' }), [b.id]);
  });

  test('a public caller sees only published posts, whatever it asks; bad values are a 400', async () => {
    assert.deepEqual(await ids('/blog-posts', { search: tag, isActive: 'false' }, undefined), []);
    for (const query of [{ sortBy: 'content' }, { sortDir: 'sideways' }, { isActive: 'perhaps' }, { storeId: '-2' }] as Record<
      string,
      string
    >[]) {
      const r = await t.req('GET', `${API}/blog-posts`, { token: admin, query });
      assert.equal(r.status, 400, `${JSON.stringify(query)}: ${r.text}`);
    }
  });
});

describe('GET /blog-categories for a grid', () => {
  let a: { id: number }, b: { id: number }, c: { id: number };
  const all = (q: Record<string, string> = {}) => ids('/blog-categories', { scope: 'all', search: tag, ...q });

  before(async () => {
    a = await create('/blog-categories', { name: `Alpha ${tag}`, position: 3, isActive: false, stores: ['german'] });
    b = await create('/blog-categories', { name: `Bravo ${tag}`, position: 1 });
    c = await create('/blog-categories', { name: `Charlie ${tag}`, position: 2, stores: ['default'], parentId: b.id });
  });

  test('search in name and URL key (at least 3 characters)', async () => {
    assert.deepEqual(await all(), [b.id, c.id, a.id]);
    assert.deepEqual(await ids('/blog-categories', { scope: 'all', search: `charlie-${tag}` }), [c.id]);
    const short = await t.req('GET', `${API}/blog-categories`, { token: admin, query: { search: 'ab' } });
    assert.equal(short.status, 400, short.text);
    assert.equal(short.body.error, 'bad_request');
  });

  test('by position (the default), name, level, either way', async () => {
    assert.deepEqual(await all({ sortBy: 'position', sortDir: 'desc' }), [a.id, c.id, b.id]);
    assert.deepEqual(await all({ sortBy: 'name' }), [a.id, b.id, c.id]);
    assert.deepEqual(await all({ sortBy: 'name', sortDir: 'desc' }), [c.id, b.id, a.id]);
    // ties go by id in the same direction
    assert.deepEqual(await all({ sortBy: 'level', sortDir: 'desc' }), [c.id, b.id, a.id]);
  });

  test('filtered by active, store view and parent; a public caller sees only active ones', async () => {
    assert.deepEqual(await all({ isActive: 'false' }), [a.id]);
    assert.deepEqual(await all({ storeId: String(german), sortBy: 'name' }), [a.id, b.id]);
    assert.deepEqual(await all({ storeId: '0' }), [b.id]);
    assert.deepEqual(await all({ parentId: String(b.id) }), [c.id]);
    assert.deepEqual(await ids('/blog-categories', { search: tag, isActive: 'false' }, undefined), []);
    const bad = await t.req('GET', `${API}/blog-categories`, { token: admin, query: { sortBy: 'path' } });
    assert.equal(bad.status, 400, bad.text);
  });
});
