/**
 * /carts (customer carts: a customer's own, or any for the back office with the carts grant) and /guest-carts
 * (public, by masked id). Both kinds share every declaration; they differ in how the cart is named and, as the
 * wire reference says, in what a guest's totals, shipping-methods and payment-methods calls answer (the bare
 * prices object or list instead of the whole cart). In GraphQL one field serves both kinds, as Maho's does:
 * `maskedId` names a guest cart, `cartId` (a number or an IRI) a customer cart.
 */
import { Type, type TObject } from 'typebox';
import { access, type Operation as Grant } from '../../platform/auth/access.js';
import type { Ctx } from '../../platform/context.js';
import { GraphqlId, idOfIri } from '../../platform/graphql-derive.js';
import { op, type Operation } from '../../platform/operations.js';
import { cartDto, pricesDto, rateDto } from './dto.js';
import {
  AddItemBody,
  AssignCustomerBody,
  AddressBody,
  Cart,
  CartListQuery,
  CartPrices,
  CouponBody,
  CreateCartBody,
  GiftMessageBody,
  GiftcardBody,
  PaymentMethod,
  PaymentMethodBody,
  ShippingMethodBody,
  ShippingMethodsBody,
  ShippingRate,
  UpdateItemBody,
} from './schemas.js';
import { type Kind, KINDS, type Pair, declare, pairUp, giftMessageFields, ItemArg, itemIdOf, isGuestCall, thenCart } from './cart-kinds.js';
import * as details from './details.js';
import * as lines from './lines.js';
import { listCarts } from './list.js';
import { pricedCart, type CartRef } from './load.js';
import * as reductions from './reductions.js';
import * as carts from './service.js';

