/**
 * What modules lend to modules before them (see `AppModule`): collected once at startup, checked (each part given
 * exactly once, the required ones given at all) and handed to services through `ctx.app`. The server and the
 * operator commands build their services from the same collection.
 */
import type { AppServices, CatalogParts, OrderParts, UrlResolverCheck } from './context.js';
import type { AppModule } from './module.js';

/** One object of parts from every module's contribution; a part given twice or a required part missing is a startup error. */
function collectParts<T extends object>(
  what: string,
  contributions: readonly (Partial<T> | undefined)[],
  required: readonly (keyof T)[],
): T {
  const parts: Partial<T> = {};
  for (const c of contributions) {
    for (const key of Object.keys(c ?? {}) as (keyof T)[]) {
      if (parts[key]) throw new Error(`The ${what} part ${String(key)} is contributed twice`);
      parts[key] = c![key];
    }
  }
  const missing = required.filter((n) => !parts[n]);
  if (missing.length) throw new Error(`No module contributes the ${what} parts ${missing.map(String).join(', ')}`);
  return parts as T;
}

/** The URL resolver's checks of every module by entity type; an entity type checked twice is a startup error. */
function collectUrlResolverChecks(
  contributions: readonly (Readonly<Record<string, UrlResolverCheck>> | undefined)[],
): ReadonlyMap<string, UrlResolverCheck> {
  const checks = new Map<string, UrlResolverCheck>();
  for (const c of contributions) {
    for (const [entityType, check] of Object.entries(c ?? {})) {
      if (checks.has(entityType)) throw new Error(`Two modules check URL paths of ${entityType}`);
      checks.set(entityType, check);
    }
  }
  return checks;
}

type Contributions = Pick<AppServices, 'catalogParts' | 'orderParts' | 'urlResolverChecks' | 'discountPreview' | 'customerSubscriptions'>;

/** Everything the modules lend each other, as the services object carries it. */
export function moduleContributions(modules: readonly AppModule[]): Contributions {
  return {
    catalogParts: collectParts<CatalogParts>(
      'catalog',
      modules.map((m) => m.catalogParts),
      ['stockJson', 'sellableFromStock', 'reviewSummary', 'setProductStock', 'setStockBySku'],
    ),
    orderParts: collectParts<OrderParts>(
      'order',
      modules.map((m) => m.orderParts),
      ['shipmentsOf', 'giftcardsInvoiced'],
    ),
    urlResolverChecks: collectUrlResolverChecks(modules.map((m) => m.urlResolverChecks)),
    discountPreview: modules.find((m) => m.discountPreview)?.discountPreview,
    customerSubscriptions: modules.find((m) => m.customerSubscriptions)?.customerSubscriptions,
  };
}
