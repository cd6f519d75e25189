/**
 * `blog_post` of Maho's Magento 1 API: a content tool's round trip with Python's xmlrpc.client, and every method and
 * fault over JSON-RPC (Maho declares no faults for the resource: each is code 0 with its reason), filters, store
 * views by id or code, the role's permissions and a store-limited API user.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { API, type TestApp } from '../../../test/helpers.js';
import { LegacyClient, runScenario, skipWithout } from '../../../test/fixtures/legacy-api.js';
import { newApiUser, newWebsite, startSoapApp } from '../../../test/fixtures/soap.js';
import { countStatements } from '../../platform/db.js';
import { storeZone, today } from '../../platform/report-period.js';

let t: TestApp;
let base: string;
let admin: string;
let german: number;
const api = new LegacyClient(() => base);
const { rpc, sessionOf, ok, fault } = api;

const NOT_EXISTS: [number, string] = [0, 'Post not exists.'];
const DENIED: [number, string] = [2, 'Access denied.'];
let seq = 0;
const key = (name: string) => `soap-${name}-${++seq}-${Date.now().toString(36)}`;
const rest = async (id: number | string) => t.req('GET', `${API}/blog-posts/${id}`, { token: admin });
/** The posts of this file (their URL keys start with "soap-"), by id. */
const ours = async (filters: Record<string, unknown> = {}, s = api.session) =>
  (await ok('blog_post.list', [{ url_key: { like: 'soap-%' }, ...filters }], s)).map((p: any) => p.post_id);

before(async () => {
  ({ t, base } = await startSoapApp());
  admin = await t.tokens.admin();
  api.session = await sessionOf();
  german = t.services.settings.storeByCode('german')!.id;
});
after(() => t?.close());

describe('a content tool with Python xmlrpc.client', { skip: skipWithout('python') }, () => {
  test('creates, reads, finds, updates, deletes a post; a missing title is fault 0', async () => {
    const r = await runScenario('python', 'blog_scenario.py', base, { RPC_STORES: 'default,german' });
    const id = r.create.ok;
    assert.match(String(id), /^\d+$/);
    assert.deepEqual(r.info.ok.stores, ['1', String(german)]);
    assert.deepEqual([r.info.ok.title, r.info.ok.is_active, r.info.ok.publish_date], ['Spring Collection', '0', '2025-03-01']);
    assert.deepEqual(
      r.byUrlKey.ok.map((p: any) => p.post_id),
      [String(id)],
    );
    assert.deepEqual(
      r.byStore.ok.map((p: any) => p.post_id),
      [String(id)],
    );
    assert.equal(r.update.ok, true);
    assert.deepEqual(
      r.active.ok.map((p: any) => [p.title, p.is_active, p.publish_date]),
      [['Spring Collection 2025', '1', today(storeZone({ app: t.services }, 1), new Date())]],
    );
    assert.deepEqual(r.missingTitle.fault, [0, 'Title is required.']);
    assert.equal(r.delete.ok, true);
    assert.deepEqual(r.deleted.fault, NOT_EXISTS);
    assert.equal((await rest(id)).status, 404);
  });
});

