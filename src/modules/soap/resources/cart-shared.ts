/**
 * What the Magento 1 API's cart resources (cart, cart_product, cart_customer, cart_shipping, cart_payment,
 * cart_coupon) and giftmessage share: the faults of their store and quote arguments, a store view named by id or
 * code, the cart a quote id names as the caller may use it, and product entries named by id or SKU with the
 * choices Magento's calls carry (qty, options, super_attribute, bundle_option, bundle_option_qty, links).
 */
import { Value } from 'typebox/value';
import type { Ctx } from '../../../platform/context.js';
import { productsByIdOrSku } from '../../catalog/products/legacy-keys.js';
import { loadCart, type CartRef, type Loaded } from '../../carts/load.js';
import type { LegacyLineRequest } from '../../carts/legacy.js';
import { AddItemBody, type AddItemBodyT } from '../../carts/schemas.js';
import { isRecord } from '../encoding.js';
import { idArg, resourceFault, type LegacyResource, type LegacyValue } from '../resources.js';

/** The faults every cart resource declares first. */
export const QUOTE_FAULTS = {
  store_not_exists: ['1001', 'Can not make operation because store is not exists'],
  quote_not_exists: ['1002', 'Can not make operation because quote is not exists'],
} as const;

/** The store view a legacy call works in (none: the request's). */
export interface StoreArg {
  id: number;
  websiteId: number;
}

/**
 * The store view a `store` argument names, by id or code; undefined when none is named (null, '', 0 and "admin",
 * the default values, name none). One that does not exist, or that a store-limited API user may not work in, is
 * the resource's store_not_exists.
 */
export function storeArg(ctx: Ctx, resource: LegacyResource, store: LegacyValue | undefined): StoreArg | undefined {
  if (store === undefined || store === null) return undefined;
  const text = typeof store === 'number' ? String(store) : typeof store === 'string' ? store.trim() : undefined;
  if (text === undefined) throw resourceFault(resource, 'store_not_exists');
  if (text === '' || text.toLowerCase() === 'admin' || /^0+$/.test(text)) return undefined;
  const r = ctx.app.settings;
  const found = /^\d{1,10}$/.test(text) ? r.store(Number(text)) : r.storeByCode(text);
  const allowed = ctx.actor.kind === 'admin' ? ctx.actor.allowedStoreIds : undefined;
  if (!found || !found.isActive || (allowed && !allowed.includes(found.id))) throw resourceFault(resource, 'store_not_exists');
  return { id: found.id, websiteId: found.websiteId };
}

export const cartRef = (id: number): CartRef => ({ kind: 'customer', id });

/**
 * The cart `quoteId` names with its items, when the caller may use it (a store-limited API user: the carts of its
 * store views); with a store view named, only a cart of that store view's website, as Magento loads a quote in a
 * store. Faults: store_not_exists for the store argument, then quote_not_exists.
 */
export async function quoteArg(
  ctx: Ctx,
  resource: LegacyResource,
  quoteId: LegacyValue | undefined,
  store: LegacyValue | undefined,
): Promise<Loaded> {
  const s = storeArg(ctx, resource, store);
  const id = idArg(quoteId);
  const loaded = id === undefined ? undefined : await loadCart(ctx, cartRef(id));
  if (!loaded || (s && ctx.app.settings.store(loaded.cart.storeId)?.websiteId !== s.websiteId)) {
    throw resourceFault(resource, 'quote_not_exists');
  }
  return loaded;
}

/** A list argument of entries: a list, or a struct of entries as PHP's arrays of arrays arrive (undefined otherwise). */
export function entriesOf(v: LegacyValue | undefined): LegacyValue[] | undefined {
  if (Array.isArray(v)) return v;
  if (isRecord(v) && v.size && [...v.values()].every(isRecord)) return [...v.values()];
  return undefined;
}

