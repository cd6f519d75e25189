/**
 * /orders (the back office's list, one order for its customer or the back office, the lifecycle actions and
 * the guest lookup by X-Order-Token), /customers/me/orders and /customers/create-from-order (an account made
 * from a guest order), declared once for REST and GraphQL. Order placement is the checkout module's.
 */
import { Type, type Static, type TObject } from 'typebox';
import { access, type Access } from '../../platform/auth/access.js';
import type { Ctx } from '../../platform/context.js';
import { badRequest } from '../../platform/errors.js';
import { GraphqlId, idOfIri } from '../../platform/graphql-derive.js';
import { op, type Operation } from '../../platform/operations.js';
import { GuestOrderHeaders, GuestOrderParams, MyOrdersQuery, OrderActionBody, OrderCommentBody } from './action-schemas.js';
import { Customer } from '../customers/schemas.js';
import { CreateFromOrder } from './account-from-order.js';
import { findOrderByIncrementId, orderNotFound } from './core.js';
import { Order, OrderGridQuery, OrderIdParams } from './schemas.js';
import * as orders from './service.js';

const tags = ['orders'];
const shortName = 'Order';
const ORDER_IRI = '/api/rest/v2/orders/';
/**
 * Where a GraphQL action names its order by number: a header name no HTTP request can carry (a colon is not a
 * header-name character), so only the GraphQL mapping below sets it.
 */
const BY_NUMBER = ':increment-id';

type Args = Record<string, unknown>;

/** GraphQL nulls read as "not sent". */
function present(a: Args): Args {
  return Object.fromEntries(Object.entries(a).filter(([, v]) => v !== null && v !== undefined));
}

/** Maho's order reference of a GraphQL action: `id` (IRI or number), `orderId`, or `incrementId`. */
const OrderRef = {
  id: Type.Optional(GraphqlId({ description: 'the order IRI (/api/rest/v2/orders/{id}) or its numeric id' })),
  orderId: Type.Optional(GraphqlId({ description: 'the numeric order id (or its IRI)' })),
  incrementId: Type.Optional(Type.String({ maxLength: 50, description: 'the order number' })),
};

/** Maps a GraphQL action's input onto the REST path (or the order number) and body. */
function actionInput(a: Args) {
  const { id, orderId, incrementId, clientMutationId: _ignored, ...body } = present(a);
  const ref = id ?? orderId;
  if (ref !== undefined) {
    const n = idOfIri(ref, ORDER_IRI);
    if (n === undefined) throw orderNotFound();
    return { params: { id: n }, body };
  }
  if (typeof incrementId === 'string') return { headers: { [BY_NUMBER]: incrementId }, body };
  throw badRequest('id, orderId or incrementId is required', { reason: 'VALIDATION_FAILED', details: { field: 'id' } });
}

/** The order an action is on: the REST path's id, or the number a GraphQL action gave. */
async function orderIdOf(ctx: Ctx, params: { id?: number } | undefined, headers: Record<string, unknown> | undefined): Promise<number> {
  if (params?.id !== undefined) return params.id;
  const number = headers?.[BY_NUMBER];
  const found = typeof number === 'string' ? await findOrderByIncrementId(ctx, number) : undefined;
  if (!found) throw orderNotFound();
  return found.id;
}

const ActionArgs = Type.Object({ ...OrderRef, ...OrderActionBody.properties });
const CommentArgs = Type.Object({
  ...OrderRef,
  comment: Type.String({ maxLength: 10000, description: 'the comment' }),
  status: OrderCommentBody.properties.status,
  notifyCustomer: OrderCommentBody.properties.notifyCustomer,
  visibleOnFront: OrderCommentBody.properties.visibleOnFront,
});

/**
 * An action on one order (hold, unhold, cancel, comment): POST /orders/{id}/<action> answering the order (201),
 * and its GraphQL mutation taking Maho's order reference (`id`, `orderId` or `incrementId`).
 */
function action<B extends TObject>(
  name: string,
  suffix: string,
  summary: string,
  field: string,
  fn: (ctx: Ctx, orderId: number, body: Static<B>) => Promise<unknown>,
  rule: Access = access.admin('orders', 'write'),
  body: B = OrderActionBody as unknown as B,
  args: TObject = ActionArgs,
): Operation {
  return op({
    id: `orders.${name}`,
    method: 'POST',
    path: `/orders/:id${suffix}`,
    tags,
    summary,
    access: rule,
    shortName,
    params: OrderIdParams,
    body,
    response: Order,
    status: 201,
    graphql: { name: field, args, input: actionInput },
    run: async (ctx, { params, headers, body: b }) => fn(ctx, await orderIdOf(ctx, params, headers), b as Static<B>),
  });
}

