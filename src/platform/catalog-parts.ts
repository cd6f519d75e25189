/**
 * What modules after the catalog lend to it (`CatalogParts` in context.ts): each module contributes its parts as
 * `AppModule.catalogParts`; the app collects them once at startup and hands them to the catalog as
 * `ctx.app.catalogParts`.
 */
import type { CatalogParts } from './context.js';

/** The parts of every module, checked once: each part given exactly once. */
export function collectCatalogParts(contributions: readonly (Partial<CatalogParts> | undefined)[]): CatalogParts {
  const parts: Partial<CatalogParts> = {};
  for (const c of contributions) {
    if (!c) continue;
    for (const key of Object.keys(c) as (keyof CatalogParts)[]) {
      if (parts[key]) throw new Error(`The catalog part ${key} is contributed twice`);
      Object.assign(parts, { [key]: c[key] });
    }
  }
  const names: (keyof CatalogParts)[] = ['stockJson', 'sellableFromStock', 'reviewSummary', 'setProductStock', 'setStockBySku'];
  const missing = names.filter((n) => !parts[n]);
  if (missing.length) throw new Error(`No module contributes the catalog parts ${missing.join(', ')}`);
  return parts as CatalogParts;
}
