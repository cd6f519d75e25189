/**
 * Links of a downloadable product: the list and the deletes are declarations (REST and GraphQL); the writes that
 * carry files stay plain routes, as they need a larger body limit than a declaration can ask for.
 */
import { access } from '../../platform/auth/access.js';
import type { RestApp } from '../../platform/module.js';
import { op, type Operation } from '../../platform/operations.js';
import {
  DownloadableLink,
  DownloadableLinkCreate,
  DownloadableLinkParams,
  DownloadableLinkUpdate,
  DownloadableLinkUpdateWithId,
  LinkIdBody,
  LinkIdQuery,
  ProductParams,
} from './composites-schemas.js';
import * as downloadable from './downloadable-service.js';

const tags = ['products'];
const path = '/products/:productId/downloadable-links';
const write = { access: access.admin('products', 'write') };

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
    id: 'products.downloadableLinks.deleteById',
    method: 'DELETE',
    path,
    tags,
    summary: 'Remove the link named by `linkId` in the query or body',
    access: write.access,
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
    access: write.access,
    shortName,
    params: DownloadableLinkParams,
    status: 204,
    graphql: { name: 'deleteProductDownloadableLink' },
    run: (ctx, { params }) => downloadable.deleteDownloadableLink(ctx, params.productId, params.id),
  }),
];

export function downloadableRoutes(app: RestApp): void {
  app.post(
    path,
    {
      bodyLimit: DOWNLOADABLE_BODY_LIMIT,
      schema: {
        operationId: 'products.downloadableLinks.create',
        tags,
        summary: 'Add a link to a downloadable product (a URL, or a file sent as fileBase64 with fileName)',
        params: ProductParams,
        body: DownloadableLinkCreate,
        response: { 201: DownloadableLink },
      },
      config: write,
    },
    async (req, reply) => reply.code(201).send(await downloadable.createDownloadableLink(req.ctx, req.params.productId, req.body)),
  );
  app.put(
    path,
    {
      bodyLimit: DOWNLOADABLE_BODY_LIMIT,
      schema: {
        operationId: 'products.downloadableLinks.updateById',
        tags,
        summary: 'Update the link named by `linkId` in the body (partial)',
        params: ProductParams,
        body: DownloadableLinkUpdateWithId,
        response: { 200: DownloadableLink },
      },
      config: write,
    },
    async (req) => downloadable.updateDownloadableLink(req.ctx, req.params.productId, req.body.linkId ?? req.body.id, req.body),
  );
  app.put(
    `${path}/:id`,
    {
      bodyLimit: DOWNLOADABLE_BODY_LIMIT,
      schema: {
        operationId: 'products.downloadableLinks.update',
        tags,
        summary: 'Update a downloadable link (partial)',
        params: DownloadableLinkParams,
        body: DownloadableLinkUpdate,
        response: { 200: DownloadableLink },
      },
      config: write,
    },
    async (req) => downloadable.updateDownloadableLink(req.ctx, req.params.productId, req.params.id, req.body),
  );
}
