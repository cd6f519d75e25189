/**
 * Coupon validation: POST /coupons/validate, GraphQL validateCoupon and the carts module (couponForCart, and
 * couponsForCarts for many carts at once) run one set of checks in a fixed order.
 */
import { and, eq, inArray, sql, type SQL } from 'drizzle-orm';
import type { Ctx } from '../../platform/context.js';
import { toWire } from '../../platform/money.js';
import { configuredRule } from '../../platform/rate-limit.js';
import { declareConfig } from '../../platform/settings.js';
import { wireDate } from '../../platform/format.js';
import { NOT_LOGGED_IN_GROUP } from '../customers/groups-service.js';
import { getMe } from '../customers/service.js';
import type { CartRule } from './discount.js';
import { invalid } from './draft.js';
import { findByCode, MESSAGES, toCartRule, TYPE_OF, type CouponTerms, type Joined } from './rows.js';
import type { CouponValidateInput, CouponValidationDto } from './schemas.js';
import { couponUsages, coupons, salesRules } from './tables.js';

declareConfig({
  'api/rate_limit/coupon_validate': {
    type: 'integer',
    default: 20,
    label: 'Coupon Checks',
    comment: 'validation attempts per IP (and per customer) a minute; also cart coupon applies of non-backend callers; 0: no limit',
    min: 0,
    scopes: ['default'],
  },
});

export interface CouponCaller {
  customerId: number | null;
  /** null: not checked (admin callers) */
  customerGroupId: number | null;
  websiteId: number;
}

export type Verdict = { ok: true; rule: CartRule } | { ok: false; message: string };

/** The checks that need no per-customer count, in their order: the refusal, or undefined when they pass. */
function refusalBeforeCount(ctx: Ctx, row: CouponTerms | undefined): Verdict | undefined {
  if (!row) return { ok: false, message: MESSAGES.notFound };
  const { coupon: c, rule: r } = row;
  if (!r.isActive) return { ok: false, message: MESSAGES.inactive };
  const today = ctx.now.toISOString().slice(0, 10);
  if (r.fromDate && wireDate(r.fromDate)! > today) return { ok: false, message: MESSAGES.notYetActive };
  if ((r.toDate && wireDate(r.toDate)! < today) || (c.expirationDate && c.expirationDate.getTime() <= ctx.now.getTime())) {
    return { ok: false, message: MESSAGES.expired };
  }
  if (c.usageLimit !== null && c.timesUsed >= c.usageLimit) return { ok: false, message: MESSAGES.limit };
  return undefined;
}

/** Whether the caller's own count of uses can decide (a customer, and a coupon limited per customer). */
function countDecides(row: CouponTerms, who: CouponCaller): boolean {
  return who.customerId !== null && row.coupon.usagePerCustomer !== null;
}

/** The checks after refusalBeforeCount passed, with the caller's count of uses of the coupon. */
function verdictAfterCount(row: CouponTerms, who: CouponCaller, customerUses: number): Verdict {
  const { coupon: c, rule: r } = row;
  if (countDecides(row, who) && customerUses >= c.usagePerCustomer!) return { ok: false, message: MESSAGES.limit };
  if (!r.websiteIds.includes(who.websiteId)) return { ok: false, message: MESSAGES.store };
  if (who.customerGroupId !== null && !r.customerGroupIds.includes(who.customerGroupId)) return { ok: false, message: MESSAGES.group };
  return { ok: true, rule: toCartRule(row) };
}

/** The checks in their order; the per-customer count is read only when it can decide. */
async function judge(ctx: Ctx, row: Joined | undefined, who: CouponCaller): Promise<Verdict> {
  const refused = refusalBeforeCount(ctx, row);
  if (refused || !row) return refused!;
  let uses = 0;
  if (countDecides(row, who)) {
    const [u] = await ctx.db
      .select({ n: couponUsages.timesUsed })
      .from(couponUsages)
      .where(and(eq(couponUsages.couponId, row.coupon.id), eq(couponUsages.customerId, who.customerId!)));
    uses = u?.n ?? 0;
  }
  return verdictAfterCount(row, who, uses);
}

/** A code as looked up; undefined when it cannot be one. */
function lookupCode(code: unknown): string | undefined {
  const c = typeof code === 'string' ? code.trim() : '';
  return c && c.length <= 255 ? c : undefined;
}

/**
 * The rule a code gives this cart's owner, or why it gives none (the validation messages). The code is
 * looked up case-insensitively; `rule.code` is the stored spelling.
 */
export async function couponForCart(
  ctx: Ctx,
  code: string,
  who: { customerId: number | null; customerGroupId: number; websiteId: number },
): Promise<Verdict> {
  const c = lookupCode(code);
  if (!c) return { ok: false, message: MESSAGES.notFound };
  return judge(ctx, await findByCode(ctx.db, c), who);
}

/**
 * What couponForCart reads for a cart, as SQL for the cart's own read (one statement): the coupon of the code
 * (`code` a text expression, looked up as findByCode does), its rule and the uses of the customer `customerId` (an
 * int expression, null for a guest), as a JSON object (CouponFacts); null when no coupon has the code.
 */
