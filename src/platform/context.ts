/**
 * The context every service function receives first: who is calling, in which store, on which database
 * handle (the open transaction when there is one), and the process-wide services.
 */
import type { FastifyBaseLogger } from 'fastify';
import { sql, type AnyColumn, type SQL } from 'drizzle-orm';
import type { AppConfig } from './config.js';
import { forbidden } from './errors.js';
import type { Db } from './db.js';
import type { EventDeclaration, EventRef, PayloadOf } from './event-types.js';
import type { Decimal } from './money.js';
import type { RateLimiter } from './rate-limit.js';
import type { StoreRegistry } from './store-registry.js';
import type { TokenService } from './auth/tokens.js';

export type Actor =
  | { kind: 'anonymous' }
  | {
      kind: 'customer';
      customerId: number;
      email: string;
      jti: string;
      exp: number;
      /** a token's session: when it signed in (seconds), kept across refreshes */
      authTime?: number;
    }
  | {
      kind: 'admin';
      /** API user, OAuth client or back-office staff user: one authorization for all three */
      principal: 'api_user' | 'oauth_client' | 'admin_user';
      id: number;
      username: string;
      permissions: string[];
      /** Store views this principal is limited to; undefined means every store. */
      allowedStoreIds?: number[];
      jti: string;
      exp: number;
      /** a token's session: when it signed in (seconds), kept across refreshes */
      authTime?: number;
    };

export interface StoreContext {
  storeId: number;
  storeCode: string;
  websiteId: number;
  groupId: number;
  /** Currency prices are shown in (X-Currency-Code, else the store's default display currency). */
  currency: string;
  baseCurrency: string;
  /** True when the caller named the store (?store= or X-Store-Code). */
  explicit: boolean;
}

/** Process-wide services, built once in buildApp. */
export interface AppServices {
  config: AppConfig;
  /** stores, websites, scoped config and currency rates (implements Settings) */
  settings: StoreRegistry;
  limiter: RateLimiter;
  tokens: TokenService;
  /** Wakes the mail sender after a commit that queued mail. */
  nudgeOutbox(): void;
  /**
   * Runs a short statement outside the caller's transaction, so that the rows it locks are free again at once
   * (document numbers). On the embedded database, which has one connection, it runs on `ctx.db` instead.
   */
  outsideTx(ctx: Ctx): Db;
  /** The domain event bus: every module's declared events, handed to the subscribers that want them. */
  events: EventBus;
  /** A module's running background work (the webhook deliverer), by its spec; throws for one not started. */
  background<B>(spec: BackgroundKey<B>): B;
  /** what a coupon would take off a cart, from the module that contributes it (AppModule.discountPreview) */
  discountPreview?: DiscountPreview;
  /** what later modules lend the catalog's products (AppModule.catalogParts), collected at startup */
  catalogParts: CatalogParts;
  /** the URL resolver's visibility checks by entity type (AppModule.urlResolverChecks), collected at startup */
  urlResolverChecks: ReadonlyMap<string, UrlResolverCheck>;
  /** the newsletter's side of customers (AppModule.customerSubscriptions); undefined: nobody is subscribed */
  customerSubscriptions?: CustomerSubscriptions;
  /** what later modules lend the orders module (AppModule.orderParts), collected at startup */
  orderParts: OrderParts;
}

/** The amounts of a cart priced as if a coupon code were applied (its own currency). */
export interface DiscountPreviewDto {
  discountAmount: number;
  subtotal: number;
  grandTotal: number;
  currency: string;
}

/**
 * The discount a valid coupon code would give a cart the caller may read, named by its id or a guest cart's
 * masked id (POST /coupons/validate with a cartId); a 400 when the caller may not read that cart.
 */
export type DiscountPreview = (ctx: Ctx, cartId: number | string, couponCode: string) => Promise<DiscountPreviewDto>;

