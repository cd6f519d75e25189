/**
 * Coupons: a code and the cart price rule it triggers, created, changed and deleted together by the back office
 * (the input rules are in draft.ts). Validation is in validation.ts, usage counting in usage.ts.
 */
import { and, asc, count, desc, eq, sql, type SQL } from 'drizzle-orm';
import { adminWebsiteScope, assertScopeWritable, scopeReadable, scopeWritable, withTx, type Ctx } from '../../platform/context.js';
import { forbidden } from '../../platform/errors.js';
import { likeEscape } from '../../platform/format.js';
import { dec } from '../../platform/money.js';
import type { Page } from '../../platform/pagination.js';
import type { RuleAction } from './discount.js';
import {
  ACTION_OF,
  applyInput,
  assertCodeFree,
  defaultRuleName,
  groupIds,
  invalid,
  mapDuplicate,
  ruleValues,
  cleanCode,
  type Draft,
} from './draft.js';
import { couponNotFound, findById, joined, toDto, validId, type Joined } from './rows.js';
import type { CouponCreateInput, CouponDto, CouponListQueryT, CouponUpdateInput } from './schemas.js';
import { coupons, salesRules } from './tables.js';

/**
 * Before a change of a coupon: one whose rule is for none of a store-limited principal's websites is not found
 * (404); one also for other websites it may read but not change (403).
 */
function assertCouponWritable(ctx: Ctx, row: Joined | undefined, id: number): asserts row is Joined {
  if (!row || !scopeReadable(ctx, row.rule.websiteIds, 'website')) throw couponNotFound(id);
  if (!scopeWritable(ctx, row.rule.websiteIds, 'website')) {
    throw forbidden('This coupon is also for websites this token may not act in', { reason: 'WEBSITE_NOT_ALLOWED' });
  }
}

// ---- CRUD ----

const SORTS: Record<NonNullable<CouponListQueryT['sortBy']>, SQL | undefined> = {
  id: undefined,
  code: sql`lower(${coupons.code})`,
  ruleName: sql`lower(${salesRules.name})`,
  discountAmount: sql`${salesRules.discountAmount}`,
  timesUsed: sql`${coupons.timesUsed}`,
  fromDate: sql`${salesRules.fromDate}`,
  toDate: sql`${salesRules.toDate}`,
  sortOrder: sql`${salesRules.sortOrder}`,
};

/** Newest first, unless sortBy (ascending unless sortDir), then by id. */
export async function listCoupons(ctx: Ctx, q: CouponListQueryT, page: Page): Promise<{ items: CouponDto[]; total: number }> {
  const conds: SQL[] = [];
  if (q.code !== undefined && q.code !== '') conds.push(sql`${coupons.code} ILIKE ${`%${likeEscape(q.code)}%`}`);
  if (q.search?.trim()) {
    const p = `%${likeEscape(q.search.trim())}%`;
    conds.push(sql`(${coupons.code} ILIKE ${p} OR ${salesRules.name} ILIKE ${p})`);
  }
  if (q.discountType) conds.push(eq(salesRules.action, ACTION_OF[q.discountType]));
  const active = q.isActive ?? q.is_active;
  if (active !== undefined) conds.push(eq(salesRules.isActive, active === 'true' || active === '1'));
  // a store-limited principal sees the coupons of its websites
  const scope = adminWebsiteScope(ctx);
  if (scope) conds.push(sql`${salesRules.websiteIds} && ${`{${scope.join(',')}}`}::int[]`);
  const where = conds.length ? and(...conds) : undefined;
  const dir = q.sortDir === 'desc' || (q.sortDir === undefined && q.sortBy === undefined) ? desc : asc;
  const by = SORTS[q.sortBy ?? 'id'];
  const order = by ? [dir(by), dir(coupons.id)] : [dir(coupons.id)];
  const list = await joined(ctx.db)
    .where(where)
    .orderBy(...order)
    .limit(page.size)
    .offset(page.offset);
  const [{ n }] = await ctx.db.select({ n: count() }).from(coupons).innerJoin(salesRules, eq(coupons.ruleId, salesRules.id)).where(where);
  return { items: list.map(toDto), total: n };
}

export async function getCoupon(ctx: Ctx, id: number): Promise<CouponDto> {
  const row = await findById(ctx.db, id);
  if (!row || !scopeReadable(ctx, row.rule.websiteIds, 'website')) throw couponNotFound(id);
  return toDto(row);
}

