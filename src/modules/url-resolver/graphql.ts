/**
 * GraphQL-only: Maho's `resolveUrlResolveResult(path: String!)`, the item form of GET /url-resolver (REST has only
 * the collection, served as `urlResolveResults`). Nothing found is a result of type `not_found`, as Maho answers.
 */
import type { IResolvers } from 'mercurius';
import { access } from '../../platform/auth/access.js';
import { resolver, type GraphqlContribution } from '../../platform/graphql.js';
import { graphqlNode } from './rest.js';
import { resolvePath } from './service.js';

export const urlResolverGraphql: GraphqlContribution = {
  typeDefs: `
  extend type Query {
    resolveUrlResolveResult(path: String!): UrlResolveResult
  }
`,
  resolvers: {
    Query: {
      resolveUrlResolveResult: resolver<{ path: string }>(access.public, async (ctx, { path }) => {
        const hit = await resolvePath(ctx, path);
        return graphqlNode(hit ?? { type: 'not_found' as never, redirectType: 0 }, path);
      }),
    },
  } as IResolvers,
};
