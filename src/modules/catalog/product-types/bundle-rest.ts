/** Options of a bundle product with their selections (REST and GraphQL). */
import { access } from '../../../platform/auth/access.js';
import { op, type Operation } from '../../../platform/operations.js';
import {
  BundleOption,
  BundleOptionCreate,
  BundleOptionParams,
  BundleOptionUpdate,
  BundleOptionUpdateWithId,
  OptionalIdBody,
  OptionalIdQuery,
  ProductParams,
} from '../products/subresource-schemas.js';
import * as bundles from './bundle-service.js';

const tags = ['products'];
const path = '/products/:productId/bundle-options';
const write = access.admin('products', 'write');
const shortName = 'BundleOption';

export const bundleOperations: Operation[] = [
  op({
    id: 'products.bundleOptions.list',
    method: 'GET',
    path,
    tags,
    summary: "The bundle product's options with their selections (unpaginated)",
    access: access.public,
    shortName,
    params: ProductParams,
    kind: 'collection',
    response: BundleOption,
    graphql: { name: 'productBundleOptions' },
    run: async (ctx, { params }) => {
      const items = await bundles.listBundleOptions(ctx, params.productId);
      return { items, total: items.length };
    },
  }),
  op({
    id: 'products.bundleOptions.create',
    method: 'POST',
    path,
    tags,
    summary: 'Add an option to a bundle product (title required; selections of simple or virtual products)',
    access: write,
    shortName,
    params: ProductParams,
    body: BundleOptionCreate,
    response: BundleOption,
    status: 201,
    graphql: { name: 'createProductBundleOption' },
    run: (ctx, { params, body }) => bundles.createBundleOption(ctx, params.productId, body),
  }),
  op({
    id: 'products.bundleOptions.updateById',
    method: 'PUT',
    path,
    tags,
    summary: 'Update the bundle option named by `id` in the body (partial; selections replace when sent)',
    access: write,
    shortName,
    params: ProductParams,
    body: BundleOptionUpdateWithId,
    response: BundleOption,
    graphql: { name: 'updateProductBundleOptionById' },
    run: (ctx, { params, body }) => bundles.updateBundleOption(ctx, params.productId, body.id ?? body.optionId, body),
  }),
  op({
    id: 'products.bundleOptions.deleteById',
    method: 'DELETE',
    path,
    tags,
    summary: 'Remove the bundle option named by `id` in the query or body',
    access: write,
    shortName,
    params: ProductParams,
    query: OptionalIdQuery,
    body: OptionalIdBody,
    status: 204,
    graphql: { name: 'deleteProductBundleOptionById' },
    run: (ctx, { params, query, body }) => bundles.deleteBundleOption(ctx, params.productId, query.id ?? body?.id ?? body?.optionId),
  }),
  op({
    id: 'products.bundleOptions.update',
    method: 'PUT',
    path: `${path}/:id`,
    tags,
    summary: 'Update a bundle option (partial; selections replace when sent)',
    access: write,
    shortName,
    params: BundleOptionParams,
    body: BundleOptionUpdate,
    response: BundleOption,
    graphql: { name: 'updateProductBundleOption' },
    run: (ctx, { params, body }) => bundles.updateBundleOption(ctx, params.productId, params.id, body),
  }),
  op({
    id: 'products.bundleOptions.delete',
    method: 'DELETE',
    path: `${path}/:id`,
    tags,
    summary: 'Remove a bundle option',
    access: write,
    shortName,
    params: BundleOptionParams,
    status: 204,
    graphql: { name: 'deleteProductBundleOption' },
    run: (ctx, { params }) => bundles.deleteBundleOption(ctx, params.productId, params.id),
  }),
];
