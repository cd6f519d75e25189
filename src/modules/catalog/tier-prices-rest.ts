/**
 * Tier prices of a product: the list, the replacement and the clearing (REST and GraphQL). The POST replacement
 * answers a collection with status 201, which a declaration cannot say yet: it stays a plain route, and GraphQL
 * serves the replacement once, as `replaceProductTierPrices` (graphql.ts).
 */
import { access } from '../../platform/auth/access.js';
import type { RestApp } from '../../platform/module.js';
import { op, type Operation } from '../../platform/operations.js';
import { collectionResponse, sendCollection } from '../../platform/pagination.js';
import { ProductParams, TierPrice, TierPricesBody } from './composites-schemas.js';
import * as tiers from './tier-prices-service.js';

const tags = ['products'];
const path = '/products/:productId/tier-prices';
const shortName = 'TierPrice';
const write = access.admin('products', 'write');

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
  op({
    id: 'products.tierPrices.put',
    method: 'PUT',
    path,
    tags,
    summary: 'Replace the tier prices (as POST)',
    access: write,
    shortName,
    params: ProductParams,
    body: TierPricesBody,
    kind: 'collection',
    response: TierPrice,
    // the payload is a list, which derived mutation payloads cannot hold yet: graphql.ts serves it
    graphql: { via: 'replaceProductTierPrices' },
    run: async (ctx, { params, body }) => {
      const items = await tiers.replaceTierPrices(ctx, params.productId, body);
      return { items, total: items.length };
    },
  }),
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

export function tierPriceRoutes(app: RestApp): void {
  app.post(
    path,
    {
      schema: {
        operationId: 'products.tierPrices.replace',
        tags,
        summary: "Replace the product's tier prices with the given set (an array, or {tierPrices: [...]})",
        params: ProductParams,
        body: TierPricesBody,
        response: { 201: collectionResponse(TierPrice) },
      },
      config: { access: write },
    },
    async (req, reply) => {
      const items = await tiers.replaceTierPrices(req.ctx, req.params.productId, req.body);
      reply.code(201);
      return sendCollection(req, reply, 'TierPrice', { items, total: items.length });
    },
  );
}
