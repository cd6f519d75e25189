/**
 * Rows of the product read SQL (`read-sql.ts`) to the wire shape: prices in the response currency,
 * stock status, image URLs, option labels. No database access here.
 */
import type { Ctx } from '../../../platform/context.js';
import { compact } from '../../../platform/format.js';
import { DOWNLOADABLE_SAMPLES_DIR } from '../../../platform/files.js';
import { dec, roundMoney, toWire, type Decimal } from '../../../platform/money.js';
import { BUILT_IN_OPTIONS } from '../attributes/service.js';
import { finalPrice, priceDay, type PriceFields } from './price.js';
import { isCatalogReader } from './subresource-shared.js';
import { baseMediaUrl } from '../product-extras/media-service.js';
import type { ProductDto } from './schemas.js';
import { productUrlSuffix } from './urls.js';

// ---- rows ----

interface StockJson {
  qty: number;
  isInStock: boolean;
  manageStock: boolean;
  minQty: number;
  minSaleQty: number;
  maxSaleQty: number | null;
  backorders: number;
  notifyStockQty: number | null;
  qtyIncrements: number | null;
}

interface RoleImage {
  file: string;
  label: string | null;
  types: string[];
}

interface StockFields {
  type: string;
  stock: StockJson | null;
  childInStock: boolean | null;
}

/** A product inside another one (variant, linked, grouped, bundle selection). */
interface ChildJson extends PriceFields, StockFields {
  id: number;
  sku: string;
  name: string;
  urlKey: string;
  minPrice: string | null;
  roleImages: RoleImage[] | null;
  barcode?: string | null;
  /** variants: the variant's own attribute values */
  attributes?: Record<string, unknown> | null;
}

export interface BaseRow extends PriceFields, StockFields {
  id: number;
  sku: string;
  attributeSetId: number;
  taxClassId: number;
  name: string;
  urlKey: string;
  isActive: boolean;
  visibility: string;
  description: string | null;
  shortDescription: string | null;
  metaTitle: string | null;
  metaDescription: string | null;
  metaKeywords: string | null;
  websiteIds: number[];
  newsFromDate: string | null;
  newsToDate: string | null;
  cost: string | null;
  msrp: string | null;
  weight: string | null;
  minPrice: string | null;
  maxPrice: string | null;
  hasRequiredOptions: boolean;
  skuType: number | null;
  priceType: number | null;
  weightType: number | null;
  priceView: number | null;
  shipmentType: number | null;
  linksTitle: string | null;
  linksPurchasedSeparately: boolean | null;
  samplesTitle: string | null;
  attributes: Record<string, unknown> | null;
  reviewCount: number;
  ratingSummary: string | null;
  createdAt: string;
  updatedAt: string;
  countryOfManufacture: string | null;
  roleImages: RoleImage[] | null;
  categoryIds: number[] | null;
}

export interface DetailRow {
  id: number;
  tierPrices: { qty: string; price: string }[];
  configurableOptions: {
    id: number;
    code: string;
    label: string;
    position: number;
    values: { id: number; label: string; swatchType: string | null; swatchValue: string | null }[];
  }[];
  variants: ChildJson[];
  customOptions: {
    id: number;
    title: string;
    type: string;
    required: boolean;
    sortOrder: number;
    price: string | null;
    priceType: string;
    sku: string | null;
    maxCharacters: number | null;
    fileExtensions: string | null;
    imageSizeX: number | null;
    imageSizeY: number | null;
    values: { id: number; title: string; price: string; priceType: string; sku: string | null; sortOrder: number }[];
  }[];
  mediaGallery: { id: number; file: string; label: string | null; position: number; types: string[] }[];
  links: { type: string; position: number; product: ChildJson }[];
  groupedProducts: { qty: string; position: number; product: ChildJson }[];
  bundleOptions: {
    id: number;
    title: string;
    type: string;
    required: boolean;
    position: number;
    selections: {
      id: number;
      qty: string;
      canChangeQty: boolean;
      isDefault: boolean;
      position: number;
      price: string | null;
      priceType: string;
      product: ChildJson;
    }[];
  }[];
  downloadableLinks: {
    id: number;
    title: string;
    price: string;
    sortOrder: number;
    numberOfDownloads: number;
    sampleType: string | null;
    sampleUrl: string | null;
    sampleFile: string | null;
  }[];
  additionalAttributes: { code: string; label: string; input: string; value: unknown; options: Record<string, string> | null }[];
}