describe('blog_post over JSON-RPC', () => {
  test('create and info: Maho fields in order; inactive and published today by default; stores by id or code', async () => {
    const urlKey = key('first');
    const id = await ok('blog_post.create', [
      { title: 'First', content: '<p>Body</p>', url_key: urlKey, meta_title: 'MT', meta_keywords: 'k', meta_robots: 'NOINDEX', x: 1 },
    ]);
    const info = await ok('blog_post.info', [id]);
    assert.deepEqual(Object.keys(info), [
      'post_id',
      'title',
      'content',
      'url_key',
      'image',
      'is_active',
      'publish_date',
      'meta_title',
      'meta_keywords',
      'meta_description',
      'meta_robots',
      'created_at',
      'updated_at',
      'stores',
    ]);
    assert.deepEqual(
      { ...info, created_at: undefined, updated_at: undefined },
      {
        post_id: String(id),
        title: 'First',
        content: '<p>Body</p>',
        url_key: urlKey,
        image: null,
        is_active: '0',
        publish_date: today(storeZone({ app: t.services }, 1), new Date()),
        meta_title: 'MT',
        meta_keywords: 'k',
        meta_description: null,
        meta_robots: 'NOINDEX',
        created_at: undefined,
        updated_at: undefined,
        stores: ['0'],
      },
    );
    assert.match(info.created_at, /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/);
    const r = (await rest(id)).body;
    assert.deepEqual([r.title, r.isActive, r.urlKey, r.metaRobots], ['First', false, urlKey, 'NOINDEX']);
    // by name, active, in two store views (a code and an id), with a category and a publish time
    const news = (await t.req('GET', `${API}/blog-categories`, { token: admin })).body.member.find((c: any) => c.urlKey === 'news');
    const second = await ok('blog_post.create', {
      postData: {
        title: 'Second',
        content: 'Text',
        url_key: key('second'),
        is_active: '1',
        publish_date: '2025-02-03 10:30:00',
        stores: ['german', '1'],
        categories: [news.id],
        image: 'blog/second.jpg',
      },
    });
    const got = await ok('blog_post.info', { postId: second });
    assert.deepEqual(
      [got.is_active, got.publish_date, got.stores, got.image],
      ['1', '2025-02-03 10:30:00', ['1', String(german)], 'blog/second.jpg'],
    );
    assert.deepEqual((await rest(second)).body.categoryIds, [news.id]);
    assert.equal((await ok('blog_post.info', [String(second)])).post_id, String(second));
  });

  test('create faults (code 0 with the reason) create nothing', async () => {
    const before = await ours();
    const taken = key('taken');
    await ok('blog_post.create', [{ title: 'Taken', content: 'x', url_key: taken }]);
    const cases: [unknown, string | RegExp][] = [
      [{ content: 'no title' }, 'Title is required.'],
      [{ title: '', content: 'x' }, 'Title is required.'],
      [{ title: 'No content' }, 'Content is required.'],
      ['not a struct', 'Post data must be a struct.'],
      [{ title: { a: 1 }, content: 'x' }, 'Invalid value for title.'],
      [{ title: 'x'.repeat(256), content: 'x', url_key: key('long') }, /^title /],
      [{ title: 'Dup', content: 'x', url_key: taken }, /already exists/],
      [{ title: 'Bad key', content: 'x', url_key: 'Not A Key!' }, /urlKey/],
      [{ title: 'Store', content: 'x', url_key: key('store'), stores: ['nowhere'] }, 'Unknown store: nowhere'],
      [{ title: 'Store', content: 'x', url_key: key('store'), stores: [999999] }, 'Unknown store: 999999'],
      [{ title: 'Store', content: 'x', url_key: key('store'), stores: [] }, /stores/],
      [{ title: 'Store', content: 'x', url_key: key('store'), stores: [{ a: 1 }] }, 'Invalid value for stores.'],
      [{ title: 'Date', content: 'x', url_key: key('date'), publish_date: 'soon' }, /publishDate/],
      [{ title: 'Cat', content: 'x', url_key: key('cat'), categories: [999999] }, /Unknown blog category/],
      [{ title: 'Cat', content: 'x', url_key: key('cat'), categories: ['x'] }, 'Invalid value for categories.'],
    ];
    for (const [data, message] of cases) {
      const [code, text] = await fault('blog_post.create', [data]);
      assert.equal(code, 0, JSON.stringify(data));
      if (typeof message === 'string') assert.equal(text, message);
      else assert.match(text, message);
    }
    assert.equal((await ours()).length, before.length + 1);
  });

  test('list: every post (inactive too) in id order; Magento filters in both forms; the store filter by id or code', async () => {
    const a = await ok('blog_post.create', [
      { title: 'Alpha Filter', content: 'x', url_key: key('alpha'), is_active: 1, stores: [german] },
    ]);
    const b = await ok('blog_post.create', [{ title: 'Beta Filter', content: 'x', url_key: key('beta'), stores: ['default'] }]);
    const c = await ok('blog_post.create', [{ title: 'Gamma Filter', content: 'x', url_key: key('gamma'), is_active: true }]);
    const all = await ok('blog_post.list', []);
    assert.ok(
      all.some((p: any) => p.url_key === 'welcome-to-our-blog'),
      'the demo post',
    );
    const ids = all.map((p: any) => Number(p.post_id));
    assert.deepEqual(
      ids,
      [...ids].sort((x, y) => x - y),
    );
    assert.deepEqual(await ours({ title: { like: '% Filter' } }), [a, b, c].map(String));
    assert.deepEqual(await ours({ title: { like: '% Filter' }, is_active: 1 }), [a, c].map(String));
    assert.deepEqual(await ours({ title: { like: '% Filter' }, is_active: '0' }), [String(b)]);
    assert.deepEqual(await ours({ post_id: { in: [a, c] } }), [a, c].map(String));
    assert.deepEqual(await ours({ entity_id: { gt: b }, title: { like: '% Filter' } }), [String(c)]);
    assert.deepEqual(await ours({ store: 'german', title: { like: '% Filter' } }), [String(a)]);
    assert.deepEqual(await ours({ store: { in: [german, 'default'] }, title: { like: '% Filter' } }), [a, b].map(String));
    assert.deepEqual(await ours({ store: 0, title: { like: '% Filter' } }), [String(c)]);
    assert.deepEqual(await ours({ created_at: { from: '2000-01-01' }, title: { like: 'Gamma%' } }), [String(c)]);
    assert.deepEqual(await ours({ created_at: { to: '2000-01-01' } }), []);
    // V2's {filter, complex_filter}
    const v2 = await ok('blog_post.list', [
      {
        filter: [{ key: 'is_active', value: '1' }],
        complex_filter: [{ key: 'title', value: { key: 'like', value: '% Filter' } }],
      },
    ]);
    assert.deepEqual(
      v2.map((p: any) => p.post_id),
      [a, c].map(String),
    );
    assert.deepEqual(await fault('blog_post.list', [{ nope: 1 }]), [0, 'Unknown filter field: nope']);
    assert.deepEqual(await fault('blog_post.list', [{ title: { between: 1 } }]), [0, 'Unknown filter operator: between']);
    assert.deepEqual(await fault('blog_post.list', [{ store: 'nowhere' }]), [0, 'Unknown store: nowhere']);
    assert.deepEqual(await fault('blog_post.list', [{ created_at: { from: 'yesterday-ish' } }]), [0, 'Not a date: yesterday-ish']);
    assert.deepEqual(await fault('blog_post.list', ['x']), [0, 'Filters must be a map of fields']);
  });

  test('list reads a fixed number of statements whatever its length', async () => {
    const statements = async (filters: unknown) => {
      const { n, result } = await countStatements(() =>
        t.req('POST', '/api/jsonrpc/', {
          body: { jsonrpc: '2.0', method: 'call', params: [api.session, 'blog_post.list', [filters]], id: 1 },
        }),
      );
      assert.equal(result.status, 200);
      return { n, length: result.body.result.length as number };
    };
    const one = await statements({ url_key: 'welcome-to-our-blog' });
    const many = await statements({});
    assert.equal(one.length, 1);
    assert.ok(many.length > 5, String(many.length));
    assert.equal(many.n, one.n);
  });

  test('update: the fields sent; an empty url_key comes from the title, an empty publish_date is today', async () => {
    const id = await ok('blog_post.create', [
      { title: 'Before', content: 'x', url_key: key('upd'), is_active: 1, publish_date: '2024-01-01' },
    ]);
    assert.equal(await ok('blog_post.update', [id, { title: 'After Update', meta_description: 'Desc', stores: ['german'] }]), true);
    let info = await ok('blog_post.info', [id]);
    assert.deepEqual(
      [info.title, info.meta_description, info.is_active, info.publish_date, info.stores],
      ['After Update', 'Desc', '1', '2024-01-01', [String(german)]],
    );
    assert.equal(
      await ok('blog_post.update', { postId: id, postData: { url_key: '', publish_date: '', is_active: 0, meta_description: null } }),
      true,
    );
    info = await ok('blog_post.info', [id]);
    assert.deepEqual(
      [info.url_key, info.publish_date, info.is_active, info.meta_description],
      ['after-update', today(storeZone({ app: t.services }, 1), new Date()), '0', null],
    );
    assert.equal((await rest(id)).body.urlKey, 'after-update');
    assert.equal(await ok('blog_post.update', [id, {}]), true);
  });

  test('update faults: unknown post, bad data; nothing changes', async () => {
    const id = await ok('blog_post.create', [{ title: 'Stays', content: 'x', url_key: key('stays') }]);
    const other = key('other');
    await ok('blog_post.create', [{ title: 'Other', content: 'x', url_key: other }]);
    const before = await ok('blog_post.info', [id]);
    for (const bad of [999999, 'x', null, { id }]) assert.deepEqual(await fault('blog_post.update', [bad, { title: 'x' }]), NOT_EXISTS);
    for (const [data, message] of [
      [{ title: '' }, /title is required/],
      [{ title: null }, /title is required/],
      [{ url_key: other }, /already exists/],
      [{ stores: ['nowhere'] }, /Unknown store: nowhere/],
      [{ publish_date: '2024-13-45' }, /publishDate/],
      [{ meta_robots: 'x'.repeat(40) }, /^meta_robots /],
      ['nope', /Post data must be a struct/],
    ] as const) {
      const [code, text] = await fault('blog_post.update', [id, data]);
      assert.equal(code, 0);
      assert.match(text, message);
    }
    assert.deepEqual(await ok('blog_post.info', [id]), before);
  });

  test('delete: true, then the post is gone (info and delete: not exists)', async () => {
    const id = await ok('blog_post.create', [{ title: 'Gone Soon', content: 'x', url_key: key('gone') }]);
    assert.equal(await ok('blog_post.delete', [id]), true);
    assert.deepEqual(await fault('blog_post.info', [id]), NOT_EXISTS);
    assert.deepEqual(await fault('blog_post.delete', [id]), NOT_EXISTS);
    assert.deepEqual(await fault('blog_post.delete', ['abc']), NOT_EXISTS);
    assert.deepEqual(await fault('blog_post.info', [null]), NOT_EXISTS);
    assert.equal((await rest(id)).status, 404);
  });

  test('resources and resourceFaults: titles and methods; the global faults, as Maho declares none', async () => {
    const r = (await rpc('resources', [api.session])).result.find((x: any) => x.name === 'blog_post');
    assert.equal(r.title, 'Blog Post API');
    assert.deepEqual(
      r.methods.map((m: any) => [m.name, m.title]),
      [
        ['list', 'Get post list'],
        ['info', 'Get post info'],
        ['create', 'Create new post'],
        ['update', 'Update post'],
        ['delete', 'Delete post'],
      ],
    );
    const faults = (await rpc('resourceFaults', [api.session, 'blog_post'])).result;
    assert.deepEqual(
      faults.map((f: any) => f.code),
      ['0', '1', '2', '3', '4', '5', '6'],
    );
  });

  test('permissions: read lists and reads only; write creates and updates; delete is its own; none is fault 2', async () => {
    const id = await ok('blog_post.create', [{ title: 'Guarded', content: 'x', url_key: key('guarded') }]);
    const reader = await newApiUser(t, ['blog-posts/read']);
    const r = await sessionOf(reader);
    assert.ok((await ok('blog_post.list', [], r)).length > 0);
    assert.equal((await ok('blog_post.info', [id], r)).title, 'Guarded');
    assert.deepEqual(await fault('blog_post.create', [{ title: 'x', content: 'x' }], r), DENIED);
    assert.deepEqual(await fault('blog_post.update', [id, { title: 'x' }], r), DENIED);
    assert.deepEqual(await fault('blog_post.delete', [id], r), DENIED);
    const writer = await newApiUser(t, ['blog-posts/write']);
    const w = await sessionOf(writer);
    assert.match(String(await ok('blog_post.create', [{ title: 'By Writer', content: 'x', url_key: key('writer') }], w)), /^\d+$/);
    assert.equal(await ok('blog_post.update', [id, { title: 'Guarded Too' }], w), true);
    assert.deepEqual(await fault('blog_post.delete', [id], w), DENIED);
    assert.deepEqual(await fault('blog_post.list', [], w), DENIED);
    const other = await newApiUser(t, ['cms-pages/all', 'blog-categories/all']);
    const o = await sessionOf(other);
    for (const [p, args] of [
      ['blog_post.list', []],
      ['blog_post.info', [id]],
      ['blog_post.create', [{ title: 'x', content: 'x' }]],
      ['blog_post.update', [id, {}]],
      ['blog_post.delete', [id]],
    ] as const) {
      assert.deepEqual(await fault(p, args, o), DENIED, p);
    }
    assert.deepEqual((await rpc('resourceFaults', [o, 'blog_post'])).error, { code: 2, message: 'Access denied.' });
    assert.equal((await ok('blog_post.info', [id])).title, 'Guarded Too');
  });

  test('a store-limited API user reaches the posts of its store views and of all; writes only its own', async () => {
    const second = await newWebsite(t, 'blogweb');
    const mine = await ok('blog_post.create', [{ title: 'Mine', content: 'x', url_key: key('mine'), stores: ['blogweb'] }]);
    const theirs = await ok('blog_post.create', [{ title: 'Theirs', content: 'x', url_key: key('theirs'), stores: ['german'] }]);
    const shared = await ok('blog_post.create', [{ title: 'Shared', content: 'x', url_key: key('shared') }]);
    const s = await sessionOf(await newApiUser(t, ['blog-posts/all'], [second.storeId]), { 'x-store-code': 'blogweb' });
    const seen = await ours({ post_id: { in: [mine, theirs, shared] } }, s);
    assert.deepEqual(seen, [mine, shared].map(String));
    assert.deepEqual(await ours({ store: 'german' }, s), []);
    assert.equal((await ok('blog_post.info', [mine], s)).title, 'Mine');
    assert.deepEqual(await fault('blog_post.info', [theirs], s), NOT_EXISTS);
    assert.deepEqual(await fault('blog_post.update', [theirs, { title: 'x' }], s), NOT_EXISTS);
    assert.deepEqual(await fault('blog_post.delete', [theirs], s), NOT_EXISTS);
    // a post of every store view it may read, not change
    assert.deepEqual(await fault('blog_post.update', [shared, { title: 'x' }], s), DENIED);
    assert.deepEqual(await fault('blog_post.delete', [shared], s), DENIED);
    assert.deepEqual(await fault('blog_post.create', [{ title: 'Everywhere', content: 'x', url_key: key('everywhere') }], s), DENIED);
    assert.deepEqual(
      await fault('blog_post.create', [{ title: 'There', content: 'x', url_key: key('there'), stores: ['german'] }], s),
      DENIED,
    );
    assert.equal(await ok('blog_post.update', [mine, { title: 'Mine Too' }], s), true);
    const made = await ok('blog_post.create', [{ title: 'Here', content: 'x', url_key: key('here'), stores: ['blogweb'] }], s);
    assert.equal(await ok('blog_post.delete', [made], s), true);
    assert.deepEqual(
      [
        (await ok('blog_post.info', [theirs])).title,
        (await ok('blog_post.info', [shared])).title,
        (await ok('blog_post.info', [mine])).title,
      ],
      ['Theirs', 'Shared', 'Mine Too'],
    );
  });
});
