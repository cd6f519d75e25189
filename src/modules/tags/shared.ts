/**
 * What the tag reads and writes share: who is staff here, the store views a caller may see, the tag rows with
 * their figures, and the summaries every write rewrites.
 *
 * A tag itself (its name and status) is shared by every store view it is used in. A token limited to some store
 * views sees a tag used in one of them (or first used there, or used nowhere yet), sees and changes only the uses
 * in its own store views, and renames, moderates or deletes only a tag used in none but its own.
 */
import { sql, type SQL } from 'drizzle-orm';
import { hasPermission } from '../../platform/auth/access.js';
import { adminStoreScope, type Ctx } from '../../platform/context.js';
import { rows, type Db } from '../../platform/db.js';
import { badRequest, forbidden, notFound } from '../../platform/errors.js';
import { compact } from '../../platform/format.js';
import type { Page } from '../../platform/pagination.js';
import type { ProductRow } from '../catalog/products/shared.js';
import type { TagDto, TagStatus } from './schemas.js';

/** An admin principal holding tags/read: answered every tag, with the staff fields. */
export function isTagStaff(ctx: Ctx): boolean {
  return ctx.actor.kind === 'admin' && hasPermission(ctx.actor.permissions, 'tags', 'read');
}

/** `{1,2}` for `= ANY(...::int[])`. */
export const intList = (ids: Iterable<number>): string => `{${[...ids].map(Number).join(',')}}`;

export const tagMissing = () => notFound('Tag not found', { reason: 'TAG_NOT_FOUND' });

/**
 * The store view a staff caller's figures are of: the one asked for; else every store view (0), or, for a token
 * limited to some store views, the request's (always one of its own). A limited token may not ask for another.
 */
export function figuresStore(ctx: Ctx, asked: number | undefined): number {
  if (asked && !ctx.app.settings.store(asked)) {
    throw badRequest(`Unknown store: ${asked}`, { reason: 'UNKNOWN_STORE', details: { field: 'storeId', constraint: 'exists' } });
  }
  const scope = adminStoreScope(ctx);
  if (!scope) return asked ?? 0;
  const storeId = asked ?? ctx.store.storeId;
  if (!scope.includes(storeId)) throw forbidden(`Access denied to store ${storeId}`, { reason: 'STORE_NOT_ALLOWED' });
  return storeId;
}

/** A tag row: the tag, its figures in one store view, and where it is used. */
export interface TagRow {
  id: number;
  name: string;
  status: TagStatus;
  firstCustomerId: number | null;
  firstStoreId: number | null;
  popularity: number;
  productCount: number;
  customerCount: number;
  basePopularity: number | null;
  /** store views with active uses */
  stores: number[];
  /** store views with any use, active or removed, and the one it was first used in: what scopes it */
  usedIn: number[];
  total?: number;
}

/** The columns of a TagRow for `FROM tags t LEFT JOIN tag_summaries s` of the store view `storeId`. */
export function tagColumns(storeId: number): SQL {
  return sql`t.id, t.name, t.status, t.first_customer_id AS "firstCustomerId", t.first_store_id AS "firstStoreId",
    coalesce(s.popularity, 0) AS popularity, coalesce(s.products, 0) AS "productCount", coalesce(s.customers, 0) AS "customerCount",
    (SELECT p.base_popularity FROM tag_properties p WHERE p.tag_id = t.id AND p.store_id = ${storeId}::int) AS "basePopularity",
    coalesce((SELECT array_agg(DISTINCT r.store_id ORDER BY r.store_id) FROM tag_relations r WHERE r.tag_id = t.id AND r.active), '{}') AS stores,
    coalesce((SELECT array_agg(DISTINCT u.store_id) FROM (SELECT r.store_id FROM tag_relations r WHERE r.tag_id = t.id
      UNION SELECT t.first_store_id WHERE t.first_store_id IS NOT NULL) u), '{}') AS "usedIn"`;
}

export function tagFrom(storeId: number): SQL {
  return sql`tags t LEFT JOIN tag_summaries s ON s.tag_id = t.id AND s.store_id = ${storeId}::int`;
}

/** The condition on `tags t` of the tags a limited token sees (true for everyone else). */
export function visibleSql(ctx: Ctx): SQL {
  const scope = adminStoreScope(ctx);
  if (!scope) return sql`true`;
  const list = intList(scope);
  return sql`(t.first_store_id = ANY(${list}::int[])
    OR EXISTS (SELECT 1 FROM tag_relations r WHERE r.tag_id = t.id AND r.store_id = ANY(${list}::int[]))
    OR (t.first_store_id IS NULL AND NOT EXISTS (SELECT 1 FROM tag_relations r WHERE r.tag_id = t.id)))`;
}

