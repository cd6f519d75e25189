/** GraphQL for coupons: the same service functions and access rules as the REST routes. */
import type { IResolvers } from 'mercurius';
import { access } from '../../platform/auth/access.js';
import { resolver, type GraphqlContribution } from '../../platform/graphql.js';
import { pageOf } from '../../platform/pagination.js';
import type { CouponCreateInput, CouponUpdateInput } from './schemas.js';
import * as coupons from './service.js';

const inputFields = `
    description: String
    isActive: Boolean
    usageLimit: Int
    usagePerCustomer: Int
    fromDate: String
    toDate: String
    minimumSubtotal: Float
    expirationDate: String
    websiteIds: [Int!]
    customerGroupIds: [Int!]
    sortOrder: Int
    stopRulesProcessing: Boolean
    discountQty: Float
    "buy_x_get_y: X, the units to buy (>= 1); 1 when a buy_x_get_y coupon has none"
    discountStep: Int
    simpleFreeShipping: Int
    applyToShipping: Boolean
`;

const typeDefs = `
  type Coupon {
    id: Int!
    ruleId: Int!
    ruleName: String!
    code: String!
    discountType: String!
    discountAmount: Float!
    description: String
    isActive: Boolean!
    usageLimit: Int
    usagePerCustomer: Int
    timesUsed: Int!
    fromDate: String
    toDate: String
    minimumSubtotal: Float
    expirationDate: String
    type: Int!
    isPrimary: Boolean!
    createdAt: String!
    websiteIds: [Int!]!
    customerGroupIds: [Int!]!
    sortOrder: Int!
    stopRulesProcessing: Boolean!
    discountQty: Float
    discountStep: Int!
    simpleFreeShipping: Int!
    applyToShipping: Boolean!
  }
  type CouponCollection {
    items: [Coupon!]!
    totalCount: Int!
  }
  type CouponValidation {
    id: Int!
    code: String!
    isValid: Boolean!
    validationMessage: String!
    ruleId: Int
    ruleName: String
    discountType: String
    discountAmount: Float
    discountPreview: JSON
  }
  input CreateCouponInput {
    code: String!
    "percent, fixed, cart_fixed or buy_x_get_y"
    discountType: String!
    discountAmount: Float!
${inputFields}
  }
  input UpdateCouponInput {
    code: String
    discountType: String
    discountAmount: Float
${inputFields}
  }
  extend type Query {
    coupons(code: String, isActive: Boolean, page: Int, pageSize: Int): CouponCollection!
    coupon(id: Int!): Coupon
    validateCoupon(code: String!, cartId: ID): CouponValidation!
  }
  extend type Mutation {
    createCoupon(input: CreateCouponInput!): Coupon!
    updateCoupon(id: Int!, input: UpdateCouponInput!): Coupon!
    deleteCoupon(id: Int!): Boolean!
    validateCoupon(code: String!, cartId: ID): CouponValidation!
  }
`;

/** GraphQL nulls read as "not sent". */
function input<T extends object>(i: Record<string, unknown>): T {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(i)) if (v !== null && v !== undefined) out[k] = v;
  return out as T;
}

interface ValidateArgs {
  code: string;
  cartId?: string | null;
}

const validate = resolver<ValidateArgs>(access.public, (ctx, args) =>
  coupons.validateCoupon(ctx, { code: args.code, cartId: args.cartId ?? undefined }),
);

export const couponsGraphql: GraphqlContribution = {
  typeDefs,
  // `resolver` types its context as GqlContext, which Mercurius's IResolvers does not know (see platform/graphql.ts)
  resolvers: {
    Query: {
      coupons: resolver<{ code?: string | null; isActive?: boolean | null; page?: number | null; pageSize?: number | null }>(
        access.admin('coupons', 'read'),
        async (ctx, args) => {
          const page = pageOf({ page: args.page ?? undefined, pageSize: args.pageSize ?? undefined }, { defaultSize: 20, maxSize: 100 });
          const q = { code: args.code ?? undefined, isActive: args.isActive === null || args.isActive === undefined ? undefined : String(args.isActive) };
          const { items, total } = await coupons.listCoupons(ctx, q, page);
          return { items, totalCount: total };
        },
      ),
      coupon: resolver<{ id: number }>(access.admin('coupons', 'read'), (ctx, args) => coupons.getCoupon(ctx, args.id)),
      validateCoupon: validate,
    },
    Mutation: {
      createCoupon: resolver<{ input: Record<string, unknown> }>(access.admin('coupons', 'create'), (ctx, args) =>
        coupons.createCoupon(ctx, input<CouponCreateInput>(args.input)),
      ),
      updateCoupon: resolver<{ id: number; input: Record<string, unknown> }>(access.admin('coupons', 'write'), (ctx, args) =>
        coupons.updateCoupon(ctx, args.id, input<CouponUpdateInput>(args.input)),
      ),
      deleteCoupon: resolver<{ id: number }>(access.admin('coupons', 'delete'), async (ctx, args) => {
        await coupons.deleteCoupon(ctx, args.id);
        return true;
      }),
      validateCoupon: validate,
    },
  } as IResolvers,
};
