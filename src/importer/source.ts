/**
 * The shop being imported: a Magento 1 / OpenMage / Maho MySQL or MariaDB database, read only. Tables are
 * read in primary-key order, a batch at a time (keyset pages, so memory stays flat and a page costs the same
 * at the end of a table as at its start).
 */
import mysql from 'mysql2/promise';
import { ImportRefused } from './refused.js';

export type SourceRow = Record<string, unknown>;

/** Rows read per batch unless told otherwise. */
export const DEFAULT_BATCH_SIZE = 1000;

export interface BatchQuery {
  /** the table, optionally with an alias and joins after it: `sales_flat_order o` */
  from: string;
  /** the integer primary key as the query names it: `o.entity_id` */
  key: string;
  /** selected columns (default `*`) */
  columns?: string;
  /** extra conditions, ANDed, with `?` placeholders */
  where?: string;
  params?: unknown[];
  /** rows per batch (default: the source's batchSize) */
  size?: number;
}

export class Source {
  private readonly tables = new Map<string, Set<string> | null>();

  private constructor(
    readonly pool: mysql.Pool,
    readonly database: string,
    /** rows per batch: of a source table read in key order, and of imported ids a batch of parts is read for */
    readonly batchSize: number,
  ) {}

  static async open(url: string, batchSize = DEFAULT_BATCH_SIZE): Promise<Source> {
    if (!Number.isInteger(batchSize) || batchSize < 1) throw new ImportRefused('the batch size must be a whole number of at least 1');
    let parsed: URL;
    try {
      parsed = new URL(url);
    } catch {
      throw new ImportRefused('--source must be a URL such as mysql://user:password@host:3306/database');
    }
    if (parsed.protocol !== 'mysql:' && parsed.protocol !== 'mariadb:') throw new ImportRefused('--source must be a mysql:// URL');
    const database = decodeURIComponent(parsed.pathname.replace(/^\//, ''));
    if (!database) throw new ImportRefused('--source names no database (mysql://user:password@host:3306/database)');
    const pool = mysql.createPool({
      host: parsed.hostname,
      port: parsed.port ? Number(parsed.port) : 3306,
      user: decodeURIComponent(parsed.username || 'root'),
      password: decodeURIComponent(parsed.password),
      database,
      connectionLimit: 4,
      // source values arrive as the database holds them: decimals and big integers as strings, dates as text
      decimalNumbers: false,
      supportBigNumbers: true,
      bigNumberStrings: true,
      dateStrings: true,
      charset: 'utf8mb4',
    });
    // Magento writes its times in UTC: read TIMESTAMP columns in UTC whatever the server's zone
    pool.on('connection', (conn) => {
      conn.query("SET time_zone = '+00:00'");
    });
    const source = new Source(pool, database, batchSize);
    try {
      const [rows] = await pool.query<mysql.RowDataPacket[]>(
        'SELECT TABLE_NAME AS t, COLUMN_NAME AS c FROM information_schema.COLUMNS WHERE TABLE_SCHEMA = ?',
        [database],
      );
      for (const r of rows) {
        let cols = source.tables.get(r.t);
        if (!cols) source.tables.set(r.t, (cols = new Set()));
        cols.add(r.c);
      }
    } catch (err) {
      await pool.end().catch(() => undefined);
      throw new ImportRefused(`Cannot read the source database: ${(err as Error).message}`);
    }
    if (!source.hasTable('core_store') || !source.hasTable('eav_attribute')) {
      await pool.end();
      throw new ImportRefused(`${database} is not a Magento 1 / OpenMage / Maho database (no core_store or eav_attribute table)`);
    }
    return source;
  }

  hasTable(name: string): boolean {
    return this.tables.has(name);
  }

  hasColumn(table: string, column: string): boolean {
    return this.tables.get(table)?.has(column) ?? false;
  }

  async query<T = SourceRow>(text: string, params: unknown[] = []): Promise<T[]> {
    const [rows] = await this.pool.query(text, params);
    return rows as T[];
  }

  async count(table: string, where?: string, params: unknown[] = []): Promise<number> {
    const [row] = await this.query<{ n: string | number }>(`SELECT COUNT(*) AS n FROM ${table}${where ? ` WHERE ${where}` : ''}`, params);
    return Number(row?.n ?? 0);
  }

  /**
   * The rows of a query in batches, in ascending key order. The next batch is already being read while the
   * caller writes the current one.
   */
  async *batches(q: BatchQuery): AsyncGenerator<SourceRow[]> {
    const size = q.size ?? this.batchSize;
    const keyName = q.key.includes('.') ? q.key.slice(q.key.indexOf('.') + 1) : q.key;
    const where = [`${q.key} > ?`, ...(q.where ? [`(${q.where})`] : [])].join(' AND ');
    const read = (after: number) =>
      this.query(`SELECT ${q.columns ?? '*'} FROM ${q.from} WHERE ${where} ORDER BY ${q.key} LIMIT ${size}`, [after, ...(q.params ?? [])]);
    let next: Promise<SourceRow[]> | undefined = read(-1);
    while (next) {
      const rows: SourceRow[] = await next;
      next = rows.length === size ? read(Number(rows[rows.length - 1][keyName])) : undefined;
      // a read started ahead must not go unobserved if the caller stops early
      next?.catch(() => undefined);
      if (rows.length) yield rows;
    }
  }

  async close(): Promise<void> {
    await this.pool.end();
  }
}

/**
 * Batches with what each needs, the next one read while the caller writes the current one (the source and the
 * target are different servers). A load may also look up in the target what earlier entities wrote (never what
 * this entity's own batches write): the target's connection takes one statement at a time, so the lookup waits
 * behind the write in flight, while this process builds the batch before.
 */
export async function* readAhead<B, L>(batches: AsyncIterable<B>, load: (batch: B) => Promise<L>): AsyncGenerator<[B, L]> {
  const it = batches[Symbol.asyncIterator]();
  const fetch = async (): Promise<[B, L] | undefined> => {
    const r = await it.next();
    return r.done ? undefined : [r.value, await load(r.value)];
  };
  let next = fetch();
  // a read ahead that fails after the caller stopped is nobody's error
  next.catch(() => undefined);
  for (;;) {
    const got = await next;
    if (!got) return;
    next = fetch();
    next.catch(() => undefined);
    yield got;
  }
}

// ---- values as Magento stores them ----

export function str(v: unknown): string | null {
  if (v === null || v === undefined) return null;
  const s = String(v);
  return s;
}

/**
 * A text value (a name, title, label, description, SKU …) exactly as the shop stored it, spaces included:
 * Magento saves what was typed without trimming it. Null when empty or blank, which counts as no value.
 */
export function text(v: unknown): string | null {
  const s = str(v);
  return s && s.trim() ? s : null;
}

/**
 * A code, e-mail, URL path, hash or other identifier, trimmed, or null when empty: values our rules compare or
 * look up, where a stray space would only make them miss.
 */
export function trimmed(v: unknown): string | null {
  const s = str(v)?.trim();
  return s ? s : null;
}

export function int(v: unknown): number | null {
  if (v === null || v === undefined || v === '') return null;
  const n = Number(v);
  return Number.isInteger(n) ? n : null;
}

export function bool(v: unknown): boolean {
  return v !== null && v !== undefined && v !== '' && Number(v) !== 0;
}

/** A decimal as text (NUMERIC on our side), or null. */
export function decimal(v: unknown): string | null {
  if (v === null || v === undefined || v === '') return null;
  const s = String(v).trim();
  return /^-?\d+(\.\d+)?$/.test(s) ? s : null;
}

/** MySQL DATETIME / TIMESTAMP text (server time, UTC in Magento) as a Date; null for zero dates. */
export function date(v: unknown): Date | null {
  const s = str(v);
  if (!s || s.startsWith('0000-00-00')) return null;
  const d = new Date(`${s.replace(' ', 'T')}${/[zZ]|[+-]\d\d:?\d\d$/.test(s) ? '' : 'Z'}`);
  return Number.isNaN(d.getTime()) ? null : d;
}

/** A DATE (YYYY-MM-DD) of a DATETIME text, or null. */
export function day(v: unknown): string | null {
  const s = str(v);
  if (!s || s.startsWith('0000-00-00')) return null;
  const m = /^(\d{4}-\d{2}-\d{2})/.exec(s);
  return m ? m[1] : null;
}
