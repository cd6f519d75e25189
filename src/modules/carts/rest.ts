/**
 * /carts (customer carts: a customer's own, or any for the back office with the carts grant) and /guest-carts
 * (public, by masked id). Both kinds share every declaration; they differ in how the cart is named and, as the
 * wire reference says, in what a guest's totals, shipping-methods and payment-methods calls answer (the bare
 * prices object or list instead of the whole cart). In GraphQL one field serves both kinds, as Maho's does:
 * `maskedId` names a guest cart, `cartId` (a number or an IRI) a customer cart.
 */
import { Type, type TObject, type TSchema } from 'typebox';
import { access, type Access, type Operation as Grant } from '../../platform/auth/access.js';
import type { Ctx } from '../../platform/context.js';
import { GraphqlId, idOfIri } from '../../platform/graphql-derive.js';
import { op, type Operation } from '../../platform/operations.js';
import { cartDto, pricesDto, rateDto } from './dto.js';
import {
  AddItemBody,
  AssignCustomerBody,
  AddressBody,
  Cart,
  CartIdParams,
  CartItemParams,
  CartListQuery,
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
import * as details from './details.js';
import * as lines from './lines.js';
import { listCarts } from './list.js';
import { pricedCart, type CartRef } from './load.js';
import * as reductions from './reductions.js';
import * as carts from './service.js';

interface Kind {
  base: string;
  guest: boolean;
  params: TObject;
  itemParams: TObject;
  giftcardParams: TObject;
  tag: string;
  op: string;
  access: (op: Grant) => Access;
  ref: (params: { id: number | string }) => CartRef;
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

/** How a GraphQL call names its cart: a guest cart's masked id, or a customer cart's id or IRI. */
const CartArgs = {
  cartId: Type.Optional(GraphqlId({ description: "a customer cart's id or IRI" })),
  maskedId: Type.Optional(Type.String({ maxLength: 64, description: "a guest cart's masked id" })),
};
const ItemArg = { itemId: GraphqlId({ description: "the cart item's id" }) };
/** The REST item id of a GraphQL itemId (an ID: a number or a numeric string); anything else is refused as a bad id. */
const itemIdOf = (a: Record<string, any>) => idOfIri(a.itemId) ?? -1;
const argsOf = (...parts: Record<string, TSchema>[]) => Type.Object(Object.assign({}, CartArgs, ...parts));
const isGuestCall = (a: Record<string, any>) => a.maskedId != null || a.cartId == null;
/** The REST path id of the cart a GraphQL call names: the masked id, else the numeric id of cartId. */
function cartIdArg(a: Record<string, any>): string | number | undefined {
  if (a.maskedId != null) return a.maskedId;
  if (a.cartId == null) return undefined;
  return idOfIri(a.cartId, '/api/rest/v2/carts/') ?? -1;
}
const refOf = (a: Record<string, any>): CartRef =>
  isGuestCall(a) ? { kind: 'guest', maskedId: String(a.maskedId ?? '') } : { kind: 'customer', id: Number(cartIdArg(a)) };
/** GraphQL answers a cart change with the cart, where REST answers 204 */
const thenCart = (a: Record<string, any>, next: (a: Record<string, any>) => Promise<unknown>, ctx: Ctx) =>
  next(a).then(() => carts.getCart(ctx, refOf(a)));
const withoutCart = (a: Record<string, any>) => {
  const { cartId: _c, maskedId: _m, itemId: _i, clientMutationId: _x, ...rest } = a;
  return rest;
};

type Decl = Parameters<typeof op>[0];
interface Pair {
  /** GraphQL field of the pair; both kinds are served by it */
  field?: string;
  /** GraphQL arguments other than cartId/maskedId (default: the REST body's) */
  args?: Record<string, TSchema>;
  /** REST path parameters other than the cart's, from the GraphQL arguments */
  params?: (a: Record<string, any>) => Record<string, unknown>;
  /** the REST body, from the GraphQL arguments (default: every argument but the cart's and the item's) */
  body?: (a: Record<string, any>) => Record<string, unknown>;
  around?: Decl extends { graphql?: infer G } ? (G extends { around?: infer A } ? A : never) : never;
  /** twin of another field instead of a field of its own (a read the cart's fields already answer) */
  via?: { guest: string; customer: string };
}

function declare(
  k: Kind,
  d: Omit<Decl, 'shortName' | 'tags' | 'access' | 'path' | 'id'> & { id: string; path: string; grant: Grant; pair?: Pair; access?: Access },
): Operation {
  const { grant, pair, ...rest } = d;
  return op({
    ...rest,
    id: `${k.op}.${d.id}`,
    path: `${k.base}${d.path}`,
    tags: [k.tag],
    shortName: 'Cart',
    access: d.access ?? k.access(grant),
  } as Decl);
}

/** Wires the GraphQL field of a guest/customer pair: the guest declaration owns it and selects its twin for a cartId. */
function pairUp(guest: Operation, customer: Operation, pair: Pair): void {
  if (pair.via) {
    guest.graphql = { via: pair.via.guest };
    customer.graphql = { via: pair.via.customer };
    return;
  }
  const input = (a: Record<string, any>) => ({
    params: { id: cartIdArg(a), ...(pair.params ? pair.params(a) : {}) },
    body: pair.body ? pair.body(a) : withoutCart(a),
  });
  customer.graphql = { via: pair.field!, input };
  guest.graphql = {
    name: pair.field!,
    args: argsOf(pair.args ?? ((guest.body as TObject | undefined)?.properties as Record<string, TSchema>) ?? {}),
    input,
    select: (a) => (isGuestCall(a) ? undefined : customer),
    ...(pair.around ? { around: pair.around } : {}),
  };
}

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

/**
 * The gift message fields serve the cart and its items: `itemId` picks the item's declaration. The four
 * declarations (cart or item, guest or customer) answer one field each for setting and for removing.
 */
function giftMessageFields(byId: (kind: 'guest' | 'customer', id: string) => Operation): void {
  for (const [field, cartOp, itemOp] of [
    ['setGiftMessageOnCart', 'setGiftMessage', 'setItemGiftMessage'],
    ['removeGiftMessageFromCart', 'removeGiftMessage', 'removeItemGiftMessage'],
  ] as const) {
    const owner = byId('guest', cartOp);
    const pick = (a: Record<string, any>) => byId(isGuestCall(a) ? 'guest' : 'customer', a.itemId != null ? itemOp : cartOp);
    const input = (a: Record<string, any>) => ({
      params: { id: cartIdArg(a), ...(a.itemId != null ? { itemId: itemIdOf(a) } : {}) },
      body: field.startsWith('set') ? withoutCart(a) : undefined,
    });
    for (const kind of ['guest', 'customer'] as const) {
      for (const id of [cartOp, itemOp]) {
        const o = byId(kind, id);
        if (o !== owner) o.graphql = { via: field, input };
      }
    }
    owner.graphql = {
      name: field,
      args: argsOf({ itemId: Type.Optional(ItemArg.itemId) }, field.startsWith('set') ? GiftMessageBody.properties : {}),
      input,
      select: (a) => {
        const o = pick(a);
        return o === owner ? undefined : o;
      },
    };
  }
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