/** The domain event bus, built by the app from every module's declarations and subscribers (events.ts). */
export interface EventBus {
  /** every declared event by type name, in module order */
  readonly declared: ReadonlyMap<string, EventDeclaration>;
  /** true when a subscriber may want `type` in the store view (null: of a resource every store view shares) */
  wants(type: string, storeId: number | null): boolean;
  /** hands the event to the subscribers that want it (called by an EventSet's `emit`, which checks the types) */
  publish(ctx: Ctx, type: string, ref: EventRef, data: PayloadOf<unknown>): void;
}

/** Names a module's background work and what it offers once running (a BackgroundSpec of background.ts). */
export interface BackgroundKey<B> {
  readonly name: string;
  /** what starts it (its environment is background.ts's concern: the context only finds the running instance) */
  start(env: never): Promise<B>;
}

/** A product id in SQL: a column or an expression of the query the part is embedded in. */
export type ProductIdSql = SQL | AnyColumn;

/**
 * Stock keys of an update (wire 2.11), as PUT /inventory takes them and a product write passes them on; every key
 * optional, at least one required (the inventory module checks them).
 */
export interface ProductStockInput {
  qty?: number;
  isInStock?: boolean;
  manageStock?: boolean;
  minQty?: number;
  minSaleQty?: number;
  /** null: no maximum */
  maxSaleQty?: number | null;
  /** 0 no backorders, 1 allow qty below 0, 2 allow and notify */
  backorders?: number;
  notifyStockQty?: number | null;
  /** null: any qty */
  qtyIncrements?: number | null;
  /** quantities are integers: only false is accepted */
  isQtyDecimal?: boolean;
  /** false clears qtyIncrements; true needs qtyIncrements (sent or stored) */
  enableQtyIncrements?: boolean;
  useConfigMinQty?: boolean;
  useConfigMinSaleQty?: boolean;
  useConfigMaxSaleQty?: boolean;
  useConfigBackorders?: boolean;
  useConfigNotifyStockQty?: boolean;
  useConfigQtyIncrements?: boolean;
  useConfigEnableQtyInc?: boolean;
  useConfigManageStock?: boolean;
}

/**
 * What modules after the catalog lend to it, so that the catalog imports none of them while a product is still
 * read in one statement: the SQL of the stock row and of the review summary embedded in the product read, and
 * the stock write of a product create or update (collected by contributions.ts).
 */
export interface CatalogParts {
  /**
   * The product's stock row as a JSON object (keys qty, isInStock, manageStock, minQty, minSaleQty, maxSaleQty,
   * backorders, notifyStockQty, qtyIncrements), null when it keeps none.
   */
  stockJson(productId: ProductIdSql): SQL;
  /** Boolean: the product can be sold from its stock (stock not managed, or in stock). */
  sellableFromStock(productId: ProductIdSql): SQL;
  /**
   * The review summary of the product in a store view (`storeId` an int expression, 0 for every store view):
   * `count` (int) and `average` (numeric as text, null without votes).
   */
  reviewSummary(productId: ProductIdSql, storeId: SQL): { count: SQL; average: SQL };
  /** Writes the stock of one product (in the caller's transaction when there is one). */
  setProductStock(ctx: Ctx, productId: number, input: ProductStockInput): Promise<void>;
  /** Writes the stock of products by SKU, in one transaction (a generated catalog). */
  setStockBySku(ctx: Ctx, items: (ProductStockInput & { sku: string })[]): Promise<void>;
}

/**
 * Whether the entity may be shown to the caller of `ctx` in its store view; a number instead names the entity
 * of the same type the path leads to (a product that is only sold as a variant leads to its parent).
 */
export type UrlResolverCheck = (ctx: Ctx, id: number) => Promise<boolean | number>;

/**
 * What the newsletter lends the customers module, which imports nothing of it: whether a customer is subscribed,
 * as SQL over the customer's id (customer reads stay one statement), and the linking of the subscriptions a new
 * account's email made before the account existed (run in the account's transaction).
 */
export interface CustomerSubscriptions {
  subscribedSql(customerId: SQL | AnyColumn): SQL<boolean>;
  link(ctx: Ctx, customer: { id: number; email: string; websiteId: number }): Promise<void>;
}

