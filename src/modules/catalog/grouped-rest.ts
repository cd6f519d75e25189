import { access } from '../../platform/auth/access.js';
import type { RestApp } from '../../platform/module.js';
import { collectionResponse, sendCollection } from '../../platform/pagination.js';
import { GroupedChild, GroupedChildInput, GroupedChildParams, GroupedChildrenBody, NoContent, ProductParams } from './composites-schemas.js';
import * as grouped from './grouped-service.js';

const tags = ['products'];
const path = '/products/:productId/grouped';
const write = { access: access.admin('products', 'write') };

export function groupedRoutes(app: RestApp): void {
  app.get(
    path,
    {
      schema: {
        operationId: 'products.grouped.list',
        tags,
        summary: "The grouped product's children (unpaginated)",
        params: ProductParams,
        response: { 200: collectionResponse(GroupedChild) },
      },
      config: { access: access.public },
    },
    async (req, reply) => {
      const items = await grouped.listGroupedChildren(req.ctx, req.params.productId);
      return sendCollection(req, reply, 'GroupedProduct', { items, total: items.length });
    },
  );
  app.post(
    path,
    {
      schema: {
        operationId: 'products.grouped.add',
        tags,
        summary: 'Add a child (a simple or virtual product) to a grouped product',
        params: ProductParams,
        body: GroupedChildInput,
        response: { 201: GroupedChild },
      },
      config: write,
    },
    async (req, reply) => reply.code(201).send(await grouped.addGroupedChild(req.ctx, req.params.productId, req.body)),
  );
  app.put(
    path,
    {
      schema: {
        operationId: 'products.grouped.replace',
        tags,
        summary: "Replace the grouped product's children with the given array",
        params: ProductParams,
        body: GroupedChildrenBody,
        response: { 200: collectionResponse(GroupedChild) },
      },
      config: write,
    },
    async (req, reply) => {
      const items = await grouped.replaceGroupedChildren(req.ctx, req.params.productId, req.body);
      return sendCollection(req, reply, 'GroupedProduct', { items, total: items.length });
    },
  );
  app.delete(
    `${path}/:childProductId`,
    {
      schema: {
        operationId: 'products.grouped.remove',
        tags,
        summary: 'Remove a child from a grouped product',
        params: GroupedChildParams,
        response: { 204: NoContent },
      },
      config: write,
    },
    async (req, reply) => {
      await grouped.removeGroupedChild(req.ctx, req.params.productId, req.params.childProductId);
      return reply.code(204).send(null);
    },
  );
}
