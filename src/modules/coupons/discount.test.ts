/** computeDiscount against hand-computed carts, one action at a time. */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { dec } from '../../platform/money.js';
import { computeDiscount, type CartRule, type DiscountLine, type DiscountResult } from './discount.js';

const rule = (over: Partial<CartRule> = {}): CartRule => ({
  couponId: 1,
  ruleId: 1,
  code: 'TEST',
  ruleName: 'Test',
  action: 'by_percent',
  discountAmount: dec(10),
  discountQty: null,
  discountStep: 0,
  minimumSubtotal: null,
  simpleFreeShipping: 0,
  applyToShipping: false,
  ...over,
});
const line = (id: number, qty: string | number, price: string | number): DiscountLine => ({ id, qty: dec(qty), price: dec(price) });
const opts = (o: { rate?: string; shipping?: string; baseSubtotal?: string } = {}) => ({
  rate: dec(o.rate ?? '1'),
  shippingAmount: dec(o.shipping ?? '0'),
  baseSubtotal: dec(o.baseSubtotal ?? '1000'),
});
function plain(r: DiscountResult) {
  return {
    lines: Object.fromEntries([...r.lines].map(([id, d]) => [id, d.toFixed(2)])),
    shipping: r.shipping.toFixed(2),
    total: r.total.toFixed(2),
    freeShipping: r.freeShipping,
  };
}

describe('by_percent', () => {
  test('each line qty × price × percent, rounded half up per line', () => {
    const r = computeDiscount(rule(), [line(1, 2, '19.99'), line(2, 1, '5.55')], opts());
    // 39.98 × 10% = 3.998 → 4.00; 5.55 × 10% = 0.555 → 0.56
    assert.deepEqual(plain(r), { lines: { 1: '4.00', 2: '0.56' }, shipping: '0.00', total: '4.56', freeShipping: 0 });
  });

  test('a percent above 100 counts as 100: never more than the row total', () => {
    const r = computeDiscount(rule({ discountAmount: dec(150) }), [line(1, 3, '19.99')], opts());
    assert.deepEqual(plain(r).lines, { 1: '59.97' });
  });

  test('discountQty caps the units discounted per line', () => {
    const r = computeDiscount(rule({ discountQty: dec(1) }), [line(1, 3, 10), line(2, '0.5', 10)], opts());
    assert.deepEqual(plain(r).lines, { 1: '1.00', 2: '0.50' });
  });

  test('applyToShipping discounts the shipping amount by the same percent', () => {
    const r = computeDiscount(rule({ applyToShipping: true, discountAmount: dec(15) }), [line(1, 1, 20)], opts({ shipping: '15.00' }));
    // 20 × 15% = 3.00; 15.00 × 15% = 2.25
    assert.deepEqual(plain(r), { lines: { 1: '3.00' }, shipping: '2.25', total: '5.25', freeShipping: 0 });
    const off = computeDiscount(rule({ discountAmount: dec(15) }), [line(1, 1, 20)], opts({ shipping: '15.00' }));
    assert.equal(off.shipping.toFixed(2), '0.00');
  });
});

describe('by_fixed', () => {
  test('the amount off each unit, at most the unit price', () => {
    const r = computeDiscount(rule({ action: 'by_fixed', discountAmount: dec(5) }), [line(1, 2, 20), line(2, 3, 3)], opts());
    assert.deepEqual(plain(r), { lines: { 1: '10.00', 2: '9.00' }, shipping: '0.00', total: '19.00', freeShipping: 0 });
  });

  test('the base amount is converted at the rate, then rounded per line', () => {
    const r = computeDiscount(
      rule({ action: 'by_fixed', discountAmount: dec('5.555') }),
      [line(1, 1, 20), line(2, 3, 20)],
      opts({ rate: '0.92' }),
    );
    // 5.555 × 0.92 = 5.1106 per unit: 5.1106 → 5.11; 15.3318 → 15.33
    assert.deepEqual(plain(r).lines, { 1: '5.11', 2: '15.33' });
    assert.equal(r.total.toFixed(2), '20.44');
  });

  test('discountQty caps the units; shipping is never discounted', () => {
    const r = computeDiscount(
      rule({ action: 'by_fixed', discountAmount: dec(5), discountQty: dec(1), applyToShipping: true }),
      [line(1, 2, 20), line(2, 3, 3)],
      opts({ shipping: '10' }),
    );
    assert.deepEqual(plain(r), { lines: { 1: '5.00', 2: '3.00' }, shipping: '0.00', total: '8.00', freeShipping: 0 });
  });
});

