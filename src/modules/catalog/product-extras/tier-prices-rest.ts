/**
 * Tier prices of a product: the list, the replacement (POST answers 201, PUT 200) and the clearing. GraphQL serves
 * the replacement once, as `replaceProductTierPrices`, whose payload is the list.
 */
import { access } from '../../../platform/auth/access.js';
import { op, type Operation } from '../../../platform/operations.js';
import { ProductParams, TierPrice, TierPricesBody } from '../products/subresource-schemas.js';
import * as tiers from './tier-prices-service.js';

const tags = ['products'];
const path = '/products/:productId/tier-prices';
const shortName = 'TierPrice';
const write = access.admin('products', 'write');

/** POST (201) and PUT (200) replace the whole set and answer it; GraphQL's `replaceProductTierPrices` answers the list. */
function replacement(id: string, method: 'POST' | 'PUT', summary: string): Operation {
  return op({
    id,
    method,
    path,
    tags,
    summary,
    access: write,
    shortName,
    params: ProductParams,
    body: TierPricesBody,
    kind: 'collection',
    ...(method === 'POST' ? { status: 201 as const } : {}),
    response: TierPrice,
    // one GraphQL field, whose payload is the list; the PUT is served by the POST's
    graphql: method === 'POST' ? { name: 'replaceProductTierPrices', list: 'tierPrices' } : { via: 'replaceProductTierPrices' },
    run: async (ctx, { params, body }) => {
      const items = await tiers.replaceTierPrices(ctx, params.productId, body);
      return { items, total: items.length };
    },
  });
}

export const tierPriceOperations: Operation[] = [
  op({
    id: 'products.tierPrices.list',
    method: 'GET',
    path,
    tags,
    summary: "The product's tier prices (unpaginated)",
    access: access.admin('products', 'read'),
    shortName,
    params: ProductParams,
    kind: 'collection',
    response: TierPrice,
    graphql: { name: 'productTierPrices' },
    run: async (ctx, { params }) => {
      const items = await tiers.listTierPrices(ctx, params.productId);
      return { items, total: items.length };
    },
  }),
  replacement(
    'products.tierPrices.replace',
    'POST',
    "Replace the product's tier prices with the given set (an array, or {tierPrices: [...]})",
  ),
  replacement('products.tierPrices.put', 'PUT', 'Replace the tier prices (as POST)'),
  op({
    id: 'products.tierPrices.clear',
    method: 'DELETE',
    path,
    tags,
    summary: "Remove all of the product's tier prices",
    access: write,
    shortName,
    params: ProductParams,
    status: 204,
    graphql: { name: 'clearProductTierPrices' },
    run: (ctx, { params }) => tiers.clearTierPrices(ctx, params.productId),
  }),
];