const num = (v: LegacyValue | undefined): unknown => (typeof v === 'string' && /^\s*\d+(\.\d+)?\s*$/.test(v) ? Number(v) : v);
/** A map argument with its values read by `each`; a list counts as a map by position, as PHP's arrays do. */
function mapOf(v: LegacyValue | undefined, each: (x: LegacyValue) => unknown): Record<string, unknown> | undefined {
  if (v === undefined || v === null) return undefined;
  const entries = isRecord(v) ? [...v] : Array.isArray(v) ? v.map((x, i) => [String(i), x] as const) : undefined;
  if (!entries) return v as never;
  return Object.fromEntries(entries.map(([k, x]) => [k, each(x)]));
}
const idList = (x: LegacyValue): unknown => (Array.isArray(x) ? x.map(num) : isRecord(x) ? [...x.values()].map(num) : num(x));
const optionValue = (x: LegacyValue): unknown => (Array.isArray(x) ? x.map(num) : isRecord(x) ? [...x.values()].map(num) : x);

/** The choices of a product entry in the shape of POST /carts/{id}/items, checked by its schema; the schema's complaint otherwise. */
export function choicesOf(entry: Map<string, LegacyValue>, withQty: boolean): { body: AddItemBodyT } | { error: string } {
  const body: Record<string, unknown> = {};
  const set = (k: string, v: unknown) => {
    if (v !== undefined && v !== null) body[k] = v;
  };
  if (withQty) set('qty', num(entry.get('qty')));
  set('options', mapOf(entry.get('options'), optionValue));
  set('super_attribute', mapOf(entry.get('super_attribute'), num));
  set('bundle_option', mapOf(entry.get('bundle_option'), idList));
  set('bundle_option_qty', mapOf(entry.get('bundle_option_qty'), num));
  set('super_group', mapOf(entry.get('super_group'), num));
  const links = entry.get('links');
  set('links', links === undefined || links === null ? undefined : (idList(links) as unknown[]));
  const [first] = [...Value.Errors(AddItemBody, body)];
  if (first) {
    const field = first.instancePath.split('/').filter(Boolean).join('.') || 'product';
    return { error: `${field} ${first.message}`.trim() };
  }
  return { body: body as AddItemBodyT };
}

/** A product entry as sent: its reference (by id or SKU) and the entry itself. */
export interface ProductEntry {
  /** by id (`label`: the id as sent) or by SKU */
  ref: { id: number; label: string } | { sku: string } | undefined;
  entry: Map<string, LegacyValue>;
}

/** The reference of a product entry: product_id (an id) first, else sku. */
export function productEntry(v: LegacyValue): ProductEntry | undefined {
  if (!isRecord(v)) return undefined;
  const id = v.get('product_id');
  if (id !== undefined && id !== null) return { ref: { id: idArg(id) ?? 0, label: typeof id === 'object' ? '' : String(id) }, entry: v };
  const sku = v.get('sku');
  if (typeof sku === 'string' || typeof sku === 'number') return { ref: { sku: String(sku) }, entry: v };
  return { ref: undefined, entry: v };
}

/**
 * The product requests of entries (`cart_product`'s products, giftmessage's products), their products found in one
 * statement: each a request of the carts module, or why it names none (Magento's wording where it has one). The qty
 * is part of a request only `withQty` (adding); finding a line goes by the product and its choices.
 */
export async function productRequests(
  ctx: Ctx,
  entries: ProductEntry[],
  withQty: boolean,
): Promise<(LegacyLineRequest | { error: string })[]> {
  const ids = entries.flatMap((e) => (e.ref && 'id' in e.ref ? [e.ref.id] : []));
  const skus = entries.flatMap((e) => (e.ref && 'sku' in e.ref ? [e.ref.sku] : []));
  const { byId, bySku } = await productsByIdOrSku(ctx, ids, skus);
  return entries.map((e) => {
    if (!e.ref) return { error: 'One item of products do not have identifier or sku' };
    const product = 'id' in e.ref ? byId.get(e.ref.id) : bySku.get(e.ref.sku.toLowerCase());
    if (!product)
      return { error: 'id' in e.ref ? `Product with ID '${e.ref.label}' not found` : `Product with SKU '${e.ref.sku}' not found` };
    const choices = choicesOf(e.entry, withQty);
    if ('error' in choices) return { error: `${product.sku}: ${choices.error}` };
    return { productId: product.id, body: choices.body };
  });
}
