/** couponForCart, consumeCoupon and releaseCoupon, the functions the carts and orders modules call. */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { and, eq, sql } from 'drizzle-orm';
import { API, buildTestApp, type TestApp } from '../../../test/helpers.js';
import { withTx } from '../../platform/context.js';
import { countStatements } from '../../platform/db.js';
import { AppError } from '../../platform/errors.js';
import { consumeCoupon, releaseCoupon } from './usage.js';
import { couponForCart } from './validation.js';
import { couponUsages, coupons, salesRules } from './tables.js';

let t: TestApp;
let admin: string;
before(async () => {
  t = await buildTestApp();
  admin = await t.tokens.admin();
});
after(() => t.close());

let seq = 0;
async function create(body: Record<string, unknown>): Promise<{ id: number; code: string; ruleId: number }> {
  const r = await t.req('POST', `${API}/coupons`, {
    token: admin,
    body: { code: `Use_${++seq}`, discountType: 'percent', discountAmount: 10, ...body },
  });
  assert.equal(r.status, 201, r.text);
  return r.body;
}

async function used(c: { id: number; ruleId: number }, customerId?: number) {
  const [cp] = await t.database.db.select({ n: coupons.timesUsed }).from(coupons).where(eq(coupons.id, c.id));
  const [rule] = await t.database.db.select({ n: salesRules.timesUsed }).from(salesRules).where(eq(salesRules.id, c.ruleId));
  let customer: number | undefined;
  if (customerId !== undefined) {
    const [u] = await t.database.db
      .select({ n: couponUsages.timesUsed })
      .from(couponUsages)
      .where(and(eq(couponUsages.couponId, c.id), eq(couponUsages.customerId, customerId)));
    customer = u?.n ?? 0;
  }
  return { coupon: cp.n, rule: rule.n, customer };
}

const guest = { customerId: null, customerGroupId: 0, websiteId: 1 };

async function refused(p: Promise<unknown>, message: string) {
  await assert.rejects(p, (err: unknown) => {
    assert.ok(err instanceof AppError);
    assert.equal(err.status, 400);
    assert.equal(err.error, 'invalid_coupon');
    assert.equal(err.message, message);
    return true;
  });
}

describe('couponForCart', () => {
  test('finds the code case-insensitively and gives the rule with the stored spelling, as Decimals', async () => {
    const c = await create({
      code: 'MixedCase_1',
      discountType: 'buy_x_get_y',
      discountAmount: 1,
      discountStep: 2,
      discountQty: 4,
      minimumSubtotal: 25.5,
      simpleFreeShipping: 1,
      applyToShipping: true,
    });
    const r = await couponForCart(t.systemCtx(), '  mixedcase_1 ', { customerId: null, customerGroupId: 0, websiteId: 1 });
    assert.ok(r.ok);
    const rule = r.rule;
    assert.equal(rule.code, 'MixedCase_1');
    assert.equal(rule.couponId, c.id);
    assert.equal(rule.ruleId, c.ruleId);
    assert.equal(rule.ruleName, 'Coupon: MixedCase_1');
    assert.equal(rule.action, 'buy_x_get_y');
    assert.equal(rule.discountAmount.toString(), '1');
    assert.equal(rule.discountQty?.toString(), '4');
    assert.equal(rule.discountStep, 2);
    assert.equal(rule.minimumSubtotal?.toString(), '25.5');
    assert.equal(rule.simpleFreeShipping, 1);
    assert.equal(rule.applyToShipping, true);
  });

  test('the validation messages, for the caller it is given', async () => {
    const ctx = t.systemCtx();
    assert.deepEqual(await couponForCart(ctx, 'nope', guest), { ok: false, message: 'Coupon code not found' });
    assert.deepEqual(await couponForCart(ctx, '', guest), { ok: false, message: 'Coupon code not found' });
    const g2 = await create({ customerGroupIds: [2] });
    assert.deepEqual(await couponForCart(ctx, g2.code, guest), { ok: false, message: 'Coupon is not valid for your customer group' });
    assert.equal((await couponForCart(ctx, g2.code, { customerId: 5, customerGroupId: 2, websiteId: 1 })).ok, true);
    assert.deepEqual(await couponForCart(ctx, g2.code, { customerId: 5, customerGroupId: 2, websiteId: 7 }), {
      ok: false,
      message: 'Coupon is not valid for this store',
    });
    const future = await create({ fromDate: '2099-01-01' });
    assert.deepEqual(await couponForCart(ctx, future.code, guest), { ok: false, message: 'Coupon is not yet active' });
    // dates are judged by ctx.now
    assert.equal((await couponForCart({ ...ctx, now: new Date('2099-01-01T00:00:00Z') }, future.code, guest)).ok, true);
    const exp = await create({ expirationDate: '2090-05-01 12:00:00' });
    assert.equal((await couponForCart({ ...ctx, now: new Date('2090-05-01T11:59:59Z') }, exp.code, guest)).ok, true);
    assert.deepEqual(await couponForCart({ ...ctx, now: new Date('2090-05-01T12:00:00Z') }, exp.code, guest), {
      ok: false,
      message: 'Coupon has expired',
    });
  });

  test('one query for the coupon, one more for the per-customer count when it can decide', async () => {
    const plain = await create({});
    const per = await create({ usagePerCustomer: 1 });
    const ctx = t.systemCtx();
    const q = async (fn: () => Promise<unknown>) => (await countStatements(fn)).n;
    assert.equal(await q(() => couponForCart(ctx, plain.code, { customerId: 9, customerGroupId: 1, websiteId: 1 })), 1);
    assert.equal(await q(() => couponForCart(ctx, per.code, guest)), 1);
    assert.equal(await q(() => couponForCart(ctx, per.code, { customerId: 9, customerGroupId: 1, websiteId: 1 })), 2);
  });
});