/**
 * What modules after orders lend to it, so that orders imports none of them: the shipments an order read
 * embeds (shipments), and what an order's invoices took of its gift cards, which a cancellation does not give
 * back (invoices). Collected by contributions.ts.
 */
export interface OrderParts {
  /** The order's shipments as the caller of `ctx` sees them on the wire, oldest first (no access check). */
  shipmentsOf(ctx: Ctx, order: { id: number; incrementId: string }): Promise<unknown[]>;
  /** What the order's invoices (not canceled) took of its gift cards, in the order's and the base currency. */
  giftcardsInvoiced(ctx: Ctx, orderId: number): Promise<{ amount: Decimal; base: Decimal }>;
}

export interface Ctx {
  db: Db;
  actor: Actor;
  store: StoreContext;
  now: Date;
  ip: string;
  userAgent?: string;
  log: FastifyBaseLogger;
  app: AppServices;
  /** Set while a transaction opened by withTx is running. */
  tx?: TxState;
  /** Set while a back-office write runs: its activity log row (activity-log.ts), written in its transaction if it opens one. */
  activity?: ActivityRecorder;
}

/** The pending activity log row of a write: written once, by the write's outermost transaction or after the write. */
export interface ActivityRecorder {
  /** writes the row on `tx` (inside the transaction, before its commit) unless it was written; `out` is what the transaction answered */
  write(tx: Ctx, out?: unknown): Promise<void>;
}

interface TxState {
  afterCommit: (() => void)[];
  /** run in order inside the transaction once its work is done, before the commit (events rendered last) */
  beforeCommit: (() => Promise<void>)[];
}

/**
 * Runs `fn` in one transaction. Nested calls join the open transaction. Callbacks registered with
 * `afterCommit` run only once the outermost transaction has committed.
 *
 * `relaxed`: the commit does not wait for the database's disk flush (PostgreSQL's `synchronous_commit` off
 * for this transaction alone). Only for changes a shopper can simply make again, such as a cart's: a database
 * crash can lose the last fraction of a second of them, yet never leaves them half done, and never loses
 * anything that depends on them, because every ordinary commit (an order placed from the cart) first flushes
 * all that was written before it. A transaction this one joins keeps its own durability, and the
 * DURABLE_CART_WRITES setting makes every commit wait.
 */
export async function withTx<T>(ctx: Ctx, fn: (tx: Ctx) => Promise<T>, opts: { relaxed?: boolean } = {}): Promise<T> {
  if (ctx.tx) return fn(ctx);
  const state: TxState = { afterCommit: [], beforeCommit: [] };
  const result = await ctx.db.transaction(async (db) => {
    if (opts.relaxed && !ctx.app.config.durableCartWrites) await db.execute(sql`SET LOCAL synchronous_commit TO OFF`);
    const inTx: Ctx = { ...ctx, db: db as unknown as Db, tx: state };
    const out = await fn(inTx);
    while (state.beforeCommit.length) for (const cb of state.beforeCommit.splice(0)) await cb();
    // a back-office write's activity log row commits, or rolls back, with the write
    if (ctx.activity) await ctx.activity.write(inTx, out);
    return out;
  });
  for (const cb of state.afterCommit) cb();
  return result;
}

/**
 * For a single statement that writes what withTx's `relaxed` covers: true when the statement runs as its own
 * transaction, whose commit may then skip the wait (see `relaxedCommit` in db.ts).
 */
export function mayRelaxCommit(ctx: Ctx): boolean {
  return !ctx.tx && !ctx.app.config.durableCartWrites;
}

/**
 * Runs `cb` inside the caller's transaction after its work is done, just before the commit (once per call;
 * outside a transaction it runs at once).
 */
export async function beforeCommit(ctx: Ctx, cb: () => Promise<void>): Promise<void> {
  if (ctx.tx) ctx.tx.beforeCommit.push(cb);
  else await cb();
}

export function afterCommit(ctx: Ctx, cb: () => void): void {
  if (ctx.tx) ctx.tx.afterCommit.push(cb);
  else cb();
}

/**
 * A context that renders resources as the back office sees them: event payloads do not depend on who made the
 * change.
 */
