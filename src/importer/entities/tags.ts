/**
 * Product tags (Mage_Tag): the tags (ids kept) with their status and where they were first used, the base
 * popularity staff gave them per store view (tag_properties), and their uses (tag_relation, ids kept: a customer's
 * tag of a product in a store view, or staff's with no customer). The summaries (Magento's tag_summary index) are
 * not read: they are computed again from what was imported, as every write of the tags module computes them.
 *
 * Names are unique in any case here, as MySQL's collation made them in practice: a later tag of the same name is
 * left out and its uses go to the first. A use of a product, customer or store view that was not imported is left
 * out, as is a second use of the same tag, product, store view and customer (Magento allows several by staff).
 */
import { sql } from 'drizzle-orm';
import { rows } from '../../platform/db.js';
import { tagProperties, tagRelations, tags } from '../../modules/tags/tables.js';
import { rebuildSummaries } from '../../modules/tags/shared.js';
import { MAX_NAME } from '../../modules/tags/words.js';
import { assertImportable, count, existingIds, recordIds, upsert, type EntityImporter, type ImportContext } from '../context.js';
import { date, int, trimmed } from '../source.js';
import { checkCount, countOf, EPOCH, targetStores, whenTable } from './content-shared.js';

/** Magento's tag status codes → ours. */
const STATUS: Record<number, string> = { 1: 'approved', 0: 'pending', [-1]: 'disabled' };

/** The tag each source tag id was imported as (a later tag of the same name: the first one's id). */
const MERGED = 'tags:merged';

function mergedOf(ctx: ImportContext): Map<number, number> {
  let m = ctx.memo.get(MERGED) as Map<number, number> | undefined;
  if (!m) ctx.memo.set(MERGED, (m = new Map()));
  return m;
}

/** Our tag ids by source tag id: those imported now or by an earlier run, and the merged ones. */
async function importedTags(ctx: ImportContext, sourceIds: number[]): Promise<Map<number, number>> {
  const merged = mergedOf(ctx);
  const kept = await existingIds(ctx.db, 'tags', sourceIds);
  const out = new Map<number, number>();
  for (const id of sourceIds) {
    const to = merged.get(id) ?? (kept.has(id) ? id : undefined);
    if (to !== undefined) out.set(id, to);
  }
  return out;
}

export const tagsImporter: EntityImporter = whenTable('tag', {
  name: 'tags',
  group: 'tags',
  count: (ctx) => countOf(ctx, 'tag'),
  async run(ctx, stats, tick) {
    await assertImportable(ctx.db, 'tags', 'tags');
    const stores = await targetStores(ctx.db);
    const merged = mergedOf(ctx);
    // names taken by tags imported before (an earlier run), lower-cased
    const names = new Map(
      (await rows<{ id: number; name: string }>(ctx.db, sql`SELECT id, name FROM tags`)).map((r) => [r.name.toLowerCase(), Number(r.id)]),
    );
    for await (const batch of ctx.source.batches({ from: 'tag', key: 'tag_id' })) {
      stats.found += batch.length;
      const customers = await existingIds(
        ctx.db,
        'customers',
        batch.map((r) => int(r.first_customer_id) ?? 0),
      );
      const values: (typeof tags.$inferInsert)[] = [];
      for (const r of batch) {
        const id = Number(r.tag_id);
        const name = trimmed(r.name) === null ? null : [...trimmed(r.name)!].slice(0, MAX_NAME).join('').trim();
        const status = STATUS[int(r.status) ?? 99];
        const same = name === null ? undefined : names.get(name.toLowerCase());
        if (!name) ctx.report.skip(stats, id, 'no name');
        else if (!status) ctx.report.skip(stats, id, `unknown status ${String(r.status)}`);
        else if (same !== undefined && same !== id) {
          merged.set(id, same);
          ctx.report.skip(stats, id, 'same name as another tag (its uses go to that one)');
        } else {
          names.set(name.toLowerCase(), id);
          const customer = int(r.first_customer_id);
          const store = int(r.first_store_id);
          values.push({
            id,
            name,
            status,
            firstCustomerId: customer !== null && customers.has(customer) ? customer : null,
            firstStoreId: store !== null && stores.has(store) ? store : null,
          });
        }
      }
      count(stats, await upsert(ctx.db, tags, values, [tags.id]));
      await recordIds(
        ctx.db,
        'tags',
        values.map((v) => [v.id, v.id!]),
      );
      tick(stats.found);
    }
    ctx.sequences.add('tags');
    if (ctx.source.hasTable('tag_properties')) await importProperties(ctx);
  },
  verify: (ctx) => checkCount(ctx, 'tags', 'tags', 'tag'),
});

