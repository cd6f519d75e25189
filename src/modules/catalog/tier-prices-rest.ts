import { access } from '../../platform/auth/access.js';
import type { RestApp } from '../../platform/module.js';
import { collectionResponse, sendCollection } from '../../platform/pagination.js';
import { NoContent, ProductParams, TierPrice, TierPricesBody } from './composites-schemas.js';
import * as tiers from './tier-prices-service.js';

const tags = ['products'];
const path = '/products/:productId/tier-prices';

export function tierPriceRoutes(app: RestApp): void {
  app.get(
    path,
    {
      schema: {
        operationId: 'products.tierPrices.list',
        tags,
        summary: "The product's tier prices (unpaginated)",
        params: ProductParams,
        response: { 200: collectionResponse(TierPrice) },
      },
      config: { access: access.admin('products', 'read') },
    },
    async (req, reply) => {
      const items = await tiers.listTierPrices(req.ctx, req.params.productId);
      return sendCollection(req, reply, 'TierPrice', { items, total: items.length });
    },
  );
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
      config: { access: access.admin('products', 'write') },
    },
    async (req, reply) => {
      const items = await tiers.replaceTierPrices(req.ctx, req.params.productId, req.body);
      reply.code(201);
      return sendCollection(req, reply, 'TierPrice', { items, total: items.length });
    },
  );
  app.put(
    path,
    {
      schema: {
        operationId: 'products.tierPrices.put',
        tags,
        summary: 'Replace the tier prices (as POST)',
        params: ProductParams,
        body: TierPricesBody,
        response: { 200: collectionResponse(TierPrice) },
      },
      config: { access: access.admin('products', 'write') },
    },
    async (req, reply) => {
      const items = await tiers.replaceTierPrices(req.ctx, req.params.productId, req.body);
      return sendCollection(req, reply, 'TierPrice', { items, total: items.length });
    },
  );
  app.delete(
    path,
    {
      schema: {
        operationId: 'products.tierPrices.clear',
        tags,
        summary: "Remove all of the product's tier prices",
        params: ProductParams,
        response: { 204: NoContent },
      },
      config: { access: access.admin('products', 'write') },
    },
    async (req, reply) => {
      await tiers.clearTierPrices(req.ctx, req.params.productId);
      return reply.code(204).send(null);
    },
  );
}
