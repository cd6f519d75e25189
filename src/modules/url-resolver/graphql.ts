/**
 * GraphQL-only: Maho's `resolveUrlResolveResult(path: String!)`, the item form of GET /url-resolver (REST has only
 * the collection, served as `urlResolveResults`), and `urlResolveResult(id: ID!)`, the same for the IRI a result
 * carries (`/api/rest/v2/url-resolver?path=…`, or a bare path). Nothing found is a result of type `not_found`, as
 * Maho answers.
 */
import type { IResolvers } from 'mercurius';
import type { Ctx } from '../../platform/context.js';
import { access } from '../../platform/auth/access.js';
import { resolver, type GraphqlContribution } from '../../platform/graphql.js';
import { graphqlNode, pathOfIri } from './rest.js';
import { resolvePath } from './service.js';

async function resolveNode(ctx: Ctx, path: string) {
  const hit = await resolvePath(ctx, path);
  return graphqlNode(hit ?? { type: 'not_found' as never, redirectType: 0 }, path);
}

export const urlResolverGraphql: GraphqlContribution = {
  typeDefs: `
  extend type Query {
    resolveUrlResolveResult(path: String!): UrlResolveResult
    urlResolveResult(id: ID!): UrlResolveResult
  }
`,
  resolvers: {
    Query: {
      resolveUrlResolveResult: resolver<{ path: string }>(access.public, (ctx, { path }) => resolveNode(ctx, path)),
      urlResolveResult: resolver<{ id: string }>(access.public, (ctx, { id }) => resolveNode(ctx, pathOfIri(id))),
    },
  } as IResolvers,
};
