/** Custom options of a product (REST and GraphQL), and the download of files shoppers uploaded for them (a plain route). */
import { access } from '../../../platform/auth/access.js';
import type { RestApp } from '../../../platform/module.js';
import { op, type Operation } from '../../../platform/operations.js';
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
import { createCustomOption, deleteCustomOption, updateCustomOption } from './custom-options-write.js';

const tags = ['products'];

const shortName = 'ProductCustomOption';
const write = access.admin('products', 'write');

export const customOptionOperations: Operation[] = [
  op({
    id: 'products.customOptions.list',
    method: 'GET',
    path: '/products/:productId/custom-options',
    tags,
    summary: 'Custom options of a product with their values, by sort order (unpaginated)',
    access: access.public,
    shortName,
    params: ProductParams,
    kind: 'collection',
    response: CustomOption,
    graphql: { name: 'productCustomOptions' },
    run: async (ctx, { params }) => {
      const items = await options.listCustomOptions(ctx, params.productId);
      return { items, total: items.length };
    },
  }),
  op({
    id: 'products.customOptions.create',
    method: 'POST',
    path: '/products/:productId/custom-options',
    tags,
    summary: 'Add a custom option (select types need values; the others take a price)',
    access: write,
    shortName,
    params: ProductParams,
    body: CustomOptionCreate,
    response: CustomOption,
    status: 201,
    graphql: { name: 'createProductCustomOption' },
    run: (ctx, { params, body }) => createCustomOption(ctx, params.productId, body),
  }),
  op({
    id: 'products.customOptions.update',
    method: 'PUT',
    path: '/products/:productId/custom-options/:id',
    tags,
    summary: 'Change a custom option (the keys sent; values, when sent, replace the values)',
    access: write,
    shortName,
    params: ProductOptionParams,
    body: CustomOptionUpdate,
    response: CustomOption,
    graphql: { name: 'updateProductCustomOption' },
    run: (ctx, { params, body }) => updateCustomOption(ctx, params.productId, params.id, body),
  }),
  op({
    id: 'products.customOptions.delete',
    method: 'DELETE',
    path: '/products/:productId/custom-options/:id',
    tags,
    summary: 'Remove a custom option, its values and the files uploaded for it (a change to the product: products/write)',
    access: write,
    shortName,
    params: ProductOptionParams,
    status: 204,
    graphql: { name: 'deleteProductCustomOption' },
    run: (ctx, { params }) => deleteCustomOption(ctx, params.productId, params.id),
  }),
];

/** The file download stays a plain route: it answers the file's bytes with their own content type. */
export function customOptionRoutes(app: RestApp): void {
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
