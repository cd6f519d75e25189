/** Wire shapes of a product's group prices (Maho's ProductGroupPrice): a price per customer group and website. */
import { Type, type Static } from 'typebox';

export const GroupPrice = Type.Object({
  id: Type.String({ description: '"<productId>_<index>"' }),
  customerGroupId: Type.Union([Type.Integer(), Type.Literal('all')], { description: 'a customer group id, or "all"' }),
  websiteId: Type.Integer({ description: '0: all websites' }),
  price: Type.Number(),
});

const GroupId = Type.Union([Type.Integer(), Type.Literal('all'), Type.Null()], {
  description: 'an existing customer group id; "all", 32000 or omitted: every group',
});

export const GroupPriceInput = Type.Object(
  {
    customerGroupId: Type.Optional(GroupId),
    /** Maho accepts its storage names too */
    customer_group_id: Type.Optional(GroupId),
    websiteId: Type.Optional(Type.Integer({ description: '0 or omitted: all websites; else an existing website' })),
    website_id: Type.Optional(Type.Integer({ description: 'as websiteId' })),
    price: Type.Number({ description: 'at least 0' }),
  },
  { additionalProperties: false },
);

export const GroupPricesBody = Type.Union(
  [
    Type.Array(GroupPriceInput, { maxItems: 1000 }),
    Type.Object({ groupPrices: Type.Array(GroupPriceInput, { maxItems: 1000 }) }, { additionalProperties: false }),
  ],
  { description: 'the new set: an array of group prices, or {groupPrices: [...]}' },
);

export type GroupPriceDto = Static<typeof GroupPrice>;
export type GroupPriceInputT = Static<typeof GroupPriceInput>;
export type GroupPricesBodyT = Static<typeof GroupPricesBody>;
