/**
 * Shipping carriers out of the box (flat rate, free shipping, table rates) and the rates they offer for a
 * package. The carts module builds the request from a quote address and calls `shippingRates` / `findRate`;
 * prices are in the base currency and the cart converts them.
 */
import { and, eq, inArray, lte } from 'drizzle-orm';
import type { Ctx } from '../../platform/context.js';
import { dec, roundMoney, type Decimal } from '../../platform/money.js';
import { declareConfig, declareConfigLabels } from '../../platform/settings.js';
import { tableRates } from './tables.js';

const COUNTRY = /^[A-Z]{2}$/;

declareConfigLabels({
  carriers: 'Shipping Methods',
  'carriers/flatrate': 'Flat Rate',
  'carriers/freeshipping': 'Free Shipping',
  'carriers/tablerate': 'Table Rates',
});
declareConfig({
  'carriers/flatrate/active': { type: 'boolean', default: true, label: 'Enabled' },
  'carriers/flatrate/title': { type: 'string', default: 'Flat Rate', label: 'Title' },
  'carriers/flatrate/name': { type: 'string', default: 'Fixed', label: 'Method Name' },
  'carriers/flatrate/type': {
    type: 'select',
    default: 'I',
    label: 'Type',
    options: [
      { value: 'I', label: 'Per Item' },
      { value: 'O', label: 'Per Order' },
    ],
  },
  'carriers/flatrate/price': { type: 'decimal', default: '5.00', label: 'Price', min: 0 },
  'carriers/flatrate/handling_fee': { type: 'decimal', default: 0, label: 'Handling Fee', min: 0 },
  'carriers/flatrate/sallowspecific': { type: 'boolean', default: false, label: 'Ship to Specific Countries Only' },
  'carriers/flatrate/specificcountry': { type: 'multiselect', default: '', label: 'Ship to Specific Countries', pattern: COUNTRY },
  'carriers/flatrate/sort_order': { type: 'integer', default: 0, label: 'Sort Order' },

  'carriers/freeshipping/active': { type: 'boolean', default: false, label: 'Enabled' },
  'carriers/freeshipping/title': { type: 'string', default: 'Free Shipping', label: 'Title' },
  'carriers/freeshipping/name': { type: 'string', default: 'Free', label: 'Method Name' },
  'carriers/freeshipping/free_shipping_subtotal': {
    type: 'decimal',
    default: 0,
    label: 'Minimum Order Amount',
    comment: 'the subtotal (before discount, base currency) from which shipping is free; 0: always',
    min: 0,
  },
  'carriers/freeshipping/sallowspecific': { type: 'boolean', default: false, label: 'Ship to Specific Countries Only' },
  'carriers/freeshipping/specificcountry': { type: 'multiselect', default: '', label: 'Ship to Specific Countries', pattern: COUNTRY },
  'carriers/freeshipping/sort_order': { type: 'integer', default: 0, label: 'Sort Order' },

  'carriers/tablerate/active': { type: 'boolean', default: false, label: 'Enabled' },
  'carriers/tablerate/title': { type: 'string', default: 'Best Way', label: 'Title' },
  'carriers/tablerate/name': { type: 'string', default: 'Table Rate', label: 'Method Name' },
  'carriers/tablerate/condition_name': {
    type: 'select',
    default: 'package_weight',
    label: 'Condition',
    options: [
      { value: 'package_weight', label: 'Weight vs. Destination' },
      { value: 'package_value', label: 'Price vs. Destination' },
      { value: 'package_qty', label: '# of Items vs. Destination' },
    ],
  },
  'carriers/tablerate/handling_fee': { type: 'decimal', default: 0, label: 'Handling Fee', min: 0 },
  'carriers/tablerate/include_virtual_price': {
    type: 'boolean',
    default: false,
    label: 'Include Virtual Products in Price Calculation',
    comment: 'the cart applies it when it builds the request',
  },
  'carriers/tablerate/sallowspecific': { type: 'boolean', default: false, label: 'Ship to Specific Countries Only' },
  'carriers/tablerate/specificcountry': { type: 'multiselect', default: '', label: 'Ship to Specific Countries', pattern: COUNTRY },
  'carriers/tablerate/sort_order': { type: 'integer', default: 0, label: 'Sort Order' },
});

export type ConditionName = 'package_weight' | 'package_value' | 'package_qty';
export const CONDITION_NAMES: readonly ConditionName[] = ['package_weight', 'package_value', 'package_qty'];

export function isConditionName(v: unknown): v is ConditionName {
  return typeof v === 'string' && (CONDITION_NAMES as readonly string[]).includes(v);
}