/** The detail as the SQL returns it: products inside the product once in `children`, named by id elsewhere. */
export interface DetailSqlRow extends Omit<DetailRow, 'variants' | 'links' | 'groupedProducts' | 'bundleOptions'> {
  children: Record<string, ChildJson> | null;
  variants: { id: number; barcode: string | null; attributes: Record<string, unknown> | null }[];
  links: { type: string; position: number; id: number }[];
  groupedProducts: { qty: string; position: number; id: number }[];
  bundleOptions: (Omit<DetailRow['bundleOptions'][number], 'selections'> & {
    selections: (Omit<DetailRow['bundleOptions'][number]['selections'][number], 'product'> & { productId: number })[];
  })[];
}

/** The detail with the products inside it in place. */
export function resolveDetail(r: DetailSqlRow): DetailRow {
  const children = r.children ?? {};
  const product = (id: number) => children[String(id)];
  return {
    ...r,
    variants: r.variants.map((v) => ({ ...product(v.id), barcode: v.barcode, attributes: v.attributes })),
    links: r.links.map((l) => ({ type: l.type, position: l.position, product: product(l.id) })),
    groupedProducts: r.groupedProducts.map((g) => ({ qty: g.qty, position: g.position, product: product(g.id) })),
    bundleOptions: r.bundleOptions.map(({ selections, ...o }) => ({
      ...o,
      selections: selections.map(({ productId, ...sel }) => ({ ...sel, product: product(productId) })),
    })),
  };
}

// ---- the view a read is shaped for ----

export interface ReadView {
  /** admin/API principal with products/read: every product, backend fields, base currency */
  backend: boolean;
  currency: string;
  /** base → response currency; undefined when they are the same */
  rate?: Decimal;
  today: string;
  /** `<base media URL>catalog/product` */
  mediaBase: string;
  /** `<base media URL>catalog/downloadable_samples` */
  samplesBase: string;
  urlSuffix: string;
}

/** The store view whose values a read shows: the request's store; for backend readers only a named one. */
export function viewStoreKey(ctx: Ctx): string {
  if (isCatalogReader(ctx) && !ctx.store.explicit) return '0';
  return String(ctx.store.storeId);
}

export function readView(ctx: Ctx): ReadView {
  const settings = ctx.app.settings;
  const storeId = ctx.store.storeId;
  const backend = isCatalogReader(ctx);
  const base = ctx.store.baseCurrency;
  let currency = base;
  let rate: Decimal | undefined;
  // backend reads stay in the base currency; shoppers see the display currency when it has a rate
  if (!backend && ctx.store.currency !== base) {
    const r = settings.rate(base, ctx.store.currency);
    if (r) {
      currency = ctx.store.currency;
      rate = r;
    }
  }
  const mediaRoot = baseMediaUrl(ctx, storeId);
  return {
    backend,
    currency,
    rate,
    today: priceDay(ctx),
    mediaBase: `${mediaRoot}catalog/product`,
    samplesBase: `${mediaRoot}${DOWNLOADABLE_SAMPLES_DIR}`,
    urlSuffix: productUrlSuffix(ctx, storeId),
  };
}

// ---- values ----

/** A base-currency amount in the response currency, as a JSON number. */
export function money(view: ReadView, v: string | null | undefined): number | undefined {
  if (v === null || v === undefined || v === '') return undefined;
  if (!view.rate) return toWire(v);
  return toWire(roundMoney(dec(v).mul(view.rate)));
}

const num = (v: string | null | undefined) => (v === null || v === undefined || v === '' ? undefined : toWire(v));

const COMPOSITE = new Set(['configurable', 'grouped', 'bundle']);

/**
 * In stock: a product with a stock row when it does not manage stock or the row says so; without a row, simple,
 * virtual and downloadable products are out of stock. Configurable, grouped and bundle products are in stock when
 * any enabled child is (and their own row, if any, does not take them out of stock).
 */
export function isInStock(p: StockFields): boolean {
  const own = p.stock ? !p.stock.manageStock || p.stock.isInStock : null;
  if (COMPOSITE.has(p.type)) return own !== false && p.childInStock === true;
  return own === true;
}

const stockStatus = (p: StockFields) => (isInStock(p) ? 'in_stock' : 'out_of_stock');

/** A link's sample: its URL, or the public media URL of its file. */
function sampleUrlOf(view: ReadView, l: { sampleType: string | null; sampleUrl: string | null; sampleFile: string | null }): string | undefined {
  if (l.sampleType === 'url') return l.sampleUrl ?? undefined;
  if (l.sampleType === 'file' && l.sampleFile) return `${view.samplesBase}${l.sampleFile.startsWith('/') ? '' : '/'}${l.sampleFile}`;
  return undefined;
}

