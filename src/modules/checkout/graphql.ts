/**
 * GraphQL placeOrder, in Maho's input/payload shape: `placeOrder(input: {maskedId | cartId, paymentMethod,
 * shippingMethod, guestEmail, orderNote, expectedGrandTotal, clientMutationId}) { order { ... } clientMutationId }`.
 * It calls the same placement as POST /orders, with the same access rule (guest carts: whoever holds the masked
 * id; customer carts: their owner or the back office).
 */
import type { IResolvers } from 'mercurius';
import { access } from '../../platform/auth/access.js';
import { badRequest } from '../../platform/errors.js';
import { resolver, type GraphqlContribution } from '../../platform/graphql.js';
import { checkBody } from '../../platform/http.js';
import * as checkout from './service.js';
import { CreateOrderBody, type CreateOrderBodyT } from './schemas.js';

const typeDefs = `
  input placeOrderInput {
    "a customer cart's id (or its IRI /api/rest/v2/carts/{id}), or a guest cart's masked id"
    cartId: ID
    "a guest cart's masked id (wins over cartId)"
    maskedId: String
    paymentMethod: String
    "carrier_method"
    shippingMethod: String
    guestEmail: String
    orderNote: String
    "the grand total (cart currency) the shopper agreed to: another one after re-pricing refuses the order (TOTALS_CHANGED, status 409)"
    expectedGrandTotal: Float
    clientMutationId: String
  }
  type placeOrderPayload {
    order: Order
    clientMutationId: String
  }
  extend type Mutation {
    "Places an order from a guest or customer cart. A coupon, gift card or free shipping the cart was last shown with that no longer holds refuses it (status 409)."
    placeOrder(input: placeOrderInput!): placeOrderPayload
  }
`;

interface PlaceArgs {
  input: {
    cartId?: string | null;
    maskedId?: string | null;
    paymentMethod?: string | null;
    shippingMethod?: string | null;
    guestEmail?: string | null;
    orderNote?: string | null;
    expectedGrandTotal?: number | null;
    clientMutationId?: string | null;
  };
}

/** The cart id of the input: a number, a numeric string, an IRI of a cart, or a masked id. */
function cartIdOf(id: string | null | undefined): number | string | undefined {
  if (id === null || id === undefined) return undefined;
  const iri = /^\/api\/rest\/v2\/(?:carts|guest-carts)\/([^/]+)$/.exec(id);
  return iri ? iri[1] : id;
}

function bodyOf(input: PlaceArgs['input']): CreateOrderBodyT {
  const cartId = cartIdOf(input.cartId) ?? input.maskedId ?? undefined;
  if (cartId === undefined) throw badRequest('cartId or maskedId is required', { reason: 'VALIDATION_FAILED', details: { field: 'cartId' } });
  const opt = <T>(v: T | null | undefined) => (v === null ? undefined : v);
  // the REST body's schema checks the same fields the same way (lengths, ranges)
  return checkBody<CreateOrderBodyT>(CreateOrderBody, {
    cartId,
    maskedId: opt(input.maskedId),
    paymentMethod: opt(input.paymentMethod),
    shippingMethod: opt(input.shippingMethod),
    guestEmail: opt(input.guestEmail),
    orderNote: opt(input.orderNote),
    expectedGrandTotal: opt(input.expectedGrandTotal),
  });
}

export const checkoutGraphql: GraphqlContribution = {
  typeDefs,
  resolvers: {
    Mutation: {
      placeOrder: resolver<PlaceArgs>(access.public, async (ctx, args) => ({
        order: await checkout.createOrder(ctx, bodyOf(args.input)),
        clientMutationId: args.input.clientMutationId ?? null,
      })),
    },
  } as IResolvers,
};