/** Creates the rule and its coupon in one transaction. */
export async function createCoupon(ctx: Ctx, input: CouponCreateInput): Promise<CouponDto> {
  if (input.discountType === undefined) throw invalid('discountType', 'discountType is required', 'required');
  if (input.discountAmount === undefined) throw invalid('discountAmount', 'discountAmount is required', 'required');
  const code = cleanCode(input.code);
  const base: Draft = {
    code,
    action: 'by_percent',
    discountAmount: dec(0),
    description: null,
    isActive: true,
    usageLimit: null,
    usagePerCustomer: null,
    fromDate: null,
    toDate: null,
    minimumSubtotal: null,
    expirationDate: null,
    websiteIds: [ctx.store.websiteId],
    customerGroupIds: [],
    sortOrder: 0,
    stopRulesProcessing: false,
    discountQty: null,
    discountStep: 0,
    simpleFreeShipping: 0,
    applyToShipping: false,
  };
  const d = await applyInput(ctx, base, input);
  assertScopeWritable(ctx, d.websiteIds, 'websiteIds', 'website');
  if (input.customerGroupIds === undefined) d.customerGroupIds = [...(await groupIds(ctx))].sort((a, b) => a - b);
  try {
    return await withTx(ctx, async (tx) => {
      await assertCodeFree(tx, d.code);
      const [rule] = await tx.db
        .insert(salesRules)
        .values({ ...ruleValues(d), name: defaultRuleName(d), createdAt: ctx.now, updatedAt: ctx.now })
        .returning();
      const [coupon] = await tx.db
        .insert(coupons)
        .values({
          ruleId: rule.id,
          code: d.code,
          usageLimit: d.usageLimit,
          usagePerCustomer: d.usagePerCustomer,
          expirationDate: d.expirationDate,
          createdAt: ctx.now,
        })
        .returning();
      return toDto({ coupon, rule });
    });
  } catch (err) {
    throw mapDuplicate(err, d.code);
  }
}

/** Changes the keys that were sent (the rule's and the coupon's). */
export async function updateCoupon(ctx: Ctx, id: number, input: CouponUpdateInput): Promise<CouponDto> {
  let code = '';
  try {
    return await withTx(ctx, async (tx) => {
      const row = await findById(tx.db, id, true);
      assertCouponWritable(tx, row, id);
      const { coupon: c, rule: r } = row;
      const before: Draft = {
        code: c.code,
        action: r.action as RuleAction,
        discountAmount: dec(r.discountAmount),
        description: r.description,
        isActive: r.isActive,
        usageLimit: c.usageLimit,
        usagePerCustomer: c.usagePerCustomer,
        fromDate: r.fromDate,
        toDate: r.toDate,
        minimumSubtotal: r.minimumSubtotal === null ? null : dec(r.minimumSubtotal),
        expirationDate: c.expirationDate,
        websiteIds: r.websiteIds,
        customerGroupIds: r.customerGroupIds,
        sortOrder: r.sortOrder,
        stopRulesProcessing: r.stopRulesProcessing,
        discountQty: r.discountQty === null ? null : dec(r.discountQty),
        discountStep: r.discountStep,
        simpleFreeShipping: r.simpleFreeShipping,
        applyToShipping: r.applyToShipping,
      };
      const d = await applyInput(tx, before, input);
      if (input.websiteIds !== undefined) assertScopeWritable(tx, d.websiteIds, 'websiteIds', 'website');
      code = d.code;
      if (d.usageLimit !== null && d.usageLimit < c.timesUsed) {
        throw invalid('usageLimit', `usageLimit cannot be below the uses so far (${c.timesUsed})`, 'minimum');
      }
      if (d.code.toLowerCase() !== c.code.toLowerCase()) await assertCodeFree(tx, d.code, c.id);
      // a name derived from the description or code follows them
      const name = r.name === defaultRuleName(before) ? defaultRuleName(d) : r.name;
      const [rule] = await tx.db
        .update(salesRules)
        .set({ ...ruleValues(d), name, updatedAt: ctx.now })
        .where(eq(salesRules.id, r.id))
        .returning();
      const [coupon] = await tx.db
        .update(coupons)
        .set({ code: d.code, usageLimit: d.usageLimit, usagePerCustomer: d.usagePerCustomer, expirationDate: d.expirationDate })
        .where(eq(coupons.id, c.id))
        .returning();
      return toDto({ coupon, rule });
    });
  } catch (err) {
    throw mapDuplicate(err, code);
  }
}

/** Deletes the coupon and its rule (the rule stays while other codes still use it). */
export async function deleteCoupon(ctx: Ctx, id: number): Promise<void> {
  if (!validId(id)) throw couponNotFound(id);
  await withTx(ctx, async (tx) => {
    if (adminWebsiteScope(tx)) assertCouponWritable(tx, await findById(tx.db, id, true), id);
    const [gone] = await tx.db.delete(coupons).where(eq(coupons.id, id)).returning({ ruleId: coupons.ruleId });
    if (!gone) throw couponNotFound(id);
    await tx.db
      .delete(salesRules)
      .where(and(eq(salesRules.id, gone.ruleId), sql`NOT EXISTS (SELECT 1 FROM ${coupons} WHERE ${coupons.ruleId} = ${gone.ruleId})`));
  });
}

// ---- demo ----

export async function seedDemo(ctx: Ctx): Promise<void> {
  await createCoupon(ctx, {
    code: 'WELCOME10',
    discountType: 'percent',
    discountAmount: 10,
    description: '10% off your order',
    websiteIds: [1],
  });
}
