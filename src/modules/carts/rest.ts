/**
 * /carts (customer carts: a customer's own, or any for the back office with the carts grant) and /guest-carts
 * (public, by masked id). Both kinds share every handler; they differ in how the cart is named and, as the
 * wire reference says, in what a guest's totals, shipping-methods and payment-methods calls answer (the bare
 * prices object or list instead of the whole cart).
 */
import { Type, type TSchema } from 'typebox';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { access, type Access, type Operation } from '../../platform/auth/access.js';
import type { RestApp } from '../../platform/module.js';
import { cartDto, pricesDto, rateDto } from './pricing.js';
import {
  AddItemBody,
  AddressBody,
  Cart,
  CartIdParams,
  CartItemParams,
  CartPrices,
  CouponBody,
  CreateCartBody,
  GiftMessageBody,
  GiftcardBody,
  GiftcardParams,
  GuestCartItemParams,
  GuestCartParams,
  GuestGiftcardParams,
  PaymentMethod,
  PaymentMethodBody,
  ShippingMethodBody,
  ShippingMethodsBody,
  ShippingRate,
  UpdateItemBody,
} from './schemas.js';
import * as carts from './service.js';

interface Kind {
  base: string;
  guest: boolean;
  params: TSchema;
  itemParams: TSchema;
  giftcardParams: TSchema;
  tag: string;
  op: string;
  access: (op: Operation) => Access;
  ref: (params: { id: number | string }) => carts.CartRef;
}

const KINDS: Kind[] = [
  {
    base: '/carts',
    guest: false,
    params: CartIdParams,
    itemParams: CartItemParams,
    giftcardParams: GiftcardParams,
    tag: 'carts',
    op: 'carts',
    access: (op) => access.customerOrAdmin('carts', op),
    ref: (p) => ({ kind: 'customer', id: Number(p.id) }),
  },
  {
    base: '/guest-carts',
    guest: true,
    params: GuestCartParams,
    itemParams: GuestCartItemParams,
    giftcardParams: GuestGiftcardParams,
    tag: 'guest-carts',
    op: 'guestCarts',
    access: () => access.public,
    ref: (p) => ({ kind: 'guest', maskedId: String(p.id) }),
  },
];

const Deleted = { 204: Type.Null({ description: 'Done' }) };

type Req = FastifyRequest<{ Params: { id: number | string; itemId?: number; code?: string }; Body: never }>;

export function cartRoutes(app: RestApp): void {
  for (const k of KINDS) register(app, k);
}

