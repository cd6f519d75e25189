/**
 * A process-local cache of expensive reads that every process keeps correct. Each cache is named after rows of
 * `read_cache_versions`; database triggers bump one of those rows (the writer's shard) at the commit of every
 * transaction that wrote to a table the cached reads depend on (see the migrations that create and shard the
 * table). A cached read first reads the version, the sum of the rows (one index range scan): when it moved,
 * every entry is dropped. So an answer is never older than the
 * last write committed before the request read the version, whichever process wrote it.
 *
 * Entries are whole answers (plain data); the caller builds the key from everything the answer depends on
 * besides the database (store view, currency, day, query). Answers that depend on who asks are not for here.
 */
import { sql } from 'drizzle-orm';
import { statement, type Db } from './db.js';

/** 2^64: the catalog count sits above the stock count in one version number (see readVersion). */
const STOCK_SPAN = 18446744073709551616n;

/**
 * The catalog version as one number: the catalog's count times 2^64 plus the stock's count (numeric in SQL,
 * BigInt here: no overflow). It grows whenever either count grows; `catalogPart` is the catalog's count alone.
 * Also a subquery of other statements (a cart's load reads it with the cart).
 */
export const CATALOG_VERSION_TEXT = `(SELECT (COALESCE(sum(version) FILTER (WHERE name = 'catalog'), 0)::numeric * ${STOCK_SPAN}
  + COALESCE(sum(version) FILTER (WHERE name = 'stock'), 0))::text FROM read_cache_versions WHERE name IN ('catalog', 'stock'))`;
const CATALOG_VERSION_SQL = sql.raw(CATALOG_VERSION_TEXT);

/** What a cache's answers depend on: the catalog (and stock), or orders with their items. */
export type CacheName = 'catalog' | 'orders';

const versionStatements: Record<CacheName, ReturnType<typeof statement<{ version: string }>>> = {
  catalog: statement('read_cache_version', () => sql`SELECT ${CATALOG_VERSION_SQL} AS version`, { memo: true }),
  orders: statement(
    'read_cache_version_orders',
    () => sql`SELECT sum(version)::text AS version FROM read_cache_versions WHERE name = 'orders'`,
    { memo: true },
  ),
};

/** The current version of a cache name (one index range scan); read once and pass to `at` / `atMany`. */
export async function readVersion(db: Db, name: CacheName = 'catalog'): Promise<bigint> {
  const [row] = await versionStatements[name].run(db, {});
  return BigInt(row?.version ?? '0');
}

/** The part of a version that moves with catalog changes other than stock. */
export const catalogPart = (version: bigint): bigint => version / STOCK_SPAN;

export class ReadCache<V> {
  private version = -1n;
  private readonly entries = new Map<string, V>();

  constructor(
    readonly name: CacheName,
    private readonly maxEntries = 10_000,
    /** of a catalog cache: `false` for answers that show no stock, kept while only stock changes */
    private readonly withStock = true,
  ) {}

  /** The cached answer for `key`, or `load()`'s (kept when no newer version was seen meanwhile). */
  async get(db: Db, key: string, load: () => Promise<V>): Promise<V> {
    return this.at(await readVersion(db, this.name), key, load);
  }

  /** The part of a version this cache's answers depend on. */
  private own(version: bigint): bigint {
    return this.withStock || this.name !== 'catalog' ? version : catalogPart(version);
  }

  /** Whether entries may be read and kept at (own) version `seen` (dropping older entries when it moved on). */
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
  async at(version: bigint, key: string, load: () => Promise<V>): Promise<V> {
    const seen = this.own(version);
    if (!this.usable(seen)) return load();
    const hit = this.entries.get(key);
    if (hit !== undefined) return hit;
    const value = await load();
    if (this.version === seen) this.keep(key, value);
    return value;
  }

  /** Many keys at once: the missing ones are loaded together by `load`, which answers for those it found. */
  async atMany(version: bigint, keys: readonly string[], load: (missing: string[]) => Promise<Map<string, V>>): Promise<Map<string, V>> {
    const seen = this.own(version);
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
