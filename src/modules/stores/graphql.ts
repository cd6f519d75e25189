/**
 * GraphQL-only: Maho's `storeConfigs` connection, the configuration of every active store view (REST has no
 * list of configurations, only `/store-config` and `/{storeCode}/config`). Cursors are those of the derived
 * connections (base64 of the offset).
 */
import type { IResolvers } from 'mercurius';
import { access } from '../../platform/auth/access.js';
import { AppError } from '../../platform/errors.js';
import { resolver, type GraphqlContribution } from '../../platform/graphql.js';
import * as stores from './service.js';

interface ConnArgs {
  first?: number | null;
  last?: number | null;
  after?: string | null;
  before?: string | null;
}

const cursorOf = (offset: number) => Buffer.from(String(offset)).toString('base64');
function offsetOf(cursor: string): number {
  const n = Number(Buffer.from(cursor, 'base64').toString());
  if (!Number.isInteger(n) || n < 0) throw new AppError('bad_request', 'The cursor is not one this API gave', { reason: 'BAD_CURSOR' });
  return n;
}

/** A Relay connection over a whole list, sliced by first/last/after/before. */
export function listConnection<T>(all: T[], args: ConnArgs) {
  for (const n of [args.first, args.last]) {
    if (n != null && (!Number.isInteger(n) || n < 0)) throw new AppError('bad_request', 'first and last must be zero or more', { reason: 'VALIDATION_FAILED' });
  }
  let from = args.after != null ? offsetOf(args.after) + 1 : 0;
  let to = args.before != null ? Math.min(all.length, offsetOf(args.before)) : all.length;
  if (args.first != null) to = Math.min(to, from + args.first);
  if (args.last != null) from = Math.max(from, to - args.last);
  const items = from < to ? all.slice(from, to) : [];
  return {
    edges: items.map((node, i) => ({ node, cursor: cursorOf(from + i) })),
    totalCount: all.length,
    pageInfo: {
      startCursor: items.length ? cursorOf(from) : null,
      endCursor: items.length ? cursorOf(from + items.length - 1) : null,
      hasNextPage: from + items.length < all.length,
      hasPreviousPage: from > 0,
    },
  };
}

export const storesGraphql: GraphqlContribution = {
  typeDefs: `
  type StoreConfigConnection {
    edges: [StoreConfigEdge!]!
    pageInfo: PageInfo!
    totalCount: Int!
  }
  type StoreConfigEdge {
    node: StoreConfig
    cursor: String!
  }
  extend type Query {
    storeConfigs(first: Int, last: Int, before: String, after: String): StoreConfigConnection
  }
`,
  resolvers: {
    Query: {
      storeConfigs: resolver<ConnArgs>(access.public, (ctx, args) => {
        const all = stores.listStores(ctx).map((s) => ctx.app.settings.memo(`store-config:${s.code.toLowerCase()}`, () => stores.storeConfig(ctx, s.code)));
        return listConnection(all, args);
      }),
    },
  } as IResolvers,
};
