/**
 * Wire shapes of the order reads and actions (wire reference §2.5, §3.1): the list queries, the bodies of
 * hold, unhold, cancel and comments, and the guest details path.
 */
import { Type, type Static } from 'typebox';
import { DateFilter } from '../../platform/date-range.js';
import { PageQuery } from '../../platform/pagination.js';

const INT_MAX = 2147483647;

/** GET /orders. */
export const OrderListQuery = Type.Object({
  ...PageQuery,
  customerId: Type.Optional(Type.Integer({ minimum: 1, maximum: INT_MAX, description: 'orders of this customer' })),
  email: Type.Optional(Type.String({ maxLength: 254, description: 'customer email, exact (case-insensitive)' })),
  emailLike: Type.Optional(
    Type.String({ maxLength: 254, description: 'customer email contains (case-insensitive; at least 3 characters)' }),
  ),
  incrementId: Type.Optional(Type.String({ maxLength: 50, description: 'the order number, exact' })),
  status: Type.Optional(Type.String({ maxLength: 64, description: 'order status, e.g. pending, processing, holded' })),
  state: Type.Optional(Type.String({ maxLength: 64, description: 'order state, e.g. new, processing, complete, canceled' })),
  storeId: Type.Optional(Type.Integer({ minimum: 0, maximum: INT_MAX, description: 'store view the order was placed in' })),
  createdFrom: DateFilter('created at or after'),
  createdTo: DateFilter('created at or before (a bare date covers the whole day)'),
  updatedSince: DateFilter('updated at or after'),
  since: DateFilter('alias of updatedSince'),
});
export type OrderListQueryT = Static<typeof OrderListQuery>;

/** GET /customers/me/orders. */
export const MyOrdersQuery = Type.Object({
  ...PageQuery,
  status: Type.Optional(Type.String({ maxLength: 64, description: 'order status' })),
});
export type MyOrdersQueryT = Static<typeof MyOrdersQuery>;

/** POST /orders/{id}/hold, /unhold, /cancel: `{}` or a reason kept as a status-history comment. */
export const OrderActionBody = Type.Object(
  {
    reason: Type.Optional(Type.String({ maxLength: 1000, description: 'kept in the status history ("Order held: <reason>")' })),
  },
  { additionalProperties: false },
);
export type OrderActionInput = Static<typeof OrderActionBody>;

/** POST /orders/{id}/comments. */
export const OrderCommentBody = Type.Object(
  {
    comment: Type.Optional(Type.String({ maxLength: 10000, description: 'the comment (required, or its alias note)' })),
    note: Type.Optional(Type.String({ maxLength: 10000, description: 'alias of comment' })),
    notifyCustomer: Type.Optional(Type.Boolean({ description: 'mail the comment to the customer' })),
    visibleOnFront: Type.Optional(Type.Boolean({ description: 'show the comment to the customer in their account' })),
    status: Type.Optional(Type.String({ maxLength: 64, description: 'a new status; must belong to the order state' })),
  },
  { additionalProperties: false },
);
export type OrderCommentInput = Static<typeof OrderCommentBody>;

/** GET /orders/{incrementId}/details. */
export const GuestOrderParams = Type.Object({
  incrementId: Type.String({ description: 'the order number (anything else reads as an unknown order: 404)' }),
});

export const GuestOrderHeaders = Type.Object({
  'x-order-token': Type.Optional(Type.String({ description: 'the one-time token returned by the guest placement (64 hex characters)' })),
});
