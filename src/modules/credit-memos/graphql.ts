/** GraphQL for credit memos: the createCreditMemo mutation (admin/API), over the same service as REST. */
import type { IResolvers } from 'mercurius';
import { access } from '../../platform/auth/access.js';
import { resolver, type GraphqlContribution } from '../../platform/graphql.js';
import type { CreditMemoCreateInput } from './schemas.js';
import * as memos from './service.js';

const typeDefs = `
  type CreditMemoItem {
    id: Int!
    orderItemId: Int!
    productId: Int!
    sku: String!
    name: String!
    qty: Float!
    price: Float!
    priceInclTax: Float!
    rowTotal: Float!
    rowTotalInclTax: Float!
    taxAmount: Float!
    discountAmount: Float!
    baseRowTotal: Float!
    backToStock: Boolean!
  }
  type CreditMemo {
    id: Int!
    incrementId: String!
    orderId: Int!
    orderIncrementId: String!
    invoiceId: Int
    state: String!
    currency: String!
    grandTotal: Float!
    baseGrandTotal: Float!
    subtotal: Float!
    taxAmount: Float!
    shippingAmount: Float!
    discountAmount: Float!
    adjustmentPositive: Float!
    adjustmentNegative: Float!
    comment: String
    items: [CreditMemoItem!]!
    createdAt: String!
  }
  input CreditMemoItemInput {
    orderItemId: Int!
    qty: Float!
    backToStock: Boolean
  }
  input CreateCreditMemoInput {
    orderId: Int!
    items: [CreditMemoItemInput!]
    comment: String
    offlineRefund: Boolean
    adjustmentPositive: Float
    adjustmentNegative: Float
    shippingAmount: Float
    notifyCustomer: Boolean
  }
  extend type Mutation {
    createCreditMemo(input: CreateCreditMemoInput!): CreditMemo!
  }
`;

type Nullable<T> = { [K in keyof T]?: T[K] | null };
type GqlInput = Nullable<Omit<CreditMemoCreateInput, 'items'>> & {
  orderId: number;
  items?: { orderItemId: number; qty: number; backToStock?: boolean | null }[] | null;
};

/** GraphQL nulls read as "not sent". */
function createInput(i: GqlInput): CreditMemoCreateInput {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(i)) if (v !== null && k !== 'orderId') out[k] = v;
  if (i.items) out.items = i.items.map((x) => (x.backToStock === null ? { orderItemId: x.orderItemId, qty: x.qty } : x));
  return out as CreditMemoCreateInput;
}

export const creditMemosGraphql: GraphqlContribution = {
  typeDefs,
  resolvers: {
    Mutation: {
      createCreditMemo: resolver<{ input: GqlInput }>(access.admin('credit-memos', 'create'), (ctx, args) =>
        memos.createCreditMemo(ctx, args.input.orderId, createInput(args.input)),
      ),
    },
  } as IResolvers,
};
