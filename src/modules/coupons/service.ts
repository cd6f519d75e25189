/**
 * Coupons: a code and the cart price rule it triggers, created, changed and deleted together. Validation
 * (POST /coupons/validate, GraphQL validateCoupon, and the carts module through couponForCart) runs one
 * set of checks in a fixed order; usage is counted by consumeCoupon / releaseCoupon with conditional
 * statements, so that concurrent orders can never use a code more often than its limits allow.
 */
import { and, count, desc, eq, ne, sql, type SQL } from 'drizzle-orm';
import { adminWebsiteScope, assertScopeWritable, scopeReadable, scopeWritable, withTx, type Ctx } from '../../platform/context.js';
import { rows, type Db } from '../../platform/db.js';
import { badRequest, forbidden, fromDatabaseError, notFound, type AppError } from '../../platform/errors.js';
import { compact, isValidDate, likeEscape, wireDate, wireDateTime } from '../../platform/format.js';
import { dec, toWire, type Decimal } from '../../platform/money.js';
import type { Page } from '../../platform/pagination.js';
import { configuredRule } from '../../platform/rate-limit.js';
import { declareDefaults } from '../../platform/settings.js';
import { listCustomerGroups, NOT_LOGGED_IN_GROUP } from '../customers/groups-service.js';
import { getMe } from '../customers/service.js';
import type { CartRule, RuleAction } from './discount.js';
import {
  MAX_AMOUNT,
  type CouponCreateInput,
  type CouponDto,
  type CouponListQueryT,
  type CouponUpdateInput,
  type CouponValidateInput,
  type CouponValidationDto,
  type DiscountType,
} from './schemas.js';
import { couponUsages, coupons, salesRules } from './tables.js';

export { computeDiscount, type CartRule, type DiscountLine, type DiscountOptions, type DiscountResult, type RuleAction } from './discount.js';

declareDefaults({
  /** validation attempts per IP (and per customer) a minute; also cart coupon applies of non-backend callers */
  'api/rate_limit/coupon_validate': 20,
});

const INT_MAX = 2147483647;
const CODE_RE = /^[A-Za-z0-9_-]{3,64}$/;

const ACTION_OF: Record<DiscountType, RuleAction> = { percent: 'by_percent', fixed: 'by_fixed', cart_fixed: 'cart_fixed', buy_x_get_y: 'buy_x_get_y' };
const TYPE_OF: Record<string, DiscountType> = { by_percent: 'percent', by_fixed: 'fixed', cart_fixed: 'cart_fixed', buy_x_get_y: 'buy_x_get_y' };

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

type CouponRow = typeof coupons.$inferSelect;
type RuleRow = typeof salesRules.$inferSelect;
interface Joined {
  coupon: CouponRow;
  rule: RuleRow;
}

// ---- wire mapping ----

