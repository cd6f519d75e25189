/**
 * What CMS pages and blocks share: who counts as a back-office reader, the store list of a write, identifier
 * rules, list filters and the one lock that serializes identifier checks.
 */
import { sql, type SQL } from 'drizzle-orm';
import type { AnyPgColumn } from 'drizzle-orm/pg-core';
import { unauthenticated, hasPermission } from '../../platform/auth/access.js';
import { adminStoreScope, assertScopeWritable, scopeReadable, scopeWritable, type Ctx } from '../../platform/context.js';
import { badRequest, forbidden, type AppError } from '../../platform/errors.js';
import { isValidDate, likeEscape } from '../../platform/format.js';
import type { CmsListQueryT } from './schemas.js';
import { LOCKS } from '../../platform/locks.js';

export type CmsResource = 'cms-pages' | 'cms-blocks';

/** Store id 0: every store view. */
export const ALL_STORES = 0;
export const MAX_IDENTIFIER = 100;
const IDENTIFIER = /^[a-z0-9_.\-]+(\/[a-z0-9_.\-]+)*$/;

/** An admin or API principal that may read the resource: sees inactive content and back-office fields. */
export function isBackOffice(ctx: Ctx, resource: CmsResource): boolean {
  return ctx.actor.kind === 'admin' && hasPermission(ctx.actor.permissions, resource, 'read');
}

/** `scope=all` needs a back-office reader: 401 anonymous, 403 anyone else. */
export function checkScopeAll(ctx: Ctx, resource: CmsResource, scope: string | undefined): boolean {
  if (scope === undefined || scope === '') return false;
  if (scope !== 'all') throw badRequest('scope must be "all"', { reason: 'INVALID_SCOPE', details: { field: 'scope' } });
  if (ctx.actor.kind === 'anonymous') throw unauthenticated();
  if (!isBackOffice(ctx, resource)) throw forbidden(`Access denied: scope=all requires ${resource}/read`, { reason: 'PERMISSION_DENIED' });
  return true;
}

/** A checked identifier (as given: URL-key characters are lower case already). */
export function checkIdentifier(raw: string): string {
  const id = raw.trim();
  if (!id) throw badRequest('identifier must not be empty', { reason: 'INVALID_IDENTIFIER', details: { field: 'identifier' } });
  if (id.length > MAX_IDENTIFIER) {
    throw badRequest(`identifier must be at most ${MAX_IDENTIFIER} characters`, {
      reason: 'INVALID_IDENTIFIER',
      details: { field: 'identifier', maxLength: MAX_IDENTIFIER },
    });
  }
  if (!IDENTIFIER.test(id)) {
    throw badRequest(
      "identifier may contain only lowercase letters, digits, '-', '_', '.' and '/' (not at either end, not twice in a row)",
      {
        reason: 'INVALID_IDENTIFIER',
        details: { field: 'identifier' },
      },
    );
  }
  return id;
}

export function checkTitle(raw: string): string {
  const t = raw.trim();
  if (!t) throw badRequest('title must not be empty', { reason: 'INVALID_TITLE', details: { field: 'title' } });
  return t;
}

/** Store ids from ids, codes or "all"; [0] when every store view is meant. Unknown stores are a 400. */
export function parseStores(ctx: Ctx, input: readonly (number | string)[] | undefined): number[] {
  if (input === undefined) return [ALL_STORES];
  if (!input.length) throw badRequest('stores must not be empty', { reason: 'INVALID_STORES', details: { field: 'stores' } });
  const out = new Set<number>();
  for (const v of input) {
    if (typeof v === 'number' || /^\d+$/.test(v.trim())) {
      const id = typeof v === 'number' ? v : Number(v.trim());
      if (id === ALL_STORES) return [ALL_STORES];
      if (!ctx.app.settings.store(id))
        throw badRequest(`Unknown store: ${id}`, { reason: 'UNKNOWN_STORE', details: { field: 'stores', store: id } });
      out.add(id);
      continue;
    }
    const code = v.trim();
    if (code.toLowerCase() === 'all') return [ALL_STORES];
    const store = ctx.app.settings.storeByCode(code);
    if (!store) throw badRequest(`Unknown store: ${code}`, { reason: 'UNKNOWN_STORE', details: { field: 'stores', store: code } });
    out.add(store.id);
  }
  return [...out].sort((a, b) => a - b);
}

