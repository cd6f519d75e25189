/**
 * Group prices of a product, as Maho's ProductGroupPrice: the list (anyone who can see the product; storefront
 * callers see the rows that price them), PUT replacing the whole set and DELETE removing it.
 */
import { access } from '../../../platform/auth/access.js';
import { op, type Operation } from '../../../platform/operations.js';
import { ProductParams } from '../products/subresource-schemas.js';
import { GroupPrice, GroupPricesBody } from './group-prices-schemas.js';
import * as groups from './group-prices-service.js';

const tags = ['products'];
const path = '/products/:productId/group-prices';
const shortName = 'ProductGroupPrice';
const write = access.admin('products', 'write');

export const groupPriceOperations: Operation[] = [
  op({
    id: 'products.groupPrices.list',
    method: 'GET',
    path,
    tags,
    summary: "The product's group prices (unpaginated); storefront callers see those of their customer group and website",
    access: access.public,
    shortName,
    params: ProductParams,
    kind: 'collection',
    response: GroupPrice,
    graphql: { name: 'productGroupPrices' },
    run: async (ctx, { params }) => {
      const items = await groups.listGroupPrices(ctx, params.productId);
      return { items, total: items.length };
    },
  }),
  op({
    id: 'products.groupPrices.replace',
    method: 'PUT',
    path,
    tags,
    summary: "Replace all of the product's group prices with the given set (an array, or {groupPrices: [...]})",
    access: write,
    shortName,
    params: ProductParams,
    body: GroupPricesBody,
    kind: 'collection',
    response: GroupPrice,
    graphql: { name: 'replaceProductGroupPrices', list: 'groupPrices' },
    run: async (ctx, { params, body }) => {
      const items = await groups.replaceGroupPrices(ctx, params.productId, body);
      return { items, total: items.length };
    },
  }),
  op({
    id: 'products.groupPrices.clear',
    method: 'DELETE',
    path,
    tags,
    summary: "Remove all of the product's group prices",
    access: write,
    shortName,
    params: ProductParams,
    status: 204,
    graphql: { name: 'clearProductGroupPrices' },
    run: (ctx, { params }) => groups.clearGroupPrices(ctx, params.productId),
  }),
];
