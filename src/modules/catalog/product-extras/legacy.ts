/**
 * What the Magento 1 API's product sub-resources (images, tier prices, links, custom options, downloadable links)
 * need of the catalog beyond the REST services: a product or store view named Magento's way, the rows whose
 * decimals Magento prints with their four stored places (read here as the exact NUMERIC strings), and the product
 * an option, an option value or a downloadable link belongs to (Magento names those by their own ids alone).
 */
import { and, asc, eq, sql } from 'drizzle-orm';
import type { Ctx } from '../../../platform/context.js';
import { dec } from '../../../platform/money.js';
import { productsByIdOrSku, type LegacyProductKey } from '../products/legacy-keys.js';
import { requireReadableProduct } from '../products/subresource-shared.js';
import { downloadableLinks, tierPrices } from '../tables.js';

const ID_TEXT = /^[+-]?[1-9][0-9]*$|^0$/;
const INT_MAX = 2147483647;

function refText(ref: unknown): string {
  if (typeof ref === 'number') return Number.isInteger(ref) ? String(ref) : '';
  return typeof ref === 'string' ? ref.trim() : '';
}

function idOf(text: string): number | undefined {
  if (!/^\+?\d{1,10}$/.test(text)) return undefined;
  const n = Number(text);
  return n >= 1 && n <= INT_MAX ? n : undefined;
}

/**
 * The product a reference names, by Magento's rule: by SKU when `identifierType` is 'sku' (only), or when it is
 * absent and the reference is text that does not read as an id (falling back to nothing); else by id.
 */
export async function legacyProduct(ctx: Ctx, ref: unknown, identifierType: unknown): Promise<LegacyProductKey | undefined> {
  const text = refText(ref);
  if (!text) return undefined;
  const noType = identifierType === undefined || identifierType === null || identifierType === '';
  const bySku = identifierType === 'sku' || (noType && typeof ref === 'string' && !ID_TEXT.test(text));
  const id = bySku ? undefined : idOf(text);
  const { byId, bySku: skus } = await productsByIdOrSku(ctx, id !== undefined ? [id] : [], bySku ? [text] : []);
  return bySku ? skus.get(text.toLowerCase()) : id !== undefined ? byId.get(id) : undefined;
}

/** A linked product as Magento's link API names it: its SKU first, else its id. */
export async function legacyLinkedProduct(ctx: Ctx, ref: unknown): Promise<LegacyProductKey | undefined> {
  const text = refText(ref);
  if (!text) return undefined;
  const id = idOf(text);
  const { byId, bySku } = await productsByIdOrSku(ctx, id !== undefined ? [id] : [], [text]);
  return bySku.get(text.toLowerCase()) ?? (id !== undefined ? byId.get(id) : undefined);
}

/**
 * The store view a `store` argument names (id or code): 0 for none, 0 or `admin` (the default values), undefined
 * for one that does not exist or, for a principal limited to some store views, is not one of them.
 */
export function legacyStore(ctx: Ctx, store: unknown): number | undefined {
  if (store === undefined || store === null || store === '') return 0;
  const r = ctx.app.settings;
  const text = typeof store === 'number' ? String(store) : typeof store === 'string' ? store.trim() : undefined;
  if (text === undefined) return undefined;
  if (text === '0' || text.toLowerCase() === 'admin') return 0;
  const found = /^\d{1,10}$/.test(text) ? r.store(Number(text)) : r.storeByCode(text);
  if (!found) return undefined;
  const limited = ctx.actor.kind === 'admin' ? ctx.actor.allowedStoreIds : undefined;
  return limited && !limited.includes(found.id) ? undefined : found.id;
}

// ---- arguments as Magento clients send them: numbers, or their text ----

/** An integer (a number or its digits): undefined when absent (null, ''), NaN when it is no integer in [min, max]. */
export function legacyInt(v: unknown, min = -INT_MAX, max = INT_MAX): number | undefined {
  if (v === undefined || v === null || v === '') return undefined;
  const text = typeof v === 'number' ? (Number.isInteger(v) ? String(v) : '') : typeof v === 'string' ? v.trim() : '';
  if (!/^[+-]?\d{1,10}$/.test(text)) return NaN;
  const n = Number(text);
  return n >= min && n <= max ? n : NaN;
}

/** A yes/no flag (1/0, "1"/"0", true/false): undefined when absent, null when it is neither. */
export function legacyFlag(v: unknown): boolean | undefined | null {
  if (v === undefined || v === null || v === '') return undefined;
  if (v === true || v === 1 || v === '1' || v === 'true') return true;
  if (v === false || v === 0 || v === '0' || v === 'false') return false;
  return null;
}

/**
 * A decimal amount as the JSON number the REST services take: undefined when absent, null when it is not a
 * plain decimal or would not survive the trip through a number exactly (nothing is rounded away unseen).
 */
export function legacyDecimal(v: unknown): number | undefined | null {
  if (v === undefined || v === null || v === '') return undefined;
  const text = typeof v === 'number' ? (Number.isFinite(v) ? String(v) : '') : typeof v === 'string' ? v.trim() : '';
  if (!/^[+-]?(\d+(\.\d*)?|\.\d+)$/.test(text)) return null;
  const n = Number(text);
  return dec(n).eq(dec(text)) ? n : null;
}

export interface LegacyTierPrice {
  customerGroupId: number | null;
  websiteId: number;
  qty: string;
  price: string;
}

/** The product's tier prices (not its group prices) with their exact decimals, in the REST list's order. */
export async function legacyTierPrices(ctx: Ctx, productId: number): Promise<LegacyTierPrice[]> {
  await requireReadableProduct(ctx, productId);
  return ctx.db
    .select({ customerGroupId: tierPrices.customerGroupId, websiteId: tierPrices.websiteId, qty: tierPrices.qty, price: tierPrices.price })
    .from(tierPrices)
    .where(and(eq(tierPrices.productId, productId), eq(tierPrices.isGroupPrice, false)))
    .orderBy(asc(tierPrices.websiteId), sql`${tierPrices.customerGroupId} asc nulls first`, asc(tierPrices.qty), asc(tierPrices.id));
}

export type LegacyDownloadableRow = typeof downloadableLinks.$inferSelect;

/** A downloadable product's links as stored, by sort order (a product of another type is refused as the REST list refuses it). */
export async function legacyDownloadableRows(ctx: Ctx, productId: number): Promise<LegacyDownloadableRow[]> {
  await requireReadableProduct(ctx, productId, ['downloadable']);
  return ctx.db
    .select()
    .from(downloadableLinks)
    .where(eq(downloadableLinks.productId, productId))
    .orderBy(asc(downloadableLinks.sortOrder), asc(downloadableLinks.id));
}

/** The product a downloadable link belongs to; undefined when there is no such link. */
export async function downloadableLinkProductId(ctx: Ctx, linkId: number): Promise<number | undefined> {
  const [row] = await ctx.db
    .select({ productId: downloadableLinks.productId })
    .from(downloadableLinks)
    .where(eq(downloadableLinks.id, linkId));
  return row?.productId;
}
