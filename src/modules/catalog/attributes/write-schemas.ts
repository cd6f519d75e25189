/**
 * Wire shapes of attribute and attribute set writes (POST/PUT /product-attributes, POST/PUT /attribute-sets).
 * Unknown keys are dropped; a value of the wrong type is a 400. Rules needing the database (unique codes, options
 * in use, members that exist) are the service's.
 */
import { Type, type Static } from 'typebox';

const INT_MAX = 2147483647;
const Flag = () => Type.Optional(Type.Boolean());
const Text = (maxLength: number, description?: string) => Type.Optional(Type.Union([Type.String({ maxLength, description }), Type.Null()]));

/** Inputs a new attribute may have, with the backend type each stores its values as. */
export const ATTRIBUTE_INPUTS = {
  text: 'varchar',
  textarea: 'text',
  select: 'int',
  multiselect: 'varchar',
  boolean: 'int',
  date: 'datetime',
  price: 'decimal',
  weight: 'decimal',
} as const;

const Option = Type.Object(
  {
    value: Type.Optional(Type.String({ maxLength: 20, description: 'the id of an existing option (as read); absent for a new one' })),
    label: Type.String({ minLength: 1, maxLength: 255 }),
    swatchType: Text(16, 'color or text'),
    swatchValue: Text(64, 'color: #rrggbb'),
  },
  { additionalProperties: false },
);

const attributeFields = {
  frontendLabel: Type.Optional(Type.String({ minLength: 1, maxLength: 255 })),
  scope: Type.Optional(Type.Enum(['global', 'website', 'store'])),
  isRequired: Flag(),
  isUnique: Flag(),
  isSearchable: Flag(),
  isFilterable: Type.Optional(Type.Integer({ minimum: 0, maximum: 2, description: '0 no, 1 with results, 2 without results' })),
  isFilterableInSearch: Flag(),
  isComparable: Flag(),
  isVisibleOnFront: Flag(),
  isHtmlAllowedOnFront: Flag(),
  isUsedForPriceRules: Flag(),
  usedInProductListing: Flag(),
  usedForSortBy: Flag(),
  isVisibleInAdvancedSearch: Flag(),
  isWysiwygEnabled: Flag(),
  isConfigurable: Type.Optional(Type.Boolean({ description: 'may be a super attribute (global select attributes only)' })),
  defaultValue: Text(255),
  applyTo: Type.Optional(
    Type.Array(Type.Enum(['simple', 'virtual', 'configurable', 'bundle', 'grouped', 'downloadable']), {
      uniqueItems: true,
      maxItems: 6,
      description: 'product types; empty: all',
    }),
  ),
  frontendClass: Text(255),
  note: Text(1024),
  position: Type.Optional(Type.Integer({ minimum: 0, maximum: 1_000_000 })),
  options: Type.Optional(
    Type.Array(Option, {
      maxItems: 1000,
      description: 'select and multiselect: the options in their order; replaces the list (an option left out is removed)',
    }),
  ),
};

export const ProductAttributeCreate = Type.Object(
  {
    attributeCode: Type.String({ minLength: 1, maxLength: 60, pattern: '^[a-z][a-z0-9_]*$', description: 'lower-case letters, digits, _' }),
    frontendInput: Type.Enum(Object.keys(ATTRIBUTE_INPUTS) as (keyof typeof ATTRIBUTE_INPUTS)[]),
    ...attributeFields,
    frontendLabel: Type.String({ minLength: 1, maxLength: 255 }),
  },
  { additionalProperties: false },
);

/** Partial update: the code and the input type stay as created. */
export const ProductAttributeUpdate = Type.Object(attributeFields, { additionalProperties: false });

const SetGroup = Type.Object(
  {
    name: Type.String({ minLength: 1, maxLength: 255 }),
    attributes: Type.Array(Type.String({ minLength: 1, maxLength: 255 }), { maxItems: 1000, description: 'attribute codes, in order' }),
  },
  { additionalProperties: false },
);

const Groups = Type.Array(SetGroup, {
  maxItems: 100,
  description: 'the groups in order, each with its attribute codes in order; replaces the membership of the set',
});

export const AttributeSetCreate = Type.Object(
  {
    attributeSetName: Type.String({ minLength: 1, maxLength: 255 }),
    skeletonSetId: Type.Optional(
      Type.Integer({ minimum: 1, maximum: INT_MAX, description: 'copy the groups of this set (when groups are not given)' }),
    ),
    groups: Type.Optional(Groups),
  },
  { additionalProperties: false },
);

export const AttributeSetUpdate = Type.Object(
  {
    attributeSetName: Type.Optional(Type.String({ minLength: 1, maxLength: 255 })),
    groups: Type.Optional(Groups),
  },
  { additionalProperties: false },
);

export type ProductAttributeCreateBody = Static<typeof ProductAttributeCreate>;
export type ProductAttributeUpdateBody = Static<typeof ProductAttributeUpdate>;
export type AttributeSetCreateBody = Static<typeof AttributeSetCreate>;
export type AttributeSetUpdateBody = Static<typeof AttributeSetUpdate>;
