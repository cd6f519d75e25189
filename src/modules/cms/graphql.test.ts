/**
 * CMS pages and blocks over GraphQL, as Maho's GraphQL clients use them: cmsPages / cmsBlocks (connections with
 * identifier, search and date filters, cursor paging), cmsPage / cmsBlock (IRI or number), and the back-office
 * createCmsPage, updateCmsPage, deleteCmsPage (and the block twins) with `input` and payload; per access level.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { buildTestApp, type TestApp } from '../../../test/helpers.js';

let t: TestApp;
let admin: string;
let customer: string;
let reader: string;

const gql = (query: string, token?: string, variables?: Record<string, unknown>) => t.gql(query, token, variables);

const PAGE_FIELDS = 'id _id identifier title content status isActive stores createdAt';

before(async () => {
  t = await buildTestApp();
  admin = await t.tokens.admin();
  customer = await t.tokens.customer();
  reader = await t.tokens.apiUser(['cms-pages/read', 'cms-blocks/read']);
});
after(() => t.close());

async function createPage(fields: string, token = admin) {
  const r = await gql(
    `mutation { createCmsPage(input: {${fields}, clientMutationId: "c1"}) { clientMutationId cmsPage { ${PAGE_FIELDS} } } }`,
    token,
  );
  assert.equal(r.errors, undefined, JSON.stringify(r.errors));
  assert.equal(r.data.createCmsPage.clientMutationId, 'c1');
  return r.data.createCmsPage.cmsPage;
}

describe('CMS pages over GraphQL', () => {
  let page: Record<string, any>;

  before(async () => {
    page = await createPage('identifier: "gql-about", title: "About GraphQL zebra", content: "<p>Hello</p>"');
    await createPage('identifier: "gql-hidden", title: "Hidden zebra", isActive: false');
    for (let i = 0; i < 3; i++) await createPage(`identifier: "gql-paging-${i}", title: "Paging quagga ${i}"`);
  });

  test('create answers the page with its IRI and number', () => {
    assert.equal(typeof page._id, 'number');
    assert.equal(page.id, `/api/rest/v2/cms-pages/${page._id}`);
    assert.equal(page.identifier, 'gql-about');
    assert.equal(page.status, 'enabled');
    assert.equal(page.isActive, true);
    assert.deepEqual(page.stores, [0]);
  });

  test('cmsPages: a public connection of the active pages; identifier and search filters', async () => {
    const all = await gql(
      `{ cmsPages { totalCount edges { cursor node { ${PAGE_FIELDS} } } pageInfo { hasNextPage hasPreviousPage } } }`,
      customer,
    );
    assert.equal(all.errors, undefined, JSON.stringify(all.errors));
    const ids = all.data.cmsPages.edges.map((e: any) => e.node.identifier);
    assert.ok(ids.includes('gql-about'));
    assert.ok(!ids.includes('gql-hidden'), 'inactive pages are not public');
    assert.equal(all.data.cmsPages.totalCount, all.data.cmsPages.edges.length);

    const one = await gql('{ cmsPages(identifier: "gql-about") { totalCount edges { node { identifier title content } } } }');
    assert.equal(one.errors, undefined, JSON.stringify(one.errors));
    assert.equal(one.data.cmsPages.totalCount, 1);
    assert.equal(one.data.cmsPages.edges[0].node.identifier, 'gql-about');
    assert.equal(one.data.cmsPages.edges[0].node.content, '<p>Hello</p>');

    const search = await gql('{ cmsPages(search: "zebra") { totalCount edges { node { identifier } } } }');
    assert.deepEqual(
      search.data.cmsPages.edges.map((e: any) => e.node.identifier),
      ['gql-about'],
    );
    const backOffice = await gql('{ cmsPages(search: "zebra", scope: "all") { totalCount } }', reader);
    assert.equal(backOffice.data.cmsPages.totalCount, 2, 'back-office readers see inactive pages too');
    const dates = await gql('{ cmsPages(search: "zebra", createdFrom: "2000-01-01", updatedSince: "2000-01-01") { totalCount } }');
    assert.equal(dates.data.cmsPages.totalCount, 1);
    const future = await gql('{ cmsPages(search: "zebra", createdFrom: "2999-01-01") { totalCount } }');
    assert.equal(future.data.cmsPages.totalCount, 0);
  });

  test('cmsPages: cursor paging with first/after and last/before', async () => {
    const first = await gql(
      '{ cmsPages(search: "quagga", first: 2) { totalCount edges { cursor node { identifier } } pageInfo { endCursor hasNextPage hasPreviousPage } } }',
    );
    assert.equal(first.errors, undefined, JSON.stringify(first.errors));
    const c = first.data.cmsPages;
    assert.equal(c.totalCount, 3);
    assert.deepEqual(
      c.edges.map((e: any) => e.node.identifier),
      ['gql-paging-0', 'gql-paging-1'],
    );
    assert.equal(c.pageInfo.hasNextPage, true);
    assert.equal(c.pageInfo.hasPreviousPage, false);
    const next = await gql(
      `{ cmsPages(search: "quagga", first: 2, after: "${c.pageInfo.endCursor}") { edges { node { identifier } } pageInfo { hasNextPage hasPreviousPage } } }`,
    );
    assert.deepEqual(
      next.data.cmsPages.edges.map((e: any) => e.node.identifier),
      ['gql-paging-2'],
    );
    assert.equal(next.data.cmsPages.pageInfo.hasNextPage, false);
    assert.equal(next.data.cmsPages.pageInfo.hasPreviousPage, true);
    const last = await gql('{ cmsPages(search: "quagga", last: 1) { edges { node { identifier } } } }');
    assert.deepEqual(
      last.data.cmsPages.edges.map((e: any) => e.node.identifier),
      ['gql-paging-2'],
    );
    const bad = await gql('{ cmsPages(after: "not a cursor") { totalCount } }');
    assert.equal(bad.data.cmsPages, null);
    assert.equal(bad.errors[0].extensions.status, 400);
  });

  test('cmsPage by IRI or number; an inactive page, an unknown id or another resource’s IRI is null with a 404', async () => {
    const byIri = await gql(`{ cmsPage(id: "${page.id}") { id _id identifier title content } }`, customer);
    assert.equal(byIri.errors, undefined, JSON.stringify(byIri.errors));
    assert.equal(byIri.data.cmsPage._id, page._id);
    assert.equal(byIri.data.cmsPage.content, '<p>Hello</p>');
    const byNumber = await gql(`{ cmsPage(id: ${page._id}) { identifier } }`);
    assert.equal(byNumber.data.cmsPage.identifier, 'gql-about');

    const hidden = (await gql('{ cmsPages(identifier: "gql-hidden", scope: "all") { edges { node { _id } } } }', admin)).data.cmsPages
      .edges[0].node._id;
    const anon = await gql(`{ cmsPage(id: ${hidden}) { identifier } }`);
    assert.equal(anon.data.cmsPage, null);
    assert.equal(anon.errors[0].extensions.status, 404);
    const asReader = await gql(`{ cmsPage(id: ${hidden}) { identifier isActive } }`, reader);
    assert.deepEqual(asReader.data.cmsPage, { identifier: 'gql-hidden', isActive: false });

    for (const id of ['"/api/rest/v2/cms-pages/99999"', '"/api/rest/v2/blog-posts/1"', '"nope"']) {
      const r = await gql(`{ cmsPage(id: ${id}) { identifier } }`);
      assert.equal(r.data.cmsPage, null, id);
      assert.equal(r.errors[0].extensions.status, 404, id);
    }
  });

  test('create, update and delete: admin only (anonymous 401, customer 403)', async () => {
    const anon = await gql('mutation { createCmsPage(input: {identifier: "gql-x", title: "X"}) { cmsPage { _id } } }');
    assert.equal(anon.data.createCmsPage, null);
    assert.equal(anon.errors[0].extensions.status, 401);
    const cust = await gql('mutation { createCmsPage(input: {identifier: "gql-x", title: "X"}) { cmsPage { _id } } }', customer);
    assert.equal(cust.errors[0].extensions.status, 403);
    const readOnly = await gql(`mutation { deleteCmsPage(input: {id: "${page.id}"}) { cmsPage { id } } }`, reader);
    assert.equal(readOnly.errors[0].extensions.status, 403);

    const created = await createPage('identifier: "gql-temp", title: "Temp"');
    const updated = await gql(
      `mutation { updateCmsPage(input: {id: "${created.id}", title: "Temp 2", content: "new", clientMutationId: "u"}) { clientMutationId cmsPage { _id title content } } }`,
      admin,
    );
    assert.equal(updated.errors, undefined, JSON.stringify(updated.errors));
    assert.deepEqual(updated.data.updateCmsPage, { clientMutationId: 'u', cmsPage: { _id: created._id, title: 'Temp 2', content: 'new' } });
    const byNumber = await gql(
      `mutation { updateCmsPage(input: {id: ${created._id}, isActive: false}) { cmsPage { isActive status } } }`,
      admin,
    );
    assert.deepEqual(byNumber.data.updateCmsPage.cmsPage, { isActive: false, status: 'disabled' });

    const removed = await gql(`mutation { deleteCmsPage(input: {id: "${created.id}"}) { cmsPage { id } } }`, admin);
    assert.equal(removed.errors, undefined, JSON.stringify(removed.errors));
    assert.equal(removed.data.deleteCmsPage.cmsPage.id, created.id);
    const again = await gql(`mutation { deleteCmsPage(input: {id: "${created.id}"}) { cmsPage { id } } }`, admin);
    assert.equal(again.data.deleteCmsPage, null);
    assert.equal(again.errors[0].extensions.status, 404);
  });

  test('bad input is a 400 (or a GraphQL validation error), never a 500', async () => {
    const noTitle = await gql('mutation { createCmsPage(input: {identifier: "gql-no-title"}) { cmsPage { _id } } }', admin);
    assert.equal(noTitle.data.createCmsPage, null);
    assert.equal(noTitle.errors[0].extensions.status, 400);
    const badId = await gql('mutation { createCmsPage(input: {identifier: "bad id!", title: "T"}) { cmsPage { _id } } }', admin);
    assert.equal(badId.errors[0].extensions.status, 400);
    const clash = await gql('mutation { createCmsPage(input: {identifier: "gql-about", title: "T"}) { cmsPage { _id } } }', admin);
    assert.ok([400, 409].includes(clash.errors[0].extensions.status), JSON.stringify(clash.errors));
    const shortSearch = await gql('{ cmsPages(search: "ab") { totalCount } }');
    assert.equal(shortSearch.errors[0].extensions.status, 400);
    const badDate = await gql('{ cmsPages(createdFrom: "yesterday") { totalCount } }');
    assert.equal(badDate.errors[0].extensions.status, 400);
    const scopeAll = await gql('{ cmsPages(scope: "all") { totalCount } }');
    assert.ok([401, 403].includes(scopeAll.errors[0].extensions.status), JSON.stringify(scopeAll.errors));
    const wrongType = await gql('mutation { createCmsPage(input: {identifier: 5, title: "T"}) { cmsPage { _id } } }', admin);
    assert.equal(wrongType.errors[0].extensions.code, 'GRAPHQL_VALIDATION_FAILED');
  });
});

describe('CMS blocks over GraphQL', () => {
  test('create, list by identifier, read by IRI, update, delete; public sees active blocks only', async () => {
    const created = await gql(
      'mutation { createCmsBlock(input: {identifier: "gql-footer", title: "Footer", content: "<b>f</b>"}) { cmsBlock { id _id identifier title content status isActive } } }',
      admin,
    );
    assert.equal(created.errors, undefined, JSON.stringify(created.errors));
    const block = created.data.createCmsBlock.cmsBlock;
    assert.equal(block.id, `/api/rest/v2/cms-blocks/${block._id}`);
    assert.equal(block.status, 'enabled');

    const list = await gql(
      '{ cmsBlocks(identifier: "gql-footer") { totalCount edges { cursor node { _id identifier content } } } }',
      customer,
    );
    assert.equal(list.errors, undefined, JSON.stringify(list.errors));
    assert.equal(list.data.cmsBlocks.totalCount, 1);
    assert.equal(list.data.cmsBlocks.edges[0].node.content, '<b>f</b>');
    const one = await gql(`{ cmsBlock(id: "${block.id}") { identifier title } }`);
    assert.deepEqual(one.data.cmsBlock, { identifier: 'gql-footer', title: 'Footer' });

    const off = await gql(`mutation { updateCmsBlock(input: {id: "${block.id}", isActive: false}) { cmsBlock { isActive } } }`, admin);
    assert.equal(off.data.updateCmsBlock.cmsBlock.isActive, false);
    const hidden = await gql(`{ cmsBlock(id: "${block.id}") { identifier } }`);
    assert.equal(hidden.data.cmsBlock, null);
    assert.equal(hidden.errors[0].extensions.status, 404);
    assert.equal((await gql('{ cmsBlocks(identifier: "gql-footer") { totalCount } }')).data.cmsBlocks.totalCount, 0);

    const cust = await gql(`mutation { deleteCmsBlock(input: {id: "${block.id}"}) { cmsBlock { id } } }`, customer);
    assert.equal(cust.errors[0].extensions.status, 403);
    const removed = await gql(`mutation { deleteCmsBlock(input: {id: "${block.id}"}) { cmsBlock { id } } }`, admin);
    assert.equal(removed.data.deleteCmsBlock.cmsBlock.id, block.id);
    const anonCreate = await gql('mutation { createCmsBlock(input: {identifier: "x", title: "x"}) { cmsBlock { _id } } }');
    assert.equal(anonCreate.errors[0].extensions.status, 401);
  });
});