export function backOffice(ctx: Ctx): Ctx {
  return { ...ctx, actor: { kind: 'admin', principal: 'api_user', id: 0, username: 'back-office', permissions: ['all'], jti: '', exp: 0 } };
}

export function isAdmin(actor: Actor): actor is Extract<Actor, { kind: 'admin' }> {
  return actor.kind === 'admin';
}

/**
 * The websites an admin principal limited to certain store views may act in (the websites of those stores);
 * undefined when the caller is not such a principal.
 */
export function adminWebsiteScope(ctx: Ctx): number[] | undefined {
  const a = ctx.actor;
  if (a.kind !== 'admin' || !a.allowedStoreIds) return undefined;
  const ids = new Set<number>();
  for (const id of a.allowedStoreIds) {
    const store = ctx.app.settings.store(id);
    if (store) ids.add(store.websiteId);
  }
  return [...ids];
}

/** The store views an admin principal is limited to; undefined when the caller is not such a principal. */
export function adminStoreScope(ctx: Ctx): number[] | undefined {
  return ctx.actor.kind === 'admin' ? ctx.actor.allowedStoreIds : undefined;
}

/** What the ids of a row's scope name: store views or websites (0 among them, or null: every one). */
type ScopeUnit = 'store' | 'website';

const scopeOf = (ctx: Ctx, unit: ScopeUnit) => (unit === 'store' ? adminStoreScope(ctx) : adminWebsiteScope(ctx));

/**
 * Whether the caller may see a row of these store views (or websites): a limited principal sees the rows of
 * its own and those every store view shares (0 or null); every other caller sees all.
 */
export function scopeReadable(ctx: Ctx, ids: readonly number[] | null, unit: ScopeUnit = 'store'): boolean {
  const scope = scopeOf(ctx, unit);
  return !scope || ids === null || ids.includes(0) || ids.some((id) => scope.includes(id));
}

/**
 * Whether the caller may write a row of these store views (or websites): a limited principal only rows all of
 * whose store views are its own, never one that every store view shares (as Magento's store-restricted admin
 * roles, which cannot change global content).
 */
export function scopeWritable(ctx: Ctx, ids: readonly number[] | null, unit: ScopeUnit = 'store'): boolean {
  const scope = scopeOf(ctx, unit);
  return !scope || (ids !== null && ids.length > 0 && ids.every((id) => id !== 0 && scope.includes(id)));
}

/** 403 unless the caller may write a row of these store views (or websites): the ones a request asks for. */
export function assertScopeWritable(ctx: Ctx, ids: readonly number[] | null, field: string, unit: ScopeUnit = 'store'): void {
  if (scopeWritable(ctx, ids, unit)) return;
  const what = unit === 'store' ? 'store views' : 'websites';
  throw forbidden(`This token may act only in its own ${what}; ${field} must name only those`, {
    reason: unit === 'store' ? 'STORE_NOT_ALLOWED' : 'WEBSITE_NOT_ALLOWED',
    details: { field },
  });
}

/** 403 for a principal limited to some store views changing what every store view shares (tax, groups, ...). */
export function assertGlobalWriter(ctx: Ctx, what: string): void {
  if (!adminStoreScope(ctx)) return;
  throw forbidden(`This token is limited to some store views and may not change ${what}, which every store view shares`, {
    reason: 'GLOBAL_DATA_READ_ONLY',
  });
}

export function customerIdOf(actor: Actor): number | undefined {
  return actor.kind === 'customer' ? actor.customerId : undefined;
}

type Results<T extends readonly unknown[]> = { -readonly [K in keyof T]: Awaited<T[K]> };

/**
 * Runs independent reads together, or one after another inside a transaction, whose single connection takes
 * one statement at a time. Each element is a function starting one read.
 */
export async function together<T extends readonly (() => unknown)[]>(
  ctx: Ctx,
  reads: T,
): Promise<Results<{ [K in keyof T]: ReturnType<T[K]> }>> {
  if (!ctx.tx) return Promise.all(reads.map((r) => r())) as never;
  const out: unknown[] = [];
  for (const r of reads) out.push(await r());
  return out as never;
}
