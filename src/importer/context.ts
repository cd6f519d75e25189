/**
 * What every entity importer works with, and the writing side: upserts that tell new, changed and unchanged
 * rows apart, the id map, and the sequences to move past imported ids.
 *
 * Ids are kept: a customer, product, category, order … keeps its Magento entity id, so integrations that stored
 * ids (and URLs with ids in them) keep working. An entity whose target table already holds rows that no import
 * wrote is refused (import into a fresh database), except the reference rows every install starts with
 * (the default website and store, customer groups, tax classes), which the source's rows of the same id replace.
 */
import { getTableColumns, getTableName, inArray, and, eq, sql, type SQL } from 'drizzle-orm';
import type { PgColumn, PgTable } from 'drizzle-orm/pg-core';
import type { AppConfig } from '../platform/config.js';
import { copyIn, intArray, rows, type Db } from '../platform/db.js';
import { freshTable, notFresh } from './bulk-load.js';
import { arrayLiteral, CopyText, NEWLINE, TAB, type CopyKind } from './copy-text.js';
import { ImportRefused } from './refused.js';
import { Progress, Report, type EntityStats } from './report.js';
import type { Source, SourceRow } from './source.js';
import { importIdMap } from './tables.js';

export type Group =
  | 'stores'
  | 'config'
  | 'customers'
  | 'api'
  | 'staff'
  | 'catalog'
  | 'urls'
  | 'content'
  | 'promotions'
  | 'sales'
  | 'newsletter'
  | 'reviews'
  | 'tags'
  | 'wishlists'
  | 'giftcards'
  | 'blog'
  | 'revocation';

export const GROUPS: Group[] = [
  'stores',
  'config',
  'customers',
  'api',
  'staff',
  'catalog',
  'urls',
  'content',
  'promotions',
  'sales',
  'newsletter',
  'reviews',
  'tags',
  'wishlists',
  'giftcards',
  'blog',
  'revocation',
];

export interface ImportContext {
  source: Source;
  /** the target database (a transaction that is rolled back on a dry run) */
  db: Db;
  /** only source rows changed at or after this time, where the source keeps an updated_at */
  since?: Date;
  mediaDir?: string;
  /** where images are copied to */
  mediaTarget?: string;
  /** a dry run: files are checked, not copied */
  dryRun?: boolean;
  report: Report;
  progress: Progress;
  /** tables written with explicit ids: their sequences are moved past the highest id at the end */
  sequences: Set<string>;
  /** values found along the way that later entities need (attribute ids by code, …) */
  memo: Map<string, unknown>;
  /** the source shop's encryption key (Maho's app/etc/local.xml <crypt><key>, 32 bytes), to read what it encrypted */
  cryptKey?: Uint8Array;
  /** this server's configuration: what is encrypted again here is encrypted with its keys */
  config?: AppConfig;
}

export interface EntityImporter {
  /** as in the report and the id map: `customers`, `products`, … */
  name: string;
  group: Group;
  /** source rows this run will read (for the progress bar) */
  count(ctx: ImportContext): Promise<number>;
  run(ctx: ImportContext, stats: EntityStats, tick: (done: number) => void): Promise<void>;
  /**
   * the large tables it fills, loaded without their foreign keys and secondary indexes when they are empty
   * (bulk-load.ts): only tables it never looks up by anything but a primary key or a unique index while it runs
   */
  fills?: string[];
  /** checks comparing source and target after the import */
  verify?(ctx: ImportContext): Promise<void>;
  /** runs before any entity is written: throws ImportRefused when the import cannot go ahead (a wrong option) */
  check?(ctx: ImportContext): Promise<void>;
}

/** `AND updated_at >= ?` for --since, on a source table that has the column. */
export function sinceWhere(
  ctx: ImportContext,
  table: string,
  column = 'updated_at',
  alias?: string,
): { where?: string; params: unknown[] } {
  if (!ctx.since || !ctx.source.hasColumn(table, column)) return { params: [] };
  return { where: `${alias ? `${alias}.` : ''}${column} >= ?`, params: [ctx.since.toISOString().slice(0, 19).replace('T', ' ')] };
}

