/**
 * A cart as the shopper sees it: its items priced from the catalog as it is now (special and tier prices,
 * option prices, the customer group), the coupon and gift cards that still apply, the shipping rates for its
 * address, tax for its destination, the payment methods its total allows, and every total in the base and the
 * cart's currency. The amounts come from the totals pipeline (totals.ts); this file gathers its inputs with a
 * fixed number of queries whatever the number of items.
 */
import { together, type Ctx } from '../../platform/context.js';
import { ReadCache, readVersion } from '../../platform/read-cache.js';
import { dec, type Decimal } from '../../platform/money.js';
import { productsForSale, unitPriceFor, type SaleProduct } from '../catalog/sale.js';
import type { CartRule } from '../coupons/discount.js';
import { couponForCart, type Verdict } from '../coupons/validation.js';
import { pricingGroup } from '../customers/groups-service.js';
import type { UsableGiftcard } from '../giftcards/cards.js';
import { giftcardsByCodes } from '../giftcards/spend.js';
import { availabilityFrom, stockRulesAt, type LineAvailability, type StockLine, type StockRule } from '../inventory/service.js';
import { availablePaymentMethods } from '../payment/service.js';
import { shippingRates, type ShippingRate } from '../shipping/service.js';
import { resolveTaxRates, resolveTaxRatesMany, taxConfig, type ResolvedTax, type TaxDestination } from '../tax/service.js';
import { ONE_PER_UNIT, stockParts } from './items.js';
import type { CartAddress, carts, cartItems } from './tables.js';
import { computeTotals, continueTotals, type Totals, type TotalsLine } from './totals.js';

export type CartRow = typeof carts.$inferSelect;
/** A cart line as pricing and the cart's answers use it. */
export type CartItemRow = Omit<typeof cartItems.$inferSelect, 'cartId' | 'createdAt'>;

const ZERO = dec(0);
const HUNDRED = dec(100);

/** The request context in the cart's own store view and currency: a cart is priced where it was made. */
export function cartContext(ctx: Ctx, cart: Pick<CartRow, 'storeId' | 'currency'>): Ctx {
  if (cart.storeId === ctx.store.storeId && cart.currency === ctx.store.currency) return ctx;
  const registry = ctx.app.settings;
  const store = registry.store(cart.storeId) ?? registry.defaultStore;
  let sctx;
  try {
    sctx = registry.resolveStore(store.code, cart.currency);
  } catch {
    sctx = registry.resolveStore(store.code, undefined);
  }
  if (sctx.storeId === ctx.store.storeId && sctx.currency === ctx.store.currency) return ctx;
  return { ...ctx, store: { ...sctx, explicit: true } };
}

/** One priced line with what the DTO and the order need besides the amounts. */
export interface PricedItem {
  row: CartItemRow;
  product: SaleProduct;
  child?: SaleProduct;
  sku: string;
  name: string;
  basePrice: Decimal;
  taxClassId: number;
  isVirtual: boolean;
  weight: Decimal;
  options: { label: string; value: string }[];
  inStock: boolean;
}

export interface PricedCart {
  cart: CartRow;
  items: PricedItem[];
  /** in the cart's currency */
  totals: Totals;
  base: Totals;
  rate: Decimal;
  isVirtual: boolean;
  rule: CartRule | null;
  /** why the cart's coupon no longer applies (expired, used up, ...), when it does not */
  couponRefusal?: string;
  shippingRates: ShippingRate[];
  selectedRate: ShippingRate | null;
  paymentMethods: ReturnType<typeof availablePaymentMethods>;
  groupId: number;
  /** the catalog data the lines were priced from (products, children, bundle selections) */
  products: Map<number, SaleProduct>;
}

function optionPrice(price: Decimal | null, priceType: string, of: Decimal): Decimal {
  if (price === null) return ZERO;
  return priceType === 'percent' ? of.mul(price).div(HUNDRED) : price;
}

