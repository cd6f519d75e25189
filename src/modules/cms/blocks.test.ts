/** CMS blocks over REST: visibility per store view and status, access per grant, validation, conflicts. */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { API, buildTestApp, type Res, type TestApp } from '../../../test/helpers.js';

let t: TestApp;
let admin: string;
let customer: string;
let reader: string;
let writer: string;
let deleter: string;
let n = 0;

before(async () => {
  t = await buildTestApp();
  admin = await t.tokens.admin();
  customer = await t.tokens.customer();
  reader = await t.tokens.apiUser(['cms-blocks/read']);
  writer = await t.tokens.apiUser(['cms-blocks/write']);
  deleter = await t.tokens.apiUser(['cms-blocks/delete']);
});
after(() => t.close());

const JSON_ONLY = { accept: 'application/json' };

function assertError(r: Res, status: number, error: string) {
  assert.equal(r.status, status, r.text);
  assert.equal(r.body.error, error, r.text);
}

const uniq = (p: string) => `${p}-${++n}`;

async function create(body: Record<string, unknown>, token = admin): Promise<Record<string, any>> {
  const r = await t.req('POST', `${API}/cms-blocks`, { token, body });
  assert.equal(r.status, 201, r.text);
  return r.body;
}

async function allBlocks(): Promise<Record<string, any>[]> {
  const r = await t.req('GET', `${API}/cms-blocks?scope=all&itemsPerPage=100`, { token: admin, headers: JSON_ONLY });
  assert.equal(r.status, 200, r.text);
  return r.body;
}

