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

export const SubscriberListQuery = Type.Object({
  ...PageQuery,
  email: Type.Optional(Type.String({ maxLength: 254, description: 'exact email, case-insensitive' })),
  status: Type.Optional(
    Type.Union([Type.Literal('subscribed'), Type.Literal('not_active'), Type.Literal('unsubscribed'), Type.Literal('unconfirmed')]),
  ),
  ...DateRangeQuery,
  updatedSince: DateFilter('status changed at or after'),
});

export const SubscriberParams = Type.Object({ id: Type.Integer({ minimum: 1, maximum: 2147483647 }) });
