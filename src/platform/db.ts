/**
 * The database: PostgreSQL dialect only, either embedded (PGlite) or a server (node-postgres pool).
 * Services see one type, `Db`, which is also what a transaction looks like.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { fillPlaceholders, sql, type SQL, type SQLWrapper } from 'drizzle-orm';
import { PgDialect, type PgDatabase, type PgQueryResultHKT } from 'drizzle-orm/pg-core';
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres';
import type { PGlite } from '@electric-sql/pglite';
import pg from 'pg';
import { LOCKS } from './locks.js';
import { openEmbeddedThread, type EmbeddedClient } from './embedded-thread.js';

// NUMERIC and BIGINT come back as strings: money stays decimal, never a binary float.
pg.types.setTypeParser(pg.types.builtins.INT8, (v: string) => Number(v));

export type Db = PgDatabase<PgQueryResultHKT, Record<string, never>>;

export interface Database {
  kind: 'pglite' | 'postgres';
  db: Db;
  /** Statements sent through this database so far (tests assert that a read takes a fixed number of queries). */
  queryCount(): number;
  /**
   * PostgreSQL: a separate small pool for short statements that commit on their own, even while the caller
   * holds a transaction of the main pool (see AppServices.outsideTx). Absent on the embedded database.
   */
  sideDb?: Db;
  /** PostgreSQL: the connection URL (a process opens a connection of its own to LISTEN for notifications) */
  url?: string;
  close(): Promise<void>;
  /** The embedded instance, when there is one (tests dump and load it). */
  pglite?: EmbeddedClient;
}

export interface DatabaseOptions {
  databaseUrl?: string;
  /** PGlite data directory; omitted means in memory. */
  dataDir?: string;
  /** PGlite: start from a dumped data directory (tests). */
  loadDataDir?: Blob;
  poolMax?: number;
}

interface QueryCounter {
  n: number;
  logger: { logQuery(): void };
}

/** Counters by driver client: the query builder reports through its logger, `statement` counts itself. */
const counters = new WeakMap<object, QueryCounter>();

/**
 * The statements of one piece of work (a request), whatever else the process sends meanwhile: counted in the
 * async context that `countStatements` opens, so a background pass (mail, webhooks, janitors), which runs in the
 * context it was started from, is never among them.
 */
const scopes = new AsyncLocalStorage<{ n: number }>();

function countFor(client: object): QueryCounter {
  const counter: QueryCounter = {
    n: 0,
    logger: {
      logQuery: () => {
        counter.n++;
        const scope = scopes.getStore();
        if (scope) scope.n++;
      },
    },
  };
  counters.set(client, counter);
  return counter;
}

/**
 * Runs `fn` and counts the statements sent from its async context (an injected request runs in its caller's),
 * on any database: the query builder's and `statement`'s, inside transactions too (on PostgreSQL BEGIN and
 * COMMIT as well). A nested call counts for itself only.
 */
export async function countStatements<T>(fn: () => Promise<T>): Promise<{ n: number; result: T }> {
  const scope = { n: 0 };
  const result = await scopes.run(scope, fn);
  return { n: scope.n, result };
}

export async function openDatabase(opts: DatabaseOptions): Promise<Database> {
  if (opts.databaseUrl) {
    // Named statements (see `statement`) are the hot reads: plan them once per connection instead of on every
    // execution. Their parameters are keys and ids, where one plan serves every value.
    const pool = new pg.Pool({
      connectionString: opts.databaseUrl,
      max: opts.poolMax ?? 20,
      options: '-c plan_cache_mode=force_generic_plan',
    });
    pool.on('error', () => {
      /* an idle client lost its connection; the pool replaces it */
    });
    const counter = countFor(pool);
    const db = drizzlePg({ client: pool, logger: counter.logger }) as unknown as Db;
    // a second, small pool for single statements that must commit on their own while a transaction of the main
    // pool waits for them (document numbers): its connections are never held across anything else, so a full
    // main pool cannot starve it
    const side = new pg.Pool({ connectionString: opts.databaseUrl, max: 2 });
    side.on('error', () => undefined);
    const sideDb = drizzlePg({ client: side, logger: counter.logger }) as unknown as Db;
    return {
      kind: 'postgres',
      db,
      sideDb,
      url: opts.databaseUrl,
      queryCount: () => counter.n,
      close: async () => void (await Promise.all([pool.end(), side.end()])),
    };
  }
  if (opts.dataDir) fs.mkdirSync(opts.dataDir, { recursive: true });
  // loaded only here: a server on PostgreSQL never loads the embedded database's driver
  const { drizzle: drizzlePglite } = await import('drizzle-orm/pglite');
  // a smaller buffer cache than PostgreSQL's default 128 MB: the embedded database's files are in the OS page
  // cache anyway, and the process stays ~100 MB smaller
  const client = await openEmbeddedThread({
    dataDir: opts.dataDir,
    loadDataDir: opts.loadDataDir,
    postgresqlconf: ['shared_buffers=32MB'],
  });
  trackWrites(client);
  const counter = countFor(client);
  const db = drizzlePglite({ client: client as unknown as PGlite, logger: counter.logger }) as unknown as Db;
  return { kind: 'pglite', db, pglite: client, queryCount: () => counter.n, close: () => client.close() };
}

