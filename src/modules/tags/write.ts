/**
 * Staff managing tags: create (approving a pending tag of the same name, as Magento's tag form does), rename,
 * moderate, give a base popularity in a store view, assign to and unassign from products in a store view, delete.
 * Each write locks the tag and rewrites its summaries in the same transaction.
 */
import { eq, sql } from 'drizzle-orm';
import { adminStoreScope, adminWebsiteScope, assertScopeWritable, withTx, type Ctx } from '../../platform/context.js';
import { rows } from '../../platform/db.js';
import { badRequest, conflict, forbidden } from '../../platform/errors.js';
import { productsByIdOrSku } from '../catalog/products/legacy-keys.js';
import { staffTag } from './read.js';
import type { TagCreateBody, TagDto, TagProductsBody, TagStatus, TagUpdateBody } from './schemas.js';
import { tags } from './tables.js';
import { figuresStore, findTag, intList, rebuildSummaries, tagMissing, tagVisible, tagWritable } from './shared.js';

/** A tag name: trimmed, not blank, at most 255 characters. */
function cleanName(v: unknown): string {
  const s = typeof v === 'string' ? v.trim() : '';
  if (!s) throw badRequest('name is required', { reason: 'MISSING_FIELDS', details: { field: 'name', constraint: 'required' } });
  if ([...s].length > 255) {
    throw badRequest('name must be at most 255 characters', {
      reason: 'VALIDATION_FAILED',
      details: { field: 'name', constraint: 'maxLength' },
    });
  }
  return s;
}

/** The store view a write's base popularity and assignment are of: the one named, else the request's; its own for a limited token. */
function writeStore(ctx: Ctx, asked: number | undefined): number {
  const storeId = asked ?? ctx.store.storeId;
  if (!ctx.app.settings.store(storeId)) {
    throw badRequest(`Unknown store: ${storeId}`, { reason: 'UNKNOWN_STORE', details: { field: 'storeId', constraint: 'exists' } });
  }
  assertScopeWritable(ctx, [storeId], 'storeId');
  return storeId;
}

/** The products by id (in a limited token's websites); 400 naming those that are not. */
async function productIds(ctx: Ctx, field: string, ids: readonly number[]): Promise<number[]> {
  const wanted = [...new Set(ids)];
  if (!wanted.length) return [];
  const { byId } = await productsByIdOrSku(ctx, wanted, [], adminWebsiteScope(ctx));
  const unknown = wanted.filter((id) => !byId.has(id));
  if (unknown.length) {
    throw badRequest(`Unknown product: ${unknown.slice(0, 10).join(', ')}`, {
      reason: 'UNKNOWN_PRODUCT',
      details: { field, constraint: 'exists', productIds: unknown.slice(0, 100) },
    });
  }
  return wanted;
}

/** 409; the tag's id only for a caller that sees every tag (a limited token may not see that one). */
function tagExists(ctx: Ctx, id?: number) {
  const seen = id !== undefined && !adminStoreScope(ctx) ? { id } : {};
  return conflict('A tag with this name exists', { reason: 'TAG_EXISTS', details: { field: 'name', ...seen } });
}

async function setBasePopularity(tx: Ctx, tagId: number, storeId: number, value: number): Promise<void> {
  await tx.db.execute(sql`INSERT INTO tag_properties (tag_id, store_id, base_popularity) VALUES (${tagId}, ${storeId}, ${value})
    ON CONFLICT (tag_id, store_id) DO UPDATE SET base_popularity = excluded.base_popularity`);
}

/** Uses of the tag by staff (no customer) on the products in the store view; removed ones made active again. */
async function assign(tx: Ctx, tagId: number, storeId: number, products: number[]): Promise<void> {
  if (!products.length) return;
  await tx.db.execute(sql`INSERT INTO tag_relations (tag_id, customer_id, product_id, store_id, active, created_at)
    SELECT ${tagId}::int, NULL, x, ${storeId}::int, true, ${tx.now.toISOString()}::timestamptz FROM unnest(${intList(products)}::int[]) AS x
    ON CONFLICT ON CONSTRAINT tag_relations_uq DO UPDATE SET active = true`);
}

