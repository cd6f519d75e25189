/**
 * GraphQL-only reads of Maho's Stock resource, which REST does not have (it only writes stock by SKU):
 * `stock(id:)`, the stock of a SKU (the type's identifier; the IRI form `/api/rest/v2/inventory/<sku>` is
 * accepted too), and `stocks`, every stock row as a connection with the derived connections' cursors.
 */
import type { IResolvers } from 'mercurius';
import { access } from '../../platform/auth/access.js';
import { AppError } from '../../platform/errors.js';
import { resolver, type GraphqlContribution } from '../../platform/graphql.js';
import * as inventory from './service.js';

const read = access.admin('inventory', 'read');
const DEFAULT_SIZE = 20;
const MAX_SIZE = 100;

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

async function stocks(ctx: Parameters<typeof inventory.listStock>[0], args: ConnArgs) {
  for (const n of [args.first, args.last]) {
    if (n != null && (!Number.isInteger(n) || n < 0)) throw new AppError('bad_request', 'first and last must be zero or more', { reason: 'VALIDATION_FAILED' });
  }
  let from = args.after != null ? offsetOf(args.after) + 1 : 0;
  let to = args.before != null ? offsetOf(args.before) : Number.POSITIVE_INFINITY;
  if (args.last != null) {
    if (!Number.isFinite(to)) to = (await inventory.listStock(ctx, { size: 0, offset: 0 })).total;
    from = Math.max(from, to - Math.min(MAX_SIZE, args.last));
  }
  const size = Math.max(0, Math.min(MAX_SIZE, args.first ?? (args.last != null ? MAX_SIZE : DEFAULT_SIZE), to - from));
  const { items, total } = await inventory.listStock(ctx, { size, offset: from });
  return {
    edges: items.map((node, i) => ({ node, cursor: cursorOf(from + i) })),
    totalCount: total,
    pageInfo: {
      startCursor: items.length ? cursorOf(from) : null,
      endCursor: items.length ? cursorOf(from + items.length - 1) : null,
      hasNextPage: from + items.length < total,
      hasPreviousPage: from > 0,
    },
  };
}

export const inventoryGraphql: GraphqlContribution = {
  typeDefs: `
  type StockConnection {
    edges: [StockEdge!]!
    pageInfo: PageInfo!
    totalCount: Int!
  }
  type StockEdge {
    node: Stock
    cursor: String!
  }
  extend type Query {
    stock(id: ID!): Stock
    stocks(first: Int, last: Int, before: String, after: String): StockConnection
  }
`,
  resolvers: {
    Query: {
      stock: resolver<{ id: string }>(read, (ctx, { id }) => inventory.stockBySku(ctx, String(id).replace(/^\/api\/rest\/v2\/inventory\//, ''))),
      stocks: resolver<ConnArgs>(read, (ctx, args) => stocks(ctx, args)),
    },
  } as IResolvers,
};
