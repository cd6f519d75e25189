/**
 * What carts and orders need to know about the products they sell: the product in the request's store view
 * (name, whether it can be bought here, its final price), the choices it offers (custom options, configurable
 * attributes and children, bundle options and selections, downloadable links, grouped children) and its tier
 * prices. Loaded for many products at once in a fixed number of queries, whatever the number of products.
 */
import { and, asc, inArray, sql } from 'drizzle-orm';
import { together, type Ctx } from '../../platform/context.js';
import { ReadCache, readVersion } from '../../platform/read-cache.js';
import { dec, type Decimal } from '../../platform/money.js';
import { nameIn, sellableHere } from './products/subresource-shared.js';
import { productImageUrl } from './product-extras/media-urls.js';
import { finalPrice, priceDay } from './products/price.js';
import {
  attributeOptions,
  bundleOptions,
  bundleSelections,
  configurableAttributes,
  configurableChildren,
  customOptions,
  customOptionValues,
  downloadableLinks,
  groupedChildren,
  productAttributes,
  productMedia,
  products,
  tierPrices,
} from './tables.js';

export interface SaleCustomOption {
  id: number;
  title: string;
  type: string;
  required: boolean;
  price: Decimal | null;
  priceType: string;
  sku: string | null;
  maxCharacters: number | null;
  fileExtensions: string | null;
  values: { id: number; title: string; price: Decimal; priceType: string; sku: string | null }[];
}

export interface SaleBundleOption {
  id: number;
  title: string;
  type: string;
  required: boolean;
  selections: {
    id: number;
    productId: number;
    qty: Decimal;
    canChangeQty: boolean;
    isDefault: boolean;
    price: Decimal | null;
    priceType: string;
  }[];
}

export interface SaleProduct {
  id: number;
  sku: string;
  /** in the request's store view */
  name: string;
  type: string;
  /**
   * enabled in the request's store view and on its website; a configurable product also needs super attributes,
   * since without them it offers no choice of child (its children may be linked already, as in Maho)
   */
  sellable: boolean;
  visibility: string;
  taxClassId: number;
  /** the price before options and tier prices: special price when it applies today, else the price */
  finalPrice: Decimal | null;
  weight: Decimal | null;
  /** bundle: 0 dynamic, 1 fixed */
  priceType: number | null;
  weightType: number | null;
  linksPurchasedSeparately: boolean;
  linksTitle: string | null;
  /** code → value of its attributes (configurable children: super attribute option ids) */
  attributes: Record<string, unknown>;
  thumbnailUrl?: string;
  customOptions: SaleCustomOption[];
  /** configurable products */
  superAttributes: { id: number; code: string; label: string; options: Map<number, string> }[];
  childIds: number[];
  /** bundle products */
  bundleOptions: SaleBundleOption[];
  /** downloadable products */
  links: { id: number; title: string; price: Decimal }[];
  /** grouped products: children with their default qty */
  groupedChildren: { productId: number; qty: Decimal }[];
  /** tier prices and group prices (`group`: a price for any quantity) */
  tierPrices: { customerGroupId: number | null; websiteId: number; qty: Decimal; price: Decimal; group: boolean }[];
}

const num = (v: string | null): Decimal | null => (v === null || v === '' ? null : dec(v));

function optionLabel(o: { label: string; storeLabels: Record<string, string> }, storeId: number): string {
  return o.storeLabels?.[String(storeId)] || o.label;
}