/**
 * Rows written per table through a database handle (the transaction of one entity), so that the tables an entity
 * filled can be analyzed before the next entity reads them: a bulk load leaves the planner's statistics of a
 * table at "empty", and lookups by id then go through plans made for a few rows.
 */
const written = new WeakMap<object, Map<string, number>>();

/** Counts rows written to a table through a handle (see analyzeWritten). */
export function noteWritten(db: Db, table: string, n: number): void {
  if (n <= 0) return;
  let m = written.get(db);
  if (!m) written.set(db, (m = new Map()));
  m.set(table, (m.get(table) ?? 0) + n);
}

/**
 * Updates the planner's statistics of the tables that took at least `min` rows through this handle since the last
 * call. The entities after read these tables by key, for which row counts and the keys' distinct values are what
 * counts: a sample of 3,000 rows (statistics target 10) gives them, in a tenth of the time the default 30,000 take
 * on wide rows (orders: 2 s). PostgreSQL's own analyze, later, samples as configured.
 */
export async function analyzeWritten(db: Db, min = 5000): Promise<void> {
  const m = written.get(db);
  if (!m) return;
  written.delete(db);
  const tables = [...m].filter(([, n]) => n >= min).map(([table]) => table);
  if (!tables.length) return;
  await db.execute(sql`SET LOCAL default_statistics_target = 10`);
  for (const table of tables) await db.execute(sql`ANALYZE ${sql.identifier(table)}`);
  await db.execute(sql`RESET default_statistics_target`);
}

/**
 * The writes of one batch kept in flight while the next batch is read from the source and built: the target works on
 * a batch while this process prepares the next. The target's connection takes one statement at a time, so every
 * statement of an entity goes through here, in turn: `add` (a batch's writes: it waits for the batch before and
 * throws its error) and `read` (a lookup of what earlier entities wrote, queued behind the write in flight, so that a
 * batch read ahead has it by the time it is built). Call `flush` in a `finally` as well: when a batch fails while the
 * next is being prepared, its error (the cause) is the one that surfaces.
 */
export class WriteBehind {
  private pending: Promise<void> = Promise.resolve();
  /** the last statement queued, write or read */
  private last: Promise<unknown> = Promise.resolve();

  async add(write: () => Promise<void>): Promise<void> {
    await this.pending;
    const next = this.last.then(write, write);
    // observed by the next add or flush
    next.catch(() => undefined);
    this.pending = next;
    this.last = next;
  }

  read<T>(lookup: () => Promise<T>): Promise<T> {
    const next = this.last.then(lookup, lookup);
    this.last = next.catch(() => undefined);
    return next;
  }

  async flush(): Promise<void> {
    await this.last;
    await this.pending;
  }
}

export interface UpsertResult {
  inserted: number;
  updated: number;
  unchanged: number;
}

function castOf(col: PgColumn): string {
  const type = col.getSQLType();
  return type === 'serial' ? 'integer' : type === 'bigserial' ? 'bigint' : type === 'smallserial' ? 'smallint' : type;
}

const quote = (n: string) => `"${n}"`;

/**
 * A first import's fast path: rows keyed by one whole-number column (the id, a product's stock row by product),
 * into a table its bulk load found empty, with keys above every key copied in before, cannot meet a row already
 * there, so they go in by COPY instead of an upsert (less than half the database's time per row) and all count as
 * inserted. Undefined when that does not hold or the driver has no COPY; the caller upserts them then.
 */
