/** Wire shapes of order placement (wire reference §2.5: POST /orders, /carts/{id}/place-order, /guest-carts/{id}/place-order). */
import { Type, type Static, type TSchema } from 'typebox';
import { FreeForm } from '../../platform/free-form.js';
import { AddressBody } from '../carts/schemas.js';

const Opt = <T extends TSchema>(s: T) => Type.Optional(s);

const placeFields = {
  shippingAddress: Opt(AddressBody),
  billingAddress: Opt(AddressBody),
  guestEmail: Opt(Type.String({ maxLength: 254, description: "the guest's email (guest carts)" })),
  email: Opt(Type.String({ maxLength: 254, description: 'alias of guestEmail' })),
  paymentMethod: Opt(Type.String({ minLength: 1, maxLength: 64, description: 'payment method code' })),
  paymentData: Opt(
    FreeForm(
      Type.Record(Type.String({ maxLength: 64 }), Type.Unknown(), {
        maxProperties: 50,
        description: "the method's additional data (purchase order: poNumber)",
      }),
    ),
  ),
  shippingMethod: Opt(Type.String({ minLength: 1, maxLength: 128, description: 'carrier_method' })),
  orderNote: Opt(Type.String({ maxLength: 2000, description: 'reads back as customerNote' })),
  expectedGrandTotal: Opt(
    Type.Number({
      minimum: 0,
      maximum: 999999999999,
      description:
        'the grand total (cart currency) the shopper agreed to; when re-pricing gives another, the order is refused with 409 totals_changed',
    }),
  ),
};

export const PlaceOrderBody = Type.Object(placeFields, { additionalProperties: false });
export type PlaceOrderBodyT = Static<typeof PlaceOrderBody>;

export const CreateOrderBody = Type.Object(
  {
    cartId: Type.Union([Type.Integer({ minimum: 1, maximum: 2147483647 }), Type.String({ minLength: 1, maxLength: 64 })], {
      description: "a customer cart's id, or a guest cart's masked id",
    }),
    maskedId: Opt(Type.String({ maxLength: 64, description: "a guest cart's masked id (wins over cartId)" })),
    ...placeFields,
  },
  { additionalProperties: false },
);
export type CreateOrderBodyT = Static<typeof CreateOrderBody>;
