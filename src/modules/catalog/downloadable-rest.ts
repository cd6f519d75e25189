import { access } from '../../platform/auth/access.js';
import type { RestApp } from '../../platform/module.js';
import { collectionResponse, sendCollection } from '../../platform/pagination.js';
import {
  DownloadableLink,
  DownloadableLinkCreate,
  DownloadableLinkParams,
  DownloadableLinkUpdate,
  DownloadableLinkUpdateWithId,
  LinkIdBody,
  LinkIdQuery,
  NoContent,
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

export function downloadableRoutes(app: RestApp): void {
  app.get(
    path,
    {
      schema: {
        operationId: 'products.downloadableLinks.list',
        tags,
        summary: "The downloadable product's links (unpaginated; storefront callers never see link targets)",
        params: ProductParams,
        response: { 200: collectionResponse(DownloadableLink) },
      },
      config: { access: access.public },
    },
    async (req, reply) => {
      const items = await downloadable.listDownloadableLinks(req.ctx, req.params.productId);
      return sendCollection(req, reply, 'DownloadableLink', { items, total: items.length });
    },
  );
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
  app.delete(
    path,
    {
      schema: {
        operationId: 'products.downloadableLinks.deleteById',
        tags,
        summary: 'Remove the link named by `linkId` in the query or body',
        params: ProductParams,
        querystring: LinkIdQuery,
        body: LinkIdBody,
        response: { 204: NoContent },
      },
      config: write,
    },
    async (req, reply) => {
      const linkId = req.query.linkId ?? req.query.id ?? req.body?.linkId ?? req.body?.id;
      await downloadable.deleteDownloadableLink(req.ctx, req.params.productId, linkId);
      return reply.code(204).send(null);
    },
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
  app.delete(
    `${path}/:id`,
    {
      schema: {
        operationId: 'products.downloadableLinks.delete',
        tags,
        summary: 'Remove a downloadable link',
        params: DownloadableLinkParams,
        response: { 204: NoContent },
      },
      config: write,
    },
    async (req, reply) => {
      await downloadable.deleteDownloadableLink(req.ctx, req.params.productId, req.params.id);
      return reply.code(204).send(null);
    },
  );
}
