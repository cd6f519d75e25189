import { Type, type Static } from 'typebox';
import { ListPageQuery } from '../../platform/connection.js';

const INT_MAX = 2147483647;

/** A text field a client may also send as null (read as "not sent"). */
const OptText = (description: string) => Type.Optional(Type.Union([Type.String(), Type.Null()], { description }));

export const GiftcardHistoryEntry = Type.Object({
  action: Type.String({ description: 'created, used, refunded, adjusted or expired' }),
  amount: Type.Number({ description: 'signed change of the balance' }),
  balanceBefore: Type.Number(),
  balanceAfter: Type.Number(),
  orderId: Type.Optional(Type.Integer()),
  comment: Type.Optional(Type.String()),
  createdAt: Type.String({ description: 'YYYY-MM-DD HH:MM:SS (UTC)' }),
});

export const Giftcard = Type.Object({
  id: Type.Integer(),
  code: Type.String(),
  balance: Type.Number(),
  initialBalance: Type.Number(),
  status: Type.String({ description: 'active, used, expired or disabled (expired once expiresAt has passed)' }),
  expiresAt: Type.Optional(Type.String({ description: 'YYYY-MM-DD HH:MM:SS (UTC); absent when the card never expires' })),
  currencyCode: Type.String(),
  createdAt: Type.String(),
  updatedAt: Type.String(),
  purchaseOrderId: Type.Optional(Type.Integer()),
  purchaseOrderItemId: Type.Optional(Type.Integer()),
  emailScheduledAt: Type.Optional(Type.String()),
  emailSentAt: Type.Optional(Type.String()),
  recipientName: Type.Optional(Type.String()),
  recipientEmail: Type.Optional(Type.String()),
  senderName: Type.Optional(Type.String()),
  senderEmail: Type.Optional(Type.String()),
  message: Type.Optional(Type.String()),
  websiteIds: Type.Array(Type.Integer()),
  history: Type.Array(GiftcardHistoryEntry, { description: 'newest first' }),
});

export const GiftcardCreate = Type.Object(
  {
    initialBalance: Type.Optional(Type.Number({ description: 'greater than 0, at most 10000; `balance` is accepted instead' })),
    balance: Type.Optional(Type.Number({ description: 'alias of initialBalance' })),
    code: OptText('4 to 64 characters of A-Z, 0-9 and -, stored upper-case; generated (GC-XXXX-XXXX-XXXX-XXXX) when omitted'),
    currencyCode: OptText("an allowed currency of the card's websites; default the base currency of the first website"),
    websiteIds: Type.Optional(
      Type.Array(Type.Integer(), { description: "websites the card is valid in; default the current store's website" }),
    ),
    websiteId: Type.Optional(Type.Integer({ description: 'write-only alias: one website' })),
    status: OptText('active (default) or disabled'),
    expiresAt: OptText(
      'YYYY-MM-DD (valid through that day, UTC) or YYYY-MM-DD HH:MM:SS (UTC), in the future; default now + giftcard/general/lifetime_days; "" or null: never expires',
    ),
    recipientName: OptText('at most 255 characters'),
    recipientEmail: OptText('a gift card mail is sent to this address'),
    senderName: OptText('at most 255 characters'),
    senderEmail: OptText('an email address'),
    message: OptText('at most 1000 characters'),
  },
  { additionalProperties: false },
);

/**
 * PUT /giftcards/{id}: what the back office may change. Read-only keys a client echoes back (id, initialBalance,
 * currencyCode, history, ...) are dropped; code and websiteIds may be echoed but not changed.
 */
