import { access } from '../../platform/auth/access.js';
import type { RestApp } from '../../platform/module.js';
import { collectionResponse, pageOf, sendCollection } from '../../platform/pagination.js';
import { MyRevocationListQuery, RevocationListQuery, RevocationParams, RevocationRequest, RevocationSubmit, RevocationUpdate } from './schemas.js';
import * as revocation from './service.js';

const tags = ['revocation-requests'];

export function routes(app: RestApp): void {
  app.post(
    '/customers/me/revocation-requests',
    {
      schema: {
        operationId: 'revocation.submit',
        tags,
        summary: "Declare the revocation of one of the customer's orders (orderId or orderReference); 422 past the cooling-off window",
        body: RevocationSubmit,
        response: { 201: RevocationRequest },
      },
      config: { access: access.customer },
    },
    async (req, reply) => reply.code(201).send(await revocation.submitRevocation(req.ctx, { ...req.body, channel: 'api' })),
  );
  app.get(
    '/customers/me/revocation-requests',
    {
      schema: {
        operationId: 'revocation.listMine',
        tags,
        summary: "The customer's own declarations, newest first",
        querystring: MyRevocationListQuery,
        response: { 200: collectionResponse(RevocationRequest) },
      },
      config: { access: access.customer },
    },
    async (req, reply) => {
      const page = pageOf(req.query, { defaultSize: 20, maxSize: 100 });
      return sendCollection(req, reply, 'RevocationRequest', await revocation.listMyRevocations(req.ctx, page), page);
    },
  );
  app.get(
    '/revocation-requests',
    {
      schema: {
        operationId: 'revocation.list',
        tags,
        summary: 'All declarations, newest first; filters email, orderId, processedStatus, storeId',
        querystring: RevocationListQuery,
        response: { 200: collectionResponse(RevocationRequest) },
      },
      config: { access: access.admin('revocation-requests', 'read') },
    },
    async (req, reply) => {
      const page = pageOf(req.query, { defaultSize: 20, maxSize: 100 });
      return sendCollection(req, reply, 'RevocationRequest', await revocation.listRevocations(req.ctx, req.query, page), page);
    },
  );
  app.get(
    '/revocation-requests/:id',
    {
      schema: {
        operationId: 'revocation.get',
        tags,
        summary: 'One declaration (customers: their own only)',
        params: RevocationParams,
        response: { 200: RevocationRequest },
      },
      config: { access: access.customerOrAdmin('revocation-requests', 'read') },
    },
    async (req) => revocation.getRevocation(req.ctx, req.params.id),
  );
  app.put(
    '/revocation-requests/:id',
    {
      schema: {
        operationId: 'revocation.update',
        tags,
        summary: 'Set the processing status (stamps processedAt) and the admin note',
        params: RevocationParams,
        body: RevocationUpdate,
        response: { 200: RevocationRequest },
      },
      config: { access: access.admin('revocation-requests', 'write') },
    },
    async (req) => revocation.updateRevocation(req.ctx, req.params.id, req.body),
  );
}
