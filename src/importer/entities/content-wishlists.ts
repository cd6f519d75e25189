/**
 * Wishlist items (ids kept), each on its customer's list, with the choices made for the product (the
 * `info_buyRequest` option) as the cart's add-item fields. Our lists hold a product once: a second item of the
 * same product (other options) is left out. Items of products or customers that were not imported are left out.
 */
import { sql } from 'drizzle-orm';
import { rows } from '../../platform/db.js';
import { MAX_WISHLIST_QTY } from '../../modules/wishlist/schemas.js';
import { wishlistItems } from '../../modules/wishlist/tables.js';
import {
  assertImportable,
  count,
  existingIds,
  inList,
  intArray,
  recordIds,
  sinceWhere,
  upsert,
  type EntityImporter,
  type ImportContext,
} from '../context.js';
import { date, text } from '../source.js';
import { checkCount, EPOCH, phpUnserialize, targetStores, whenTable } from './content-shared.js';

const FROM = 'wishlist_item i JOIN wishlist w ON w.wishlist_id = i.wishlist_id';

function since(ctx: ImportContext) {
  return sinceWhere(ctx, 'wishlist', 'updated_at', 'w');
}

/** Buy request keys the cart takes, each with the shape it takes. */
const idMap = (v: unknown, num: boolean): Record<string, unknown> | undefined => {
  if (!v || typeof v !== 'object') return undefined;
  const out: Record<string, unknown> = {};
  for (const [k, x] of Object.entries(v as Record<string, unknown>)) {
    if (!/^\d+$/.test(k) || x === '' || x === null || x === undefined) continue;
    if (num) {
      const n = Number(x);
      if (Number.isFinite(n)) out[k] = n;
    } else if (Array.isArray(x)) out[k] = x.map((y) => (typeof y === 'number' ? y : String(y)));
    else if (typeof x === 'object')
      out[k] = Object.values(x as Record<string, unknown>).map((y) => (typeof y === 'number' ? y : String(y)));
    else out[k] = typeof x === 'number' ? x : String(x);
  }
  return Object.keys(out).length ? out : undefined;
};

/** The cart's add-item fields of a Magento buy request (PHP-serialized, or JSON in Maho). */
export function buyRequestOf(raw: unknown): Record<string, unknown> {
  const s = raw === null || raw === undefined ? '' : String(raw).trim();
  if (!s) return {};
  let v: unknown;
  try {
    v = s.startsWith('{') ? JSON.parse(s) : phpUnserialize(s);
  } catch {
    return {};
  }
  if (!v || typeof v !== 'object' || Array.isArray(v)) return {};
  const r = v as Record<string, unknown>;
  const out: Record<string, unknown> = {};
  const superAttribute = idMap(r.super_attribute, true);
  if (superAttribute) out.super_attribute = superAttribute;
  const options = idMap(r.options, false);
  if (options) out.options = options;
  const bundleOption = idMap(r.bundle_option, false);
  if (bundleOption) {
    out.bundle_option = Object.fromEntries(
      Object.entries(bundleOption).map(([k, x]) => [k, Array.isArray(x) ? x.map(Number).filter((n) => n > 0) : Number(x)]),
    );
  }
  const bundleQty = idMap(r.bundle_option_qty, true);
  if (bundleQty) out.bundle_option_qty = bundleQty;
  const superGroup = idMap(r.super_group, true);
  if (superGroup) out.super_group = superGroup;
  const links = Array.isArray(r.links)
    ? r.links.map(Number).filter((n) => Number.isInteger(n) && n > 0)
    : r.links && typeof r.links === 'object'
      ? Object.values(r.links)
          .map(Number)
          .filter((n) => Number.isInteger(n) && n > 0)
      : [];
  if (links.length) out.links = links;
  return out;
}

