/**
 * An in-memory snapshot of websites, store views, scoped config and currency rates. Every request needs
 * them (store context, config reads), so they are read from memory and reloaded from the database after
 * a local write, and whenever the `store_config` version moved: a trigger bumps it at every write to those
 * tables, whoever made it, and each process reads it once a second (one tiny statement), so a change made by
 * another process shows within that second.
 */
import { sql } from 'drizzle-orm';
import { Decimal, dec } from '../../platform/money.js';
import { statement, type Db } from '../../platform/db.js';
import { badRequest } from '../../platform/errors.js';
import { declaredDefault, parseBool, parseList, type Settings } from '../../platform/settings.js';
import type { StoreContext } from '../../platform/context.js';
import { configValues, currencyRates, storeGroups, stores, websites } from './tables.js';

export type Website = typeof websites.$inferSelect;
export type StoreGroup = typeof storeGroups.$inferSelect;
export type StoreView = typeof stores.$inferSelect;

const versionStatement = statement<{ version: string }>(
  'store_config_version',
  () => sql`SELECT version::text AS version FROM read_cache_versions WHERE name = 'store_config' AND shard = 0`,
  { memo: true },
);

/** The version, or undefined when it cannot be read (then every check reloads, as a plain timer would). */
async function readVersion(db: Db): Promise<string | undefined> {
  try {
    const [row] = await versionStatement.run(db, {});
    return row?.version;
  } catch {
    return undefined;
  }
}

interface Snapshot {
  websites: Map<number, Website>;
  groups: Map<number, StoreGroup>;
  stores: Map<number, StoreView>;
  storesByCode: Map<string, StoreView>;
  defaultStore: StoreView;
  /** `scope:scopeId:path` → value */
  config: Map<string, string | null>;
  /** `BASE:TARGET` → rate */
  rates: Map<string, Decimal>;
  /** resolved store contexts keyed by `storeId:currency` */
  contexts: Map<string, StoreContext>;
  /** values derived from this snapshot (see `memo`) */
  memo: Map<string, unknown>;
}

export class StoreRegistry implements Settings {
  private snap!: Snapshot;
  private timer?: NodeJS.Timeout;
  private loading?: Promise<void>;
  /** a load queued behind the running one */
  private queued?: Promise<void>;
  /** the `store_config` version the snapshot was read at (read before the tables: a write after it shows as a newer one) */
  private version?: string;
  private probing = false;

  constructor(
    private readonly db: Db,
    private readonly publicUrl: string,
  ) {}

  async load(): Promise<void> {
    const version = await readVersion(this.db);
    const [ws, gs, ss, cfg, rates] = await Promise.all([
      this.db.select().from(websites),
      this.db.select().from(storeGroups),
      this.db.select().from(stores),
      this.db.select().from(configValues),
      this.db.select().from(currencyRates),
    ]);
    const snap: Snapshot = {
      websites: new Map(ws.map((w) => [w.id, w])),
      groups: new Map(gs.map((g) => [g.id, g])),
      stores: new Map(ss.map((s) => [s.id, s])),
      storesByCode: new Map(ss.map((s) => [s.code.toLowerCase(), s])),
      defaultStore: undefined as unknown as StoreView,
      config: new Map(cfg.map((c) => [`${c.scope}:${c.scopeId}:${c.path}`, c.value])),
      rates: new Map(rates.map((r) => [`${r.base}:${r.target}`, dec(r.rate)])),
      contexts: new Map(),
      memo: new Map(),
    };
    const defaultWebsite = ws.find((w) => w.isDefault) ?? ws.sort((a, b) => a.id - b.id)[0];
    const defaultGroup = defaultWebsite?.defaultGroupId ? snap.groups.get(defaultWebsite.defaultGroupId) : undefined;
    const defaultStore =
      (defaultGroup?.defaultStoreId ? snap.stores.get(defaultGroup.defaultStoreId) : undefined) ??
      ss.filter((s) => s.isActive).sort((a, b) => a.id - b.id)[0];
    if (!defaultStore) throw new Error('No store view is installed');
    snap.defaultStore = defaultStore;
    this.snap = snap;
    this.version = version;
  }

  /**
   * Reload now (after a local write). A load already running may have read before the caller's write, so
   * the caller then waits for one more load that starts after it; callers arriving meanwhile share that one.
   */
  async reload(): Promise<void> {
    if (!this.loading) {
      this.loading = this.load().finally(() => {
        this.loading = undefined;
      });
      return this.loading;
    }
    this.queued ??= this.loading
      .catch(() => undefined)
      .then(() => {
        this.queued = undefined;
        return this.reload();
      });
    return this.queued;
  }

  /**
   * Reads the version (one statement) and reloads when it moved since the snapshot was read. Answers whether it
   * reloaded.
   */
  async refreshIfChanged(): Promise<boolean> {
    if (this.probing) return false;
    this.probing = true;
    try {
      const version = await readVersion(this.db);
      if (version !== undefined && version === this.version) return false;
      await this.reload();
      return true;
    } finally {
      this.probing = false;
    }
  }

  /** Checks the version every `intervalMs` (see `refreshIfChanged`). */
  startRefresh(intervalMs: number): void {
    this.timer = setInterval(() => {
      this.refreshIfChanged().catch(() => undefined);
    }, intervalMs);
    this.timer.unref();
  }

  stop(): void {
    if (this.timer) clearInterval(this.timer);
  }