/** Unit price (base currency, before tax handling), display options, weight and virtual flag of one line. */
function priceLine(
  row: CartItemRow,
  products: Map<number, SaleProduct>,
  who: { customerGroupId: number; websiteId: number },
): Omit<PricedItem, 'inStock'> | undefined {
  const p = products.get(row.productId);
  if (!p) return undefined;
  const qty = dec(row.qty);
  const br = row.buyRequest ?? {};
  const options: { label: string; value: string }[] = [];
  let base: Decimal;
  let weight = p.weight ?? ZERO;
  let isVirtual = p.type === 'virtual' || p.type === 'downloadable';
  let child: SaleProduct | undefined;
  if (p.type === 'configurable') {
    child = row.childProductId ? products.get(row.childProductId) : undefined;
    if (!child) return undefined;
    base = unitPriceFor(child, { ...who, qty }) ?? ZERO;
    weight = child.weight ?? weight;
    isVirtual = child.type === 'virtual';
    for (const a of p.superAttributes) {
      const v = br.superAttribute?.[String(a.id)];
      if (v !== undefined) options.push({ label: a.label, value: a.options.get(v) ?? String(v) });
    }
  } else if (p.type === 'bundle') {
    const fixed = p.priceType === 1;
    const own = unitPriceFor(p, { ...who, qty }) ?? ZERO;
    base = fixed ? own : ZERO;
    let bundleWeight = ZERO;
    let allVirtual = true;
    for (const o of p.bundleOptions) {
      const chosen = br.bundleOption?.[String(o.id)] ?? [];
      const parts: string[] = [];
      for (const selId of chosen) {
        const sel = o.selections.find((s) => s.id === selId);
        const sp = sel && products.get(sel.productId);
        if (!sel || !sp) continue;
        const selQty = br.bundleOptionQty?.[String(o.id)] !== undefined ? dec(br.bundleOptionQty[String(o.id)]) : sel.qty;
        const each = fixed ? optionPrice(sel.price, sel.priceType, own) : (unitPriceFor(sp, { ...who, qty: selQty.mul(qty) }) ?? ZERO);
        base = base.add(each.mul(selQty));
        bundleWeight = bundleWeight.add((sp.weight ?? ZERO).mul(selQty));
        if (sp.type !== 'virtual') allVirtual = false;
        parts.push(`${selQty.toString()} x ${sp.name}`);
      }
      if (parts.length) options.push({ label: o.title, value: parts.join(', ') });
    }
    if (p.weightType !== 1) weight = bundleWeight;
    isVirtual = allVirtual && chosenCount(br) > 0;
  } else {
    base = unitPriceFor(p, { ...who, qty }) ?? ZERO;
  }
  if (p.type === 'downloadable') {
    const chosen = p.links.filter((l) => br.links?.includes(l.id));
    if (p.linksPurchasedSeparately) for (const l of chosen) base = base.add(l.price);
    if (chosen.length) options.push({ label: p.linksTitle || 'Links', value: chosen.map((l) => l.title).join(', ') });
  }
  const priceForPercent = base;
  for (const o of p.customOptions) {
    const v = br.options?.[String(o.id)];
    if (v === undefined) continue;
    if (o.values.length) {
      const chosen = (Array.isArray(v) ? v : [v]).map(Number);
      const titles: string[] = [];
      for (const id of chosen) {
        const val = o.values.find((x) => x.id === id);
        if (!val) continue;
        base = base.add(optionPrice(val.price, val.priceType, priceForPercent));
        titles.push(val.title);
      }
      options.push({ label: o.title, value: titles.join(', ') });
    } else {
      base = base.add(optionPrice(o.price, o.priceType, priceForPercent));
      const text = String(v);
      options.push({ label: o.title, value: text.startsWith('file:') ? text.split(':').slice(2).join(':') : text });
    }
  }
  return {
    row,
    product: p,
    child,
    sku: child?.sku ?? p.sku,
    name: p.name,
    basePrice: base,
    taxClassId: p.taxClassId,
    isVirtual,
    weight: isVirtual ? ZERO : weight,
    options,
  };
}

function chosenCount(br: CartItemRow['buyRequest']): number {
  return Object.values(br.bundleOption ?? {}).reduce((n, list) => n + list.length, 0);
}

function destinationOf(a: CartAddress | null | undefined): TaxDestination | undefined {
  return a ? { countryId: a.countryId, regionId: a.regionId ?? null, postcode: a.postcode ?? null } : undefined;
}

/**
 * What a caller that just read them can hand over, so that pricing does not read them again (a list of carts
 * reads them for all its carts at once: price-many.ts).
 */
