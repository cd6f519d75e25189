/**
 * What the cart totals read: the tax config of a store view, a customer group's tax class, and the percent each
 * product tax class pays at a destination.
 *
 * Matching: a rule applies when it lists the customer's class and the product's class; each of its rates applies
 * when its country is the destination's, its region is none or the destination's, and its postcode pattern
 * matches (`*` any; `ABC*` a prefix; an exact code, any case, spaces ignored; or a numeric range). Rules of the
 * same priority add their rates (a rate matched by two of them counts once); each higher priority compounds on
 * the lower ones, (1 + a)(1 + b) - 1, except the rates of a rule with `calculateSubtotal`, which only add.
 */
import { sql } from 'drizzle-orm';
import type { Ctx } from '../../platform/context.js';
import { rows, statement } from '../../platform/db.js';
import { dec, type Decimal } from '../../platform/money.js';
import { declareConfig, declareConfigLabels } from '../../platform/settings.js';

declareConfigLabels({
  tax: 'Tax',
  'tax/calculation': 'Calculation Settings',
  'tax/classes': 'Tax Classes',
  'tax/defaults': 'Default Tax Destination Calculation',
  shipping: 'Shipping Settings',
  'shipping/origin': 'Origin',
});
declareConfig({
  'tax/calculation/based_on': {
    type: 'select',
    default: 'shipping',
    label: 'Tax Calculation Based On',
    options: [
      { value: 'shipping', label: 'Shipping Address' },
      { value: 'billing', label: 'Billing Address' },
      { value: 'origin', label: 'Shipping Origin' },
    ],
  },
  'tax/calculation/price_includes_tax': { type: 'boolean', default: false, label: 'Catalog Prices Include Tax' },
  'tax/calculation/shipping_includes_tax': { type: 'boolean', default: false, label: 'Shipping Prices Include Tax' },
  'tax/calculation/apply_after_discount': { type: 'boolean', default: true, label: 'Apply Customer Tax After Discount' },
  'tax/classes/shipping_tax_class': {
    type: 'integer',
    default: 0,
    label: 'Tax Class for Shipping',
    comment: 'a tax class id; 0: none',
    min: 0,
  },
  'tax/defaults/country': { type: 'string', default: 'US', label: 'Default Tax Destination Country', pattern: /^[A-Z]{2}$/ },
  'tax/defaults/region': { type: 'integer', default: 0, label: 'Default State', comment: 'a region id; 0: any', min: 0 },
  'tax/defaults/postcode': { type: 'string', default: '*', label: 'Default Post Code' },
  'shipping/origin/country_id': { type: 'string', default: 'US', label: 'Origin Country', pattern: /^[A-Z]{2}$/ },
  'shipping/origin/region_id': { type: 'integer', default: 0, label: 'Origin Region/State', comment: 'a region id; 0: any', min: 0 },
  'shipping/origin/postcode': { type: 'string', default: '*', label: 'Origin ZIP/Postal Code' },
});

export interface TaxDestination {
  countryId: string;
  regionId: number | null;
  postcode: string | null;
}

export interface TaxConfig {
  /** which address decides the destination */
  basedOn: 'shipping' | 'billing' | 'origin';
  priceIncludesTax: boolean;
  shippingIncludesTax: boolean;
  applyAfterDiscount: boolean;
  /** 0: shipping is not taxed */
  shippingTaxClassId: number;
  /** the destination before an address is known (and the one tax-inclusive catalog prices include) */
  defaultDestination: TaxDestination;
  /** the shipping origin (basedOn = origin) */
  originDestination: TaxDestination;
}

export interface ResolvedTax {
  /** effective combined percent, e.g. 8.25 */
  percent: Decimal;
  rates: { code: string; title: string; percent: Decimal }[];
}

function destination(ctx: Ctx, storeId: number, country: string, region: string, postcode: string): TaxDestination {
  const s = ctx.app.settings;
  const regionId = s.getInt(region, storeId);
  const pc = (s.get(postcode, storeId) ?? '').trim();
  return Object.freeze({
    countryId: (s.get(country, storeId) ?? 'US').trim().toUpperCase(),
    regionId: regionId > 0 ? regionId : null,
    postcode: pc && pc !== '*' ? pc : null,
  });
}

/** The tax settings of a store view (computed once per config snapshot; shared and frozen). */
export function taxConfig(ctx: Ctx, storeId: number): TaxConfig {
  return ctx.app.settings.memo(`tax.config.${storeId}`, () => {
    const s = ctx.app.settings;
    const based = (s.get('tax/calculation/based_on', storeId) ?? '').trim().toLowerCase();
    return Object.freeze({
      basedOn: based === 'billing' || based === 'origin' ? based : 'shipping',
      priceIncludesTax: s.getBool('tax/calculation/price_includes_tax', storeId),
      shippingIncludesTax: s.getBool('tax/calculation/shipping_includes_tax', storeId),
      applyAfterDiscount: s.getBool('tax/calculation/apply_after_discount', storeId),
      shippingTaxClassId: Math.max(0, s.getInt('tax/classes/shipping_tax_class', storeId)),
      defaultDestination: destination(ctx, storeId, 'tax/defaults/country', 'tax/defaults/region', 'tax/defaults/postcode'),
      originDestination: destination(ctx, storeId, 'shipping/origin/country_id', 'shipping/origin/region_id', 'shipping/origin/postcode'),
    } satisfies TaxConfig);
  });
}

