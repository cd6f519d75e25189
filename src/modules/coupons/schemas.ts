import { Type, type Static } from 'typebox';
import { PageQuery } from '../../platform/pagination.js';

const INT_MAX = 2147483647;
/** well inside NUMERIC(20,4) */
export const MAX_AMOUNT = 1_000_000_000_000;

export const DISCOUNT_TYPES = ['percent', 'fixed', 'cart_fixed', 'buy_x_get_y'] as const;
export type DiscountType = (typeof DISCOUNT_TYPES)[number];

export const Coupon = Type.Object({
  id: Type.Integer({ description: 'coupon id' }),
  ruleId: Type.Integer(),
  ruleName: Type.String(),
  code: Type.String(),
  discountType: Type.String({ description: 'percent, fixed, cart_fixed or buy_x_get_y' }),
  discountAmount: Type.Number({ description: 'percent for percent; base-currency amount for fixed and cart_fixed; Y for buy_x_get_y' }),
  description: Type.Optional(Type.String()),
  isActive: Type.Boolean(),
  usageLimit: Type.Optional(Type.Integer({ description: 'uses of this code in all' })),
  usagePerCustomer: Type.Optional(Type.Integer()),
  timesUsed: Type.Integer(),
  fromDate: Type.Optional(Type.String({ description: 'YYYY-MM-DD' })),
  toDate: Type.Optional(Type.String({ description: 'YYYY-MM-DD' })),
  minimumSubtotal: Type.Optional(Type.Number({ description: 'base subtotal the cart must reach' })),
  expirationDate: Type.Optional(Type.String({ description: 'YYYY-MM-DD HH:MM:SS UTC' })),
  type: Type.Integer({ description: '0 manual, 1 generated' }),
  isPrimary: Type.Boolean(),
  createdAt: Type.String(),
  websiteIds: Type.Array(Type.Integer()),
  customerGroupIds: Type.Array(Type.Integer()),
  sortOrder: Type.Integer(),
  stopRulesProcessing: Type.Boolean(),
  discountQty: Type.Optional(Type.Number({ description: 'most units of an item discounted' })),
  discountStep: Type.Integer({ description: 'buy_x_get_y: X' }),
  simpleFreeShipping: Type.Integer({ description: '0 no, 1 matching items, 2 whole shipment' }),
  applyToShipping: Type.Boolean(),
});

const Nullable = <T extends ReturnType<typeof Type.String> | ReturnType<typeof Type.Number> | ReturnType<typeof Type.Integer>>(t: T) =>
  Type.Optional(Type.Union([t, Type.Null()]));
const DateInput = (description: string) =>
  Nullable(Type.String({ maxLength: 32, description: `${description}; YYYY-MM-DD, "" or null clears` }));
const IdList = (description: string) =>
  Type.Array(Type.Integer({ minimum: 0, maximum: INT_MAX }), { minItems: 1, maxItems: 1000, description });

const fields = {
  code: Type.String({ maxLength: 255, description: '3 to 64 characters of A-Z a-z 0-9 _ -; unique case-insensitively' }),
  discountType: Type.Union([Type.Literal('percent'), Type.Literal('fixed'), Type.Literal('cart_fixed'), Type.Literal('buy_x_get_y')], {
    description: 'percent, fixed, cart_fixed or buy_x_get_y',
  }),
  discountAmount: Type.Number({ maximum: MAX_AMOUNT, description: '> 0; percent at most 100; buy_x_get_y: Y, a whole number' }),
  description: Nullable(Type.String({ maxLength: 65535 })),
  isActive: Type.Optional(Type.Boolean()),
  usageLimit: Nullable(Type.Integer({ maximum: INT_MAX, description: 'uses of this code in all (>= 1); null: unlimited' })),
  usagePerCustomer: Nullable(Type.Integer({ maximum: INT_MAX, description: 'uses per customer (>= 1); null: unlimited' })),
  fromDate: DateInput('first day the rule applies'),
  toDate: DateInput('last day the rule applies'),
  minimumSubtotal: Nullable(Type.Number({ maximum: MAX_AMOUNT, description: 'base subtotal the cart must reach; null: none' })),
  expirationDate: DateInput('when this code expires (YYYY-MM-DD or YYYY-MM-DD HH:MM:SS UTC)'),
  websiteIds: Type.Optional(IdList("websites the rule applies in; default the current store's website")),
  customerGroupIds: Type.Optional(IdList('customer groups the rule applies to; default all')),
  sortOrder: Type.Optional(Type.Integer({ minimum: -INT_MAX, maximum: INT_MAX })),
  stopRulesProcessing: Type.Optional(Type.Boolean()),
  discountQty: Nullable(Type.Number({ maximum: 99_999_999, description: 'most units of an item discounted; null or 0: all' })),
  discountStep: Type.Optional(
    Type.Integer({ maximum: INT_MAX, description: 'buy_x_get_y: X, the units to buy (>= 1); 1 when a buy_x_get_y coupon has none' }),
  ),
  simpleFreeShipping: Type.Optional(Type.Integer({ minimum: 0, maximum: 2, description: '0 no, 1 matching items, 2 whole shipment' })),
  applyToShipping: Type.Optional(Type.Boolean()),
};

