/**
 * Credit memos (admin/API only), declared once for REST, GraphQL and MCP: every credit memo (Maho's GraphQL
 * `creditMemos`), read one, list an order's, create one.
 */
import { access } from '../../platform/auth/access.js';
import { ListPageQuery } from '../../platform/connection.js';
import { op, type Operation } from '../../platform/operations.js';
import { CreditMemo, CreditMemoCreate, CreditMemoParams, OrderCreditMemosParams } from './schemas.js';
import { listAllCreditMemos } from './read.js';
import * as memos from './service.js';

const tags = ['credit-memos'];
const shortName = 'CreditMemo';

type Args = Record<string, unknown>;

/** GraphQL nulls read as "not sent" (an item's backToStock as well). */
function nullsDropped(args: Args, next: (a: Args) => Promise<unknown>) {
  const out = Object.fromEntries(Object.entries(args).filter(([, v]) => v !== null));
  if (Array.isArray(out.items)) {
    out.items = out.items.map((i) =>
      i && typeof i === 'object' && !Array.isArray(i) ? Object.fromEntries(Object.entries(i).filter(([, v]) => v !== null)) : i,
    );
  }
  return next(out);
}

export const operations: Operation[] = [
  op({
    id: 'creditMemos.listAll',
    method: 'GET',
    path: '/credit-memos',
    tags,
    summary: "Every credit memo, newest first (of a store-limited principal's stores only)",
    access: access.admin('credit-memos', 'read'),
    shortName,
    query: ListPageQuery,
    kind: 'collection',
    response: CreditMemo,
    page: { defaultSize: 20, maxSize: 100 },
    run: (ctx, { page }) => listAllCreditMemos(ctx, page),
  }),
  op({
    id: 'creditMemos.get',
    method: 'GET',
    path: '/credit-memos/:id',
    tags,
    summary: 'One credit memo with its items and comments',
    access: access.admin('credit-memos', 'read'),
    shortName,
    params: CreditMemoParams,
    response: CreditMemo,
    run: (ctx, { params }) => memos.getCreditMemo(ctx, params.id),
  }),
  op({
    id: 'creditMemos.list',
    method: 'GET',
    path: '/orders/:orderId/credit-memos',
    tags,
    summary: "The order's credit memos, oldest first (unpaginated)",
    access: access.admin('credit-memos', 'read'),
    shortName,
    params: OrderCreditMemosParams,
    kind: 'collection',
    response: CreditMemo,
    graphql: { name: 'orderCreditMemos' },
    run: (ctx, { params }) => memos.listCreditMemosOfOrder(ctx, params.orderId),
  }),
  op({
    id: 'creditMemos.create',
    method: 'POST',
    path: '/orders/:orderId/credit-memos',
    tags,
    summary:
      'Refund (offline) the items given, or everything invoiced and not yet refunded; optional backToStock per item, adjustments, shipping amount and comment',
    access: access.admin('credit-memos', 'create'),
    shortName,
    params: OrderCreditMemosParams,
    body: CreditMemoCreate,
    response: CreditMemo,
    status: 201,
    graphql: { name: 'createCreditMemo', around: nullsDropped },
    run: (ctx, { params, body }) => memos.createCreditMemo(ctx, params.orderId, body),
  }),
];