interface MatchRow {
  priority: number;
  calculateSubtotal: boolean;
  productClassIds: number[];
  rateId: number;
  code: string;
  rate: string;
  titles: { storeId: number; title: string }[] | string | null;
  postcode: string;
  zipIsRange: boolean;
  zipFrom: string | null;
  zipTo: string | null;
}

/** Every (rule, rate) pair that can apply to the customer class, any of the product classes, the country and region. */
const matchStatement = statement<MatchRow>(
  'tax_resolve_rates',
  () => sql`SELECT r.priority AS "priority", r.calculate_subtotal AS "calculateSubtotal", r.product_tax_class_ids AS "productClassIds",
      t.id AS "rateId", t.code AS "code", t.rate::text AS "rate", t.titles AS "titles", t.tax_postcode AS "postcode",
      t.zip_is_range AS "zipIsRange", t.zip_from AS "zipFrom", t.zip_to AS "zipTo"
    FROM tax_rules r JOIN tax_rates t ON t.id = ANY(r.tax_rate_ids)
    WHERE ${sql.placeholder('customerClass')}::int = ANY(r.customer_tax_class_ids)
      AND r.product_tax_class_ids && ${sql.placeholder('productClasses')}::int[]
      AND t.tax_country_id = ${sql.placeholder('country')}::text
      AND (t.tax_region_id IS NULL OR t.tax_region_id = 0 OR t.tax_region_id = ${sql.placeholder('region')}::int)
    ORDER BY r.priority, r.position, r.id, t.code, t.id`,
);

const normPostcode = (s: string) => s.replace(/\s+/g, '').toUpperCase();

/** Whether a rate's postcode pattern or range covers the destination postcode (normalized; null when unknown). */
export function postcodeMatches(
  rate: { postcode: string; zipIsRange: boolean; zipFrom: string | null; zipTo: string | null },
  dest: string | null,
): boolean {
  if (rate.zipIsRange) {
    const m = dest ? /^(\d{1,18})(?:-\d*)?$/.exec(dest) : null;
    if (!m || !rate.zipFrom || !rate.zipTo || !/^\d+$/.test(rate.zipFrom) || !/^\d+$/.test(rate.zipTo)) return false;
    const n = BigInt(m[1]);
    return n >= BigInt(rate.zipFrom) && n <= BigInt(rate.zipTo);
  }
  const p = normPostcode(rate.postcode ?? '*');
  if (p === '' || p === '*') return true;
  if (!dest) return false;
  if (p.endsWith('*')) return dest.startsWith(p.slice(0, -1));
  return dest === p;
}

const HUNDRED = dec(100);

/** A lookup as matched: the classes wanted, the country (upper case), region and postcode (normalized). */
interface Lookup {
  customerClass: number;
  wanted: number[];
  country: string;
  region: number | null;
  postcode: string | null;
}

/** The lookup of a destination, customer class and product classes; undefined when nothing can match. */
function lookupOf(dest: TaxDestination, customerTaxClassId: number, productTaxClassIds: number[]): Lookup | undefined {
  const wanted = [...new Set(productTaxClassIds.filter((id) => Number.isInteger(id) && id > 0 && id <= 2147483647))];
  const country = typeof dest.countryId === 'string' ? dest.countryId.trim().toUpperCase() : '';
  if (!wanted.length || !country || !Number.isInteger(customerTaxClassId) || customerTaxClassId <= 0 || customerTaxClassId > 2147483647)
    return undefined;
  const region =
    dest.regionId !== null && Number.isInteger(dest.regionId) && dest.regionId > 0 && dest.regionId <= 2147483647 ? dest.regionId : null;
  const postcode = dest.postcode ? normPostcode(dest.postcode) || null : null;
  return { customerClass: customerTaxClassId, wanted, country, region, postcode };
}

/**
 * The tax of each product tax class at a destination for a customer tax class: one query. Keys are the product
 * classes with at least one matching rate; an absent class pays no tax.
 */
export async function resolveTaxRates(
  ctx: Ctx,
  dest: TaxDestination,
  customerTaxClassId: number,
  productTaxClassIds: number[],
): Promise<Map<number, ResolvedTax>> {
  const lookup = lookupOf(dest, customerTaxClassId, productTaxClassIds);
  if (!lookup) return new Map();
  const found = await matchStatement.run(ctx.db, {
    customerClass: lookup.customerClass,
    productClasses: `{${lookup.wanted.join(',')}}`,
    country: lookup.country,
    region: lookup.region,
  });
  return ratesFrom(found, lookup, ctx.store.storeId);
}

