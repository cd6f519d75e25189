/**
 * Whether an entity a URL path leads to may be shown: the module owning each entity type (products,
 * categories, CMS pages, blog posts) contributes its check as `AppModule.urlResolverChecks`; the app collects
 * them once at startup (`collectUrlResolverChecks`) and the URL resolver asks them through
 * `ctx.app.urlResolverChecks`.
 */
import type { UrlResolverCheck } from './context.js';

/** The checks of every module by entity type; an entity type checked twice is a startup error. */
export function collectUrlResolverChecks(
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
