import { Type } from 'typebox';
import { access } from '../../platform/auth/access.js';
import type { RestApp } from '../../platform/module.js';
import { collectionResponse, sendCollection } from '../../platform/pagination.js';
import { getProduct, listProducts } from './products-read.js';
import { Product, ProductListQuery } from './products-schemas.js';
import { createProduct, deleteProduct, updateProduct } from './products-write.js';
import { ProductIdParams, ProductWrite } from './products-write-schemas.js';

const tags = ['products'];
const StoreQuery = Type.Object({
  store: Type.Optional(Type.String({ maxLength: 64, description: 'store view code; on update the store-view values (name, descriptions, url key, status, meta) are written to it' })),
});

export function productRoutes(app: RestApp): void {
  app.get(
    '/products',
    {
      schema: {
        operationId: 'products.list',
        tags,
        summary: 'List products (name order, 20 per page): full-text search, category, price, attribute and date filters',
        querystring: ProductListQuery,
        response: { 200: collectionResponse(Product) },
      },
      config: { access: access.public },
    },
    async (req, reply) => {
      const { result, page } = await listProducts(req.ctx, req.query);
      return sendCollection(req, reply, 'Product', result, page);
    },
  );
  app.get(
    '/products/:id',
    {
      schema: {
        operationId: 'products.get',
        tags,
        summary: 'A product with its details (public callers see only enabled products of the current website)',
        params: ProductIdParams,
        response: { 200: Product },
      },
      config: { access: access.public },
    },
    async (req) => getProduct(req.ctx, req.params.id),
  );
  app.post(
    '/products',
    {
      schema: {
        operationId: 'products.create',
        tags,
        summary: 'Create a product (sku and name required; type simple, the Default attribute set, the current website unless given)',
        querystring: StoreQuery,
        body: ProductWrite,
        response: { 201: Product },
      },
      config: { access: access.admin('products', 'create') },
    },
    async (req, reply) => reply.code(201).send(await createProduct(req.ctx, req.body)),
  );
  app.put(
    '/products/:id',
    {
      schema: {
        operationId: 'products.update',
        tags,
        summary: 'Update a product (partial); with ?store= the store-view values are written to that store view, useDefault drops them',
        params: ProductIdParams,
        querystring: StoreQuery,
        body: ProductWrite,
        response: { 200: Product },
      },
      config: { access: access.admin('products', 'write') },
    },
    async (req) => updateProduct(req.ctx, req.params.id, req.body),
  );
  app.delete(
    '/products/:id',
    {
      schema: {
        operationId: 'products.delete',
        tags,
        summary: 'Delete a product with its options, media, links, stock and URL paths',
        params: ProductIdParams,
        response: { 204: Type.Null() },
      },
      config: { access: access.admin('products', 'delete') },
    },
    async (req, reply) => {
      await deleteProduct(req.ctx, req.params.id);
      return reply.code(204).send(null);
    },
  );
}
