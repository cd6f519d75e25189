/**
 * Product URL keys and the paths they give in each store view: `<url key><suffix>`, registered with the URL
 * resolver for every store view of the product's websites.
 */
import { sql } from 'drizzle-orm';
import type { Ctx } from '../../../platform/context.js';
import { rows } from '../../../platform/db.js';
import { AppError, badRequest, conflict, fromDatabaseError } from '../../../platform/errors.js';
import { declareConfig, declareConfigLabels } from '../../../platform/settings.js';
import { replaceEntityPaths } from '../../url-resolver/service.js';
import { products, type StoreValues } from '../tables.js';

declareConfigLabels({ catalog: 'Catalog', 'catalog/seo': 'Search Engine Optimizations' });
declareConfig({
  'catalog/seo/product_url_suffix': { type: 'string', default: '.html', label: 'Product URL Suffix', pattern: /^[A-Za-z0-9._-]{0,32}$/ },
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

/** Attempts at registering a generated url key before the conflict is reported (each after a fresh look-up). */
const MAX_ATTEMPTS = 8;

/**
 * The first of `base`, `base-1`, `base-2`, ... that no other product uses as its url key, by default or in a
 * store view, and that is not in `refused`: one query over every product (a key taken in another website only
 * is skipped too, which keeps keys unique across the catalog).
 */
async function firstFreeUrlKey(ctx: Ctx, base: string, exceptId: number, refused: ReadonlySet<string>): Promise<string> {
  // a generated key holds only [a-z0-9-]: nothing in it is special to a regular expression
  const pattern = `^${base}(-[0-9]+)?$`;
  const found = await rows<{ key: string }>(
    ctx.db,
    sql`SELECT ${products.urlKey} AS "key" FROM ${products} WHERE ${products.id} <> ${exceptId} AND ${products.urlKey} ~ ${pattern}
      UNION SELECT v.value ->> 'urlKey' FROM ${products}, jsonb_each(${products.storeValues}) AS v
        WHERE ${products.id} <> ${exceptId} AND v.value ->> 'urlKey' ~ ${pattern}`,
  );
  const used = new Set<number>();
  for (const k of [...found.map((r) => r.key), ...refused]) {
    if (k === base) used.add(0);
    else if (k.startsWith(`${base}-`) && /^[0-9]{1,9}$/.test(k.slice(base.length + 1))) used.add(Number(k.slice(base.length + 1)));
  }
  let n = 0;
  while (used.has(n)) n++;
  return n === 0 ? base : `${base}-${n}`;
}

/**
 * Registers the product's paths. A conflict is raised (409 naming the path) unless it is on the generated
 * default url key: then the first free `-1`, `-2`, ... suffix is looked up (one query over the products' url
 * keys) and registered; a path that something else holds (a category, a page, a product created at the same
 * moment) is refused by the URL resolver's unique index and the next free suffix is tried, a few times at most.
 * Each attempt runs in a savepoint, so a refused one leaves the surrounding transaction usable. Returns the
 * default url key used.
 */
export async function registerProductPaths(ctx: Ctx, p: ProductPathInput, generated: boolean): Promise<string> {
  const refused = new Set<string>();
  let urlKey = generated ? await firstFreeUrlKey(ctx, p.urlKey, p.id, refused) : p.urlKey;
  for (let attempt = 1; ; attempt++) {
    const paths = productPaths(ctx, { ...p, urlKey });
    try {
      await ctx.db.transaction(async (sp) => replaceEntityPaths({ ...ctx, db: sp as unknown as Ctx['db'] }, 'product', p.id, paths));
      return urlKey;
    } catch (err) {
      const hit = conflictPath(err, paths);
      if (hit === undefined) throw err;
      // the default paths: those of store views without a url key of their own
      const own = new Set(paths.filter((q) => urlKeyIn(p.storeValues, q.storeId, urlKey) === urlKey).map((q) => q.requestPath));
      const retry = generated && (hit === '' || own.has(hit)) && attempt < MAX_ATTEMPTS;
      if (retry) {
        refused.add(urlKey);
        urlKey = await firstFreeUrlKey(ctx, p.urlKey, p.id, refused);
        continue;
      }
      if (err instanceof AppError) throw err;
      const named = [...new Set(paths.map((q) => q.requestPath))].join(', ');
      throw conflict(`The URL path ${named} is already used`, {
        reason: 'URL_PATH_TAKEN',
        details: { field: 'urlKey', requestPath: paths[0]?.requestPath },
      });
    }
  }
}

/** Normalizes an explicit url key; a key with nothing usable in it is a 400. */
export function explicitUrlKey(value: string, field = 'urlKey'): string {
  const key = formatUrlKey(value);
  if (!key) throw badRequest(`${field} must contain letters or digits`, { details: { field } });
  return key;
}