/** The products with these ids as the database has them now (one round: no children). */
async function loadSaleProducts(ctx: Ctx, wanted: number[]): Promise<Map<number, SaleProduct>> {
  const out = new Map<number, SaleProduct>();
  const today = priceDay(ctx);
  const storeId = ctx.store.storeId;
  const rows = await ctx.db.select().from(products).where(inArray(products.id, wanted));
  if (!rows.length) return out;
  const rowIds = rows.map((r) => r.id);
  const byType = (types: string[]) => rows.filter((r) => types.includes(r.type)).map((r) => r.id);
  const configurableIds = byType(['configurable']);
  const bundleIds = byType(['bundle']);
  const downloadableIds = byType(['downloadable']);
  const groupedIds = byType(['grouped']);
  const none = Promise.resolve([] as never[]);
  const [options, values, superAttrs, children, bOptions, bSelections, links, grouped, tiers, media] = await together(ctx, [
    () =>
      ctx.db
        .select()
        .from(customOptions)
        .where(inArray(customOptions.productId, rowIds))
        .orderBy(asc(customOptions.sortOrder), asc(customOptions.id)),
    () =>
      ctx.db
        .select({ v: customOptionValues, productId: customOptions.productId })
        .from(customOptionValues)
        .innerJoin(customOptions, sql`${customOptions.id} = ${customOptionValues.optionId}`)
        .where(inArray(customOptions.productId, rowIds))
        .orderBy(asc(customOptionValues.sortOrder), asc(customOptionValues.id)),
    () =>
      configurableIds.length
        ? ctx.db
            .select({
              productId: configurableAttributes.productId,
              id: productAttributes.id,
              code: productAttributes.code,
              label: productAttributes.label,
              position: configurableAttributes.position,
            })
            .from(configurableAttributes)
            .innerJoin(productAttributes, sql`${productAttributes.id} = ${configurableAttributes.attributeId}`)
            .where(inArray(configurableAttributes.productId, configurableIds))
            .orderBy(asc(configurableAttributes.position), asc(productAttributes.id))
        : none,
    () =>
      configurableIds.length
        ? ctx.db.select().from(configurableChildren).where(inArray(configurableChildren.parentId, configurableIds))
        : none,
    () =>
      bundleIds.length
        ? ctx.db
            .select()
            .from(bundleOptions)
            .where(inArray(bundleOptions.productId, bundleIds))
            .orderBy(asc(bundleOptions.position), asc(bundleOptions.id))
        : none,
    () =>
      bundleIds.length
        ? ctx.db
            .select({ s: bundleSelections, bundleId: bundleOptions.productId })
            .from(bundleSelections)
            .innerJoin(bundleOptions, sql`${bundleOptions.id} = ${bundleSelections.optionId}`)
            .where(inArray(bundleOptions.productId, bundleIds))
            .orderBy(asc(bundleSelections.position), asc(bundleSelections.id))
        : none,
    () =>
      downloadableIds.length
        ? ctx.db
            .select()
            .from(downloadableLinks)
            .where(inArray(downloadableLinks.productId, downloadableIds))
            .orderBy(asc(downloadableLinks.sortOrder), asc(downloadableLinks.id))
        : none,
    () =>
      groupedIds.length
        ? ctx.db.select().from(groupedChildren).where(inArray(groupedChildren.parentId, groupedIds)).orderBy(asc(groupedChildren.position))
        : none,
    () => ctx.db.select().from(tierPrices).where(inArray(tierPrices.productId, rowIds)),
    () =>
      ctx.db
        .select({ productId: productMedia.productId, file: productMedia.file, types: productMedia.types })
        .from(productMedia)
        .where(and(inArray(productMedia.productId, rowIds), sql`NOT ${productMedia.disabled}`))
        .orderBy(asc(productMedia.position), asc(productMedia.id)),
  ] as const);
  const attrIds = [...new Set(superAttrs.map((a) => a.id))];
  const attrOptions = attrIds.length
    ? await ctx.db.select().from(attributeOptions).where(inArray(attributeOptions.attributeId, attrIds))
    : [];

  for (const r of rows) {
    const thumb = media.find((m) => m.productId === r.id && m.types.includes('thumbnail')) ?? media.find((m) => m.productId === r.id);
    const ownSuperAttrs = superAttrs.filter((a) => a.productId === r.id);
    out.set(r.id, {
      id: r.id,
      sku: r.sku,
      name: nameIn(ctx, r),
      type: r.type,
      sellable: sellableHere(ctx, r) && (r.type !== 'configurable' || ownSuperAttrs.length > 0),
      visibility: r.visibility,
      taxClassId: r.taxClassId,
      finalPrice: num(finalPrice(r, today)),
      weight: num(r.weight),
      priceType: r.priceType,
      weightType: r.weightType,
      linksPurchasedSeparately: r.linksPurchasedSeparately ?? true,
      linksTitle: r.linksTitle,
      attributes: r.attributes,
      thumbnailUrl: thumb ? productImageUrl(ctx, thumb.file) : undefined,
      customOptions: options
        .filter((o) => o.productId === r.id)
        .map((o) => ({
          id: o.id,
          title: o.title,
          type: o.type,
          required: o.required,
          price: num(o.price),
          priceType: o.priceType,
          sku: o.sku,
          maxCharacters: o.maxCharacters,
          fileExtensions: o.fileExtensions,
          values: values
            .filter((v) => v.v.optionId === o.id)
            .map(({ v }) => ({ id: v.id, title: v.title, price: dec(v.price), priceType: v.priceType, sku: v.sku })),
        })),
      superAttributes: ownSuperAttrs.map((a) => ({
        id: a.id,
        code: a.code,
        label: a.label,
        options: new Map(attrOptions.filter((o) => o.attributeId === a.id).map((o) => [o.id, optionLabel(o, storeId)])),
      })),
      childIds: children.filter((c) => c.parentId === r.id).map((c) => c.childId),
      bundleOptions: bOptions
        .filter((o) => o.productId === r.id)
        .map((o) => ({
          id: o.id,
          title: o.title,
          type: o.type,
          required: o.required,
          selections: bSelections
            .filter((s) => s.s.optionId === o.id)
            .map(({ s }) => ({
              id: s.id,
              productId: s.productId,
              qty: dec(s.qty),
              canChangeQty: s.canChangeQty,
              isDefault: s.isDefault,
              price: num(s.price),
              priceType: s.priceType,
            })),
        })),
      links: links.filter((l) => l.productId === r.id).map((l) => ({ id: l.id, title: l.title, price: dec(l.price) })),
      groupedChildren: grouped.filter((g) => g.parentId === r.id).map((g) => ({ productId: g.childId, qty: dec(g.qty) })),
      tierPrices: tiers
        .filter((t) => t.productId === r.id)
        .map((t) => ({
          customerGroupId: t.customerGroupId,
          websiteId: t.websiteId,
          qty: dec(t.qty),
          price: dec(t.price),
          group: t.isGroupPrice,
        })),
    });
  }
  return out;
}

