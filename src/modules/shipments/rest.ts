/**
 * Shipments (admin/API only), declared once for REST, GraphQL and MCP: every shipment (Maho's GraphQL
 * `shipments`), an order's shipments, creating one, tracking numbers, comments, one shipment.
 */
import { Type } from 'typebox';
import { access } from '../../platform/auth/access.js';
import { ListPageQuery } from '../../platform/connection.js';
import { op, type Operation } from '../../platform/operations.js';
import {
  OrderShipmentsParams,
  Shipment,
  ShipmentCommentCreate,
  ShipmentCreate,
  ShipmentParams,
  TrackInput,
  TrackParams,
} from './schemas.js';
import { listAllShipments } from './read.js';
import * as shipments from './service.js';

const tags = ['shipments'];
const shortName = 'Shipment';
const INT_MAX = 2147483647;

type Args = Record<string, unknown>;

/** GraphQL nulls read as "not sent". */
function present(a: Args): Args {
  return Object.fromEntries(Object.entries(a).filter(([, v]) => v !== null && v !== undefined));
}
const nullsDropped = (args: Args, next: (a: Args) => Promise<unknown>) =>
  next(Object.fromEntries(Object.entries(args).filter(([, v]) => v !== null)));

const ShipmentId = Type.Integer({ minimum: 1, maximum: INT_MAX, description: 'the shipment id' });

export const operations: Operation[] = [
  op({
    id: 'shipments.list',
    method: 'GET',
    path: '/shipments',
    tags,
    summary: "Every shipment, newest first (of a store-limited principal's stores only)",
    access: access.admin('shipments', 'read'),
    shortName,
    query: ListPageQuery,
    kind: 'collection',
    response: Shipment,
    page: { defaultSize: 20, maxSize: 100 },
    run: (ctx, { page }) => listAllShipments(ctx, page),
  }),
  op({
    id: 'shipments.listOfOrder',
    method: 'GET',
    path: '/orders/:orderId/shipments',
    tags,
    summary: 'Every shipment of an order, oldest first (unpaginated)',
    access: access.admin('shipments', 'read'),
    shortName,
    params: OrderShipmentsParams,
    kind: 'collection',
    response: Shipment,
    graphql: { name: 'orderShipments' },
    run: async (ctx, { params }) => {
      const items = await shipments.listShipmentsOfOrder(ctx, params.orderId);
      return { items, total: items.length };
    },
  }),
  op({
    id: 'shipments.create',
    method: 'POST',
    path: '/orders/:orderId/shipments',
    tags,
    summary:
      'Ship items of an order (items omitted: everything left), with tracking numbers and a comment; the order moves to processing, ' +
      'or complete once fully shipped and invoiced. A shipment never invoices (invoices are created with POST /orders/{orderId}/invoices).',
    access: access.admin('shipments', 'create'),
    shortName,
    params: OrderShipmentsParams,
    body: ShipmentCreate,
    response: Shipment,
    status: 201,
    graphql: { name: 'createShipment', around: nullsDropped },
    run: (ctx, { params, body }) => shipments.createShipment(ctx, params.orderId, body),
  }),
  op({
    id: 'shipments.get',
    method: 'GET',
    path: '/shipments/:id',
    tags,
    summary: 'One shipment with its items, tracks and comments',
    access: access.admin('shipments', 'read'),
    shortName,
    params: ShipmentParams,
    response: Shipment,
    run: (ctx, { params }) => shipments.getShipment(ctx, params.id),
  }),
  op({
    id: 'shipments.addTrack',
    method: 'POST',
    path: '/shipments/:id/tracks',
    tags,
    summary: 'Add a tracking number (carrierCode defaults to custom, title to the carrier code); answers with the shipment',
    access: access.admin('shipments', 'create'),
    shortName,
    params: ShipmentParams,
    body: TrackInput,
    response: Shipment,
    status: 201,
    graphql: {
      name: 'addTrackShipment',
      args: Type.Object({ shipmentId: ShipmentId, ...TrackInput.properties }),
      input: (a) => {
        const { shipmentId, clientMutationId: _c, ...body } = present(a);
        return { params: { id: shipmentId }, body };
      },
    },
    run: (ctx, { params, body }) => shipments.addTrack(ctx, params.id, body),
  }),
  op({
    id: 'shipments.removeTrack',
    method: 'DELETE',
    path: '/shipments/:id/tracks/:trackId',
    tags,
    summary: 'Remove a tracking number by its track row id (not the carrier tracking number)',
    access: access.admin('shipments', 'delete'),
    shortName,
    params: TrackParams,
    status: 204,
    // the payload names the shipment the track was removed from
    graphql: {
      name: 'removeTrackShipment',
      args: Type.Object({
        shipmentId: ShipmentId,
        trackId: Type.Integer({ minimum: 1, maximum: INT_MAX, description: 'the track row id' }),
      }),
      input: (a) => ({ params: { id: a.shipmentId, trackId: a.trackId } }),
    },
    run: (ctx, { params }) => shipments.removeTrack(ctx, params.id, params.trackId),
  }),
  op({
    id: 'shipments.addComment',
    method: 'POST',
    path: '/shipments/:id/comments',
    tags,
    summary: 'Add a comment (alias note) to a shipment; notifyCustomer mails it; answers with the shipment',
    access: access.admin('shipments', 'write'),
    shortName,
    params: ShipmentParams,
    body: ShipmentCommentCreate,
    response: Shipment,
    status: 201,
    graphql: { name: 'addCommentShipment', around: nullsDropped },
    run: (ctx, { params, body }) => shipments.addShipmentComment(ctx, params.id, body),
  }),
];
