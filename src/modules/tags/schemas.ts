/** Wire shapes of the product tags. */
import { Type, type Static } from 'typebox';
import { PageQuery } from '../../platform/pagination.js';

const Id = (description?: string) => Type.Integer({ minimum: 1, maximum: 2147483647, description });
const Count = (description: string) => Type.Integer({ minimum: 0, description });

export const TAG_STATUSES = ['approved', 'pending', 'disabled'] as const;
export type TagStatus = (typeof TAG_STATUSES)[number];
const Status = Type.Enum([...TAG_STATUSES], { description: 'approved, pending or disabled' });

export const TAG_SORT_FIELDS = ['popularity', 'name', 'productCount', 'customerCount', 'status', 'id'] as const;
export type TagSortField = (typeof TAG_SORT_FIELDS)[number];

/** Most words one post tags a product with, most products one assignment names. */
export const MAX_TAG_TEXT = 1000;
export const MAX_PRODUCT_IDS = 1000;
const BASE_POPULARITY_MAX = 1_000_000_000;

export const Tag = Type.Object({
  id: Type.Integer(),
  name: Type.String(),
  status: Status,
  popularity: Count('uses by customers plus the base popularity, in the store view the figures are of'),
  productCount: Count('products tagged with it there'),
  customerCount: Type.Optional(Count('customers who used it there (staff only)')),
  basePopularity: Type.Optional(Count('the popularity staff gave it in that store view (staff only, when the figures are of one)')),
  storeId: Type.Optional(Type.Integer({ description: 'the store view the figures are of, 0 for every store view (staff only)' })),
  stores: Type.Optional(Type.Array(Type.Integer(), { description: 'store views it is used in (staff only)' })),
  firstCustomerId: Type.Optional(Type.Integer({ description: 'the customer who used it first (staff only)' })),
  firstStoreId: Type.Optional(Type.Integer({ description: 'the store view it was first used in (staff only)' })),
});

export const TaggedProduct = Type.Object({
  productId: Type.Integer(),
  sku: Type.String(),
  name: Type.String({ description: 'in the current store view' }),
  popularity: Count('times the product was tagged with the tag (by customers and staff)'),
  stores: Type.Optional(Type.Array(Type.Integer(), { description: 'store views it is tagged in (staff only)' })),
});

export const CustomerTagProduct = Type.Object({
  productId: Type.Integer(),
  name: Type.String({ description: 'in the current store view' }),
  storeId: Type.Integer({ description: 'the store view it was tagged in' }),
  createdAt: Type.String(),
});

export const CustomerTag = Type.Object({
  id: Type.Integer({ description: 'the tag id' }),
  name: Type.String(),
  status: Status,
  products: Type.Array(CustomerTagProduct, { description: 'what the customer tagged with it, newest first' }),
});

export const TAG_RESULTS = ['new', 'success', 'exist', 'rejected'] as const;
export type TagResult = (typeof TAG_RESULTS)[number];

export const TagSubmission = Type.Object({
  productId: Type.Integer(),
  tags: Type.Array(
    Type.Object({
      id: Type.Integer(),
      name: Type.String(),
      status: Status,
      result: Type.Enum([...TAG_RESULTS], {
        description:
          'new: waits for moderation; success: added to the product; exist: the product had it already; rejected: staff disabled the tag',
      }),
    }),
  ),
});

export const TagSubmit = Type.Object(
  {
    tags: Type.String({
      minLength: 1,
      maxLength: MAX_TAG_TEXT,
      description: "words separated by spaces; 'quoted words' make one tag",
    }),
  },
  { additionalProperties: false },
);

const Name = Type.String({ minLength: 1, maxLength: 255 });
const StoreId = Id('the store view the base popularity, the assignment and the figures answered are of; default the request’s');
const BasePopularity = Type.Integer({ minimum: 0, maximum: BASE_POPULARITY_MAX, description: 'added to the tag’s popularity there' });
const ProductIds = (description: string) => Type.Array(Id(), { maxItems: MAX_PRODUCT_IDS, description });

export const TagCreate = Type.Object(
  {
    name: Name,
    status: Type.Optional(Type.Enum([...TAG_STATUSES], { description: 'default approved' })),
    basePopularity: Type.Optional(BasePopularity),
    storeId: Type.Optional(StoreId),
    productIds: Type.Optional(ProductIds('products to tag in that store view')),
  },
  { additionalProperties: false },
);

export const TagUpdate = Type.Object(
  {
    name: Type.Optional(Name),
    status: Type.Optional(Status),
    basePopularity: Type.Optional(BasePopularity),
    storeId: Type.Optional(StoreId),
  },
  { additionalProperties: false },
);

export const TagProductsUpdate = Type.Object(
  {
    storeId: Type.Optional(StoreId),
    assign: Type.Optional(ProductIds('products to tag in the store view')),
    unassign: Type.Optional(ProductIds('products whose uses of the tag in the store view are removed (customers’ too)')),
  },
  { additionalProperties: false },
);

export const TagListQuery = Type.Object({
  ...PageQuery,
  search: Type.Optional(Type.String({ maxLength: 255, description: 'the name contains (case-insensitive)' })),
  status: Type.Optional(Type.Enum([...TAG_STATUSES], { description: 'staff only' })),
  productId: Type.Optional(Id('only tags used on this product (staff only)')),
  storeId: Type.Optional(
    Type.Integer({ minimum: 0, maximum: 2147483647, description: 'figures of this store view, 0 every one (staff only)' }),
  ),
  sortBy: Type.Optional(Type.Enum([...TAG_SORT_FIELDS], { description: 'default popularity' })),
  sortDir: Type.Optional(Type.Enum(['asc', 'desc'], { description: 'default desc for popularity and counts, asc otherwise' })),
});

export const TagReadQuery = Type.Object({
  storeId: Type.Optional(
    Type.Integer({ minimum: 0, maximum: 2147483647, description: 'figures of this store view, 0 every one (staff only)' }),
  ),
});

export const TagProductsQuery = Type.Object({ ...PageQuery, ...TagReadQuery.properties });
export const PageOnlyQuery = Type.Object({ ...PageQuery });
export const IdParams = Type.Object({ id: Id() });
export const ProductIdParams = Type.Object({ productId: Id() });

export type TagDto = Static<typeof Tag>;
export type TaggedProductDto = Static<typeof TaggedProduct>;
export type CustomerTagDto = Static<typeof CustomerTag>;
export type TagSubmissionDto = Static<typeof TagSubmission>;
export type TagCreateBody = Static<typeof TagCreate>;
export type TagUpdateBody = Static<typeof TagUpdate>;
export type TagProductsBody = Static<typeof TagProductsUpdate>;
export type TagListQueryT = Static<typeof TagListQuery>;
export type TagReadQueryT = Static<typeof TagReadQuery>;
export type TagProductsQueryT = Static<typeof TagProductsQuery>;