/** Sale data of products, per process, until the catalog (or tax setup) changes: carts price from it on every read. */
const saleCache = (ctx: Ctx) => ctx.app.settings.memo('catalog.sale', () => new ReadCache<SaleProduct>('catalog', 20_000, false));
const skuCache = (ctx: Ctx) => ctx.app.settings.memo('catalog.sale-sku', () => new ReadCache<number>('catalog', 20_000, false));

/**
 * What sale data depends on besides the product: the store view (names, status), its view mode and the day
 * (special prices). Cached entries are keyed by it, and so is what is cached from them (a priced cart).
 */
export function saleScope(ctx: Ctx): string {
  const adminView = ctx.actor.kind === 'admin' && !ctx.store.explicit ? 'a' : 's';
  return `${adminView}|${ctx.store.storeId}|${priceDay(ctx)}|`;
}

/**
 * The products with these ids, with everything needed to sell them; the children of configurable, bundle and
 * grouped products among them are loaded too (their entries are in the same map). Missing ids are absent.
 * `version` is the catalog version the caller read already (else it is read here).
 */
export async function productsForSale(ctx: Ctx, ids: readonly number[], version?: bigint): Promise<Map<number, SaleProduct>> {
  const out = new Map<number, SaleProduct>();
  let wanted = [...new Set(ids.filter((id) => Number.isInteger(id) && id > 0 && id <= 2147483647))];
  if (!wanted.length) return out;
  const seen = version ?? (await readVersion(ctx.db, 'catalog'));
  const prefix = saleScope(ctx);
  // two rounds: the products, then the children they name that were not asked for
  for (let round = 0; round < 2 && wanted.length; round++) {
    const got = await saleCache(ctx).atMany(
      seen,
      wanted.map((id) => prefix + id),
      async (missing) => {
        const loaded = await loadSaleProducts(
          ctx,
          missing.map((k) => Number(k.slice(prefix.length))),
        );
        return new Map([...loaded].map(([id, p]) => [prefix + id, p]));
      },
    );
    const next = new Set<number>();
    for (const p of got.values()) {
      out.set(p.id, p);
      for (const id of p.childIds) next.add(id);
      for (const o of p.bundleOptions) for (const sel of o.selections) next.add(sel.productId);
      for (const g of p.groupedChildren) next.add(g.productId);
    }
    wanted = [...next].filter((id) => !out.has(id));
  }
  return out;
}

/**
 * The unit price of a product for a customer group and quantity: the lowest of its final price, the tier prices
 * that apply (the group's or all groups', this website's or all websites', for at most `qty`) and the group price.
 */
export function unitPriceFor(p: SaleProduct, opts: { customerGroupId: number; websiteId: number; qty: Decimal }): Decimal | null {
  let best = p.finalPrice;
  for (const t of p.tierPrices) {
    if (t.customerGroupId !== null && t.customerGroupId !== opts.customerGroupId) continue;
    if (t.websiteId !== 0 && t.websiteId !== opts.websiteId) continue;
    if (!t.group && t.qty.gt(opts.qty)) continue;
    if (best === null || t.price.lt(best)) best = t.price;
  }
  return best;
}

/** The product with this SKU (case-insensitive), or undefined. */
export async function productIdBySku(ctx: Ctx, sku: string, version?: bigint): Promise<number | undefined> {
  const seen = version ?? (await readVersion(ctx.db, 'catalog'));
  const id = await skuCache(ctx).at(seen, sku.toLowerCase(), async () => {
    const [row] = await ctx.db
      .select({ id: products.id })
      .from(products)
      .where(sql`lower(${products.sku}) = lower(${sku})`);
    return row?.id ?? 0;
  });
  return id || undefined;
}

/** The configurable products that have this product as a child (lowest id first). */
export async function configurableParentsOf(ctx: Ctx, childId: number): Promise<number[]> {
  const rows = await ctx.db
    .select({ id: configurableChildren.parentId })
    .from(configurableChildren)
    .where(sql`${configurableChildren.childId} = ${childId}`)
    .orderBy(asc(configurableChildren.parentId));
  return rows.map((r) => r.id);
}
