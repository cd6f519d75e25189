/** The moderation queue's search, store view filter and sorts (the back office's reviews grid), over HTTP. */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { API, buildTestApp, type TestApp } from '../../../test/helpers.js';
import { createTestProduct } from '../../../test/fixtures/catalog.js';
import { countStatements } from '../../platform/db.js';

let t: TestApp;
let admin: string;
const ids: number[] = [];

before(async () => {
  t = await buildTestApp();
  admin = await t.tokens.admin();
  const p = await createTestProduct(t);
  for (const [title, nickname] of [
    ['Zesty colours', 'anna'],
    ['Mild and quiet', 'Bert'],
    ['Quiet zipper', 'carla'],
  ]) {
    const r = await t.req('POST', `${API}/products/${p.id}/reviews`, {
      token: admin,
      body: { title, detail: 'Worth it', nickname, rating: 4 },
    });
    assert.equal(r.status, 201, r.text);
    ids.push(r.body.id);
  }
  const german = await t.req('PUT', `${API}/reviews/${ids[2]}`, { token: admin, body: { stores: ['german'], status: 'approved' } });
  assert.equal(german.status, 200, german.text);
});
after(() => t.close());

const list = async (query: Record<string, string>) => {
  const r = await t.req('GET', `${API}/reviews`, { token: admin, query });
  assert.equal(r.status, 200, r.text);
  return r.body.member.map((x: { id: number }) => x.id);
};

describe('the moderation queue', () => {
  test('search finds title, text or nickname, case-insensitively', async () => {
    assert.deepEqual(await list({ search: 'QUIET', sortBy: 'title', sortDir: 'asc' }), [ids[1], ids[2]]);
    assert.deepEqual(await list({ search: 'bert' }), [ids[1]]);
    assert.deepEqual(await list({ search: '100%_' }), []);
  });

  test('filters by the store view a review shows in', async () => {
    const german = await t.req('GET', `${API}/stores`, { token: admin });
    const id = (german.body.member ?? german.body).find((s: { code: string }) => s.code === 'german').id;
    assert.deepEqual(await list({ storeId: String(id) }), [ids[2]]);
  });

  test('sorts by title, nickname and status, both ways', async () => {
    const mine = (l: number[]) => l.filter((id) => ids.includes(id));
    assert.deepEqual(mine(await list({ sortBy: 'title', sortDir: 'asc' })), [ids[1], ids[2], ids[0]]);
    assert.deepEqual(mine(await list({ sortBy: 'nickname', sortDir: 'desc' })), [ids[2], ids[1], ids[0]]);
    assert.equal(mine(await list({ sortBy: 'status', sortDir: 'asc' }))[0], ids[2], 'approved first');
    assert.deepEqual(mine(await list({})), [...ids].reverse(), 'newest first by default');
  });

  test('bad sort values are a 400', async () => {
    for (const q of [{ sortBy: 'rating' }, { sortDir: 'up' }, { storeId: 'x' }] as Record<string, string>[]) {
      const r = await t.req('GET', `${API}/reviews`, { token: admin, query: q });
      assert.equal(r.status, 400, r.text);
    }
  });

  test('a searched page costs the same statements for one review or three', async () => {
    const one = await countStatements(() => list({ search: 'i', itemsPerPage: '1' }));
    const three = await countStatements(() => list({ search: 'i', itemsPerPage: '3' }));
    assert.equal(one.n, three.n);
  });
});
