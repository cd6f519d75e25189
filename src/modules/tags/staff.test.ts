/**
 * Product tags over HTTP, the back office's side: every tag with its status and figures of a store view, create
 * (taking over a pending tag of the same name), rename, moderate, base popularity, assign to and unassign from
 * products, delete; the permission `tags` (read, write, create, delete) and a token limited to another store view,
 * which sees and changes only its own store view's uses.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { sql } from 'drizzle-orm';
import { rows } from '../../platform/db.js';
import { createWebsite } from '../stores/service.js';
import { createTestProduct } from '../../../test/fixtures/catalog.js';
import { API, buildTestApp, type Res, type TestApp } from '../../../test/helpers.js';

let t: TestApp;
let admin: string;
let ann: string;
let p1: number;
let p2: number;
let storeB: number;
const B = 'tags_b';

const req = (method: string, path: string, token?: string, body?: unknown) => t.req(method, `${API}${path}`, { token, body });

function ok(r: Res, status = 200): any {
  assert.equal(r.status, status, `${r.status} ${r.text.slice(0, 400)}`);
  return r.body;
}

function refused(r: Res, status: number, message?: RegExp): void {
  assert.equal(r.status, status, `${r.status} ${r.text.slice(0, 400)}`);
  assert.equal(typeof r.body?.error, 'string', r.text);
  if (message) assert.match(r.body.message, message);
}

/** A tag as the admin reads it (figures of every store view). */
const read = async (id: number, query = '') => ok(await req('GET', `/tags/${id}${query}`, admin));
const create = async (body: Record<string, unknown>, token = admin) => ok(await req('POST', '/tags', token, body), 201);

before(async () => {
  t = await buildTestApp();
  admin = await t.tokens.admin();
  ann = await t.tokens.customer();
  p1 = (await createTestProduct(t)).id;
  p2 = (await createTestProduct(t)).id;
  const site = await createWebsite(t.database.db, t.services.settings, {
    code: 'tags_web',
    name: 'Tags B',
    storeCode: B,
    storeName: 'Tags B',
  });
  storeB = site.storeId;
});
after(() => t?.close());

