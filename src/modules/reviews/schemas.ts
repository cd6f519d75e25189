import { DateRangeQuery } from '../../platform/date-range.js';
import { Type, type Static } from 'typebox';
import { PageQuery } from '../../platform/pagination.js';

const Id = (description?: string) => Type.Integer({ minimum: 1, maximum: 2147483647, description });
const Vote = (description: string) => Type.Integer({ minimum: 1, maximum: 5, description });

export const REVIEW_STATUSES = ['approved', 'pending', 'not_approved'] as const;
export type ReviewStatus = (typeof REVIEW_STATUSES)[number];
export const REVIEW_SORT_FIELDS = ['created_at', 'title', 'nickname', 'status', 'product_id'] as const;
const Status = Type.Enum([...REVIEW_STATUSES], { description: 'approved, pending or not_approved' });

export const RatingVote = Type.Object({
  code: Type.String({ description: 'rating code (Quality, Value, Price)' }),
  value: Type.Integer({ description: '1 to 5' }),
  percent: Type.Integer({ description: 'value as a percentage (value × 20)' }),
});

export const Review = Type.Object({
  id: Type.Integer(),
  productId: Type.Integer(),
  productName: Type.Optional(Type.String({ description: 'in the current store view' })),
  title: Type.String(),
  detail: Type.String(),
  nickname: Type.String(),
  rating: Type.Optional(Type.Integer({ description: 'average of the votes, rounded, 1 to 5; absent when the review has no votes' })),
  status: Status,
  createdAt: Type.String(),
  ratings: Type.Array(RatingVote),
  stores: Type.Array(Type.Integer(), { description: 'store view ids the review shows in' }),
});

export const ReviewCreate = Type.Object(
  {
    title: Type.String({ maxLength: 255 }),
    detail: Type.String({ maxLength: 65535 }),
    nickname: Type.String({ maxLength: 255 }),
    rating: Type.Optional(Vote('one vote, 1 to 5, given to every rating code not named in `ratings`')),
    ratings: Type.Optional(
      Type.Record(Type.String(), Vote('1 to 5'), { description: 'votes by rating code, e.g. {"Quality": 4, "Price": 3}' }),
    ),
  },
  { additionalProperties: false },
);

export const ReviewUpdate = Type.Object(
  {
    status: Type.Optional(Status),
    stores: Type.Optional(
      Type.Array(Type.Union([Id('store view id'), Type.String({ minLength: 1, maxLength: 64, description: 'store view code' })]), {
        minItems: 1,
        maxItems: 1000,
        description: 'store views (ids or codes) the review shows in; replaces the current list',
      }),
    ),
  },
  { additionalProperties: false },
);

export const ReviewListQuery = Type.Object({
  ...PageQuery,
  status: Type.Optional(Status),
  productId: Type.Optional(Id('only the reviews of this product')),
  search: Type.Optional(Type.String({ maxLength: 255, description: 'title, text or nickname contains (case-insensitive)' })),
  storeId: Type.Optional(Id('only the reviews shown in this store view')),
  sortBy: Type.Optional(Type.Enum([...REVIEW_SORT_FIELDS], { description: 'default created_at' })),
  sortDir: Type.Optional(Type.Enum(['asc', 'desc'], { description: 'default desc' })),
  ...DateRangeQuery,
});

export const PageOnlyQuery = Type.Object({ ...PageQuery });

export const IdParams = Type.Object({ id: Id() });
export const ProductIdParams = Type.Object({ productId: Id() });

export type ReviewDto = Static<typeof Review>;
export type ReviewCreateBody = Static<typeof ReviewCreate>;
export type ReviewUpdateBody = Static<typeof ReviewUpdate>;
export type ReviewListQueryT = Static<typeof ReviewListQuery>;
export type PageQueryT = Static<typeof PageOnlyQuery>;
