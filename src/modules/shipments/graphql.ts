/**
 * GraphQL-only: Maho's `shipments` collection query (every shipment, newest first, for the back office), which
 * has no REST twin. Its type and connection are those derived from the REST declarations (rest.ts).
 */
import type { IResolvers } from 'mercurius';
import { access } from '../../platform/auth/access.js';
import { resolver, type GraphqlContribution } from '../../platform/graphql.js';
import { CONNECTION_ARGS, pagedConnection, type ConnectionArgs } from '../orders/graphql-connection.js';
import { listAllShipments } from './read.js';

export const shipmentsGraphql: GraphqlContribution = {
  typeDefs: `
  extend type Query {
    "Every shipment, newest first (admin/API, shipments/read)."
    shipments(${CONNECTION_ARGS}): ShipmentConnection
  }
`,
  resolvers: {
    Query: {
      shipments: resolver<ConnectionArgs>(access.admin('shipments', 'read'), (ctx, args) => pagedConnection(args, (page) => listAllShipments(ctx, page))),
    },
  } as IResolvers,
};
