/**
 * Gift cards, declared once for REST, GraphQL and MCP: the back office lists, reads and creates cards and adjusts
 * their balance; anyone checks a balance by code (rate limited per IP). Maho has these in GraphQL only
 * (`giftCards`, `checkGiftcardBalance`, `adjustGiftcardBalance`); its names and the spec's are both served.
 */
import { Type } from 'typebox';
import { access } from '../../platform/auth/access.js';
import { GraphqlId } from '../../platform/graphql-derive.js';
import { op, type Operation } from '../../platform/operations.js';
import { cardNotFound } from './cards.js';
import { listGiftcards } from './list.js';
import {
  Giftcard,
  GiftcardAdjust,
  GiftcardBalance,
  GiftcardBalanceQuery,
  GiftcardCreate,
  GiftcardListQuery,
  GiftcardParams,
  GiftcardUpdate,
} from './schemas.js';
import * as cards from './service.js';
import { updateGiftcard } from './update.js';

const tags = ['giftcards'];
/** Maho's GraphQL type name (REST items carry no type name) */
const shortName = 'GiftCard';

type Args = Record<string, unknown>;

/** GraphQL nulls read as "not sent", except expiresAt, where null means "never expires" as in REST. */
const nullsDropped = (args: Args, next: (a: Args) => Promise<unknown>) =>
  next(Object.fromEntries(Object.entries(args).filter(([k, v]) => v !== null || k === 'expiresAt')));

/** The GraphQL arguments of the balance adjustment: the card by id (or its IRI) or code. */
const AdjustArgs = Type.Object({
  id: Type.Optional(GraphqlId({ description: "the card's id (or IRI), or give its code" })),
  code: Type.Optional(Type.String()),
  newBalance: Type.Optional(Type.Number({ description: "the balance to set (Maho's argument)" })),
  amount: Type.Optional(Type.Number({ description: 'a signed change of the balance, instead of newBalance' })),
  comment: Type.Optional(Type.String()),
});

/** The adjustment's body from GraphQL arguments: nulls read as not given; an id that names no card is a 404. */
function adjustInput({ clientMutationId: _, id, ...rest }: Args) {
  const body: Args = Object.fromEntries(Object.entries(rest).filter(([, v]) => v !== null && v !== undefined));
  if (id !== null && id !== undefined) {
    const m = /^(?:\/api\/rest\/v2\/giftcards\/)?(\d+)$/.exec(String(id));
    if (!m || Number(m[1]) < 1) throw cardNotFound();
    body.id = Number(m[1]);
  }
  return { body };
}

export const operations: Operation[] = [
  op({
    id: 'giftcards.list',
    method: 'GET',
    path: '/giftcards',
    tags,
    summary:
      "The gift cards of the caller's websites, newest first unless sortBy; search (code or recipient), status (as shown), websiteId",
    access: access.admin('giftcards', 'read'),
    shortName,
    query: GiftcardListQuery,
    kind: 'collection',
    response: Giftcard,
    page: { defaultSize: 20, maxSize: 100 },
    run: (ctx, { query, page }) => listGiftcards(ctx, query, page),
  }),
  op({
    id: 'giftcards.checkBalance',
    method: 'GET',
    path: '/giftcards/balance',
    tags,
    summary: 'The balance of a card by its code (public, rate limited per IP); unknown, disabled and other-website cards are the same 404',
    access: access.public,
    shortName,
    query: GiftcardBalanceQuery,
    response: GiftcardBalance,
    restHeaders: { 'cache-control': 'no-store' },
    // Maho's name, then the spec's; the answer is a part of the GiftCard type
    graphql: { name: 'checkBalanceGiftCard', aliases: ['checkGiftcardBalance'], partial: true },
    run: (ctx, { query }) => cards.checkGiftcardBalance(ctx, query.code),
  }),
  op({
    id: 'giftcards.adjustBalance',
    method: 'POST',
    path: '/giftcards/adjust-balance',
    tags,
    summary: "Set a card's balance (newBalance) or change it (amount), within 0 to 10000; the card by id or code",
    access: access.admin('giftcards', 'write'),
    shortName,
    body: GiftcardAdjust,
    response: Giftcard,
    graphql: {
      name: 'adjustBalanceGiftCard',
      // the spec's name, whose arguments may also be given flat
      aliases: [{ name: 'adjustGiftcardBalance', flat: true }],
      args: AdjustArgs,
      input: adjustInput,
    },
    run: (ctx, { body }) => cards.adjustGiftcardBalance(ctx, body),
  }),
  op({
    id: 'giftcards.get',
    method: 'GET',
    path: '/giftcards/:id',
    tags,
    summary: 'One gift card with its balance history (newest first)',
    access: access.admin('giftcards', 'read'),
    shortName,
    params: GiftcardParams,
    response: Giftcard,
    run: (ctx, { params }) => cards.getGiftcard(ctx, params.id),
  }),
  op({
    id: 'giftcards.create',
    method: 'POST',
    path: '/giftcards',
    tags,
    summary: 'Create a gift card; the code is generated unless given, and a mail goes to recipientEmail if given',
    access: access.admin('giftcards', 'create'),
    shortName,
    body: GiftcardCreate,
    response: Giftcard,
    status: 201,
    graphql: { around: nullsDropped },
    run: (ctx, { body }) => cards.createGiftcard(ctx, body),
  }),
  op({
    id: 'giftcards.update',
    method: 'PUT',
    path: '/giftcards/:id',
    tags,
    summary:
      'Update a gift card: status, balance (an adjustment recorded in its history, with comment), expiry and recipient fields; no mail is sent',
    access: access.admin('giftcards', 'write'),
    shortName,
    params: GiftcardParams,
    body: GiftcardUpdate,
    response: Giftcard,
    graphql: { around: nullsDropped },
    run: (ctx, { params, body }) => updateGiftcard(ctx, params.id, body),
  }),
];
