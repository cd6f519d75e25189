/**
 * A first import fills empty tables with up to millions of rows. Kept up to date row by row, a table's foreign keys
 * cost a lookup per row and each secondary index an insert per row; made again after the load, each is one pass
 * (a join, a sort). So a table an entity fills, when empty at its start, is loaded without them and they are made
 * again, exactly as they were, before the entity's transaction commits: the rows are checked against the same
 * foreign keys, at once, and a row that breaks one fails the entity as it did before. Primary keys and unique
 * indexes stay: the upserts and the lookups by key need them. While such a table has taken nothing but batches of
 * rows each keyed above the one before by one key, on PostgreSQL they go in by COPY rather than upserts (see
 * `upsert`). A table that already holds rows (an import run again, a shop in use) is loaded as it is.
 */
import { sql } from 'drizzle-orm';
import { rows, type Db } from '../platform/db.js';

interface Dropped {
  table: string;
  /** CREATE INDEX statements, as the catalog gives them */
  indexes: string[];
  /** name and definition of each foreign key */
  foreignKeys: { name: string; definition: string }[];
  /** the deferred constraint triggers of the table and of the tables its foreign keys reference */
  deferred: string[];
}

/**
 * Runs `change` (DDL on a table and the tables its foreign keys reference) with the events their deferred
 * constraint triggers have pending run first, as they would have at the commit: PostgreSQL alters no table with
 * trigger events pending. The triggers wait for the commit again afterwards.
 */
async function settled(db: Db, deferred: string[], change: () => Promise<void>): Promise<void> {
  const names = sql.join(
    deferred.map((n) => sql.identifier(n)),
    sql`, `,
  );
  if (deferred.length) await db.execute(sql`SET CONSTRAINTS ${names} IMMEDIATE`);
  await change();
  if (deferred.length) await db.execute(sql`SET CONSTRAINTS ${names} DEFERRED`);
}

/**
 * The tables of a bulk load in progress that were empty at its start, by the handle it runs on, each with the
 * key column COPY loaded it by and the highest key so far (see `freshTable`).
 */
const fresh = new WeakMap<object, Map<string, FreshTable>>();

export interface FreshTable {
  /** the column rows were copied in by (one whole-number unique key), once any were */
  key?: string;
  top: number;
}

/**
 * A table the bulk load running on `db` found empty and that nothing but COPY has written since, with the highest
 * key COPY put in it: rows with higher keys cannot meet a row already there, so they may be copied in rather than
 * upserted. Undefined outside a bulk load, for a table that held rows, and once anything else wrote to it.
 */
export function freshTable(db: Db, table: string): FreshTable | undefined {
  return fresh.get(db)?.get(table);
}

/** What was written to `table` outside COPY: from now on it is upserted like any table. */
export function notFresh(db: Db, table: string): void {
  fresh.get(db)?.delete(table);
}

/** Drops the foreign keys and secondary indexes of those of `tables` that are empty; what was dropped is returned. */
async function dropForLoad(db: Db, tables: string[]): Promise<Dropped[]> {
  const dropped: Dropped[] = [];
  for (const table of tables) {
    const [{ empty }] = await rows<{ empty: boolean }>(db, sql`SELECT NOT EXISTS (SELECT 1 FROM ${sql.identifier(table)}) AS empty`);
    if (!empty) continue;
    const indexes = await rows<{ name: string; definition: string }>(
      db,
      sql`SELECT c.relname AS name, pg_get_indexdef(i.indexrelid) AS definition
            FROM pg_index i JOIN pg_class c ON c.oid = i.indexrelid
           WHERE i.indrelid = ${table}::regclass AND NOT i.indisunique AND NOT i.indisprimary
             AND NOT EXISTS (SELECT 1 FROM pg_constraint k WHERE k.conindid = i.indexrelid)`,
    );
    const foreignKeys = await rows<{ name: string; definition: string }>(
      db,
      sql`SELECT conname AS name, pg_get_constraintdef(oid) AS definition
            FROM pg_constraint WHERE conrelid = ${table}::regclass AND contype = 'f'`,
    );
    const deferred = await rows<{ name: string }>(
      db,
      sql`SELECT DISTINCT conname AS name FROM pg_constraint
           WHERE contype = 't' AND condeferred
             AND (conrelid = ${table}::regclass
                  OR conrelid IN (SELECT confrelid FROM pg_constraint WHERE conrelid = ${table}::regclass AND contype = 'f'))`,
    );
    const d: Dropped = { table, indexes: indexes.map((i) => i.definition), foreignKeys, deferred: deferred.map((r) => r.name) };
    await settled(db, d.deferred, async () => {
      for (const fk of foreignKeys) await db.execute(sql`ALTER TABLE ${sql.identifier(table)} DROP CONSTRAINT ${sql.identifier(fk.name)}`);
      for (const index of indexes) await db.execute(sql`DROP INDEX ${sql.identifier(index.name)}`);
    });
    dropped.push(d);
  }
  return dropped;
}

/** Makes again what dropForLoad dropped: the indexes first, which the foreign keys' checks may use. */
async function restore(db: Db, dropped: Dropped[]): Promise<void> {
  for (const d of dropped)
    await settled(db, d.deferred, async () => {
      for (const index of d.indexes) await db.execute(sql.raw(index));
      for (const fk of d.foreignKeys)
        await db.execute(sql`ALTER TABLE ${sql.identifier(d.table)} ADD CONSTRAINT ${sql.identifier(fk.name)} ${sql.raw(fk.definition)}`);
    });
}

/**
 * Runs `load` (which writes `tables`, within the transaction `db` is) with the empty ones among them stripped of
 * their foreign keys and secondary indexes, then makes those again. `load` must not look rows of these tables up
 * by anything but a primary key or a unique index.
 */
export async function bulkLoad<T>(db: Db, tables: string[] | undefined, load: () => Promise<T>): Promise<T> {
  if (!tables?.length) return load();
  const dropped = await dropForLoad(db, tables);
  fresh.set(db, new Map(dropped.map((d) => [d.table, { top: -Infinity }])));
  try {
    const result = await load();
    await restore(db, dropped);
    return result;
  } finally {
    fresh.delete(db);
  }
}