async function copyFresh(
  db: Db,
  table: string,
  columns: PgColumn[],
  keys: string[],
  values: Record<string, unknown>[],
  target: PgColumn[],
): Promise<number | undefined> {
  const fresh = freshTable(db, table);
  // the conflict target is unique (ON CONFLICT needs it so): one whole-number column, the same on every call
  // (and rows with more than their key: an upsert of keys alone skips a conflict on any unique index)
  if (!fresh || target.length !== 1 || keys.length < 2 || (fresh.key !== undefined && fresh.key !== target[0].name)) return undefined;
  const prop = keys[columns.indexOf(target[0])];
  if (prop === undefined) return undefined;
  // keys in any order (they are unique within a batch), all above the highest copied before
  let top = fresh.top;
  for (const v of values) {
    const key = v[prop];
    if (typeof key !== 'number' || !Number.isInteger(key) || key <= fresh.top) return undefined;
    if (key > top) top = key;
  }
  const kinds: CopyKind[] = columns.map((c) => {
    const type = c.getSQLType();
    return type === 'jsonb' || type === 'json' ? 'json' : type.endsWith('[]') ? 'array' : 'plain';
  });
  // claimed before the rows go, so that a batch written beside this one is checked against them
  const before = { key: fresh.key, top: fresh.top };
  let out: CopyText | undefined;
  Object.assign(fresh, { key: target[0].name, top });
  const n = await copyIn(
    db,
    table,
    columns.map((c) => c.name),
    () => {
      out = new CopyText();
      for (const v of values)
        for (let i = 0; i < keys.length; i++) {
          out.value(v[keys[i]], kinds[i]);
          out.byte(i === keys.length - 1 ? NEWLINE : TAB);
        }
      return out.done();
    },
  );
  if (n === undefined) Object.assign(fresh, before);
  // the server has read every row once it answered (a failed COPY keeps its buffer out of reuse)
  else out?.release();
  return n;
}

/**
 * Inserts rows, or updates the row with the same key when any column differs (so an unchanged row is not
 * written again), and tells the three apart. Every row must carry the same keys; keys must be unique within
 * the batch. The rows travel as one JSON parameter (a list of value lists), which costs little to build for
 * wide tables and stays clear of the 65,535 bind parameters of a statement.
 */
export async function upsert<T extends PgTable>(
  db: Db,
  table: T,
  values: T['$inferInsert'][],
  target: PgColumn[],
  /**
   * columns whose value on a conflict is an SQL expression of the stored row (`t`) and the new one (`excluded`)
   * rather than the new value
   */
  rules: Record<string, string> = {},
  size = 1000,
): Promise<UpsertResult> {
  const total: UpsertResult = { inserted: 0, updated: 0, unchanged: 0 };
  if (!values.length) return total;
  const cols = getTableColumns(table) as Record<string, PgColumn>;
  const keys = Object.keys(values[0] as object);
  const columns = keys.map((k) => cols[k]);
  const name = getTableName(table);
  const copied = await copyFresh(db, name, columns, keys, values as Record<string, unknown>[], target);
  if (copied !== undefined) {
    total.inserted = copied;
    noteWritten(db, name, copied);
    return total;
  }
  notFresh(db, name);
  const targetNames = new Set(target.map((c) => c.name));
  const select = columns.map((c, i) =>
    c.getSQLType() === 'jsonb' ? `(e->${i})::jsonb` : c.getSQLType() === 'json' ? `(e->${i})::json` : `(e->>${i})::${castOf(c)}`,
  );
  const arrays = columns.map((c) => c.getSQLType().endsWith('[]'));
  const set = keys.filter((k) => !targetNames.has(cols[k].name));
  const next = (k: string) => rules[k] ?? `excluded.${quote(cols[k].name)}`;
  const head = `INSERT INTO ${quote(name)} AS t (${columns.map((c) => quote(c.name)).join(', ')}) SELECT ${select.join(', ')} FROM jsonb_array_elements(`;
  const tail = set.length
    ? `::jsonb) AS e ON CONFLICT (${target.map((c) => quote(c.name)).join(', ')}) DO UPDATE SET ${set.map((k) => `${quote(cols[k].name)} = ${next(k)}`).join(', ')}
       WHERE (${set.map((k) => `t.${quote(cols[k].name)}`).join(', ')}) IS DISTINCT FROM (${set.map(next).join(', ')})
       RETURNING (xmax = 0) AS inserted`
    : `::jsonb) AS e ON CONFLICT DO NOTHING RETURNING true AS inserted`;
  for (let at = 0; at < values.length; at += size) {
    const json = JSON.stringify(
      values.slice(at, at + size).map((v) =>
        keys.map((k, i) => {
          const x = (v as Record<string, unknown>)[k];
          if (x instanceof Date) return x.toISOString();
          return arrays[i] && Array.isArray(x) ? arrayLiteral(x) : x;
        }),
      ),
    );
    const returned = await rows<{ inserted: boolean }>(db, sql`${sql.raw(head)}${json}${sql.raw(tail)}`);
    const inserted = returned.filter((r) => r.inserted).length;
    noteWritten(db, name, returned.length);
    total.inserted += inserted;
    total.updated += returned.length - inserted;
    total.unchanged += Math.min(size, values.length - at) - returned.length;
  }
  return total;
}

