import { Type } from 'typebox';
import { access } from '../../platform/auth/access.js';
import type { RestApp } from '../../platform/module.js';
import { collectionResponse, pageOf, sendCollection } from '../../platform/pagination.js';
import { Coupon, CouponCreate, CouponListQuery, CouponParams, CouponUpdate, CouponValidate, CouponValidation } from './schemas.js';
import * as coupons from './service.js';

const tags = ['coupons'];

export function routes(app: RestApp): void {
  app.get(
    '/coupons',
    {
      schema: {
        operationId: 'coupons.list',
        tags,
        summary: 'Coupons with their rules, newest first (20 a page); filters code (contains) and isActive (alias is_active)',
        querystring: CouponListQuery,
        response: { 200: collectionResponse(Coupon) },
      },
      config: { access: access.admin('coupons', 'read') },
    },
    async (req, reply) => {
      const page = pageOf(req.query, { defaultSize: 20, maxSize: 100 });
      return sendCollection(req, reply, 'Coupon', await coupons.listCoupons(req.ctx, req.query, page), page);
    },
  );
  app.post(
    '/coupons/validate',
    {
      schema: {
        operationId: 'coupons.validate',
        tags,
        summary: 'Check a coupon code (always 201 with isValid and validationMessage; rate limited per IP and customer)',
        body: CouponValidate,
        response: { 201: CouponValidation },
      },
      config: { access: access.public },
    },
    async (req, reply) => reply.code(201).send(await coupons.validateCoupon(req.ctx, req.body)),
  );
  app.get(
    '/coupons/:id',
    {
      schema: { operationId: 'coupons.get', tags, summary: 'One coupon with its rule', params: CouponParams, response: { 200: Coupon } },
      config: { access: access.admin('coupons', 'read') },
    },
    async (req) => coupons.getCoupon(req.ctx, req.params.id),
  );
  app.post(
    '/coupons',
    {
      schema: { operationId: 'coupons.create', tags, summary: 'Create a coupon and its rule', body: CouponCreate, response: { 201: Coupon } },
      config: { access: access.admin('coupons', 'create') },
    },
    async (req, reply) => reply.code(201).send(await coupons.createCoupon(req.ctx, req.body)),
  );
  app.put(
    '/coupons/:id',
    {
      schema: {
        operationId: 'coupons.update',
        tags,
        summary: 'Update a coupon and its rule (only the fields sent)',
        params: CouponParams,
        body: CouponUpdate,
        response: { 200: Coupon },
      },
      config: { access: access.admin('coupons', 'write') },
    },
    async (req) => coupons.updateCoupon(req.ctx, req.params.id, req.body),
  );
  app.delete(
    '/coupons/:id',
    {
      schema: {
        operationId: 'coupons.delete',
        tags,
        summary: 'Delete a coupon and its rule',
        params: CouponParams,
        response: { 204: Type.Null({ description: 'Deleted' }) },
      },
      config: { access: access.admin('coupons', 'delete') },
    },
    async (req, reply) => {
      await coupons.deleteCoupon(req.ctx, req.params.id);
      return reply.code(204).send(null);
    },
  );
}
