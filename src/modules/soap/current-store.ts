/**
 * The catalog's current store view, kept in the legacy API session as Magento keeps it: a resource's
 * `currentStore(store)` sets it (a store view by id or code; 0 or "admin": the default values) and answers it,
 * and the resource's methods whose `store` argument is left out work in it. Magento keeps one per family of
 * resources, under its session field: the category resources share one, the product resources (with their
 * attributes, media, tier prices, links and stock items) another, so setting one leaves the other alone.
 */
import type { Ctx } from '../../platform/context.js';
import type { Operation } from '../../platform/auth/access.js';
import { SoapFault } from './faults.js';
import { GLOBAL_FAULTS, type LegacyMethod, type LegacyResource, type LegacyValue } from './resources.js';
import { keepInSession, keptInSession } from './sessions.js';

/** What this file needs of a resource: its name (the session field) and its faults (`store_not_exists`). */
export type KeptStoreResource = Pick<LegacyResource, 'name' | 'faults'>;

/**
 * Magento's session field of each resource that keeps a store view, and the ACL of its `currentStore` (api.xml:
 * the resource's own, catalog/category, catalog/product or catalog/product/media, unless the method names one);
 * tier prices, links and stock items read the product field but have no `currentStore`.
 */
const KEPT: Record<string, { field: string; permission?: [string, Operation] }> = {
  catalog_category: { field: 'category_store_id', permission: ['categories', 'read'] },
  catalog_category_attribute: { field: 'category_store_id', permission: ['categories', 'read'] },
  catalog_product: { field: 'product_store_id', permission: ['products', 'read'] },
  catalog_product_attribute: { field: 'product_store_id', permission: ['product-attributes', 'write'] },
  catalog_product_attribute_media: { field: 'product_store_id', permission: ['products', 'read'] },
  catalog_product_attribute_tier_price: { field: 'product_store_id' },
  catalog_product_link: { field: 'product_store_id' },
  cataloginventory_stock_item: { field: 'product_store_id' },
};

function keptOf(resource: KeptStoreResource) {
  const k = Object.hasOwn(KEPT, resource.name) ? KEPT[resource.name] : undefined;
  if (!k) throw new Error(`${resource.name} keeps no store view in the legacy API session`);
  return k;
}

const storeNotExists = (resource: KeptStoreResource) => {
  const [code, message] = resource.faults.store_not_exists ?? GLOBAL_FAULTS.unknown;
  return new SoapFault(code, message);
};

/** Whether the caller may work in store view `id` (0, the default values, is every caller's). */
function reachable(ctx: Ctx, id: number): boolean {
  const allowed = ctx.actor.kind === 'admin' ? ctx.actor.allowedStoreIds : undefined;
  return id === 0 || !allowed || allowed.includes(id);
}

/**
 * The store view a `store` argument names: an id or a code; 0, '' and "admin" are the default values (0). A store
 * view that does not exist, or that a store-limited API user may not work in, is the resource's store_not_exists.
 */
export function storeIdOf(ctx: Ctx, store: LegacyValue, resource: KeptStoreResource): number {
  const text = typeof store === 'number' ? String(store) : typeof store === 'string' ? store.trim() : undefined;
  if (text === undefined) throw storeNotExists(resource);
  if (text === '' || text.toLowerCase() === 'admin' || /^0+$/.test(text)) return 0;
  const found = /^\d{1,10}$/.test(text) ? ctx.app.settings.store(Number(text)) : ctx.app.settings.storeByCode(text);
  if (!found || !reachable(ctx, found.id)) throw storeNotExists(resource);
  return found.id;
}

/**
 * The store view kept in the session for `resource`'s family, for the methods' `store` arguments left out;
 * undefined for none or the default values. One kept earlier that no longer exists (or that the user may no longer
 * work in) is the resource's store_not_exists, as Magento answers it.
 */
export function keptStore(ctx: Ctx, resource: KeptStoreResource): number | undefined {
  const kept = keptInSession(ctx, keptOf(resource).field);
  if (typeof kept !== 'number' || kept === 0) return undefined;
  if (!ctx.app.settings.store(kept) || !reachable(ctx, kept)) throw storeNotExists(resource);
  return kept;
}

/**
 * Magento's `currentStore(store)` of `resource`: with a store view (id or code), keeps it in the session; answers
 * the store view kept (0 when none). An unknown store view is the resource's store_not_exists and keeps nothing.
 */
export function currentStoreMethod(resource: KeptStoreResource): LegacyMethod {
  const { field, permission } = keptOf(resource);
  if (!permission) throw new Error(`${resource.name} has no currentStore method`);
  return {
    title: 'Set/Get current store view',
    permission,
    params: ['store'],
    run: async (ctx, [store]) => {
      if (store !== undefined && store !== null) await keepInSession(ctx, field, storeIdOf(ctx, store, resource));
      return keptStore(ctx, resource) ?? 0;
    },
  };
}
