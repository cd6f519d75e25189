/**
 * Blog posts and categories over GraphQL, as Maho's GraphQL clients use them: blogPosts (urlKey, search,
 * categoryId and date filters, cursor paging), blogPost (IRI or number), blogCategories (urlKey, parentId),
 * blogCategory, and the back-office create/update/delete mutations with `input` and payload; per access level.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { buildTestApp, type TestApp } from '../../../test/helpers.js';

let t: TestApp;
let admin: string;
let customer: string;
let reader: string;

const gql = (query: string, token?: string, variables?: Record<string, unknown>) => t.gql(query, token, variables);

async function ok(query: string, token?: string, variables?: Record<string, unknown>) {
  const r = await gql(query, token, variables);
  assert.equal(r.errors, undefined, JSON.stringify(r.errors));
  return r.data;
}

const PAST = '2024-01-02 03:04:05';

let news: Record<string, any>;
let post: Record<string, any>;

before(async () => {
  t = await buildTestApp();
  admin = await t.tokens.admin();
  customer = await t.tokens.customer();
  reader = await t.tokens.apiUser(['blog-posts/read', 'blog-categories/read']);
  news = (
    await ok(
      'mutation { createBlogCategory(input: {name: "GQL News", urlKey: "gql-news"}) { blogCategory { id _id name urlKey level parentId } } }',
      admin,
    )
  ).createBlogCategory.blogCategory;
  await ok(
    `mutation { createBlogCategory(input: {name: "GQL Sub", urlKey: "gql-sub", parentId: ${news._id}}) { blogCategory { _id } } }`,
    admin,
  );
  await ok('mutation { createBlogCategory(input: {name: "GQL Off", urlKey: "gql-off", isActive: false}) { blogCategory { _id } } }', admin);
  post = (
    await ok(
      `mutation ($c: Iterable) { createBlogPost(input: {title: "Hello okapi", urlKey: "gql-hello", content: "<p>Body</p>", publishDate: "${PAST}", categoryIds: $c, clientMutationId: "p"}) {
        clientMutationId blogPost { id _id title urlKey content publishDate status isActive categoryIds } } }`,
      admin,
      { c: [news._id] },
    )
  ).createBlogPost.blogPost;
  await ok('mutation { createBlogPost(input: {title: "Draft okapi", urlKey: "gql-draft"}) { blogPost { _id } } }', admin);
  for (let i = 0; i < 3; i++)
    await ok(
      `mutation { createBlogPost(input: {title: "Paging ibex ${i}", publishDate: "2024-01-0${i + 3}"}) { blogPost { _id } } }`,
      admin,
    );
});
after(() => t.close());

describe('blog posts over GraphQL', () => {
  test('create answers the post with its IRI, number and categories', () => {
    assert.equal(post.id, `/api/rest/v2/blog-posts/${post._id}`);
    assert.equal(post.urlKey, 'gql-hello');
    assert.equal(post.status, 'enabled');
    assert.deepEqual(post.categoryIds, [news._id]);
  });

  test('blogPosts: published posts publicly; urlKey, search, categoryId and date filters', async () => {
    const all = (await ok('{ blogPosts { totalCount edges { cursor node { id _id title urlKey publishDate } } } }', customer)).blogPosts;
    const keys = all.edges.map((e: any) => e.node.urlKey);
    assert.ok(keys.includes('gql-hello'));
    assert.ok(!keys.includes('gql-draft'), 'a post without publish date is not public');
    const byKey = (await ok('{ blogPosts(urlKey: "gql-hello") { totalCount edges { node { _id urlKey content } } } }')).blogPosts;
    assert.equal(byKey.totalCount, 1);
    assert.equal(byKey.edges[0].node.content, '<p>Body</p>');
    assert.equal((await ok('{ blogPosts(search: "okapi") { totalCount } }')).blogPosts.totalCount, 1);
    assert.equal((await ok('{ blogPosts(search: "okapi", scope: "all") { totalCount } }', reader)).blogPosts.totalCount, 2);
    const inCat = (await ok(`{ blogPosts(categoryId: ${news._id}) { edges { node { urlKey } } } }`)).blogPosts;
    assert.deepEqual(
      inCat.edges.map((e: any) => e.node.urlKey),
      ['gql-hello'],
    );
    assert.equal(
      (
        await ok(
          '{ blogPosts(search: "okapi", createdFrom: "2000-01-01", createdTo: "2999-01-01", updatedSince: "2000-01-01") { totalCount } }',
        )
      ).blogPosts.totalCount,
      1,
    );
    assert.equal((await ok('{ blogPosts(search: "okapi", createdFrom: "2999-01-01") { totalCount } }')).blogPosts.totalCount, 0);
    assert.equal((await ok('{ blogPosts(search: "okapi", updatedSince: "2999-01-01") { totalCount } }')).blogPosts.totalCount, 0);
  });

  test('blogPosts: cursor paging, newest first', async () => {
    const first = (
      await ok('{ blogPosts(search: "ibex", first: 2) { totalCount edges { node { title } } pageInfo { endCursor hasNextPage } } }')
    ).blogPosts;
    assert.equal(first.totalCount, 3);
    assert.deepEqual(
      first.edges.map((e: any) => e.node.title),
      ['Paging ibex 2', 'Paging ibex 1'],
    );
    assert.equal(first.pageInfo.hasNextPage, true);
    const next = (
      await ok(
        `{ blogPosts(search: "ibex", first: 2, after: "${first.pageInfo.endCursor}") { edges { node { title } } pageInfo { hasNextPage hasPreviousPage } } }`,
      )
    ).blogPosts;
    assert.deepEqual(
      next.edges.map((e: any) => e.node.title),
      ['Paging ibex 0'],
    );
    assert.deepEqual(next.pageInfo, { hasNextPage: false, hasPreviousPage: true });
  });

  test('blogPost by IRI or number; unpublished, unknown or foreign IRI is null with a 404', async () => {
    const byIri = (await ok(`{ blogPost(id: "${post.id}") { id _id title urlKey content } }`, customer)).blogPost;
    assert.equal(byIri._id, post._id);
    assert.equal(byIri.content, '<p>Body</p>');
    assert.equal((await ok(`{ blogPost(id: ${post._id}) { urlKey } }`)).blogPost.urlKey, 'gql-hello');
    const draft = (await ok('{ blogPosts(urlKey: "gql-draft", scope: "all") { edges { node { _id } } } }', admin)).blogPosts.edges[0].node
      ._id;
    for (const id of [String(draft), '"/api/rest/v2/blog-posts/999999"', `"/api/rest/v2/cms-pages/${post._id}"`]) {
      const r = await gql(`{ blogPost(id: ${id}) { urlKey } }`);
      assert.equal(r.data.blogPost, null, id);
      assert.equal(r.errors[0].extensions.status, 404, id);
    }
    assert.equal((await ok(`{ blogPost(id: ${draft}) { urlKey } }`, reader)).blogPost.urlKey, 'gql-draft');
  });

  test('update and delete: admin only; bad input is a 400, never a 500', async () => {
    const anon = await gql(`mutation { updateBlogPost(input: {id: "${post.id}", title: "X"}) { blogPost { _id } } }`);
    assert.equal(anon.data.updateBlogPost, null);
    assert.equal(anon.errors[0].extensions.status, 401);
    const cust = await gql(`mutation { deleteBlogPost(input: {id: "${post.id}"}) { blogPost { id } } }`, customer);
    assert.equal(cust.errors[0].extensions.status, 403);
    const ro = await gql(`mutation { updateBlogPost(input: {id: "${post.id}", title: "X"}) { blogPost { _id } } }`, reader);
    assert.equal(ro.errors[0].extensions.status, 403);

    const temp = (await ok('mutation { createBlogPost(input: {title: "Temp post"}) { blogPost { id _id urlKey } } }', admin)).createBlogPost
      .blogPost;
    assert.equal(temp.urlKey, 'temp-post');
    const upd = (
      await ok(
        `mutation { updateBlogPost(input: {id: ${temp._id}, title: "Temp 2", clientMutationId: "u"}) { clientMutationId blogPost { title } } }`,
        admin,
      )
    ).updateBlogPost;
    assert.deepEqual(upd, { clientMutationId: 'u', blogPost: { title: 'Temp 2' } });
    assert.equal(
      (await ok(`mutation { deleteBlogPost(input: {id: "${temp.id}"}) { blogPost { id } } }`, admin)).deleteBlogPost.blogPost.id,
      temp.id,
    );

    const noTitle = await gql('mutation { createBlogPost(input: {content: "x"}) { blogPost { _id } } }', admin);
    assert.equal(noTitle.data.createBlogPost, null);
    assert.equal(noTitle.errors[0].extensions.status, 400);
    const badCat = await gql('mutation { createBlogPost(input: {title: "Bad cat", categoryIds: [999999]}) { blogPost { _id } } }', admin);
    assert.equal(badCat.errors[0].extensions.status, 400);
    const badDate = await gql('mutation { createBlogPost(input: {title: "Bad date", publishDate: "soon"}) { blogPost { _id } } }', admin);
    assert.equal(badDate.errors[0].extensions.status, 400);
    const badFilter = await gql('{ blogPosts(createdFrom: "yesterday") { totalCount } }');
    assert.equal(badFilter.data.blogPosts, null);
    assert.equal(badFilter.errors[0].extensions.status, 400);
    const short = await gql('{ blogPosts(search: "ok") { totalCount } }');
    assert.equal(short.errors[0].extensions.status, 400);
    const wrongType = await gql('{ blogPosts(categoryId: "x") { totalCount } }');
    assert.equal(wrongType.errors[0].extensions.code, 'GRAPHQL_VALIDATION_FAILED');
  });
});

describe('blog categories over GraphQL', () => {
  test('blogCategories: active ones publicly, urlKey and parentId filters; blogCategory by IRI', async () => {
    const all = (await ok('{ blogCategories { totalCount edges { node { id _id name urlKey parentId level isActive } } } }', customer))
      .blogCategories;
    const keys = all.edges.map((e: any) => e.node.urlKey);
    assert.ok(keys.includes('gql-news') && keys.includes('gql-sub'));
    assert.ok(!keys.includes('gql-off'));
    const byKey = (await ok('{ blogCategories(urlKey: "GQL-News") { totalCount edges { node { _id name level parentId } } } }'))
      .blogCategories;
    assert.equal(byKey.totalCount, 1);
    assert.deepEqual(byKey.edges[0].node, { _id: news._id, name: 'GQL News', level: 1, parentId: null });
    const children = (await ok(`{ blogCategories(parentId: ${news._id}) { edges { node { urlKey parentId level } } } }`)).blogCategories;
    assert.deepEqual(
      children.edges.map((e: any) => e.node),
      [{ urlKey: 'gql-sub', parentId: news._id, level: 2 }],
    );
    assert.equal((await ok('{ blogCategories(urlKey: "gql-off", scope: "all") { totalCount } }', reader)).blogCategories.totalCount, 1);
    assert.equal((await ok('{ blogCategories(urlKey: "gql-off") { totalCount } }')).blogCategories.totalCount, 0);
    assert.equal((await ok(`{ blogCategory(id: "${news.id}") { name } }`)).blogCategory.name, 'GQL News');
    const foreign = await gql(`{ blogCategory(id: "/api/rest/v2/blog-posts/${news._id}") { name } }`);
    assert.equal(foreign.data.blogCategory, null);
    assert.equal(foreign.errors[0].extensions.status, 404);
  });

  test('category mutations: admin only; a bad parent is a 400', async () => {
    const cust = await gql('mutation { createBlogCategory(input: {name: "X"}) { blogCategory { _id } } }', customer);
    assert.equal(cust.errors[0].extensions.status, 403);
    const anon = await gql('mutation { createBlogCategory(input: {name: "X"}) { blogCategory { _id } } }');
    assert.equal(anon.errors[0].extensions.status, 401);
    const badParent = await gql('mutation { createBlogCategory(input: {name: "X", parentId: 999999}) { blogCategory { _id } } }', admin);
    assert.equal(badParent.errors[0].extensions.status, 400);
    const c = (await ok('mutation { createBlogCategory(input: {name: "Temp cat"}) { blogCategory { id _id } } }', admin)).createBlogCategory
      .blogCategory;
    const upd = (
      await ok(
        `mutation { updateBlogCategory(input: {id: "${c.id}", name: "Temp cat 2", parentId: ${news._id}}) { blogCategory { name level } } }`,
        admin,
      )
    ).updateBlogCategory.blogCategory;
    assert.deepEqual(upd, { name: 'Temp cat 2', level: 2 });
    assert.equal(
      (await ok(`mutation { deleteBlogCategory(input: {id: ${c._id}}) { blogCategory { id } } }`, admin)).deleteBlogCategory.blogCategory
        .id,
      c.id,
    );
  });
});
