/**
 * Wire shapes of categories (GET, POST, PUT /categories). Unknown and read-only keys in a write body are
 * dropped; a value of the wrong type is a 400. Rules needing more than the value (existence, the tree,
 * uniqueness of url keys) are checked by the service.
 */
import { Type, type Static } from 'typebox';
import { PageQuery } from '../../../platform/pagination.js';

const INT_MAX = 2147483647;

const categoryFields = {
  id: Type.Integer(),
  parentId: Type.Optional(Type.Integer({ description: 'absent only on the tree root (id 1)' })),
  name: Type.String(),
  description: Type.Optional(Type.String()),
  urlKey: Type.Optional(Type.String()),
  urlPath: Type.Optional(Type.String({ description: 'read-only: url keys below the store root, slash separated, without suffix' })),
  image: Type.Optional(Type.String({ description: 'full URL' })),
  level: Type.Integer({ description: 'read-only: 0 the tree root, 1 root categories of store groups' }),
  position: Type.Integer({ description: 'order among siblings, from 1' }),
  isActive: Type.Boolean(),
  includeInMenu: Type.Boolean(),
  isAnchor: Type.Boolean(),
  availableSortBy: Type.Optional(Type.Array(Type.String())),
  defaultSortBy: Type.Optional(Type.String()),
  landingPageId: Type.Optional(Type.Integer({ description: 'CMS block shown on the category page' })),
  childrenCount: Type.Integer({ description: 'read-only' }),
  productCount: Type.Integer({ description: 'read-only: products assigned to this category itself' }),
  childrenIds: Type.Array(Type.Integer(), { description: 'read-only, in menu order' }),
  path: Type.String({ description: 'read-only: ids from the tree root, e.g. "1/2/5"' }),
  displayMode: Type.Optional(Type.String({ description: 'PRODUCTS, PAGE or PRODUCTS_AND_PAGE' })),
  metaTitle: Type.Optional(Type.String()),
  metaKeywords: Type.Optional(Type.String()),
  metaDescription: Type.Optional(Type.String()),
  pageLayout: Type.Optional(Type.String()),
  filterPriceRange: Type.Optional(Type.Number()),
  createdAt: Type.String({ description: 'read-only, YYYY-MM-DD HH:MM:SS UTC' }),
  updatedAt: Type.String({ description: 'read-only, YYYY-MM-DD HH:MM:SS UTC' }),
};

/** A category in a list and as a child of another. */
export const CategorySummary = Type.Object(categoryFields);

/** One category (item GET and write replies): with one level of active children. */
export const Category = Type.Object({
  ...categoryFields,
  children: Type.Optional(Type.Array(CategorySummary, { description: 'item reads: the active child categories, one level' })),
});

const Text = (maxLength: number, description?: string) => Type.Optional(Type.Union([Type.String({ maxLength, description }), Type.Null()]));

/** Create and partial update. On create `name` is required. */
export const CategoryWrite = Type.Object(
  {
    name: Text(255, 'store-view value with ?store= on update'),
    parentId: Type.Optional(
      Type.Integer({
        minimum: 1,
        maximum: INT_MAX,
        description: "create: defaults to the store's root category; update: moves the category and its subtree",
      }),
    ),
    description: Text(1_000_000, 'store-view value with ?store= on update'),
    urlKey: Text(255, 'generated from the name when omitted on create; unique among siblings; store-view value with ?store= on update'),
    image: Text(255, 'a file name under media/catalog/category; "" or null clears'),
    position: Type.Optional(Type.Integer({ minimum: 0, maximum: 1_000_000, description: 'place among siblings, 1 first; default last' })),
    isActive: Type.Optional(Type.Boolean({ description: 'default true; store-view value with ?store= on update' })),
    includeInMenu: Type.Optional(Type.Boolean({ description: 'default true' })),
    isAnchor: Type.Optional(Type.Boolean({ description: 'default true: product lists include the sub-categories' })),
    availableSortBy: Type.Optional(
      Type.Union([
        Type.Array(Type.String({ maxLength: 64 }), { maxItems: 50, description: 'attribute codes (position, name, price, ...)' }),
        Type.Null(),
      ]),
    ),
    defaultSortBy: Text(64, 'one of availableSortBy when that is set'),
    landingPageId: Type.Optional(
      Type.Union([Type.Integer({ minimum: 0, maximum: INT_MAX, description: 'CMS block id; 0 or null clears' }), Type.Null()]),
    ),
    displayMode: Text(32, 'PRODUCTS, PAGE or PRODUCTS_AND_PAGE'),
    metaTitle: Text(1024, 'store-view value with ?store= on update'),
    metaKeywords: Text(10_000, 'store-view value with ?store= on update'),
    metaDescription: Text(10_000, 'store-view value with ?store= on update'),
    pageLayout: Text(64),
    filterPriceRange: Type.Optional(Type.Union([Type.Number({ minimum: 0, maximum: 999_999_999_999 }), Type.Null()])),
    productPositions: Type.Optional(
      Type.Record(Type.String(), Type.Integer({ minimum: 0, maximum: INT_MAX }), {
        maxProperties: 10_000,
        description: 'write-only: productId → position; replaces the products assigned to the category',
      }),
    ),
    useDefault: Type.Optional(
      Type.Array(Type.String({ maxLength: 64 }), {
        maxItems: 20,
        description:
          'store-view values to drop (needs ?store=): name, description, urlKey, isActive, metaTitle, metaKeywords, metaDescription',
      }),
    ),
  },
  { additionalProperties: false },
);

export const CategoryParams = Type.Object({ id: Type.Integer({ minimum: 1, maximum: INT_MAX }) });

export const CategoryListQuery = Type.Object({
  ...PageQuery,
  parentId: Type.Optional(Type.Integer({ minimum: 1, maximum: INT_MAX, description: 'direct children of this category' })),
  includeInMenu: Type.Optional(Type.String({ pattern: '^(true|false|1|0)$', description: 'true/1 or false/0' })),
  search: Type.Optional(Type.String({ maxLength: 255, description: 'name contains (any depth below the store root)' })),
  q: Type.Optional(Type.String({ maxLength: 255, description: 'alias of search' })),
});

export type CategoryDto = Static<typeof Category>;
export type CategorySummaryDto = Static<typeof CategorySummary>;
export type CategoryWriteBody = Static<typeof CategoryWrite>;
export type CategoryListQueryT = Static<typeof CategoryListQuery>;
