/**
 * Magento's URL rewrites (`core_url_rewrite`): product, category and product-in-category paths per store view,
 * and the redirects Magento answered (options RP: 301, R: 302), so that old links keep resolving. A custom
 * rewrite that serves another internal path without redirecting has no counterpart here and is reported.
 */
import { sql } from 'drizzle-orm';
import { rows } from '../../platform/db.js';
import { urlRewrites } from '../../modules/url-resolver/tables.js';
import { existingIds, upsertKept, WriteBehind, type EntityImporter } from '../context.js';
import { int, readAhead, trimmed, type SourceRow } from '../source.js';

export const urlRewritesImporter: EntityImporter = {
  name: 'url rewrites',
  group: 'urls',
  fills: ['url_rewrites'],
  count: (ctx) => (ctx.source.hasTable('core_url_rewrite') ? ctx.source.count('core_url_rewrite', 'store_id > 0') : Promise.resolve(0)),
  async run(ctx, stats, tick) {
    if (!ctx.source.hasTable('core_url_rewrite')) return;
    const stores = new Set((await rows<{ id: number }>(ctx.db, sql`SELECT id FROM stores`)).map((r) => r.id));
    const seen = new Set<string>();
    // paths written before this entity (by the catalog, or an earlier run) may have to give way below: none can when
    // the table starts empty, as this run writes each path of a store view once
    const [{ any }] = await rows<{ any: boolean }>(ctx.db, sql`SELECT EXISTS (SELECT 1 FROM url_rewrites) AS any`);
    const behind = new WriteBehind();
    try {
      // the products and categories a batch names were written by earlier entities: read ahead with the batch
      const load = (batch: SourceRow[]) =>
        Promise.all([
          behind.read(() =>
            existingIds(
              ctx.db,
              'products',
              batch.map((r) => int(r.product_id)).filter((x): x is number => !!x),
            ),
          ),
          behind.read(() =>
            existingIds(
              ctx.db,
              'categories',
              batch.map((r) => int(r.category_id)).filter((x): x is number => !!x),
            ),
          ),
        ]);
      for await (const [batch, [productsFound, categoriesFound]] of readAhead(
        ctx.source.batches({ from: 'core_url_rewrite', key: 'url_rewrite_id', where: 'store_id > 0' }),
        load,
      )) {
        stats.found += batch.length;
        const values: (typeof urlRewrites.$inferInsert)[] = [];
        for (const r of batch) {
          const id = Number(r.url_rewrite_id);
          const storeId = Number(r.store_id);
          const requestPath = trimmed(r.request_path)?.replace(/^\/+/, '');
          const options = String(r.options ?? '');
          const redirect = options.includes('RP') ? 301 : options.includes('R') ? 302 : 0;
          const productId = int(r.product_id);
          const categoryId = int(r.category_id);
          const key = `${storeId}/${requestPath}`;
          if (!stores.has(storeId)) ctx.report.skip(stats, id, 'store view not imported');
          else if (!requestPath) ctx.report.skip(stats, id, 'empty request path');
          else if (seen.has(key)) ctx.report.skip(stats, id, 'request path twice in one store view');
          else if (redirect) {
            seen.add(key);
            values.push({
              id,
              storeId,
              requestPath,
              entityType: 'redirect',
              entityId: null,
              targetPath: trimmed(r.target_path)?.replace(/^\/+/, '') ?? '',
              redirectType: redirect,
            });
          } else if (productId) {
            if (!productsFound.has(productId)) ctx.report.skip(stats, id, 'product not imported');
            else {
              seen.add(key);
              values.push({ id, storeId, requestPath, entityType: 'product', entityId: productId, targetPath: null, redirectType: 0 });
            }
          } else if (categoryId) {
            if (!categoriesFound.has(categoryId)) ctx.report.skip(stats, id, 'category not imported');
            else {
              seen.add(key);
              values.push({ id, storeId, requestPath, entityType: 'category', entityId: categoryId, targetPath: null, redirectType: 0 });
            }
          } else ctx.report.skip(stats, id, 'custom rewrite to an internal path (no redirect)');
        }
        // paths the catalog wrote itself for these store views give way to the source's
        for (const v of values) seen.add(`${v.storeId}/${v.requestPath}`);
        const found = stats.found;
        await behind.add(async () => {
          if (values.length && any) {
            await ctx.db.execute(
              sql`DELETE FROM url_rewrites u USING jsonb_to_recordset(${JSON.stringify(values.map((v) => ({ s: v.storeId, p: v.requestPath, i: v.id })))}::jsonb) AS x(s int, p text, i int)
                 WHERE u.store_id = x.s AND u.request_path = x.p AND u.id <> x.i`,
            );
          }
          await upsertKept(ctx.db, stats, urlRewrites, 'url rewrites', values);
          tick(found);
        });
      }
    } finally {
      await behind.flush();
    }
    ctx.sequences.add('url_rewrites');
  },
};
