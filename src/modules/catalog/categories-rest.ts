import { Type } from 'typebox';
import { access } from '../../platform/auth/access.js';
import type { RestApp } from '../../platform/module.js';
import { collectionResponse, pageOf, sendCollection } from '../../platform/pagination.js';
import { Category, CategoryListQuery, CategoryParams, CategorySummary, CategoryWrite } from './categories-schemas.js';
import * as categories from './categories-service.js';

const tags = ['categories'];

export function categoryRoutes(app: RestApp): void {
  categories.registerCategoryResolverCheck();

  app.get(
    '/categories',
    {
      schema: {
        operationId: 'categories.list',
        tags,
        summary:
          "Categories in menu order (100 a page by default, at most 500): the active children of the store's root category, of `parentId`, or those whose name contains `search`",
        querystring: CategoryListQuery,
        response: { 200: collectionResponse(CategorySummary) },
      },
      config: { access: access.public, publicCache: true },
    },
    async (req, reply) => {
      const page = pageOf(req.query, { defaultSize: 100, maxSize: 500 });
      return sendCollection(req, reply, 'Category', await categories.listCategories(req.ctx, req.query, page), page);
    },
  );
  app.get(
    '/categories/:id',
    {
      schema: {
        operationId: 'categories.get',
        tags,
        summary: 'One category with its active children (inactive ones only for admins holding categories/read)',
        params: CategoryParams,
        response: { 200: Category },
      },
      config: { access: access.public },
    },
    async (req) => categories.getCategory(req.ctx, req.params.id),
  );
  app.post(
    '/categories',
    {
      schema: {
        operationId: 'categories.create',
        tags,
        summary: "Create a category (under the store's root category unless parentId is given)",
        body: CategoryWrite,
        response: { 201: Category },
      },
      config: { access: access.admin('categories', 'create') },
    },
    async (req, reply) => reply.code(201).send(await categories.createCategory(req.ctx, req.body)),
  );
  app.put(
    '/categories/:id',
    {
      schema: {
        operationId: 'categories.update',
        tags,
        summary: 'Update a category (only the fields sent; ?store= writes store-view values); a new parentId moves its subtree',
        params: CategoryParams,
        body: CategoryWrite,
        response: { 200: Category },
      },
      config: { access: access.admin('categories', 'write') },
    },
    async (req) => categories.updateCategory(req.ctx, req.params.id, req.body),
  );
  app.delete(
    '/categories/:id',
    {
      schema: {
        operationId: 'categories.delete',
        tags,
        summary: 'Delete a category and its subtree (products stay; their assignments go)',
        params: CategoryParams,
        response: { 204: Type.Null({ description: 'Deleted' }) },
      },
      config: { access: access.admin('categories', 'delete') },
    },
    async (req, reply) => {
      await categories.deleteCategory(req.ctx, req.params.id);
      return reply.code(204).send(null);
    },
  );
}
