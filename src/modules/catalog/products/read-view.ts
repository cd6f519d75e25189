/**
 * What shapes a product read for its caller (`ReadView`: backend fields, response currency, media and URL
 * bases) and the values mapped from the row under it: prices in the response currency, stock status, image
 * and sample URLs. No database access here.
 */
import type { Ctx } from '../../../platform/context.js';
import { DOWNLOADABLE_SAMPLES_DIR } from '../../../platform/files.js';
import { dec, roundMoney, toWire, type Decimal } from '../../../platform/money.js';
import { finalPrice, priceDay, type PriceFields } from './price.js';
import type { RoleImage, StockFields } from './read-rows.js';
import { isCatalogReader } from './subresource-shared.js';
import { baseMediaUrl } from '../product-extras/media-urls.js';
import { productUrlSuffix } from './urls.js';

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

export const num = (v: string | null | undefined) => (v === null || v === undefined || v === '' ? undefined : toWire(v));

export const COMPOSITE = new Set(['configurable', 'grouped', 'bundle']);

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

export const stockStatus = (p: StockFields) => (isInStock(p) ? 'in_stock' : 'out_of_stock');

/** A link's sample: its URL, or the public media URL of its file. */
export function sampleUrlOf(
  view: ReadView,
  l: { sampleType: string | null; sampleUrl: string | null; sampleFile: string | null },
): string | undefined {
  if (l.sampleType === 'url') return l.sampleUrl ?? undefined;
  if (l.sampleType === 'file' && l.sampleFile) return `${view.samplesBase}${l.sampleFile.startsWith('/') ? '' : '/'}${l.sampleFile}`;
  return undefined;
}

export function mediaUrl(view: ReadView, file: string): string {
  return `${view.mediaBase}${file.startsWith('/') ? '' : '/'}${file}`;
}

function roleImage(images: RoleImage[] | null, role: string): RoleImage | undefined {
  return images?.find((i) => i.types.includes(role));
}

export function images(view: ReadView, list: RoleImage[] | null, attrs: Record<string, unknown> = {}) {
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
export function finalBase(view: ReadView, p: PriceFields & { type: string; minPrice: string | null }): string | null {
  if (COMPOSITE.has(p.type)) return p.minPrice ?? finalPrice(p, view.today);
  return finalPrice(p, view.today) ?? p.minPrice;
}

/**
 * The `price` shown: the product's own price; for configurable, grouped and bundle products the price-index
 * minimum (own price while there is none), in listings (wire reference 2.2) and in the storefront detail, so that
 * both show the same prices. Backend readers' detail keeps the stored price, a writable field that clients send
 * back with their updates.
 */
export function shownPrice(p: { type: string; price: string | null; minPrice: string | null }, indexed: boolean): string | null {
  if (indexed && COMPOSITE.has(p.type)) return p.minPrice ?? p.price;
  return p.price;
}

export function text(v: unknown): string | undefined {
  if (typeof v === 'string') return v === '' ? undefined : v;
  if (typeof v === 'number' && Number.isFinite(v)) return String(v);
  return undefined;
}

export function int(v: unknown): number | undefined {
  if (typeof v === 'boolean') return v ? 1 : 0;
  const n = typeof v === 'number' ? v : typeof v === 'string' && v.trim() !== '' ? Number(v) : NaN;
  return Number.isInteger(n) ? n : undefined;
}
