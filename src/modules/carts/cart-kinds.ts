/**
 * What the declarations of the two kinds of cart share: /carts (a customer's, or any for the back office) and
 * /guest-carts (by masked id) differ in path, parameters and access; in GraphQL one field serves both, naming the
 * cart by `maskedId` (a guest cart) or `cartId` (a customer cart's id or IRI), and the guest declaration owns the
 * field and selects its customer twin.
 */
import { Type, type TObject, type TSchema } from 'typebox';
import { access, type Access, type Operation as Grant } from '../../platform/auth/access.js';
import type { Ctx } from '../../platform/context.js';
import { GraphqlId, idOfIri } from '../../platform/graphql-derive.js';
import { op, type Operation } from '../../platform/operations.js';
import {
  CartIdParams,
  CartItemParams,
  GiftMessageBody,
  GiftcardParams,
  GuestCartItemParams,
  GuestCartParams,
  GuestGiftcardParams,
} from './schemas.js';
import type { CartRef } from './load.js';
import * as carts from './service.js';

export interface Kind {
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

export const KINDS: Kind[] = [
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
export const CartArgs = {
  cartId: Type.Optional(GraphqlId({ description: "a customer cart's id or IRI" })),
  maskedId: Type.Optional(Type.String({ maxLength: 64, description: "a guest cart's masked id" })),
};
export const ItemArg = { itemId: GraphqlId({ description: "the cart item's id" }) };
/** The REST item id of a GraphQL itemId (an ID: a number or a numeric string); anything else is refused as a bad id. */
export const itemIdOf = (a: Record<string, any>) => idOfIri(a.itemId) ?? -1;
export const argsOf = (...parts: Record<string, TSchema>[]) => Type.Object(Object.assign({}, CartArgs, ...parts));
export const isGuestCall = (a: Record<string, any>) => a.maskedId != null || a.cartId == null;
/** The REST path id of the cart a GraphQL call names: the masked id, else the numeric id of cartId. */
export function cartIdArg(a: Record<string, any>): string | number | undefined {
  if (a.maskedId != null) return a.maskedId;
  if (a.cartId == null) return undefined;
  return idOfIri(a.cartId, '/api/rest/v2/carts/') ?? -1;
}
export const refOf = (a: Record<string, any>): CartRef =>
  isGuestCall(a) ? { kind: 'guest', maskedId: String(a.maskedId ?? '') } : { kind: 'customer', id: Number(cartIdArg(a)) };
/** GraphQL answers a cart change with the cart, where REST answers 204 */
export const thenCart = (a: Record<string, any>, next: (a: Record<string, any>) => Promise<unknown>, ctx: Ctx) =>
  next(a).then(() => carts.getCart(ctx, refOf(a)));
export const withoutCart = (a: Record<string, any>) => {
  const { cartId: _c, maskedId: _m, itemId: _i, clientMutationId: _x, ...rest } = a;
  return rest;
};

export type Decl = Parameters<typeof op>[0];
export interface Pair {
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

export function declare(
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
export function pairUp(guest: Operation, customer: Operation, pair: Pair): void {
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

/**
 * The gift message fields serve the cart and its items: `itemId` picks the item's declaration. The four
 * declarations (cart or item, guest or customer) answer one field each for setting and for removing.
 */
export function giftMessageFields(byId: (kind: 'guest' | 'customer', id: string) => Operation): void {
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
