import { access } from '../../platform/auth/access.js';
import type { RestApp } from '../../platform/module.js';
import { collectionResponse, sendCollection } from '../../platform/pagination.js';
import { IdParams, PageOnlyQuery, ProductIdParams, Review, ReviewCreate, ReviewListQuery, ReviewUpdate } from './schemas.js';
import * as reviews from './service.js';

const tags = ['reviews'];

export function routes(app: RestApp): void {
  app.get(
    '/products/:productId/reviews',
    {
      schema: {
        operationId: 'reviews.listByProduct',
        tags,
        summary: "A product's approved reviews in the current store view, newest first (10 per page)",
        params: ProductIdParams,
        querystring: PageOnlyQuery,
        response: { 200: collectionResponse(Review) },
      },
      config: { access: access.public },
    },
    async (req, reply) => {
      const { result, page } = await reviews.listProductReviews(req.ctx, req.params.productId, req.query);
      return sendCollection(req, reply, 'Review', result, page);
    },
  );
  app.post(
    '/products/:productId/reviews',
    {
      schema: {
        operationId: 'reviews.create',
        tags,
        summary:
          'Post a review of a product (a customer, or an admin/API principal on nobody’s behalf); it waits for moderation as pending',
        params: ProductIdParams,
        body: ReviewCreate,
        response: { 201: Review },
      },
      config: { access: access.customerOrAdmin('reviews', 'create') },
    },
    async (req, reply) => reply.code(201).send(await reviews.createReview(req.ctx, req.params.productId, req.body)),
  );
  app.get(
    '/customers/me/reviews',
    {
      schema: {
        operationId: 'reviews.listMine',
        tags,
        summary: "The signed-in customer's reviews in every status, newest first (10 per page)",
        querystring: PageOnlyQuery,
        response: { 200: collectionResponse(Review) },
      },
      config: { access: access.customer },
    },
    async (req, reply) => {
      const { result, page } = await reviews.listMyReviews(req.ctx, req.query);
      return sendCollection(req, reply, 'Review', result, page);
    },
  );
  app.get(
    '/reviews',
    {
      schema: {
        operationId: 'reviews.list',
        tags,
        summary: 'The moderation queue: every review, newest first (10 per page); filters status, productId',
        querystring: ReviewListQuery,
        response: { 200: collectionResponse(Review) },
      },
      config: { access: access.admin('reviews', 'read') },
    },
    async (req, reply) => {
      const { result, page } = await reviews.listReviews(req.ctx, req.query);
      return sendCollection(req, reply, 'Review', result, page);
    },
  );
  app.get(
    '/reviews/:id',
    {
      schema: {
        operationId: 'reviews.get',
        tags,
        summary: 'A review: approved and shown in the current store view, or any review for a reviews/read principal',
        params: IdParams,
        response: { 200: Review },
      },
      config: { access: access.public },
    },
    async (req) => reviews.getReview(req.ctx, req.params.id),
  );
  app.put(
    '/reviews/:id',
    {
      schema: {
        operationId: 'reviews.update',
        tags,
        summary: 'Moderate a review: set its status and/or the store views (ids or codes) it shows in',
        params: IdParams,
        body: ReviewUpdate,
        response: { 200: Review },
      },
      config: { access: access.admin('reviews', 'write') },
    },
    async (req) => reviews.updateReview(req.ctx, req.params.id, req.body),
  );
}
