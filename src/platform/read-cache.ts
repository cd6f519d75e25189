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

export class ReadCache<V> {
  private version = -1n;
  private readonly entries = new Map<string, V>();

  constructor(
    private readonly name: string,
    private readonly maxEntries = 10_000,
  ) {}

  /** The cached answer for `key`, or `load()`'s (kept when no newer version was seen meanwhile). */
  async get(db: Db, key: string, load: () => Promise<V>): Promise<V> {
    const [row] = await versionStatement.run(db, { name: this.name });
    const seen = BigInt(row?.version ?? '0');
    if (seen > this.version) {
      this.entries.clear();
      this.version = seen;
    } else if (seen < this.version) {
      // a request that read the version before a newer one arrived: answer it, keep nothing
      return load();
    }
    const hit = this.entries.get(key);
    if (hit !== undefined) return hit;
    const value = await load();
    if (this.version === seen) {
      if (this.entries.size >= this.maxEntries) this.entries.delete(this.entries.keys().next().value as string);
      this.entries.set(key, value);
    }
    return value;
  }
}