export interface Preloaded {
  /** the catalog version read in this request */
  version?: bigint;
  /** the cart's products (may hold more) */
  products?: Map<number, SaleProduct>;
  /** availability of the cart's stock lines, in the order stockLinesOf gives them */
  availability?: LineAvailability[];
  /** the stock rules of the cart's products (may hold more) */
  stock?: Map<number, StockRule>;
  /**
   * the products `stock` was read for (one of them without a rule has no stock row); when given, a cart whose
   * lines take another product (a bundle's selections) has its rules read
   */
  stockRead?: ReadonlySet<number>;
  /** the customer group the cart is priced for (pricingGroup) */
  group?: PricingGroup;
  /** the cart's gift cards that are still usable (giftcardsByCodes) */
  cards?: UsableGiftcard[];
  /** the verdict on the cart's coupon code for that group (couponForCart); null when the cart has none */
  coupon?: Verdict | null;
  /** the tax rates of the cart's lookups (taxLookups), in their order */
  tax?: Map<number, ResolvedTax>[];
}

export interface PricingGroup {
  groupId: number;
  taxClassId: number;
}

/** Tax rates and guest groups, per process, until the catalog or tax setup changes (the same version). */
const taxCache = (ctx: Ctx) =>
  ctx.app.settings.memo('carts.tax-rates', () => new ReadCache<Map<number, ResolvedTax>>('catalog', 5_000, false));
const groupCache = (ctx: Ctx) => ctx.app.settings.memo('carts.groups', () => new ReadCache<PricingGroup>('catalog', 1_000, false));

/** The pricing group of a cart of no customer (the group it was made in), from this process's cache. */
export function cachedGroup(ctx: Ctx, version: bigint, groupId: number): Promise<PricingGroup> {
  return groupCache(ctx).at(version, String(groupId), () => pricingGroup(ctx, { customerId: null, groupId }));
}

/** A tax lookup of a cart: its customer class and product classes at a destination, in the cart's store view. */
export interface TaxLookup {
  dest: TaxDestination;
  customerClass: number;
  classes: number[];
}

function rateKey(ctx: Ctx, l: TaxLookup): string {
  return [ctx.store.storeId, l.dest.countryId, l.dest.regionId ?? '', l.dest.postcode ?? '', l.customerClass, l.classes.join(',')].join(
    '|',
  );
}

/**
 * The tax lookups pricing makes for a cart (`ctx` its context) with these lines: at the destination tax is based
 * on, then, where prices include tax, at the default destination.
 */
export function taxLookups(ctx: Ctx, cart: CartRow, lines: readonly { taxClassId: number }[], group: PricingGroup): TaxLookup[] {
  const tax = taxConfig(ctx, cart.storeId);
  const dest =
    (tax.basedOn === 'billing'
      ? destinationOf(cart.billingAddress)
      : tax.basedOn === 'origin'
        ? tax.originDestination
        : destinationOf(cart.shippingAddress)) ?? tax.defaultDestination;
  const classes = [...new Set([...lines.map((i) => i.taxClassId), tax.shippingTaxClassId].filter((c) => c > 0))];
  const at = [{ dest, customerClass: group.taxClassId, classes }];
  if (tax.priceIncludesTax || tax.shippingIncludesTax) at.push({ dest: tax.defaultDestination, customerClass: group.taxClassId, classes });
  return at;
}

/**
 * The rates of tax lookups, each in its cart's context, from this process's cache, the missing ones resolved in
 * one query whatever their number.
 */
export async function cachedRates(
  version: bigint,
  lookups: readonly { ctx: Ctx; lookup: TaxLookup }[],
): Promise<Map<number, ResolvedTax>[]> {
  const wanted = lookups.filter((l) => l.lookup.classes.length);
  if (!wanted.length) return lookups.map(() => new Map());
  const byKey = new Map(wanted.map((l) => [rateKey(l.ctx, l.lookup), l]));
  const got = await taxCache(wanted[0].ctx).atMany(version, [...byKey.keys()], async (missing) => {
    const asks = missing.map((k) => byKey.get(k)!);
    const resolved =
      asks.length === 1
        ? [await resolveTaxRates(asks[0].ctx, asks[0].lookup.dest, asks[0].lookup.customerClass, asks[0].lookup.classes)]
        : await resolveTaxRatesMany(
            asks[0].ctx,
            asks.map((a) => ({
              dest: a.lookup.dest,
              customerTaxClassId: a.lookup.customerClass,
              productTaxClassIds: a.lookup.classes,
              storeId: a.ctx.store.storeId,
            })),
          );
    return new Map(missing.map((k, i) => [k, resolved[i]]));
  });
  return lookups.map((l) => (l.lookup.classes.length ? got.get(rateKey(l.ctx, l.lookup))! : new Map()));
}

