import { Type, type Static } from 'typebox';
import { PageQuery } from '../../platform/pagination.js';

const INT_MAX = 2147483647;

// ---- tax classes ----

export const TaxClass = Type.Object({
  id: Type.Integer(),
  className: Type.String(),
  classType: Type.String({ description: 'PRODUCT or CUSTOMER' }),
});

const ClassName = Type.String({ minLength: 1, maxLength: 255, description: '1 to 255 characters' });
const ClassType = Type.String({ description: 'PRODUCT or CUSTOMER (any case)' });

export const TaxClassCreate = Type.Object(
  { className: ClassName, classType: Type.Optional(Type.String({ description: 'PRODUCT (default) or CUSTOMER (any case)' })) },
  { additionalProperties: false },
);

export const TaxClassUpdate = Type.Object(
  {
    className: Type.Optional(ClassName),
    classType: Type.Optional(Type.String({ description: 'PRODUCT or CUSTOMER; cannot change while the class is in use' })),
  },
  { additionalProperties: false },
);

export const TaxClassListQuery = Type.Object({
  ...PageQuery,
  classType: Type.Optional(ClassType),
  search: Type.Optional(Type.String({ maxLength: 255, description: 'part of the class name, any case' })),
});

// ---- tax rates ----

const RateTitle = Type.Object({
  storeId: Type.Integer({ minimum: 0, maximum: INT_MAX }),
  title: Type.String({ maxLength: 255 }),
});

export const TaxRate = Type.Object({
  id: Type.Integer(),
  code: Type.String(),
  taxCountryId: Type.String({ description: 'ISO-2 country code' }),
  taxRegionId: Type.Optional(Type.Integer({ description: 'omitted: every region of the country' })),
  taxPostcode: Type.String({ description: '`*` any, a prefix ending in `*`, an exact postcode, or `from-to` for a range' }),
  rate: Type.Number({ description: 'percent' }),
  zipIsRange: Type.Boolean(),
  zipFrom: Type.Optional(Type.String()),
  zipTo: Type.Optional(Type.String()),
  titles: Type.Array(RateTitle, { description: 'per store view titles' }),
});

const RateCode = Type.String({ minLength: 1, maxLength: 255, description: 'unique, case-insensitively' });
const Zip = Type.Union([Type.String({ maxLength: 10 }), Type.Integer({ minimum: 0, maximum: 9999999999 }), Type.Null()], {
  description: 'digits; with zipIsRange',
});
const RegionId = Type.Union([Type.Integer({ minimum: 0, maximum: INT_MAX }), Type.Null()], {
  description: 'a region of the country; 0 or null: every region',
});
const Percent = Type.Number({ minimum: 0, maximum: 100, description: 'percent, 0 to 100' });

const rateFields = {
  taxRegionId: Type.Optional(RegionId),
  taxPostcode: Type.Optional(Type.Union([Type.String({ maxLength: 64 }), Type.Null()], { description: 'default `*`' })),
  zipIsRange: Type.Optional(Type.Boolean()),
  zipFrom: Type.Optional(Zip),
  zipTo: Type.Optional(Zip),
  titles: Type.Optional(Type.Array(RateTitle, { maxItems: 1000, description: 'replaces every title; omitted on PUT: kept' })),
};

export const TaxRateCreate = Type.Object(
  { code: RateCode, taxCountryId: Type.String({ minLength: 1, maxLength: 3 }), rate: Percent, ...rateFields },
  { additionalProperties: false },
);

export const TaxRateUpdate = Type.Object(
  {
    code: Type.Optional(RateCode),
    taxCountryId: Type.Optional(Type.String({ minLength: 1, maxLength: 3 })),
    rate: Type.Optional(Percent),
    ...rateFields,
  },
  { additionalProperties: false },
);

export const TaxRateListQuery = Type.Object({
  ...PageQuery,
  taxCountryId: Type.Optional(Type.String({ maxLength: 3, description: 'ISO-2 or ISO-3 code, any case' })),
  search: Type.Optional(Type.String({ maxLength: 255, description: 'part of the rate code, any case' })),
});

// ---- tax rules ----

export const TaxRule = Type.Object({
  id: Type.Integer(),
  code: Type.String(),
  priority: Type.Integer(),
  position: Type.Integer(),
  calculateSubtotal: Type.Boolean(),
  customerTaxClassIds: Type.Array(Type.Integer()),
  productTaxClassIds: Type.Array(Type.Integer()),
  taxRateIds: Type.Array(Type.Integer()),
});

const Ids = (what: string) =>
  Type.Array(Type.Integer({ minimum: 1, maximum: INT_MAX }), { minItems: 1, maxItems: 1000, description: `at least one ${what}` });
const RuleCode = Type.String({ minLength: 1, maxLength: 255, description: 'unique, case-insensitively' });
const Order = (d: string) => Type.Integer({ minimum: 0, maximum: INT_MAX, description: d });

export const TaxRuleCreate = Type.Object(
  {
    code: RuleCode,
    priority: Type.Optional(Order('rules of equal priority add their rates; higher priorities compound on lower ones; default 0')),
    position: Type.Optional(Order('sort order; default 0')),
    calculateSubtotal: Type.Optional(
      Type.Boolean({ description: 'add this rule’s rates to the earlier priorities instead of compounding; default false' }),
    ),
    customerTaxClassIds: Ids('CUSTOMER tax class id'),
    productTaxClassIds: Ids('PRODUCT tax class id'),
    taxRateIds: Ids('tax rate id'),
  },
  { additionalProperties: false },
);

export const TaxRuleUpdate = Type.Object(
  {
    code: Type.Optional(RuleCode),
    priority: Type.Optional(Order('see create')),
    position: Type.Optional(Order('see create')),
    calculateSubtotal: Type.Optional(Type.Boolean()),
    customerTaxClassIds: Type.Optional(Ids('CUSTOMER tax class id')),
    productTaxClassIds: Type.Optional(Ids('PRODUCT tax class id')),
    taxRateIds: Type.Optional(Ids('tax rate id')),
  },
  { additionalProperties: false },
);

export const TaxRuleListQuery = Type.Object({
  ...PageQuery,
  search: Type.Optional(Type.String({ maxLength: 255, description: 'part of the rule code, any case' })),
});

export type TaxClassDto = Static<typeof TaxClass>;
export type TaxClassCreateInput = Static<typeof TaxClassCreate>;
export type TaxClassUpdateInput = Static<typeof TaxClassUpdate>;
export type TaxClassListFilter = { classType?: string; search?: string };
export type TaxRateDto = Static<typeof TaxRate>;
export type TaxRateCreateInput = Static<typeof TaxRateCreate>;
export type TaxRateUpdateInput = Static<typeof TaxRateUpdate>;
export type TaxRuleDto = Static<typeof TaxRule>;
export type TaxRuleCreateInput = Static<typeof TaxRuleCreate>;
export type TaxRuleUpdateInput = Static<typeof TaxRuleUpdate>;
