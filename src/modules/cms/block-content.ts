/**
 * The stored content of blocks as `{{block id="…"}}` directives include them. Its own file so that the
 * directive renderer (directives.ts) and the block service (blocks.ts, which renders blocks' directives) do not
 * import each other.
 */
import { and, asc, eq, inArray, or, sql, type SQL } from 'drizzle-orm';
import type { Ctx } from '../../platform/context.js';
import { inStoreView } from './shared.js';
import { cmsBlocks, cmsBlockStores } from './tables.js';

/** Blocks assigned to the caller's store view (or to all store views). */
export const visibleHere = (ctx: Ctx): SQL =>
  inStoreView(cmsBlocks.id, cmsBlockStores.blockId, cmsBlockStores.storeId, 'cms_block_stores', ctx.store.storeId);

/**
 * The stored contents of the active blocks visible in the caller's store view that `keys` name (identifiers,
 * any case, or numeric ids), in one statement: by each key as given, lower-cased; a number names the block of
 * that id before one whose identifier it is. Keys naming no such block are absent.
 */
export async function blockContents(ctx: Ctx, keys: readonly string[]): Promise<Map<string, string>> {
  const wanted = [...new Set(keys.map((k) => k.trim().toLowerCase()).filter(Boolean))];
  const out = new Map<string, string>();
  if (!wanted.length) return out;
  const ids = wanted.filter((k) => /^\d{1,9}$/.test(k)).map(Number);
  const byIdentifier = inArray(sql`lower(${cmsBlocks.identifier})`, wanted);
  const rows = await ctx.db
    .select({ id: cmsBlocks.id, identifier: cmsBlocks.identifier, content: cmsBlocks.content })
    .from(cmsBlocks)
    .where(and(ids.length ? or(inArray(cmsBlocks.id, ids), byIdentifier) : byIdentifier, eq(cmsBlocks.isActive, true), visibleHere(ctx)))
    .orderBy(asc(cmsBlocks.id));
  const wants = new Set(wanted);
  for (const r of rows) if (wants.has(String(r.id))) out.set(String(r.id), r.content);
  for (const r of rows) {
    const key = r.identifier.toLowerCase();
    if (wants.has(key) && !out.has(key)) out.set(key, r.content);
  }
  return out;
}
