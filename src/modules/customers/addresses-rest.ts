import { Type } from 'typebox';
import { access } from '../../platform/auth/access.js';
import type { RestApp } from '../../platform/module.js';
import { collectionResponse, sendCollection } from '../../platform/pagination.js';
import * as addresses from './addresses.js';
import { Address, AddressInput, CustomerIdParams, IdParams } from './schemas.js';
import { assertCustomerInScope, selfId } from './service.js';

const tags = ['addresses'];

/** The signed-in customer's address book, under two URL families. */
function ownAddressRoutes(app: RestApp, base: string, op: string): void {
  const rule = { access: access.customer };
  app.get(
    base,
    { schema: { operationId: `${op}.list`, tags, summary: 'Own addresses (unpaginated)', response: { 200: collectionResponse(Address) } }, config: rule },
    async (req, reply) => {
      const items = await addresses.listAddresses(req.ctx, selfId(req.ctx));
      return sendCollection(req, reply, 'Address', { items, total: items.length });
    },
  );
  app.post(
    base,
    {
      schema: {
        operationId: `${op}.create`,
        tags,
        summary: 'Add an address (firstname, lastname, street, city, postcode, countryId, telephone required)',
        body: AddressInput,
        response: { 201: Address },
      },
      config: rule,
    },
    async (req, reply) => reply.code(201).send(await addresses.createAddress(req.ctx, selfId(req.ctx), req.body)),
  );
  app.get(
    `${base}/:id`,
    { schema: { operationId: `${op}.get`, tags, summary: 'One own address', params: IdParams, response: { 200: Address } }, config: rule },
    async (req) => addresses.getAddress(req.ctx, selfId(req.ctx), req.params.id),
  );
  app.put(
    `${base}/:id`,
    {
      schema: { operationId: `${op}.update`, tags, summary: 'Update an own address (partial)', params: IdParams, body: AddressInput, response: { 200: Address } },
      config: rule,
    },
    async (req) => addresses.updateAddress(req.ctx, selfId(req.ctx), req.params.id, req.body),
  );
  app.delete(
    `${base}/:id`,
    {
      schema: { operationId: `${op}.delete`, tags, summary: 'Delete an own address', params: IdParams, response: { 204: Type.Null({ description: 'Deleted' }) } },
      config: rule,
    },
    async (req, reply) => {
      await addresses.deleteAddress(req.ctx, selfId(req.ctx), req.params.id);
      return reply.code(204).send(null);
    },
  );
}

export function addressRoutes(app: RestApp): void {
  ownAddressRoutes(app, '/customers/me/addresses', 'customers.addresses');
  ownAddressRoutes(app, '/addresses', 'addresses');
  app.get(
    '/customers/:customerId/addresses',
    {
      schema: {
        operationId: 'customers.addresses.listFor',
        tags,
        summary: "A customer's addresses (unpaginated)",
        params: CustomerIdParams,
        response: { 200: collectionResponse(Address) },
      },
      config: { access: access.admin('addresses', 'read') },
    },
    async (req, reply) => {
      await assertCustomerInScope(req.ctx, req.params.customerId);
      const items = await addresses.listAddresses(req.ctx, req.params.customerId);
      return sendCollection(req, reply, 'Address', { items, total: items.length });
    },
  );
  app.post(
    '/customers/:customerId/addresses',
    {
      schema: {
        operationId: 'customers.addresses.createFor',
        tags,
        summary: 'Add an address to a customer',
        params: CustomerIdParams,
        body: AddressInput,
        response: { 201: Address },
      },
      config: { access: access.admin('addresses', 'create') },
    },
    async (req, reply) => {
      await assertCustomerInScope(req.ctx, req.params.customerId);
      return reply.code(201).send(await addresses.createAddress(req.ctx, req.params.customerId, req.body));
    },
  );
}
