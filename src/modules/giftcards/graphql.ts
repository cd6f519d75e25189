/**
 * GraphQL for gift cards: the public balance check (rate limited), and the back office's card read, create
 * and balance adjustment (which exists only here, not in REST).
 */
import type { IResolvers } from 'mercurius';
import { access } from '../../platform/auth/access.js';
import { resolver, type GraphqlContribution } from '../../platform/graphql.js';
import type { GiftcardCreateInput } from './schemas.js';
import * as cards from './service.js';

const typeDefs = `
  type GiftcardHistoryEntry {
    action: String!
    amount: Float!
    balanceBefore: Float!
    balanceAfter: Float!
    orderId: Int
    comment: String
    createdAt: String!
  }
  type Giftcard {
    id: Int!
    code: String!
    balance: Float!
    initialBalance: Float!
    status: String!
    expiresAt: String
    currencyCode: String!
    createdAt: String!
    updatedAt: String!
    purchaseOrderId: Int
    purchaseOrderItemId: Int
    emailScheduledAt: String
    emailSentAt: String
    recipientName: String
    recipientEmail: String
    senderName: String
    senderEmail: String
    message: String
    websiteIds: [Int!]!
    history: [GiftcardHistoryEntry!]!
  }
  type GiftcardBalance {
    code: String!
    balance: Float!
    currencyCode: String!
    status: String!
    expiresAt: String
  }
  input CreateGiftcardInput {
    initialBalance: Float
    balance: Float
    code: String
    currencyCode: String
    websiteIds: [Int!]
    status: String
    expiresAt: String
    recipientName: String
    recipientEmail: String
    senderName: String
    senderEmail: String
    message: String
  }
  extend type Query {
    checkGiftcardBalance(code: String!): GiftcardBalance!
    giftcard(id: Int!): Giftcard
  }
  extend type Mutation {
    createGiftcard(input: CreateGiftcardInput!): Giftcard!
    adjustGiftcardBalance(id: Int, code: String, amount: Float!, comment: String): Giftcard!
  }
`;

type Nullable<T> = { [K in keyof T]?: T[K] | null };

/** GraphQL nulls read as "not sent", except expiresAt, where null means "never expires" as in REST. */
function createInput(i: Nullable<GiftcardCreateInput>): GiftcardCreateInput {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(i)) if (v !== null || k === 'expiresAt') out[k] = v;
  return out as GiftcardCreateInput;
}

export const giftcardsGraphql: GraphqlContribution = {
  typeDefs,
  resolvers: {
    Query: {
      checkGiftcardBalance: resolver<{ code: string }>(access.public, (ctx, args) => cards.checkGiftcardBalance(ctx, args.code)),
      giftcard: resolver<{ id: number }>(access.admin('giftcards', 'read'), (ctx, args) => cards.getGiftcard(ctx, args.id)),
    },
    Mutation: {
      createGiftcard: resolver<{ input: Nullable<GiftcardCreateInput> }>(access.admin('giftcards', 'create'), (ctx, args) =>
        cards.createGiftcard(ctx, createInput(args.input)),
      ),
      adjustGiftcardBalance: resolver<cards.AdjustInput>(access.admin('giftcards', 'write'), (ctx, args) =>
        cards.adjustGiftcardBalance(ctx, args),
      ),
    },
  } as IResolvers,
};
