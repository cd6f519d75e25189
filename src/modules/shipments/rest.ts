/** REST routes of shipments (admin/API only): an order's shipments, creating one, tracking numbers, comments. */
import { Type } from 'typebox';
import { access } from '../../platform/auth/access.js';
import type { RestApp } from '../../platform/module.js';
import { collectionResponse, sendCollection } from '../../platform/pagination.js';
import { OrderShipmentsParams, Shipment, ShipmentCommentCreate, ShipmentCreate, ShipmentParams, TrackInput, TrackParams } from './schemas.js';
import * as shipments from './service.js';

const tags = ['shipments'];

export function routes(app: RestApp): void {
  app.get(
    '/orders/:orderId/shipments',
    {
      schema: {
        operationId: 'shipments.listOfOrder',
        tags,
        summary: 'Every shipment of an order, oldest first (unpaginated)',
        params: OrderShipmentsParams,
        response: { 200: collectionResponse(Shipment) },
      },
      config: { access: access.admin('shipments', 'read') },
    },
    async (req, reply) => {
      const items = await shipments.listShipmentsOfOrder(req.ctx, req.params.orderId);
      return sendCollection(req, reply, 'Shipment', { items, total: items.length });
    },
  );
  app.post(
    '/orders/:orderId/shipments',
    {
      schema: {
        operationId: 'shipments.create',
        tags,
        summary:
          'Ship items of an order (items omitted: everything left), with tracking numbers and a comment; the order moves to processing or complete. ' +
          'Orders paid on shipment (payment action authorize) are invoiced once fully shipped.',
        params: OrderShipmentsParams,
        body: ShipmentCreate,
        response: { 201: Shipment },
      },
      config: { access: access.admin('shipments', 'create') },
    },
    async (req, reply) => reply.code(201).send(await shipments.createShipment(req.ctx, req.params.orderId, req.body)),
  );
  app.get(
    '/shipments/:id',
    {
      schema: { operationId: 'shipments.get', tags, summary: 'One shipment with its items, tracks and comments', params: ShipmentParams, response: { 200: Shipment } },
      config: { access: access.admin('shipments', 'read') },
    },
    async (req) => shipments.getShipment(req.ctx, req.params.id),
  );
  app.post(
    '/shipments/:id/tracks',
    {
      schema: {
        operationId: 'shipments.addTrack',
        tags,
        summary: 'Add a tracking number (carrierCode defaults to custom, title to the carrier code); answers with the shipment',
        params: ShipmentParams,
        body: TrackInput,
        response: { 201: Shipment },
      },
      config: { access: access.admin('shipments', 'create') },
    },
    async (req, reply) => reply.code(201).send(await shipments.addTrack(req.ctx, req.params.id, req.body)),
  );
  app.delete(
    '/shipments/:id/tracks/:trackId',
    {
      schema: {
        operationId: 'shipments.removeTrack',
        tags,
        summary: 'Remove a tracking number by its track row id (not the carrier tracking number)',
        params: TrackParams,
        response: { 204: Type.Null({ description: 'Removed' }) },
      },
      config: { access: access.admin('shipments', 'delete') },
    },
    async (req, reply) => {
      await shipments.removeTrack(req.ctx, req.params.id, req.params.trackId);
      return reply.code(204).send(null);
    },
  );
  app.post(
    '/shipments/:id/comments',
    {
      schema: {
        operationId: 'shipments.addComment',
        tags,
        summary: 'Add a comment (alias note) to a shipment; notifyCustomer mails it; answers with the shipment',
        params: ShipmentParams,
        body: ShipmentCommentCreate,
        response: { 201: Shipment },
      },
      config: { access: access.admin('shipments', 'write') },
    },
    async (req, reply) => reply.code(201).send(await shipments.addShipmentComment(req.ctx, req.params.id, req.body)),
  );
}