/**
 * The embedded database has one client, this process, so every write passes through it. Its generation moves
 * before and after every statement that may write (anything but a plain SELECT) and every transaction; while it
 * stands still, a read-only statement run again with the same values would answer the same rows, and a
 * `statement` declared with `memo` is answered from memory (the version of a read cache, a token's state). A
 * PostgreSQL server has other clients (other processes and servers), so nothing is memoized there.
 */
interface WriteGeneration {
  n: number;
  /** by statement name: the generation its rows were read at, and the rows by their values */
  memos: Map<string, { at: number; rows: Map<string, unknown[]> }>;
}

const generations = new WeakMap<object, WriteGeneration>();

/** Words of a statement that may change data (a SELECT … FOR UPDATE counts too: it is rare, and it is safe). */
const WRITE_WORDS = /\b(insert|update|delete|merge|truncate|copy|call|nextval|setval|set_config|lock|notify)\b/i;

function mayWrite(query: unknown): boolean {
  return typeof query !== 'string' || !/^\s*select\b/i.test(query) || WRITE_WORDS.test(query);
}

function trackWrites(client: EmbeddedClient): void {
  const gen: WriteGeneration = { n: 0, memos: new Map() };
  type Run = (...args: unknown[]) => Promise<unknown>;
  const tracked =
    (run: Run, writes: (first: unknown) => boolean) =>
    async (...args: unknown[]): Promise<unknown> => {
      const w = writes(args[0]);
      if (w) gen.n++;
      try {
        return await run(...args);
      } finally {
        if (w) gen.n++;
      }
    };
  client.query = tracked(client.query.bind(client) as Run, mayWrite) as EmbeddedClient['query'];
  client.exec = tracked(client.exec.bind(client) as Run, () => true) as EmbeddedClient['exec'];
  client.transaction = tracked(client.transaction.bind(client) as Run, () => true) as EmbeddedClient['transaction'];
  generations.set(client, gen);
}

/** Most distinct value sets one memoized statement keeps per generation. */
const MEMO_MAX = 10_000;

/**
 * `column = ANY(ids)` with the ids as one array parameter: a list of thousands of ids costs one parameter to
 * build and send rather than one each (`inArray`), and the statement's text is the same for any number of ids.
 */
export function inIds(column: SQLWrapper, ids: Iterable<number>): SQL {
  return sql`${column} = ANY(${intArray(ids)}::int[])`;
}

/** `{1,2,3}`, an array literal for an `int[]` parameter (whole numbers only: anything else is left out). */
export function intArray(ids: Iterable<number>): string {
  return `{${[...ids].filter((n) => Number.isInteger(n)).join(',')}}`;
}

/**
 * A COPY … FROM STDIN sent with its data at once: the statement, the rows and the end of the data go out
 * together. A client that waits for the server's go-ahead before sending the rows costs a round trip, and leaves
 * the server idle for as long as this process is busy elsewhere (building the next batch). PostgreSQL reads the
 * rows after the statement, and ignores them if the statement failed.
 */
class CopyInQuery {
  rowCount = 0;
  readonly done: Promise<number>;
  private settle!: { resolve: (n: number) => void; reject: (err: Error) => void };

  constructor(
    private readonly text: string,
    private readonly data: Buffer,
  ) {
    this.done = new Promise((resolve, reject) => (this.settle = { resolve, reject }));
  }

  submit(connection: { query(text: string): void; sendCopyFromChunk(chunk: Buffer): void; endCopyFrom(): void }): void {
    connection.query(this.text);
    connection.sendCopyFromChunk(this.data);
    connection.endCopyFrom();
  }

  handleCommandComplete(msg: { text?: string }): void {
    this.rowCount = Number(/^COPY (\d+)/.exec(msg.text ?? '')?.[1] ?? 0);
  }

  // at once: a lost connection sends no ready-for-query after its error (which then settles nothing more)
  handleError(err: Error): void {
    this.settle.reject(err);
  }

  handleReadyForQuery(): void {
    this.settle.resolve(this.rowCount);
  }

  // the data went with the statement; a COPY FROM answers no rows
  handleCopyInResponse(): void {}
  handleRowDescription(): void {}
  handleDataRow(): void {}
  handleEmptyQuery(): void {}
  handlePortalSuspended(): void {}
  handleCopyData(): void {}
}

/**
 * Loads rows into `table` with PostgreSQL's COPY: `lines` gives a line per row, its values in the order of
 * `columns`, tab-separated, in COPY's text format (`\N` for null, see the importer's `CopyText`). No statement
 * to plan, no parameter to parse, and the rows are inserted in groups. Returns the number of rows loaded, or
 * undefined when the handle is no single PostgreSQL connection (the embedded database, or a pool outside a
 * transaction), which the caller then writes otherwise.
 */
