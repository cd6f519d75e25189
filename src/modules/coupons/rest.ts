/** Coupons (each with its own rule): the back office's CRUD and the public validation, for REST and GraphQL. */
import { Type } from 'typebox';
import { access } from '../../platform/auth/access.js';
import { op, type Operation } from '../../platform/operations.js';
import { Coupon, CouponCreate, CouponListQuery, CouponParams, CouponUpdate, CouponValidate, CouponValidation } from './schemas.js';
import * as coupons from './service.js';
import { validateCoupon } from './validation.js';

const tags = ['coupons'];
const shortName = 'Coupon';

type Args = Record<string, unknown>;

/** GraphQL nulls read as "not sent". */
function present(a: Args): Args {
  return Object.fromEntries(Object.entries(a).filter(([, v]) => v !== null && v !== undefined));
}
const nullsDropped = (args: Args, next: (a: Args) => Promise<unknown>) => next(present(args));

/** Maho's list arguments: booleans where the REST query takes true/false strings. */
const ListArgs = Type.Object({
  code: CouponListQuery.properties.code,
  is_active: Type.Optional(Type.Boolean({ description: 'active coupons only (true) or inactive only (false)' })),
  isActive: Type.Optional(Type.Boolean({ description: 'alias of is_active' })),
  page: CouponListQuery.properties.page,
  pageSize: CouponListQuery.properties.pageSize,
  itemsPerPage: CouponListQuery.properties.itemsPerPage,
});

export const operations: Operation[] = [
  op({
    id: 'coupons.list',
    method: 'GET',
    path: '/coupons',
    tags,
    summary: 'Coupons with their rules, newest first (20 a page); filters code (contains) and isActive (alias is_active)',
    access: access.admin('coupons', 'read'),
    shortName,
    query: CouponListQuery,
    kind: 'collection',
    response: Coupon,
    page: { defaultSize: 20, maxSize: 100 },
    graphql: {
      args: ListArgs,
      input: (a) => {
        const { is_active, isActive, ...rest } = present(a);
        const active = is_active ?? isActive;
        return { query: { ...rest, ...(active === undefined ? {} : { isActive: String(active) }) } };
      },
    },
    run: (ctx, { query, page }) => coupons.listCoupons(ctx, query, page),
  }),
  op({
    id: 'coupons.validate',
    method: 'POST',
    path: '/coupons/validate',
    tags,
    summary: 'Check a coupon code (always 201 with isValid and validationMessage; rate limited per IP and customer)',
    access: access.public,
    shortName,
    body: CouponValidate,
    response: CouponValidation,
    status: 201,
    graphql: { name: 'validateCoupon', around: nullsDropped },
    run: (ctx, { body }) => validateCoupon(ctx, body),
  }),
  op({
    id: 'coupons.get',
    method: 'GET',
    path: '/coupons/:id',
    tags,
    summary: 'One coupon with its rule',
    access: access.admin('coupons', 'read'),
    shortName,
    params: CouponParams,
    response: Coupon,
    run: (ctx, { params }) => coupons.getCoupon(ctx, params.id),
  }),
  op({
    id: 'coupons.create',
    method: 'POST',
    path: '/coupons',
    tags,
    summary: 'Create a coupon and its rule',
    access: access.admin('coupons', 'create'),
    shortName,
    body: CouponCreate,
    response: Coupon,
    status: 201,
    graphql: { around: nullsDropped },
    run: (ctx, { body }) => coupons.createCoupon(ctx, body),
  }),
  op({
    id: 'coupons.update',
    method: 'PUT',
    path: '/coupons/:id',
    tags,
    summary: 'Update a coupon and its rule (only the fields sent)',
    access: access.admin('coupons', 'write'),
    shortName,
    params: CouponParams,
    body: CouponUpdate,
    response: Coupon,
    graphql: { around: nullsDropped },
    run: (ctx, { params, body }) => coupons.updateCoupon(ctx, params.id, body),
  }),
  op({
    id: 'coupons.delete',
    method: 'DELETE',
    path: '/coupons/:id',
    tags,
    summary: 'Delete a coupon and its rule',
    access: access.admin('coupons', 'delete'),
    shortName,
    params: CouponParams,
    status: 204,
    run: (ctx, { params }) => coupons.deleteCoupon(ctx, params.id),
  }),
];
