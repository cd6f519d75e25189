/** Product reviews: the storefront list and read, posting, a customer's own list, and moderation. */
import { access } from '../../platform/auth/access.js';
import { op, type Operation } from '../../platform/operations.js';
import { IdParams, PageOnlyQuery, ProductIdParams, Review, ReviewCreate, ReviewListQuery, ReviewUpdate } from './schemas.js';
import * as reviews from './service.js';

const tags = ['reviews'];
const shortName = 'Review';
const page = { defaultSize: 10, maxSize: 100 };

export const operations: Operation[] = [
  op({
    id: 'reviews.listByProduct',
    method: 'GET',
    path: '/products/:productId/reviews',
    tags,
    summary: "A product's approved reviews in the current store view, newest first (10 per page)",
    access: access.public,
    shortName,
    params: ProductIdParams,
    query: PageOnlyQuery,
    kind: 'collection',
    page,
    response: Review,
    graphql: { name: 'productReviews' },
    run: async (ctx, { params, query, page }) => (await reviews.listProductReviews(ctx, params.productId, query, page)).result,
  }),
  op({
    id: 'reviews.create',
    method: 'POST',
    path: '/products/:productId/reviews',
    tags,
    summary: 'Post a review of a product (a customer, or an admin/API principal on nobody’s behalf); it waits for moderation as pending',
    access: access.customerOrAdmin('reviews', 'create'),
    shortName,
    params: ProductIdParams,
    body: ReviewCreate,
    response: Review,
    status: 201,
    graphql: {
      name: 'submitReview',
      // votes as REST sends them ({"Quality": 4}) or as a list of {code, value}
      input: ({ productId, clientMutationId: _c, ratings, ...body }) => ({
        params: { productId },
        body: {
          ...body,
          ...(ratings === undefined || ratings === null
            ? {}
            : {
                ratings: Array.isArray(ratings)
                  ? Object.fromEntries(ratings.map((v: { code?: unknown; value?: unknown } | null) => [String(v?.code), v?.value]))
                  : ratings,
              }),
        },
      }),
    },
    run: (ctx, { params, body }) => reviews.createReview(ctx, params.productId, body),
  }),
  op({
    id: 'reviews.listMine',
    method: 'GET',
    path: '/customers/me/reviews',
    tags,
    summary: "The signed-in customer's reviews in every status, newest first (10 per page)",
    access: access.customer,
    shortName,
    query: PageOnlyQuery,
    kind: 'collection',
    page,
    response: Review,
    graphql: { name: 'myReviews' },
    run: async (ctx, { query, page }) => (await reviews.listMyReviews(ctx, query, page)).result,
  }),
  op({
    id: 'reviews.list',
    method: 'GET',
    path: '/reviews',
    tags,
    summary:
      'The moderation queue: every review, newest first (10 per page); filters status, productId, storeId, search, createdFrom, createdTo; sortBy, sortDir',
    access: access.admin('reviews', 'read'),
    shortName,
    query: ReviewListQuery,
    kind: 'collection',
    page,
    response: Review,
    run: async (ctx, { query, page }) => (await reviews.listReviews(ctx, query, page)).result,
  }),
  op({
    id: 'reviews.get',
    method: 'GET',
    path: '/reviews/:id',
    tags,
    summary: 'A review: approved and shown in the current store view, or any review for a reviews/read principal',
    access: access.public,
    shortName,
    params: IdParams,
    response: Review,
    run: (ctx, { params }) => reviews.getReview(ctx, params.id),
  }),
  op({
    id: 'reviews.update',
    method: 'PUT',
    path: '/reviews/:id',
    tags,
    summary: 'Moderate a review: set its status and/or the store views (ids or codes) it shows in',
    access: access.admin('reviews', 'write'),
    shortName,
    params: IdParams,
    body: ReviewUpdate,
    response: Review,
    run: (ctx, { params, body }) => reviews.updateReview(ctx, params.id, body),
  }),
];