export function couponFactsSql(code: SQL, customerId: SQL): SQL {
  return sql`(SELECT json_build_object(
      'coupon', json_build_object('id', ${coupons.id}, 'code', ${coupons.code}, 'usageLimit', ${coupons.usageLimit},
        'usagePerCustomer', ${coupons.usagePerCustomer}, 'timesUsed', ${coupons.timesUsed}, 'expirationDate', ${coupons.expirationDate}),
      'rule', json_build_object('id', ${salesRules.id}, 'name', ${salesRules.name}, 'isActive', ${salesRules.isActive},
        'fromDate', ${salesRules.fromDate}, 'toDate', ${salesRules.toDate}, 'websiteIds', ${salesRules.websiteIds},
        'customerGroupIds', ${salesRules.customerGroupIds}, 'action', ${salesRules.action},
        'discountAmount', ${salesRules.discountAmount}::text, 'discountQty', ${salesRules.discountQty}::text,
        'discountStep', ${salesRules.discountStep}, 'minimumSubtotal', ${salesRules.minimumSubtotal}::text,
        'simpleFreeShipping', ${salesRules.simpleFreeShipping}, 'applyToShipping', ${salesRules.applyToShipping}),
      'uses', (SELECT ${couponUsages.timesUsed} FROM ${couponUsages}
        WHERE ${couponUsages.couponId} = ${coupons.id} AND ${couponUsages.customerId} = ${customerId}))
    FROM ${coupons} INNER JOIN ${salesRules} ON ${salesRules.id} = ${coupons.ruleId}
    WHERE lower(${coupons.code}) = lower(${code}) LIMIT 1)`;
}

/** A row of couponFactsSql as the JSON arrives (the expiration date as text). */
export interface CouponFacts {
  coupon: Omit<CouponTerms['coupon'], 'expirationDate'> & { expirationDate: string | null };
  rule: CouponTerms['rule'];
  /** the customer's uses of the coupon; null for a guest or none */
  uses: number | null;
}

/**
 * couponForCart's verdict from what couponFactsSql read with the cart (`facts`, null when no coupon has the code);
 * undefined when the facts cannot answer for this code (one looked up other than it is stored), so that the
 * caller asks couponForCart.
 */
export function couponVerdictFromFacts(
  ctx: Ctx,
  code: string,
  facts: CouponFacts | null,
  who: { customerId: number | null; customerGroupId: number; websiteId: number },
): Verdict | undefined {
  if (lookupCode(code) !== code) return undefined;
  if (!facts) return { ok: false, message: MESSAGES.notFound };
  const { coupon, rule, uses } = facts;
  const row: CouponTerms = {
    coupon: { ...coupon, expirationDate: coupon.expirationDate === null ? null : new Date(coupon.expirationDate) },
    rule,
  };
  return refusalBeforeCount(ctx, row) ?? verdictAfterCount(row, who, uses ?? 0);
}

/**
 * couponForCart for many carts at once (a list of carts), in one statement whatever their number: the coupons
 * of every code with the uses of each cart's customer. The answers are in the order of `asks`.
 */
export async function couponsForCarts(
  ctx: Ctx,
  asks: readonly { code: string; who: { customerId: number | null; customerGroupId: number; websiteId: number } }[],
): Promise<Verdict[]> {
  const codes = [...new Set(asks.map((a) => lookupCode(a.code)?.toLowerCase()).filter((c): c is string => c !== undefined))];
  if (!codes.length) return asks.map(() => ({ ok: false, message: MESSAGES.notFound }));
  const customers = [...new Set(asks.map((a) => a.who.customerId).filter((id): id is number => id !== null))];
  const found = await ctx.db
    .select({
      coupon: coupons,
      rule: salesRules,
      // [customer id, uses] of the listed carts' customers
      uses: sql<[number, number][] | null>`(SELECT json_agg(json_build_array(u.customer_id, u.times_used)) FROM ${couponUsages} u
        WHERE u.coupon_id = ${coupons.id} AND u.customer_id = ANY(${`{${customers.join(',')}}`}::int[]))`,
    })
    .from(coupons)
    .innerJoin(salesRules, eq(coupons.ruleId, salesRules.id))
    .where(inArray(sql`lower(${coupons.code})`, codes));
  const byCode = new Map<string, (typeof found)[number]>();
  for (const row of found) if (!byCode.has(row.coupon.code.toLowerCase())) byCode.set(row.coupon.code.toLowerCase(), row);
  return asks.map((a) => {
    const c = lookupCode(a.code);
    const row = c === undefined ? undefined : byCode.get(c.toLowerCase());
    const refused = refusalBeforeCount(ctx, row);
    if (refused || !row) return refused!;
    const uses = row.uses?.find(([customerId]) => customerId === a.who.customerId)?.[1] ?? 0;
    return verdictAfterCount(row, a.who, Number(uses));
  });
}

/** Counts one coupon attempt of a non-backend caller (per IP, and per customer); 429 past the limit. */
export async function limitCouponAttempts(ctx: Ctx): Promise<void> {
  if (ctx.actor.kind === 'admin') return;
  const rule = configuredRule(ctx.app.settings, 'coupon_validate', 60, ctx.store.storeId);
  await ctx.app.limiter.consume(rule, `ip:${ctx.ip}`);
  if (ctx.actor.kind === 'customer') await ctx.app.limiter.consume(rule, `customer:${ctx.actor.customerId}`);
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
  const preview = ctx.app.discountPreview;
  if (verdict.ok && input.cartId !== undefined && preview) out.discountPreview = await preview(ctx, input.cartId, verdict.rule.code);
  return out;
}