export const CouponCreate = Type.Object(fields, { additionalProperties: false });

export const CouponUpdate = Type.Object(
  {
    ...fields,
    code: Type.Optional(fields.code),
    discountType: Type.Optional(fields.discountType),
    discountAmount: Type.Optional(fields.discountAmount),
  },
  { additionalProperties: false },
);

export const CouponParams = Type.Object({ id: Type.Integer({ minimum: 0, maximum: INT_MAX }) });

const BoolString = (description: string) => Type.Optional(Type.String({ pattern: '^(true|false|1|0)$', description }));

export const COUPON_SORTS = ['id', 'code', 'ruleName', 'discountAmount', 'timesUsed', 'fromDate', 'toDate', 'sortOrder'] as const;

export const CouponListQuery = Type.Object({
  ...PageQuery,
  code: Type.Optional(Type.String({ maxLength: 255, description: 'code contains (case-insensitive)' })),
  search: Type.Optional(Type.String({ maxLength: 255, description: 'code or rule name contains (case-insensitive)' })),
  isActive: BoolString('true/false (or 1/0)'),
  is_active: BoolString('alias of isActive'),
  discountType: Type.Optional(
    Type.Union([Type.Literal('percent'), Type.Literal('fixed'), Type.Literal('cart_fixed'), Type.Literal('buy_x_get_y')]),
  ),
  sortBy: Type.Optional(Type.Enum([...COUPON_SORTS], { description: 'default id, newest first' })),
  sortDir: Type.Optional(Type.Union([Type.Literal('asc'), Type.Literal('desc')], { description: 'default asc when sortBy is given' })),
});

export const CouponValidate = Type.Object(
  {
    code: Type.String({ maxLength: 255 }),
    cartId: Type.Optional(
      Type.Union([Type.Integer({ minimum: 0, maximum: INT_MAX }), Type.String({ maxLength: 64 })], {
        description: 'cart id or guest cart masked id',
      }),
    ),
  },
  { additionalProperties: false },
);

export const CouponValidation = Type.Object({
  id: Type.Integer({ description: 'coupon id; 0 for anonymous callers and unknown codes' }),
  code: Type.String(),
  isValid: Type.Boolean(),
  validationMessage: Type.String(),
  ruleId: Type.Optional(Type.Integer()),
  ruleName: Type.Optional(Type.String()),
  discountType: Type.Optional(Type.String()),
  discountAmount: Type.Optional(Type.Number()),
  discountPreview: Type.Optional(Type.Unknown({ description: 'the discount on the named cart' })),
});

export type CouponDto = Static<typeof Coupon>;
export type CouponCreateInput = Static<typeof CouponCreate>;
export type CouponUpdateInput = Static<typeof CouponUpdate>;
export type CouponListQueryT = Static<typeof CouponListQuery>;
export type CouponValidateInput = Static<typeof CouponValidate>;
export type CouponValidationDto = Static<typeof CouponValidation>;
