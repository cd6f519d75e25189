/** Links of a downloadable product: the list, the writes (which may carry files) and the deletes. */
import { access } from '../../../platform/auth/access.js';
import { op, type Operation } from '../../../platform/operations.js';
import {
  DownloadableLink,
  DownloadableLinkCreate,
  DownloadableLinkParams,
  DownloadableLinkUpdate,
  DownloadableLinkUpdateWithId,
  LinkIdBody,
  LinkIdQuery,
  ProductParams,
} from '../products/subresource-schemas.js';
import * as downloadable from './downloadable-service.js';

const tags = ['products'];
const path = '/products/:productId/downloadable-links';
const write = access.admin('products', 'write');

/**
 * Link and sample files come base64-encoded in the JSON body: these writes take bodies of up to 64 MiB (a file
 * of about 48 MB), as media uploads do; a larger body is a 413.
 */
export const DOWNLOADABLE_BODY_LIMIT = 64 * 1024 * 1024;

const shortName = 'DownloadableLink';

export const downloadableOperations: Operation[] = [
  op({
    id: 'products.downloadableLinks.list',
    method: 'GET',
    path,
    tags,
    summary: "The downloadable product's links (unpaginated; storefront callers never see link targets)",
    access: access.public,
    shortName,
    params: ProductParams,
    kind: 'collection',
    response: DownloadableLink,
    graphql: { name: 'productDownloadableLinks' },
    run: async (ctx, { params }) => {
      const items = await downloadable.listDownloadableLinks(ctx, params.productId);
      return { items, total: items.length };
    },
  }),
  op({
    id: 'products.downloadableLinks.create',
    method: 'POST',
    path,
    tags,
    summary: 'Add a link to a downloadable product (a URL, or a file sent as fileBase64 with fileName)',
    access: write,
    shortName,
    params: ProductParams,
    body: DownloadableLinkCreate,
    status: 201,
    response: DownloadableLink,
    bodyLimit: DOWNLOADABLE_BODY_LIMIT,
    graphql: { name: 'createProductDownloadableLink' },
    run: (ctx, { params, body }) => downloadable.createDownloadableLink(ctx, params.productId, body),
  }),
  op({
    id: 'products.downloadableLinks.updateById',
    method: 'PUT',
    path,
    tags,
    summary: 'Update the link named by `linkId` in the body (partial)',
    access: write,
    shortName,
    params: ProductParams,
    body: DownloadableLinkUpdateWithId,
    response: DownloadableLink,
    bodyLimit: DOWNLOADABLE_BODY_LIMIT,
    graphql: { name: 'updateProductDownloadableLinkById' },
    run: (ctx, { params, body }) => downloadable.updateDownloadableLink(ctx, params.productId, body.linkId ?? body.id, body),
  }),
  op({
    id: 'products.downloadableLinks.update',
    method: 'PUT',
    path: `${path}/:id`,
    tags,
    summary: 'Update a downloadable link (partial)',
    access: write,
    shortName,
    params: DownloadableLinkParams,
    body: DownloadableLinkUpdate,
    response: DownloadableLink,
    bodyLimit: DOWNLOADABLE_BODY_LIMIT,
    graphql: { name: 'updateProductDownloadableLink' },
    run: (ctx, { params, body }) => downloadable.updateDownloadableLink(ctx, params.productId, params.id, body),
  }),
  op({
    id: 'products.downloadableLinks.deleteById',
    method: 'DELETE',
    path,
    tags,
    summary: 'Remove the link named by `linkId` in the query or body',
    access: write,
    shortName,
    params: ProductParams,
    query: LinkIdQuery,
    body: LinkIdBody,
    status: 204,
    graphql: { name: 'deleteProductDownloadableLinkById' },
    run: (ctx, { params, query, body }) =>
      downloadable.deleteDownloadableLink(ctx, params.productId, query.linkId ?? query.id ?? body?.linkId ?? body?.id),
  }),
  op({
    id: 'products.downloadableLinks.delete',
    method: 'DELETE',
    path: `${path}/:id`,
    tags,
    summary: 'Remove a downloadable link',
    access: write,
    shortName,
    params: DownloadableLinkParams,
    status: 204,
    graphql: { name: 'deleteProductDownloadableLink' },
    run: (ctx, { params }) => downloadable.deleteDownloadableLink(ctx, params.productId, params.id),
  }),
];