/** The lines of a cart that can be priced (their products are for sale), each with its unit price and options. */
export function pricedLines(
  rows: readonly CartItemRow[],
  products: Map<number, SaleProduct>,
  who: { customerGroupId: number; websiteId: number },
): Omit<PricedItem, 'inStock'>[] {
  return rows.map((r) => priceLine(r, products, who)).filter((x): x is Omit<PricedItem, 'inStock'> => x !== undefined);
}

/** The stock lines of priced lines: every product each takes, for the line's qty. */
export function stockLinesOf(
  rows: (Pick<CartItemRow, 'productId' | 'childProductId' | 'buyRequest'> & { qty: string | number })[],
  products: Map<number, SaleProduct>,
): StockLine[][] {
  return rows.map((r) =>
    stockParts(r, products).map((part) => ({
      productId: part.productId,
      // line quantities are whole numbers: one per unit needs no decimal arithmetic
      qty: part.per === ONE_PER_UNIT ? Math.ceil(Number(r.qty)) : Math.ceil(part.per.mul(r.qty).toNumber()),
    })),
  );
}

/** The products cart lines name: each line's product and, for a configurable, its chosen child. */
export function lineProductIds(rows: readonly Pick<CartItemRow, 'productId' | 'childProductId'>[]): number[] {
  return rows.flatMap((r) => (r.childProductId ? [r.productId, r.childProductId] : [r.productId]));
}

