/** Categories: the list, one category, and the back-office writes, served by REST and GraphQL. */
import { Type } from 'typebox';
import { access } from '../../../platform/auth/access.js';
import type { Ctx } from '../../../platform/context.js';
import { op, type Operation } from '../../../platform/operations.js';
import type { Page } from '../../../platform/pagination.js';
import { given, IdArg, PageArgs } from '../graphql-args.js';
import { Category, CategoryListQuery, CategoryParams, CategorySummary, CategoryWrite, type CategoryListQueryT } from './schemas.js';
import { categoryTree } from './read.js';
import * as categories from './service.js';

const tags = ['categories'];
const shortName = 'Category';

/** `categories` in Maho's names: includeInMenu a Boolean, and urlKey (GraphQL only: the REST list has no such filter). */
const CategoryListArgs = Type.Object({
  parentId: Type.Optional(IdArg('direct children of this category')),
  includeInMenu: Type.Optional(Type.Boolean()),
  urlKey: Type.Optional(Type.String({ maxLength: 255, description: 'the categories with this url key in the current store view' })),
  search: Type.Optional(Type.String({ description: 'name contains' })),
  ...PageArgs,
});

async function listCategories(ctx: Ctx, query: CategoryListQueryT, graphql: { urlKey?: string } | undefined, page: Page) {
  const urlKey = graphql?.urlKey;
  if (urlKey !== undefined) return categories.listCategoriesByUrlKey(ctx, urlKey, query, page);
  return categories.listCategories(ctx, query, page);
}

export const categoryOperations: Operation[] = [
  op({
    id: 'categories.list',
    method: 'GET',
    path: '/categories',
    tags,
    summary:
      "Categories in menu order (100 a page by default, at most 500): the active children of the store's root category, of `parentId`, or those whose name contains `search`",
    access: access.public,
    publicCache: true,
    shortName,
    query: CategoryListQuery,
    kind: 'collection',
    response: CategorySummary,
    page: { defaultSize: 100, maxSize: 500 },
    graphql: {
      args: CategoryListArgs,
      input: (a) => {
        const { includeInMenu, urlKey, ...rest } = given(a);
        return {
          query: { ...rest, ...(includeInMenu !== undefined ? { includeInMenu: String(includeInMenu) } : {}) },
          graphql: urlKey !== undefined ? { urlKey } : undefined,
        };
      },
    },
    run: (ctx, { query, graphql, page }) => listCategories(ctx, query, graphql, page),
  }),
  op({
    id: 'categories.tree',
    method: 'GET',
    path: '/categories/tree',
    tags,
    summary:
      "The category tree in one list: every active category below the store's root category whose parents are active too (admins holding categories/read: every one), parents before children, by level and then in menu order; parentId nests them",
    access: access.public,
    publicCache: true,
    shortName,
    kind: 'collection',
    response: CategorySummary,
    graphql: { name: 'categoryTree' },
    run: (ctx) => categoryTree(ctx),
  }),
  op({
    id: 'categories.get',
    method: 'GET',
    path: '/categories/:id',
    tags,
    summary: 'One category with its active children (inactive ones only for admins holding categories/read)',
    access: access.public,
    shortName,
    params: CategoryParams,
    response: Category,
    run: (ctx, { params }) => categories.getCategory(ctx, params.id),
  }),
  op({
    id: 'categories.create',
    method: 'POST',
    path: '/categories',
    tags,
    summary: "Create a category (under the store's root category unless parentId is given)",
    access: access.admin('categories', 'create'),
    shortName,
    body: CategoryWrite,
    response: Category,
    status: 201,
    run: (ctx, { body }) => categories.createCategory(ctx, body),
  }),
  op({
    id: 'categories.update',
    method: 'PUT',
    path: '/categories/:id',
    tags,
    summary: 'Update a category (only the fields sent; ?store= writes store-view values); a new parentId moves its subtree',
    access: access.admin('categories', 'write'),
    shortName,
    params: CategoryParams,
    body: CategoryWrite,
    response: Category,
    run: (ctx, { params, body }) => categories.updateCategory(ctx, params.id, body),
  }),
  op({
    id: 'categories.delete',
    method: 'DELETE',
    path: '/categories/:id',
    tags,
    summary: 'Delete a category and its subtree (products stay; their assignments go)',
    access: access.admin('categories', 'delete'),
    shortName,
    params: CategoryParams,
    status: 204,
    run: (ctx, { params }) => categories.deleteCategory(ctx, params.id),
  }),
];
