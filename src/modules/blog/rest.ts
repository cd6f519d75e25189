import { Type } from 'typebox';
import { access } from '../../platform/auth/access.js';
import type { RestApp } from '../../platform/module.js';
import { collectionResponse, pageOf, sendCollection } from '../../platform/pagination.js';
import * as categories from './categories.js';
import * as posts from './posts.js';
import { BlogCategory, BlogCategoryListQuery, BlogCategoryWrite, BlogParams, BlogPost, BlogPostListQuery, BlogPostWrite } from './schemas.js';

const deleted = { 204: Type.Null({ description: 'Deleted' }) };

export function routes(app: RestApp): void {
  posts.registerBlogPostResolverCheck();
  const tags = ['blog-posts'];
  app.get(
    '/blog-posts',
    {
      schema: {
        operationId: 'blogPosts.list',
        tags,
        summary:
          'Blog posts, newest first by publish date (20 a page); public callers get the active posts of the current store view whose publish date is set and not in the future, back-office readers every post; filters urlKey, categoryId, search (at least 3 characters); scope=all: every store view (back office only)',
        querystring: BlogPostListQuery,
        response: { 200: collectionResponse(BlogPost) },
      },
      config: { access: access.public },
    },
    async (req, reply) => {
      const page = pageOf(req.query, { defaultSize: 20, maxSize: 100 });
      return sendCollection(req, reply, 'BlogPost', await posts.listPosts(req.ctx, req.query, page), page);
    },
  );
  app.get(
    '/blog-posts/:id',
    {
      schema: {
        operationId: 'blogPosts.get',
        tags,
        summary: 'One blog post: for public callers only a published post of the current store view (else 404); back-office readers see any',
        params: BlogParams,
        response: { 200: BlogPost },
      },
      config: { access: access.public },
    },
    async (req) => posts.getPost(req.ctx, req.params.id),
  );
  app.post(
    '/blog-posts',
    {
      schema: {
        operationId: 'blogPosts.create',
        tags,
        summary: 'Create a blog post (title required; urlKey from the title when omitted, unique per store view; active and in every store view by default); reachable at blog/<urlKey>',
        body: BlogPostWrite,
        response: { 201: BlogPost },
      },
      config: { access: access.admin('blog-posts', 'create') },
    },
    async (req, reply) => reply.code(201).send(await posts.createPost(req.ctx, req.body)),
  );
  app.put(
    '/blog-posts/:id',
    {
      schema: { operationId: 'blogPosts.update', tags, summary: 'Update a blog post (only the fields sent)', params: BlogParams, body: BlogPostWrite, response: { 200: BlogPost } },
      config: { access: access.admin('blog-posts', 'write') },
    },
    async (req) => posts.updatePost(req.ctx, req.params.id, req.body),
  );
  app.delete(
    '/blog-posts/:id',
    {
      schema: { operationId: 'blogPosts.delete', tags, summary: 'Delete a blog post and its URL paths', params: BlogParams, response: deleted },
      config: { access: access.admin('blog-posts', 'delete') },
    },
    async (req, reply) => {
      await posts.deletePost(req.ctx, req.params.id);
      return reply.code(204).send(null);
    },
  );

  const ctags = ['blog-categories'];
  app.get(
    '/blog-categories',
    {
      schema: {
        operationId: 'blogCategories.list',
        tags: ctags,
        summary:
          'Blog categories by position, then name (20 a page); public callers get the active categories of the current store view, back-office readers also inactive ones; filter parentId (0: top level); scope=all: every store view (back office only)',
        querystring: BlogCategoryListQuery,
        response: { 200: collectionResponse(BlogCategory) },
      },
      config: { access: access.public },
    },
    async (req, reply) => {
      const page = pageOf(req.query, { defaultSize: 20, maxSize: 100 });
      return sendCollection(req, reply, 'BlogCategory', await categories.listCategories(req.ctx, req.query, page), page);
    },
  );
  app.get(
    '/blog-categories/:id',
    {
      schema: {
        operationId: 'blogCategories.get',
        tags: ctags,
        summary: 'One blog category: for public callers only an active category of the current store view (else 404); back-office readers see any',
        params: BlogParams,
        response: { 200: BlogCategory },
      },
      config: { access: access.public },
    },
    async (req) => categories.getCategory(req.ctx, req.params.id),
  );
  app.post(
    '/blog-categories',
    {
      schema: {
        operationId: 'blogCategories.create',
        tags: ctags,
        summary: 'Create a blog category (name required; urlKey from the name when omitted; parentId unknown → 400; path and level computed)',
        body: BlogCategoryWrite,
        response: { 201: BlogCategory },
      },
      config: { access: access.admin('blog-categories', 'create') },
    },
    async (req, reply) => reply.code(201).send(await categories.createCategory(req.ctx, req.body)),
  );
  app.put(
    '/blog-categories/:id',
    {
      schema: {
        operationId: 'blogCategories.update',
        tags: ctags,
        summary: 'Update a blog category (only the fields sent); a new parentId moves its subtree (unknown or inside its own subtree → 400)',
        params: BlogParams,
        body: BlogCategoryWrite,
        response: { 200: BlogCategory },
      },
      config: { access: access.admin('blog-categories', 'write') },
    },
    async (req) => categories.updateCategory(req.ctx, req.params.id, req.body),
  );
  app.delete(
    '/blog-categories/:id',
    {
      schema: { operationId: 'blogCategories.delete', tags: ctags, summary: 'Delete a blog category and its descendants', params: BlogParams, response: deleted },
      config: { access: access.admin('blog-categories', 'delete') },
    },
    async (req, reply) => {
      await categories.deleteCategory(req.ctx, req.params.id);
      return reply.code(204).send(null);
    },
  );
}