describe('staff manage tags', () => {
  test('create: approved by default, with a base popularity and products in a store view', async () => {
    const tag = await create({ name: ' gift ', basePopularity: 5, storeId: 1, productIds: [p1, p1, p2] });
    assert.deepEqual(
      { ...tag, id: 0 },
      {
        id: 0,
        name: 'gift',
        status: 'approved',
        popularity: 5,
        productCount: 2,
        customerCount: 0,
        basePopularity: 5,
        storeId: 1,
        stores: [1],
        firstStoreId: 1,
      },
    );
    // staff uses count as products, not as popularity; every store view's figures leave the base out
    const all = await read(tag.id);
    assert.deepEqual([all.popularity, all.productCount, all.storeId, all.basePopularity], [0, 2, 0, undefined]);
    // shown on the storefront of that store view
    const shown = ok(await req('GET', `/products/${p1}/tags`)).member;
    assert.deepEqual(shown, [{ id: tag.id, name: 'gift', status: 'approved', popularity: 5, productCount: 2 }]);
    refused(await req('POST', '/tags', admin, { name: 'GIFT' }), 409, /exists/);
  });

  test('an approved tag takes over a pending tag of the same name', async () => {
    const made = ok(await req('POST', `/products/${p1}/tags`, ann, { tags: 'pendingname' }), 201).tags[0];
    assert.equal(made.status, 'pending');
    refused(await req('POST', '/tags', admin, { name: 'PendingName', status: 'pending' }), 409);
    const tag = await create({ name: 'PendingName' });
    assert.deepEqual(
      [tag.id, tag.name, tag.status, tag.storeId, tag.firstCustomerId],
      [made.id, 'pendingname', 'approved', 0, tag.firstCustomerId],
    );
    assert.ok(tag.firstCustomerId > 0);
  });

  test('list: every status, filtered, sorted, with the figures of a store view', async () => {
    const pending = await create({ name: 'zz-pending', status: 'pending', storeId: 1, productIds: [p2] });
    const disabled = await create({ name: 'zz-disabled', status: 'disabled' });
    const all = ok(await req('GET', '/tags?search=zz-&sortBy=name', admin));
    assert.deepEqual(
      all.member.map((x: any) => [x.name, x.status]),
      [
        ['zz-disabled', 'disabled'],
        ['zz-pending', 'pending'],
      ],
    );
    assert.deepEqual(
      ok(await req('GET', '/tags?status=disabled&search=zz-', admin)).member.map((x: any) => x.id),
      [disabled.id],
    );
    assert.deepEqual(
      ok(await req('GET', `/tags?productId=${p2}&search=zz-`, admin)).member.map((x: any) => x.id),
      [pending.id],
    );
    const desc = ok(await req('GET', '/tags?search=zz-&sortBy=id&sortDir=desc', admin)).member.map((x: any) => x.id);
    assert.deepEqual(desc, [disabled.id, pending.id]);
    const inStore = ok(await req('GET', '/tags?search=zz-pending&storeId=1', admin)).member[0];
    assert.deepEqual([inStore.storeId, inStore.productCount, inStore.basePopularity], [1, 1, 0]);
    refused(await req('GET', '/tags?sortBy=nope', admin), 400);
    refused(await req('GET', '/tags?storeId=-1', admin), 400);
    refused(await req('GET', '/tags?status=gone', admin), 400);
    refused(await req('GET', '/tags?storeId=999999', admin), 400, /Unknown store/);
    refused(await req('GET', `/tags/${pending.id}?storeId=999999`, admin), 400, /Unknown store/);
    refused(await req('GET', `/tags/${pending.id}/products?storeId=999999`, admin), 400, /Unknown store/);
  });

  test('update: rename, moderate, base popularity of a store view; conflicts and bad input change nothing', async () => {
    const tag = await create({ name: 'renameme', storeId: 1, productIds: [p1] });
    const other = await create({ name: 'taken' });
    const renamed = ok(await req('PUT', `/tags/${tag.id}`, admin, { name: 'Renamed', status: 'disabled' }));
    assert.deepEqual([renamed.name, renamed.status], ['Renamed', 'disabled']);
    const based = ok(await req('PUT', `/tags/${tag.id}`, admin, { basePopularity: 7, storeId: 1 }));
    assert.deepEqual([based.popularity, based.basePopularity, based.storeId], [7, 7, 1]);
    const before = await read(tag.id);
    refused(await req('PUT', `/tags/${tag.id}`, admin, { name: 'TAKEN' }), 409);
    refused(await req('PUT', `/tags/${tag.id}`, admin, {}), 400, /Nothing to update/);
    refused(await req('PUT', `/tags/${tag.id}`, admin, { name: '   ' }), 400);
    refused(await req('PUT', `/tags/${tag.id}`, admin, { name: 'x'.repeat(256) }), 400);
    refused(await req('PUT', `/tags/${tag.id}`, admin, { status: 'gone' }), 400);
    refused(await req('PUT', `/tags/${tag.id}`, admin, { basePopularity: -1 }), 400);
    refused(await req('PUT', `/tags/${tag.id}`, admin, { basePopularity: 1, storeId: 999999 }), 400, /Unknown store/);
    refused(await req('PUT', `/tags/${tag.id}`, admin, { basePopularity: 1, storeId: 0 }), 400);
    refused(await req('PUT', '/tags/999999999', admin, { name: 'x' }), 404);
    assert.deepEqual(await read(tag.id), before);
    assert.equal((await read(other.id)).name, 'taken');
  });

  test('assign and unassign products in a store view; unassign removes customers’ uses too', async () => {
    const tag = await create({ name: 'assigned' });
    ok(await req('PUT', `/tags/${tag.id}`, admin, { status: 'pending' }));
    ok(await req('POST', `/products/${p2}/tags`, ann, { tags: 'assigned' }), 201);
    const added = ok(await req('PUT', `/tags/${tag.id}/products`, admin, { assign: [p1], storeId: 1 }));
    assert.deepEqual([added.productCount, added.customerCount, added.popularity], [2, 1, 1]);
    const products = ok(await req('GET', `/tags/${tag.id}/products?storeId=1`, admin));
    assert.deepEqual(products.member.map((x: any) => x.productId).sort(), [p1, p2].sort());
    const removed = ok(await req('PUT', `/tags/${tag.id}/products`, admin, { unassign: [p2] }));
    assert.deepEqual([removed.productCount, removed.customerCount, removed.popularity], [1, 0, 0]);
    const before = await read(tag.id);
    refused(await req('PUT', `/tags/${tag.id}/products`, admin, {}), 400, /Nothing to change/);
    refused(await req('PUT', `/tags/${tag.id}/products`, admin, { assign: [p1], unassign: [p1] }), 400);
    refused(await req('PUT', `/tags/${tag.id}/products`, admin, { assign: [999999999] }), 400, /Unknown product/);
    refused(await req('PUT', `/tags/${tag.id}/products`, admin, { assign: ['x'] }), 400);
    refused(await req('PUT', '/tags/999999999/products', admin, { assign: [p1] }), 404);
    assert.deepEqual(await read(tag.id), before);
  });

  test('delete: the tag and its uses', async () => {
    const tag = await create({ name: 'doomed', storeId: 1, productIds: [p1] });
    assert.equal((await req('DELETE', `/tags/${tag.id}`, admin)).status, 204);
    refused(await req('GET', `/tags/${tag.id}`, admin), 404);
    refused(await req('DELETE', `/tags/${tag.id}`, admin), 404);
    const [{ n }] = await rows<{ n: number }>(t.database.db, sql`SELECT count(*)::int AS n FROM tag_relations WHERE tag_id = ${tag.id}`);
    assert.equal(n, 0);
  });
});

