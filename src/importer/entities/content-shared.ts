/**
 * What the content, promotion and customer-content importers share: target lookups per batch, link tables
 * rewritten to the source's rows, URL paths of pages and posts, rule conditions as Magento stores them
 * (PHP-serialized in Magento 1, JSON in Maho) and the count checks.
 */
import { sql } from 'drizzle-orm';
import { rows, type Db } from '../../platform/db.js';
import { normalizeRequestPath } from '../../modules/url-resolver/service.js';
import { imported, intArray, type EntityImporter, type ImportContext } from '../context.js';
import type { EntityStats } from '../report.js';

/** Stands in for a missing timestamp, so that a second run writes the same value. */
export const EPOCH = new Date(0);

/** Our store view ids. */
export async function targetStores(db: Db): Promise<Set<number>> {
  return new Set((await rows<{ id: number }>(db, sql`SELECT id FROM stores`)).map((r) => Number(r.id)));
}

export async function targetWebsites(db: Db): Promise<Set<number>> {
  return new Set((await rows<{ id: number }>(db, sql`SELECT id FROM websites`)).map((r) => Number(r.id)));
}

/** A count for the progress bar of a table that may be missing. */
export function countOf(ctx: ImportContext, table: string, where?: { where?: string; params: unknown[] }): Promise<number> {
  if (!ctx.source.hasTable(table)) return Promise.resolve(0);
  return ctx.source.count(table, where?.where, where?.params ?? []);
}

/** Counts a source row that was imported without some of its parts, as a skip with that reason. */
export function partly(ctx: ImportContext, stats: EntityStats, sourceId: unknown, reason: string): void {
  ctx.report.skip(stats, sourceId, reason);
  const key = `partly:${stats.entity}`;
  ctx.memo.set(key, ((ctx.memo.get(key) as number | undefined) ?? 0) + 1);
}

/** Source rows that were left out (not those imported without some parts). */
export function leftOut(ctx: ImportContext, entity: string): number {
  return ctx.report.entity(entity).skipped - ((ctx.memo.get(`partly:${entity}`) as number | undefined) ?? 0);
}

/**
 * The check "source rows less those left out = rows the import wrote" for an entity whose ids are kept. Not
 * made on a --since run, which reads only part of the source.
 */
export async function checkCount(
  ctx: ImportContext,
  entity: string,
  table: string,
  sourceTable: string,
  from = sourceTable,
): Promise<void> {
  if (ctx.since || !ctx.source.hasTable(sourceTable)) return;
  const [{ n }] = await rows<{ n: number }>(
    ctx.db,
    sql`SELECT count(*)::int AS n FROM ${sql.identifier(table)} t WHERE ${imported(entity, sql`t.id`)}`,
  );
  ctx.report.check(`${entity} (source rows less skipped)`, (await ctx.source.count(from)) - leftOut(ctx, entity), n);
}

/** An importer that does nothing when the source lacks its table (Maho-only modules, older versions). */
export function whenTable(table: string, importer: EntityImporter): EntityImporter {
  return {
    ...importer,
    count: (ctx) => (ctx.source.hasTable(table) ? importer.count(ctx) : Promise.resolve(0)),
    run: (ctx, stats, tick) => (ctx.source.hasTable(table) ? importer.run(ctx, stats, tick) : Promise.resolve()),
    verify: importer.verify && ((ctx) => (ctx.source.hasTable(table) ? importer.verify!(ctx) : Promise.resolve())),
  };
}

// ---- URL paths ----

type PathEntity = 'cms_page' | 'blog_post';

/**
 * Makes each entity's live URL paths those given (store view 0: every store view). A path that a redirect
 * holds is taken over; one that another entity holds is left to it and returned, by entity id.
 */
export async function writeUrlPaths(
  db: Db,
  entityType: PathEntity,
  entries: { id: number; paths: { storeId: number; requestPath: string }[] }[],
): Promise<Map<number, string[]>> {
  const taken = new Map<number, string[]>();
  if (!entries.length) return taken;
  const wanted = new Map<string, { id: number; storeId: number; path: string }>();
  for (const e of entries) {
    for (const p of e.paths) {
      const path = normalizeRequestPath(p.requestPath);
      if (!path) continue;
      const key = `${p.storeId}:${path}`;
      if (!wanted.has(key)) wanted.set(key, { id: e.id, storeId: p.storeId, path });
    }
  }
  const ids = entries.map((e) => e.id);
  const existing = await rows<{
    id: number;
    storeId: number;
    path: string;
    entityId: number;
    redirectType: number;
    targetPath: string | null;
  }>(
    db,
    sql`SELECT id, store_id AS "storeId", request_path AS path, entity_id AS "entityId", redirect_type AS "redirectType", target_path AS "targetPath"
          FROM url_rewrites WHERE entity_type = ${entityType} AND entity_id = ANY(${intArray(ids)}::int[])`,
  );
  const drop: number[] = [];
  const revive: number[] = [];
  const done = new Set<string>();
  for (const row of existing) {
    const key = `${row.storeId}:${row.path}`;
    const w = wanted.get(key);
    const live = Number(row.redirectType) === 0 && row.targetPath === null;
    if (w && w.id === Number(row.entityId) && !done.has(key)) {
      done.add(key);
      if (!live) revive.push(row.id);
    } else if (w || live) {
      drop.push(row.id);
    }
  }
  if (drop.length) await db.execute(sql`DELETE FROM url_rewrites WHERE id = ANY(${intArray(drop)}::int[])`);
  if (revive.length)
    await db.execute(sql`UPDATE url_rewrites SET redirect_type = 0, target_path = NULL WHERE id = ANY(${intArray(revive)}::int[])`);
  const missing = [...wanted.entries()].filter(([k]) => !done.has(k)).map(([, w]) => w);
  if (!missing.length) return taken;
  const pairs = JSON.stringify(missing.map((w) => ({ s: w.storeId, p: w.path })));
  const holders = await rows<{ id: number; storeId: number; path: string; entityType: string; redirectType: number }>(
    db,
    sql`SELECT u.id, u.store_id AS "storeId", u.request_path AS path, u.entity_type AS "entityType", u.redirect_type AS "redirectType"
          FROM url_rewrites u JOIN jsonb_to_recordset(${pairs}::jsonb) AS x(s int, p text) ON u.store_id = x.s AND u.request_path = x.p`,
  );
  const blocked = new Set<string>();
  const redirects: number[] = [];
  for (const h of holders) {
    if (h.entityType === 'redirect' || Number(h.redirectType) !== 0) redirects.push(h.id);
    else blocked.add(`${h.storeId}:${h.path}`);
  }
  if (redirects.length) await db.execute(sql`DELETE FROM url_rewrites WHERE id = ANY(${intArray(redirects)}::int[])`);
  const insert = missing.filter((w) => {
    if (!blocked.has(`${w.storeId}:${w.path}`)) return true;
    taken.set(w.id, [...(taken.get(w.id) ?? []), w.path]);
    return false;
  });
  for (let i = 0; i < insert.length; i += 1000) {
    const part = insert.slice(i, i + 1000);
    await db.execute(
      sql`INSERT INTO url_rewrites (store_id, request_path, entity_type, entity_id, redirect_type)
          SELECT x.s, x.p, ${entityType}, x.i, 0 FROM jsonb_to_recordset(${JSON.stringify(part.map((w) => ({ s: w.storeId, p: w.path, i: w.id })))}::jsonb) AS x(s int, p text, i int)`,
    );
  }
  return taken;
}

