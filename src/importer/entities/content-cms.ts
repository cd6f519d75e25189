/**
 * CMS pages and blocks (ids kept) with the store views they show in (0: every store view). A page's
 * identifier is also its URL path in those store views, registered with the URL resolver.
 */
import { cmsBlocks, cmsBlockStores, cmsPages, cmsPageStores } from '../../modules/cms/tables.js';
import {
  assertImportable,
  count,
  groupBy,
  inList,
  recordIds,
  sinceWhere,
  sync,
  upsert,
  type EntityImporter,
  type ImportContext,
} from '../context.js';
import { bool, date, day, int, str, text, trimmed, type SourceRow } from '../source.js';
import { checkCount, countOf, EPOCH, partly, targetStores, whenTable, writeUrlPaths } from './content-shared.js';

const ROBOTS = ['INDEX,FOLLOW', 'NOINDEX,FOLLOW', 'INDEX,NOFOLLOW', 'NOINDEX,NOFOLLOW'];

/** The store views of each row, from a link table, keeping 0 and the store views we have. */
async function storesOf(
  ctx: ImportContext,
  table: string,
  key: string,
  ids: number[],
  known: Set<number>,
): Promise<Map<number, { all: number; kept: number[] }>> {
  const out = new Map<number, { all: number; kept: number[] }>();
  if (!ids.length || !ctx.source.hasTable(table)) return out;
  const links = groupBy(await ctx.source.query(`SELECT ${key}, store_id FROM ${table} WHERE ${key} IN (${inList(ids)})`, ids), key);
  for (const [id, list] of links) {
    const stores = [...new Set(list.map((l) => Number(l.store_id)))];
    out.set(id, { all: stores.length, kept: stores.filter((s) => s === 0 || known.has(s)).sort((a, b) => a - b) });
  }
  return out;
}

function robots(v: unknown): string | null {
  const s = text(v)?.toUpperCase().replace(/\s+/g, '');
  return s && ROBOTS.includes(s) ? s : null;
}

export const cmsPagesImporter: EntityImporter = whenTable('cms_page', {
  name: 'cms pages',
  group: 'content',
  count: (ctx) => countOf(ctx, 'cms_page', sinceWhere(ctx, 'cms_page', 'update_time')),
  async run(ctx, stats, tick) {
    await assertImportable(ctx.db, 'cms_pages', 'cms pages');
    const known = await targetStores(ctx.db);
    const since = sinceWhere(ctx, 'cms_page', 'update_time');
    for await (const batch of ctx.source.batches({ from: 'cms_page', key: 'page_id', where: since.where, params: since.params })) {
      stats.found += batch.length;
      const ids = batch.map((r) => Number(r.page_id));
      const stores = await storesOf(ctx, 'cms_page_store', 'page_id', ids, known);
      const values: (typeof cmsPages.$inferInsert)[] = [];
      const links: (typeof cmsPageStores.$inferInsert)[] = [];
      for (const r of batch) {
        const id = Number(r.page_id);
        const identifier = trimmed(r.identifier);
        const s = stores.get(id);
        if (!identifier) ctx.report.skip(stats, id, 'no identifier');
        else if (s && s.all > 0 && !s.kept.length) ctx.report.skip(stats, id, 'its store views were not imported');
        else {
          const createdAt = date(r.creation_time) ?? EPOCH;
          values.push({
            id,
            identifier,
            title: text(r.title) ?? identifier,
            contentHeading: text(r.content_heading),
            content: str(r.content) ?? '',
            metaKeywords: text(r.meta_keywords),
            metaDescription: text(r.meta_description),
            metaRobots: robots(r.meta_robots),
            pageLayout: trimmed(r.root_template),
            sortOrder: int(r.sort_order),
            layoutUpdateXml: text(r.layout_update_xml),
            customTheme: trimmed(r.custom_theme),
            customRootTemplate: trimmed(r.custom_root_template),
            customLayoutUpdateXml: text(r.custom_layout_update_xml),
            customThemeFrom: day(r.custom_theme_from),
            customThemeTo: day(r.custom_theme_to),
            isActive: bool(r.is_active),
            createdAt,
            updatedAt: date(r.update_time) ?? createdAt,
          });
          for (const storeId of s?.kept ?? []) links.push({ pageId: id, storeId });
        }
      }
      count(stats, await upsert(ctx.db, cmsPages, values, [cmsPages.id]));
      await sync(
        ctx.db,
        cmsPageStores,
        cmsPageStores.pageId,
        values.map((v) => v.id!),
        links,
        [cmsPageStores.pageId, cmsPageStores.storeId],
      );
      const taken = await writeUrlPaths(
        ctx.db,
        'cms_page',
        values.map((v) => ({
          id: v.id!,
          paths: links.filter((l) => l.pageId === v.id).map((l) => ({ storeId: l.storeId, requestPath: v.identifier })),
        })),
      );
      for (const id of taken.keys()) partly(ctx, stats, id, 'imported, but its URL path is held by another entity in a store view');
      await recordIds(
        ctx.db,
        'cms pages',
        values.map((v) => [v.id, v.id!]),
      );
      tick(stats.found);
    }
    ctx.sequences.add('cms_pages');
  },
  verify: (ctx) => checkCount(ctx, 'cms pages', 'cms_pages', 'cms_page'),
});

export const cmsBlocksImporter: EntityImporter = whenTable('cms_block', {
  name: 'cms blocks',
  group: 'content',
  count: (ctx) => countOf(ctx, 'cms_block', sinceWhere(ctx, 'cms_block', 'update_time')),
  async run(ctx, stats, tick) {
    await assertImportable(ctx.db, 'cms_blocks', 'cms blocks');
    const known = await targetStores(ctx.db);
    const since = sinceWhere(ctx, 'cms_block', 'update_time');
    for await (const batch of ctx.source.batches({ from: 'cms_block', key: 'block_id', where: since.where, params: since.params })) {
      stats.found += batch.length;
      const ids = batch.map((r) => Number(r.block_id));
      const stores = await storesOf(ctx, 'cms_block_store', 'block_id', ids, known);
      const values: (typeof cmsBlocks.$inferInsert)[] = [];
      const links: (typeof cmsBlockStores.$inferInsert)[] = [];
      for (const r of batch as SourceRow[]) {
        const id = Number(r.block_id);
        const identifier = trimmed(r.identifier);
        const s = stores.get(id);
        if (!identifier) ctx.report.skip(stats, id, 'no identifier');
        else if (s && s.all > 0 && !s.kept.length) ctx.report.skip(stats, id, 'its store views were not imported');
        else {
          const createdAt = date(r.creation_time) ?? EPOCH;
          values.push({
            id,
            identifier,
            title: text(r.title) ?? identifier,
            content: str(r.content) ?? '',
            isActive: bool(r.is_active),
            createdAt,
            updatedAt: date(r.update_time) ?? createdAt,
          });
          for (const storeId of s?.kept ?? []) links.push({ blockId: id, storeId });
        }
      }
      count(stats, await upsert(ctx.db, cmsBlocks, values, [cmsBlocks.id]));
      await sync(
        ctx.db,
        cmsBlockStores,
        cmsBlockStores.blockId,
        values.map((v) => v.id!),
        links,
        [cmsBlockStores.blockId, cmsBlockStores.storeId],
      );
      await recordIds(
        ctx.db,
        'cms blocks',
        values.map((v) => [v.id, v.id!]),
      );
      tick(stats.found);
    }
    ctx.sequences.add('cms_blocks');
  },
  verify: (ctx) => checkCount(ctx, 'cms blocks', 'cms_blocks', 'cms_block'),
});
