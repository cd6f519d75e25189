/** REST routes of credit memos (admin/API only): read one, list an order's, create one. */
import { access } from '../../platform/auth/access.js';
import type { RestApp } from '../../platform/module.js';
import { collectionResponse, sendCollection } from '../../platform/pagination.js';
import { CreditMemo, CreditMemoCreate, CreditMemoParams, OrderCreditMemosParams } from './schemas.js';
import * as memos from './service.js';

const tags = ['credit-memos'];

export function routes(app: RestApp): void {
  app.get(
    '/credit-memos/:id',
    {
      schema: {
        operationId: 'creditMemos.get',
        tags,
        summary: 'One credit memo with its items and comments',
        params: CreditMemoParams,
        response: { 200: CreditMemo },
      },
      config: { access: access.admin('credit-memos', 'read') },
    },
    async (req) => memos.getCreditMemo(req.ctx, req.params.id),
  );
  app.get(
    '/orders/:orderId/credit-memos',
    {
      schema: {
        operationId: 'creditMemos.list',
        tags,
        summary: "The order's credit memos, oldest first (unpaginated)",
        params: OrderCreditMemosParams,
        response: { 200: collectionResponse(CreditMemo) },
      },
      config: { access: access.admin('credit-memos', 'read') },
    },
    async (req, reply) => sendCollection(req, reply, 'CreditMemo', await memos.listCreditMemosOfOrder(req.ctx, req.params.orderId)),
  );
  app.post(
    '/orders/:orderId/credit-memos',
    {
      schema: {
        operationId: 'creditMemos.create',
        tags,
        summary:
          'Refund (offline) the items given, or everything invoiced and not yet refunded; optional backToStock per item, adjustments, shipping amount and comment',
        params: OrderCreditMemosParams,
        body: CreditMemoCreate,
        response: { 201: CreditMemo },
      },
      config: { access: access.admin('credit-memos', 'create') },
    },
    async (req, reply) => reply.code(201).send(await memos.createCreditMemo(req.ctx, req.params.orderId, req.body)),
  );
}
