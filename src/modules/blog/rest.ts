import { Type } from 'typebox';
import { crudOperations } from '../../platform/crud-routes.js';
import type { Operation } from '../../platform/operations.js';
import * as categories from './categories.js';
import * as posts from './posts.js';
import { BlogCategory, BlogCategoryListQuery, BlogCategoryWrite, BlogPost, BlogPostListQuery, BlogPostWrite } from './schemas.js';

/** A filter Maho's GraphQL lists take that REST does not: handed to `run` as its `graphql` part. */
const Filter = Type.Optional(Type.String());

type Args = Record<string, unknown>;

/** Splits GraphQL arguments into the REST query and the GraphQL-only filters; a null argument is one not sent. */
function splitArgs(args: Args, extra: readonly string[]) {
  const query: Args = {};
  const filters: Args = {};
  for (const [k, v] of Object.entries(args)) {
    if (v === null || v === undefined) continue;
    (extra.includes(k) ? filters : query)[k] = v;
  }
  return { query, graphql: filters };
}

const filtersOf = (graphql: Args | undefined) => (graphql ?? {}) as Record<string, string | undefined>;

/** Blog posts and categories over REST and GraphQL (`blogPosts`, `blogPost`, `createBlogPost`, ... as Maho names them). */
export function blogOperations(): Operation[] {
  const [postList, ...postRest] = crudOperations({
    path: '/blog-posts',
    resource: 'blog-posts',
    operation: 'blogPosts',
    shortName: 'BlogPost',
    item: BlogPost,
    write: BlogPostWrite,
    query: BlogPostListQuery,
    summaries: {
      list: 'Blog posts, newest first by publish date (20 a page); public callers get the active posts of the current store view whose publish date is set and not in the future, back-office readers every post; filters urlKey, categoryId, search (at least 3 characters), isActive, storeId; sortBy, sortDir; scope=all: every store view (back office only)',
      get: 'One blog post: for public callers only a published post of the current store view (else 404); back-office readers see any',
      create:
        'Create a blog post (title required; urlKey from the title when omitted, unique per store view; active and in every store view by default); reachable at blog/<urlKey>',
      update: 'Update a blog post (only the fields sent)',
      delete: 'Delete a blog post and its URL paths',
    },
    list: posts.listPosts,
    get: posts.getPost,
    create: posts.createPost,
    update: posts.updatePost,
    remove: posts.deletePost,
  });
  const [categoryList, ...categoryRest] = crudOperations({
    path: '/blog-categories',
    resource: 'blog-categories',
    operation: 'blogCategories',
    shortName: 'BlogCategory',
    item: BlogCategory,
    write: BlogCategoryWrite,
    query: BlogCategoryListQuery,
    summaries: {
      list: 'Blog categories by position, then name (20 a page); public callers get the active categories of the current store view, back-office readers also inactive ones; filters parentId (0: top level), search (at least 3 characters), isActive, storeId; sortBy, sortDir; scope=all: every store view (back office only)',
      get: 'One blog category: for public callers only an active category of the current store view (else 404); back-office readers see any',
      create: 'Create a blog category (name required; urlKey from the name when omitted; parentId unknown → 400; path and level computed)',
      update: 'Update a blog category (only the fields sent); a new parentId moves its subtree (unknown or inside its own subtree → 400)',
      delete: 'Delete a blog category and its descendants',
    },
    list: categories.listCategories,
    get: categories.getCategory,
    create: categories.createCategory,
    update: categories.updateCategory,
    remove: categories.deleteCategory,
  });
  const postDates = ['createdFrom', 'createdTo', 'updatedSince'] as const;
  return [
    {
      ...postList,
      graphql: {
        args: Type.Object({ ...BlogPostListQuery.properties, createdFrom: Filter, createdTo: Filter, updatedSince: Filter }),
        input: (a) => splitArgs(a, postDates),
      },
      run: (ctx, { query, graphql, page }) => {
        const f = filtersOf(graphql);
        return posts.listPosts(ctx, { ...query, createdFrom: f.createdFrom, createdTo: f.createdTo, updatedSince: f.updatedSince }, page);
      },
    },
    ...postRest,
    {
      ...categoryList,
      graphql: { args: Type.Object({ ...BlogCategoryListQuery.properties, urlKey: Filter }), input: (a) => splitArgs(a, ['urlKey']) },
      run: (ctx, { query, graphql, page }) => categories.listCategories(ctx, { ...query, urlKey: filtersOf(graphql).urlKey }, page),
    },
    ...categoryRest,
  ];
}