/**
 * Makes the rows of a table that belong to some owners (products, say) those given: rows of these owners whose
 * key is not among the values are deleted, the rest upserted on the key (which the table must constrain).
 */
export async function sync<T extends PgTable>(
  db: Db,
  table: T,
  owner: PgColumn,
  ownerIds: number[],
  values: T['$inferInsert'][],
  key: PgColumn[],
): Promise<UpsertResult & { deleted: number }> {
  if (!ownerIds.length) return { inserted: 0, updated: 0, unchanged: 0, deleted: 0 };
  const cols = getTableColumns(table) as Record<string, PgColumn>;
  const prop = (c: PgColumn) => Object.keys(cols).find((k) => cols[k] === c)!;
  const keyOf = (row: Record<string, unknown>) => JSON.stringify(key.map((c) => String(row[prop(c)])));
  const incoming = new Set(values.map((v) => keyOf(v as Record<string, unknown>)));
  const existing = (await db
    .select(Object.fromEntries(key.map((c) => [prop(c), c])) as Record<string, PgColumn>)
    .from(table as never)
    // one array parameter rather than a parameter per owner
    .where(sql`${owner} = ANY(${intArray(ownerIds)}::int[])`)) as Record<string, unknown>[];
  const gone = existing.filter((e) => !incoming.has(keyOf(e)));
  for (let i = 0; i < gone.length; i += 500) {
    const part = gone.slice(i, i + 500);
    await db.delete(table as never).where(
      sql`(${sql.join(key, sql`, `)}) IN (${sql.join(
        part.map(
          (g) =>
            sql`(${sql.join(
              key.map((c) => sql`${g[prop(c)]}`),
              sql`, `,
            )})`,
        ),
        sql`, `,
      )})`,
    );
  }
  return { ...(await upsert(db, table, values, key)), deleted: gone.length };
}

export function count(stats: EntityStats, r: UpsertResult): void {
  stats.imported += r.inserted;
  stats.updated += r.updated;
  stats.unchanged += r.unchanged;
}

/** Writes a batch of rows that keep their source ids (upsert by id), counts it, and records the ids kept for `entity`. */
export async function upsertKept<T extends PgTable & { id: PgColumn }>(
  db: Db,
  stats: EntityStats,
  table: T,
  entity: string,
  values: T['$inferInsert'][],
  rules: Record<string, string> = {},
): Promise<void> {
  count(stats, await upsert(db, table, values, [table.id], rules));
  await recordKeptIds(
    db,
    entity,
    values.map((v) => (v as { id: number }).id),
  );
}

/**
 * Records the ids of an entity whose ids are kept (source id = our id): added to the entity's ranges in
 * import_kept_ids, one small row however many ids (the id map would take a row and two index entries per id).
 */
export async function recordKeptIds(db: Db, entity: string, ids: number[]): Promise<void> {
  if (!ids.length) return;
  await db.execute(
    sql`INSERT INTO import_kept_ids AS k (entity, ids)
        SELECT ${entity}, range_agg(int8range(x, x, '[]')) FROM unnest(${intArray(ids)}::bigint[]) AS x
        ON CONFLICT (entity) DO UPDATE SET ids = k.ids + excluded.ids, imported_at = now() WHERE NOT k.ids @> excluded.ids`,
  );
}

/**
 * Whether the row of `entity` with our id `id` was written by an import: its id among the entity's kept ids, or
 * in the id map (entities whose ids change, and kept ids as earlier versions recorded them). Never null.
 */
export function imported(entity: string, id: SQL): SQL {
  return sql`(COALESCE(${id}::bigint <@ (SELECT k.ids FROM import_kept_ids k WHERE k.entity = ${entity}), false)
    OR EXISTS (SELECT 1 FROM import_id_map m WHERE m.entity = ${entity} AND m.target_id = ${id}))`;
}

