/**
 * Money and other exact decimals. Amounts are NUMERIC(20,4) in the database and Decimal in code; they are
 * rounded to the currency's precision (2 places for every currency we price in) half away from zero, and
 * only at the points the pricing pipeline names. JSON carries them as numbers.
 */
import { Decimal } from 'decimal.js';

export { Decimal };

export const Money = Decimal.clone({ precision: 40, rounding: Decimal.ROUND_HALF_UP });
export type Money = Decimal;

export function dec(v: Decimal.Value): Decimal {
  return new Money(v);
}

/** Rounds to the currency's minor unit. */
export function roundMoney(v: Decimal.Value, places = 2): Decimal {
  return (v instanceof Money ? v : new Money(v)).toDecimalPlaces(places, Decimal.ROUND_HALF_UP);
}

/** A JSON number for the wire. */
export function toWire(v: Decimal.Value): number {
  return (v instanceof Money ? v : new Money(v)).toNumber();
}