describe('cart_fixed', () => {
  test('spread in proportion to row totals; the last line takes the remainder', () => {
    const r = computeDiscount(
      rule({ action: 'cart_fixed', discountAmount: dec(10) }),
      [line(1, 1, 30), line(2, 2, 10), line(3, 1, 10)],
      opts(),
    );
    // 10 × 30/60 = 5.00; 10 × 20/60 = 3.333 → 3.33; last 10 − 8.33 = 1.67
    assert.deepEqual(plain(r), { lines: { 1: '5.00', 2: '3.33', 3: '1.67' }, shipping: '0.00', total: '10.00', freeShipping: 0 });
  });

  test('in the cart currency: the converted amount is spread exactly', () => {
    const r = computeDiscount(
      rule({ action: 'cart_fixed', discountAmount: dec(10) }),
      [line(1, 1, 10), line(2, 1, 10), line(3, 1, 10)],
      opts({ rate: '0.92' }),
    );
    // 9.20 / 3 = 3.0666 → 3.07, 3.07, last 9.20 − 6.14 = 3.06
    assert.deepEqual(plain(r).lines, { 1: '3.07', 2: '3.07', 3: '3.06' });
    assert.equal(r.total.toFixed(2), '9.20');
  });

  test('never more than the lines; the remainder goes onto shipping only with applyToShipping, capped', () => {
    const lines = [line(1, 1, 30), line(2, 2, 10), line(3, 1, 10)];
    const noShip = computeDiscount(rule({ action: 'cart_fixed', discountAmount: dec(100) }), lines, opts({ shipping: '15' }));
    assert.deepEqual(plain(noShip), { lines: { 1: '30.00', 2: '20.00', 3: '10.00' }, shipping: '0.00', total: '60.00', freeShipping: 0 });
    const ship = computeDiscount(
      rule({ action: 'cart_fixed', discountAmount: dec(100), applyToShipping: true }),
      lines,
      opts({ shipping: '15' }),
    );
    assert.deepEqual(plain(ship), { lines: { 1: '30.00', 2: '20.00', 3: '10.00' }, shipping: '15.00', total: '75.00', freeShipping: 0 });
    const part = computeDiscount(
      rule({ action: 'cart_fixed', discountAmount: dec(65), applyToShipping: true }),
      lines,
      opts({ shipping: '15' }),
    );
    assert.equal(part.shipping.toFixed(2), '5.00');
    assert.equal(part.total.toFixed(2), '65.00');
  });

  test('discountQty limits the units a line shares by', () => {
    const r = computeDiscount(
      rule({ action: 'cart_fixed', discountAmount: dec(50), discountQty: dec(1) }),
      [line(1, 3, 10), line(2, 1, 20)],
      opts(),
    );
    // eligible 10 + 20 = 30 < 50: each line gets its eligible part
    assert.deepEqual(plain(r).lines, { 1: '10.00', 2: '20.00' });
  });
});

describe('buy_x_get_y', () => {
  test('floor(qty / (X + Y)) × Y free units per line', () => {
    const r = computeDiscount(
      rule({ action: 'buy_x_get_y', discountStep: 2, discountAmount: dec(1) }),
      [line(1, 7, 4), line(2, 2, 9), line(3, 6, '2.50')],
      opts(),
    );
    // 7 / 3 → 2 free × 4 = 8; 2 / 3 → 0; 6 / 3 → 2 × 2.50 = 5
    assert.deepEqual(plain(r), { lines: { 1: '8.00', 2: '0.00', 3: '5.00' }, shipping: '0.00', total: '13.00', freeShipping: 0 });
  });

  test('discountQty caps the free units; rounding per line', () => {
    const capped = computeDiscount(
      rule({ action: 'buy_x_get_y', discountStep: 2, discountAmount: dec(1), discountQty: dec(1) }),
      [line(1, 7, 4)],
      opts(),
    );
    assert.deepEqual(plain(capped).lines, { 1: '4.00' });
    const r = computeDiscount(rule({ action: 'buy_x_get_y', discountStep: 1, discountAmount: dec(1) }), [line(1, 5, '3.335')], opts());
    // 5 / 2 → 2 free × 3.335 = 6.67
    assert.deepEqual(plain(r).lines, { 1: '6.67' });
    const y2 = computeDiscount(rule({ action: 'buy_x_get_y', discountStep: 1, discountAmount: dec(2) }), [line(1, 7, 1)], opts());
    // groups of 3: 7 / 3 → 2 × 2 = 4 free
    assert.deepEqual(plain(y2).lines, { 1: '4.00' });
  });
});

describe('conditions and free shipping', () => {
  test('below minimumSubtotal (base) nothing applies, not even free shipping', () => {
    const r0 = rule({ minimumSubtotal: dec(50), simpleFreeShipping: 2, applyToShipping: true });
    const below = computeDiscount(r0, [line(1, 1, 40)], opts({ baseSubtotal: '49.99', shipping: '5' }));
    assert.deepEqual(plain(below), { lines: { 1: '0.00' }, shipping: '0.00', total: '0.00', freeShipping: 0 });
    const at = computeDiscount(r0, [line(1, 1, 40)], opts({ baseSubtotal: '50', shipping: '5' }));
    assert.deepEqual(plain(at), { lines: { 1: '4.00' }, shipping: '0.50', total: '4.50', freeShipping: 2 });
  });

  test('freeShipping is the rule’s simpleFreeShipping; empty carts and zero prices give nothing', () => {
    assert.equal(computeDiscount(rule({ simpleFreeShipping: 1 }), [], opts()).freeShipping, 1);
    const r = computeDiscount(rule({ action: 'cart_fixed' }), [line(1, 1, 0), line(2, 0, 5)], opts());
    assert.deepEqual(plain(r), { lines: { 1: '0.00', 2: '0.00' }, shipping: '0.00', total: '0.00', freeShipping: 0 });
  });
});
