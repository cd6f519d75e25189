/**
 * The review summary of a product in one store view, as SQL to embed in another query (the catalog's product
 * read keeps its one round trip this way). It counts exactly what GET /products/{id}/reviews lists in that
 * store view: approved reviews whose store views include it. The average is the mean of each counted
 * review's average vote, two decimals, null when none of them has votes.
 *
 * The module lends it to the catalog as `catalogParts.reviewSummary` (index.ts).
 */
import { sql, type AnyColumn, type SQL } from 'drizzle-orm';
import { reviewVotes, reviews } from './tables.js';

/** The condition on `reviews r` of the reviews a store view shows for a product (store 0: any store view). */
function shownIn(productId: SQL | AnyColumn, storeId: SQL): SQL {
  return sql`r.product_id = ${productId} AND r.status = 'approved' AND (${storeId} = 0 OR ${storeId} = ANY (r.store_ids))`;
}

/**
 * Scalar subqueries: `count` (int) and `average` (numeric as text, or null) of the reviews of `productId`
 * shown in the store view `storeId` (an int expression, e.g. `${storeIdParam}::int`; 0 counts every store view).
 */
export function reviewSummarySql(productId: SQL | AnyColumn, storeId: SQL): { count: SQL; average: SQL } {
  return {
    count: sql`(SELECT count(*)::int FROM ${reviews} r WHERE ${shownIn(productId, storeId)})`,
    average: sql`(SELECT round(avg(a.value), 2)::text FROM ${reviews} r
      JOIN LATERAL (SELECT avg(v.value) AS value FROM ${reviewVotes} v WHERE v.review_id = r.id) a ON true
      WHERE ${shownIn(productId, storeId)})`,
  };
}
