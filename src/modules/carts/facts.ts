/**
 * What pricing reads about a cart besides the catalog (the customer's group, the coupon with its rule and the
 * customer's uses of it, the gift cards), read in the statement that reads the cart, so that showing a cart takes
 * that one statement. The owning modules build the SQL and judge what it read; this file puts the parts together
 * and hands priceCart what it would otherwise ask for.
 */
import { sql } from 'drizzle-orm';
import type { Ctx } from '../../platform/context.js';
import { couponFactsSql, couponVerdictFromFacts, type CouponFacts } from '../coupons/validation.js';
import { customerPricingGroupSql, pricingGroupFromJson } from '../customers/group-membership.js';
import { giftcardFactsSql, giftcardsFromFacts, type GiftcardFacts } from '../giftcards/spend.js';
import { cachedGroup, type CartRow, type Preloaded } from './pricing.js';

/** The columns of a cart's read that pricing uses (the statement takes the time as the placeholder `now`). */
export const PRICING_FACTS = sql`${customerPricingGroupSql(sql`carts.customer_id`)} AS "groupFacts",
  ${couponFactsSql(sql`carts.coupon_code`, sql`carts.customer_id`)} AS "couponFacts",
  ${giftcardFactsSql(sql`carts.giftcard_codes`, sql`${sql.placeholder('now')}::timestamptz`)} AS "giftcardFacts"`;

export interface PricingFacts {
  /** the customer's group and its tax class; null for a guest or a customer that no longer exists */
  groupFacts: [number, number] | null;
  couponFacts: CouponFacts | null;
  giftcardFacts: GiftcardFacts[] | null;
}

/**
 * What priceCart would read for the cart, from its facts (`ctx` the cart's context, `version` the catalog version
 * read with them): the group, and the coupon's verdict and the usable gift cards where the facts can answer.
 */
export async function preloadedFrom(ctx: Ctx, cart: CartRow, facts: PricingFacts, version: bigint): Promise<Preloaded> {
  const group = pricingGroupFromJson(facts.groupFacts) ?? (await cachedGroup(ctx, version, cart.customerGroupId));
  const websiteId = ctx.store.websiteId;
  const coupon = cart.couponCode
    ? couponVerdictFromFacts(ctx, cart.couponCode, facts.couponFacts, {
        customerId: cart.customerId,
        customerGroupId: group.groupId,
        websiteId,
      })
    : null;
  const cards = cart.giftcardCodes.length ? giftcardsFromFacts(ctx, cart.giftcardCodes, facts.giftcardFacts) : [];
  return { version, group, coupon, cards };
}
