/** The children of a grouped product (REST and GraphQL). */
import { access } from '../../../platform/auth/access.js';
import { op, type Operation } from '../../../platform/operations.js';
import {
  GroupedChild,
  GroupedChildInput,
  GroupedChildParams,
  GroupedChildrenBody,
  ProductParams,
} from '../products/subresource-schemas.js';
import * as grouped from './grouped-service.js';

const tags = ['products'];
const path = '/products/:productId/grouped';
const write = access.admin('products', 'write');
const shortName = 'GroupedProduct';

export const groupedOperations: Operation[] = [
  op({
    id: 'products.grouped.list',
    method: 'GET',
    path,
    tags,
    summary: "The grouped product's children (unpaginated)",
    access: access.public,
    shortName,
    params: ProductParams,
    kind: 'collection',
    response: GroupedChild,
    graphql: { name: 'productGroupedChildren' },
    run: async (ctx, { params }) => {
      const items = await grouped.listGroupedChildren(ctx, params.productId);
      return { items, total: items.length };
    },
  }),
  op({
    id: 'products.grouped.add',
    method: 'POST',
    path,
    tags,
    summary: 'Add a child (a simple or virtual product) to a grouped product',
    access: write,
    shortName,
    params: ProductParams,
    body: GroupedChildInput,
    response: GroupedChild,
    status: 201,
    graphql: { name: 'addProductGroupedChild' },
    run: (ctx, { params, body }) => grouped.addGroupedChild(ctx, params.productId, body),
  }),
  op({
    id: 'products.grouped.replace',
    method: 'PUT',
    path,
    tags,
    summary: "Replace the grouped product's children with the given array",
    access: write,
    shortName,
    params: ProductParams,
    body: GroupedChildrenBody,
    kind: 'collection',
    response: GroupedChild,
    // the payload is the list of children
    graphql: { name: 'replaceProductGroupedChildren', list: 'children' },
    run: async (ctx, { params, body }) => {
      const items = await grouped.replaceGroupedChildren(ctx, params.productId, body);
      return { items, total: items.length };
    },
  }),
  op({
    id: 'products.grouped.remove',
    method: 'DELETE',
    path: `${path}/:childProductId`,
    tags,
    summary: 'Remove a child from a grouped product',
    access: write,
    shortName,
    params: GroupedChildParams,
    status: 204,
    graphql: { name: 'removeProductGroupedChild' },
    run: (ctx, { params }) => grouped.removeGroupedChild(ctx, params.productId, params.childProductId),
  }),
];
