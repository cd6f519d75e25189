import { access } from '../../platform/auth/access.js';
import type { RestApp } from '../../platform/module.js';
import { collectionResponse, sendCollection } from '../../platform/pagination.js';
import {
  BundleOption,
  BundleOptionCreate,
  BundleOptionParams,
  BundleOptionUpdate,
  BundleOptionUpdateWithId,
  NoContent,
  OptionalIdBody,
  OptionalIdQuery,
  ProductParams,
} from './composites-schemas.js';
import * as bundles from './bundle-service.js';

const tags = ['products'];
const path = '/products/:productId/bundle-options';
const write = { access: access.admin('products', 'write') };

export function bundleRoutes(app: RestApp): void {
  app.get(
    path,
    {
      schema: {
        operationId: 'products.bundleOptions.list',
        tags,
        summary: "The bundle product's options with their selections (unpaginated)",
        params: ProductParams,
        response: { 200: collectionResponse(BundleOption) },
      },
      config: { access: access.public },
    },
    async (req, reply) => {
      const items = await bundles.listBundleOptions(req.ctx, req.params.productId);
      return sendCollection(req, reply, 'BundleOption', { items, total: items.length });
    },
  );
  app.post(
    path,
    {
      schema: {
        operationId: 'products.bundleOptions.create',
        tags,
        summary: 'Add an option to a bundle product (title required; selections of simple or virtual products)',
        params: ProductParams,
        body: BundleOptionCreate,
        response: { 201: BundleOption },
      },
      config: write,
    },
    async (req, reply) => reply.code(201).send(await bundles.createBundleOption(req.ctx, req.params.productId, req.body)),
  );
  app.put(
    path,
    {
      schema: {
        operationId: 'products.bundleOptions.updateById',
        tags,
        summary: 'Update the bundle option named by `id` in the body (partial; selections replace when sent)',
        params: ProductParams,
        body: BundleOptionUpdateWithId,
        response: { 200: BundleOption },
      },
      config: write,
    },
    async (req) => bundles.updateBundleOption(req.ctx, req.params.productId, req.body.id ?? req.body.optionId, req.body),
  );
  app.delete(
    path,
    {
      schema: {
        operationId: 'products.bundleOptions.deleteById',
        tags,
        summary: 'Remove the bundle option named by `id` in the query or body',
        params: ProductParams,
        querystring: OptionalIdQuery,
        body: OptionalIdBody,
        response: { 204: NoContent },
      },
      config: write,
    },
    async (req, reply) => {
      await bundles.deleteBundleOption(req.ctx, req.params.productId, req.query.id ?? req.body?.id ?? req.body?.optionId);
      return reply.code(204).send(null);
    },
  );
  app.put(
    `${path}/:id`,
    {
      schema: {
        operationId: 'products.bundleOptions.update',
        tags,
        summary: 'Update a bundle option (partial; selections replace when sent)',
        params: BundleOptionParams,
        body: BundleOptionUpdate,
        response: { 200: BundleOption },
      },
      config: write,
    },
    async (req) => bundles.updateBundleOption(req.ctx, req.params.productId, req.params.id, req.body),
  );
  app.delete(
    `${path}/:id`,
    {
      schema: {
        operationId: 'products.bundleOptions.delete',
        tags,
        summary: 'Remove a bundle option',
        params: BundleOptionParams,
        response: { 204: NoContent },
      },
      config: write,
    },
    async (req, reply) => {
      await bundles.deleteBundleOption(req.ctx, req.params.productId, req.params.id);
      return reply.code(204).send(null);
    },
  );
}
