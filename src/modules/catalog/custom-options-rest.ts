import { Type } from 'typebox';
import { access } from '../../platform/auth/access.js';
import type { RestApp } from '../../platform/module.js';
import { collectionResponse, sendCollection } from '../../platform/pagination.js';
import {
  CustomOption,
  CustomOptionCreate,
  CustomOptionUpdate,
  OptionFileParams,
  OptionFileResponse,
  ProductOptionParams,
  ProductParams,
} from './custom-options-schemas.js';
import * as options from './custom-options-service.js';

const tags = ['products'];

export function customOptionRoutes(app: RestApp): void {
  app.get(
    '/products/:productId/custom-options',
    {
      schema: {
        operationId: 'products.customOptions.list',
        tags,
        summary: 'Custom options of a product with their values, by sort order (unpaginated)',
        params: ProductParams,
        response: { 200: collectionResponse(CustomOption) },
      },
      config: { access: access.public },
    },
    async (req, reply) => {
      const items = await options.listCustomOptions(req.ctx, req.params.productId);
      return sendCollection(req, reply, 'ProductCustomOption', { items, total: items.length });
    },
  );
  app.post(
    '/products/:productId/custom-options',
    {
      schema: {
        operationId: 'products.customOptions.create',
        tags,
        summary: 'Add a custom option (select types need values; the others take a price)',
        params: ProductParams,
        body: CustomOptionCreate,
        response: { 201: CustomOption },
      },
      config: { access: access.admin('products', 'write') },
    },
    async (req, reply) => reply.code(201).send(await options.createCustomOption(req.ctx, req.params.productId, req.body)),
  );
  app.put(
    '/products/:productId/custom-options/:id',
    {
      schema: {
        operationId: 'products.customOptions.update',
        tags,
        summary: 'Change a custom option (the keys sent; values, when sent, replace the values)',
        params: ProductOptionParams,
        body: CustomOptionUpdate,
        response: { 200: CustomOption },
      },
      config: { access: access.admin('products', 'write') },
    },
    async (req) => options.updateCustomOption(req.ctx, req.params.productId, req.params.id, req.body),
  );
  app.delete(
    '/products/:productId/custom-options/:id',
    {
      schema: {
        operationId: 'products.customOptions.delete',
        tags,
        summary: 'Remove a custom option, its values and the files uploaded for it (a change to the product: products/write)',
        params: ProductOptionParams,
        response: { 204: Type.Null({ description: 'Deleted' }) },
      },
      config: { access: access.admin('products', 'write') },
    },
    async (req, reply) => {
      await options.deleteCustomOption(req.ctx, req.params.productId, req.params.id);
      return reply.code(204).send(null);
    },
  );
  app.get(
    '/custom-option-file/:optionId/:key',
    {
      schema: {
        operationId: 'customOptionFiles.download',
        tags,
        summary: 'Download a file a shopper uploaded for a file option (the key is the secret)',
        params: OptionFileParams,
        response: { 200: OptionFileResponse },
      },
      config: { access: access.public },
    },
    async (req, reply) => {
      const file = await options.openCustomOptionFile(req.ctx, req.params.optionId, req.params.key);
      return reply
        .type(file.contentType)
        .header('content-length', file.size)
        .header('content-disposition', file.disposition)
        .header('x-content-type-options', 'nosniff')
        .header('cache-control', 'private, no-store')
        .send(file.stream);
    },
  );
}
