/** GraphQL for product reviews: the same service functions and access rules as the REST routes. */
import type { IResolvers } from 'mercurius';
import { access } from '../../platform/auth/access.js';
import { resolver, type GraphqlContribution } from '../../platform/graphql.js';
import type { ReviewCreateBody, ReviewListQueryT, ReviewStatus, ReviewUpdateBody } from './schemas.js';
import * as reviews from './service.js';

const typeDefs = `
  type ReviewRating {
    code: String!
    value: Int!
    percent: Int!
  }
  type Review {
    id: Int!
    productId: Int!
    productName: String
    title: String!
    detail: String!
    nickname: String!
    "average of the votes, rounded, 1 to 5; null without votes"
    rating: Int
    "approved, pending or not_approved"
    status: String!
    createdAt: String!
    ratings: [ReviewRating!]!
    "store view ids the review shows in"
    stores: [Int!]!
  }
  type ReviewCollection {
    items: [Review!]!
    totalCount: Int!
  }
  input ReviewVoteInput {
    code: String!
    value: Int!
  }
  input CreateReviewInput {
    title: String!
    detail: String!
    nickname: String!
    "one vote, 1 to 5, for every rating code not named in ratings"
    rating: Int
    ratings: [ReviewVoteInput!]
  }
  input UpdateReviewInput {
    "approved, pending or not_approved"
    status: String
    "store view ids or codes"
    stores: [String!]
  }
  extend type Query {
    productReviews(productId: Int!, page: Int, pageSize: Int): ReviewCollection!
    review(id: Int!): Review!
    myReviews(page: Int, pageSize: Int): ReviewCollection!
    reviews(status: String, productId: Int, page: Int, pageSize: Int): ReviewCollection!
  }
  extend type Mutation {
    createProductReview(productId: Int!, input: CreateReviewInput!): Review!
    updateReview(id: Int!, input: UpdateReviewInput!): Review!
  }
`;

interface PageArgs {
  page?: number | null;
  pageSize?: number | null;
}
interface CreateInput {
  title: string;
  detail: string;
  nickname: string;
  rating?: number | null;
  ratings?: { code: string; value: number }[] | null;
}
interface UpdateInput {
  status?: string | null;
  stores?: string[] | null;
}

/** GraphQL nulls read as "not sent". */
const paging = (a: PageArgs) => ({ page: a.page ?? undefined, pageSize: a.pageSize ?? undefined });
const collection = <T>({ result }: { result: { items: T[]; total: number } }) => ({ items: result.items, totalCount: result.total });

function createBody(i: CreateInput): ReviewCreateBody {
  const body: ReviewCreateBody = { title: i.title, detail: i.detail, nickname: i.nickname };
  if (i.rating !== null && i.rating !== undefined) body.rating = i.rating;
  if (i.ratings) body.ratings = Object.fromEntries(i.ratings.map((v) => [v.code, v.value]));
  return body;
}

function updateBody(i: UpdateInput): ReviewUpdateBody {
  return { status: (i.status ?? undefined) as ReviewStatus | undefined, stores: i.stores ?? undefined };
}

export const reviewsGraphql: GraphqlContribution = {
  typeDefs,
  // `resolver` types its context as GqlContext, which Mercurius's IResolvers does not know (see platform/graphql.ts)
  resolvers: {
    Query: {
      productReviews: resolver<PageArgs & { productId: number }>(access.public, async (ctx, args) =>
        collection(await reviews.listProductReviews(ctx, args.productId, paging(args))),
      ),
      review: resolver<{ id: number }>(access.public, (ctx, args) => reviews.getReview(ctx, args.id)),
      myReviews: resolver<PageArgs>(access.customer, async (ctx, args) => collection(await reviews.listMyReviews(ctx, paging(args)))),
      reviews: resolver<PageArgs & { status?: string | null; productId?: number | null }>(access.admin('reviews', 'read'), async (ctx, args) => {
        const query: ReviewListQueryT = { ...paging(args), status: (args.status ?? undefined) as ReviewStatus | undefined, productId: args.productId ?? undefined };
        return collection(await reviews.listReviews(ctx, query));
      }),
    },
    Mutation: {
      createProductReview: resolver<{ productId: number; input: CreateInput }>(access.customerOrAdmin('reviews', 'create'), (ctx, args) =>
        reviews.createReview(ctx, args.productId, createBody(args.input)),
      ),
      updateReview: resolver<{ id: number; input: UpdateInput }>(access.admin('reviews', 'write'), (ctx, args) =>
        reviews.updateReview(ctx, args.id, updateBody(args.input)),
      ),
    },
  } as IResolvers,
};
