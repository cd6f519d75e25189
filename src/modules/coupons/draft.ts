/**
 * A coupon's input, checked: what a create or an update decides (the Draft), each key on its own and then the
 * rules across keys, and how a code is kept unique (case-insensitively).
 */
import { and, ne, sql } from 'drizzle-orm';
import type { Ctx } from '../../platform/context.js';
import { badRequest, fromDatabaseError } from '../../platform/errors.js';
import { isValidDate } from '../../platform/format.js';
import { dec, type Decimal } from '../../platform/money.js';
import { listCustomerGroups } from '../customers/groups-service.js';
import type { RuleAction } from './discount.js';
import { INT_MAX } from './rows.js';
import { MAX_AMOUNT, type CouponUpdateInput, type DiscountType } from './schemas.js';
import { coupons } from './tables.js';

const CODE_RE = /^[A-Za-z0-9_-]{3,64}$/;

export const ACTION_OF: Record<DiscountType, RuleAction> = {
  percent: 'by_percent',
  fixed: 'by_fixed',
  cart_fixed: 'cart_fixed',
  buy_x_get_y: 'buy_x_get_y',
};

/** Everything a create or update decides, before it is written. */
export interface Draft {
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

export function invalid(field: string, message: string, constraint = 'invalid', reason = 'VALIDATION_FAILED') {
  return badRequest(message, { reason, details: { field, constraint } });
}

export function cleanCode(v: unknown): string {
  const code = typeof v === 'string' ? v.trim() : '';
  if (!code) throw invalid('code', 'code is required', 'required');
  if (!CODE_RE.test(code)) throw invalid('code', 'code must be 3 to 64 characters of letters, digits, "_" and "-"', 'pattern');
  return code;
}

function amount(field: string, v: unknown, opts: { positive?: boolean } = {}): Decimal {
  if (typeof v !== 'number' || !Number.isFinite(v)) throw invalid(field, `${field} must be a number`, 'type');
  if (opts.positive ? v <= 0 : v < 0)
    throw invalid(field, `${field} must be ${opts.positive ? 'greater than 0' : 'at least 0'}`, 'minimum');
  if (v > MAX_AMOUNT) throw invalid(field, `${field} must be at most ${MAX_AMOUNT}`, 'maximum');
  return dec(v);
}

function limit(field: string, v: number | null): number | null {
  if (v === null) return null;
  if (!Number.isInteger(v) || v < 1 || v > INT_MAX)
    throw invalid(field, `${field} must be a whole number of at least 1, or null`, 'minimum');
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
  if (unknown.length)
    throw invalid(
      field,
      `Unknown ${what} id: ${unknown.join(', ')}`,
      'exists',
      field === 'websiteIds' ? 'UNKNOWN_WEBSITE' : 'UNKNOWN_CUSTOMER_GROUP',
    );
  return out.sort((a, b) => a - b);
}

export async function groupIds(ctx: Ctx): Promise<Set<number>> {
  return new Set((await listCustomerGroups(ctx)).items.map((g) => g.id));
}

function websiteIdSet(ctx: Ctx): Set<number> {
  return new Set(ctx.app.settings.allWebsites().map((w) => w.id));
}

/** Applies the keys that were sent to `base`, each checked on its own, then the rules across fields. */
export async function applyInput(ctx: Ctx, base: Draft, input: CouponUpdateInput): Promise<Draft> {
  const d: Draft = { ...base };
  if (input.code !== undefined) d.code = cleanCode(input.code);
  if (input.discountType !== undefined) {
    const action = ACTION_OF[input.discountType];
    if (!action) throw invalid('discountType', 'discountType must be percent, fixed, cart_fixed or buy_x_get_y', 'enum');
    d.action = action;
  }
  if (input.discountAmount !== undefined) d.discountAmount = amount('discountAmount', input.discountAmount, { positive: true });
  if (input.description !== undefined)
    d.description = input.description === null || input.description.trim() === '' ? null : input.description.trim();
  if (input.isActive !== undefined) d.isActive = input.isActive;
  if (input.usageLimit !== undefined) d.usageLimit = limit('usageLimit', input.usageLimit);
  if (input.usagePerCustomer !== undefined) d.usagePerCustomer = limit('usagePerCustomer', input.usagePerCustomer);
  if (input.fromDate !== undefined) d.fromDate = calendarDate('fromDate', input.fromDate);
  if (input.toDate !== undefined) d.toDate = calendarDate('toDate', input.toDate);
  if (input.minimumSubtotal !== undefined)
    d.minimumSubtotal = input.minimumSubtotal === null ? null : amount('minimumSubtotal', input.minimumSubtotal);
  if (input.expirationDate !== undefined) d.expirationDate = expiration(input.expirationDate);
  if (input.websiteIds !== undefined) d.websiteIds = ids('websiteIds', input.websiteIds, websiteIdSet(ctx), 'website');
  if (input.customerGroupIds !== undefined)
    d.customerGroupIds = ids('customerGroupIds', input.customerGroupIds, await groupIds(ctx), 'customer group');
  if (input.sortOrder !== undefined) d.sortOrder = input.sortOrder;
  if (input.stopRulesProcessing !== undefined) d.stopRulesProcessing = input.stopRulesProcessing;
  if (input.discountQty !== undefined) {
    const q = input.discountQty === null ? null : amount('discountQty', input.discountQty);
    d.discountQty = q && q.gt(0) ? q : null;
  }
  if (input.discountStep !== undefined) {
    if (!Number.isInteger(input.discountStep) || input.discountStep < 0)
      throw invalid('discountStep', 'discountStep must be a whole number of at least 0', 'minimum');
    d.discountStep = input.discountStep;
  }
  if (input.simpleFreeShipping !== undefined) {
    if (![0, 1, 2].includes(input.simpleFreeShipping)) throw invalid('simpleFreeShipping', 'simpleFreeShipping must be 0, 1 or 2', 'enum');
    d.simpleFreeShipping = input.simpleFreeShipping;
  }
  if (input.applyToShipping !== undefined) d.applyToShipping = input.applyToShipping;

  if (d.action === 'by_percent' && d.discountAmount.gt(100))
    throw invalid('discountAmount', 'A percent discount is at most 100', 'maximum');
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

export function defaultRuleName(d: { description: string | null; code: string }): string {
  return d.description || `Coupon: ${d.code}`;
}

export function ruleValues(d: Draft) {
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
  return badRequest(`Coupon code "${code}" already exists`, {
    error: 'duplicate_coupon',
    reason: 'DUPLICATE_COUPON',
    details: { field: 'code' },
  });
}

export async function assertCodeFree(ctx: Ctx, code: string, exceptId?: number): Promise<void> {
  const same = sql`lower(${coupons.code}) = lower(${code})`;
  const [dup] = await ctx.db
    .select({ id: coupons.id })
    .from(coupons)
    .where(exceptId === undefined ? same : and(same, ne(coupons.id, exceptId)))
    .limit(1);
  if (dup) throw duplicate(code);
}

/** A unique-index violation (two requests creating the same code at once) reads as the duplicate it is. */
export function mapDuplicate(err: unknown, code: string): unknown {
  const db = fromDatabaseError(err);
  if (db?.reason === 'DUPLICATE' && db.details?.constraint === 'coupons_code_uq') return duplicate(code);
  return err;
}