function declareKind(k: Kind): { ops: Operation[]; pairs: Map<string, Pair> } {
  const who = k.guest ? 'guest cart' : 'cart';
  const ops: Operation[] = [];
  const pairs = new Map<string, Pair>();
  const add = (d: Parameters<typeof declare>[1]) => {
    ops.push(declare(k, d));
    if (d.pair) pairs.set(d.id, d.pair);
  };
  add({
    id: 'create',
    method: 'POST',
    path: '',
    grant: 'create',
    summary: k.guest
      ? 'Create a guest cart (its masked id is the only way back to it)'
      : 'Create a cart for the signed-in customer (admins: for customerId)',
    body: Type.Optional(CreateCartBody),
    response: Cart,
    status: 201,
    graphql: { name: k.guest ? 'createCart' : 'createCustomerCart' },
    run: (ctx, { body }) => {
      const b = (body ?? {}) as { storeId?: number; customerId?: number };
      return k.guest ? carts.createGuestCart(ctx, b) : carts.createCustomerCart(ctx, b);
    },
  });
  add({
    id: 'get',
    method: 'GET',
    path: '/:id',
    grant: 'read',
    summary: `The ${who}, priced`,
    params: k.params,
    response: Cart,
    graphql: k.guest
      ? {
          name: 'guestCart',
          args: Type.Object({ maskedId: Type.String({ maxLength: 64 }) }),
          input: (a) => ({ params: { id: a.maskedId } }),
        }
      : undefined,
    run: (ctx, { params }) => carts.getCart(ctx, k.ref(params as { id: number | string })),
  });
  add({
    id: 'addItem',
    method: 'POST',
    path: '/:id/items',
    grant: 'write',
    summary: k.guest
      ? 'Add a product (by sku or productId, with the options its type needs); an unknown cart is replaced by a new one (cartRecreated)'
      : 'Add a product (by sku or productId, with the options its type needs)',
    params: k.params,
    body: AddItemBody,
    response: Cart,
    pair: { field: 'addToCart' },
    run: (ctx, { params, body }) => lines.addItem(ctx, k.ref(params as { id: number | string }), body as never),
  });
  add({
    id: 'updateItem',
    method: 'PUT',
    path: '/:id/items/:itemId',
    grant: 'write',
    summary: 'Change an item’s quantity (or, for the back office, its price)',
    params: k.itemParams,
    body: UpdateItemBody,
    response: Cart,
    pair: { field: 'updateItemQtyInCart', args: { ...ItemArg, ...UpdateItemBody.properties }, params: (a) => ({ itemId: itemIdOf(a) }) },
    run: (ctx, { params, body }) =>
      lines.updateItem(ctx, k.ref(params as { id: number | string }), (params as { itemId: number }).itemId, body as never),
  });
  add({
    id: 'removeItem',
    method: 'DELETE',
    path: '/:id/items/:itemId',
    grant: 'write',
    summary: 'Remove an item; answers with the cart',
    params: k.itemParams,
    response: Cart,
    pair: { field: 'removeItemFromCart', args: ItemArg, params: (a) => ({ itemId: itemIdOf(a) }) },
    run: (ctx, { params }) => lines.removeItem(ctx, k.ref(params as { id: number | string }), (params as { itemId: number }).itemId),
  });
  add({
    id: 'totals',
    method: 'GET',
    path: '/:id/totals',
    grant: 'read',
    summary: k.guest ? 'The totals (the prices object)' : 'The totals (the whole cart)',
    params: k.params,
    response: k.guest ? CartPrices : Cart,
    pair: { via: { guest: 'guestCart', customer: 'cart' } },
    run: async (ctx, { params }) => {
      const { ctx: c, priced } = await pricedCart(ctx, k.ref(params as { id: number | string }));
      return k.guest ? pricesDto(priced) : cartDto(c, priced);
    },
  });
  add({
    id: 'assignCustomer',
    method: 'PUT',
    path: '/:id/customer',
    grant: 'write',
    // a guest cart too: only a signed-in customer (for themselves) or the back office may give it away
    access: access.customerOrAdmin('carts', 'write'),
    summary: k.guest
      ? 'Give the guest cart to a customer: the signed-in customer takes it over, and its masked id stops working'
      : 'Give the cart to a customer (the back office; a customer only to themselves)',
    params: k.params,
    body: AssignCustomerBody,
    response: Cart,
    pair: {
      field: 'assignCustomerToCart',
      args: { customerId: GraphqlId({ description: "the customer's IRI or id" }) },
      body: (a) => ({ customerId: idOfIri(a.customerId, '/api/rest/v2/customers/') ?? -1 }),
    },
    run: (ctx, { params, body }) => carts.assignCustomer(ctx, k.ref(params as { id: number | string }), body as { customerId: number }),
  });
  const applyCoupon = {
    summary: 'Apply a coupon code',
    params: k.params,
    body: CouponBody,
    response: Cart,
    grant: 'write' as Grant,
    path: '/:id/coupon',
    method: 'POST' as const,
  };
  add({
    ...applyCoupon,
    id: 'applyCoupon',
    status: 201,
    pair: { field: 'applyCouponToCart' },
    run: (ctx, { params, body }) => reductions.applyCoupon(ctx, k.ref(params as { id: number | string }), body as never),
  });
  if (k.guest) {
    add({
      ...applyCoupon,
      id: 'applyCouponPut',
      method: 'PUT',
      summary: 'Apply a coupon code (the same as POST)',
      graphql: { via: 'applyCouponToCart' },
      run: (ctx, { params, body }) => reductions.applyCoupon(ctx, k.ref(params as { id: number | string }), body as never),
    });
  }
  add({
    id: 'removeCoupon',
    method: 'DELETE',
    path: '/:id/coupon',
    grant: 'write',
    summary: 'Remove the coupon',
    params: k.params,
    status: 204,
    pair: { field: 'removeCouponFromCart', args: {}, around: thenCart },
    run: (ctx, { params }) => reductions.removeCoupon(ctx, k.ref(params as { id: number | string })),
  });
  add({
    id: 'applyGiftcard',
    method: 'POST',
    path: '/:id/giftcards',
    grant: 'write',
    summary: 'Apply a gift card; its balance pays part or all of the grand total',
    params: k.params,
    body: GiftcardBody,
    response: Cart,
    pair: { field: 'applyGiftcardToCart' },
    run: (ctx, { params, body }) => reductions.applyGiftcard(ctx, k.ref(params as { id: number | string }), body as never),
  });
  add({
    id: 'removeGiftcard',
    method: 'DELETE',
    path: '/:id/giftcards/:code',
    grant: 'write',
    summary: 'Remove an applied gift card',
    params: k.giftcardParams,
    status: 204,
    pair: {
      field: 'removeGiftcardFromCart',
      args: { giftcardCode: Type.String({ minLength: 1, maxLength: 64 }) },
      params: (a) => ({ code: a.giftcardCode }),
      around: thenCart,
    },
    run: (ctx, { params }) => reductions.removeGiftcard(ctx, k.ref(params as { id: number | string }), (params as { code: string }).code),
  });
  add({
    id: 'shippingMethods',
    method: 'POST',
    path: '/:id/shipping-methods',
    grant: 'write',
    summary: k.guest
      ? 'Shipping rates for the cart (an address sent becomes its shipping address): the list of rates'
      : 'Shipping rates for the cart (an address sent becomes its shipping address): the whole cart',
    params: k.params,
    body: Type.Optional(ShippingMethodsBody),
    response: k.guest ? Type.Array(ShippingRate) : Cart,
    pair: {
      field: 'estimateShippingMethodsOnCart',
      args: ShippingMethodsBody.properties,
      around: (a, next, ctx) => (isGuestCall(a) ? thenCart(a, next, ctx) : next(a)),
    },
    run: async (ctx, { params, body }) => {
      const { ctx: c, priced } = await details.estimateShipping(ctx, k.ref(params as { id: number | string }), (body ?? {}) as never);
      return k.guest ? priced.shippingRates.map((r) => rateDto(r, priced.rate)) : cartDto(c, priced);
    },
  });
  add({
    id: 'paymentMethods',
    method: 'GET',
    path: '/:id/payment-methods',
    grant: 'read',
    summary: k.guest ? 'Payment methods the cart allows: the list' : 'Payment methods the cart allows: the whole cart',
    params: k.params,
    response: k.guest ? Type.Array(PaymentMethod) : Cart,
    pair: { via: { guest: 'guestCart', customer: 'cart' } },
    run: async (ctx, { params }) => {
      const { ctx: c, priced } = await pricedCart(ctx, k.ref(params as { id: number | string }));
      return k.guest ? priced.paymentMethods : cartDto(c, priced);
    },
  });
  const put = (
    id: string,
    path: string,
    summary: string,
    body: TObject,
    field: string,
    fn: (ctx: Ctx, ref: CartRef, body: never) => Promise<unknown>,
  ) =>
    add({
      id,
      method: 'PUT',
      path,
      grant: 'write',
      summary,
      params: k.params,
      body,
      response: Cart,
      pair: { field },
      run: (ctx, i) => fn(ctx, k.ref(i.params as { id: number | string }), i.body as never),
    });
  put(
    'setShippingAddress',
    '/:id/shipping-address',
    'Set the shipping address',
    AddressBody,
    'setShippingAddressOnCart',
    details.setShippingAddress,
  );
  put(
    'setBillingAddress',
    '/:id/billing-address',
    'Set the billing address (or copy the shipping address with sameAsShipping)',
    AddressBody,
    'setBillingAddressOnCart',
    details.setBillingAddress,
  );
  put(
    'setShippingMethod',
    '/:id/shipping-method',
    'Choose a shipping method offered for the address',
    ShippingMethodBody,
    'setShippingMethodOnCart',
    details.setShippingMethod,
  );
  put(
    'setPaymentMethod',
    '/:id/payment-method',
    'Choose an available payment method',
    PaymentMethodBody,
    'setPaymentMethodOnCart',
    details.setPaymentMethod,
  );
  add({
    id: 'setGiftMessage',
    method: 'PUT',
    path: '/:id/gift-message',
    grant: 'write',
    summary: 'Set the cart’s gift message (when sales/gift_options/allow_order is on)',
    params: k.params,
    body: GiftMessageBody,
    response: Cart,
    run: (ctx, { params, body }) => details.setGiftMessage(ctx, k.ref(params as { id: number | string }), body as never),
  });
  add({
    id: 'removeGiftMessage',
    method: 'DELETE',
    path: '/:id/gift-message',
    grant: 'write',
    summary: 'Remove the cart’s gift message',
    params: k.params,
    response: Cart,
    run: (ctx, { params }) => details.setGiftMessage(ctx, k.ref(params as { id: number | string }), null),
  });
  add({
    id: 'setItemGiftMessage',
    method: 'PUT',
    path: '/:id/items/:itemId/gift-message',
    grant: 'write',
    summary: 'Set an item’s gift message (when sales/gift_options/allow_items is on)',
    params: k.itemParams,
    body: GiftMessageBody,
    response: Cart,
    run: (ctx, { params, body }) =>
      details.setItemGiftMessage(ctx, k.ref(params as { id: number | string }), (params as { itemId: number }).itemId, body as never),
  });
  add({
    id: 'removeItemGiftMessage',
    method: 'DELETE',
    path: '/:id/items/:itemId/gift-message',
    grant: 'write',
    summary: 'Remove an item’s gift message',
    params: k.itemParams,
    response: Cart,
    run: (ctx, { params }) =>
      details.setItemGiftMessage(ctx, k.ref(params as { id: number | string }), (params as { itemId: number }).itemId, null),
  });
  return { ops, pairs };
}

