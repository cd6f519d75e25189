/**
 * The URL resolver over GraphQL, as Maho names it: urlResolveResults(path:) (a connection of 0 or 1 node) and
 * resolveUrlResolveResult(path:) (the item; nothing found is type `not_found`). Public; bad paths are a 400.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { API, buildTestApp, type TestApp } from '../../../test/helpers.js';

let t: TestApp;
let admin: string;
let customer: string;
let pageId: number;

const gql = (query: string, token?: string, variables?: Record<string, unknown>) => t.gql(query, token, variables);

before(async () => {
  t = await buildTestApp();
  admin = await t.tokens.admin();
  customer = await t.tokens.customer();
  const r = await t.req('POST', `${API}/cms-pages`, { token: admin, body: { identifier: 'gql-resolve-me', title: 'Resolve me' } });
  assert.equal(r.status, 201, r.text);
  pageId = r.body.id;
});
after(() => t.close());

const NODE = 'id _id type identifier redirectUrl redirectType';

describe('URL resolver over GraphQL', () => {
  test('urlResolveResults: one node for a known path, none for an unknown one; the same as REST', async () => {
    const r = await gql(
      `{ urlResolveResults(path: "/gql-resolve-me") { totalCount edges { cursor node { ${NODE} } } pageInfo { hasNextPage } } }`,
      customer,
    );
    assert.equal(r.errors, undefined, JSON.stringify(r.errors));
    assert.equal(r.data.urlResolveResults.totalCount, 1);
    const node = r.data.urlResolveResults.edges[0].node;
    assert.equal(node.type, 'cms_page');
    assert.equal(node._id, pageId);
    assert.equal(node.identifier, 'gql-resolve-me');
    assert.equal(node.redirectType, 0);
    assert.equal(typeof node.id, 'string');
    const rest = await t.req('GET', `${API}/url-resolver`, { query: { path: '/gql-resolve-me' }, headers: { accept: 'application/json' } });
    assert.deepEqual(rest.body, [{ type: 'cms_page', id: pageId, identifier: 'gql-resolve-me', redirectType: 0 }]);

    const none = await gql('{ urlResolveResults(path: "no/such/path") { totalCount edges { node { type } } } }');
    assert.deepEqual(none.data.urlResolveResults, { totalCount: 0, edges: [] });
    const noPath = await gql('{ urlResolveResults { totalCount } }');
    assert.equal(noPath.errors, undefined, JSON.stringify(noPath.errors));
  });

  test('resolveUrlResolveResult: the item, or type not_found', async () => {
    const r = await gql(`{ resolveUrlResolveResult(path: "gql-resolve-me") { ${NODE} } }`);
    assert.equal(r.errors, undefined, JSON.stringify(r.errors));
    assert.equal(r.data.resolveUrlResolveResult.type, 'cms_page');
    assert.equal(r.data.resolveUrlResolveResult._id, pageId);
    const none = await gql(`{ resolveUrlResolveResult(path: "no/such/path") { ${NODE} } }`, admin);
    assert.equal(none.errors, undefined, JSON.stringify(none.errors));
    assert.equal(none.data.resolveUrlResolveResult.type, 'not_found');
    assert.equal(none.data.resolveUrlResolveResult._id, null);
    assert.equal(none.data.resolveUrlResolveResult.redirectType, 0);
    assert.equal(typeof none.data.resolveUrlResolveResult.id, 'string');
  });

  test('urlResolveResult(id:): the IRI a result carries resolves it again; _id is the entity', async () => {
    const list = await gql(`{ urlResolveResults(path: "gql-resolve-me") { edges { node { ${NODE} } } } }`);
    const node = list.data.urlResolveResults.edges[0].node;
    assert.equal(node.id, '/api/rest/v2/url-resolver?path=gql-resolve-me');
    const again = await gql(`query ($id: ID!) { urlResolveResult(id: $id) { ${NODE} } }`, undefined, { id: node.id });
    assert.equal(again.errors, undefined, JSON.stringify(again.errors));
    assert.deepEqual(again.data.urlResolveResult, node);
    const bare = await gql(`{ urlResolveResult(id: "gql-resolve-me") { _id type } }`);
    assert.deepEqual(bare.data.urlResolveResult, { _id: pageId, type: 'cms_page' });
    const none = await gql(`{ urlResolveResult(id: "/api/rest/v2/url-resolver?path=no%2Fsuch") { type _id } }`);
    assert.deepEqual(none.data.urlResolveResult, { type: 'not_found', _id: null });
  });

  test('a path too long or with control characters is a 400; a missing path a validation error', async () => {
    const long = 'a'.repeat(300);
    const a = await gql(`{ urlResolveResults(path: "${long}") { totalCount } }`);
    assert.equal(a.data.urlResolveResults, null);
    assert.equal(a.errors[0].extensions.status, 400);
    const b = await gql('query ($p: String!) { resolveUrlResolveResult(path: $p) { type } }', undefined, { p: 'x\u0001y' });
    assert.equal(b.data.resolveUrlResolveResult, null);
    assert.equal(b.errors[0].extensions.status, 400);
    const c = await gql('{ resolveUrlResolveResult { type } }');
    assert.equal(c.errors[0].extensions.code, 'GRAPHQL_VALIDATION_FAILED');
  });
});
