/**
 * Store configuration over GraphQL: currentStoreConfig, storeConfig(id:) (store code or REST IRI), the
 * storeConfigs connection, and the stores and currencies connections. Public.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { API, buildTestApp, type TestApp } from '../../../test/helpers.js';

let t: TestApp;
let customer: string;

const gql = async (query: string, token?: string, headers?: Record<string, string>) => {
  const r = await t.req('POST', '/api/graphql', { token, body: { query }, headers });
  assert.equal(r.status, 200, r.text);
  return r.body;
};

const CONFIG =
  'id storeCode storeName baseCurrencyCode defaultDisplayCurrencyCode locale timezone weightUnit baseUrl baseMediaUrl allowedCountries isGuestCheckoutAllowed newsletterEnabled wishlistEnabled reviewsEnabled logoUrl logoAlt defaultTitle defaultDescription cmsHomePage';

before(async () => {
  t = await buildTestApp();
  customer = await t.tokens.customer();
});
after(() => t.close());

describe('store configuration over GraphQL', () => {
  test('currentStoreConfig is the REST /store-config of the store asked for', async () => {
    const r = await gql(`{ currentStoreConfig { ${CONFIG} } }`, customer);
    assert.equal(r.errors, undefined, JSON.stringify(r.errors));
    const rest = await t.req('GET', `${API}/store-config`);
    const c = r.data.currentStoreConfig;
    for (const [k, v] of Object.entries(rest.body)) assert.deepEqual(c[k], v, k);
    assert.equal(c.storeCode, 'default');
    assert.ok(Array.isArray(c.allowedCountries));
  });

  test('storeConfig by code or IRI; an unknown code is null with a 404', async () => {
    const byCode = await gql('{ storeConfig(id: "default") { id storeCode cmsHomePage } }');
    assert.equal(byCode.errors, undefined, JSON.stringify(byCode.errors));
    assert.equal(byCode.data.storeConfig.storeCode, 'default');
    const byIri = await gql('{ storeConfig(id: "/api/rest/v2/default/config") { storeCode } }');
    assert.equal(byIri.data.storeConfig.storeCode, 'default');
    const none = await gql('{ storeConfig(id: "nowhere") { storeCode } }');
    assert.equal(none.data.storeConfig, null);
    assert.equal(none.errors[0].extensions.status, 404);
    const empty = await gql('{ storeConfig(id: "") { storeCode } }');
    assert.equal(empty.data.storeConfig, null);
    assert.ok([400, 404].includes(empty.errors[0].extensions.status));
  });

  test('storeConfigs: one node per active store view, cursor paging', async () => {
    const all = await gql('{ storeConfigs { totalCount edges { cursor node { id storeCode } } pageInfo { hasNextPage } } }');
    assert.equal(all.errors, undefined, JSON.stringify(all.errors));
    const stores = await t.req('GET', `${API}/stores`, { headers: { accept: 'application/json' } });
    assert.equal(all.data.storeConfigs.totalCount, stores.body.length);
    assert.deepEqual(
      all.data.storeConfigs.edges.map((e: any) => e.node.storeCode),
      stores.body.map((s: any) => s.code),
    );
    const first = await gql('{ storeConfigs(first: 1) { edges { node { storeCode } } pageInfo { endCursor hasNextPage } } }');
    assert.equal(first.data.storeConfigs.edges.length, 1);
    assert.equal(first.data.storeConfigs.pageInfo.hasNextPage, stores.body.length > 1);
    const rest = await gql(
      `{ storeConfigs(after: "${first.data.storeConfigs.pageInfo.endCursor}") { edges { node { storeCode } } pageInfo { hasPreviousPage } } }`,
    );
    assert.equal(rest.data.storeConfigs.edges.length, stores.body.length - 1);
    assert.equal(rest.data.storeConfigs.pageInfo.hasPreviousPage, true);
    const bad = await gql('{ storeConfigs(first: -1) { totalCount } }');
    assert.equal(bad.errors[0].extensions.status, 400);
    const badCursor = await gql('{ storeConfigs(after: "zzz") { totalCount } }');
    assert.equal(badCursor.errors[0].extensions.status, 400);
  });

  test('stores and currencies connections', async () => {
    const r = await gql(
      '{ stores { totalCount edges { node { id _id code name websiteCode isDefault currency } } } currencies { totalCount edges { node { code symbol exchangeRate isBase isDefault } } } }',
    );
    assert.equal(r.errors, undefined, JSON.stringify(r.errors));
    const def = r.data.stores.edges.find((e: any) => e.node.code === 'default').node;
    assert.equal(def.id, `/api/rest/v2/stores/${def._id}`);
    assert.equal(def.isDefault, true);
    assert.ok(r.data.currencies.edges.some((e: any) => e.node.isBase));
  });
});