describe('the permission tags', () => {
  test('anonymous 401, customers 403, a role without tags 403; read, write, create and delete apart', async () => {
    const tag = await create({ name: 'guarded', status: 'pending' });
    const writes: [string, string, unknown][] = [
      ['POST', '/tags', { name: 'nobody' }],
      ['PUT', `/tags/${tag.id}`, { name: 'nobody' }],
      ['PUT', `/tags/${tag.id}/products`, { assign: [p1] }],
      ['DELETE', `/tags/${tag.id}`, undefined],
    ];
    const other = await t.tokens.apiUser(['products/all', 'reviews/all']);
    for (const [method, path, body] of writes) {
      refused(await req(method, path, undefined, body), 401);
      refused(await req(method, path, ann, body), 403);
      refused(await req(method, path, other, body), 403);
    }
    // without tags/read the tag reads as the storefront's: a pending one is not there
    refused(await req('GET', `/tags/${tag.id}`, other), 404);
    const reader = await t.tokens.apiUser(['tags/read']);
    assert.equal(ok(await req('GET', `/tags/${tag.id}`, reader)).status, 'pending');
    for (const [method, path, body] of writes) refused(await req(method, path, reader, body), 403);
    const writer = await t.tokens.apiUser(['tags/read', 'tags/write']);
    ok(await req('PUT', `/tags/${tag.id}`, writer, { name: 'guarded-renamed' }));
    ok(await req('POST', '/tags', writer, { name: 'by-writer' }), 201);
    refused(await req('DELETE', `/tags/${tag.id}`, writer), 403);
    const deleter = await t.tokens.apiUser(['tags/delete']);
    assert.equal((await req('DELETE', `/tags/${tag.id}`, deleter)).status, 204);
  });
});

describe('a token limited to store view B', () => {
  let scoped: string;
  let onlyA: number;
  let shared: number;
  let onlyB: number;
  let productB: number;
  const asB = (method: string, path: string, body?: unknown) =>
    t.req(method, `${API}${path}${path.includes('?') ? '&' : '?'}store=${B}`, { token: scoped, body });

  before(async () => {
    scoped = await t.tokens.apiUser(['tags/all'], { allowedStoreIds: [storeB] });
    const site = t.services.settings.store(storeB)!;
    productB = (await createTestProduct(t, { websiteIds: [1, site.websiteId] })).id;
    onlyA = (await create({ name: 'only-a', storeId: 1, productIds: [p1] })).id;
    shared = (await create({ name: 'shared-ab', storeId: 1, productIds: [productB] })).id;
    ok(await req('PUT', `/tags/${shared}/products`, admin, { storeId: storeB, assign: [productB] }));
    onlyB = (await create({ name: 'only-b', storeId: storeB, productIds: [productB] })).id;
  });

  test('sees the tags used in its store view, with their figures there', async () => {
    const list = ok(await asB('GET', '/tags?itemsPerPage=100')).member as any[];
    const ids = list.map((x) => x.id);
    assert.ok(ids.includes(shared) && ids.includes(onlyB));
    assert.ok(!ids.includes(onlyA));
    assert.deepEqual(
      list.filter((x) => x.id === shared).map((x) => [x.storeId, x.productCount]),
      [[storeB, 1]],
    );
    refused(await asB('GET', `/tags/${onlyA}`), 404);
    refused(await asB('GET', `/tags/${onlyA}/products`), 404);
    refused(await asB('GET', `/tags/${shared}?storeId=1`), 403);
    refused(await asB('GET', '/tags?storeId=0'), 403);
    const products = ok(await asB('GET', `/tags/${shared}/products`)).member;
    assert.deepEqual(
      products.map((x: any) => [x.productId, x.stores]),
      [[productB, [storeB]]],
    );
  });

  test("changes its own store view's uses, never another's, and renames only what is its own", async () => {
    const before = await read(shared);
    refused(await asB('PUT', `/tags/${onlyA}`, { name: 'taken-over' }), 404);
    refused(await asB('PUT', `/tags/${shared}`, { name: 'taken-over' }), 403);
    refused(await asB('PUT', `/tags/${shared}`, { basePopularity: 3, storeId: 1 }), 403);
    refused(await asB('PUT', `/tags/${shared}/products`, { storeId: 1, unassign: [productB] }), 403);
    refused(await asB('PUT', `/tags/${shared}/products`, { assign: [p1] }), 400, /Unknown product/);
    refused(await asB('DELETE', `/tags/${shared}`), 403);
    refused(await asB('DELETE', `/tags/${onlyA}`), 404);
    refused(await asB('POST', '/tags', { name: 'made-for-a', storeId: 1 }), 403);
    assert.deepEqual(await read(shared), before);
    assert.equal((await read(onlyA)).name, 'only-a');

    const based = ok(await asB('PUT', `/tags/${shared}`, { basePopularity: 4 }));
    assert.deepEqual([based.storeId, based.basePopularity, based.popularity], [storeB, 4, 4]);
    assert.equal((await read(shared, '?storeId=1')).popularity, 0, "store A's figures are untouched");
    ok(await asB('PUT', `/tags/${onlyB}`, { name: 'only-b-renamed' }));
    const mine = ok(await asB('POST', '/tags', { name: 'made-by-b' }), 201);
    assert.equal(mine.storeId, storeB);
    ok(await asB('PUT', `/tags/${mine.id}/products`, { assign: [productB] }));
    assert.equal((await asB('DELETE', `/tags/${mine.id}`)).status, 204);
  });
});
