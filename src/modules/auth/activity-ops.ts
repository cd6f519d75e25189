/**
 * The activity log of back-office writes (recorded by the operation runtime, src/platform/activity-log.ts): the
 * list with its filters, newest first, and one entry.
 */
import { Type } from 'typebox';
import { getActivity, listActivity } from '../../platform/activity-log.js';
import { access } from '../../platform/auth/access.js';
import { DateFilter } from '../../platform/date-range.js';
import { op, type Operation } from '../../platform/operations.js';
import { PageQuery } from '../../platform/pagination.js';

const tags = ['activity-log'];
const shortName = 'ActivityLogEntry';
const read = access.admin('activity-log', 'read');

const Principal = Type.Union([Type.Literal('api_user'), Type.Literal('oauth_client'), Type.Literal('admin_user')]);
const Protocol = Type.Union([Type.Literal('rest'), Type.Literal('graphql'), Type.Literal('mcp'), Type.Literal('soap')]);

export const ActivityLogEntry = Type.Object({
  id: Type.Integer(),
  createdAt: Type.String({ description: 'when the write was made, YYYY-MM-DD HH:MM:SS UTC' }),
  principal: Type.String({ description: 'who: api_user, oauth_client or admin_user' }),
  principalId: Type.Integer(),
  username: Type.String({ description: 'the API user, client id or staff user name at the time' }),
  operation: Type.String({ description: 'the operation id (products.update), or the legacy method of a SOAP call' }),
  protocol: Type.String({ description: 'rest, graphql, mcp or soap' }),
  method: Type.String({ description: 'the HTTP method of the operation' }),
  path: Type.Optional(Type.String({ description: 'the REST path under /api/rest/v2 the call stands for (none for SOAP)' })),
  resource: Type.Optional(Type.String({ description: 'what was changed: the first segment of the path (products)' })),
  resourceId: Type.Optional(Type.String({ description: 'its id, when known' })),
  storeId: Type.Optional(Type.Integer({ description: 'the store view of the request' })),
  ip: Type.Optional(Type.String({ description: 'the client address' })),
  fields: Type.Optional(
    Type.Unknown({
      description:
        'the fields sent, with their new values: secrets (passwords, keys, tokens, codes) as [redacted], long texts and lists cut',
    }),
  ),
});

const ActivityQuery = Type.Object({
  ...PageQuery,
  principal: Type.Optional(Principal),
  principalId: Type.Optional(Type.Integer({ minimum: 1, maximum: 2_147_483_647 })),
  username: Type.Optional(Type.String({ maxLength: 255 })),
  operation: Type.Optional(Type.String({ maxLength: 100, description: 'an operation id, e.g. products.update' })),
  protocol: Type.Optional(Protocol),
  resource: Type.Optional(Type.String({ maxLength: 100, description: 'e.g. products' })),
  resourceId: Type.Optional(Type.String({ maxLength: 255 })),
  storeId: Type.Optional(Type.Integer({ minimum: 0, maximum: 2_147_483_647 })),
  from: DateFilter('written at or after'),
  to: DateFilter('written at or before (a bare date covers the whole day)'),
});

const IdParams = Type.Object({ id: Type.Integer({ minimum: 1, maximum: Number.MAX_SAFE_INTEGER }) });

export const activityOperations: Operation[] = [
  op({
    id: 'activityLog.list',
    method: 'GET',
    path: '/activity-log',
    tags,
    summary:
      'Back-office writes (API users, OAuth clients, staff), newest first: who, what, when, where from and the fields sent; ' +
      'filters principal, principalId, username, operation, protocol, resource, resourceId, storeId, from, to',
    access: read,
    shortName,
    query: ActivityQuery,
    kind: 'collection',
    response: ActivityLogEntry,
    page: { defaultSize: 20, maxSize: 100 },
    graphql: { name: 'activityLog' },
    run: (ctx, { query, page }) => listActivity(ctx, query, page),
  }),
  op({
    id: 'activityLog.get',
    method: 'GET',
    path: '/activity-log/:id',
    tags,
    summary: 'One back-office write of the activity log',
    access: read,
    shortName,
    params: IdParams,
    response: ActivityLogEntry,
    graphql: { name: 'activityLogEntry' },
    run: (ctx, { params }) => getActivity(ctx, params.id),
  }),
];