/** POST /tags. */
export async function createTag(ctx: Ctx, body: TagCreateBody): Promise<TagDto> {
  const name = cleanName(body.name);
  const status: TagStatus = body.status ?? 'approved';
  const needsStore = body.storeId !== undefined || body.basePopularity !== undefined || !!body.productIds?.length || !!adminStoreScope(ctx);
  const storeId = needsStore ? writeStore(ctx, body.storeId) : undefined;
  const products = await productIds(ctx, 'productIds', body.productIds ?? []);
  const id = await withTx(ctx, async (tx) => {
    const [same] = await rows<{ id: number }>(tx.db, sql`SELECT id FROM tags WHERE lower(name) = lower(${name}) FOR UPDATE`);
    let tagId: number;
    if (same) {
      // a new approved tag takes over a pending tag of the same name (Magento's tag resource does so)
      const row = (await findTag(tx.db, same.id, 0))!;
      if (row.status !== 'pending' || status !== 'approved' || !tagVisible(ctx, row)) throw tagExists(ctx, same.id);
      if (!tagWritable(ctx, row))
        throw forbidden('The pending tag of this name is used in store views this token may not act in', { reason: 'STORE_NOT_ALLOWED' });
      await tx.db.execute(sql`UPDATE tags SET status = 'approved' WHERE id = ${same.id}`);
      tagId = same.id;
    } else {
      const [made] = await rows<{ id: number }>(
        tx.db,
        sql`INSERT INTO tags (name, status, first_store_id) VALUES (${name}, ${status}, ${storeId ?? null}::int)
          ON CONFLICT ((lower(name))) DO NOTHING RETURNING id`,
      );
      // another request made it meanwhile
      if (!made) throw tagExists(ctx);
      tagId = made.id;
    }
    if (body.basePopularity !== undefined) await setBasePopularity(tx, tagId, storeId!, body.basePopularity);
    await assign(tx, tagId, storeId!, products);
    await rebuildSummaries(tx.db, [tagId]);
    return tagId;
  });
  return staffTag(ctx, id, storeId ?? figuresStore(ctx, undefined));
}

/** PUT /tags/{id}: rename, moderate and/or give the base popularity in a store view. */
export async function updateTag(ctx: Ctx, id: number, body: TagUpdateBody): Promise<TagDto> {
  if (body.name === undefined && body.status === undefined && body.basePopularity === undefined) {
    throw badRequest('Nothing to update: send name, status and/or basePopularity', {
      reason: 'NOTHING_TO_UPDATE',
      details: { field: 'name', constraint: 'required' },
    });
  }
  const name = body.name === undefined ? undefined : cleanName(body.name);
  const storeId = body.basePopularity !== undefined || body.storeId !== undefined ? writeStore(ctx, body.storeId) : undefined;
  await withTx(ctx, async (tx) => {
    const row = await findTag(tx.db, id, 0, true);
    if (!row || !tagVisible(ctx, row)) throw tagMissing();
    if ((name !== undefined || body.status !== undefined) && !tagWritable(ctx, row)) {
      throw forbidden('This tag is also used in store views this token may not act in', { reason: 'STORE_NOT_ALLOWED' });
    }
    if (name !== undefined) {
      const [other] = await rows<{ id: number }>(tx.db, sql`SELECT id FROM tags WHERE lower(name) = lower(${name}) AND id <> ${id}`);
      if (other) throw tagExists(ctx, other.id);
    }
    if (name !== undefined || body.status !== undefined) {
      const set: Partial<typeof tags.$inferInsert> = {};
      if (name !== undefined) set.name = name;
      if (body.status !== undefined) set.status = body.status;
      await tx.db.update(tags).set(set).where(eq(tags.id, id));
    }
    if (body.basePopularity !== undefined) {
      await setBasePopularity(tx, id, storeId!, body.basePopularity);
      await rebuildSummaries(tx.db, [id]);
    }
  });
  return staffTag(ctx, id, storeId ?? figuresStore(ctx, undefined));
}

/** DELETE /tags/{id}: the tag and every use of it. */
export async function deleteTag(ctx: Ctx, id: number): Promise<void> {
  await withTx(ctx, async (tx) => {
    const row = await findTag(tx.db, id, 0, true);
    if (!row || !tagVisible(ctx, row)) throw tagMissing();
    if (!tagWritable(ctx, row))
      throw forbidden('This tag is also used in store views this token may not act in', { reason: 'STORE_NOT_ALLOWED' });
    await tx.db.execute(sql`DELETE FROM tags WHERE id = ${id}`);
  });
}

/** PUT /tags/{id}/products: tag products in a store view (as staff), and/or remove every use of the tag on others there. */
export async function setTagProducts(ctx: Ctx, id: number, body: TagProductsBody): Promise<TagDto> {
  const add = [...new Set(body.assign ?? [])];
  const remove = [...new Set(body.unassign ?? [])];
  if (!add.length && !remove.length) {
    throw badRequest('Nothing to change: send assign and/or unassign', { reason: 'NOTHING_TO_UPDATE', details: { field: 'assign' } });
  }
  const both = add.filter((p) => remove.includes(p));
  if (both.length) {
    throw badRequest(`Product ${both[0]} is both assigned and unassigned`, { reason: 'VALIDATION_FAILED', details: { field: 'unassign' } });
  }
  const storeId = writeStore(ctx, body.storeId);
  await withTx(ctx, async (tx) => {
    const row = await findTag(tx.db, id, storeId, true);
    if (!row || !tagVisible(ctx, row)) throw tagMissing();
    await productIds(tx, 'assign', add);
    await productIds(tx, 'unassign', remove);
    await assign(tx, id, storeId, add);
    if (remove.length) {
      await tx.db.execute(
        sql`DELETE FROM tag_relations WHERE tag_id = ${id} AND store_id = ${storeId} AND product_id = ANY(${intList(remove)}::int[])`,
      );
    }
    await rebuildSummaries(tx.db, [id]);
  });
  return staffTag(ctx, id, storeId);
}