function mediaUrl(view: ReadView, file: string): string {
  return `${view.mediaBase}${file.startsWith('/') ? '' : '/'}${file}`;
}

function roleImage(images: RoleImage[] | null, role: string): RoleImage | undefined {
  return images?.find((i) => i.types.includes(role));
}

function images(view: ReadView, list: RoleImage[] | null, attrs: Record<string, unknown> = {}) {
  const image = roleImage(list, 'image');
  const small = roleImage(list, 'small_image');
  const thumb = roleImage(list, 'thumbnail');
  return {
    imageUrl: image && mediaUrl(view, image.file),
    smallImageUrl: small && mediaUrl(view, small.file),
    thumbnailUrl: thumb && mediaUrl(view, thumb.file),
    // the product's own label for the role, else the image's
    imageLabel: text(attrs.image_label) ?? image?.label ?? undefined,
    smallImageLabel: text(attrs.small_image_label) ?? small?.label ?? undefined,
    thumbnailLabel: text(attrs.thumbnail_label) ?? thumb?.label ?? undefined,
  };
}

/**
 * The price a shopper pays today at least, in the base currency. Simple, virtual and downloadable products: their
 * own final price (the index minimum when they have no price). Configurable, grouped and bundle products: the
 * price-index minimum (the cheapest enabled child, or the cheapest bundle combination), as in listings and
 * `minimalPrice`; their own final price only while they have no index.
 */
function finalBase(view: ReadView, p: PriceFields & { type: string; minPrice: string | null }): string | null {
  if (COMPOSITE.has(p.type)) return p.minPrice ?? finalPrice(p, view.today);
  return finalPrice(p, view.today) ?? p.minPrice;
}

/**
 * The `price` shown: the product's own price; for configurable, grouped and bundle products the price-index
 * minimum (own price while there is none), in listings (wire reference 2.2) and in the storefront detail, so that
 * both show the same prices. Backend readers' detail keeps the stored price, a writable field that clients send
 * back with their updates.
 */
function shownPrice(p: { type: string; price: string | null; minPrice: string | null }, indexed: boolean): string | null {
  if (indexed && COMPOSITE.has(p.type)) return p.minPrice ?? p.price;
  return p.price;
}

function text(v: unknown): string | undefined {
  if (typeof v === 'string') return v === '' ? undefined : v;
  if (typeof v === 'number' && Number.isFinite(v)) return String(v);
  return undefined;
}

function int(v: unknown): number | undefined {
  if (typeof v === 'boolean') return v ? 1 : 0;
  const n = typeof v === 'number' ? v : typeof v === 'string' && v.trim() !== '' ? Number(v) : NaN;
  return Number.isInteger(n) ? n : undefined;
}

// ---- products ----

export interface MapOptions {
  /** list items: configurable, grouped and bundle products show the price-index minimum as their price */
  listItem?: boolean;
}

/** The fields every product read has. */
export function toProductDto(view: ReadView, r: BaseRow, opts: MapOptions = {}): ProductDto {
  const attrs = r.attributes ?? {};
  const final = finalBase(view, r);
  const price = shownPrice(r, opts.listItem === true || !view.backend);
  const dto = {
    id: r.id,
    sku: r.sku,
    name: r.name,
    type: r.type,
    status: r.isActive ? 'enabled' : 'disabled',
    isActive: r.isActive,
    visibility: r.visibility,
    stockStatus: stockStatus(r),
    stockQty: r.stock ? r.stock.qty : undefined,
    price: money(view, price),
    specialPrice: money(view, r.specialPrice),
    specialFromDate: r.specialFromDate ?? undefined,
    specialToDate: r.specialToDate ?? undefined,
    newsFromDate: r.newsFromDate ?? undefined,
    newsToDate: r.newsToDate ?? undefined,
    finalPrice: money(view, final),
    // the lowest price a shopper pays today: the same as finalPrice (the index minimum for composites)
    minimalPrice: money(view, final),
    maximalPrice: money(view, COMPOSITE.has(r.type) ? r.maxPrice : final),
    currency: view.currency,
    msrp: money(view, r.msrp),
    msrpEnabled: int(attrs.msrp_enabled),
    msrpDisplayActualPriceType: int(attrs.msrp_display_actual_price_type),
    weight: num(r.weight),
    barcode: text(attrs.barcode),
    gtin: text(attrs.gtin),
    mpn: text(attrs.mpn),
    countryOfManufacture: r.countryOfManufacture ?? undefined,
    giftMessageAvailable: int(attrs.gift_message_available),
    optionsContainer: text(attrs.options_container),
    urlKey: r.urlKey || undefined,
    urlPath: r.urlKey ? `${r.urlKey}${view.urlSuffix}` : undefined,
    metaTitle: r.metaTitle ?? undefined,
    metaDescription: r.metaDescription ?? undefined,
    metaKeywords: r.metaKeywords ?? undefined,
    metaRobots: text(attrs.meta_robots),
    pageLayout: text(attrs.page_layout),
    description: r.description ?? undefined,
    shortDescription: r.shortDescription ?? undefined,
    ...images(view, r.roleImages, attrs),
    categoryIds: r.categoryIds ?? [],
    attributeSetId: r.attributeSetId,
    taxClassId: r.taxClassId,
    hasRequiredOptions: r.hasRequiredOptions,
    reviewCount: r.reviewCount,
    averageRating: num(r.ratingSummary),
    createdAt: r.createdAt,
    updatedAt: r.updatedAt,
    skuType: r.skuType ?? undefined,
    priceType: r.priceType ?? undefined,
    weightType: r.weightType ?? undefined,
    priceView: r.priceView ?? undefined,
    shipmentType: r.shipmentType ?? undefined,
    ...(view.backend
      ? {
          cost: num(r.cost),
          customDesign: text(attrs.custom_design),
          customDesignFrom: text(attrs.custom_design_from),
          customDesignTo: text(attrs.custom_design_to),
          customLayoutUpdate: text(attrs.custom_layout_update),
          customAttributes: attrs,
        }
      : {}),
  };
  return compact(dto) as ProductDto;
}

