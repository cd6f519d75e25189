import { Type } from 'typebox';
import { access } from '../../platform/auth/access.js';
import type { RestApp } from '../../platform/module.js';
import { collectionResponse, pageOf, sendCollection } from '../../platform/pagination.js';
import { CustomerGroup, CustomerGroupCreate, CustomerGroupListQuery, CustomerGroupParams, CustomerGroupUpdate } from './groups-schemas.js';
import * as groups from './groups-service.js';

const tags = ['customer-groups'];

export function groupRoutes(app: RestApp): void {
  app.get(
    '/customer-groups',
    {
      schema: {
        operationId: 'customerGroups.list',
        tags,
        summary: 'Customer groups by code (paginated, 20 a page by default)',
        querystring: CustomerGroupListQuery,
        response: { 200: collectionResponse(CustomerGroup) },
      },
      config: { access: access.admin('customer-groups', 'read') },
    },
    async (req, reply) => {
      const page = pageOf(req.query, { defaultSize: 20, maxSize: 100 });
      return sendCollection(req, reply, 'CustomerGroup', await groups.listCustomerGroups(req.ctx, page), page);
    },
  );
  app.get(
    '/customer-groups/:id',
    {
      schema: { operationId: 'customerGroups.get', tags, summary: 'One customer group', params: CustomerGroupParams, response: { 200: CustomerGroup } },
      config: { access: access.admin('customer-groups', 'read') },
    },
    async (req) => groups.getCustomerGroup(req.ctx, req.params.id),
  );
  app.post(
    '/customer-groups',
    {
      schema: { operationId: 'customerGroups.create', tags, summary: 'Create a customer group', body: CustomerGroupCreate, response: { 201: CustomerGroup } },
      config: { access: access.admin('customer-groups', 'create') },
    },
    async (req, reply) => reply.code(201).send(await groups.createCustomerGroup(req.ctx, req.body)),
  );
  app.put(
    '/customer-groups/:id',
    {
      schema: {
        operationId: 'customerGroups.update',
        tags,
        summary: 'Update a customer group (only the fields sent)',
        params: CustomerGroupParams,
        body: CustomerGroupUpdate,
        response: { 200: CustomerGroup },
      },
      config: { access: access.admin('customer-groups', 'write') },
    },
    async (req) => groups.updateCustomerGroup(req.ctx, req.params.id, req.body),
  );
  app.delete(
    '/customer-groups/:id',
    {
      schema: {
        operationId: 'customerGroups.delete',
        tags,
        summary: "Delete a customer group; its customers move to their website's default group",
        params: CustomerGroupParams,
        response: { 204: Type.Null({ description: 'Deleted' }) },
      },
      config: { access: access.admin('customer-groups', 'delete') },
    },
    async (req, reply) => {
      await groups.deleteCustomerGroup(req.ctx, req.params.id);
      return reply.code(204).send(null);
    },
  );
}
