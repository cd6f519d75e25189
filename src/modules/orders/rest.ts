/**
 * /orders (the back office's list, one order for its customer or the back office, the lifecycle actions and
 * the guest lookup by X-Order-Token) and /customers/me/orders. Order placement is the checkout module's.
 */
import type { FastifyReply } from 'fastify';
import { access } from '../../platform/auth/access.js';
import type { RestApp } from '../../platform/module.js';
import { collectionResponse, pageOf, sendCollection } from '../../platform/pagination.js';
import { GuestOrderHeaders, GuestOrderParams, MyOrdersQuery, OrderActionBody, OrderCommentBody, OrderListQuery } from './action-schemas.js';
import { Order, OrderIdParams } from './schemas.js';
import * as orders from './service.js';

const tags = ['orders'];

export function routes(app: RestApp): void {
  app.get(
    '/orders',
    {
      schema: {
        operationId: 'orders.list',
        tags,
        summary:
          'Orders, newest first (20 a page); filters customerId, email (exact), emailLike (3+ characters), incrementId, status, state, storeId, createdFrom, createdTo, updatedSince (alias since)',
        querystring: OrderListQuery,
        response: { 200: collectionResponse(Order) },
      },
      config: { access: access.admin('orders', 'read') },
    },
    async (req, reply) => {
      const page = pageOf(req.query, { defaultSize: 20, maxSize: 100 });
      return sendCollection(req, reply, 'Order', await orders.listOrders(req.ctx, req.query, page), page);
    },
  );
  app.get(
    '/customers/me/orders',
    {
      schema: {
        operationId: 'orders.listMine',
        tags: [...tags, 'customers'],
        summary: "The signed-in customer's orders, newest first (10 a page); filter status",
        querystring: MyOrdersQuery,
        response: { 200: collectionResponse(Order) },
      },
      config: { access: access.customer },
    },
    async (req, reply) => {
      const page = pageOf(req.query, { defaultSize: 10, maxSize: 100 });
      return sendCollection(req, reply, 'Order', await orders.listMyOrders(req.ctx, req.query, page), page);
    },
  );
  app.get(
    '/orders/:id',
    {
      schema: {
        operationId: 'orders.get',
        tags,
        summary: "One order with its status history and shipments; a customer sees only their own (another's is a 404, as a missing one)",
        params: OrderIdParams,
        response: { 200: Order },
      },
      config: { access: access.customerOrAdmin('orders', 'read') },
    },
    async (req) => orders.getOrder(req.ctx, req.params.id),
  );
  app.get(
    '/orders/:incrementId/details',
    {
      schema: {
        operationId: 'orders.guestDetails',
        tags,
        summary:
          'A guest order by its number and the one-time X-Order-Token header (spent by the first successful read); adds accountToken when no account has the order email. Rate limited per IP',
        params: GuestOrderParams,
        headers: GuestOrderHeaders,
        response: { 200: Order },
      },
      config: { access: access.orderToken },
    },
    async (req, reply) => {
      const token = req.headers['x-order-token'];
      const order = await orders.guestOrderDetails(req.ctx, req.params.incrementId, Array.isArray(token) ? token[0] : token);
      // a one-time read: no cache may keep it
      return reply.header('cache-control', 'no-store').send(order);
    },
  );

  const created = (reply: FastifyReply, body: unknown) => reply.code(201).send(body);
  app.post(
    '/orders/:id/hold',
    {
      schema: {
        operationId: 'orders.hold',
        tags,
        summary: 'Put the order on hold (remembers its state and status); optional reason. Answers with the order',
        params: OrderIdParams,
        body: OrderActionBody,
        response: { 201: Order },
      },
      config: { access: access.admin('orders', 'write') },
    },
    async (req, reply) => created(reply, await orders.holdOrder(req.ctx, req.params.id, req.body)),
  );
  app.post(
    '/orders/:id/unhold',
    {
      schema: {
        operationId: 'orders.unhold',
        tags,
        summary: 'Release the order from hold (back to the state and status it had); optional reason. Answers with the order',
        params: OrderIdParams,
        body: OrderActionBody,
        response: { 201: Order },
      },
      config: { access: access.admin('orders', 'write') },
    },
    async (req, reply) => created(reply, await orders.unholdOrder(req.ctx, req.params.id, req.body)),
  );
  app.post(
    '/orders/:id/cancel',
    {
      schema: {
        operationId: 'orders.cancel',
        tags,
        summary:
          'Cancel what is left to invoice; gives back stock, the coupon use and gift card amounts, and mails the customer. A customer may cancel their own order. Answers with the order',
        params: OrderIdParams,
        body: OrderActionBody,
        response: { 201: Order },
      },
      config: { access: access.customerOrAdmin('orders', 'write') },
    },
    async (req, reply) => created(reply, await orders.cancelOrder(req.ctx, req.params.id, req.body)),
  );
  app.post(
    '/orders/:id/comments',
    {
      schema: {
        operationId: 'orders.addComment',
        tags,
        summary:
          'Add a status-history comment (comment, alias note); optionally mail it, show it to the customer, and set a status of the current state. Answers with the order',
        params: OrderIdParams,
        body: OrderCommentBody,
        response: { 201: Order },
      },
      config: { access: access.admin('orders', 'write') },
    },
    async (req, reply) => created(reply, await orders.addOrderComment(req.ctx, req.params.id, req.body)),
  );
}
