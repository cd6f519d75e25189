/**
 * Product ratings (the dimensions shoppers vote on; ids kept, the install's Quality, Value and Price give way
 * to the source's rows of the same id) and product reviews (ids kept) with their text, the store views they
 * show in and their votes. A review of a product or customer that was not imported is left out.
 */
import { sql } from 'drizzle-orm';
import { rows } from '../../platform/db.js';
import { ratings, reviewVotes, reviews } from '../../modules/reviews/tables.js';
import { assertImportable, count, existingIds, groupBy, inList, recordIds, sync, upsert, type EntityImporter } from '../context.js';
import { date, int, str, text } from '../source.js';
import { checkCount, countOf, EPOCH, targetStores, whenTable } from './content-shared.js';

/** Magento's review status ids → ours. */
const STATUS: Record<number, string> = { 1: 'approved', 2: 'pending', 3: 'not_approved' };

export const ratingsImporter: EntityImporter = whenTable('rating', {
  name: 'ratings',
  group: 'reviews',
  count: (ctx) => countOf(ctx, 'rating'),
  async run(ctx, stats, tick) {
    const all = await ctx.source.query('SELECT * FROM rating ORDER BY rating_id');
    const productEntity = ctx.source.hasTable('rating_entity')
      ? (await ctx.source.query("SELECT entity_id FROM rating_entity WHERE entity_code = 'product'")).map((r) => Number(r.entity_id))[0]
      : undefined;
    stats.found = all.length;
    const values: (typeof ratings.$inferInsert)[] = [];
    const codes = new Set<string>();
    for (const r of all) {
      const id = Number(r.rating_id);
      const code = text(r.rating_code);
      if (productEntity !== undefined && Number(r.entity_id) !== productEntity) ctx.report.skip(stats, id, 'not a product rating');
      else if (!code) ctx.report.skip(stats, id, 'no code');
      else if (codes.has(code.toLowerCase())) ctx.report.skip(stats, id, 'same code as another rating');
      else {
        codes.add(code.toLowerCase());
        values.push({ id, code, position: int(r.position) ?? 0 });
      }
    }
    // a rating of ours with the code the source gives another id is renamed out of the way
    for (const v of values)
      await ctx.db.execute(sql`UPDATE ratings SET code = code || ' (' || id || ')' WHERE lower(code) = lower(${v.code}) AND id <> ${v.id}`);
    count(stats, await upsert(ctx.db, ratings, values, [ratings.id]));
    await recordIds(
      ctx.db,
      'ratings',
      values.map((v) => [v.id, v.id!]),
    );
    ctx.sequences.add('ratings');
    tick(all.length);
  },
});

