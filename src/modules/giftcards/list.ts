/**
 * GET /giftcards, the back office's gift card grid: the cards of the caller's websites, searched by code or
 * recipient, filtered by the status shown (an expired or spent card reads as such whatever its stored status)
 * and sorted by a column, with the histories of the page read together.
 */
import { and, asc, desc, ilike, or, sql, type SQL } from 'drizzle-orm';
import { adminWebsiteScope, type Ctx } from '../../platform/context.js';
import { likeEscape } from '../../platform/format.js';
import { historiesOf, toDto } from './cards.js';
import type { GiftcardDto, GiftcardListQueryT } from './schemas.js';
import { giftcards } from './tables.js';

const g = giftcards;

const SORTS: Record<NonNullable<GiftcardListQueryT['sortBy']>, SQL | undefined> = {
  id: undefined,
  code: sql`upper(${g.code})`,
  balance: sql`${g.balance}`,
  initialBalance: sql`${g.initialBalance}`,
  createdAt: sql`${g.createdAt}`,
  updatedAt: sql`${g.updatedAt}`,
  expiresAt: sql`${g.expiresAt}`,
};

/** The condition of a status as the cards show it (see effectiveStatus) at `now`. */
function statusCondition(status: NonNullable<GiftcardListQueryT['status']>, now: Date): SQL {
  const at = now.toISOString();
  const left = sql`${g.status} NOT IN ('disabled', 'used') AND ${g.balance} > 0`;
  const expired = sql`(${g.status} = 'expired' OR (${g.expiresAt} IS NOT NULL AND ${g.expiresAt} <= ${at}::timestamptz))`;
  switch (status) {
    case 'disabled':
      return sql`${g.status} = 'disabled'`;
    case 'used':
      return sql`(${g.status} <> 'disabled' AND (${g.status} = 'used' OR ${g.balance} <= 0))`;
    case 'expired':
      return sql`(${left} AND ${expired})`;
    case 'active':
      return sql`(${left} AND NOT ${expired})`;
  }
}

/** A page of the cards the caller's websites hold, newest first unless sortBy (GraphQL `giftCards`). */
export async function listGiftcards(
  ctx: Ctx,
  q: GiftcardListQueryT,
  page: { size: number; offset: number },
): Promise<{ items: GiftcardDto[]; total: number }> {
  const conds: SQL[] = [];
  const scope = adminWebsiteScope(ctx);
  if (scope) conds.push(sql`${g.websiteIds} && ${sql.raw(`ARRAY[${scope.map((w) => Number(w)).join(',') || '-1'}]::int[]`)}`);
  if (q.search?.trim()) {
    const p = `%${likeEscape(q.search.trim())}%`;
    conds.push(or(ilike(g.code, p), ilike(g.recipientEmail, p), ilike(g.recipientName, p))!);
  }
  if (q.status) conds.push(statusCondition(q.status, ctx.now));
  if (q.websiteId !== undefined) conds.push(sql`${q.websiteId}::int = ANY(${g.websiteIds})`);
  const where = conds.length ? and(...conds) : undefined;
  const dir = q.sortDir === 'desc' || (q.sortDir === undefined && q.sortBy === undefined) ? desc : asc;
  const by = SORTS[q.sortBy ?? 'id'];
  const order = by ? [dir(by), dir(g.id)] : [dir(g.id)];
  const [rows, [{ n }]] = await Promise.all([
    ctx.db
      .select()
      .from(g)
      .where(where)
      .orderBy(...order)
      .limit(page.size)
      .offset(page.offset),
    ctx.db
      .select({ n: sql<number>`count(*)::int` })
      .from(g)
      .where(where),
  ]);
  const histories = await historiesOf(
    ctx,
    rows.map((r) => r.id),
  );
  return { items: rows.map((row) => toDto(row, histories.get(row.id)!, ctx.now)), total: Number(n) };
}
