/**
 * Rows of the product read SQL (`read-sql.ts`, rows in `read-rows.ts`) to the wire shape, under the caller's
 * view (`read-view.ts`): the fields every read has and the detail-only ones. No database access here.
 */
import { compact } from '../../../platform/format.js';
import { dec, toWire } from '../../../platform/money.js';
import { BUILT_IN_OPTIONS } from '../attributes/built-in.js';
import type { BaseRow, ChildJson, DetailRow } from './read-rows.js';
import {
  COMPOSITE,
  finalBase,
  images,
  int,
  isInStock,
  mediaUrl,
  money,
  num,
  sampleUrlOf,
  shownPrice,
  stockStatus,
  text,
  type ReadView,
} from './read-view.js';
import type { ProductDto } from './schemas.js';

// ---- products ----

export interface MapOptions {
  /** list items: configurable, grouped and bundle products show the price-index minimum as their price */
  listItem?: boolean;
}

/**
 * The final price of the caller: lowered to its customer group's price when that is lower, as Magento's final
 * price is (simple, virtual and downloadable products; the others show the minimum of their price index).
 */
function callerFinal(view: ReadView, r: BaseRow): string | null {
  const f = finalBase(view, r);
  if (COMPOSITE.has(r.type) || r.groupPrice === null || r.groupPrice === undefined) return f;
  return f === null || dec(r.groupPrice).lt(dec(f)) ? r.groupPrice : f;
}

/** The fields every product read has. */
export function toProductDto(view: ReadView, r: BaseRow, opts: MapOptions = {}): ProductDto {
  const attrs = r.attributes ?? {};
  const final = callerFinal(view, r);
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
  const final = callerFinal(view, base);
  const percentOrMoney = (price: string | null, priceType: string) => (priceType === 'percent' ? num(price) : money(view, price));
  const links: Record<string, ReturnType<typeof linked>[]> = { relatedProducts: [], crosssellProducts: [], upsellProducts: [] };
  for (const l of d.links) {
    const field = LINK_FIELDS[l.type];
    if (field) links[field].push(linked(view, l.product, l.position));
  }
  const fixedBundle = base.type === 'bundle' && base.priceType === 1;
  const superCodes = d.configurableOptions.map((o) => o.code);
  const out = {
    tierPrices: d.tierPrices.map((tp) => ({
      qty: toWire(tp.qty),
      price: money(view, tp.price)!,
      savePercent: savePercent(tp.price, final),
    })),
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