/** Ceil of the saving against the final price, in percent (0 when the tier price is not lower). */
function savePercent(tier: string, final: string | null): number {
  if (final === null) return 0;
  const f = dec(final);
  if (f.lte(0)) return 0;
  const pct = dec(100).minus(dec(tier).mul(100).div(f)).ceil().toNumber();
  return Math.max(0, pct);
}

function linked(view: ReadView, c: ChildJson, position?: number) {
  const img = images(view, c.roleImages);
  return compact({
    id: c.id,
    sku: c.sku,
    name: c.name,
    urlKey: c.urlKey || undefined,
    price: money(view, shownPrice(c, true)),
    specialPrice: money(view, c.specialPrice),
    finalPrice: money(view, finalBase(view, c)),
    stockStatus: stockStatus(c),
    imageUrl: img.imageUrl,
    smallImageUrl: img.smallImageUrl,
    thumbnailUrl: img.thumbnailUrl,
    position,
  });
}

function optionValueText(a: DetailRow['additionalAttributes'][number]): string | undefined {
  const raw = a.value;
  if (a.input === 'select' || a.input === 'multiselect') {
    const list = Array.isArray(raw) ? raw : a.input === 'multiselect' && typeof raw === 'string' ? raw.split(',') : [raw];
    const builtIn = BUILT_IN_OPTIONS[a.code];
    const labels = list
      .map((v) => {
        const s = String(v).trim();
        if (builtIn) return builtIn.find((o) => String(o.value) === s)?.label;
        return a.options?.[s];
      })
      .filter((l): l is string => !!l);
    return labels.length ? labels.join(', ') : undefined;
  }
  if (a.input === 'boolean') return raw === 1 || raw === true || raw === '1' ? 'Yes' : 'No';
  if (raw === null || raw === undefined || raw === '' || typeof raw === 'object') return undefined;
  return String(raw);
}

const LINK_FIELDS: Record<string, 'relatedProducts' | 'crosssellProducts' | 'upsellProducts'> = {
  related: 'relatedProducts',
  cross_sell: 'crosssellProducts',
  up_sell: 'upsellProducts',
};

