/** The super attributes and children of a configurable product (REST and GraphQL). */
import { access } from '../../../platform/auth/access.js';
import { op, type Operation } from '../../../platform/operations.js';
import {
  Configurable,
  ConfigurableChildBody,
  ConfigurableChildParams,
  ConfigurableUpdate,
  ProductParams,
} from '../products/subresource-schemas.js';
import * as configurable from './configurable-service.js';

const tags = ['products'];
const path = '/products/:productId/configurable';
const write = access.admin('products', 'write');
const shortName = 'ConfigurableProduct';

export const configurableOperations: Operation[] = [
  op({
    id: 'products.configurable.get',
    method: 'GET',
    path,
    tags,
    summary: "The configurable product's super attributes and child product ids: a collection of one element",
    access: access.public,
    shortName,
    params: ProductParams,
    kind: 'collection',
    response: Configurable,
    graphql: { name: 'productConfigurable' },
    run: async (ctx, { params }) => ({ items: [await configurable.getConfigurable(ctx, params.productId)], total: 1 }),
  }),
  op({
    id: 'products.configurable.set',
    method: 'PUT',
    path,
    tags,
    summary: 'Set the super attributes and/or the children (each list sent replaces the current one)',
    access: write,
    shortName,
    params: ProductParams,
    body: ConfigurableUpdate,
    response: Configurable,
    graphql: { name: 'setProductConfigurable' },
    run: (ctx, { params, body }) => configurable.setConfigurable(ctx, params.productId, body),
  }),
  op({
    id: 'products.configurable.addChild',
    method: 'POST',
    path: `${path}/children`,
    tags,
    summary: 'Add a child product: {childId} (childProductId and child_product_id accepted)',
    access: write,
    shortName,
    params: ProductParams,
    body: ConfigurableChildBody,
    response: Configurable,
    status: 201,
    graphql: { name: 'addProductConfigurableChild' },
    run: (ctx, { params, body }) => configurable.addConfigurableChild(ctx, params.productId, body),
  }),
  op({
    id: 'products.configurable.removeChild',
    method: 'DELETE',
    path: `${path}/children/:childId`,
    tags,
    summary: 'Remove a child product',
    access: write,
    shortName,
    params: ConfigurableChildParams,
    status: 204,
    graphql: { name: 'removeProductConfigurableChild' },
    run: (ctx, { params }) => configurable.removeConfigurableChild(ctx, params.productId, params.childId),
  }),
];
