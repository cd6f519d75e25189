/**
 * The database: PostgreSQL dialect only, either embedded (PGlite) or a server (node-postgres pool).
 * Services see one type, `Db`, which is also what a transaction looks like.
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { sql } from 'drizzle-orm';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres';
import { PGlite } from '@electric-sql/pglite';
import pg from 'pg';

// NUMERIC and BIGINT come back as strings: money stays decimal, never a binary float.
pg.types.setTypeParser(pg.types.builtins.INT8, (v: string) => Number(v));

export type Db = PgDatabase<PgQueryResultHKT, Record<string, never>>;

export interface Database {
  kind: 'pglite' | 'postgres';
  db: Db;
  close(): Promise<void>;
  /** The embedded instance, when there is one (tests dump and load it). */
  pglite?: PGlite;
}

export interface DatabaseOptions {
  databaseUrl?: string;
  /** PGlite data directory; omitted means in memory. */
  dataDir?: string;
  /** PGlite: start from a dumped data directory (tests). */
  loadDataDir?: Blob;
  poolMax?: number;
}

export async function openDatabase(opts: DatabaseOptions): Promise<Database> {
  if (opts.databaseUrl) {
    const pool = new pg.Pool({ connectionString: opts.databaseUrl, max: opts.poolMax ?? 20 });
    pool.on('error', () => {
      /* an idle client lost its connection; the pool replaces it */
    });
    const db = drizzlePg({ client: pool }) as unknown as Db;
    return { kind: 'postgres', db, close: () => pool.end() };
  }
  if (opts.dataDir) fs.mkdirSync(opts.dataDir, { recursive: true });
  const client = new PGlite({ dataDir: opts.dataDir, loadDataDir: opts.loadDataDir });
  await client.waitReady;
  const db = drizzlePglite({ client }) as unknown as Db;
  return { kind: 'pglite', db, pglite: client, close: () => client.close() };
}

/** Rows of a raw statement, whichever driver ran it. */
export async function rows<T>(db: Db, query: ReturnType<typeof sql>): Promise<T[]> {
  const res = (await db.execute(query)) as unknown as { rows: T[] };
  return res.rows;
}

export const MIGRATIONS_DIR = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../drizzle');

interface Journal {
  entries: { idx: number; tag: string }[];
}

/**
 * Applies the committed migrations in order, each in its own transaction, under an advisory lock so that
 * several processes starting at once apply each migration exactly once.
 */
export async function migrate(db: Db, dir = MIGRATIONS_DIR): Promise<string[]> {
  const journal = JSON.parse(fs.readFileSync(path.join(dir, 'meta/_journal.json'), 'utf8')) as Journal;
  const applied: string[] = [];
  await db.transaction(async (tx) => {
    await tx.execute(sql`SELECT pg_advisory_xact_lock(7343001)`);
    await tx.execute(
      sql`CREATE TABLE IF NOT EXISTS schema_migrations (tag text PRIMARY KEY, applied_at timestamptz NOT NULL DEFAULT now())`,
    );
    const done = new Set((await rows<{ tag: string }>(tx, sql`SELECT tag FROM schema_migrations`)).map((r) => r.tag));
    for (const entry of [...journal.entries].sort((a, b) => a.idx - b.idx)) {
      if (done.has(entry.tag)) continue;
      const text = fs.readFileSync(path.join(dir, `${entry.tag}.sql`), 'utf8');
      for (const statement of text.split('--> statement-breakpoint')) {
        if (statement.trim()) await tx.execute(sql.raw(statement));
      }
      await tx.execute(sql`INSERT INTO schema_migrations (tag) VALUES (${entry.tag})`);
      applied.push(entry.tag);
    }
  });
  return applied;
}
