/**
 * A process-local cache of expensive reads that every process keeps correct. Each cache is named after a row of
 * `read_cache_versions`; database triggers bump that row at the commit of every transaction that wrote to a
 * table the cached reads depend on (see the migration that creates the table). A cached read first reads the
 * version (one primary-key lookup): when it moved, every entry is dropped. So an answer is never older than the
 * last write committed before the request read the version, whichever process wrote it.
 *
 * Entries are whole answers (plain data); the caller builds the key from everything the answer depends on
 * besides the database (store view, currency, day, query). Answers that depend on who asks are not for here.
 */
import { sql } from 'drizzle-orm';
import { statement, type Db } from './db.js';

const versionStatement = statement<{ version: string }>(
  'read_cache_version',
  () => sql`SELECT version::text AS version FROM read_cache_versions WHERE name = ${sql.placeholder('name')}::text`,
);

/** The current version of a named cache (one primary-key lookup); read once and pass to `at` / `atMany`. */
export async function readVersion(db: Db, name: string): Promise<bigint> {
  const [row] = await versionStatement.run(db, { name });
  return BigInt(row?.version ?? '0');
}

export class ReadCache<V> {
  private version = -1n;
  private readonly entries = new Map<string, V>();

  constructor(
    readonly name: string,
    private readonly maxEntries = 10_000,
  ) {}

  /** The cached answer for `key`, or `load()`'s (kept when no newer version was seen meanwhile). */
  async get(db: Db, key: string, load: () => Promise<V>): Promise<V> {
    return this.at(await readVersion(db, this.name), key, load);
  }

  /** Whether entries may be read and kept at version `seen` (dropping older entries when it moved on). */
  private usable(seen: bigint): boolean {
    if (seen > this.version) {
      this.entries.clear();
      this.version = seen;
    }
    // a request that read the version before a newer one arrived: answer it, keep nothing
    return seen === this.version;
  }

  private keep(key: string, value: V): void {
    if (this.entries.size >= this.maxEntries) this.entries.delete(this.entries.keys().next().value as string);
    this.entries.set(key, value);
  }

  /** As `get`, with the version the caller read (several caches of one name share one read per request). */
  async at(seen: bigint, key: string, load: () => Promise<V>): Promise<V> {
    if (!this.usable(seen)) return load();
    const hit = this.entries.get(key);
    if (hit !== undefined) return hit;
    const value = await load();
    if (this.version === seen) this.keep(key, value);
    return value;
  }

  /** Many keys at once: the missing ones are loaded together by `load`, which answers for those it found. */
  async atMany(seen: bigint, keys: readonly string[], load: (missing: string[]) => Promise<Map<string, V>>): Promise<Map<string, V>> {
    const out = new Map<string, V>();
    const usable = this.usable(seen);
    const missing: string[] = [];
    for (const k of keys) {
      const hit = usable ? this.entries.get(k) : undefined;
      if (hit !== undefined) out.set(k, hit);
      else missing.push(k);
    }
    if (!missing.length) return out;
    const loaded = await load(missing);
    const keepThem = usable && this.version === seen;
    for (const [k, v] of loaded) {
      out.set(k, v);
      if (keepThem) this.keep(k, v);
    }
    return out;
  }
}
