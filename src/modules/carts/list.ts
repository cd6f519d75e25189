/**
 * Lists of carts: a customer's own, or any for the back office (limited to its store views), most recently
 * changed first, each priced as it would be shown now.
 */
import { sql, type SQL } from 'drizzle-orm';
import type { Ctx } from '../../platform/context.js';
import { rows as dbRows } from '../../platform/db.js';
import type { Page } from '../../platform/pagination.js';
import { CART_COLUMNS, itemFromJson, ITEMS_JSON, type LoadedRow } from './load.js';
import { cartDto } from './dto.js';
import { priceCarts } from './price-many.js';
import type { CartDto } from './schemas.js';

export interface CartListQuery {
  customerId?: number;
  storeId?: number;
  isActive?: boolean;
}

/**
 * Carts, most recently changed first: a customer's own, or any for the back office (limited to its store views),
 * each priced as it would be shown now (without recording what it showed: a list is not the shopper's view). The
 * page and its lines are read in one statement, and the carts are priced together (price-many.ts).
 */
export async function listCarts(ctx: Ctx, query: CartListQuery, page: Page): Promise<{ items: CartDto[]; total: number }> {
  const a = ctx.actor;
  const where = [sql`TRUE`];
  if (a.kind === 'customer') where.push(sql`customer_id = ${a.customerId}`);
  else if (a.kind !== 'admin') return { items: [], total: 0 };
  else {
    if (query.customerId !== undefined) where.push(sql`customer_id = ${query.customerId}`);
    if (a.allowedStoreIds) where.push(sql`store_id = ANY(${`{${a.allowedStoreIds.join(',')}}`}::int[])`);
  }
  if (query.storeId !== undefined) where.push(sql`store_id = ${query.storeId}`);
  if (query.isActive !== undefined) where.push(sql`is_active = ${query.isActive}`);
  const filter = sql.join(where, sql` AND `);
  const rows = await dbRows<LoadedRow & { total: string }>(
    ctx.db,
    sql`SELECT ${CART_COLUMNS}, ${ITEMS_JSON}, count(*) OVER ()::text AS total FROM carts WHERE ${filter}
      ORDER BY updated_at DESC, id DESC LIMIT ${page.size} OFFSET ${page.offset}`,
  );
  const total = rows.length ? Number(rows[0].total) : page.offset > 0 ? await countCarts(ctx, filter) : 0;
  const list = rows.map(({ items: lines, catalogVersion: _v, total: _t, ...cart }) => ({ cart, rows: lines.map(itemFromJson) }));
  const priced = await priceCarts(ctx, list, BigInt(rows[0]?.catalogVersion ?? '0'));
  return { items: priced.map((p) => cartDto(p.ctx, p.priced)), total };
}

async function countCarts(ctx: Ctx, filter: SQL): Promise<number> {
  const [row] = await dbRows<{ n: string }>(ctx.db, sql`SELECT count(*)::text AS n FROM carts WHERE ${filter}`);
  return Number(row?.n ?? 0);
}
