/** Revocation declarations: a customer's own (submit, list), and the admin list, read and processing. */
import { access } from '../../platform/auth/access.js';
import { op, type Operation } from '../../platform/operations.js';
import {
  MyRevocationListQuery,
  RevocationListQuery,
  RevocationParams,
  RevocationRequest,
  RevocationSubmit,
  RevocationUpdate,
} from './schemas.js';
import * as revocation from './service.js';

const tags = ['revocation-requests'];
const shortName = 'RevocationRequest';
const page = { defaultSize: 20, maxSize: 100 };

export const operations: Operation[] = [
  op({
    id: 'revocation.submit',
    method: 'POST',
    path: '/customers/me/revocation-requests',
    tags,
    summary: "Declare the revocation of one of the customer's orders (orderId or orderReference); 422 past the cooling-off window",
    access: access.customer,
    shortName,
    body: RevocationSubmit,
    response: RevocationRequest,
    status: 201,
    // Maho's name, and the spec's
    graphql: { name: 'submitRevocationRequest', aliases: ['submitRevocation'] },
    run: (ctx, { body }) => revocation.submitRevocation(ctx, { ...body, channel: 'api' }),
  }),
  op({
    id: 'revocation.listMine',
    method: 'GET',
    path: '/customers/me/revocation-requests',
    tags,
    summary: "The customer's own declarations, newest first",
    access: access.customer,
    shortName,
    query: MyRevocationListQuery,
    kind: 'collection',
    page,
    response: RevocationRequest,
    graphql: { name: 'myRevocationRequests' },
    run: (ctx, { page }) => revocation.listMyRevocations(ctx, page),
  }),
  op({
    id: 'revocation.list',
    method: 'GET',
    path: '/revocation-requests',
    tags,
    summary:
      'All declarations, newest first; filters email, orderId, processedStatus (pending: not processed), verified, storeId, createdFrom, createdTo (received), search (order number, email, name); sortBy, sortDir',
    access: access.admin('revocation-requests', 'read'),
    shortName,
    query: RevocationListQuery,
    kind: 'collection',
    page,
    response: RevocationRequest,
    run: (ctx, { query, page }) => revocation.listRevocations(ctx, query, page),
  }),
  op({
    id: 'revocation.get',
    method: 'GET',
    path: '/revocation-requests/:id',
    tags,
    summary: 'One declaration (customers: their own only)',
    access: access.customerOrAdmin('revocation-requests', 'read'),
    shortName,
    params: RevocationParams,
    response: RevocationRequest,
    run: (ctx, { params }) => revocation.getRevocation(ctx, params.id),
  }),
  op({
    id: 'revocation.update',
    method: 'PUT',
    path: '/revocation-requests/:id',
    tags,
    summary: 'Set the processing status (stamps processedAt) and the admin note',
    access: access.admin('revocation-requests', 'write'),
    shortName,
    params: RevocationParams,
    body: RevocationUpdate,
    response: RevocationRequest,
    run: (ctx, { params, body }) => revocation.updateRevocation(ctx, params.id, body),
  }),
];