  /**
   * A value derived only from stores and config (a serialized store-config body, say), computed once per
   * snapshot: it is rebuilt after the next reload, so it never outlives the data it came from.
   */
  memo<T>(key: string, build: () => T): T {
    const memo = this.snap.memo;
    if (memo.has(key)) return memo.get(key) as T;
    const value = build();
    memo.set(key, value);
    return value;
  }

  // ---- stores ----

  get defaultStore(): StoreView {
    return this.snap.defaultStore;
  }

  store(id: number): StoreView | undefined {
    return this.snap.stores.get(id);
  }

  storeByCode(code: string): StoreView | undefined {
    return this.snap.storesByCode.get(code.toLowerCase());
  }

  website(id: number): Website | undefined {
    return this.snap.websites.get(id);
  }

  group(id: number): StoreGroup | undefined {
    return this.snap.groups.get(id);
  }

  allStores(): StoreView[] {
    return [...this.snap.stores.values()].sort((a, b) => a.sortOrder - b.sortOrder || a.id - b.id);
  }

  allWebsites(): Website[] {
    return [...this.snap.websites.values()].sort((a, b) => a.sortOrder - b.sortOrder || a.id - b.id);
  }

  // ---- settings ----

  get(path: string, storeId?: number): string | undefined {
    const c = this.snap.config;
    const store = storeId === undefined ? undefined : this.snap.stores.get(storeId);
    if (store) {
      const s = c.get(`stores:${store.id}:${path}`);
      if (s !== undefined && s !== null) return s;
      const w = c.get(`websites:${store.websiteId}:${path}`);
      if (w !== undefined && w !== null) return w;
    }
    const d = c.get(`default:0:${path}`);
    if (d !== undefined && d !== null) return d;
    return declaredDefault(path);
  }

  /** The value at one scope only (no fallback), as stored. */
  getAtScope(path: string, scope: string, scopeId: number): string | null | undefined {
    return this.snap.config.get(`${scope}:${scopeId}:${path}`);
  }

  getBool(path: string, storeId?: number): boolean {
    return parseBool(this.get(path, storeId));
  }

  getInt(path: string, storeId?: number): number {
    const n = parseInt(this.get(path, storeId) ?? '', 10);
    return Number.isFinite(n) ? n : 0;
  }

  getList(path: string, storeId?: number): string[] {
    return parseList(this.get(path, storeId));
  }

  /** `{base url}/` of a store view: its configured base URL, else the service's public URL. */
  baseUrl(storeId?: number): string {
    const configured = this.get('web/unsecure/base_url', storeId);
    const url = configured || this.publicUrl;
    return url.endsWith('/') ? url : `${url}/`;
  }

  // ---- currencies ----

  baseCurrency(storeId?: number): string {
    return (this.get('currency/options/base', storeId) || 'USD').toUpperCase();
  }

  displayCurrency(storeId?: number): string {
    return (this.get('currency/options/default', storeId) || this.baseCurrency(storeId)).toUpperCase();
  }

  allowedCurrencies(storeId?: number): string[] {
    const base = this.baseCurrency(storeId);
    const list = this.getList('currency/options/allow', storeId).map((c) => c.toUpperCase());
    return list.length ? [...new Set(list)] : [base];
  }

  /** Rate from base to target; the base currency is 1; undefined when no rate is known. */
  rate(base: string, target: string): Decimal | undefined {
    if (base === target) return dec(1);
    return this.snap.rates.get(`${base}:${target}`);
  }

  // ---- request context ----

  /**
   * The store context of a request: the named store (query `store` or X-Store-Code) or the default store
   * view, and the display currency (X-Currency-Code, which must be allowed and have a rate).
   */
  resolveStore(storeCode: string | undefined, currencyCode: string | undefined): StoreContext {
    let store = this.snap.defaultStore;
    if (storeCode !== undefined) {
      const code = storeCode.trim();
      if (!code) throw badRequest('Store code must not be empty', { reason: 'INVALID_STORE' });
      const found = this.storeByCode(code);
      if (!found || !found.isActive) throw badRequest(`Unknown store: ${code}`, { reason: 'UNKNOWN_STORE' });
      store = found;
    }
    let currency = '';
    if (currencyCode !== undefined) {
      currency = currencyCode.trim().toUpperCase();
      const base = this.baseCurrency(store.id);
      if (!/^[A-Z]{3}$/.test(currency) || !this.allowedCurrencies(store.id).includes(currency) || !this.rate(base, currency)) {
        throw badRequest(`Unsupported currency: ${currencyCode}`, { reason: 'UNSUPPORTED_CURRENCY' });
      }
    }
    const key = `${store.id}:${currency}:${storeCode !== undefined ? 1 : 0}`;
    let ctx = this.snap.contexts.get(key);
    if (!ctx) {
      const display = currency || this.displayCurrency(store.id);
      ctx = Object.freeze({
        storeId: store.id,
        storeCode: store.code,
        websiteId: store.websiteId,
        groupId: store.groupId,
        currency: display,
        baseCurrency: this.baseCurrency(store.id),
        explicit: storeCode !== undefined,
      });
      this.snap.contexts.set(key, ctx);
    }
    return ctx;
  }
}

/** The registry's surface, under a name the augmentation below can reach (it declares its own StoreRegistry). */
type Registry = StoreRegistry;

// `ctx.app.settings` is declared in the platform as its own StoreRegistry interface (only Settings); this
// registry is what it is, with all of its surface (see src/platform/store-registry.ts).
declare module '../../platform/store-registry.js' {
  interface StoreRegistry extends Registry {}
}
