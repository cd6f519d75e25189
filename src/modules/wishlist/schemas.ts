import { Type, type Static } from 'typebox';
import { AddItemBody } from '../carts/schemas.js';

const INT_MAX = 2147483647;
export const MAX_WISHLIST_QTY = 10000;

export const WishlistItem = Type.Object({
  id: Type.Integer(),
  productId: Type.Integer(),
  productName: Type.String(),
  productSku: Type.String(),
  productPrice: Type.Optional(Type.Number({ description: 'the regular price, in the response currency' })),
  productFinalPrice: Type.Optional(
    Type.Number({ description: 'what the customer pays for one at the wished qty (special and tier prices)' }),
  ),
  productImageUrl: Type.Optional(Type.String()),
  productUrl: Type.Optional(Type.String()),
  productType: Type.String(),
  qty: Type.Integer(),
  description: Type.Optional(Type.String()),
  addedAt: Type.String({ description: 'YYYY-MM-DD HH:MM:SS UTC' }),
  inStock: Type.Boolean(),
});
export type WishlistItemDto = Static<typeof WishlistItem>;

/** The cart's add-item choices a wishlist item keeps for the day it is moved to a cart. */
const p = AddItemBody.properties;
const buyRequestProps = {
  options: p.options,
  options_files: p.options_files,
  optionsFiles: p.optionsFiles,
  superAttribute: p.superAttribute,
  super_attribute: p.super_attribute,
  superGroup: p.superGroup,
  super_group: p.super_group,
  bundleOption: p.bundleOption,
  bundle_option: p.bundle_option,
  bundleOptionQty: p.bundleOptionQty,
  bundle_option_qty: p.bundle_option_qty,
  links: p.links,
};
export const BUY_REQUEST_KEYS = Object.keys(buyRequestProps) as (keyof typeof buyRequestProps)[];

export const AddWishlistBody = Type.Object(
  {
    productId: Type.Integer({ minimum: 1, maximum: INT_MAX }),
    qty: Type.Optional(Type.Integer({ minimum: 1, maximum: MAX_WISHLIST_QTY, description: 'default 1' })),
    description: Type.Optional(Type.String({ maxLength: 4000 })),
    ...buyRequestProps,
  },
  { additionalProperties: false },
);
export type AddWishlistBodyT = Static<typeof AddWishlistBody>;

export const WishlistItemParams = Type.Object({ id: Type.Integer({ minimum: 1, maximum: INT_MAX }) });

export const MoveToCartBody = Type.Object(
  {
    qty: Type.Optional(Type.Integer({ minimum: 1, maximum: MAX_WISHLIST_QTY, description: "default: the item's qty" })),
    cartId: Type.Optional(
      Type.Union([Type.Integer({ minimum: 1, maximum: INT_MAX }), Type.String({ pattern: '^([0-9]{1,10}|[a-fA-F0-9]{32})$' })], {
        description: 'a cart of the caller (numeric) or a masked guest cart id (32 hex); default: a new cart of the caller',
      }),
    ),
  },
  { additionalProperties: false },
);
export type MoveToCartBodyT = Static<typeof MoveToCartBody>;

export const SyncBody = Type.Object(
  { productIds: Type.Array(Type.Integer({ minimum: 1, maximum: INT_MAX }), { minItems: 1, maxItems: 100 }) },
  { additionalProperties: false },
);
