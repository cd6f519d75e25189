/**
 * Customers tagging products, as Magento's tag form does: the words they type become tags (new ones wait for
 * moderation as pending), each tagging the product in the store view once per customer. Tagging with a tag staff
 * disabled is refused once the customer had used it on the product; otherwise the tag goes back to pending.
 * A customer removes their own tag from everything they tagged with it; tagging again brings the uses back.
 *
 * The tags are locked in name order by the one statement that creates the missing ones, so that customers tagging
 * at once with the same new word make one tag, and every write of a tag's uses runs under its lock.
 */
import { sql } from 'drizzle-orm';
import { customerIdOf, withTx, type Ctx } from '../../platform/context.js';
import { rows } from '../../platform/db.js';
import { badRequest, forbidden, notFound } from '../../platform/errors.js';
import { configuredRule } from '../../platform/rate-limit.js';
import { declareConfig, declareConfigLabels } from '../../platform/settings.js';
import { requireProduct } from '../catalog/products/shared.js';
import type { TagResult, TagStatus, TagSubmissionDto } from './schemas.js';
import { intList, rebuildSummaries, shownToShoppers, tagMissing } from './shared.js';
import { tagNames } from './words.js';

declareConfigLabels({ 'catalog/tags': 'Product Tags' });
declareConfig({
  // Magento 1 let customers tag products; Maho made it a switch (off by default): on here, as in Magento 1
  'catalog/tags/enable_adding_tags_in_frontend': { type: 'boolean', default: true, label: 'Enable Adding Tags in Frontend' },
  'api/rate_limit/tag_submit': {
    type: 'integer',
    default: 60,
    label: 'Tag Posts',
    comment: 'product tag posts per hour per IP and per customer; 0: no limit',
    min: 0,
    scopes: ['default'],
  },
});

export interface TagOutcome {
  id: number;
  name: string;
  status: TagStatus;
  result: TagResult;
}

interface Found {
  id: number;
  name: string;
  status: TagStatus;
  /** the product is tagged with it in the store view (by anyone) */
  onProduct: boolean;
  /** the customer's own use there: null none, false removed, true active */
  mine: boolean | null;
}

/**
 * Tags the product with the names for the customer in the store view, in one transaction of a fixed number of
 * statements whatever the number of names; answers each name's tag and what became of it (Magento's add statuses).
 * The caller has checked the product, the customer and the store view.
 */