describe('CMS blocks', () => {
  test('the demo footer-links block is public in every store view', async () => {
    const r = await t.req('GET', `${API}/cms-blocks`, { query: { identifier: 'footer-links' } });
    assert.equal(r.status, 200, r.text);
    assert.equal(r.body['@context'], '/api/contexts/CmsBlock');
    assert.equal(r.body.totalItems, 1);
    const b = r.body.member[0];
    assert.deepEqual(Object.keys(b).sort(), [
      'content',
      'createdAt',
      'id',
      'identifier',
      'isActive',
      'status',
      'stores',
      'title',
      'updatedAt',
    ]);
    assert.equal(b.status, 'enabled');
    assert.deepEqual(b.stores, [0]);
    assert.equal((await t.req('GET', `${API}/cms-blocks/${b.id}`, { query: { store: 'german' } })).status, 200);
  });

  test('create: 201 with defaults; stores by code; bad input 400 and nothing created', async () => {
    const b = await create({ identifier: uniq('promo'), title: 'Promo', content: '<b>x</b>' });
    assert.equal(b.isActive, true);
    assert.deepEqual(b.stores, [0]);
    assert.deepEqual((await create({ identifier: uniq('g'), title: 'G', stores: ['german', 'default'] })).stores, [1, 2]);
    const before = (await allBlocks()).length;
    const bad: Record<string, unknown>[] = [
      { title: 'x' },
      { identifier: uniq('t') },
      { identifier: 'Has Space', title: 'x' },
      { identifier: 'x'.repeat(101), title: 'x' },
      { identifier: uniq('s'), title: 'x', stores: [12345] },
      { identifier: uniq('s'), title: 'x', stores: ['nowhere'] },
    ];
    for (const body of bad) assertError(await t.req('POST', `${API}/cms-blocks`, { token: admin, body }), 400, 'bad_request');
    assert.equal((await allBlocks()).length, before);
  });

  test('an identifier is unique per store view among blocks (409), not across pages and blocks', async () => {
    const identifier = uniq('shared');
    await create({ identifier, title: 'x', stores: ['german'] });
    const before = (await allBlocks()).length;
    assertError(await t.req('POST', `${API}/cms-blocks`, { token: admin, body: { identifier, title: 'y' } }), 409, 'conflict');
    assert.equal((await allBlocks()).length, before);
    await create({ identifier, title: 'y', stores: ['default'] });
    assert.equal((await t.req('POST', `${API}/cms-pages`, { token: admin, body: { identifier, title: 'page' } })).status, 201);
    const other = await create({ identifier: uniq('other'), title: 'o', stores: ['german'] });
    assertError(await t.req('PUT', `${API}/cms-blocks/${other.id}`, { token: admin, body: { identifier } }), 409, 'conflict');
    assertError(
      await t.req('PUT', `${API}/cms-blocks/${other.id}`, { token: admin, body: { stores: ['all'], identifier } }),
      409,
      'conflict',
    );
  });

  test('inactive and other-store blocks are 404 for public callers, visible to back-office readers', async () => {
    const off = await create({ identifier: uniq('off'), title: 'Off', isActive: false });
    assert.equal(off.status, 'disabled');
    const ger = await create({ identifier: uniq('ger'), title: 'Ger', stores: [2] });
    for (const token of [undefined, customer, writer]) {
      assertError(await t.req('GET', `${API}/cms-blocks/${off.id}`, { token }), 404, 'not_found');
      assertError(await t.req('GET', `${API}/cms-blocks/${ger.id}`, { token }), 404, 'not_found');
    }
    assert.equal((await t.req('GET', `${API}/cms-blocks/${ger.id}`, { query: { store: 'german' } })).status, 200);
    for (const token of [admin, reader]) {
      assert.equal((await t.req('GET', `${API}/cms-blocks/${off.id}`, { token })).status, 200);
      assert.equal((await t.req('GET', `${API}/cms-blocks/${ger.id}`, { token })).status, 200);
    }
    const pub = (await t.req('GET', `${API}/cms-blocks?itemsPerPage=100`, { headers: JSON_ONLY })).body.map((b: any) => b.id);
    assert.ok(!pub.includes(off.id) && !pub.includes(ger.id));
    const all = (await allBlocks()).map((b) => b.id);
    assert.ok(all.includes(off.id) && all.includes(ger.id));
    assertError(await t.req('GET', `${API}/cms-blocks?scope=all`), 401, 'unauthorized');
    assertError(await t.req('GET', `${API}/cms-blocks?scope=all`, { token: customer }), 403, 'forbidden');
    assertError(await t.req('GET', `${API}/cms-blocks?scope=all`, { token: await t.tokens.apiUser(['cms-pages/read']) }), 403, 'forbidden');
  });

  test('search and q need 3 characters', async () => {
    const b = await create({ identifier: uniq('searchable'), title: 'Quokka Corner' });
    assert.deepEqual(
      (await t.req('GET', `${API}/cms-blocks`, { query: { q: 'quokka' }, headers: JSON_ONLY })).body.map((x: any) => x.id),
      [b.id],
    );
    assert.deepEqual(
      (await t.req('GET', `${API}/cms-blocks`, { query: { search: 'Corner' }, headers: JSON_ONLY })).body.map((x: any) => x.id),
      [b.id],
    );
    assertError(await t.req('GET', `${API}/cms-blocks`, { query: { q: 'qu' } }), 400, 'bad_request');
  });

  test('update changes only the fields sent; bad input 400; unknown 404', async () => {
    const b = await create({ identifier: uniq('upd'), title: 'T', content: 'keep' });
    const r = await t.req('PUT', `${API}/cms-blocks/${b.id}`, { token: writer, body: { title: 'New', isActive: false } });
    assert.equal(r.status, 200, r.text);
    assert.equal(r.body.title, 'New');
    assert.equal(r.body.content, 'keep');
    assert.equal(r.body.status, 'disabled');
    assert.deepEqual(r.body.stores, [0]);
    for (const body of [{ title: ' ' }, { identifier: 'UP' }, { stores: ['nowhere'] }]) {
      assertError(await t.req('PUT', `${API}/cms-blocks/${b.id}`, { token: admin, body }), 400, 'bad_request');
    }
    assert.equal((await t.req('GET', `${API}/cms-blocks/${b.id}`, { token: admin })).body.title, 'New');
    assertError(await t.req('PUT', `${API}/cms-blocks/999999`, { token: admin, body: { title: 'x' } }), 404, 'not_found');
  });

  test('access: anonymous 401, customer 403, read-only 403, write cannot delete (403), delete 204', async () => {
    const body = { identifier: uniq('acl'), title: 'x' };
    assertError(await t.req('POST', `${API}/cms-blocks`, { body }), 401, 'unauthorized');
    assertError(await t.req('POST', `${API}/cms-blocks`, { token: customer, body }), 403, 'forbidden');
    assertError(await t.req('POST', `${API}/cms-blocks`, { token: reader, body }), 403, 'forbidden');
    const b = await create(body, writer);
    assertError(await t.req('PUT', `${API}/cms-blocks/${b.id}`, { body: { title: 'y' } }), 401, 'unauthorized');
    assertError(await t.req('PUT', `${API}/cms-blocks/${b.id}`, { token: customer, body: { title: 'y' } }), 403, 'forbidden');
    assertError(await t.req('PUT', `${API}/cms-blocks/${b.id}`, { token: reader, body: { title: 'y' } }), 403, 'forbidden');
    assertError(await t.req('DELETE', `${API}/cms-blocks/${b.id}`), 401, 'unauthorized');
    assertError(await t.req('DELETE', `${API}/cms-blocks/${b.id}`, { token: customer }), 403, 'forbidden');
    assertError(await t.req('DELETE', `${API}/cms-blocks/${b.id}`, { token: writer }), 403, 'forbidden');
    assert.equal((await t.req('GET', `${API}/cms-blocks/${b.id}`)).status, 200);
    const r = await t.req('DELETE', `${API}/cms-blocks/${b.id}`, { token: deleter });
    assert.equal(r.status, 204, r.text);
    assertError(await t.req('GET', `${API}/cms-blocks/${b.id}`, { token: admin }), 404, 'not_found');
    assertError(await t.req('DELETE', `${API}/cms-blocks/${b.id}`, { token: admin }), 404, 'not_found');
  });

  test('parallel creates of one identifier: one 201, the rest 409', async () => {
    const identifier = uniq('race');
    const rs = await Promise.all(
      Array.from({ length: 4 }, () => t.req('POST', `${API}/cms-blocks`, { token: admin, body: { identifier, title: 'r' } })),
    );
    assert.deepEqual(rs.map((r) => r.status).sort(), [201, 409, 409, 409]);
  });
});
