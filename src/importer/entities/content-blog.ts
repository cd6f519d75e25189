/**
 * The blog of Maho: categories (a tree; ids, paths and levels kept) and posts (ids kept) with the store views
 * they show in (0: every store view), the posts' categories and images. A post's URL path blog/<url key> is
 * registered with the URL resolver; its image file is copied from the media folder when one is given.
 */
import { blogCategories, blogCategoryStores, blogPostCategories, blogPosts, blogPostStores } from '../../modules/blog/tables.js';
import { postPath } from '../../modules/blog/posts.js';
import {
  assertImportable,
  count,
  existingIds,
  groupBy,
  inList,
  recordIds,
  sinceWhere,
  sync,
  upsert,
  type EntityImporter,
  type ImportContext,
} from '../context.js';
import { eavValues, valuesIn, type EavAttribute } from '../eav.js';
import { copyMedia } from '../media.js';
import { bool, date, day, int, str, text, trimmed } from '../source.js';
import { checkCount, countOf, EPOCH, partly, targetStores, whenTable, writeUrlPaths } from './content-shared.js';

/** Store views per row of a link table: every one listed, and those kept (0 and the ones we have). */
async function storeLinks(
  ctx: ImportContext,
  table: string,
  key: string,
  ids: number[],
  known: Set<number>,
): Promise<Map<number, { all: number; kept: number[] }>> {
  const out = new Map<number, { all: number; kept: number[] }>();
  if (!ids.length || !ctx.source.hasTable(table)) return out;
  for (const [id, list] of groupBy(
    await ctx.source.query(`SELECT ${key}, store_id FROM ${table} WHERE ${key} IN (${inList(ids)})`, ids),
    key,
  )) {
    const stores = [...new Set(list.map((l) => Number(l.store_id)))];
    out.set(id, { all: stores.length, kept: stores.filter((s) => s === 0 || known.has(s)).sort((a, b) => a - b) });
  }
  return out;
}

export const blogCategoriesImporter: EntityImporter = whenTable('blog_category_entity', {
  name: 'blog categories',
  group: 'blog',
  count: (ctx) => countOf(ctx, 'blog_category_entity', sinceWhere(ctx, 'blog_category_entity')),
  async run(ctx, stats, tick) {
    await assertImportable(ctx.db, 'blog_categories', 'blog categories');
    const known = await targetStores(ctx.db);
    const s = sinceWhere(ctx, 'blog_category_entity');
    for await (const batch of ctx.source.batches({ from: 'blog_category_entity', key: 'entity_id', where: s.where, params: s.params })) {
      stats.found += batch.length;
      const ids = batch.map((r) => Number(r.entity_id));
      const stores = await storeLinks(ctx, 'blog_category_store', 'category_id', ids, known);
      const values: (typeof blogCategories.$inferInsert)[] = [];
      const links: (typeof blogCategoryStores.$inferInsert)[] = [];
      for (const r of batch) {
        const id = Number(r.entity_id);
        const name = text(r.name);
        const st = stores.get(id);
        if (!name) ctx.report.skip(stats, id, 'no name');
        else if (st && st.all > 0 && !st.kept.length) ctx.report.skip(stats, id, 'its store views were not imported');
        else {
          const parentId = int(r.parent_id) || null;
          const createdAt = date(r.created_at) ?? EPOCH;
          values.push({
            id,
            name,
            urlKey: trimmed(r.url_key) ?? String(id),
            parentId,
            path: trimmed(r.path) ?? String(id),
            level: int(r.level) || 1,
            position: int(r.position) ?? 0,
            isActive: bool(r.is_active),
            metaTitle: text(r.meta_title),
            metaDescription: text(r.meta_description),
            metaKeywords: text(r.meta_keywords),
            createdAt,
            updatedAt: date(r.updated_at) ?? createdAt,
          });
          for (const storeId of st?.kept ?? []) links.push({ categoryId: id, storeId });
        }
      }
      count(stats, await upsert(ctx.db, blogCategories, values, [blogCategories.id]));
      await sync(
        ctx.db,
        blogCategoryStores,
        blogCategoryStores.categoryId,
        values.map((v) => v.id!),
        links,
        [blogCategoryStores.categoryId, blogCategoryStores.storeId],
      );
      await recordIds(
        ctx.db,
        'blog categories',
        values.map((v) => [v.id, v.id!]),
      );
      tick(stats.found);
    }
    ctx.sequences.add('blog_categories');
  },
  verify: (ctx) => checkCount(ctx, 'blog categories', 'blog_categories', 'blog_category_entity'),
});

/** The blog post attributes kept as EAV values (`image`). */
async function postAttributes(ctx: ImportContext): Promise<Map<string, EavAttribute>> {
  if (!ctx.source.hasTable('eav_entity_type')) return new Map();
  const found = await ctx.source.query(
    `SELECT a.attribute_id, a.attribute_code, a.backend_type, a.frontend_input
       FROM eav_attribute a JOIN eav_entity_type t ON t.entity_type_id = a.entity_type_id
      WHERE t.entity_type_code = 'blog_post'`,
  );
  return new Map(
    found.map((r) => [
      String(r.attribute_code),
      {
        id: Number(r.attribute_id),
        code: String(r.attribute_code),
        backendType: String(r.backend_type),
        frontendInput: r.frontend_input === null ? null : String(r.frontend_input),
      },
    ]),
  );
}

