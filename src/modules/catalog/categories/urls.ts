/**
 * Category URL paths. A category's url path is the url keys of its ancestors below the store's root
 * category and its own, joined with '/' ("women/dresses"); in each store view whose root category is
 * above it, `<url path><category url suffix>` is registered with the URL resolver. The `url_path` column
 * holds the path from the default url keys below level 1; a store view whose path differs (its own url keys,
 * or a deeper root) keeps it in `store_values[storeId].urlPath`.
 */
import { eq, inArray, like, or, sql } from 'drizzle-orm';
import type { Ctx } from '../../../platform/context.js';
import { declareConfig } from '../../../platform/settings.js';
import { replaceEntityPathsMany } from '../../url-resolver/service.js';
import { storeOwn, storeRootId } from './read.js';
import { categories, type StoreValues } from '../tables.js';

declareConfig({
  'catalog/seo/category_url_suffix': { type: 'string', default: '.html', label: 'Category URL Suffix', pattern: /^[A-Za-z0-9._-]{0,32}$/ },
});

/** The category url suffix of a store view, with its leading dot (`.html`), or '' when none is configured. */
export function categoryUrlSuffix(ctx: Ctx, storeId: number): string {
  const raw = (ctx.app.settings.get('catalog/seo/category_url_suffix', storeId) ?? '').trim();
  if (!raw) return '';
  return raw.startsWith('.') ? raw : `.${raw}`;
}

interface PathNode {
  id: number;
  path: string;
  level: number;
  urlKey: string | null;
  urlPath: string | null;
  storeValues: StoreValues;
}

/** The url key a store view uses for the category. */
function keyIn(n: PathNode, storeId?: number): string {
  const own = storeId === undefined ? undefined : storeOwn(n.storeValues, storeId).urlKey;
  if (typeof own === 'string' && own) return own;
  return n.urlKey || `category-${n.id}`;
}

const columns = {
  id: categories.id,
  path: categories.path,
  level: categories.level,
  urlKey: categories.urlKey,
  urlPath: categories.urlPath,
  storeValues: categories.storeValues,
};

/**
 * Recomputes the url paths of the category `topId` and its whole subtree (after a create, a move or a url
 * key change) and registers them with the URL resolver. A path another entity holds is a 409.
 */
export async function rewriteCategoryUrlPaths(ctx: Ctx, topId: number): Promise<void> {
  const [top] = await ctx.db.select({ path: categories.path }).from(categories).where(eq(categories.id, topId));
  if (!top) return;
  const subtree: PathNode[] = await ctx.db
    .select(columns)
    .from(categories)
    .where(or(eq(categories.path, top.path), like(categories.path, `${top.path}/%`)));
  const ancestorIds = top.path.split('/').map(Number).slice(0, -1);
  const ancestors: PathNode[] = ancestorIds.length
    ? await ctx.db.select(columns).from(categories).where(inArray(categories.id, ancestorIds))
    : [];
  const byId = new Map<number, PathNode>([...ancestors, ...subtree].map((n) => [n.id, n]));
  const stores = ctx.app.settings
    .allStores()
    .map((s) => ({ id: s.id, root: storeRootId(ctx, s.id), suffix: categoryUrlSuffix(ctx, s.id) }));

  const changed: { id: number; urlPath: string | null; storeValues: StoreValues }[] = [];
  const entries: { entityId: number; paths: { storeId: number; requestPath: string }[] }[] = [];
  for (const node of subtree) {
    const chain = node.path
      .split('/')
      .map(Number)
      .map((id) => byId.get(id))
      .filter((n): n is PathNode => n !== undefined);
    const urlPath =
      node.level >= 2
        ? chain
            .filter((n) => n.level >= 2)
            .map((n) => keyIn(n))
            .join('/')
        : null;
    const storeValues: StoreValues = { ...(node.storeValues ?? {}) };
    const paths: { storeId: number; requestPath: string }[] = [];
    for (const s of stores) {
      const at = chain.findIndex((n) => n.id === s.root);
      const storePath =
        at !== -1 && at < chain.length - 1
          ? chain
              .slice(at + 1)
              .map((n) => keyIn(n, s.id))
              .join('/')
          : null;
      if (storePath !== null) paths.push({ storeId: s.id, requestPath: `${storePath}${s.suffix}` });
      const own: Record<string, unknown> = { ...(storeValues[String(s.id)] ?? {}) };
      if (storePath !== null && storePath !== urlPath) own.urlPath = storePath;
      else delete own.urlPath;
      if (Object.keys(own).length) storeValues[String(s.id)] = own;
      else delete storeValues[String(s.id)];
    }
    if (urlPath !== node.urlPath || JSON.stringify(storeValues) !== JSON.stringify(node.storeValues ?? {})) {
      changed.push({ id: node.id, urlPath, storeValues });
    }
    entries.push({ entityId: node.id, paths });
  }
  for (let i = 0; i < changed.length; i += 2000) {
    const values = sql.join(
      changed.slice(i, i + 2000).map((c) => sql`(${c.id}::int, ${c.urlPath}::text, ${JSON.stringify(c.storeValues)}::jsonb)`),
      sql`, `,
    );
    await ctx.db.execute(
      sql`UPDATE categories AS c SET url_path = v.url_path, store_values = v.store_values
        FROM (VALUES ${values}) AS v(id, url_path, store_values) WHERE c.id = v.id`,
    );
  }
  await replaceEntityPathsMany(ctx, 'category', entries);
}