function register(app: RestApp, k: Kind): void {
  const who = k.guest ? 'guest cart' : 'cart';
  const tags = [k.tag];
  const ref = (req: Req) => k.ref(req.params);
  const route = (
    method: 'GET' | 'POST' | 'PUT' | 'DELETE',
    path: string,
    opts: { id: string; summary: string; params?: TSchema; body?: TSchema; response: Record<number, TSchema>; op: Operation },
    handler: (req: Req, reply: FastifyReply) => Promise<unknown>,
  ) => {
    app.route({
      method,
      url: `${k.base}${path}`,
      schema: {
        operationId: `${k.op}.${opts.id}`,
        tags,
        summary: opts.summary,
        ...(opts.params ? { params: opts.params } : {}),
        ...(opts.body ? { body: opts.body } : {}),
        response: opts.response,
      },
      config: { access: k.access(opts.op) },
      handler: handler as never,
    });
  };

  app.post(
    k.base,
    {
      schema: {
        operationId: `${k.op}.create`,
        tags,
        summary: k.guest ? 'Create a guest cart (its masked id is the only way back to it)' : 'Create a cart for the signed-in customer (admins: for customerId)',
        body: Type.Optional(CreateCartBody),
        response: { 201: Cart },
      },
      config: { access: k.access('create') },
    },
    async (req, reply) => {
      const body = (req.body ?? {}) as { storeId?: number; customerId?: number };
      const dto = k.guest ? await carts.createGuestCart(req.ctx, body) : await carts.createCustomerCart(req.ctx, body);
      return reply.code(201).send(dto);
    },
  );
  route('GET', '/:id', { id: 'get', summary: `The ${who}, priced`, params: k.params, response: { 200: Cart }, op: 'read' }, async (req) =>
    carts.getCart(req.ctx, ref(req)),
  );
  route(
    'POST',
    '/:id/items',
    {
      id: 'addItem',
      summary: k.guest
        ? 'Add a product (by sku or productId, with the options its type needs); an unknown cart is replaced by a new one (cartRecreated)'
        : 'Add a product (by sku or productId, with the options its type needs)',
      params: k.params,
      body: AddItemBody,
      response: { 200: Cart },
      op: 'write',
    },
    async (req) => carts.addItem(req.ctx, ref(req), req.body as never),
  );
  route(
    'PUT',
    '/:id/items/:itemId',
    { id: 'updateItem', summary: 'Change an item’s quantity (or, for the back office, its price)', params: k.itemParams, body: UpdateItemBody, response: { 200: Cart }, op: 'write' },
    async (req) => carts.updateItem(req.ctx, ref(req), req.params.itemId!, req.body as never),
  );
  route('DELETE', '/:id/items/:itemId', { id: 'removeItem', summary: 'Remove an item; answers with the cart', params: k.itemParams, response: { 200: Cart }, op: 'write' }, async (req) =>
    carts.removeItem(req.ctx, ref(req), req.params.itemId!),
  );
  route(
    'GET',
    '/:id/totals',
    {
      id: 'totals',
      summary: k.guest ? 'The totals (the prices object)' : 'The totals (the whole cart)',
      params: k.params,
      response: { 200: k.guest ? CartPrices : Cart },
      op: 'read',
    },
    async (req) => {
      const { ctx, priced } = await carts.pricedCart(req.ctx, ref(req));
      return k.guest ? pricesDto(priced) : cartDto(ctx, priced);
    },
  );
  const couponHandler = (status: number) => async (req: Req, reply: FastifyReply) =>
    reply.code(status).send(await carts.applyCoupon(req.ctx, ref(req), req.body as never));
  route('POST', '/:id/coupon', { id: 'applyCoupon', summary: 'Apply a coupon code', params: k.params, body: CouponBody, response: { 201: Cart }, op: 'write' }, couponHandler(201));
  if (k.guest) {
    route(
      'PUT',
      '/:id/coupon',
      { id: 'applyCouponPut', summary: 'Apply a coupon code (the same as POST)', params: k.params, body: CouponBody, response: { 200: Cart }, op: 'write' },
      couponHandler(200),
    );
  }
  route('DELETE', '/:id/coupon', { id: 'removeCoupon', summary: 'Remove the coupon', params: k.params, response: Deleted, op: 'write' }, async (req, reply) => {
    await carts.removeCoupon(req.ctx, ref(req));
    return reply.code(204).send(null);
  });
  route(
    'POST',
    '/:id/giftcards',
    { id: 'applyGiftcard', summary: 'Apply a gift card; its balance pays part or all of the grand total', params: k.params, body: GiftcardBody, response: { 200: Cart }, op: 'write' },
    async (req) => carts.applyGiftcard(req.ctx, ref(req), req.body as never),
  );
  route('DELETE', '/:id/giftcards/:code', { id: 'removeGiftcard', summary: 'Remove an applied gift card', params: k.giftcardParams, response: Deleted, op: 'write' }, async (req, reply) => {
    await carts.removeGiftcard(req.ctx, ref(req), req.params.code!);
    return reply.code(204).send(null);
  });
  route(
    'POST',
    '/:id/shipping-methods',
    {
      id: 'shippingMethods',
      summary: k.guest
        ? 'Shipping rates for the cart (an address sent becomes its shipping address): the list of rates'
        : 'Shipping rates for the cart (an address sent becomes its shipping address): the whole cart',
      params: k.params,
      body: Type.Optional(ShippingMethodsBody),
      response: { 200: k.guest ? Type.Array(ShippingRate) : Cart },
      op: 'write',
    },
    async (req) => {
      const { ctx, priced } = await carts.estimateShipping(req.ctx, ref(req), (req.body ?? {}) as never);
      return k.guest ? priced.shippingRates.map((r) => rateDto(r, priced.rate)) : cartDto(ctx, priced);
    },
  );
  route(
    'GET',
    '/:id/payment-methods',
    {
      id: 'paymentMethods',
      summary: k.guest ? 'Payment methods the cart allows: the list' : 'Payment methods the cart allows: the whole cart',
      params: k.params,
      response: { 200: k.guest ? Type.Array(PaymentMethod) : Cart },
      op: 'read',
    },
    async (req) => {
      const { ctx, priced } = await carts.pricedCart(req.ctx, ref(req));
      return k.guest ? priced.paymentMethods : cartDto(ctx, priced);
    },
  );
  route('PUT', '/:id/shipping-address', { id: 'setShippingAddress', summary: 'Set the shipping address', params: k.params, body: AddressBody, response: { 200: Cart }, op: 'write' }, async (req) =>
    carts.setShippingAddress(req.ctx, ref(req), req.body as never),
  );
  route(
    'PUT',
    '/:id/billing-address',
    { id: 'setBillingAddress', summary: 'Set the billing address (or copy the shipping address with sameAsShipping)', params: k.params, body: AddressBody, response: { 200: Cart }, op: 'write' },
    async (req) => carts.setBillingAddress(req.ctx, ref(req), req.body as never),
  );
  route(
    'PUT',
    '/:id/shipping-method',
    { id: 'setShippingMethod', summary: 'Choose a shipping method offered for the address', params: k.params, body: ShippingMethodBody, response: { 200: Cart }, op: 'write' },
    async (req) => carts.setShippingMethod(req.ctx, ref(req), req.body as never),
  );
  route(
    'PUT',
    '/:id/payment-method',
    { id: 'setPaymentMethod', summary: 'Choose an available payment method', params: k.params, body: PaymentMethodBody, response: { 200: Cart }, op: 'write' },
    async (req) => carts.setPaymentMethod(req.ctx, ref(req), req.body as never),
  );
  route(
    'PUT',
    '/:id/gift-message',
    { id: 'setGiftMessage', summary: 'Set the cart’s gift message (when sales/gift_options/allow_order is on)', params: k.params, body: GiftMessageBody, response: { 200: Cart }, op: 'write' },
    async (req) => carts.setGiftMessage(req.ctx, ref(req), req.body as never),
  );
  route('DELETE', '/:id/gift-message', { id: 'removeGiftMessage', summary: 'Remove the cart’s gift message', params: k.params, response: { 200: Cart }, op: 'write' }, async (req) =>
    carts.setGiftMessage(req.ctx, ref(req), null),
  );
  route(
    'PUT',
    '/:id/items/:itemId/gift-message',
    {
      id: 'setItemGiftMessage',
      summary: 'Set an item’s gift message (when sales/gift_options/allow_items is on)',
      params: k.itemParams,
      body: GiftMessageBody,
      response: { 200: Cart },
      op: 'write',
    },
    async (req) => carts.setItemGiftMessage(req.ctx, ref(req), req.params.itemId!, req.body as never),
  );
  route(
    'DELETE',
    '/:id/items/:itemId/gift-message',
    { id: 'removeItemGiftMessage', summary: 'Remove an item’s gift message', params: k.itemParams, response: { 200: Cart }, op: 'write' },
    async (req) => carts.setItemGiftMessage(req.ctx, ref(req), req.params.itemId!, null),
  );
}
