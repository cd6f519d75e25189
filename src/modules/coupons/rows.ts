/**
 * A coupon as stored (the coupon row joined with its cart price rule), read by id or code, and its two shapes:
 * the wire DTO and the rule the discount pipeline applies.
 */
import { eq, sql } from 'drizzle-orm';
import type { Db } from '../../platform/db.js';
import { notFound } from '../../platform/errors.js';
import { compact, wireDate, wireDateTime } from '../../platform/format.js';
import { dec, toWire } from '../../platform/money.js';
import type { CartRule, RuleAction } from './discount.js';
import type { CouponDto, DiscountType } from './schemas.js';
import { coupons, salesRules } from './tables.js';

export const INT_MAX = 2147483647;

export const TYPE_OF: Record<string, DiscountType> = {
  by_percent: 'percent',
  by_fixed: 'fixed',
  cart_fixed: 'cart_fixed',
  buy_x_get_y: 'buy_x_get_y',
};

export const MESSAGES = {
  notFound: 'Coupon code not found',
  inactive: 'Coupon is not active',
  notYetActive: 'Coupon is not yet active',
  expired: 'Coupon has expired',
  limit: 'Coupon usage limit reached',
  store: 'Coupon is not valid for this store',
  group: 'Coupon is not valid for your customer group',
  valid: 'Coupon is valid',
} as const;

export type CouponRow = typeof coupons.$inferSelect;
export type RuleRow = typeof salesRules.$inferSelect;
export interface Joined {
  coupon: CouponRow;
  rule: RuleRow;
}

/** What judging a coupon for a cart and applying its rule read of a coupon and its rule (a Joined, or the cart's own read of it). */
export interface CouponTerms {
  coupon: Pick<CouponRow, 'id' | 'code' | 'usageLimit' | 'usagePerCustomer' | 'timesUsed' | 'expirationDate'>;
  rule: Pick<
    RuleRow,
    | 'id'
    | 'name'
    | 'isActive'
    | 'fromDate'
    | 'toDate'
    | 'websiteIds'
    | 'customerGroupIds'
    | 'action'
    | 'discountAmount'
    | 'discountQty'
    | 'discountStep'
    | 'minimumSubtotal'
    | 'simpleFreeShipping'
    | 'applyToShipping'
  >;
}

export function toDto({ coupon: c, rule: r }: Joined): CouponDto {
  return compact({
    id: c.id,
    ruleId: r.id,
    ruleName: r.name,
    code: c.code,
    discountType: TYPE_OF[r.action] ?? r.action,
    discountAmount: toWire(r.discountAmount),
    description: r.description,
    isActive: r.isActive,
    usageLimit: c.usageLimit,
    usagePerCustomer: c.usagePerCustomer,
    timesUsed: c.timesUsed,
    fromDate: wireDate(r.fromDate),
    toDate: wireDate(r.toDate),
    minimumSubtotal: r.minimumSubtotal === null ? null : toWire(r.minimumSubtotal),
    expirationDate: wireDateTime(c.expirationDate),
    type: c.type,
    isPrimary: c.isPrimary,
    createdAt: wireDateTime(c.createdAt) ?? '',
    websiteIds: r.websiteIds,
    customerGroupIds: r.customerGroupIds,
    sortOrder: r.sortOrder,
    stopRulesProcessing: r.stopRulesProcessing,
    discountQty: r.discountQty === null ? null : toWire(r.discountQty),
    discountStep: r.discountStep,
    simpleFreeShipping: r.simpleFreeShipping,
    applyToShipping: r.applyToShipping,
  }) as CouponDto;
}

export function toCartRule({ coupon: c, rule: r }: CouponTerms): CartRule {
  return {
    couponId: c.id,
    ruleId: r.id,
    code: c.code,
    ruleName: r.name,
    action: r.action as RuleAction,
    discountAmount: dec(r.discountAmount),
    discountQty: r.discountQty === null ? null : dec(r.discountQty),
    discountStep: r.discountStep,
    minimumSubtotal: r.minimumSubtotal === null ? null : dec(r.minimumSubtotal),
    simpleFreeShipping: r.simpleFreeShipping,
    applyToShipping: r.applyToShipping,
  };
}

export function joined(db: Db) {
  return db.select({ coupon: coupons, rule: salesRules }).from(coupons).innerJoin(salesRules, eq(coupons.ruleId, salesRules.id));
}

export function validId(id: number): boolean {
  return Number.isInteger(id) && id >= 0 && id <= INT_MAX;
}

export async function findById(db: Db, id: number, forUpdate = false): Promise<Joined | undefined> {
  if (!validId(id)) return undefined;
  const q = joined(db).where(eq(coupons.id, id));
  const [row] = forUpdate ? await q.for('update') : await q;
  return row;
}

export async function findByCode(db: Db, code: string): Promise<Joined | undefined> {
  const [row] = await joined(db)
    .where(sql`lower(${coupons.code}) = lower(${code})`)
    .limit(1);
  return row;
}

export const couponNotFound = (id: number) => notFound(`Coupon not found: ${id}`, { reason: 'COUPON_NOT_FOUND' });
