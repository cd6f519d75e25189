/**
 * GET /url-resolver/result: the item form of GET /url-resolver (what one path leads to), for anyone; a path that
 * leads nowhere is a 404 (GraphQL answers a result of type not_found instead); bad input a 400.
 */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { API, buildTestApp, type Res, type TestApp } from '../../../test/helpers.js';

let t: TestApp;
let admin: string;
let category: number;

function assertError(r: Res, status: number) {
  assert.equal(r.status, status, r.text);
  assert.equal(typeof r.body.error, 'string', r.text);
  assert.equal(r.body.code, status);
}

const result = (path: string, token?: string) => t.req('GET', `${API}/url-resolver/result?path=${encodeURIComponent(path)}`, { token });

before(async () => {
  t = await buildTestApp();
  admin = await t.tokens.admin();
  const r = await t.req('POST', `${API}/categories`, { token: admin, body: { name: 'Result Lamps' } });
  assert.equal(r.status, 201, r.text);
  category = r.body.id;
});
after(() => t.close());

test('what a path leads to, as the member of GET /url-resolver', async () => {
  const r = await result('/Result-Lamps.html?x=1');
  assert.equal(r.status, 200, r.text);
  assert.deepEqual(r.body, { type: 'category', id: category, redirectType: 0 });
  const list = await t.req('GET', `${API}/url-resolver?path=result-lamps`, { headers: { accept: 'application/json' } });
  assert.deepEqual(list.body, [r.body]);
});

test('anyone: anonymous, a customer and an admin get the same answer', async () => {
  const anonymous = await result('result-lamps');
  for (const token of [await t.tokens.customer(), admin]) assert.deepEqual((await result('result-lamps', token)).body, anonymous.body);
});

test('a path that leads nowhere is a 404; GraphQL answers a not_found result for it', async () => {
  assertError(await result('no/such/page'), 404);
  const g = await t.gql('{ resolveUrlResolveResult(path: "no/such/page") { type redirectType } }');
  assert.equal(g.errors, undefined, JSON.stringify(g.errors));
  assert.deepEqual(g.data.resolveUrlResolveResult, { type: 'not_found', redirectType: 0 });
});

test('bad input: no path, or one too long, is a 400', async () => {
  assertError(await t.req('GET', `${API}/url-resolver/result`), 400);
  assertError(await result('x'.repeat(5000)), 400);
});
