/**
 * Gift cards of the back office, declared once for REST and GraphQL: read one, create one. The balance check,
 * the balance adjustment and the list are GraphQL-only, as in Maho (graphql.ts).
 */
import { access } from '../../platform/auth/access.js';
import { op, type Operation } from '../../platform/operations.js';
import { Giftcard, GiftcardCreate, GiftcardParams } from './schemas.js';
import * as cards from './service.js';

const tags = ['giftcards'];
/** Maho's GraphQL type name (REST items carry no type name) */
const shortName = 'GiftCard';

type Args = Record<string, unknown>;

/** GraphQL nulls read as "not sent", except expiresAt, where null means "never expires" as in REST. */
const nullsDropped = (args: Args, next: (a: Args) => Promise<unknown>) =>
  next(Object.fromEntries(Object.entries(args).filter(([k, v]) => v !== null || k === 'expiresAt')));

export const operations: Operation[] = [
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
];
