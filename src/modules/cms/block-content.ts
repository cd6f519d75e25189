/**
 * The stored content of a block as a `{{block id="…"}}` directive includes it. Its own file so that the
 * directive renderer (directives.ts) and the block service (blocks.ts, which renders blocks' directives) do not
 * import each other.
 */
import { and, eq, or, sql, type SQL } from 'drizzle-orm';
import type { Ctx } from '../../platform/context.js';
import { inStoreView } from './shared.js';
import { cmsBlocks, cmsBlockStores } from './tables.js';

/** Blocks assigned to the caller's store view (or to all store views). */
export const visibleHere = (ctx: Ctx): SQL => inStoreView(cmsBlocks.id, cmsBlockStores.blockId, cmsBlockStores.storeId, 'cms_block_stores', ctx.store.storeId);

/** The stored content of an active block visible in the caller's store view, by identifier or numeric id. */
export async function blockContent(ctx: Ctx, key: string): Promise<string | undefined> {
  const k = key.trim();
  const byIdentifier = eq(sql`lower(${cmsBlocks.identifier})`, k.toLowerCase());
  const [row] = await ctx.db
    .select({ content: cmsBlocks.content })
    .from(cmsBlocks)
    .where(and(/^\d{1,9}$/.test(k) ? or(eq(cmsBlocks.id, Number(k)), byIdentifier) : byIdentifier, eq(cmsBlocks.isActive, true), visibleHere(ctx)))
    .limit(1);
  return row?.content;
}
