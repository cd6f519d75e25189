/** Product images: the gallery, the upload (a JSON body with a base64 image or an imageUrl), changes and the delete. */
import { Type } from 'typebox';
import { access } from '../../../platform/auth/access.js';
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
    id: 'products.media.create',
    method: 'POST',
    path: '/products/:productId/media',
    tags,
    summary: 'Add an image (base64 or imageUrl), converted to the configured format and size',
    access: write,
    shortName,
    params: ProductIdParams,
    body: ProductMediaCreate,
    response: ProductMedia,
    status: 201,
    // a base64 image of the largest configurable size does not fit in the API's default body limit
    bodyLimit: UPLOAD_BODY_LIMIT,
    graphql: { name: 'createProductMedia' },
    run: (ctx, { params, body }) => media.addProductMedia(ctx, params.productId, body),
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
  op({
    id: 'products.media.delete',
    method: 'DELETE',
    path: '/products/:productId/media',
    tags,
    summary: 'Remove the image named by valueId (query or body) and its file (a change to the product: products/write)',
    access: write,
    shortName,
    params: ProductIdParams,
    query: ProductMediaDeleteQuery,
    body: ProductMediaDeleteBody,
    status: 204,
    graphql: {
      name: 'deleteProductMedia',
      args: Type.Object({ productId: Type.Integer(), valueId: Type.Integer() }),
      input: (a) => ({ params: { productId: a.productId }, body: { valueId: a.valueId } }),
    },
    run: (ctx, { params, query, body }) => media.deleteProductMedia(ctx, params.productId, query.valueId ?? body?.valueId),
  }),
];
