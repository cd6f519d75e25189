import { Type, type Static } from 'typebox';
import { PageQuery } from '../../../platform/pagination.js';

const INT_MAX = 2147483647;

export const ATTRIBUTE_SORT_FIELDS = ['code', 'label', 'frontend_input', 'scope', 'position'] as const;
export type AttributeSortField = (typeof ATTRIBUTE_SORT_FIELDS)[number];

export const AttributeOption = Type.Object({
  label: Type.String(),
  value: Type.String({ description: 'the option id (or the fixed value of a built-in list), as a string' }),
});

export const ProductAttribute = Type.Object({
  id: Type.Integer(),
  attributeCode: Type.String(),
  frontendLabel: Type.String(),
  frontendInput: Type.String({ description: 'text, textarea, select, multiselect, boolean, date, price, weight, media_image, gallery' }),
  backendType: Type.String({ description: 'varchar, text, int, decimal, datetime, static' }),
  scope: Type.String({ description: 'global, website or store' }),
  isGlobal: Type.Integer({ description: '0 store, 1 global, 2 website' }),
  isFilterable: Type.Integer({ description: '0 no, 1 filterable with results, 2 filterable without results' }),
  defaultValue: Type.Optional(Type.String()),
  applyTo: Type.Array(Type.String(), { description: 'product types; empty: all' }),
  frontendClass: Type.Optional(Type.String()),
  note: Type.Optional(Type.String()),
  position: Type.Integer(),
  options: Type.Array(AttributeOption),
  isRequired: Type.Boolean(),
  isUserDefined: Type.Boolean(),
  isUnique: Type.Boolean(),
  isSearchable: Type.Boolean(),
  isFilterableInSearch: Type.Boolean(),
  isComparable: Type.Boolean(),
  isVisibleOnFront: Type.Boolean(),
  isHtmlAllowedOnFront: Type.Boolean(),
  isUsedForPriceRules: Type.Boolean(),
  usedInProductListing: Type.Boolean(),
  usedForSortBy: Type.Boolean(),
  isVisibleInAdvancedSearch: Type.Boolean(),
  isWysiwygEnabled: Type.Boolean(),
  isConfigurable: Type.Boolean(),
});

export const AttributeSetGroup = Type.Object({
  name: Type.String(),
  sortOrder: Type.Integer(),
  attributes: Type.Array(Type.Object({ code: Type.String(), sortOrder: Type.Integer() })),
});

export const AttributeSet = Type.Object({
  id: Type.Integer(),
  attributeSetName: Type.String(),
  attributeCodes: Type.Array(Type.String(), { description: 'every attribute of the set, in group order' }),
  groups: Type.Array(AttributeSetGroup),
});

export const IdParams = Type.Object({ id: Type.Integer({ minimum: 1, maximum: INT_MAX }) });

export const ProductAttributeListQuery = Type.Object({
  ...PageQuery,
  search: Type.Optional(Type.String({ maxLength: 255, description: 'part of the code or label, case-insensitive' })),
  q: Type.Optional(Type.String({ maxLength: 255, description: 'alias of search' })),
  sortBy: Type.Optional(Type.Enum([...ATTRIBUTE_SORT_FIELDS], { description: 'default code' })),
  sortDir: Type.Optional(Type.Enum(['asc', 'desc'], { description: 'default asc' })),
});

export const AttributeSetListQuery = Type.Object(PageQuery);

export type ProductAttributeDto = Static<typeof ProductAttribute>;
export type AttributeOptionDto = Static<typeof AttributeOption>;
export type AttributeSetDto = Static<typeof AttributeSet>;
