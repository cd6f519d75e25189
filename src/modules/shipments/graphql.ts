/**
 * GraphQL for shipments: adding and removing tracking numbers (addTrackShipment, removeTrackShipment), with
 * the same service and access as the REST routes. addTrackShipment answers with the shipment;
 * removeTrackShipment answers true (a track not on the shipment is an error with code TRACK_NOT_FOUND).
 */
import type { IResolvers } from 'mercurius';
import { access } from '../../platform/auth/access.js';
import { resolver, type GraphqlContribution } from '../../platform/graphql.js';
import * as shipments from './service.js';

const typeDefs = `
  type ShipmentItem {
    id: Int!
    orderItemId: Int!
    productId: Int!
    sku: String!
    name: String!
    description: String
    qty: Float!
    price: Float!
    rowTotal: Float!
    weight: Float
  }
  type ShipmentTrack {
    id: Int!
    "the carrier code"
    carrier: String!
    title: String!
    trackNumber: String!
    description: String
    weight: Float
    qty: Float
    createdAt: String!
    updatedAt: String!
  }
  type ShipmentComment {
    id: Int!
    comment: String!
    createdAt: String!
    isCustomerNotified: Boolean!
    isVisibleOnFront: Boolean!
  }
  type Shipment {
    id: Int!
    orderId: Int!
    incrementId: String!
    orderIncrementId: String!
    totalQty: Float!
    totalWeight: Float
    storeId: Int!
    emailSent: Boolean!
    shipmentStatus: Int
    createdAt: String!
    updatedAt: String!
    packages: JSON!
    comments: [ShipmentComment!]!
    tracks: [ShipmentTrack!]!
    items: [ShipmentItem!]!
  }
  extend type Mutation {
    "Adds a tracking number to a shipment (carrierCode defaults to custom, title to the carrier code)."
    addTrackShipment(shipmentId: Int!, carrierCode: String, title: String, trackNumber: String!): Shipment!
    "Removes a tracking number by its track row id; true when it was removed."
    removeTrackShipment(shipmentId: Int!, trackId: Int!): Boolean!
  }
`;

interface AddTrackArgs {
  shipmentId: number;
  carrierCode?: string | null;
  title?: string | null;
  trackNumber: string;
}

export const shipmentsGraphql: GraphqlContribution = {
  typeDefs,
  resolvers: {
    Mutation: {
      addTrackShipment: resolver<AddTrackArgs>(access.admin('shipments', 'create'), (ctx, args) =>
        shipments.addTrack(ctx, args.shipmentId, { carrierCode: args.carrierCode, title: args.title, trackNumber: args.trackNumber }),
      ),
      removeTrackShipment: resolver<{ shipmentId: number; trackId: number }>(access.admin('shipments', 'delete'), async (ctx, args) => {
        await shipments.removeTrack(ctx, args.shipmentId, args.trackId);
        return true;
      }),
    },
  } as IResolvers,
};
