/**
 * Storefront searches recorded for the search-terms report: shoppers' first pages only, terms normalised, one
 * row per store view, term and day; admin and API lists never counted; the report's order, input, access and
 * its one statement.
 */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { countStatements } from '../../platform/db.js';
import { createTestProduct } from '../../../test/fixtures/catalog.js';
import { API, buildTestApp, type TestApp } from '../../../test/helpers.js';
import { searchTermRecorder, type SearchTermRecorder } from './search-terms.js';

let t: TestApp;
let admin: string;
const flush = () => t.services.background<SearchTermRecorder>(searchTermRecorder).flush();
// the searches' days are in each store view's zone (Berlin for the German one): a range around today holds them
// whatever the hour of the run
const day = (offset: number) => new Date(Date.now() + offset * 86_400_000).toISOString().slice(0, 10);
const around = () => `from=${day(-1)}&to=${day(1)}`;

before(async () => {
  t = await buildTestApp();
  admin = await t.tokens.admin();
  await createTestProduct(t, { name: 'Zebra lamp', stockData: { qty: 5, isInStock: true } });
  await createTestProduct(t, { name: 'Zebra rug', stockData: { qty: 5, isInStock: true } });
});
after(() => t.close());

test('shoppers searches are counted, normalised, with the results of the last one', async () => {
  const customer = await t.tokens.customer();
  const search = (q: string, token?: string, extra = '') =>
    t.req('GET', `${API}/products?search=${encodeURIComponent(q)}${extra}`, { token });
  assert.equal((await search('  ZEBRA ')).status, 200);
  assert.equal((await search('zebra', customer)).status, 200);
  assert.equal((await search('Zebra', undefined, '&page=2')).status, 200); // paging: not a new search
  assert.equal((await search('zebra', admin)).status, 200); // the back office: not a shopper
  assert.equal((await search('nothing-like-this')).status, 200);
  assert.equal((await search('zebra', undefined, '&store=german')).status, 200);
  const gql = await t.gql('{ products(search: "Zebra lamp") { totalCount } }');
  assert.equal(gql.errors, undefined, JSON.stringify(gql.errors));
  await flush();
  const r = await t.req('GET', `${API}/reports/search-terms?${around()}`, { token: admin });
  assert.equal(r.status, 200, r.text);
  const rows = r.body.rows.map((x: { term: string; hits: number; results: number }) => [x.term, x.hits, x.results]);
  assert.deepEqual(rows, [
    ['zebra', 3, 2],
    ['nothing-like-this', 1, 0],
    ['zebra lamp', 1, 1],
  ]);
  const one = await t.req('GET', `${API}/reports/search-terms?${around()}&storeId=2`, { token: admin });
  assert.deepEqual(
    one.body.rows.map((x: { term: string; hits: number }) => [x.term, x.hits]),
    [['zebra', 1]],
  );
  const top = await t.req('GET', `${API}/reports/search-terms?${around()}&limit=1`, { token: admin });
  assert.equal(top.body.rows.length, 1);
  const old = await t.req('GET', `${API}/reports/search-terms?from=2020-01-01&to=2020-01-31`, { token: admin });
  assert.deepEqual(old.body.rows, []);
});

test('input, access, scope, one statement', async () => {
  for (const q of ['limit=0', 'limit=101', 'from=x', 'storeId=99', 'from=2025-02-01&to=2025-01-01']) {
    assert.equal((await t.req('GET', `${API}/reports/search-terms?${q}`, { token: admin })).status, 400, q);
  }
  assert.equal((await t.req('GET', `${API}/reports/search-terms`)).status, 401);
  assert.equal((await t.req('GET', `${API}/reports/search-terms`, { token: await t.tokens.customer() })).status, 403);
  assert.equal((await t.req('GET', `${API}/reports/search-terms`, { token: await t.tokens.apiUser(['products/read']) })).status, 403);
  const limited = await t.tokens.apiUser(['reports/read'], { allowedStoreIds: [2] });
  assert.equal((await t.req('GET', `${API}/reports/search-terms?storeId=1&store=german`, { token: limited })).status, 403);
  const own = await t.req('GET', `${API}/reports/search-terms?store=german`, { token: limited });
  assert.equal(own.status, 200);
  assert.ok(own.body.rows.every((x: { term: string }) => x.term === 'zebra'));
  const url = `${API}/reports/search-terms`;
  const auth = await countStatements(() => t.req('GET', `${url}?limit=0`, { token: admin }));
  await t.req('GET', url, { token: admin });
  const { n } = await countStatements(() => t.req('GET', url, { token: admin }));
  assert.equal(n - auth.n, 1);
});
