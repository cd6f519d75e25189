import { DateFilter, DateRangeQuery } from '../../platform/date-range.js';
import { Type, type Static } from 'typebox';
import { PageQuery } from '../../platform/pagination.js';

export const NewsletterSubscription = Type.Object({
  subscriberId: Type.Optional(Type.Integer({ description: 'only to the customer the subscription belongs to' })),
  email: Type.String(),
  customerId: Type.Optional(Type.Integer({ description: 'only to the customer the subscription belongs to' })),
  storeId: Type.Optional(Type.Integer()),
  changeStatusAt: Type.Optional(Type.String({ description: 'YYYY-MM-DD HH:MM:SS UTC' })),
  status: Type.String({ description: 'subscribed, not_active (waiting for confirmation), unsubscribed, unconfirmed or unknown' }),
  isSubscribed: Type.Boolean(),
  confirmationRequired: Type.Boolean(),
  message: Type.Optional(Type.String()),
});
export type NewsletterSubscriptionDto = Static<typeof NewsletterSubscription>;

export const SubscribeBody = Type.Object({
  email: Type.Optional(Type.String({ description: 'guests only; a customer subscribes the account email' })),
  storeId: Type.Optional(Type.Integer({ description: 'store view (default: the request store)' })),
});
export type SubscribeInput = Static<typeof SubscribeBody>;

export const UnsubscribeBody = Type.Object({
  email: Type.Optional(
    Type.String({ description: 'the subscribed email (or subscriberId); a customer token unsubscribes the account email instead' }),
  ),
  subscriberId: Type.Optional(
    Type.Integer({ minimum: 1, maximum: 2147483647, description: 'the `id` of the unsubscribe link, instead of email' }),
  ),
  code: Type.Optional(
    Type.String({
      maxLength: 128,
      description:
        'required without a customer token: the `code` of the unsubscribe link in the newsletter mail, or the confirmation code of a pending subscription',
    }),
  ),
  storeId: Type.Optional(Type.Integer()),
});
export type UnsubscribeInput = Static<typeof UnsubscribeBody>;

export const ConfirmBody = Type.Object({
  email: Type.Optional(Type.String()),
  code: Type.String({ description: 'the code from the confirmation mail' }),
});
export type ConfirmInput = Static<typeof ConfirmBody>;

/** A subscriber as an admin reads it: the subscription with its id. */
export const NewsletterSubscriber = Type.Object({ id: Type.Integer(), ...NewsletterSubscription.properties });
export type NewsletterSubscriberDto = Static<typeof NewsletterSubscriber>;

const INT_MAX = 2147483647;

export const SUBSCRIBER_SORTS = ['id', 'email', 'status', 'storeId', 'customerId', 'createdAt', 'changeStatusAt'] as const;

export const SubscriberListQuery = Type.Object({
  ...PageQuery,
  email: Type.Optional(Type.String({ maxLength: 254, description: 'exact email, case-insensitive' })),
  search: Type.Optional(Type.String({ maxLength: 254, description: 'email contains, case-insensitive' })),
  status: Type.Optional(
    Type.Union([Type.Literal('subscribed'), Type.Literal('not_active'), Type.Literal('unsubscribed'), Type.Literal('unconfirmed')]),
  ),
  customerId: Type.Optional(Type.Integer({ minimum: 1, maximum: INT_MAX, description: "the customer's subscriptions" })),
  storeId: Type.Optional(Type.Integer({ minimum: 0, maximum: INT_MAX, description: 'subscriptions of this store view' })),
  isCustomer: Type.Optional(Type.String({ pattern: '^(true|false|1|0)$', description: 'true: of customer accounts; false: guests' })),
  ...DateRangeQuery,
  updatedSince: DateFilter('status changed at or after'),
  sortBy: Type.Optional(Type.Enum([...SUBSCRIBER_SORTS], { description: 'default id' })),
  sortDir: Type.Optional(Type.Union([Type.Literal('asc'), Type.Literal('desc')], { description: 'default asc' })),
});
export type SubscriberListQueryT = Static<typeof SubscriberListQuery>;

/** POST /newsletter/subscribers: a customer (their sign-in email) or an email, subscribed at once. */
export const SubscriberCreate = Type.Object(
  {
    customerId: Type.Optional(Type.Integer({ minimum: 1, maximum: INT_MAX, description: 'subscribe this customer (or give email)' })),
    email: Type.Optional(Type.String({ maxLength: 254, description: 'subscribe this email (or give customerId)' })),
    storeId: Type.Optional(
      Type.Integer({
        minimum: 0,
        maximum: INT_MAX,
        description: "the store view; default the customer's, or the request's for an email",
      }),
    ),
  },
  { additionalProperties: false },
);
export type SubscriberCreateInput = Static<typeof SubscriberCreate>;

/** PUT /newsletter/subscribers/{id}: the status the back office sets. */
export const SubscriberUpdate = Type.Object(
  {
    status: Type.Optional(
      Type.Union([Type.Literal('subscribed'), Type.Literal('unsubscribed')], { description: 'subscribed or unsubscribed' }),
    ),
  },
  { additionalProperties: false },
);
export type SubscriberUpdateInput = Static<typeof SubscriberUpdate>;

export const SubscriberParams = Type.Object({ id: Type.Integer({ minimum: 1, maximum: 2147483647 }) });