describe('consumeCoupon / releaseCoupon', () => {
  test('counts the coupon, its rule and the customer; release gives it back, never below zero', async () => {
    const c = await create({ usageLimit: 2, usagePerCustomer: 1 });
    const ctx = t.systemCtx();
    await consumeCoupon(ctx, c.id, 11);
    assert.deepEqual(await used(c, 11), { coupon: 1, rule: 1, customer: 1 });
    await refused(consumeCoupon(ctx, c.id, 11), 'Coupon usage limit reached');
    assert.deepEqual(await used(c, 11), { coupon: 1, rule: 1, customer: 1 }, 'a refused use changes nothing');
    await consumeCoupon(ctx, c.id, null);
    assert.deepEqual(await used(c, 11), { coupon: 2, rule: 2, customer: 1 });
    await refused(consumeCoupon(ctx, c.id, 12), 'Coupon usage limit reached');
    assert.deepEqual(await used(c, 12), { coupon: 2, rule: 2, customer: 0 });

    await releaseCoupon(ctx, c.id, 11);
    assert.deepEqual(await used(c, 11), { coupon: 1, rule: 1, customer: 0 });
    await releaseCoupon(ctx, c.id, null);
    await releaseCoupon(ctx, c.id, 11);
    await releaseCoupon(ctx, c.id, 11);
    assert.deepEqual(await used(c, 11), { coupon: 0, rule: 0, customer: 0 });
    await consumeCoupon(ctx, c.id, 11);
    assert.deepEqual(await used(c, 11), { coupon: 1, rule: 1, customer: 1 });
  });

  test('inside a caller’s transaction a refused use leaves the transaction usable and unchanged', async () => {
    const c = await create({ usagePerCustomer: 1 });
    await consumeCoupon(t.systemCtx(), c.id, 21);
    await withTx(t.systemCtx(), async (tx) => {
      await refused(consumeCoupon(tx, c.id, 21), 'Coupon usage limit reached');
      await consumeCoupon(tx, c.id, 22);
    });
    assert.deepEqual(await used(c, 21), { coupon: 2, rule: 2, customer: 1 });
    assert.deepEqual(await used(c, 22), { coupon: 2, rule: 2, customer: 1 });
  });

  test('an unknown coupon is refused; release of an unknown coupon does nothing', async () => {
    await refused(consumeCoupon(t.systemCtx(), 99999999, null), 'Coupon code not found');
    await releaseCoupon(t.systemCtx(), 99999999, 5);
  });

  test('the validation sees the counts', async () => {
    const c = await create({ usageLimit: 1 });
    await consumeCoupon(t.systemCtx(), c.id, null);
    assert.deepEqual(await couponForCart(t.systemCtx(), c.code, guest), { ok: false, message: 'Coupon usage limit reached' });
    await releaseCoupon(t.systemCtx(), c.id, null);
    assert.equal((await couponForCart(t.systemCtx(), c.code, guest)).ok, true);
  });
});

describe('concurrency', () => {
  /** n uses at once, each in its own transaction that holds its locks a moment before committing */
  async function race(couponId: number, customerIds: (number | null)[]) {
    const results = await Promise.allSettled(
      customerIds.map((customerId) =>
        withTx(t.systemCtx(), async (tx) => {
          await consumeCoupon(tx, couponId, customerId);
          await tx.db.execute(sql`SELECT pg_sleep(0.02)`);
        }),
      ),
    );
    for (const r of results) {
      if (r.status === 'rejected') {
        assert.ok(r.reason instanceof AppError, String(r.reason));
        assert.equal(r.reason.message, 'Coupon usage limit reached');
      }
    }
    return results.filter((r) => r.status === 'fulfilled').length;
  }

  test('usageLimit 1: of 10 parallel uses exactly one succeeds', async () => {
    const c = await create({ usageLimit: 1 });
    assert.equal(
      await race(
        c.id,
        Array.from({ length: 10 }, (_, i) => (i % 2 ? null : 100 + i)),
      ),
      1,
    );
    assert.deepEqual((await used(c)).coupon, 1);
    assert.deepEqual((await used(c)).rule, 1);
  });

  test('usagePerCustomer 1: of 10 parallel uses by one customer exactly one succeeds', async () => {
    const c = await create({ usagePerCustomer: 1 });
    assert.equal(await race(c.id, Array(10).fill(300)), 1);
    assert.deepEqual(await used(c, 300), { coupon: 1, rule: 1, customer: 1 });
  });

  test('usageLimit 3 with 10 customers: exactly three succeed', async () => {
    const c = await create({ usageLimit: 3, usagePerCustomer: 1 });
    assert.equal(
      await race(
        c.id,
        Array.from({ length: 10 }, (_, i) => 400 + i),
      ),
      3,
    );
    assert.deepEqual((await used(c)).coupon, 3);
  });
});
