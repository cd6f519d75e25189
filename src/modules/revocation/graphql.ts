/** GraphQL for revocation declarations: the same services and access levels as REST. */
import type { IResolvers } from 'mercurius';
import { access } from '../../platform/auth/access.js';
import { resolver, type GraphqlContribution } from '../../platform/graphql.js';
import { pageOf } from '../../platform/pagination.js';
import * as revocation from './service.js';

const typeDefs = `
  type RevocationRequest {
    id: Int!
    orderId: Int!
    orderReference: String!
    reason: String
    customerName: String!
    email: String!
    verified: Boolean!
    storeId: Int!
    receivedAt: String!
    processedStatus: String
    processedAt: String
    suppressedAt: String
    suppressedReason: String
    adminNote: String
    ip: String
    userAgent: String
  }
  type RevocationRequestCollection {
    items: [RevocationRequest!]!
    totalCount: Int!
  }
  extend type Query {
    myRevocationRequests(page: Int, pageSize: Int): RevocationRequestCollection!
    revocationRequest(id: Int!): RevocationRequest
    revocationRequests(page: Int, pageSize: Int, email: String, orderId: Int, processedStatus: String, storeId: Int): RevocationRequestCollection!
  }
  extend type Mutation {
    submitRevocation(orderId: Int, orderReference: String, reason: String): RevocationRequest!
  }
`;

type PageArgs = { page?: number | null; pageSize?: number | null };
type ListArgs = PageArgs & { email?: string | null; orderId?: number | null; processedStatus?: string | null; storeId?: number | null };

const pageFrom = (a: PageArgs) => pageOf({ page: a.page ?? undefined, pageSize: a.pageSize ?? undefined }, { defaultSize: 20, maxSize: 100 });
const collection = <T>(r: { items: T[]; total: number }) => ({ items: r.items, totalCount: r.total });

export const revocationGraphql: GraphqlContribution = {
  typeDefs,
  resolvers: {
    Query: {
      myRevocationRequests: resolver<PageArgs>(access.customer, async (ctx, args) => collection(await revocation.listMyRevocations(ctx, pageFrom(args)))),
      revocationRequest: resolver<{ id: number }>(access.customerOrAdmin('revocation-requests', 'read'), (ctx, args) =>
        revocation.getRevocation(ctx, args.id),
      ),
      revocationRequests: resolver<ListArgs>(access.admin('revocation-requests', 'read'), async (ctx, args) =>
        collection(
          await revocation.listRevocations(
            ctx,
            {
              email: args.email ?? undefined,
              orderId: args.orderId ?? undefined,
              processedStatus: args.processedStatus ?? undefined,
              storeId: args.storeId ?? undefined,
            },
            pageFrom(args),
          ),
        ),
      ),
    },
    Mutation: {
      submitRevocation: resolver<{ orderId?: number | null; orderReference?: string | null; reason?: string | null }>(access.customer, (ctx, args) =>
        revocation.submitRevocation(ctx, {
          orderId: args.orderId ?? undefined,
          orderReference: args.orderReference ?? undefined,
          reason: args.reason ?? undefined,
          channel: 'api',
        }),
      ),
    },
  } as IResolvers,
};
