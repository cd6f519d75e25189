/**
 * GraphQL-only: Maho's `creditMemos` collection query (every credit memo, newest first, for the back office),
 * which has no REST twin. Its type and connection are those derived from the REST declarations (rest.ts).
 */
import type { IResolvers } from 'mercurius';
import { access } from '../../platform/auth/access.js';
import { resolver, type GraphqlContribution } from '../../platform/graphql.js';
import { CONNECTION_ARGS, pagedConnection, type ConnectionArgs } from '../orders/graphql-connection.js';
import { listAllCreditMemos } from './read.js';

export const creditMemosGraphql: GraphqlContribution = {
  typeDefs: `
  extend type Query {
    "Every credit memo, newest first (admin/API, credit-memos/read)."
    creditMemos(${CONNECTION_ARGS}): CreditMemoConnection
  }
`,
  resolvers: {
    Query: {
      creditMemos: resolver<ConnectionArgs>(access.admin('credit-memos', 'read'), (ctx, args) => pagedConnection(args, (page) => listAllCreditMemos(ctx, page))),
    },
  } as IResolvers,
};