export const GiftcardUpdate = Type.Object(
  {
    status: Type.Optional(Type.String({ description: 'active, used, expired or disabled' })),
    balance: Type.Optional(Type.Number({ description: 'the balance to set, 0 to 10000; recorded in the history as an adjustment' })),
    comment: Type.Optional(Type.Union([Type.String(), Type.Null()], { description: "the history entry's comment of a balance change" })),
    expiresAt: OptText('YYYY-MM-DD (through that day, UTC) or YYYY-MM-DD HH:MM:SS (UTC), in the future; "" or null: never expires'),
    recipientName: OptText('at most 255 characters; "" or null clears it'),
    recipientEmail: OptText('an email address; "" or null clears it (no mail is sent on update)'),
    senderName: OptText('at most 255 characters; "" or null clears it'),
    senderEmail: OptText('an email address; "" or null clears it'),
    message: OptText('at most 1000 characters; "" or null clears it'),
    code: OptText("cannot be changed; accepted when it is the card's code"),
    websiteIds: Type.Optional(Type.Array(Type.Integer(), { description: "cannot be changed; accepted when it is the card's set" })),
  },
  { additionalProperties: false },
);

export const GiftcardParams = Type.Object({ id: Type.Integer({ minimum: 1, maximum: INT_MAX }) });

export const GIFTCARD_SORTS = ['id', 'code', 'balance', 'initialBalance', 'createdAt', 'updatedAt', 'expiresAt'] as const;

export const GiftcardListQuery = Type.Object({
  ...ListPageQuery.properties,
  search: Type.Optional(
    Type.String({ maxLength: 255, description: 'code, recipient email or recipient name contains (case-insensitive)' }),
  ),
  status: Type.Optional(
    Type.Union([Type.Literal('active'), Type.Literal('used'), Type.Literal('expired'), Type.Literal('disabled')], {
      description: 'the status shown (a card past expiresAt is expired, one with nothing left used)',
    }),
  ),
  websiteId: Type.Optional(Type.Integer({ minimum: 0, maximum: INT_MAX, description: 'cards valid in this website' })),
  sortBy: Type.Optional(Type.Enum([...GIFTCARD_SORTS], { description: 'default id, newest first' })),
  sortDir: Type.Optional(Type.Union([Type.Literal('asc'), Type.Literal('desc')], { description: 'default asc when sortBy is given' })),
});
export type GiftcardListQueryT = Static<typeof GiftcardListQuery>;

export type GiftcardDto = Static<typeof Giftcard>;
export type GiftcardHistoryDto = Static<typeof GiftcardHistoryEntry>;
export type GiftcardCreateInput = Static<typeof GiftcardCreate>;
export type GiftcardUpdateInput = Static<typeof GiftcardUpdate>;

export interface GiftcardBalanceDto {
  code: string;
  balance: number;
  currencyCode: string;
  status: string;
  expiresAt?: string;
}

/** What the public balance check answers: a part of the card. */
export const GiftcardBalance = Type.Object({
  code: Type.String(),
  balance: Type.Number(),
  currencyCode: Type.String(),
  status: Type.String({ description: 'active, used or expired' }),
  expiresAt: Type.Optional(Type.String({ description: 'YYYY-MM-DD HH:MM:SS (UTC); absent when the card never expires' })),
});

/** Any code that names no usable card (empty, too short, unknown) is the same 404, so that codes cannot be probed. */
export const GiftcardBalanceQuery = Type.Object({ code: Type.String({ maxLength: 255, description: 'the gift card code (any case)' }) });

/** The balance adjustment: name the card by id or code; give newBalance (the balance to set) or amount (a signed change). */
export const GiftcardAdjust = Type.Object(
  {
    id: Type.Optional(Type.Integer({ minimum: 1, maximum: INT_MAX, description: "the card's id, or give its code" })),
    code: Type.Optional(Type.String({ maxLength: 64 })),
    newBalance: Type.Optional(Type.Number({ description: 'the balance to set (Maho)' })),
    amount: Type.Optional(Type.Number({ description: 'a signed change of the balance, instead of newBalance' })),
    comment: Type.Optional(Type.String({ description: 'at most 1000 characters' })),
  },
  { additionalProperties: false },
);
