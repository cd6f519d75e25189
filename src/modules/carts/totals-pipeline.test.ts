/**
 * The totals pipeline's shortcuts against the pipeline itself, on many random inputs (every rule action, tax
 * included or not, tax before or after the discount, custom prices, gift cards, shipping or none): continuing
 * from the run shipping rates are asked with gives exactly the totals of a whole run, and a price in the base
 * currency is the same rounded alone as multiplied by 1 first. Every amount is compared as exact decimal text.
 * TOTALS_RUNS sets the number of inputs, TOTALS_SEED replays a run.
 */
import { seededRandom } from '../../../test/fixtures/seeded.js';
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { dec, roundMoney, type Decimal } from '../../platform/money.js';
import type { CartRule, RuleAction } from '../coupons/discount.js';
import { computeTotals, continueTotals, type Totals, type TotalsInput } from './totals.js';

const RUNS = Number(process.env.TOTALS_RUNS ?? 3000);
const SEED = Number(process.env.TOTALS_SEED ?? Math.floor(Math.random() * 2 ** 31));

function generator(seed: number) {
  const { next, int, pick } = seededRandom(seed);
  /** an amount with up to four decimals, as NUMERIC(20,4) holds them */
  const amount = (max: number) => dec(int(0, max * 10_000)).div(10_000);
  return { int, pick, amount, chance: (p: number) => next() < p };
}
type Rng = ReturnType<typeof generator>;

const PERCENTS = ['0', '7', '8.25', '19', '4.1234', '21.5'];

function randomRule(r: Rng): CartRule | null {
  if (r.chance(0.2)) return null;
  const action = r.pick<RuleAction>(['by_percent', 'by_fixed', 'cart_fixed', 'buy_x_get_y']);
  return {
    couponId: 1,
    ruleId: 1,
    code: 'R',
    ruleName: 'R',
    action,
    discountAmount: action === 'by_percent' ? r.amount(120) : action === 'buy_x_get_y' ? dec(r.int(0, 3)) : r.amount(r.pick([5, 60, 2000])),
    discountQty: r.chance(0.3) ? dec(r.int(0, 4)) : null,
    discountStep: r.int(0, 3),
    minimumSubtotal: r.chance(0.2) ? r.amount(300) : null,
    simpleFreeShipping: r.pick([0, 0, 0, 1, 2]),
    applyToShipping: r.chance(0.3),
  };
}

function randomInput(r: Rng): TotalsInput {
  const rate = dec(1);
  const lines = Array.from({ length: r.int(1, 8) }, (_, i) => {
    const custom = r.chance(0.15) ? r.amount(200) : null;
    return {
      id: i + 1,
      qty: dec(r.int(1, 15)),
      // a custom price in base is converted back by the cart's rate (forty digits)
      basePrice: custom && r.chance(0.5) ? custom.div(r.pick(['0.92', '1.3', '7'])) : r.amount(r.pick([1, 50, 900])),
      customPrice: null,
      taxPercent: dec(r.pick(PERCENTS)),
      originPercent: dec(r.pick(PERCENTS)),
    };
  });
  return {
    lines,
    rule: randomRule(r),
    baseShippingPrice: r.chance(0.2) ? null : r.amount(r.pick([0, 10, 80])),
    shippingTaxPercent: dec(r.pick(PERCENTS)),
    shippingOriginPercent: dec(r.pick(PERCENTS)),
    giftcards: r.chance(0.3)
      ? [{ code: 'A', baseBalance: r.amount(100) }, ...(r.chance(0.3) ? [{ code: 'B', baseBalance: r.amount(500) }] : [])]
      : [],
    priceIncludesTax: r.chance(0.4),
    shippingIncludesTax: r.chance(0.4),
    applyAfterDiscount: r.chance(0.7),
    rate,
  };
}

/** Every amount of a run as exact text, by its path. */
function text(t: Totals): string {
  return JSON.stringify({ ...t, lines: [...t.lines] }, (_k, v: unknown) =>
    v && typeof v === 'object' && 'toFixed' in v ? (v as Decimal).toString() : v,
  );
}

test(`continuing from the run shipping was asked with gives the whole run's totals (${RUNS} inputs, seed ${SEED})`, () => {
  const r = generator(SEED);
  let continued = 0;
  for (let i = 0; i < RUNS; i++) {
    const input = randomInput(r);
    const whole = computeTotals(input);
    const upTo = computeTotals({ ...input, baseShippingPrice: null, giftcards: [] }, 'discount');
    const before = text(upTo);
    const from = continueTotals(upTo, input);
    assert.equal(text(upTo), before, `input ${i} of seed ${SEED}: the run continued from is left as it was`);
    if (input.rule?.applyToShipping) {
      assert.equal(from, undefined, `input ${i} of seed ${SEED}: a rule on shipping needs the whole run`);
      continue;
    }
    assert.ok(from);
    assert.equal(text(from), text(whole), `input ${i} of seed ${SEED}`);
    continued++;
  }
  assert.ok(continued > RUNS / 2);
});

test('a price in the base currency rounds alone as it rounds multiplied by 1 (up to forty digits)', () => {
  const r = generator(SEED);
  for (let i = 0; i < RUNS; i++) {
    const price = r.chance(0.5) ? r.amount(100_000) : r.amount(1000).div(r.pick(['3', '7', '0.92', '1.0825']));
    assert.equal(roundMoney(price).toString(), roundMoney(price.mul(1)).toString(), price.toString());
  }
});