/** The store list of a write: a principal limited to some store views names only its own, never every store view (403). */
export function writableStores(ctx: Ctx, input: readonly (number | string)[] | undefined): number[] {
  const stores = parseStores(ctx, input);
  assertScopeWritable(ctx, stores, 'stores');
  return stores;
}

/**
 * For a principal limited to some store views: `<id column> IN (rows linked to one of them or to every store
 * view)`, what it may read; undefined for every other caller.
 */
export function inAdminScope(
  idCol: AnyPgColumn,
  linkCol: AnyPgColumn,
  linkStoreCol: AnyPgColumn,
  linkTable: string,
  ctx: Ctx,
): SQL | undefined {
  const scope = adminStoreScope(ctx);
  if (!scope) return undefined;
  const ids = [ALL_STORES, ...scope].map((s) => sql`${s}`);
  return sql`${idCol} IN (SELECT ${linkCol} FROM ${sql.identifier(linkTable)} WHERE ${linkStoreCol} IN (${sql.join(ids, sql`, `)}))`;
}

/**
 * Before a change of a row in these store views: another store's row is not found (404); one shared with store
 * views outside a limited principal's own, or with every store view, it may read but not change (403).
 */
export function assertRowWritable(ctx: Ctx, stores: readonly number[], missing: () => AppError): void {
  if (!scopeReadable(ctx, stores)) throw missing();
  if (!scopeWritable(ctx, stores)) {
    throw forbidden('This token may change only content of its own store views, not content shared with others', {
      reason: 'STORE_NOT_ALLOWED',
    });
  }
}

/** Serializes identifier checks and writes of one kind (held to the end of the transaction). */
export async function lockIdentifiers(tx: Ctx, resource: CmsResource): Promise<void> {
  await tx.db.execute(sql`SELECT pg_advisory_xact_lock(${resource === 'cms-pages' ? LOCKS.cmsPageIdentifier : LOCKS.cmsBlockIdentifier})`);
}

/** `<id column> IN (rows linked to the store view or to every store view)`. */
export function inStoreView(idCol: AnyPgColumn, linkCol: AnyPgColumn, linkStoreCol: AnyPgColumn, linkTable: string, storeId: number): SQL {
  return sql`${idCol} IN (SELECT ${linkCol} FROM ${sql.identifier(linkTable)} WHERE ${linkStoreCol} IN (${ALL_STORES}, ${storeId}))`;
}

/**
 * Ids (other than `exceptId`) holding `identifier` in a store view that `stores` also covers: the same
 * store view, or either side covering every store view.
 */
export function clashCondition(
  idCol: AnyPgColumn,
  identCol: AnyPgColumn,
  linkCol: AnyPgColumn,
  linkStoreCol: AnyPgColumn,
  linkTable: string,
  identifier: string,
  stores: number[],
  exceptId: number | undefined,
): SQL {
  const storeCond = stores.includes(ALL_STORES)
    ? sql`TRUE`
    : sql`${linkStoreCol} IN (${sql.join(
        [ALL_STORES, ...stores].map((s) => sql`${s}`),
        sql`, `,
      )})`;
  return sql`lower(${identCol}) = ${identifier.toLowerCase()}
    AND ${idCol} IN (SELECT ${linkCol} FROM ${sql.identifier(linkTable)} WHERE ${storeCond})
    ${exceptId === undefined ? sql`` : sql`AND ${idCol} <> ${exceptId}`}`;
}

/** A date filter value as a timestamp (YYYY-MM-DD or YYYY-MM-DD HH:MM:SS UTC; a date alone at end of day when asked); bad: 400. */
export function parseWhen(raw: string, field: string, endOfDay: boolean): SQL {
  return sql`${whenOf(raw, field, endOfDay).toISOString()}::timestamptz`;
}