function declareAll(): Operation[] {
  const [customer, guest] = KINDS.map(declareKind);
  const find = (ops: Operation[], id: string) => ops.find((o) => o.id.endsWith(`.${id}`))!;
  for (const [id, pair] of guest.pairs) pairUp(find(guest.ops, id), find(customer.ops, id), pair);
  giftMessageFields((kind, id) => find(kind === 'guest' ? guest.ops : customer.ops, id));
  return [list, ...customer.ops, ...guest.ops, mine];
}

/** Carts, most recently changed first: the caller's own, or any for the back office. */
const list = op({
  id: 'carts.list',
  method: 'GET',
  path: '/carts',
  tags: ['carts'],
  summary:
    "Carts, most recently changed first (20 a page): a customer's own; the back office's any, filtered by customerId, storeId, isActive",
  access: access.customerOrAdmin('carts', 'read'),
  shortName: 'Cart',
  query: CartListQuery,
  kind: 'collection',
  response: Cart,
  page: { defaultSize: 20, maxSize: 50 },
  run: (ctx, { query, page }) => listCarts(ctx, query, page),
});

/** The signed-in customer's cart in the current store view: the newest active one, or a new one. */
const mine = op({
  id: 'carts.mine',
  method: 'GET',
  path: '/customers/me/cart',
  tags: ['carts'],
  summary: "The signed-in customer's active cart in the current store view (made when there is none)",
  access: access.customer,
  shortName: 'Cart',
  response: Cart,
  graphql: { name: 'customerCart' },
  run: (ctx) => carts.customerCart(ctx),
});

export const operations: Operation[] = declareAll();