export async function copyIn(db: Db, table: string, columns: string[], lines: () => Buffer): Promise<number | undefined> {
  const { client } = driverClient(db);
  if (!(client instanceof pg.Client)) return undefined;
  const names = columns.map((c) => `"${c}"`).join(', ');
  const query = new CopyInQuery(`COPY "${table}" (${names}) FROM STDIN`, lines());
  countStatement(db, client);
  // a submittable, as pg's cursors are: the client hands it the connection when its turn comes
  (client as unknown as { query(q: CopyInQuery): unknown }).query(query);
  return query.done;
}

/** Rows of a raw statement, whichever driver ran it. */
export async function rows<T>(db: Db, query: ReturnType<typeof sql>): Promise<T[]> {
  const res = (await db.execute(query)) as unknown as { rows: T[] };
  return res.rows;
}

interface QueryClient {
  query(config: { name: string; text: string; values: unknown[] } | string, values?: unknown[]): Promise<{ rows: unknown[] }>;
}

/** The driver client under a database handle or an open transaction (a pg Pool or PoolClient, PGlite or its transaction). */
function driverClient(db: Db): { client: QueryClient; named: boolean } {
  const handle = db as unknown as { $client?: unknown; session?: { client?: unknown } };
  const client = (handle.$client ?? handle.session?.client) as QueryClient | undefined;
  if (!client || typeof client.query !== 'function') throw new Error('No driver client under this database handle');
  return { client, named: client instanceof pg.Pool || client instanceof pg.Client };
}

/**
 * Counts a statement sent past the query builder: through the logger of the handle's session, which a
 * transaction's session shares with its database (its driver client, a pool's connection, is not the one
 * counters know), else by the client.
 */
function countStatement(db: Db, client: object): void {
  const logger = (db as unknown as { session?: { options?: { logger?: { logQuery(query: string, params: unknown[]): void } } } }).session
    ?.options?.logger;
  if (logger) logger.logQuery('', []);
  else {
    const counter = counters.get(client);
    if (counter) counter.logger.logQuery();
  }
}

const dialect = new PgDialect();

/**
 * A statement for hot read paths: its SQL is built once (on first use, so module-supplied expressions are in
 * place), PostgreSQL prepares it once per connection under its name, and rows come back as the driver gives
 * them, with no per-request query building or result mapping. Values are bound to `sql.placeholder(name)`s.
 * Columns keep the names the SQL gives them, so alias them to the shape the caller wants. With `memo`, a
 * read-only statement on the embedded database is answered from memory while nothing has written since
 * (see WriteGeneration); callers must not change the rows they get.
 */
export interface Statement<T> {
  run(db: Db, values: Record<string, unknown>): Promise<T[]>;
}

export function statement<T>(name: string, build: () => SQL, opts: { memo?: boolean } = {}): Statement<T> {
  let compiled: { sql: string; params: unknown[] } | undefined;
  return {
    async run(db, values) {
      compiled ??= dialect.sqlToQuery(build());
      const params = fillPlaceholders(compiled.params, values);
      const { client, named } = driverClient(db);
      // a memoized answer counts as sent: budgets are the same on both databases
      countStatement(db, client);
      const gen = opts.memo ? generations.get(client) : undefined;
      if (!gen) {
        const res = named ? await client.query({ name, text: compiled.sql, values: params }) : await client.query(compiled.sql, params);
        return res.rows as T[];
      }
      let memo = gen.memos.get(name);
      if (memo?.at !== gen.n) gen.memos.set(name, (memo = { at: gen.n, rows: new Map() }));
      const key = JSON.stringify(params);
      const hit = memo.rows.get(key);
      if (hit) return hit as T[];
      const at = gen.n;
      const res = await client.query(compiled.sql, params);
      // kept only when nothing may have written while it ran
      if (gen.n === at && memo.rows.size < MEMO_MAX) memo.rows.set(key, res.rows);
      return res.rows as T[];
    },
  };
}

/**
 * A FROM item that lets a statement running as its own transaction commit without waiting for the disk flush
 * when the boolean placeholder `name` is true (pass `mayRelaxCommit(ctx)`); otherwise it changes nothing. The
 * setting lasts until that commit, so it never reaches another statement.
 */
export function relaxedCommit(name: string): SQL {
  return sql`(SELECT set_config('synchronous_commit', CASE WHEN ${sql.placeholder(name)}::boolean THEN 'off' ELSE current_setting('synchronous_commit') END, true)) AS relaxed_commit`;
}

/**
 * The project's `drizzle/` folder: found upwards from this module, which is src/platform/ when run from source
 * and dist/ when run compiled (one bundle).
 */
export const MIGRATIONS_DIR = findUp(path.dirname(fileURLToPath(import.meta.url)), 'drizzle/meta/_journal.json', 'drizzle');

function findUp(from: string, marker: string, result: string): string {
  for (let dir = from; ; dir = path.dirname(dir)) {
    if (fs.existsSync(path.join(dir, marker))) return path.join(dir, result);
    if (path.dirname(dir) === dir) throw new Error(`${marker} not found above ${from}`);
  }
}

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
    await tx.execute(sql`SELECT pg_advisory_xact_lock(${LOCKS.migrate})`);
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
