/**
 * GraphQL-only gift card fields, which have no REST twin (as in Maho): the public balance check
 * `checkBalanceGiftCard` (spec name `checkGiftcardBalance`, rate limited), the back office's balance adjustment
 * `adjustBalanceGiftCard` (spec name `adjustGiftcardBalance`, which also takes its arguments flat) and the
 * `giftCards` connection. They answer the GiftCard type derived from the REST declarations (rest.ts).
 */
import type { IResolvers } from 'mercurius';
import { access } from '../../platform/auth/access.js';
import type { Ctx } from '../../platform/context.js';
import { resolver, type GraphqlContribution } from '../../platform/graphql.js';
import { CONNECTION_ARGS, pagedConnection, type ConnectionArgs } from '../orders/graphql-connection.js';
import * as cards from './service.js';

const ADJUST_FIELDS = `
    "the card's id (or IRI), or give its code"
    id: ID
    code: String
    "the balance to set (Maho's argument)"
    newBalance: Float
    "a signed change of the balance, instead of newBalance"
    amount: Float
    comment: String`;

const adjustInputs = ['adjustBalanceGiftCard', 'adjustGiftcardBalance']
  .map(
    (n) => `
  input ${n}Input {${ADJUST_FIELDS}
    clientMutationId: String
  }
  type ${n}Payload {
    giftCard: GiftCard
    clientMutationId: String
  }`,
  )
  .join('\n');

const typeDefs = `
  type GiftCardEdge {
    node: GiftCard
    cursor: String!
  }
  type GiftCardConnection {
    edges: [GiftCardEdge!]!
    pageInfo: PageInfo!
    totalCount: Int!
  }
  ${adjustInputs}
  extend type Query {
    "Every gift card of the caller's websites, newest first (admin/API, giftcards/read)."
    giftCards(${CONNECTION_ARGS}): GiftCardConnection
    "The balance of a card by its code (public, rate limited per IP); unknown, disabled and other-website cards are the same 404."
    checkBalanceGiftCard(code: String!): GiftCard
    "The spec's name of checkBalanceGiftCard."
    checkGiftcardBalance(code: String!): GiftCard
  }
  extend type Mutation {
    "Sets a card's balance (newBalance) or changes it (amount), within 0 to 10000 (admin/API, giftcards/write)."
    adjustBalanceGiftCard(input: adjustBalanceGiftCardInput!): adjustBalanceGiftCardPayload
    "The spec's name of adjustBalanceGiftCard; its arguments may also be given flat."
    adjustGiftcardBalance(input: adjustGiftcardBalanceInput, ${ADJUST_FIELDS.replace(/\n\s*"[^"]*"/g, '').trim().replace(/\n\s*/g, ', ')}): adjustGiftcardBalancePayload
  }
`;

type AdjustArgs = { id?: string | number | null; code?: string | null; newBalance?: number | null; amount?: number | null; comment?: string | null; clientMutationId?: string | null };

/** The card id of an `id` argument: a number, a numeric string or the card's IRI; anything else names no card. */
function cardId(id: AdjustArgs['id']): number | null | undefined {
  if (id === null || id === undefined) return undefined;
  const m = /^(?:\/api\/rest\/v2\/giftcards\/)?(\d+)$/.exec(String(id));
  return m ? Number(m[1]) : 0;
}

async function adjust(ctx: Ctx, a: AdjustArgs) {
  const card = await cards.adjustGiftcardBalance(ctx, { id: cardId(a.id), code: a.code, amount: a.amount, newBalance: a.newBalance, comment: a.comment });
  return { giftCard: card, clientMutationId: a.clientMutationId ?? null };
}

const check = resolver<{ code: string }>(access.public, (ctx, args) => cards.checkGiftcardBalance(ctx, args.code));
const write = access.admin('giftcards', 'write');

export const giftcardsGraphql: GraphqlContribution = {
  typeDefs,
  resolvers: {
    Query: {
      giftCards: resolver<ConnectionArgs>(access.admin('giftcards', 'read'), (ctx, args) => pagedConnection(args, (page) => cards.listGiftcards(ctx, page))),
      checkBalanceGiftCard: check,
      checkGiftcardBalance: check,
    },
    Mutation: {
      adjustBalanceGiftCard: resolver<{ input: AdjustArgs }>(write, (ctx, args) => adjust(ctx, args.input)),
      adjustGiftcardBalance: resolver<AdjustArgs & { input?: AdjustArgs | null }>(write, (ctx, { input, ...flat }) => adjust(ctx, { ...flat, ...(input ?? {}) })),
    },
  } as IResolvers,
};