function toDto({ coupon: c, rule: r }: Joined): CouponDto {
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

function toCartRule({ coupon: c, rule: r }: Joined): CartRule {
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

// ---- input ----

/** Everything a create or update decides, before it is written. */
interface Draft {
  code: string;
  action: RuleAction;
  discountAmount: Decimal;
  description: string | null;
  isActive: boolean;
  usageLimit: number | null;
  usagePerCustomer: number | null;
  fromDate: string | null;
  toDate: string | null;
  minimumSubtotal: Decimal | null;
  expirationDate: Date | null;
  websiteIds: number[];
  customerGroupIds: number[];
  sortOrder: number;
  stopRulesProcessing: boolean;
  discountQty: Decimal | null;
  discountStep: number;
  simpleFreeShipping: number;
  applyToShipping: boolean;
}

function invalid(field: string, message: string, constraint = 'invalid', reason = 'VALIDATION_FAILED') {
  return badRequest(message, { reason, details: { field, constraint } });
}

function cleanCode(v: unknown): string {
  const code = typeof v === 'string' ? v.trim() : '';
  if (!code) throw invalid('code', 'code is required', 'required');
  if (!CODE_RE.test(code)) throw invalid('code', 'code must be 3 to 64 characters of letters, digits, "_" and "-"', 'pattern');
  return code;
}

function amount(field: string, v: unknown, opts: { positive?: boolean } = {}): Decimal {
  if (typeof v !== 'number' || !Number.isFinite(v)) throw invalid(field, `${field} must be a number`, 'type');
  if (opts.positive ? v <= 0 : v < 0) throw invalid(field, `${field} must be ${opts.positive ? 'greater than 0' : 'at least 0'}`, 'minimum');
  if (v > MAX_AMOUNT) throw invalid(field, `${field} must be at most ${MAX_AMOUNT}`, 'maximum');
  return dec(v);
}

function limit(field: string, v: number | null): number | null {
  if (v === null) return null;
  if (!Number.isInteger(v) || v < 1 || v > INT_MAX) throw invalid(field, `${field} must be a whole number of at least 1, or null`, 'minimum');
  return v;
}

function calendarDate(field: string, v: string | null): string | null {
  if (v === null || v.trim() === '') return null;
  const d = v.trim();
  if (!isValidDate(d)) throw invalid(field, `${field} must be a date YYYY-MM-DD`, 'format');
  return d;
}

function expiration(v: string | null): Date | null {
  if (v === null || v.trim() === '') return null;
  const s = v.trim();
  const m = /^(\d{4}-\d{2}-\d{2})(?:[ T](\d{2}):(\d{2})(?::(\d{2}))?(?:\.\d+)?Z?)?$/.exec(s);
  if (!m || !isValidDate(m[1]) || (m[2] !== undefined && (Number(m[2]) > 23 || Number(m[3]) > 59 || Number(m[4] ?? 0) > 59))) {
    throw invalid('expirationDate', 'expirationDate must be YYYY-MM-DD or YYYY-MM-DD HH:MM:SS (UTC)', 'format');
  }
  return new Date(`${m[1]}T${m[2] ?? '00'}:${m[3] ?? '00'}:${m[4] ?? '00'}Z`);
}

function ids(field: string, list: number[], known: Set<number>, what: string): number[] {
  const out = [...new Set(list)];
  if (!out.length) throw invalid(field, `${field} must name at least one ${what}`, 'minItems');
  const unknown = out.filter((id) => !known.has(id));
  if (unknown.length) throw invalid(field, `Unknown ${what} id: ${unknown.join(', ')}`, 'exists', field === 'websiteIds' ? 'UNKNOWN_WEBSITE' : 'UNKNOWN_CUSTOMER_GROUP');
  return out.sort((a, b) => a - b);
}

async function groupIds(ctx: Ctx): Promise<Set<number>> {
  return new Set((await listCustomerGroups(ctx)).items.map((g) => g.id));
}

function websiteIdSet(ctx: Ctx): Set<number> {
  return new Set(ctx.app.settings.allWebsites().map((w) => w.id));
}

/** Applies the keys that were sent to `base`, each checked on its own, then the rules across fields. */
async function applyInput(ctx: Ctx, base: Draft, input: CouponUpdateInput): Promise<Draft> {
  const d: Draft = { ...base };
  if (input.code !== undefined) d.code = cleanCode(input.code);
  if (input.discountType !== undefined) {
    const action = ACTION_OF[input.discountType];
    if (!action) throw invalid('discountType', 'discountType must be percent, fixed, cart_fixed or buy_x_get_y', 'enum');
    d.action = action;
  }
  if (input.discountAmount !== undefined) d.discountAmount = amount('discountAmount', input.discountAmount, { positive: true });
  if (input.description !== undefined) d.description = input.description === null || input.description.trim() === '' ? null : input.description.trim();
  if (input.isActive !== undefined) d.isActive = input.isActive;
  if (input.usageLimit !== undefined) d.usageLimit = limit('usageLimit', input.usageLimit);
  if (input.usagePerCustomer !== undefined) d.usagePerCustomer = limit('usagePerCustomer', input.usagePerCustomer);
  if (input.fromDate !== undefined) d.fromDate = calendarDate('fromDate', input.fromDate);
  if (input.toDate !== undefined) d.toDate = calendarDate('toDate', input.toDate);
  if (input.minimumSubtotal !== undefined) d.minimumSubtotal = input.minimumSubtotal === null ? null : amount('minimumSubtotal', input.minimumSubtotal);
  if (input.expirationDate !== undefined) d.expirationDate = expiration(input.expirationDate);
  if (input.websiteIds !== undefined) d.websiteIds = ids('websiteIds', input.websiteIds, websiteIdSet(ctx), 'website');
  if (input.customerGroupIds !== undefined) d.customerGroupIds = ids('customerGroupIds', input.customerGroupIds, await groupIds(ctx), 'customer group');
  if (input.sortOrder !== undefined) d.sortOrder = input.sortOrder;
  if (input.stopRulesProcessing !== undefined) d.stopRulesProcessing = input.stopRulesProcessing;
  if (input.discountQty !== undefined) {
    const q = input.discountQty === null ? null : amount('discountQty', input.discountQty);
    d.discountQty = q && q.gt(0) ? q : null;
  }
  if (input.discountStep !== undefined) {
    if (!Number.isInteger(input.discountStep) || input.discountStep < 0) throw invalid('discountStep', 'discountStep must be a whole number of at least 0', 'minimum');
    d.discountStep = input.discountStep;
  }
  if (input.simpleFreeShipping !== undefined) {
    if (![0, 1, 2].includes(input.simpleFreeShipping)) throw invalid('simpleFreeShipping', 'simpleFreeShipping must be 0, 1 or 2', 'enum');
    d.simpleFreeShipping = input.simpleFreeShipping;
  }
  if (input.applyToShipping !== undefined) d.applyToShipping = input.applyToShipping;

  if (d.action === 'by_percent' && d.discountAmount.gt(100)) throw invalid('discountAmount', 'A percent discount is at most 100', 'maximum');
  if (d.action === 'buy_x_get_y') {
    // X is 1 (buy one, get Y) when the coupon has none and none was sent; a step sent as 0 is refused
    if (d.discountStep < 1 && input.discountStep === undefined) d.discountStep = 1;
    if (d.discountStep < 1) throw invalid('discountStep', 'buy_x_get_y needs discountStep (X, the units to buy) of at least 1', 'minimum');
    if (!d.discountAmount.isInteger() || d.discountAmount.lt(1)) {
      throw invalid('discountAmount', 'buy_x_get_y needs discountAmount (Y, the free units) to be a whole number of at least 1', 'integer');
    }
  }
  if (d.fromDate && d.toDate && d.fromDate > d.toDate) throw invalid('toDate', 'toDate must not be before fromDate', 'range');
  return d;
}

function defaultRuleName(d: { description: string | null; code: string }): string {
  return d.description || `Coupon: ${d.code}`;
}

function ruleValues(d: Draft) {
  return {
    description: d.description,
    isActive: d.isActive,
    fromDate: d.fromDate,
    toDate: d.toDate,
    websiteIds: d.websiteIds,
    customerGroupIds: d.customerGroupIds,
    action: d.action,
    discountAmount: d.discountAmount.toFixed(),
    discountQty: d.discountQty === null ? null : d.discountQty.toFixed(),
    discountStep: d.discountStep,
    minimumSubtotal: d.minimumSubtotal === null ? null : d.minimumSubtotal.toFixed(),
    sortOrder: d.sortOrder,
    stopRulesProcessing: d.stopRulesProcessing,
    simpleFreeShipping: d.simpleFreeShipping,
    applyToShipping: d.applyToShipping,
  };
}

function duplicate(code: string) {
  return badRequest(`Coupon code "${code}" already exists`, { error: 'duplicate_coupon', reason: 'DUPLICATE_COUPON', details: { field: 'code' } });
}

async function assertCodeFree(ctx: Ctx, code: string, exceptId?: number): Promise<void> {
  const same = sql`lower(${coupons.code}) = lower(${code})`;
  const [dup] = await ctx.db
    .select({ id: coupons.id })
    .from(coupons)
    .where(exceptId === undefined ? same : and(same, ne(coupons.id, exceptId)))
    .limit(1);
  if (dup) throw duplicate(code);
}

/** A unique-index violation (two requests creating the same code at once) reads as the duplicate it is. */
function mapDuplicate(err: unknown, code: string): unknown {
  const db = fromDatabaseError(err);
  if (db?.reason === 'DUPLICATE' && db.details?.constraint === 'coupons_code_uq') return duplicate(code);
  return err;
}

function joined(db: Db) {
  return db.select({ coupon: coupons, rule: salesRules }).from(coupons).innerJoin(salesRules, eq(coupons.ruleId, salesRules.id));
}

function validId(id: number): boolean {
  return Number.isInteger(id) && id >= 0 && id <= INT_MAX;
}

async function findById(db: Db, id: number, forUpdate = false): Promise<Joined | undefined> {
  if (!validId(id)) return undefined;
  const q = joined(db).where(eq(coupons.id, id));
  const [row] = forUpdate ? await q.for('update') : await q;
  return row;
}

const couponNotFound = (id: number) => notFound(`Coupon not found: ${id}`, { reason: 'COUPON_NOT_FOUND' });

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

export async function listCoupons(ctx: Ctx, q: CouponListQueryT, page: Page): Promise<{ items: CouponDto[]; total: number }> {
  const conds: SQL[] = [];
  if (q.code !== undefined && q.code !== '') conds.push(sql`${coupons.code} ILIKE ${`%${likeEscape(q.code)}%`}`);
  const active = q.isActive ?? q.is_active;
  if (active !== undefined) conds.push(eq(salesRules.isActive, active === 'true' || active === '1'));
  // a store-limited principal sees the coupons of its websites
  const scope = adminWebsiteScope(ctx);
  if (scope) conds.push(sql`${salesRules.websiteIds} && ${`{${scope.join(',')}}`}::int[]`);
  const where = conds.length ? and(...conds) : undefined;
  const list = await joined(ctx.db).where(where).orderBy(desc(coupons.id)).limit(page.size).offset(page.offset);
  const [{ n }] = await ctx.db
    .select({ n: count() })
    .from(coupons)
    .innerJoin(salesRules, eq(coupons.ruleId, salesRules.id))
    .where(where);
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

// ---- validation ----

export interface CouponCaller {
  customerId: number | null;
  /** null: not checked (admin callers) */
  customerGroupId: number | null;
  websiteId: number;
}

type Verdict = { ok: true; rule: CartRule } | { ok: false; message: string };

async function findByCode(db: Db, code: string): Promise<Joined | undefined> {
  const [row] = await joined(db).where(sql`lower(${coupons.code}) = lower(${code})`).limit(1);
  return row;
}

/** The checks in their order; the per-customer count is read only when it can decide. */
async function judge(ctx: Ctx, row: Joined | undefined, who: CouponCaller): Promise<Verdict> {
  if (!row) return { ok: false, message: MESSAGES.notFound };
  const { coupon: c, rule: r } = row;
  if (!r.isActive) return { ok: false, message: MESSAGES.inactive };
  const today = ctx.now.toISOString().slice(0, 10);
  if (r.fromDate && wireDate(r.fromDate)! > today) return { ok: false, message: MESSAGES.notYetActive };
  if ((r.toDate && wireDate(r.toDate)! < today) || (c.expirationDate && c.expirationDate.getTime() <= ctx.now.getTime())) {
    return { ok: false, message: MESSAGES.expired };
  }
  if (c.usageLimit !== null && c.timesUsed >= c.usageLimit) return { ok: false, message: MESSAGES.limit };
  if (who.customerId !== null && c.usagePerCustomer !== null) {
    const [u] = await ctx.db
      .select({ n: couponUsages.timesUsed })
      .from(couponUsages)
      .where(and(eq(couponUsages.couponId, c.id), eq(couponUsages.customerId, who.customerId)));
    if (u && u.n >= c.usagePerCustomer) return { ok: false, message: MESSAGES.limit };
  }
  if (!r.websiteIds.includes(who.websiteId)) return { ok: false, message: MESSAGES.store };
  if (who.customerGroupId !== null && !r.customerGroupIds.includes(who.customerGroupId)) return { ok: false, message: MESSAGES.group };
  return { ok: true, rule: toCartRule(row) };
}

/**
 * The rule a code gives this cart's owner, or why it gives none (the validation messages). The code is
 * looked up case-insensitively; `rule.code` is the stored spelling.
 */
export async function couponForCart(
  ctx: Ctx,
  code: string,
  who: { customerId: number | null; customerGroupId: number; websiteId: number },
): Promise<{ ok: true; rule: CartRule } | { ok: false; message: string }> {
  const c = typeof code === 'string' ? code.trim() : '';
  if (!c || c.length > 255) return { ok: false, message: MESSAGES.notFound };
  return judge(ctx, await findByCode(ctx.db, c), who);
}

/** Counts one coupon attempt of a non-backend caller (per IP, and per customer); 429 past the limit. */
export async function limitCouponAttempts(ctx: Ctx): Promise<void> {
  if (ctx.actor.kind === 'admin') return;
  const rule = configuredRule(ctx.app.settings, 'coupon_validate', 60, ctx.store.storeId);
  await ctx.app.limiter.consume(rule, `ip:${ctx.ip}`);
  if (ctx.actor.kind === 'customer') await ctx.app.limiter.consume(rule, `customer:${ctx.actor.customerId}`);
}

/** Builds the discount preview of a valid code on a cart; the carts module registers it. */
export type DiscountPreviewProvider = (ctx: Ctx, cartId: number | string, rule: CartRule) => Promise<unknown>;
let previewProvider: DiscountPreviewProvider | undefined;

export function setDiscountPreviewProvider(fn: DiscountPreviewProvider | undefined): void {
  previewProvider = fn;
}

/**
 * POST /coupons/validate and GraphQL validateCoupon. Anonymous callers learn only whether the code is valid;
 * customers and admins also get the rule and, with a cart, the discount preview.
 */
export async function validateCoupon(ctx: Ctx, input: CouponValidateInput): Promise<CouponValidationDto> {
  const code = typeof input.code === 'string' ? input.code.trim() : '';
  if (!code) throw invalid('code', 'code is required', 'required');
  await limitCouponAttempts(ctx);
  const actor = ctx.actor;
  let who: CouponCaller;
  if (actor.kind === 'customer') {
    const me = await getMe(ctx);
    who = { customerId: me.id, customerGroupId: me.groupId, websiteId: ctx.store.websiteId };
  } else if (actor.kind === 'anonymous') {
    who = { customerId: null, customerGroupId: NOT_LOGGED_IN_GROUP, websiteId: ctx.store.websiteId };
  } else {
    who = { customerId: null, customerGroupId: null, websiteId: ctx.store.websiteId };
  }
  const row = code.length > 255 ? undefined : await findByCode(ctx.db, code);
  const verdict = await judge(ctx, row, who);
  const validationMessage = verdict.ok ? MESSAGES.valid : verdict.message;
  if (actor.kind === 'anonymous' || !row) return { id: 0, code, isValid: verdict.ok, validationMessage };
  const out: CouponValidationDto = {
    id: row.coupon.id,
    code: row.coupon.code,
    isValid: verdict.ok,
    validationMessage,
    ruleId: row.rule.id,
    ruleName: row.rule.name,
    discountType: TYPE_OF[row.rule.action] ?? row.rule.action,
    discountAmount: toWire(row.rule.discountAmount),
  };
  if (verdict.ok && input.cartId !== undefined && previewProvider) {
    const preview = await previewProvider(ctx, input.cartId, verdict.rule);
    if (preview !== undefined && preview !== null) out.discountPreview = preview;
  }
  return out;
}

// ---- usage ----

function limitReached() {
  return badRequest(MESSAGES.limit, { error: 'invalid_coupon', reason: 'COUPON_USAGE_LIMIT' });
}

/**
 * Counts one use of a coupon (by a customer, or a guest when customerId is null): the coupon's and its
 * rule's count, and the customer's. One statement raises each count where it checks its limit, so
 * concurrent orders cannot pass a limit together. A refused use changes nothing.
 */
export async function consumeCoupon(ctx: Ctx, couponId: number, customerId: number | null): Promise<void> {
  // the coupon's, its rule's and the customer's count in one statement; locks in that order (releaseCoupon's)
  const use = (db: Db) =>
    rows<{ perCustomer: number | null; customerUses: number | null }>(
      db,
      sql`WITH c AS (
            UPDATE coupons SET times_used = times_used + 1
            WHERE id = ${couponId} AND (usage_limit IS NULL OR times_used < usage_limit)
            RETURNING rule_id, usage_per_customer
          ), r AS (
            UPDATE sales_rules SET times_used = sales_rules.times_used + 1 FROM c WHERE sales_rules.id = c.rule_id RETURNING 1
          ), u AS (
            INSERT INTO coupon_usages (coupon_id, customer_id, times_used)
            SELECT ${couponId}, ${customerId}::int, 1 FROM c WHERE ${customerId}::int IS NOT NULL
            ON CONFLICT (coupon_id, customer_id) DO UPDATE SET times_used = coupon_usages.times_used + 1
            WHERE (SELECT usage_per_customer FROM c) IS NULL OR coupon_usages.times_used < (SELECT usage_per_customer FROM c)
            RETURNING times_used
          )
          SELECT usage_per_customer AS "perCustomer", (SELECT times_used FROM u) AS "customerUses" FROM c`,
    );
  const refusal = async (db: Db, c: { perCustomer: number | null; customerUses: number | null } | undefined): Promise<AppError | undefined> => {
    if (!c) {
      const [exists] = await db.select({ id: coupons.id }).from(coupons).where(eq(coupons.id, couponId));
      if (!exists) return badRequest(MESSAGES.notFound, { error: 'invalid_coupon', reason: 'COUPON_NOT_FOUND' });
      return limitReached();
    }
    if (customerId === null) return undefined;
    const perCustomer = c.perCustomer === null ? null : Number(c.perCustomer);
    if (c.customerUses === null || (perCustomer !== null && Number(c.customerUses) > perCustomer)) return limitReached();
    return undefined;
  };
  // a guest's use is all or nothing by itself (no row of the coupon, no row of its rule); a customer's may be
  // refused after the coupon was counted, so it runs in a savepoint that a refusal rolls back
  if (customerId === null) {
    const err = await refusal(ctx.db, (await use(ctx.db))[0]);
    if (err) throw err;
    return;
  }
  await ctx.db.transaction(async (sp) => {
    const db = sp as unknown as Db;
    const err = await refusal(db, (await use(db))[0]);
    if (err) throw err;
  });
}

/** Gives one use back (a cancelled order): the coupon's, its rule's and the customer's count, never below 0. */
export async function releaseCoupon(ctx: Ctx, couponId: number, customerId: number | null): Promise<void> {
  // in the order consumeCoupon takes its locks (coupon, rule, customer count), so that the two cannot deadlock
  await withTx(ctx, async (tx) => {
    await tx.db.execute(
      sql`WITH c AS (
            UPDATE coupons SET times_used = times_used - 1 WHERE id = ${couponId} AND times_used > 0 RETURNING rule_id
          )
          UPDATE sales_rules SET times_used = sales_rules.times_used - 1 FROM c WHERE sales_rules.id = c.rule_id AND sales_rules.times_used > 0`,
    );
    if (customerId !== null) {
      await tx.db
        .update(couponUsages)
        .set({ timesUsed: sql`${couponUsages.timesUsed} - 1` })
        .where(and(eq(couponUsages.couponId, couponId), eq(couponUsages.customerId, customerId), sql`${couponUsages.timesUsed} > 0`));
    }
  });
}

// ---- demo ----

export async function seedDemo(ctx: Ctx): Promise<void> {
  await createCoupon(ctx, { code: 'WELCOME10', discountType: 'percent', discountAmount: 10, description: '10% off your order', websiteIds: [1] });
}
