/**
 * What the `catalog_product` methods share: its faults, the store view a `store` argument names, and the product a
 * reference names (Magento's rule: by SKU when `identifierType` is 'sku' or when the reference does not read as a
 * whole number, else by id). A principal limited to some store views reaches only the products of their websites
 * and names only its own store views.
 */
import { adminStoreScope, adminWebsiteScope, type Ctx } from '../../../platform/context.js';
import { productsByIdOrSku, type LegacyProductKey } from '../../catalog/products/legacy-keys.js';
import { keptStore } from '../current-store.js';
import type { SoapFault } from '../faults.js';
import { resourceFault, serviceFault, type LegacyResource, type LegacyValue } from '../resources.js';

export const PRODUCT_FAULTS = {
  store_not_exists: ['100', 'Requested store view not found.'],
  product_not_exists: ['101', 'Product not exists.'],
  data_invalid: ['102', 'Invalid data given. Details in error message.'],
  not_deleted: ['103', 'Product not deleted. Details in error message.'],
  product_type_not_exists: ['104', 'Product type is not in allowed types.'],
  product_attribute_set_not_exists: ['105', 'Product attribute set is not existed'],
  product_attribute_set_not_valid: ['106', 'Product attribute set is not belong catalog product entity type'],
  multi_update_not_match: ['107', 'Quantity of product IDs and product data should match. No changes made.'],
  partially_updated: ['108', 'There was an error during one or more products update. See error log for details.'],
} as const satisfies Record<string, readonly [string, string]>;

export type ProductFaultName = keyof typeof PRODUCT_FAULTS | 'filters_invalid';

/** The faults' owner as resources.ts takes it (the resource itself is declared in product.ts, which imports this). */
const FAULTS_OF: LegacyResource = { name: 'catalog_product', title: 'Product API', faults: PRODUCT_FAULTS, methods: {} };

/** A fault of `catalog_product` (a name it lacks, such as filters_invalid, is Magento's unknown fault 0). */
export function productFault(name: ProductFaultName, detail?: string): SoapFault {
  return resourceFault(FAULTS_OF, name, detail);
}

/** A service's refusal: a missing product is 101, any other 4xx `invalid` with the service's message. */
export function productServiceFault(err: unknown, invalid: 'data_invalid' | 'not_deleted' = 'data_invalid'): never {
  return serviceFault(FAULTS_OF, err, { missing: 'product_not_exists', invalid });
}

export const given = (v: LegacyValue | undefined): boolean => v !== undefined && v !== null && v !== '';

/** The store view a call reads and writes, and the key of its values in products.store_values ('0': the defaults). */
export interface StoreView {
  ctx: Ctx;
  storeKey: string;
}

/**
 * The store view of a `store` argument (id or code; 0 or 'admin' are the default values); fault 100 for an unknown
 * one or one outside a limited principal's. Without one a call works on the default values, as Magento's admin
 * store; a limited principal stays in the store view its session named, as its REST requests do.
 */
export function storeView(ctx: Ctx, store: LegacyValue | undefined): StoreView {
  // left out: the store view `currentStore` kept in the session, if any
  if (store === undefined || store === null) store = keptStore(ctx, FAULTS_OF) ?? store;
  const limited = adminStoreScope(ctx);
  const text = typeof store === 'number' ? String(store) : typeof store === 'string' ? store.trim() : undefined;
  if (store !== undefined && store !== null && text === undefined) {
    throw productFault('store_not_exists');
  }
  if (!text || text === '0' || text === 'admin') {
    if (limited) return { ctx, storeKey: ctx.store.explicit ? String(ctx.store.storeId) : '0' };
    return { ctx: { ...ctx, store: { ...ctx.store, explicit: false } }, storeKey: '0' };
  }
  const r = ctx.app.settings;
  const found = /^\d{1,10}$/.test(text) ? r.store(Number(text)) : r.storeByCode(text);
  if (!found || (limited && !limited.includes(found.id))) throw productFault('store_not_exists');
  return {
    ctx: {
      ...ctx,
      store: { ...ctx.store, storeId: found.id, storeCode: found.code, websiteId: found.websiteId, groupId: found.groupId, explicit: true },
    },
    storeKey: String(found.id),
  };
}

/** A reference as sent: a whole number or a string, as text; undefined for anything else. */
export function refText(v: LegacyValue | undefined): string | undefined {
  if (typeof v === 'number') return Number.isInteger(v) ? String(v) : undefined;
  return typeof v === 'string' && v.trim() ? v.trim() : undefined;
}

const WHOLE = /^[+-]?[1-9][0-9]*$|^0$/;

/**
 * The products the references name, each as Magento's product helper finds it (undefined when none): by SKU when
 * `identifierType` is 'sku' (any case) or when it is absent and the reference is a string that is no whole number
 * (then by id if no SKU matches), else by id. Products outside a limited principal's websites are not found.
 */
export async function findProducts(
  ctx: Ctx,
  refs: readonly (LegacyValue | undefined)[],
  identifierType: LegacyValue | undefined,
): Promise<(LegacyProductKey | undefined)[]> {
  const kind = typeof identifierType === 'string' && identifierType.trim() ? identifierType.trim().toLowerCase() : undefined;
  const wanted = refs.map((ref) => {
    const text = refText(ref);
    if (text === undefined) return undefined;
    const bySku = kind === 'sku' || (kind === undefined && typeof ref === 'string' && !WHOLE.test(text));
    const id = /^\+?\d{1,10}$/.test(text) && Number(text) <= 2147483647 ? Number(text) : undefined;
    return { text, bySku, id };
  });
  const ids = wanted.flatMap((w) => (w?.id !== undefined && !(kind === 'sku') ? [w.id] : []));
  const skus = wanted.flatMap((w) => (w?.bySku ? [w.text] : []));
  const { byId, bySku } = await productsByIdOrSku(ctx, ids, skus, adminWebsiteScope(ctx));
  return wanted.map((w) => {
    if (!w) return undefined;
    const sku = w.bySku ? bySku.get(w.text.toLowerCase()) : undefined;
    if (sku || kind === 'sku') return sku;
    return w.id !== undefined ? byId.get(w.id) : undefined;
  });
}

/** The product one reference names; fault 101 when none. */
export async function findProduct(
  ctx: Ctx,
  ref: LegacyValue | undefined,
  identifierType: LegacyValue | undefined,
): Promise<LegacyProductKey> {
  const [found] = await findProducts(ctx, [ref], identifierType);
  if (!found) throw productFault('product_not_exists');
  return found;
}

/** Magento's product types, in the order Maho lists them, with their labels. */
export const PRODUCT_TYPE_LABELS: readonly (readonly [string, string])[] = [
  ['simple', 'Simple'],
  ['grouped', 'Grouped'],
  ['configurable', 'Configurable'],
  ['virtual', 'Virtual'],
  ['bundle', 'Bundle'],
  ['downloadable', 'Downloadable'],
];

export const isProductType = (v: LegacyValue | undefined): v is string =>
  typeof v === 'string' && PRODUCT_TYPE_LABELS.some(([t]) => t === v);
