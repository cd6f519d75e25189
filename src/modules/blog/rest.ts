import { crudRoutes } from '../../platform/crud-routes.js';
import type { RestApp } from '../../platform/module.js';
import * as categories from './categories.js';
import * as posts from './posts.js';
import { BlogCategory, BlogCategoryListQuery, BlogCategoryWrite, BlogPost, BlogPostListQuery, BlogPostWrite } from './schemas.js';

export function routes(app: RestApp): void {
  posts.registerBlogPostResolverCheck();
  crudRoutes(app, {
    path: '/blog-posts',
    resource: 'blog-posts',
    operation: 'blogPosts',
    shortName: 'BlogPost',
    item: BlogPost,
    write: BlogPostWrite,
    query: BlogPostListQuery,
    summaries: {
      list: 'Blog posts, newest first by publish date (20 a page); public callers get the active posts of the current store view whose publish date is set and not in the future, back-office readers every post; filters urlKey, categoryId, search (at least 3 characters); scope=all: every store view (back office only)',
      get: 'One blog post: for public callers only a published post of the current store view (else 404); back-office readers see any',
      create: 'Create a blog post (title required; urlKey from the title when omitted, unique per store view; active and in every store view by default); reachable at blog/<urlKey>',
      update: 'Update a blog post (only the fields sent)',
      delete: 'Delete a blog post and its URL paths',
    },
    list: posts.listPosts,
    get: posts.getPost,
    create: posts.createPost,
    update: posts.updatePost,
    remove: posts.deletePost,
  });
  crudRoutes(app, {
    path: '/blog-categories',
    resource: 'blog-categories',
    operation: 'blogCategories',
    shortName: 'BlogCategory',
    item: BlogCategory,
    write: BlogCategoryWrite,
    query: BlogCategoryListQuery,
    summaries: {
      list: 'Blog categories by position, then name (20 a page); public callers get the active categories of the current store view, back-office readers also inactive ones; filter parentId (0: top level); scope=all: every store view (back office only)',
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
}