// ---- rule conditions ----

/** A condition as Magento's asArray() writes it: a combination (aggregator, conditions) or a leaf. */
export interface RuleCondition {
  type?: string;
  attribute?: string | null;
  operator?: string | null;
  value?: unknown;
  aggregator?: string;
  conditions?: RuleCondition[];
}

/** The conditions of a rule column: null when empty, undefined when unreadable. */
export function decodeConditions(raw: unknown): RuleCondition | null | undefined {
  const s = raw === null || raw === undefined ? '' : String(raw).trim();
  if (!s) return null;
  let value: unknown;
  try {
    if (s.startsWith('{') || s.startsWith('[')) value = JSON.parse(s);
    else if (/^[aO]:\d+:/.test(s)) value = phpUnserialize(s);
    else return undefined;
  } catch {
    return undefined;
  }
  if (Array.isArray(value) && value.length === 0) return null;
  if (!value || typeof value !== 'object' || Array.isArray(value)) return undefined;
  return value as RuleCondition;
}

/** The child conditions of a combination (PHP arrays may arrive as objects). */
export function childrenOf(c: RuleCondition | null | undefined): RuleCondition[] {
  const list = c?.conditions as unknown;
  if (Array.isArray(list)) return list.filter((x) => x && typeof x === 'object') as RuleCondition[];
  if (list && typeof list === 'object') return Object.values(list).filter((x) => x && typeof x === 'object') as RuleCondition[];
  return [];
}

/**
 * A PHP `serialize()` value: arrays with keys 0..n-1 become lists, other arrays and objects plain objects.
 * String lengths count bytes (UTF-8), so the text is read as bytes.
 */
export function phpUnserialize(input: string): unknown {
  const buf = Buffer.from(input, 'utf8');
  let pos = 0;
  const fail = (what: string): never => {
    throw new Error(`serialized value: ${what} at byte ${pos}`);
  };
  const until = (ch: string): string => {
    const end = buf.indexOf(ch, pos);
    if (end < 0) fail(`missing "${ch}"`);
    const s = buf.toString('utf8', pos, end);
    pos = end + 1;
    return s;
  };
  const expect = (s: string) => {
    if (buf.toString('utf8', pos, pos + s.length) !== s) fail(`expected "${s}"`);
    pos += s.length;
  };
  const entries = (): [unknown, unknown][] => {
    const n = Number(until(':'));
    if (!Number.isInteger(n) || n < 0) fail('bad length');
    expect('{');
    const out: [unknown, unknown][] = [];
    for (let i = 0; i < n; i++) out.push([value(), value()]);
    expect('}');
    return out;
  };
  const value = (): unknown => {
    const t = String.fromCharCode(buf[pos]);
    if (t === 'N') {
      expect('N;');
      return null;
    }
    if (pos + 1 >= buf.length || buf[pos + 1] !== 0x3a) fail('expected ":"');
    pos += 2;
    switch (t) {
      case 'b':
        return until(';') === '1';
      case 'i':
        return Number(until(';'));
      case 'd': {
        const s = until(';');
        const n = Number(s);
        return Number.isFinite(n) ? n : s;
      }
      case 's': {
        const len = Number(until(':'));
        expect('"');
        const s = buf.toString('utf8', pos, pos + len);
        pos += len;
        expect('";');
        return s;
      }
      case 'a': {
        const list = entries();
        if (list.every(([k], i) => k === i)) return list.map(([, v]) => v);
        return Object.fromEntries(list.map(([k, v]) => [String(k), v]));
      }
      case 'O': {
        const len = Number(until(':'));
        expect('"');
        pos += len;
        expect('":');
        return Object.fromEntries(entries().map(([k, v]) => [String(k).replace(/^\0[^\0]*\0/, ''), v]));
      }
      default:
        return fail(`unknown type "${t}"`);
    }
  };
  const out = value();
  if (pos !== buf.length) fail('trailing bytes');
  return out;
}