export const wishlistItemsImporter: EntityImporter = whenTable('wishlist_item', {
  name: 'wishlist items',
  group: 'wishlists',
  count: (ctx) => (ctx.source.hasTable('wishlist') ? ctx.source.count(FROM, since(ctx).where, since(ctx).params) : Promise.resolve(0)),
  async run(ctx, stats, tick) {
    if (!ctx.source.hasTable('wishlist')) return;
    await assertImportable(ctx.db, 'wishlist_items', 'wishlist items');
    const stores = await targetStores(ctx.db);
    const options = ctx.source.hasTable('wishlist_item_option');
    const s = since(ctx);
    for await (const batch of ctx.source.batches({
      from: FROM,
      key: 'i.wishlist_item_id',
      columns: 'i.*, w.customer_id',
      where: s.where,
      params: s.params,
    })) {
      stats.found += batch.length;
      const ids = batch.map((r) => Number(r.wishlist_item_id));
      const products = await existingIds(
        ctx.db,
        'products',
        batch.map((r) => Number(r.product_id)),
      );
      const customerIds = [...new Set(batch.map((r) => Number(r.customer_id)))];
      const customers = new Map(
        (
          await rows<{ id: number; storeId: number | null }>(
            ctx.db,
            sql`SELECT id, store_id AS "storeId" FROM customers WHERE id = ANY(${intArray(customerIds)}::int[])`,
          )
        ).map((c) => [Number(c.id), c.storeId]),
      );
      const requests = new Map<number, Record<string, unknown>>();
      if (options) {
        for (const o of await ctx.source.query(
          `SELECT wishlist_item_id, value FROM wishlist_item_option WHERE code = 'info_buyRequest' AND wishlist_item_id IN (${inList(ids)})`,
          ids,
        )) {
          requests.set(Number(o.wishlist_item_id), buyRequestOf(o.value));
        }
      }
      // (customer, product) pairs another item of ours holds
      const pairs = JSON.stringify(batch.map((r) => ({ c: Number(r.customer_id), p: Number(r.product_id) })));
      const held = new Set(
        (
          await rows<{ k: string }>(
            ctx.db,
            sql`SELECT w.customer_id || '/' || w.product_id AS k FROM wishlist_items w
                 JOIN jsonb_to_recordset(${pairs}::jsonb) AS x(c int, p int) ON w.customer_id = x.c AND w.product_id = x.p
                WHERE w.id <> ALL(${intArray(ids)}::int[])`,
          )
        ).map((r) => r.k),
      );
      const values: (typeof wishlistItems.$inferInsert)[] = [];
      for (const r of batch) {
        const id = Number(r.wishlist_item_id);
        const customerId = Number(r.customer_id);
        const productId = Number(r.product_id);
        const storeId = stores.has(Number(r.store_id)) ? Number(r.store_id) : customers.get(customerId);
        const key = `${customerId}/${productId}`;
        if (!customers.has(customerId)) ctx.report.skip(stats, id, 'its customer was not imported');
        else if (!products.has(productId)) ctx.report.skip(stats, id, 'its product was not imported');
        else if (!storeId) ctx.report.skip(stats, id, 'store view not imported');
        else if (held.has(key)) ctx.report.skip(stats, id, 'same product twice in a wishlist (a list holds a product once here)');
        else {
          held.add(key);
          const qty = Number(r.qty);
          values.push({
            id,
            customerId,
            productId,
            storeId,
            qty: Math.min(MAX_WISHLIST_QTY, Math.max(1, Number.isFinite(qty) ? Math.round(qty) : 1)),
            description: text(r.description),
            buyRequest: requests.get(id) ?? {},
            addedAt: date(r.added_at) ?? EPOCH,
          });
        }
      }
      count(stats, await upsert(ctx.db, wishlistItems, values, [wishlistItems.id]));
      await recordIds(
        ctx.db,
        'wishlist items',
        values.map((v) => [v.id, v.id!]),
      );
      tick(stats.found);
    }
    ctx.sequences.add('wishlist_items');
  },
  verify: (ctx) =>
    ctx.source.hasTable('wishlist') ? checkCount(ctx, 'wishlist items', 'wishlist_items', 'wishlist_item', FROM) : Promise.resolve(),
});