export const blogPostsImporter: EntityImporter = whenTable('blog_post_entity', {
  name: 'blog posts',
  group: 'blog',
  count: (ctx) => countOf(ctx, 'blog_post_entity', sinceWhere(ctx, 'blog_post_entity')),
  async run(ctx, stats, tick) {
    await assertImportable(ctx.db, 'blog_posts', 'blog posts');
    const known = await targetStores(ctx.db);
    const attrs = await postAttributes(ctx);
    const s = sinceWhere(ctx, 'blog_post_entity');
    for await (const batch of ctx.source.batches({ from: 'blog_post_entity', key: 'entity_id', where: s.where, params: s.params })) {
      stats.found += batch.length;
      const ids = batch.map((r) => Number(r.entity_id));
      const stores = await storeLinks(ctx, 'blog_post_store', 'post_id', ids, known);
      const eav = await eavValues(ctx.source, 'blog_post_entity', ids, attrs, ['image']);
      const categoryLinks = ctx.source.hasTable('blog_post_category')
        ? groupBy(
            await ctx.source.query(`SELECT post_id, category_id, position FROM blog_post_category WHERE post_id IN (${inList(ids)})`, ids),
            'post_id',
          )
        : new Map();
      const categories = await existingIds(
        ctx.db,
        'blog_categories',
        [...categoryLinks.values()].flat().map((l) => Number((l as Record<string, unknown>).category_id)),
      );
      const values: (typeof blogPosts.$inferInsert)[] = [];
      const storeValues: (typeof blogPostStores.$inferInsert)[] = [];
      const categoryValues: (typeof blogPostCategories.$inferInsert)[] = [];
      const missingImages: number[] = [];
      const refusedImages: number[] = [];
      for (const r of batch) {
        const id = Number(r.entity_id);
        const title = text(r.title);
        const urlKey = trimmed(r.url_key);
        const st = stores.get(id);
        if (!title) ctx.report.skip(stats, id, 'no title');
        else if (!urlKey) ctx.report.skip(stats, id, 'no URL key');
        else if (st && st.all > 0 && !st.kept.length) ctx.report.skip(stats, id, 'its store views were not imported');
        else {
          const file = text(valuesIn(eav, id).image)?.replace(/^\/+/, '');
          const image = file ? (/^https?:\/\//i.test(file) ? file : `blog/${file}`) : null;
          if (file && image && !image.startsWith('http')) {
            const copy = await copyMedia(ctx, 'blog', file, { replace: false });
            if (!copy.ok && copy.missing) missingImages.push(id);
            else if (!copy.ok) {
              refusedImages.push(id);
              ctx.report.note(stats, id, `image ${image} not copied: ${copy.reason}`);
            }
          }
          const published = day(r.publish_date);
          const createdAt = date(r.created_at) ?? EPOCH;
          values.push({
            id,
            title,
            urlKey,
            content: str(r.content) ?? '',
            shortContent: text(r.short_content),
            image,
            publishDate: published ? new Date(`${published}T00:00:00Z`) : null,
            metaTitle: text(r.meta_title),
            metaDescription: text(r.meta_description),
            metaKeywords: text(r.meta_keywords),
            metaRobots: trimmed(r.meta_robots),
            isActive: bool(r.is_active),
            createdAt,
            updatedAt: date(r.updated_at) ?? createdAt,
          });
          for (const storeId of st?.kept ?? []) storeValues.push({ postId: id, storeId });
          for (const l of (categoryLinks.get(id) ?? []) as Record<string, unknown>[]) {
            if (categories.has(Number(l.category_id)))
              categoryValues.push({ postId: id, categoryId: Number(l.category_id), position: int(l.position) ?? 0 });
          }
        }
      }
      count(stats, await upsert(ctx.db, blogPosts, values, [blogPosts.id]));
      const postIds = values.map((v) => v.id!);
      await sync(ctx.db, blogPostStores, blogPostStores.postId, postIds, storeValues, [blogPostStores.postId, blogPostStores.storeId]);
      await sync(ctx.db, blogPostCategories, blogPostCategories.postId, postIds, categoryValues, [
        blogPostCategories.postId,
        blogPostCategories.categoryId,
      ]);
      const taken = await writeUrlPaths(
        ctx.db,
        'blog_post',
        values.map((v) => ({
          id: v.id!,
          paths: storeValues.filter((l) => l.postId === v.id).map((l) => ({ storeId: l.storeId, requestPath: postPath(v.urlKey) })),
        })),
      );
      for (const id of new Set([...taken.keys(), ...missingImages, ...refusedImages])) {
        const what = [
          taken.has(id) ? 'its URL path is held by another entity in a store view' : '',
          missingImages.includes(id) ? 'its image file is not in the media folder' : '',
          refusedImages.includes(id) ? 'its image file was refused (see the notes)' : '',
        ];
        partly(ctx, stats, id, `imported, but ${what.filter(Boolean).join(' and ')}`);
      }
      await recordIds(
        ctx.db,
        'blog posts',
        values.map((v) => [v.id, v.id!]),
      );
      tick(stats.found);
    }
    ctx.sequences.add('blog_posts');
  },
  verify: (ctx) => checkCount(ctx, 'blog posts', 'blog_posts', 'blog_post_entity'),
});

export const BLOG_IMPORTERS: EntityImporter[] = [blogCategoriesImporter, blogPostsImporter];