/** Whether the caller sees the tag (see visibleSql). */
export function tagVisible(ctx: Ctx, row: Pick<TagRow, 'usedIn'>): boolean {
  const scope = adminStoreScope(ctx);
  return !scope || row.usedIn.length === 0 || row.usedIn.some((s) => scope.includes(s));
}

/** Whether the caller may rename, moderate or delete the tag: used only in its own store views. */
export function tagWritable(ctx: Ctx, row: Pick<TagRow, 'usedIn'>): boolean {
  const scope = adminStoreScope(ctx);
  return !scope || (row.usedIn.length > 0 && row.usedIn.every((s) => scope.includes(s)));
}

/** The tag row with its figures in `storeId`; `lock` locks the tag for the open transaction. */
export async function findTag(db: Db, id: number, storeId: number, lock = false): Promise<TagRow | undefined> {
  const [row] = await rows<TagRow>(
    db,
    sql`SELECT ${tagColumns(storeId)} FROM ${tagFrom(storeId)} WHERE t.id = ${id} ${lock ? sql`FOR UPDATE OF t` : sql``}`,
  );
  return row;
}

/** The wire shape of a tag: what shoppers see, and with `staffStore` (the store view of the figures) what staff see. */
export function tagDto(row: TagRow, staffStore?: number): TagDto {
  const base = {
    id: row.id,
    name: row.name,
    status: row.status,
    popularity: Number(row.popularity),
    productCount: Number(row.productCount),
  };
  if (staffStore === undefined) return base;
  return compact({
    ...base,
    customerCount: Number(row.customerCount),
    basePopularity: staffStore === 0 ? undefined : Number(row.basePopularity ?? 0),
    storeId: staffStore,
    stores: (row.stores ?? []).map(Number),
    firstCustomerId: row.firstCustomerId,
    firstStoreId: row.firstStoreId,
  }) as TagDto;
}

/** A page of rows that carry `total` (count(*) OVER ()), counted apart only when the page lies past the end. */
export async function pageOfRows<T extends { total?: number }>(
  db: Db,
  query: (limit: SQL) => SQL,
  page: Page,
): Promise<{ list: T[]; total: number }> {
  const list = await rows<T>(db, query(sql`LIMIT ${page.size} OFFSET ${page.offset}`));
  if (list.length) return { list, total: Number(list[0].total) };
  if (page.offset === 0) return { list, total: 0 };
  const [c] = await rows<{ n: number }>(db, sql`SELECT count(*)::int AS n FROM (${query(sql``)}) q`);
  return { list, total: Number(c.n) };
}

/** Enabled in the request's store view, in its website and visible individually: what the storefront shows. */
export function shownToShoppers(ctx: Ctx, p: ProductRow): boolean {
  if (p.visibility === 'not_visible') return false;
  const own = p.storeValues?.[String(ctx.store.storeId)]?.isActive;
  return (typeof own === 'boolean' ? own : p.isActive) && p.websiteIds.includes(ctx.store.websiteId);
}

/**
 * Rewrites the summaries of the tags (every tag without ids): per store view the customers and products of the
 * active uses and the popularity (the customers' uses plus the base popularity there), and over every store view
 * (store 0) the same without a base popularity, as Magento's tag summary index. Callers hold the tags' locks.
 */
export async function rebuildSummaries(db: Db, tagIds?: readonly number[]): Promise<void> {
  if (tagIds && !tagIds.length) return;
  const only = (col: SQL) => (tagIds ? sql`AND ${col} = ANY(${intList(new Set(tagIds))}::int[])` : sql``);
  await db.execute(sql`DELETE FROM tag_summaries WHERE true ${only(sql`tag_id`)}`);
  await db.execute(sql`INSERT INTO tag_summaries (tag_id, store_id, customers, products, popularity)
    SELECT r.tag_id, r.store_id, count(DISTINCT r.customer_id), count(DISTINCT r.product_id),
           count(r.customer_id) + coalesce(max(p.base_popularity), 0)
      FROM tag_relations r LEFT JOIN tag_properties p ON p.tag_id = r.tag_id AND p.store_id = r.store_id
     WHERE r.active ${only(sql`r.tag_id`)} GROUP BY r.tag_id, r.store_id
    UNION ALL
    SELECT r.tag_id, 0, count(DISTINCT r.customer_id), count(DISTINCT r.product_id), count(r.customer_id)
      FROM tag_relations r WHERE r.active ${only(sql`r.tag_id`)} GROUP BY r.tag_id`);
}
