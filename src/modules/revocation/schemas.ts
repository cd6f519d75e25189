/** Wire shapes of revocation declarations (wire reference §2.18). */
import { DateFilter } from '../../platform/date-range.js';
import { Type, type Static } from 'typebox';
import { PageQuery } from '../../platform/pagination.js';

const INT_MAX = 2147483647;

export const PROCESSED_STATUSES = ['accepted', 'rejected', 'info_requested'] as const;

export const RevocationRequest = Type.Object({
  id: Type.Integer(),
  orderId: Type.Integer(),
  orderReference: Type.String({ description: 'the order increment id' }),
  reason: Type.Optional(Type.String()),
  customerName: Type.String(),
  email: Type.String(),
  verified: Type.Boolean({ description: 'true when the order owner submitted it while signed in' }),
  storeId: Type.Integer(),
  receivedAt: Type.String({ description: 'YYYY-MM-DD HH:MM:SS UTC' }),
  processedStatus: Type.Optional(Type.String({ description: 'accepted, rejected or info_requested; absent until processed' })),
  processedAt: Type.Optional(Type.String()),
  suppressedAt: Type.Optional(Type.String({ description: 'set when the customer receipt mail was not sent' })),
  suppressedReason: Type.Optional(Type.String({ description: 'rate_limit_recipient' })),
  adminNote: Type.Optional(Type.String({ description: 'admin/API callers only' })),
  ip: Type.Optional(Type.String({ description: 'admin/API callers only' })),
  userAgent: Type.Optional(Type.String({ description: 'admin/API callers only' })),
});
export type RevocationRequestDto = Static<typeof RevocationRequest>;

export const RevocationSubmit = Type.Object({
  orderId: Type.Optional(Type.Integer({ minimum: 1, maximum: INT_MAX, description: 'the order id; or orderReference' })),
  orderReference: Type.Optional(Type.String({ minLength: 1, maxLength: 50, description: 'the order increment id; or orderId' })),
  reason: Type.Optional(Type.String({ maxLength: 2000 })),
});
export type RevocationSubmitInput = Static<typeof RevocationSubmit>;

export const RevocationUpdate = Type.Object({
  processedStatus: Type.Optional(
    Type.String({ maxLength: 64, description: 'accepted, rejected or info_requested (else 422); stamps processedAt' }),
  ),
  adminNote: Type.Optional(Type.String({ maxLength: 65535, description: '"" clears' })),
});
export type RevocationUpdateInput = Static<typeof RevocationUpdate>;

export const RevocationParams = Type.Object({ id: Type.Integer({ minimum: 1, maximum: INT_MAX }) });

/** What the back office's list sorts by (`sortBy`); ties go by id. */
export const REVOCATION_SORT_FIELDS = [
  'receivedAt',
  'processedAt',
  'orderReference',
  'email',
  'customerName',
  'processedStatus',
  'id',
] as const;

export const RevocationListQuery = Type.Object({
  ...PageQuery,
  email: Type.Optional(Type.String({ maxLength: 255, description: 'exact, case-insensitive' })),
  orderId: Type.Optional(Type.Integer({ minimum: 1, maximum: INT_MAX })),
  processedStatus: Type.Optional(
    Type.String({ maxLength: 64, description: 'accepted, rejected, info_requested, or pending: not processed yet' }),
  ),
  verified: Type.Optional(Type.Boolean({ description: 'only declarations the order owner made signed in (true), or the others (false)' })),
  search: Type.Optional(
    Type.String({ maxLength: 255, description: 'in the order number, email and customer name; at least 3 characters' }),
  ),
  sortBy: Type.Optional(Type.Enum([...REVOCATION_SORT_FIELDS], { description: 'default receivedAt, newest first (sortDir desc)' })),
  sortDir: Type.Optional(Type.Enum(['asc', 'desc', 'ASC', 'DESC'])),
  storeId: Type.Optional(Type.Integer({ minimum: 0, maximum: INT_MAX })),
  createdFrom: DateFilter('received at or after'),
  createdTo: DateFilter('received at or before (a bare date covers the whole day)'),
});
export type RevocationListQueryT = Static<typeof RevocationListQuery>;

export const MyRevocationListQuery = Type.Object({ ...PageQuery });