/** Prices a cart. `ctx` must be the cart's context (cartContext). */
export async function priceCart(ctx: Ctx, cart: CartRow, rows: CartItemRow[], pre: Preloaded = {}): Promise<PricedCart> {
  const storeId = cart.storeId;
  const websiteId = ctx.store.websiteId;
  const version = pre.version ?? (await readVersion(ctx.db, 'catalog'));
  const ids = lineProductIds(rows);
  const [products, group, cards] = await together(ctx, [
    () => pre.products ?? productsForSale(ctx, ids, version),
    (): Promise<PricingGroup> =>
      pre.group
        ? Promise.resolve(pre.group)
        : cart.customerId === null
          ? cachedGroup(ctx, version, cart.customerGroupId)
          : pricingGroup(ctx, { customerId: cart.customerId, groupId: cart.customerGroupId }),
    (): Promise<UsableGiftcard[]> =>
      pre.cards ? Promise.resolve(pre.cards) : cart.giftcardCodes.length ? giftcardsByCodes(ctx, cart.giftcardCodes) : Promise.resolve([]),
  ] as const);
  const who = { customerGroupId: group.groupId, websiteId };
  const lines = pricedLines(rows, products, who);

  // stock: every product a line takes, against the cart's total of it
  const stockLines = stockLinesOf(
    lines.map((l) => l.row),
    products,
  );
  const flat = stockLines.flat();
  const availability =
    pre.availability && pre.availability.length === flat.length
      ? pre.availability
      : availabilityFrom(
          (pre.stock && (!pre.stockRead || flat.every((l) => pre.stockRead!.has(l.productId))) ? pre.stock : undefined) ??
            (await stockRulesAt(
              ctx,
              version,
              flat.map((l) => l.productId),
            )),
          flat,
        );
  let at = 0;
  const items: PricedItem[] = lines.map((l, i) => {
    const n = stockLines[i].length;
    const inStock = l.product.sellable && availability.slice(at, at + n).every((a) => a.available);
    at += n;
    return { ...l, inStock };
  });

  const tax = taxConfig(ctx, storeId);
  const [rates, originRates = new Map<number, ResolvedTax>()] =
    pre.tax ??
    (await cachedRates(
      version,
      taxLookups(ctx, cart, items, group).map((lookup) => ({ ctx, lookup })),
    ));
  const pct = (m: typeof rates, c: number): Decimal => (c > 0 ? (m.get(c)?.percent ?? ZERO) : ZERO);

  const coupon =
    pre.coupon !== undefined
      ? pre.coupon
      : cart.couponCode
        ? await couponForCart(ctx, cart.couponCode, { customerId: cart.customerId, customerGroupId: group.groupId, websiteId })
        : null;
  const rule = coupon?.ok ? coupon.rule : null;

  const totalsLines: TotalsLine[] = items.map((i) => ({
    id: i.row.id,
    qty: dec(i.row.qty),
    basePrice: i.basePrice,
    customPrice: null,
    taxPercent: pct(rates, i.taxClassId),
    originPercent: pct(originRates, i.taxClassId),
  }));
  const baseRate = dec(1);
  const rate = ctx.app.settings.rate(ctx.store.baseCurrency, cart.currency) ?? baseRate;
  const giftcards = cards.map((c) => {
    const toCard = c.currencyCode === ctx.store.baseCurrency ? baseRate : ctx.app.settings.rate(ctx.store.baseCurrency, c.currencyCode);
    return { code: c.code, baseBalance: toCard && !toCard.isZero() ? c.balance.div(toCard) : c.balance };
  });
  const common = {
    rule,
    shippingTaxPercent: pct(rates, tax.shippingTaxClassId),
    shippingOriginPercent: pct(originRates, tax.shippingTaxClassId),
    priceIncludesTax: tax.priceIncludesTax,
    shippingIncludesTax: tax.shippingIncludesTax,
    applyAfterDiscount: tax.applyAfterDiscount,
  };
  // custom prices are in the cart's currency: in base they are converted back
  const baseLines = totalsLines.map((l, i) => {
    const custom = items[i].row.customPrice;
    return custom === null ? l : { ...l, basePrice: dec(custom).div(rate) };
  });
  const curLines = totalsLines.map((l, i) => {
    const custom = items[i].row.customPrice;
    return custom === null ? l : { ...l, customPrice: dec(custom) };
  });
  // 1. without shipping: what the package is worth and whether a rule ships it free
  const isVirtual = items.length > 0 && items.every((i) => i.isVirtual);

  // 2. shipping rates for the address
  let available: ShippingRate[] = [];
  let selectedRate: ShippingRate | null = null;
  let preShip: Totals | undefined;
  const ship = cart.shippingAddress;
  if (ship && !isVirtual && items.length) {
    const upTo = computeTotals({ ...common, lines: baseLines, baseShippingPrice: null, giftcards: [], rate: baseRate }, 'discount');
    preShip = upTo;
    const physical = items.filter((i) => !i.isVirtual);
    const packageQty = physical.reduce((n, i) => n.add(dec(i.row.qty)), ZERO);
    const packageWeight = physical.reduce((n, i) => n.add(i.weight.mul(dec(i.row.qty))), ZERO);
    // table rates by value may count virtual items too (carriers/tablerate/include_virtual_price)
    const valued = ctx.app.settings.getBool('carriers/tablerate/include_virtual_price', storeId) ? items : physical;
    const packageValue = valued.reduce((n, i) => n.add(upTo.lines.get(i.row.id)!.rowTotalWithDiscount), ZERO);
    const packageValueWithoutDiscount = physical.reduce((n, i) => n.add(upTo.lines.get(i.row.id)!.rowTotal), ZERO);
    available = await shippingRates(ctx, {
      storeId,
      websiteId,
      countryId: ship.countryId,
      regionId: ship.regionId ?? null,
      postcode: ship.postcode ?? null,
      packageValue,
      packageValueWithoutDiscount,
      packageWeight,
      packageQty,
      freeShipping: upTo.freeShipping > 0,
    });
    selectedRate = available.find((r) => r.code === cart.shippingMethod) ?? null;
  }

  // 3. everything, in base and in the cart's currency
  const baseShippingPrice = selectedRate ? selectedRate.price : null;
  const baseInput = { ...common, lines: baseLines, baseShippingPrice, giftcards, rate: baseRate };
  // the run shipping was asked with has collected the subtotal and the discount already
  const base = (preShip && continueTotals(preShip, baseInput)) ?? computeTotals(baseInput);
  const totals = rate.eq(1)
    ? base
    : computeTotals({ ...common, lines: curLines, baseShippingPrice, giftcards, rate, baseSubtotal: base.subtotal });

  const billingCountry = cart.billingAddress?.countryId ?? cart.shippingAddress?.countryId ?? null;
  const paymentMethods = items.length
    ? availablePaymentMethods(ctx, { storeId, countryId: billingCountry, baseGrandTotal: base.grandTotal })
    : [];
  const couponRefusal = coupon && !coupon.ok ? coupon.message : undefined;
  return {
    cart,
    items,
    totals,
    base,
    rate,
    isVirtual,
    rule,
    couponRefusal,
    shippingRates: available,
    selectedRate,
    paymentMethods,
    groupId: group.groupId,
    products,
  };
}
