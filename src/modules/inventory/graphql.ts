/** GraphQL for stock updates: the same service functions and access rule as PUT /inventory and /inventory/bulk. */
import type { IResolvers } from 'mercurius';
import { access } from '../../platform/auth/access.js';
import { resolver, type GraphqlContribution } from '../../platform/graphql.js';
import * as inventory from './service.js';

const STOCK_FIELDS = `
    qty: Int
    isInStock: Boolean
    manageStock: Boolean
    minQty: Int
    minSaleQty: Int
    maxSaleQty: Int
    backorders: Int
    notifyStockQty: Int
    qtyIncrements: Int
    isQtyDecimal: Boolean
    enableQtyIncrements: Boolean
    useConfigMinQty: Boolean
    useConfigMinSaleQty: Boolean
    useConfigMaxSaleQty: Boolean
    useConfigBackorders: Boolean
    useConfigNotifyStockQty: Boolean
    useConfigQtyIncrements: Boolean
    useConfigEnableQtyInc: Boolean
    useConfigManageStock: Boolean`;

const typeDefs = `
  type StockRecord {
    sku: String!
    qty: Int!
    previousQty: Int!
    isInStock: Boolean!
    manageStock: Boolean!
    success: Boolean!
    minQty: Int
    minSaleQty: Int
    maxSaleQty: Int
    backorders: Int
    notifyStockQty: Int
    qtyIncrements: Int
  }
  type StockBulkUpdateResult {
    sku: String!
    qty: Int!
    success: Boolean!
    results: [StockRecord!]!
  }
  input UpdateStockInput {
    sku: String!${STOCK_FIELDS}
  }
  input UpdateStockBulkItemInput {
    sku: String${STOCK_FIELDS}
  }
  input UpdateStockBulkInput {
    items: [UpdateStockBulkItemInput!]!
  }
  extend type Mutation {
    updateStock(input: UpdateStockInput!): StockRecord!
    updateStockBulk(input: UpdateStockBulkInput!): StockBulkUpdateResult!
  }
`;

/** Keys that an explicit null clears; a null elsewhere reads as "not sent". */
const CLEARABLE = new Set(['maxSaleQty', 'notifyStockQty', 'qtyIncrements']);

function stockInput<T extends object>(input: T): T {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(input)) if (v !== null || CLEARABLE.has(k)) out[k] = v;
  return out as T;
}

export const inventoryGraphql: GraphqlContribution = {
  typeDefs,
  resolvers: {
    Mutation: {
      updateStock: resolver<{ input: inventory.StockUpdateInput }>(access.admin('inventory', 'write'), (ctx, args) =>
        inventory.updateStockBySku(ctx, stockInput(args.input)),
      ),
      updateStockBulk: resolver<{ input: { items: inventory.StockBulkItemInput[] } }>(access.admin('inventory', 'write'), (ctx, args) =>
        inventory.updateStockBulk(ctx, args.input.items.map(stockInput)),
      ),
    },
  } as IResolvers,
};
