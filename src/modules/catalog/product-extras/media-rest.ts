/** Product images: the gallery (REST and GraphQL) and the upload (a plain REST route: it needs a larger body limit). */
import { Type } from 'typebox';
import { access } from '../../../platform/auth/access.js';
import type { RestApp } from '../../../platform/module.js';
import { op, type Operation } from '../../../platform/operations.js';
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

const shortName = 'ProductMedia';
const write = access.admin('products', 'write');

export const mediaOperations: Operation[] = [
  op({
    id: 'products.media.list',
    method: 'GET',
    path: '/products/:productId/media',
    tags,
    summary: 'Images of a product by position (unpaginated); disabled images only for catalog readers',
    access: access.public,
    shortName,
    params: ProductIdParams,
    kind: 'collection',
    response: ProductMedia,
    graphql: { name: 'productMediaGallery' },
    run: async (ctx, { params }) => {
      const items = await media.listProductMedia(ctx, params.productId);
      return { items, total: items.length };
    },
  }),
  op({
    id: 'products.media.update',
    method: 'PUT',
    path: '/products/:productId/media',
    tags,
    summary: 'Change the label, position, disabled flag or roles of the image named by valueId',
    access: write,
    shortName,
    params: ProductIdParams,
    body: ProductMediaUpdate,
    response: ProductMedia,
    graphql: { name: 'updateProductMedia' },
    run: (ctx, { params, body }) => media.updateProductMedia(ctx, params.productId, body),
  }),
];

/**
 * The delete of an image by valueId in the query or the body, for GraphQL (../graphql.ts serves it as
 * `deleteProductMedia`); REST serves it as a plain route below, which takes a JSON request without a body.
 */
export const deleteProductMedia = op({
  id: 'products.media.delete',
  method: 'DELETE',
  path: '/products/:productId/media',
  tags,
  summary: 'Remove the image named by valueId (query or body) and its file (a change to the product: products/write)',
  access: write,
  shortName,
  params: ProductIdParams,
  body: ProductMediaDeleteBody,
  status: 204,
  graphql: { name: 'deleteProductMedia' },
  run: (ctx, { params, body }) => media.deleteProductMedia(ctx, params.productId, body?.valueId),
});

/**
 * Plain routes: the upload (a base64 image needs a body limit larger than the API's default) and the delete (an
 * empty JSON body reads as `{}`, which a declaration cannot say).
 */
export function mediaRoutes(app: RestApp): void {
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
      config: { access: write },
    },
    async (req, reply) => {
      await media.deleteProductMedia(req.ctx, req.params.productId, req.query.valueId ?? req.body.valueId);
      return reply.code(204).send(null);
    },
  );
}
