import { access } from '../../platform/auth/access.js';
import type { RestApp } from '../../platform/module.js';
import { collectionResponse, sendCollection } from '../../platform/pagination.js';
import { Configurable, ConfigurableChildBody, ConfigurableChildParams, ConfigurableUpdate, NoContent, ProductParams } from './composites-schemas.js';
import * as configurable from './configurable-service.js';

const tags = ['products'];
const path = '/products/:productId/configurable';
const write = { access: access.admin('products', 'write') };

export function configurableRoutes(app: RestApp): void {
  app.get(
    path,
    {
      schema: {
        operationId: 'products.configurable.get',
        tags,
        summary: "The configurable product's super attributes and child product ids: a collection of one element",
        params: ProductParams,
        response: { 200: collectionResponse(Configurable) },
      },
      config: { access: access.public },
    },
    async (req, reply) => {
      const item = await configurable.getConfigurable(req.ctx, req.params.productId);
      return sendCollection(req, reply, 'ConfigurableProduct', { items: [item], total: 1 });
    },
  );
  app.put(
    path,
    {
      schema: {
        operationId: 'products.configurable.set',
        tags,
        summary: 'Set the super attributes and/or the children (each list sent replaces the current one)',
        params: ProductParams,
        body: ConfigurableUpdate,
        response: { 200: Configurable },
      },
      config: write,
    },
    async (req) => configurable.setConfigurable(req.ctx, req.params.productId, req.body),
  );
  app.post(
    `${path}/children`,
    {
      schema: {
        operationId: 'products.configurable.addChild',
        tags,
        summary: 'Add a child product: {childId} (childProductId and child_product_id accepted)',
        params: ProductParams,
        body: ConfigurableChildBody,
        response: { 201: Configurable },
      },
      config: write,
    },
    async (req, reply) => reply.code(201).send(await configurable.addConfigurableChild(req.ctx, req.params.productId, req.body)),
  );
  app.delete(
    `${path}/children/:childId`,
    {
      schema: {
        operationId: 'products.configurable.removeChild',
        tags,
        summary: 'Remove a child product',
        params: ConfigurableChildParams,
        response: { 204: NoContent },
      },
      config: write,
    },
    async (req, reply) => {
      await configurable.removeConfigurableChild(req.ctx, req.params.productId, req.params.childId);
      return reply.code(204).send(null);
    },
  );
}