export async function applyTags(
  ctx: Ctx,
  input: { productId: number; customerId: number; storeId: number; names: string[] },
): Promise<TagOutcome[]> {
  const { productId, customerId, storeId } = input;
  if (!input.names.length) throw badRequest('Name at least one tag', { reason: 'NO_TAGS', details: { field: 'tags' } });
  const names = JSON.stringify(input.names);
  return withTx(ctx, async (tx) => {
    // creates the missing tags and locks the others, in name order
    await tx.db.execute(sql`INSERT INTO tags (name, status, first_customer_id, first_store_id)
      SELECT x.n, 'pending', ${customerId}::int, ${storeId}::int FROM jsonb_array_elements_text(${names}::jsonb) AS x(n) ORDER BY lower(x.n)
      ON CONFLICT ((lower(name))) DO UPDATE SET status = tags.status WHERE false`);
    const found = await rows<Found>(
      tx.db,
      sql`SELECT t.id, t.name, t.status,
          EXISTS (SELECT 1 FROM tag_relations r WHERE r.tag_id = t.id AND r.product_id = ${productId} AND r.store_id = ${storeId}::int AND r.active) AS "onProduct",
          (SELECT r.active FROM tag_relations r WHERE r.tag_id = t.id AND r.product_id = ${productId} AND r.store_id = ${storeId}::int
            AND r.customer_id = ${customerId}::int) AS mine
        FROM tags t WHERE lower(t.name) IN (SELECT lower(x.n) FROM jsonb_array_elements_text(${names}::jsonb) AS x(n))`,
    );
    const byName = new Map(found.map((f) => [f.name.toLowerCase(), f]));
    const save: number[] = [];
    const reopen: number[] = [];
    const out = input.names.map((name): TagOutcome => {
      const f = byName.get(name.toLowerCase())!;
      let status = f.status;
      let result: TagResult;
      if (f.status === 'disabled') {
        if (f.mine !== null) result = 'rejected';
        else {
          reopen.push(f.id);
          save.push(f.id);
          status = 'pending';
          result = 'new';
        }
      } else {
        if (f.mine !== true) save.push(f.id);
        result = f.status === 'pending' ? 'new' : f.onProduct ? 'exist' : 'success';
      }
      return { id: f.id, name: f.name, status, result };
    });
    if (save.length) {
      await tx.db.execute(sql`INSERT INTO tag_relations (tag_id, customer_id, product_id, store_id, active, created_at)
        SELECT x, ${customerId}::int, ${productId}::int, ${storeId}::int, true, ${ctx.now.toISOString()}::timestamptz FROM unnest(${intList(save)}::int[]) AS x
        ON CONFLICT ON CONSTRAINT tag_relations_uq DO UPDATE SET active = true, created_at = excluded.created_at`);
    }
    if (reopen.length) await tx.db.execute(sql`UPDATE tags SET status = 'pending' WHERE id = ANY(${intList(reopen)}::int[])`);
    await rebuildSummaries(tx.db, save);
    return out;
  });
}

/** POST /products/{productId}/tags by the signed-in customer, in the request's store view. */
export async function submitTags(ctx: Ctx, productId: number, text: string): Promise<TagSubmissionDto> {
  const customerId = customerIdOf(ctx.actor);
  if (customerId === undefined) throw forbidden('Customer identity required', { reason: 'CUSTOMER_IDENTITY_REQUIRED' });
  const storeId = ctx.store.storeId;
  if (!ctx.app.settings.getBool('catalog/tags/enable_adding_tags_in_frontend', storeId)) {
    throw forbidden('Customers may not tag products in this store', { reason: 'TAGGING_DISABLED' });
  }
  const names = tagNames(typeof text === 'string' ? text : '');
  if (!names.length) throw badRequest('Name at least one tag', { reason: 'NO_TAGS', details: { field: 'tags' } });
  const product = await requireProduct(ctx, productId);
  if (!shownToShoppers(ctx, product)) throw notFound('Product not found', { reason: 'PRODUCT_NOT_FOUND' });
  // only a post that passed every check counts against the limits
  const rule = configuredRule(ctx.app.settings, 'tag_submit', 3600, storeId);
  await ctx.app.limiter.consume(rule, `ip:${ctx.ip}`);
  await ctx.app.limiter.consume(rule, `customer:${customerId}`);
  const tags = await applyTags(ctx, { productId, customerId, storeId, names });
  return { productId, tags };
}

/** DELETE /customers/me/tags/{id}: the customer's uses of the tag are removed (kept inactive, as Magento does). */
export async function removeMyTag(ctx: Ctx, tagId: number): Promise<void> {
  const customerId = customerIdOf(ctx.actor);
  if (customerId === undefined) throw forbidden('Customer identity required', { reason: 'CUSTOMER_IDENTITY_REQUIRED' });
  await withTx(ctx, async (tx) => {
    const [tag] = await rows<{ id: number }>(tx.db, sql`SELECT id FROM tags WHERE id = ${tagId} FOR UPDATE`);
    if (!tag) throw tagMissing();
    const removed = await rows<{ id: number }>(
      tx.db,
      sql`UPDATE tag_relations SET active = false WHERE tag_id = ${tagId} AND customer_id = ${customerId} AND active RETURNING id`,
    );
    if (!removed.length) throw tagMissing();
    await rebuildSummaries(tx.db, [tagId]);
  });
}