/** Records source id → our id for an entity (two array parameters, however many pairs). */
export async function recordIds(db: Db, entity: string, pairs: [unknown, number][]): Promise<void> {
  if (!pairs.length) return;
  await db.execute(
    sql`INSERT INTO import_id_map (entity, source_id, target_id)
        SELECT ${entity}, x.s, x.t FROM unnest(${arrayLiteral(pairs.map(([s]) => String(s)))}::text[], ${`{${pairs.map(([, t]) => t).join(',')}}`}::int[]) AS x(s, t)
        ON CONFLICT (entity, source_id) DO UPDATE SET target_id = excluded.target_id WHERE import_id_map.target_id <> excluded.target_id`,
  );
  noteWritten(db, 'import_id_map', pairs.length);
}

/** Our ids of source ids of an entity recorded by earlier runs. */
export async function mappedIds(db: Db, entity: string, sourceIds: unknown[]): Promise<Map<string, number>> {
  if (!sourceIds.length) return new Map();
  const found = await db
    .select({ s: importIdMap.sourceId, t: importIdMap.targetId })
    .from(importIdMap)
    .where(and(eq(importIdMap.entity, entity), inArray(importIdMap.sourceId, sourceIds.map(String))));
  return new Map(found.map((r) => [r.s, r.t]));
}

/**
 * Refuses to import an entity whose ids are kept into a table that holds rows no import wrote: they would be
 * overwritten or collide. `keep` names ids that may be there (reference rows of a fresh install).
 */
export async function assertImportable(db: Db, table: string, entity: string, keep: number[] = []): Promise<void> {
  const [row] = await rows<{ n: number }>(
    db,
    sql`SELECT count(*)::int AS n FROM ${sql.identifier(table)} t
         WHERE NOT ${imported(entity, sql`t.id`)}
           ${keep.length ? sql`AND t.id <> ALL(${`{${keep.join(',')}}`}::int[])` : sql``}`,
  );
  if (row.n > 0) {
    throw new ImportRefused(
      `The target database already holds ${row.n} ${entity} that no import wrote: import into a fresh database (started in production mode, without demo data)`,
    );
  }
}

/** Moves each sequence a table's ids come from past the highest id, after ids were written explicitly. */
export async function fixSequences(db: Db, tables: Iterable<string>): Promise<void> {
  for (const t of tables) {
    await db.execute(sql`SELECT setval(pg_get_serial_sequence(${t}, 'id'), GREATEST((SELECT max(id) FROM ${sql.identifier(t)}), 1))`);
  }
}

/** Source rows grouped by a column. */
export function groupBy(list: SourceRow[], key: string): Map<number, SourceRow[]> {
  const out = new Map<number, SourceRow[]>();
  for (const r of list) {
    const k = Number(r[key]);
    let g = out.get(k);
    if (!g) out.set(k, (g = []));
    g.push(r);
  }
  return out;
}

/** Which of these ids a target table holds. */
export async function existingIds(db: Db, table: string, ids: Iterable<number>): Promise<Set<number>> {
  const list = [...new Set(ids)].filter((n) => Number.isInteger(n) && n > 0 && n <= 2147483647);
  if (!list.length) return new Set();
  const found = await rows<{ id: number }>(db, sql`SELECT id FROM ${sql.identifier(table)} WHERE id = ANY(${intArray(list)}::int[])`);
  return new Set(found.map((r) => Number(r.id)));
}

/** Our ids by source id of an entity, as the id map holds them. */
export async function idMap(db: Db, entity: string): Promise<Map<number, number>> {
  const found = await rows<{ s: string; t: number }>(
    db,
    sql`SELECT source_id AS s, target_id AS t FROM import_id_map WHERE entity = ${entity}`,
  );
  return new Map(found.map((r) => [Number(r.s), r.t]));
}

/** `IN (?, ?, …)` for a list of ids. */
export function inList(ids: unknown[]): string {
  return ids.length ? ids.map(() => '?').join(', ') : 'NULL';
}

export type { SQL };
export { intArray };