function whenOf(raw: string, field: string, endOfDay: boolean): Date {
  const s = raw.trim();
  if (isValidDate(s)) return new Date(`${s}T${endOfDay ? '23:59:59.999' : '00:00:00'}Z`);
  const m = /^(\d{4}-\d{2}-\d{2})[ T](\d{2}:\d{2}:\d{2})(?:\.\d+)?Z?$/.exec(s);
  if (m && isValidDate(m[1])) {
    const d = new Date(`${m[1]}T${m[2]}Z`);
    if (!Number.isNaN(d.getTime())) return d;
  }
  throw badRequest(`${field} must be a date (YYYY-MM-DD or YYYY-MM-DD HH:MM:SS)`, { reason: 'INVALID_DATE', details: { field } });
}

/**
 * The ORDER BY of a back-office list: the column `sortBy` names (else `fallback`), in `sortDir`, then the id in the
 * same direction so that pages never overlap. Nulls last whichever the direction.
 */
export function listOrder<K extends string>(
  cols: Record<K, AnyPgColumn | SQL> & { id: AnyPgColumn },
  sortBy: K | undefined,
  sortDir: string | undefined,
  fallback: K,
): SQL[] {
  const dir = sortDir?.toLowerCase() === 'desc' ? sql`DESC` : sql`ASC`;
  const key = sortBy ?? fallback;
  const out = [sql`${cols[key]} ${dir} NULLS LAST`];
  if (key !== 'id') out.push(sql`${cols.id} ${dir}`);
  return out;
}

/**
 * `<id column> IN (rows linked to the store view or to every store view)`, or for store 0 the rows linked to every
 * store view: the `storeId` filter of the back-office lists.
 */
export function assignedTo(idCol: AnyPgColumn, linkCol: AnyPgColumn, linkStoreCol: AnyPgColumn, linkTable: string, storeId: number): SQL {
  if (storeId !== ALL_STORES) return inStoreView(idCol, linkCol, linkStoreCol, linkTable, storeId);
  return sql`${idCol} IN (SELECT ${linkCol} FROM ${sql.identifier(linkTable)} WHERE ${linkStoreCol} = ${ALL_STORES})`;
}

/** The filters every CMS list takes; `searchCols` are matched by `search` / `q`. */
export function listFilters(
  q: CmsListQueryT,
  cols: { identifier: AnyPgColumn; createdAt: AnyPgColumn; updatedAt: AnyPgColumn; isActive: AnyPgColumn; search: AnyPgColumn[] },
): SQL[] {
  const conds: SQL[] = [];
  if (q.isActive !== undefined) conds.push(sql`${cols.isActive} = ${q.isActive}`);
  if (q.identifier !== undefined) conds.push(sql`lower(${cols.identifier}) = ${q.identifier.trim().toLowerCase()}`);
  const term = q.search ?? q.q;
  if (term !== undefined) {
    const s = term.trim();
    if (s.length < 3)
      throw badRequest('search must be at least 3 characters', { reason: 'SEARCH_TOO_SHORT', details: { field: 'search', minLength: 3 } });
    const like = `%${likeEscape(s)}%`;
    conds.push(
      sql`(${sql.join(
        cols.search.map((c) => sql`${c} ILIKE ${like}`),
        sql` OR `,
      )})`,
    );
  }
  if (q.createdFrom !== undefined) conds.push(sql`${cols.createdAt} >= ${parseWhen(q.createdFrom, 'createdFrom', false)}`);
  if (q.createdTo !== undefined) conds.push(sql`${cols.createdAt} <= ${parseWhen(q.createdTo, 'createdTo', true)}`);
  if (q.updatedSince !== undefined) conds.push(sql`${cols.updatedAt} >= ${parseWhen(q.updatedSince, 'updatedSince', false)}`);
  return conds;
}

/** Store ids per owner id, from rows of a link table. */
export function storesById(rows: { ownerId: number; storeId: number }[]): Map<number, number[]> {
  const out = new Map<number, number[]>();
  for (const r of rows) {
    const list = out.get(r.ownerId) ?? [];
    list.push(r.storeId);
    out.set(r.ownerId, list);
  }
  for (const list of out.values()) list.sort((a, b) => a - b);
  return out;
}