export interface ShippingRequest {
  storeId: number;
  websiteId: number;
  /** ISO-2 */
  countryId: string;
  regionId: number | null;
  postcode: string | null;
  /** base currency, after discount */
  packageValue: Decimal;
  packageValueWithoutDiscount: Decimal;
  packageWeight: Decimal;
  /** units of shippable items */
  packageQty: Decimal;
  /** a cart rule made the whole shipment free */
  freeShipping: boolean;
  /** the weight of the items that do not ship free (table rates by weight use it when set) */
  freeMethodWeight?: Decimal;
}

export interface ShippingRate {
  /** `carrier_method` */
  code: string;
  /** "Carrier - Method" */
  title: string;
  carrierCode: string;
  methodCode: string;
  carrierTitle: string;
  methodTitle: string;
  /** base currency */
  price: Decimal;
}

/** What a carrier computes: a price, or nothing when it has no rate for the package. */
type Quote = (ctx: Ctx, req: ShippingRequest) => Promise<Decimal | undefined> | Decimal | undefined;

interface Carrier {
  code: string;
  methodCode: string;
  quote: Quote;
  /** its quote reads the database (else configuration alone) */
  readsDatabase?: boolean;
}

const cfg = (ctx: Ctx, carrier: string, key: string, storeId: number) => ctx.app.settings.get(`carriers/${carrier}/${key}`, storeId);

/** A non-negative amount from config; anything else (empty, malformed, negative) is 0. */
function amount(ctx: Ctx, carrier: string, key: string, storeId: number): Decimal {
  const raw = (cfg(ctx, carrier, key, storeId) ?? '').trim();
  if (!/^\d+(\.\d+)?$|^\.\d+$/.test(raw)) return dec(0);
  return dec(raw);
}

const price = (v: Decimal): Decimal => roundMoney(v.isNegative() ? dec(0) : v);

const flatRate: Carrier = {
  code: 'flatrate',
  methodCode: 'flatrate',
  quote(ctx, req) {
    if (req.freeShipping) return dec(0);
    const base = amount(ctx, 'flatrate', 'price', req.storeId);
    const perOrder = (cfg(ctx, 'flatrate', 'type', req.storeId) ?? 'I').trim().toUpperCase() === 'O';
    const shipping = perOrder ? base : base.times(req.packageQty);
    return price(shipping.plus(amount(ctx, 'flatrate', 'handling_fee', req.storeId)));
  },
};

const freeShipping: Carrier = {
  code: 'freeshipping',
  methodCode: 'freeshipping',
  quote(ctx, req) {
    if (req.freeShipping) return dec(0);
    const threshold = amount(ctx, 'freeshipping', 'free_shipping_subtotal', req.storeId);
    return req.packageValueWithoutDiscount.gte(threshold) ? dec(0) : undefined;
  },
};

const tableRate: Carrier = {
  code: 'tablerate',
  methodCode: 'bestway',
  readsDatabase: true,
  async quote(ctx, req) {
    const raw = cfg(ctx, 'tablerate', 'condition_name', req.storeId)?.trim();
    const condition: ConditionName = isConditionName(raw) ? raw : 'package_weight';
    const value =
      condition === 'package_weight'
        ? (req.freeMethodWeight ?? req.packageWeight)
        : condition === 'package_value'
          ? req.packageValue
          : req.packageQty;
    const found = await lookupTableRate(ctx, req, condition, value);
    if (!found) return undefined;
    if (req.freeShipping) return dec(0);
    return price(found.plus(amount(ctx, 'tablerate', 'handling_fee', req.storeId)));
  },
};

const CARRIERS: readonly Carrier[] = [flatRate, freeShipping, tableRate];
const byCode = new Map(CARRIERS.map((c) => [c.code, c]));

/** Carrier codes this service knows. */
export function carrierCodes(): string[] {
  return CARRIERS.map((c) => c.code);
}

/** How closely a row's postcode matches: -1 no match, 0 any ('*'), else the matched length (exact beats any prefix). */
function zipMatch(rowZip: string, postcode: string | null): number {
  if (rowZip === '*') return 0;
  if (postcode === null) return -1;
  const pc = postcode.trim().toUpperCase();
  if (!pc) return -1;
  const z = rowZip.toUpperCase();
  if (z.endsWith('*')) {
    const prefix = z.slice(0, -1);
    return pc.startsWith(prefix) ? prefix.length + 1 : -1;
  }
  return z === pc ? 10_000 : -1;
}

/**
 * The table-rate price for the package, or undefined. One query: every row of the website and condition for
 * the country (or '*') whose condition value is not above the package's. The most specific destination wins
 * (country+region+zip, country+region, country+zip, country, then '*'), then the highest condition value.
 */