interface ManyMatchRow extends MatchRow {
  customerClassIds: number[];
  country: string;
  regionId: number | null;
}

/**
 * resolveTaxRates for many lookups at once (a list of carts, each in its store view): one query whatever their
 * number, the answers in the order of `asks`.
 */
export async function resolveTaxRatesMany(
  ctx: Ctx,
  asks: readonly { dest: TaxDestination; customerTaxClassId: number; productTaxClassIds: number[]; storeId: number }[],
): Promise<Map<number, ResolvedTax>[]> {
  const lookups = asks.map((a) => lookupOf(a.dest, a.customerTaxClassId, a.productTaxClassIds));
  const valid = lookups.filter((l): l is Lookup => l !== undefined);
  if (!valid.length) return asks.map(() => new Map());
  const customerClasses = [...new Set(valid.map((l) => l.customerClass))];
  const productClasses = [...new Set(valid.flatMap((l) => l.wanted))];
  const countries = [...new Set(valid.map((l) => l.country))];
  const found = await rows<ManyMatchRow>(
    ctx.db,
    sql`SELECT r.priority AS "priority", r.calculate_subtotal AS "calculateSubtotal", r.product_tax_class_ids AS "productClassIds",
        r.customer_tax_class_ids AS "customerClassIds", t.tax_country_id AS "country", t.tax_region_id AS "regionId",
        t.id AS "rateId", t.code AS "code", t.rate::text AS "rate", t.titles AS "titles", t.tax_postcode AS "postcode",
        t.zip_is_range AS "zipIsRange", t.zip_from AS "zipFrom", t.zip_to AS "zipTo"
      FROM tax_rules r JOIN tax_rates t ON t.id = ANY(r.tax_rate_ids)
      WHERE r.customer_tax_class_ids && ${`{${customerClasses.join(',')}}`}::int[]
        AND r.product_tax_class_ids && ${`{${productClasses.join(',')}}`}::int[]
        AND t.tax_country_id IN (${sql.join(
          countries.map((c) => sql`${c}`),
          sql`, `,
        )})
      ORDER BY r.priority, r.position, r.id, t.code, t.id`,
  );
  return lookups.map((l, i) => {
    if (!l) return new Map();
    // the rows resolveTaxRates's statement would have read for this lookup, in its order
    const mine = found.filter(
      (r) =>
        r.customerClassIds.includes(l.customerClass) &&
        r.productClassIds.some((c) => l.wanted.includes(c)) &&
        r.country === l.country &&
        (r.regionId === null || r.regionId === 0 || r.regionId === l.region),
    );
    return ratesFrom(mine, l, asks[i].storeId);
  });
}

/** The tax of each wanted product class from the (rule, rate) rows matched for a lookup. */
function ratesFrom(found: MatchRow[], lookup: Lookup, storeId: number): Map<number, ResolvedTax> {
  const out = new Map<number, ResolvedTax>();
  if (!found.length) return out;
  const postcode = lookup.postcode;
  const wantedSet = new Set(lookup.wanted);

  /** per product class: priority → rate id → (row, plain); rows come by priority, so the maps keep that order */
  const byClass = new Map<number, Map<number, Map<number, { row: MatchRow; plain: boolean }>>>();
  for (const row of found) {
    if (!postcodeMatches(row, postcode)) continue;
    for (const classId of row.productClassIds) {
      if (!wantedSet.has(classId)) continue;
      let byPriority = byClass.get(classId);
      if (!byPriority) byClass.set(classId, (byPriority = new Map()));
      let rates = byPriority.get(row.priority);
      if (!rates) byPriority.set(row.priority, (rates = new Map()));
      if (!rates.has(row.rateId)) rates.set(row.rateId, { row, plain: row.calculateSubtotal });
    }
  }

  for (const [classId, byPriority] of byClass) {
    let total = dec(0);
    const list: ResolvedTax['rates'] = [];
    for (const priority of [...byPriority.keys()].sort((a, b) => a - b)) {
      let compound = dec(0);
      let plain = dec(0);
      for (const { row, plain: isPlain } of byPriority.get(priority)!.values()) {
        const percent = dec(row.rate);
        if (isPlain) plain = plain.add(percent);
        else compound = compound.add(percent);
        list.push({ code: row.code, title: rateTitle(row, storeId), percent });
      }
      total = total.add(plain).add(compound.mul(HUNDRED.add(total)).div(HUNDRED));
    }
    out.set(classId, { percent: total, rates: list });
  }
  return out;
}

function rateTitle(row: MatchRow, storeId: number): string {
  const titles = typeof row.titles === 'string' ? (JSON.parse(row.titles) as MatchRow['titles']) : row.titles;
  if (Array.isArray(titles)) {
    const t = titles.find((x) => x && x.storeId === storeId);
    if (t && typeof t.title === 'string' && t.title) return t.title;
  }
  return row.code;
}