export const operations: Operation[] = [
  op({
    id: 'orders.list',
    method: 'GET',
    path: '/orders',
    tags,
    summary:
      'Orders, newest first unless sortBy/sortDir say otherwise (createdAt, updatedAt, incrementId, grandTotal, status, state), 20 a page; filters customerId, email (exact), emailLike (3+ characters), incrementId, status, state, storeId, createdFrom, createdTo, updatedSince (alias since); search: order number, customer email or name',
    access: access.admin('orders', 'read'),
    shortName,
    query: OrderGridQuery,
    kind: 'collection',
    response: Order,
    page: { defaultSize: 20, maxSize: 100 },
    run: (ctx, { query, page }) => orders.listOrders(ctx, query, page),
  }),
  op({
    id: 'orders.listMine',
    method: 'GET',
    path: '/customers/me/orders',
    tags: [...tags, 'customers'],
    summary: "The signed-in customer's orders, newest first (10 a page); filter status",
    access: access.customer,
    shortName,
    query: MyOrdersQuery,
    kind: 'collection',
    response: Order,
    page: { defaultSize: 10, maxSize: 100 },
    graphql: { name: 'customerOrders' },
    run: (ctx, { query, page }) => orders.listMyOrders(ctx, query, page),
  }),
  op({
    id: 'orders.get',
    method: 'GET',
    path: '/orders/:id',
    tags,
    summary: "One order with its status history and shipments; a customer sees only their own (another's is a 404, as a missing one)",
    access: access.customerOrAdmin('orders', 'read'),
    shortName,
    params: OrderIdParams,
    response: Order,
    run: (ctx, { params }) => orders.getOrder(ctx, params.id),
  }),
  op({
    id: 'orders.guestDetails',
    method: 'GET',
    path: '/orders/:incrementId/details',
    tags,
    summary:
      'A guest order by its number and the one-time X-Order-Token header (spent by the first successful read); adds accountToken when no account has the order email. Rate limited per IP',
    access: access.orderToken,
    shortName,
    params: GuestOrderParams,
    headers: GuestOrderHeaders,
    response: Order,
    // a one-time read: no cache may keep it
    restHeaders: { 'cache-control': 'no-store' },
    graphql: {
      name: 'guestOrder',
      args: Type.Object({
        incrementId: Type.String({ description: 'the order number' }),
        accessToken: Type.String({ description: 'the one-time token of the guest placement' }),
      }),
      input: (a) => ({ params: { incrementId: a.incrementId }, headers: { 'x-order-token': a.accessToken } }),
    },
    run: (ctx, { params, headers }) => {
      const token = headers['x-order-token'] as string | string[] | undefined;
      return orders.guestOrderDetails(ctx, params.incrementId, Array.isArray(token) ? token[0] : token);
    },
  }),
  op({
    id: 'customers.createFromOrder',
    method: 'POST',
    path: '/customers/create-from-order',
    tags: ['customers'],
    summary:
      'Create an account from a guest order with the accountToken of its guest lookup: the order email and names, the billing address as default address, and the order itself',
    access: access.public,
    shortName: 'Customer',
    body: CreateFromOrder,
    response: Customer,
    status: 201,
    graphql: { name: 'createFromOrderCustomer' },
    run: (ctx, { body }) => orders.createCustomerFromOrder(ctx, body),
  }),
  action(
    'hold',
    '/hold',
    'Put the order on hold (remembers its state and status); optional reason. Answers with the order',
    'holdOrder',
    orders.holdOrder,
  ),
  action(
    'unhold',
    '/unhold',
    'Release the order from hold (back to the state and status it had); optional reason. Answers with the order',
    'unholdOrder',
    orders.unholdOrder,
  ),
  action(
    'cancel',
    '/cancel',
    'Cancel what is left to invoice; gives back stock, the coupon use and gift card amounts, and mails the customer. A customer may cancel their own order. Answers with the order',
    'cancelOrder',
    orders.cancelOrder,
    access.customerOrAdmin('orders', 'write'),
  ),
  action(
    'addComment',
    '/comments',
    'Add a status-history comment (comment, alias note); optionally mail it, show it to the customer, and set a status of the current state. Answers with the order',
    'addCommentOrder',
    orders.addOrderComment,
    access.admin('orders', 'write'),
    OrderCommentBody,
    CommentArgs,
  ),
];
