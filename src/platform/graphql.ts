/**
 * The GraphQL endpoint at /api/graphql. Each module contributes SDL and resolvers; each resolver declares
 * its access rule and calls the same service function as the module's REST route.
 */
import type { FastifyInstance } from 'fastify';
import mercurius, { type IResolvers, type MercuriusContext } from 'mercurius';
import { GraphQLError } from 'graphql';
import { authorize, type Access } from './auth/access.js';
import type { Ctx } from './context.js';
import { toAppError } from './http.js';

export interface GraphqlContribution {
  typeDefs: string;
  resolvers: IResolvers;
}

export interface GqlContext extends MercuriusContext {
  ctx: Ctx;
}

/** Wraps a resolver: enforce the access rule, then hand the request's Ctx and the arguments to `fn`. */
export function resolver<A = Record<string, unknown>, R = unknown, P = unknown>(
  rule: Access,
  fn: (ctx: Ctx, args: A, parent: P) => Promise<R> | R,
) {
  return async (parent: P, args: A, context: GqlContext) => {
    authorize(context.ctx.actor, rule);
    return fn(context.ctx, args, parent);
  };
}

const BASE = `
  scalar JSON
  type Query { apiVersion: String! }
  type Mutation { ping: Boolean! }
`;

export const GRAPHQL_PATH = '/api/graphql';

export async function installGraphql(app: FastifyInstance, parts: GraphqlContribution[]): Promise<void> {
  const resolvers: IResolvers = {
    Query: { apiVersion: () => '2' },
    Mutation: { ping: () => true },
  };
  for (const part of parts) {
    for (const [type, fields] of Object.entries(part.resolvers)) {
      resolvers[type] = { ...((resolvers[type] as object) ?? {}), ...(fields as object) };
    }
  }
  await app.register(mercurius, {
    schema: [BASE, ...parts.map((p) => p.typeDefs)],
    resolvers,
    path: GRAPHQL_PATH,
    graphiql: false,
    jit: 1,
    context: (req) => ({ ctx: req.ctx }),
    errorFormatter: (execution, context) => {
      const errors = (execution.errors ?? []).flatMap((e): GraphQLError[] => {
        const original = (e as GraphQLError).originalError;
        // a query that does not parse or validate: Mercurius wraps graphql-js's own errors; report those
        const inner = (original as { errors?: unknown } | undefined)?.errors;
        if (Array.isArray(inner) && inner.every((x) => x instanceof GraphQLError)) {
          return inner.map(
            (x: GraphQLError) =>
              new GraphQLError(x.message, {
                nodes: x.nodes,
                source: x.source,
                positions: x.positions,
                extensions: { code: /^Syntax Error/.test(x.message) ? 'GRAPHQL_PARSE_FAILED' : 'GRAPHQL_VALIDATION_FAILED', status: 400 },
              }),
          );
        }
        if (!original || original instanceof GraphQLError) return [e];
        const appErr = toAppError(original);
        if (appErr.status >= 500) context.reply?.log.error({ err: original }, 'graphql resolver failed');
        return [
          new GraphQLError(appErr.message, {
            nodes: e.nodes,
            path: e.path,
            extensions: { code: appErr.reason, status: appErr.status, ...(appErr.details ? { details: appErr.details } : {}) },
          }),
        ];
      });
      return { statusCode: 200, response: { data: execution.data ?? null, errors } };
    },
  });
}
