/**
 * Coupon usage: consumeCoupon / releaseCoupon count a use with conditional statements, so that concurrent
 * orders can never use a code more often than its limits allow.
 */
import { and, eq, sql } from 'drizzle-orm';
import { withTx, type Ctx } from '../../platform/context.js';
import { rows, type Db } from '../../platform/db.js';
import { badRequest, type AppError } from '../../platform/errors.js';
import { MESSAGES } from './rows.js';
import { couponUsages, coupons } from './tables.js';

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
  const refusal = async (
    db: Db,
    c: { perCustomer: number | null; customerUses: number | null } | undefined,
  ): Promise<AppError | undefined> => {
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
