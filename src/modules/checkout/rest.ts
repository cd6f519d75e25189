/**
 * Order placement: POST /carts/{id}/place-order (the cart's customer, or the back office), POST
 * /guest-carts/{maskedId}/place-order (whoever holds the masked id) and POST /orders (either kind of cart,
 * named in the body: public for guest carts, a customer cart needs its owner's or a back-office token).
 * GraphQL's placeOrder is the twin of POST /orders, in Maho's input shape (cartId may be a cart's IRI).
 */
import { Type } from 'typebox';
import { access } from '../../platform/auth/access.js';
import { badRequest } from '../../platform/errors.js';
import { GraphqlId } from '../../platform/graphql-derive.js';
import { op, type Operation } from '../../platform/operations.js';
import { CartIdParams, GuestCartParams } from '../carts/schemas.js';
import { Order } from '../orders/schemas.js';
import * as checkout from './service.js';
import { CreateOrderBody, PlaceOrderBody } from './schemas.js';

/** placeOrder's input: the body of POST /orders with cartId an ID (a number, a customer cart's IRI or a masked id) */
const PlaceOrderArgs = Type.Object({
  ...CreateOrderBody.properties,
  cartId: Type.Optional(GraphqlId({ description: "a customer cart's id or IRI (/api/rest/v2/carts/{id}), or a guest cart's masked id" })),
});

/** The cart id of the input: a number, a numeric string, an IRI of a cart, or a masked id. */
function cartIdOf(id: unknown): number | string | undefined {
  if (id === null || id === undefined) return undefined;
  const s = String(id);
  const iri = /^\/api\/rest\/v2\/(?:carts|guest-carts)\/([^/]+)$/.exec(s)?.[1] ?? s;
  return /^\d{1,10}$/.test(iri) ? Number(iri) : iri;
}

function placeInput(a: Record<string, any>) {
  const { clientMutationId: _x, ...rest } = a;
  const cartId = cartIdOf(a.cartId) ?? a.maskedId ?? undefined;
  if (cartId === undefined)
    throw badRequest('cartId or maskedId is required', { reason: 'VALIDATION_FAILED', details: { field: 'cartId' } });
  return { body: { ...rest, cartId } };
}

export const operations: Operation[] = [
  op({
    id: 'carts.placeOrder',
    method: 'POST',
    path: '/carts/:id/place-order',
    tags: ['carts', 'orders'],
    summary: 'Place an order from a customer cart (the details sent here are applied to the cart first)',
    access: access.customerOrAdmin('orders', 'create'),
    shortName: 'Order',
    params: CartIdParams,
    body: PlaceOrderBody,
    response: Order,
    status: 201,
    graphql: { via: 'placeOrder' },
    run: (ctx, { params, body }) => checkout.placeOrder(ctx, { kind: 'customer', id: params.id }, body),
  }),
  op({
    id: 'guestCarts.placeOrder',
    method: 'POST',
    path: '/guest-carts/:id/place-order',
    tags: ['guest-carts', 'orders'],
    summary: 'Place an order from a guest cart; the answer carries the one-time accessToken for the guest order lookup',
    access: access.public,
    shortName: 'Order',
    params: GuestCartParams,
    body: PlaceOrderBody,
    response: Order,
    status: 201,
    graphql: { via: 'placeOrder' },
    run: (ctx, { params, body }) => checkout.placeOrder(ctx, { kind: 'guest', maskedId: params.id }, body),
  }),
  op({
    id: 'orders.create',
    method: 'POST',
    path: '/orders',
    tags: ['orders'],
    summary: "Place an order from a guest cart (masked id) or a customer cart (its id, with the owner's or a back-office token)",
    access: access.public,
    shortName: 'Order',
    body: CreateOrderBody,
    response: Order,
    status: 201,
    graphql: { name: 'placeOrder', args: PlaceOrderArgs, input: placeInput },
    run: (ctx, { body }) => checkout.createOrder(ctx, body),
  }),
];
