import { Type } from 'typebox';
import { access } from '../../platform/auth/access.js';
import type { RestApp } from '../../platform/module.js';
import { collectionResponse, sendCollection } from '../../platform/pagination.js';
import {
  ProductIdParams,
  ProductMedia,
  ProductMediaCreate,
  ProductMediaDeleteBody,
  ProductMediaDeleteQuery,
  ProductMediaUpdate,
} from './media-schemas.js';
import * as media from './media-service.js';

const tags = ['products'];

/** A base64 image of the largest configurable size, with JSON around it, fits in this. */
const UPLOAD_BODY_LIMIT = 64 * 1024 * 1024;

export function mediaRoutes(app: RestApp): void {
  app.get(
    '/products/:productId/media',
    {
      schema: {
        operationId: 'products.media.list',
        tags,
        summary: 'Images of a product by position (unpaginated); disabled images only for catalog readers',
        params: ProductIdParams,
        response: { 200: collectionResponse(ProductMedia) },
      },
      config: { access: access.public },
    },
    async (req, reply) => {
      const items = await media.listProductMedia(req.ctx, req.params.productId);
      return sendCollection(req, reply, 'ProductMedia', { items, total: items.length });
    },
  );
  app.post(
    '/products/:productId/media',
    {
      bodyLimit: UPLOAD_BODY_LIMIT,
      schema: {
        operationId: 'products.media.create',
        tags,
        summary: 'Add an image (base64 or imageUrl), converted to the configured format and size',
        params: ProductIdParams,
        body: ProductMediaCreate,
        response: { 201: ProductMedia },
      },
      config: { access: access.admin('products', 'write') },
    },
    async (req, reply) => reply.code(201).send(await media.addProductMedia(req.ctx, req.params.productId, req.body)),
  );
  app.put(
    '/products/:productId/media',
    {
      schema: {
        operationId: 'products.media.update',
        tags,
        summary: 'Change the label, position, disabled flag or roles of the image named by valueId',
        params: ProductIdParams,
        body: ProductMediaUpdate,
        response: { 200: ProductMedia },
      },
      config: { access: access.admin('products', 'write') },
    },
    async (req) => media.updateProductMedia(req.ctx, req.params.productId, req.body),
  );
  app.delete(
    '/products/:productId/media',
    {
      // valueId may come in the query or in a JSON body; no body at all is an empty one
      preValidation: async (req) => {
        req.body ??= {};
      },
      schema: {
        operationId: 'products.media.delete',
        tags,
        summary: 'Remove the image named by valueId (query or body) and its file (a change to the product: products/write)',
        params: ProductIdParams,
        querystring: ProductMediaDeleteQuery,
        body: ProductMediaDeleteBody,
        response: { 204: Type.Null({ description: 'Deleted' }) },
      },
      config: { access: access.admin('products', 'write') },
    },
    async (req, reply) => {
      await media.deleteProductMedia(req.ctx, req.params.productId, req.query.valueId ?? req.body.valueId);
      return reply.code(204).send(null);
    },
  );
}
