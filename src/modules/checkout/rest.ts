/**
 * Order placement: POST /carts/{id}/place-order (the cart's customer, or the back office), POST
 * /guest-carts/{maskedId}/place-order (whoever holds the masked id) and POST /orders (either kind of cart,
 * named in the body: public for guest carts, a customer cart needs its owner's or a back-office token).
 */
import { access } from '../../platform/auth/access.js';
import type { RestApp } from '../../platform/module.js';
import { CartIdParams, GuestCartParams } from '../carts/schemas.js';
import { Order } from '../orders/schemas.js';
import * as checkout from './service.js';
import { CreateOrderBody, PlaceOrderBody } from './schemas.js';

export function routes(app: RestApp): void {
  app.post(
    '/carts/:id/place-order',
    {
      schema: {
        operationId: 'carts.placeOrder',
        tags: ['carts', 'orders'],
        summary: "Place an order from a customer cart (the details sent here are applied to the cart first)",
        params: CartIdParams,
        body: PlaceOrderBody,
        response: { 201: Order },
      },
      config: { access: access.customerOrAdmin('orders', 'create') },
    },
    async (req, reply) => reply.code(201).send(await checkout.placeOrder(req.ctx, { kind: 'customer', id: req.params.id }, req.body)),
  );
  app.post(
    '/guest-carts/:id/place-order',
    {
      schema: {
        operationId: 'guestCarts.placeOrder',
        tags: ['guest-carts', 'orders'],
        summary: 'Place an order from a guest cart; the answer carries the one-time accessToken for the guest order lookup',
        params: GuestCartParams,
        body: PlaceOrderBody,
        response: { 201: Order },
      },
      config: { access: access.public },
    },
    async (req, reply) => reply.code(201).send(await checkout.placeOrder(req.ctx, { kind: 'guest', maskedId: req.params.id }, req.body)),
  );
  app.post(
    '/orders',
    {
      schema: {
        operationId: 'orders.create',
        tags: ['orders'],
        summary: "Place an order from a guest cart (masked id) or a customer cart (its id, with the owner's or a back-office token)",
        body: CreateOrderBody,
        response: { 201: Order },
      },
      config: { access: access.public },
    },
    async (req, reply) => reply.code(201).send(await checkout.createOrder(req.ctx, req.body)),
  );
}