/** The detail-only fields (item GET, list items with fullDetail). */
export function detailFields(view: ReadView, base: BaseRow, d: DetailRow): Partial<ProductDto> {
  const final = finalBase(view, base);
  const percentOrMoney = (price: string | null, priceType: string) => (priceType === 'percent' ? num(price) : money(view, price));
  const links: Record<string, ReturnType<typeof linked>[]> = { relatedProducts: [], crosssellProducts: [], upsellProducts: [] };
  for (const l of d.links) {
    const field = LINK_FIELDS[l.type];
    if (field) links[field].push(linked(view, l.product, l.position));
  }
  const fixedBundle = base.type === 'bundle' && base.priceType === 1;
  const superCodes = d.configurableOptions.map((o) => o.code);
  const out = {
    tierPrices: d.tierPrices.map((tp) => ({ qty: toWire(tp.qty), price: money(view, tp.price)!, savePercent: savePercent(tp.price, final) })),
    configurableOptions: d.configurableOptions.map((o) => ({
      id: o.id,
      code: o.code,
      label: o.label,
      position: o.position,
      values: o.values.map((v) => compact({ id: v.id, label: v.label, swatchType: v.swatchType, swatchValue: v.swatchValue })),
    })),
    variants: d.variants.map((v) => {
      // the variant's option of each configurable attribute
      const attributes: Record<string, number> = {};
      for (const code of superCodes) {
        const n = int(v.attributes?.[code]);
        if (n !== undefined) attributes[code] = n;
      }
      return compact({
        id: v.id,
        sku: v.sku,
        name: v.name,
        price: money(view, v.price),
        finalPrice: money(view, finalBase(view, v)),
        stockQty: v.stock ? v.stock.qty : undefined,
        inStock: isInStock(v),
        attributes,
        barcode: v.barcode ?? undefined,
        imageUrl: images(view, v.roleImages).imageUrl,
      });
    }),
    customOptions: d.customOptions.map((o) =>
      compact({
        id: o.id,
        title: o.title,
        type: o.type,
        required: o.required,
        sortOrder: o.sortOrder,
        price: o.values.length ? undefined : percentOrMoney(o.price, o.priceType),
        priceType: o.values.length ? undefined : o.priceType,
        sku: o.sku,
        maxCharacters: o.maxCharacters,
        fileExtensions: o.fileExtensions,
        imageSizeX: o.imageSizeX,
        imageSizeY: o.imageSizeY,
        values: o.values.map((v) =>
          compact({
            id: v.id,
            title: v.title,
            price: percentOrMoney(v.price, v.priceType) ?? 0,
            priceType: v.priceType,
            sku: v.sku,
            sortOrder: v.sortOrder,
          }),
        ),
      }),
    ),
    mediaGallery: d.mediaGallery.map((m) =>
      compact({ id: m.id, url: mediaUrl(view, m.file), label: m.label, position: m.position, types: m.types }),
    ),
    ...links,
    groupedProducts: d.groupedProducts.map((g) =>
      compact({
        id: g.product.id,
        sku: g.product.sku,
        name: g.product.name,
        price: money(view, g.product.price),
        finalPrice: money(view, finalBase(view, g.product)),
        imageUrl: images(view, g.product.roleImages).imageUrl,
        inStock: isInStock(g.product),
        stockQty: g.product.stock ? g.product.stock.qty : undefined,
        defaultQty: toWire(g.qty),
        position: g.position,
      }),
    ),
    bundleOptions: d.bundleOptions.map((o) => ({
      id: o.id,
      title: o.title,
      type: o.type,
      required: o.required,
      position: o.position,
      selections: o.selections.map((s) => {
        // fixed-price bundles price each selection themselves; dynamic ones charge the child's own price
        const own = fixedBundle && s.price !== null;
        return compact({
          id: s.id,
          productId: s.product.id,
          sku: s.product.sku,
          name: s.product.name,
          price: own ? percentOrMoney(s.price, s.priceType) : money(view, finalBase(view, s.product)),
          priceType: own ? s.priceType : 'fixed',
          inStock: isInStock(s.product),
          isDefault: s.isDefault,
          canChangeQty: s.canChangeQty,
          defaultQty: toWire(s.qty),
          position: s.position,
        });
      }),
    })),
    downloadableLinks: d.downloadableLinks.map((l) =>
      compact({
        id: l.id,
        title: l.title,
        price: money(view, l.price) ?? 0,
        sortOrder: l.sortOrder,
        numberOfDownloads: l.numberOfDownloads,
        sampleUrl: sampleUrlOf(view, l),
      }),
    ),
    linksTitle: base.linksTitle ?? undefined,
    linksPurchasedSeparately: base.linksPurchasedSeparately ?? undefined,
    samplesTitle: base.samplesTitle ?? undefined,
    additionalAttributes: d.additionalAttributes.flatMap((a) => {
      const value = optionValueText(a);
      return value === undefined ? [] : [{ code: a.code, label: a.label, value }];
    }),
    websiteIds: base.websiteIds,
    stockItem: base.stock
      ? compact({
          qty: base.stock.qty,
          isInStock: base.stock.isInStock,
          manageStock: base.stock.manageStock,
          minQty: base.stock.minQty,
          minSaleQty: base.stock.minSaleQty,
          maxSaleQty: base.stock.maxSaleQty,
          backorders: base.stock.backorders,
          notifyStockQty: base.stock.notifyStockQty,
          qtyIncrements: base.stock.qtyIncrements,
        })
      : undefined,
  };
  return compact(out) as Partial<ProductDto>;
}
