/**
 * The products of a category in category position order (unless sortBy), as Maho's GraphQL `categoryProducts`
 * lists them: the product listing's service path with the category as its filter.
 */
import { Type } from 'typebox';
import { access } from '../../../platform/auth/access.js';
import { op } from '../../../platform/operations.js';
import { IdArg } from '../graphql-args.js';
import { PRODUCT_PAGE } from './read.js';
import { productList } from './rest.js';
import { Product, PRODUCT_SORT_FIELDS, type ProductListQueryT } from './schemas.js';

const CategoryParams = Type.Object({ categoryId: IdArg('anchor categories include their sub-categories') });

/** One of some strings (a GraphQL String, checked as REST checks it). */
const OneOf = (values: readonly string[]) => Type.Union(values.map((v) => Type.Literal(v)));

/** In the order of Maho's arguments. */
const CategoryProductsQuery = Type.Object({
  sortBy: Type.Optional(OneOf(PRODUCT_SORT_FIELDS)),
  sortDir: Type.Optional(OneOf(['asc', 'desc', 'ASC', 'DESC'])),
  pageSize: Type.Optional(Type.Integer({ description: 'page size, clamped to the list maximum' })),
  page: Type.Optional(Type.Integer({ description: '1-based page number; values below 1 read as 1' })),
});

export const categoryProducts = op({
  id: 'products.categoryProducts',
  method: 'GET',
  path: '/categories/:categoryId/products',
  tags: ['products'],
  summary: 'Products of a category (anchor categories include their sub-categories), in category position order unless sortBy',
  access: access.public,
  shortName: 'Product',
  params: CategoryParams,
  query: CategoryProductsQuery,
  kind: 'collection',
  response: Product,
  page: PRODUCT_PAGE,
  graphql: { name: 'categoryProducts' },
  mcp: { name: 'category_products_list' },
  run: (ctx, { params, query, page }) =>
    productList(ctx, { ...query, categoryId: params.categoryId, sortBy: query.sortBy ?? 'position' } as ProductListQueryT, page),
});
