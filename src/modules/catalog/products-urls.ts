/**
 * Product URL keys and the paths they give in each store view: `<url key><suffix>`, registered with the URL
 * resolver for every store view of the product's websites.
 */
import type { Ctx } from '../../platform/context.js';
import { AppError, badRequest, conflict, fromDatabaseError } from '../../platform/errors.js';
import { declareDefaults } from '../../platform/settings.js';
import { replaceEntityPaths } from '../url-resolver/service.js';
import type { StoreValues } from './tables.js';

declareDefaults({
  'catalog/seo/product_url_suffix': '.html',
});

/** Longest url key kept (a path segment; the suffix and a -N counter are added to it). */
const MAX_URL_KEY = 200;

/**
 * A url key from free text: lower-case, accents and ligatures folded to ASCII, every run of other
 * characters turned into one '-', no '-' at either end. Empty when nothing usable is left.
 */
export function formatUrlKey(text: string): string {
  const folded = text
    .replace(/[ßẞ]/g, 'ss')
    .replace(/[æÆ]/g, 'ae')
    .replace(/[œŒ]/g, 'oe')
    .replace(/[øØ]/g, 'o')
    .replace(/[đĐðÐ]/g, 'd')
    .replace(/[łŁ]/g, 'l')
    .replace(/[þÞ]/g, 'th')
    .replace(/&/g, ' and ')
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '');
  return folded
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .slice(0, MAX_URL_KEY)
    .replace(/^-+|-+$/g, '');
}

/** The product url suffix of a store view, with its leading dot (`.html`), or '' when none is configured. */
export function productUrlSuffix(ctx: Ctx, storeId: number): string {
  const raw = (ctx.app.settings.get('catalog/seo/product_url_suffix', storeId) ?? '').trim();
  if (!raw) return '';
  return raw.startsWith('.') ? raw : `.${raw}`;
}

/** Store views of the given websites, in the registry's order. */
export function storesOfWebsites(ctx: Ctx, websiteIds: readonly number[]): number[] {
  const set = new Set(websiteIds);
  return ctx.app.settings
    .allStores()
    .filter((s) => set.has(s.websiteId))
    .map((s) => s.id);
}

/** The url key a store view shows: its own override, else the default. */
export function urlKeyIn(storeValues: StoreValues, storeId: number, defaultKey: string): string {
  const v = storeValues[String(storeId)]?.urlKey;
  return typeof v === 'string' && v ? v : defaultKey;
}

export interface ProductPathInput {
  id: number;
  urlKey: string;
  websiteIds: readonly number[];
  storeValues: StoreValues;
}

/** The request path of the product in each store view of its websites. */
export function productPaths(ctx: Ctx, p: ProductPathInput): { storeId: number; requestPath: string }[] {
  return storesOfWebsites(ctx, p.websiteIds).map((storeId) => ({
    storeId,
    requestPath: `${urlKeyIn(p.storeValues, storeId, p.urlKey)}${productUrlSuffix(ctx, storeId)}`,
  }));
}

/**
 * For a refused registration: undefined when it is not a path conflict; else the conflicting path when the
 * error names it, or '' when it does not (a concurrent request took a path between check and insert).
 */
function conflictPath(err: unknown, paths: { requestPath: string }[]): string | undefined {
  if (err instanceof AppError) {
    if (err.status !== 409) return undefined;
    const text = `${err.message} ${JSON.stringify(err.details ?? {})}`;
    // the longest match first: "a-1.html" also contains "1.html"
    const hit = [...paths].sort((a, b) => b.requestPath.length - a.requestPath.length).find((q) => text.includes(q.requestPath));
    return hit?.requestPath ?? '';
  }
  return fromDatabaseError(err)?.reason === 'DUPLICATE' ? '' : undefined;
}

/**
 * Registers the product's paths. A conflict is raised (409 naming the path) unless it is on the generated
 * default url key: then `-1`, `-2`, ... are appended to it until its paths are free. Each attempt runs in a
 * savepoint, so a refused one leaves the surrounding transaction usable. Returns the default url key used.
 */
export async function registerProductPaths(ctx: Ctx, p: ProductPathInput, generated: boolean): Promise<string> {
  for (let n = 0; ; n++) {
    const urlKey = n === 0 ? p.urlKey : `${p.urlKey}-${n}`;
    const paths = productPaths(ctx, { ...p, urlKey });
    try {
      await ctx.db.transaction(async (sp) => replaceEntityPaths({ ...ctx, db: sp as unknown as Ctx['db'] }, 'product', p.id, paths));
      return urlKey;
    } catch (err) {
      const hit = conflictPath(err, paths);
      if (hit === undefined) throw err;
      // the default paths: those of store views without a url key of their own
      const own = new Set(paths.filter((q) => urlKeyIn(p.storeValues, q.storeId, urlKey) === urlKey).map((q) => q.requestPath));
      const retry = generated && (hit === '' ? n < 20 : own.has(hit)) && n < 10_000;
      if (retry) continue;
      if (err instanceof AppError) throw err;
      const named = [...new Set(paths.map((q) => q.requestPath))].join(', ');
      throw conflict(`The URL path ${named} is already used`, { reason: 'URL_PATH_TAKEN', details: { field: 'urlKey', requestPath: paths[0]?.requestPath } });
    }
  }
}

/** Normalizes an explicit url key; a key with nothing usable in it is a 400. */
export function explicitUrlKey(value: string, field = 'urlKey'): string {
  const key = formatUrlKey(value);
  if (!key) throw badRequest(`${field} must contain letters or digits`, { details: { field } });
  return key;
}