async function lookupTableRate(ctx: Ctx, req: ShippingRequest, condition: ConditionName, value: Decimal): Promise<Decimal | undefined> {
  const country = req.countryId.trim().toUpperCase();
  const rows = await ctx.db
    .select({
      country: tableRates.destCountryId,
      regionId: tableRates.destRegionId,
      zip: tableRates.destZip,
      conditionValue: tableRates.conditionValue,
      price: tableRates.price,
    })
    .from(tableRates)
    .where(
      and(
        eq(tableRates.websiteId, req.websiteId),
        eq(tableRates.conditionName, condition),
        inArray(tableRates.destCountryId, [country, '*']),
        lte(tableRates.conditionValue, value.toFixed()),
      ),
    );
  let best: { rank: number; zip: number; cond: Decimal; price: string } | undefined;
  for (const r of rows) {
    const zip = zipMatch(r.zip, req.postcode);
    if (zip < 0) continue;
    const countryExact = r.country === country;
    if (r.regionId !== 0 && (!countryExact || r.regionId !== req.regionId)) continue;
    // lower rank = more specific destination
    const rank = countryExact ? (r.regionId !== 0 ? (zip > 0 ? 0 : 1) : zip > 0 ? 2 : 3) : zip > 0 ? 4 : 5;
    const cond = dec(r.conditionValue);
    if (!best || rank < best.rank || (rank === best.rank && (zip > best.zip || (zip === best.zip && cond.gt(best.cond))))) {
      best = { rank, zip, cond, price: r.price };
    }
  }
  return best ? dec(best.price) : undefined;
}

function countryAllowed(ctx: Ctx, carrier: string, req: ShippingRequest): boolean {
  if (!ctx.app.settings.getBool(`carriers/${carrier}/sallowspecific`, req.storeId)) return true;
  const country = req.countryId.trim().toUpperCase();
  return ctx.app.settings.getList(`carriers/${carrier}/specificcountry`, req.storeId).some((c) => c.toUpperCase() === country);
}

/** The carrier's title in a store view; undefined for an unknown carrier. */
export function carrierTitle(ctx: Ctx, carrierCode: string, storeId: number): string | undefined {
  if (!byCode.has(carrierCode)) return undefined;
  return cfg(ctx, carrierCode, 'title', storeId) ?? carrierCode;
}

/**
 * The rates every active carrier offers for the package, by sort order then code. A package without
 * shippable units (only virtual items) gets none.
 */
export async function shippingRates(ctx: Ctx, req: ShippingRequest): Promise<ShippingRate[]> {
  if (!req.packageQty.gt(0)) return [];
  const offered: { sort: number; rate: ShippingRate }[] = [];
  for (const carrier of CARRIERS) {
    const { code, methodCode } = carrier;
    if (!ctx.app.settings.getBool(`carriers/${code}/active`, req.storeId)) continue;
    if (!countryAllowed(ctx, code, req)) continue;
    const p = await carrier.quote(ctx, req);
    if (p === undefined) continue;
    const cTitle = cfg(ctx, code, 'title', req.storeId) ?? code;
    const mTitle = cfg(ctx, code, 'name', req.storeId) ?? methodCode;
    offered.push({
      sort: ctx.app.settings.getInt(`carriers/${code}/sort_order`, req.storeId),
      rate: {
        code: `${code}_${methodCode}`,
        title: `${cTitle} - ${mTitle}`,
        carrierCode: code,
        methodCode,
        carrierTitle: cTitle,
        methodTitle: mTitle,
        price: p,
      },
    });
  }
  offered.sort((a, b) => a.sort - b.sort || (a.rate.code < b.rate.code ? -1 : a.rate.code > b.rate.code ? 1 : 0));
  return offered.map((o) => o.rate);
}

/**
 * Whether shippingRates may read the database in this store view (an active carrier's rates are stored there);
 * otherwise its answer follows from the package and the configuration alone.
 */
export function ratesReadDatabase(ctx: Ctx, storeId: number): boolean {
  return CARRIERS.some((c) => c.readsDatabase && ctx.app.settings.getBool(`carriers/${c.code}/active`, storeId));
}

/** The rate for a `carrier_method` code, when it is offered for the package. */
export async function findRate(ctx: Ctx, req: ShippingRequest, code: string): Promise<ShippingRate | undefined> {
  const carrier = byCode.get(code.split('_')[0]);
  if (!carrier || `${carrier.code}_${carrier.methodCode}` !== code) return undefined;
  return (await shippingRates(ctx, req)).find((r) => r.code === code);
}
