/** What the back office's grids of CMS pages and blocks ask of the lists: sorting, the active and store-view filters. */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { API, buildTestApp, type TestApp } from '../../../test/helpers.js';

let t: TestApp;
let admin: string;
let german: number;
let n = 0;
const tag = `grid${Date.now().toString(36)}`;
const JSON_ONLY = { accept: 'application/json' };

before(async () => {
  t = await buildTestApp();
  admin = await t.tokens.admin();
  const stores = await t.req('GET', `${API}/stores`, { token: admin, headers: JSON_ONLY });
  german = stores.body.find((s: { code: string }) => s.code === 'german').id;
});
after(() => t.close());

for (const kind of ['cms-pages', 'cms-blocks'] as const) {
  describe(`GET /${kind} for a grid`, () => {
    const made: Record<string, { id: number; identifier: string }> = {};

    async function create(key: string, body: Record<string, unknown>) {
      const r = await t.req('POST', `${API}/${kind}`, {
        token: admin,
        body: { identifier: `${tag}-${key}-${++n}`, content: tag, ...body },
      });
      assert.equal(r.status, 201, r.text);
      made[key] = r.body;
    }

    async function ids(query: Record<string, string>): Promise<number[]> {
      const r = await t.req('GET', `${API}/${kind}`, {
        token: admin,
        query: { scope: 'all', search: tag, itemsPerPage: '100', ...query },
        headers: JSON_ONLY,
      });
      assert.equal(r.status, 200, r.text);
      return r.body.map((x: { id: number }) => x.id);
    }

    before(async () => {
      await create('b', { title: 'Bravo' });
      await create('a', { title: 'Alpha', isActive: false, stores: ['german'] });
      await create('c', { title: 'Charlie', stores: ['default'] });
    });

    test('sorted by title (the default), descending, by identifier and by creation', async () => {
      const { a, b, c } = made;
      assert.deepEqual(await ids({}), [a.id, b.id, c.id]);
      assert.deepEqual(await ids({ sortBy: 'title', sortDir: 'desc' }), [c.id, b.id, a.id]);
      // identifiers: <tag>-a-2, <tag>-b-1, <tag>-c-3
      assert.deepEqual(await ids({ sortBy: 'identifier', sortDir: 'desc' }), [c.id, b.id, a.id]);
      assert.deepEqual(await ids({ sortBy: 'id', sortDir: 'DESC' }), [c.id, a.id, b.id]);
      assert.deepEqual(await ids({ sortBy: 'isActive' }), [a.id, b.id, c.id]);
    });

    test('filtered by active and by store view (0: the content of every store view)', async () => {
      const { a, b, c } = made;
      assert.deepEqual(await ids({ isActive: 'false' }), [a.id]);
      assert.deepEqual(await ids({ isActive: 'true' }), [b.id, c.id]);
      assert.deepEqual(await ids({ storeId: String(german) }), [a.id, b.id]);
      assert.deepEqual(await ids({ storeId: '1' }), [b.id, c.id]);
      assert.deepEqual(await ids({ storeId: '0' }), [b.id]);
      // without scope=all the list is the current store view's: the filter narrows it further
      const here = await t.req('GET', `${API}/${kind}`, {
        token: admin,
        query: { search: tag, storeId: String(german) },
        headers: JSON_ONLY,
      });
      assert.deepEqual(
        here.body.map((x: { id: number }) => x.id),
        [b.id],
      );
    });

    test('a public caller still sees only active content, whatever it asks', async () => {
      const r = await t.req('GET', `${API}/${kind}`, { query: { search: tag, isActive: 'false' }, headers: JSON_ONLY });
      assert.equal(r.status, 200, r.text);
      assert.deepEqual(r.body, []);
    });

    test('an unknown sort field or direction, or a bad filter value, is a 400', async () => {
      for (const query of [{ sortBy: 'content' }, { sortDir: 'up' }, { isActive: 'maybe' }, { storeId: '-1' }, { storeId: 'x' }] as Record<
        string,
        string
      >[]) {
        const r = await t.req('GET', `${API}/${kind}`, { token: admin, query });
        assert.equal(r.status, 400, `${JSON.stringify(query)}: ${r.text}`);
        assert.equal(r.body.error, 'bad_request');
      }
    });
  });
}