/** The base popularity of tags per store view; one of the default values (store 0) or of a tag left out is left out. */
async function importProperties(ctx: ImportContext): Promise<void> {
  const stats = ctx.report.entity('tag properties');
  const stores = await targetStores(ctx.db);
  const all = await ctx.source.query('SELECT tag_id, store_id, base_popularity FROM tag_properties ORDER BY tag_id, store_id');
  stats.found = all.length;
  const imported = await importedTags(
    ctx,
    all.map((r) => Number(r.tag_id)),
  );
  const values = new Map<string, typeof tagProperties.$inferInsert>();
  for (const r of all) {
    const key = `${String(r.tag_id)}/${String(r.store_id)}`;
    const tagId = imported.get(Number(r.tag_id));
    const storeId = Number(r.store_id);
    const base = Math.max(0, Math.min(1_000_000_000, int(r.base_popularity) ?? 0));
    if (tagId === undefined) ctx.report.skip(stats, key, 'its tag was not imported');
    else if (!stores.has(storeId))
      ctx.report.skip(stats, key, storeId === 0 ? 'of the default values (not used)' : 'store view not imported');
    else if (values.has(`${tagId}/${storeId}`)) ctx.report.skip(stats, key, 'a tag of the same name has one in that store view');
    else values.set(`${tagId}/${storeId}`, { tagId, storeId, basePopularity: base });
  }
  count(stats, await upsert(ctx.db, tagProperties, [...values.values()], [tagProperties.tagId, tagProperties.storeId]));
}

export const tagRelationsImporter: EntityImporter = whenTable('tag_relation', {
  name: 'tag relations',
  group: 'tags',
  count: (ctx) => countOf(ctx, 'tag_relation'),
  async run(ctx, stats, tick) {
    await assertImportable(ctx.db, 'tag_relations', 'tag relations');
    const stores = await targetStores(ctx.db);
    // the relation holding each use (tag, customer, product, store view): an earlier run's, then this one's
    const taken = new Map(
      (
        await rows<{ k: string; id: number }>(
          ctx.db,
          sql`SELECT concat_ws('/', tag_id, coalesce(customer_id, 0), product_id, store_id) AS k, id FROM tag_relations`,
        )
      ).map((r) => [r.k, Number(r.id)]),
    );
    for await (const batch of ctx.source.batches({ from: 'tag_relation', key: 'tag_relation_id' })) {
      stats.found += batch.length;
      const tagsOf = await importedTags(
        ctx,
        batch.map((r) => Number(r.tag_id)),
      );
      const products = await existingIds(
        ctx.db,
        'products',
        batch.map((r) => Number(r.product_id)),
      );
      const customers = await existingIds(
        ctx.db,
        'customers',
        batch.map((r) => int(r.customer_id) ?? 0),
      );
      const values: (typeof tagRelations.$inferInsert)[] = [];
      for (const r of batch) {
        const id = Number(r.tag_relation_id);
        const tagId = tagsOf.get(Number(r.tag_id));
        const customerId = int(r.customer_id) || null;
        const productId = Number(r.product_id);
        const storeId = Number(r.store_id);
        const key = `${tagId}/${customerId ?? 0}/${productId}/${storeId}`;
        const holder = taken.get(key);
        if (tagId === undefined) ctx.report.skip(stats, id, 'its tag was not imported');
        else if (!products.has(productId)) ctx.report.skip(stats, id, 'its product was not imported');
        else if (customerId !== null && !customers.has(customerId)) ctx.report.skip(stats, id, 'its customer was not imported');
        else if (!stores.has(storeId)) ctx.report.skip(stats, id, 'store view not imported');
        else if (holder !== undefined && holder !== id) ctx.report.skip(stats, id, 'the same use as another relation');
        else {
          taken.set(key, id);
          values.push({ id, tagId, customerId, productId, storeId, active: int(r.active) !== 0, createdAt: date(r.created_at) ?? EPOCH });
        }
      }
      count(stats, await upsert(ctx.db, tagRelations, values, [tagRelations.id]));
      await recordIds(
        ctx.db,
        'tag relations',
        values.map((v) => [v.id, v.id!]),
      );
      tick(stats.found);
    }
    ctx.sequences.add('tag_relations');
    // every tag's figures from its uses and base popularity, as Magento's tag summary index computes them
    await rebuildSummaries(ctx.db);
  },
  verify: (ctx) => checkCount(ctx, 'tag relations', 'tag_relations', 'tag_relation'),
});

export const TAG_IMPORTERS: EntityImporter[] = [tagsImporter, tagRelationsImporter];