export const reviewsImporter: EntityImporter = whenTable('review', {
  name: 'reviews',
  group: 'reviews',
  fills: ['reviews'],
  count: (ctx) => countOf(ctx, 'review'),
  async run(ctx, stats, tick) {
    await assertImportable(ctx.db, 'reviews', 'reviews');
    const voteStats = ctx.report.entity('review votes');
    const stores = await targetStores(ctx.db);
    const ourRatings = new Set((await rows<{ id: number }>(ctx.db, sql`SELECT id FROM ratings`)).map((r) => Number(r.id)));
    const productEntity = ctx.source.hasTable('review_entity')
      ? ((await ctx.source.query("SELECT entity_id FROM review_entity WHERE entity_code = 'product'")).map((r) => Number(r.entity_id))[0] ??
        1)
      : 1;
    const hasVotes = ctx.source.hasTable('rating_option_vote');
    for await (const batch of ctx.source.batches({ from: 'review', key: 'review_id' })) {
      stats.found += batch.length;
      const ids = batch.map((r) => Number(r.review_id));
      const details = groupBy(
        await ctx.source.query(`SELECT * FROM review_detail WHERE review_id IN (${inList(ids)}) ORDER BY detail_id`, ids),
        'review_id',
      );
      const links = ctx.source.hasTable('review_store')
        ? groupBy(
            await ctx.source.query(`SELECT review_id, store_id FROM review_store WHERE review_id IN (${inList(ids)})`, ids),
            'review_id',
          )
        : new Map();
      const votes = hasVotes
        ? groupBy(
            await ctx.source.query(
              `SELECT vote_id, review_id, rating_id, value FROM rating_option_vote WHERE review_id IN (${inList(ids)}) ORDER BY vote_id`,
              ids,
            ),
            'review_id',
          )
        : new Map();
      const products = await existingIds(
        ctx.db,
        'products',
        batch.map((r) => Number(r.entity_pk_value)),
      );
      const customerIds = [...details.values()].map((d) => int(d[0].customer_id) ?? 0);
      const customers = await existingIds(ctx.db, 'customers', customerIds);
      const values: (typeof reviews.$inferInsert)[] = [];
      const voteValues: (typeof reviewVotes.$inferInsert)[] = [];
      for (const r of batch) {
        const id = Number(r.review_id);
        const d = details.get(id)?.[0];
        const status = STATUS[int(r.status_id) ?? 0];
        const customerId = d ? int(d.customer_id) || null : null;
        if (Number(r.entity_id) !== productEntity) ctx.report.skip(stats, id, 'not a product review');
        else if (!d) ctx.report.skip(stats, id, 'no title or text (review_detail)');
        else if (!status) ctx.report.skip(stats, id, `unknown status ${String(r.status_id)}`);
        else if (!products.has(Number(r.entity_pk_value))) ctx.report.skip(stats, id, 'its product was not imported');
        else if (customerId !== null && !customers.has(customerId)) ctx.report.skip(stats, id, 'its customer was not imported');
        else {
          const storeIds = [...new Set(((links.get(id) ?? []) as Record<string, unknown>[]).map((l) => Number(l.store_id)))]
            .filter((s) => stores.has(s))
            .sort((a, b) => a - b);
          values.push({
            id,
            productId: Number(r.entity_pk_value),
            customerId,
            status,
            nickname: str(d.nickname) ?? '',
            title: str(d.title) ?? '',
            detail: str(d.detail) ?? '',
            storeIds,
            createdAt: date(r.created_at) ?? EPOCH,
          });
          const byRating = new Map<number, number>();
          for (const v of (votes.get(id) ?? []) as Record<string, unknown>[]) {
            voteStats.found++;
            const value = int(v.value) ?? 0;
            if (!ourRatings.has(Number(v.rating_id))) ctx.report.skip(voteStats, v.vote_id, 'its rating was not imported');
            else if (value < 1 || value > 5) ctx.report.skip(voteStats, v.vote_id, 'value not from 1 to 5');
            else {
              if (byRating.has(Number(v.rating_id))) ctx.report.skip(voteStats, v.vote_id, 'a later vote of the same rating replaces it');
              byRating.set(Number(v.rating_id), value);
            }
          }
          for (const [ratingId, value] of byRating) voteValues.push({ reviewId: id, ratingId, value });
        }
      }
      // votes of reviews left out in this batch
      for (const id of ids) {
        if (values.some((v) => v.id === id)) continue;
        for (const v of (votes.get(id) ?? []) as Record<string, unknown>[]) {
          voteStats.found++;
          ctx.report.skip(voteStats, v.vote_id, 'its review was not imported');
        }
      }
      count(stats, await upsert(ctx.db, reviews, values, [reviews.id]));
      count(
        voteStats,
        await sync(
          ctx.db,
          reviewVotes,
          reviewVotes.reviewId,
          values.map((v) => v.id!),
          voteValues,
          [reviewVotes.reviewId, reviewVotes.ratingId],
        ),
      );
      await recordIds(
        ctx.db,
        'reviews',
        values.map((v) => [v.id, v.id!]),
      );
      tick(stats.found);
    }
    ctx.sequences.add('reviews');
  },
  verify: (ctx) => checkCount(ctx, 'reviews', 'reviews', 'review'),
});

export const REVIEW_IMPORTERS: EntityImporter[] = [ratingsImporter, reviewsImporter];
