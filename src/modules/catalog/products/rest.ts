/** Products: the listing, one product, and the back-office writes, served by REST and GraphQL. */
import { Type } from 'typebox';
import { access } from '../../../platform/auth/access.js';
import { op, type Operation } from '../../../platform/operations.js';
import { given, IdArg, PageArgs } from '../graphql-args.js';
import { getProduct, listProducts, PRODUCT_PAGE } from './read.js';
import { Product, ProductListQuery, type ProductListQueryT } from './schemas.js';
import { createProduct, deleteProduct, updateProduct } from './write.js';
import { ProductIdParams, ProductWrite } from './write-schemas.js';

const tags = ['products'];
const shortName = 'Product';
const StoreQuery = Type.Object({
  store: Type.Optional(
    Type.String({
      maxLength: 64,
      description: 'store view code; on update the store-view values (name, descriptions, url key, status, meta) are written to it',
    }),
  ),
});

/** The arguments of `products` in Maho's names (and types: sortBy and sortDir are strings, checked as REST checks them). */
const ProductListArgs = Type.Object({
  search: Type.Optional(Type.String()),
  categoryId: Type.Optional(IdArg()),
  priceMin: Type.Optional(Type.Number()),
  priceMax: Type.Optional(Type.Number()),
  sortBy: Type.Optional(Type.String()),
  sortDir: Type.Optional(Type.String()),
  ...PageArgs,
  attributeFilters: Type.Optional(
    Type.String({ description: 'JSON object: attribute code → value, list of values (any of) or {"from","to"}' }),
  ),
  sku: Type.Optional(Type.String()),
  barcode: Type.Optional(Type.String({ description: 'exact barcode' })),
  createdFrom: Type.Optional(Type.String()),
  createdTo: Type.Optional(Type.String()),
  updatedSince: Type.Optional(Type.String()),
  urlKey: Type.Optional(Type.String()),
  type: Type.Optional(Type.String()),
  fullDetail: Type.Optional(Type.Boolean({ description: 'list items carry the detail fields (media gallery, options, ...)' })),
});

/** GraphQL arguments of a listing onto the REST query (barcode is the attr_barcode filter). */
export function productListQuery(args: Record<string, unknown>): Record<string, unknown> {
  const { barcode, fullDetail, ...rest } = given(args);
  return { ...rest, ...(barcode !== undefined ? { attr_barcode: barcode } : {}), ...(fullDetail ? { fullDetail: '1' } : {}) };
}

export async function productList(
  ctx: Parameters<typeof listProducts>[0],
  query: ProductListQueryT,
  page: Parameters<typeof listProducts>[2],
) {
  return (await listProducts(ctx, query, page)).result;
}

export const productOperations: Operation[] = [
  op({
    id: 'products.list',
    method: 'GET',
    path: '/products',
    tags,
    summary: 'List products (name order, 20 per page): full-text search, category, price, attribute and date filters',
    access: access.public,
    shortName,
    query: ProductListQuery,
    kind: 'collection',
    response: Product,
    page: PRODUCT_PAGE,
    graphql: { args: ProductListArgs, input: (a) => ({ query: productListQuery(a) }) },
    run: (ctx, { query, page }) => productList(ctx, query as ProductListQueryT, page),
  }),
  op({
    id: 'products.get',
    method: 'GET',
    path: '/products/:id',
    tags,
    summary: 'A product with its details (public callers see only enabled products of the current website)',
    access: access.public,
    shortName,
    params: ProductIdParams,
    response: Product,
    run: (ctx, { params }) => getProduct(ctx, params.id),
  }),
  op({
    id: 'products.create',
    method: 'POST',
    path: '/products',
    tags,
    summary: 'Create a product (sku and name required; type simple, the Default attribute set, the current website unless given)',
    access: access.admin('products', 'create'),
    shortName,
    query: StoreQuery,
    body: ProductWrite,
    response: Product,
    status: 201,
    run: (ctx, { body }) => createProduct(ctx, body),
  }),
  op({
    id: 'products.update',
    method: 'PUT',
    path: '/products/:id',
    tags,
    summary: 'Update a product (partial); with ?store= the store-view values are written to that store view, useDefault drops them',
    access: access.admin('products', 'write'),
    shortName,
    params: ProductIdParams,
    query: StoreQuery,
    body: ProductWrite,
    response: Product,
    run: (ctx, { params, body }) => updateProduct(ctx, params.id, body),
  }),
  op({
    id: 'products.delete',
    method: 'DELETE',
    path: '/products/:id',
    tags,
    summary: 'Delete a product with its options, media, links, stock and URL paths',
    access: access.admin('products', 'delete'),
    shortName,
    params: ProductIdParams,
    status: 204,
    run: (ctx, { params }) => deleteProduct(ctx, params.id),
  }),
];
