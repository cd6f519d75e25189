/**
 * A cart shown again unchanged (a storefront asking for its totals on every page) is answered from memory
 * instead of being priced again. A cart is priced from what its one statement read (the cart, its lines, the
 * catalog version and the pricing facts: facts.ts), from per-process caches kept per catalog version (products,
 * stock, tax rates, groups), from the configuration and from the time. An entry is kept per cart with the key of
 * everything of those that it was priced from, and used only while all of it is the same:
 *
 * - the catalog version (stock included): any change of the catalog, stock, tax setup or customer groups drops
 *   every entry, as it drops the caches the cart was priced from;
 * - the cart's row (addresses, methods, coupon and gift card codes, store view, currency, ...) and its lines;
 * - what the facts said: the customer's group, the coupon's verdict now (its dates, limits and uses, with the
 *   rule it gives), the gift cards usable now with their balances;
 * - the store view and its view mode, the currency, the day (special prices);
 * - the configuration: the entries live in the store registry's snapshot, rebuilt when configuration or currency
 *   rates change.
 *
 * What none of these covers is never memoized: a cart whose facts could not answer (priceCart reads for itself),
 * shipping rates read from the database (table rates), a pricing inside a transaction.
 */
import type { Ctx } from '../../platform/context.js';
import { saleScope } from '../catalog/sale.js';
import { ratesReadDatabase } from '../shipping/service.js';
import { preloadedFrom, type PricingFacts } from './facts.js';
import { priceCart, type CartItemRow, type CartRow, type Preloaded, type PricedCart } from './pricing.js';

/** Carts kept per process: an entry of a cart of ten lines holds about 25 KB, so the memory holds at most about 25 MB. */
const MAX_CARTS = 1_000;

class ShownMemo {
  private version = -1n;
  private readonly entries = new Map<number, { key: string; priced: PricedCart }>();

  /** Whether entries may be read and kept at `version` (dropping them all when it moved on). */
  private usable(version: bigint): boolean {
    if (version > this.version) {
      this.entries.clear();
      this.version = version;
    }
    // a request that read the version before a newer one arrived: price it, keep nothing
    return version === this.version;
  }

  get(version: bigint, cartId: number, key: string): PricedCart | undefined {
    if (!this.usable(version)) return undefined;
    const entry = this.entries.get(cartId);
    if (!entry || entry.key !== key) return undefined;
    // most recently used last: the first entry is the one to drop
    this.entries.delete(cartId);
    this.entries.set(cartId, entry);
    return entry.priced;
  }

  keep(version: bigint, cartId: number, key: string, priced: PricedCart): void {
    if (!this.usable(version)) return;
    this.entries.delete(cartId);
    if (this.entries.size >= MAX_CARTS) this.entries.delete(this.entries.keys().next().value as number);
    this.entries.set(cartId, { key, priced });
  }
}

/** The memo of the current configuration snapshot (dropped with it). */
const memoOf = (ctx: Ctx) => ctx.app.settings.memo('carts.shown', () => new ShownMemo());

/** Everything the cart is priced from besides the catalog version and the configuration (see the file's comment). */
function keyOf(ctx: Ctx, cart: CartRow, items: readonly CartItemRow[], pre: Preloaded): string {
  const { pricedWith: _shown, ...row } = cart;
  const s = ctx.store;
  return JSON.stringify([s.storeId, s.websiteId, s.currency, s.baseCurrency, saleScope(ctx), row, items, pre.group, pre.coupon, pre.cards]);
}

/**
 * The cart priced as priceCart prices it (`ctx` the cart's context), from its facts read with it, and from memory
 * when it was priced from the same things before.
 */
export async function priceShown(
  ctx: Ctx,
  cart: CartRow,
  items: CartItemRow[],
  version: bigint,
  facts: PricingFacts | undefined,
): Promise<PricedCart> {
  const pre: Preloaded = facts ? await preloadedFrom(ctx, cart, facts, version) : { version };
  if (ctx.tx || pre.coupon === undefined || pre.cards === undefined || ratesReadDatabase(ctx, cart.storeId)) {
    return priceCart(ctx, cart, items, pre);
  }
  // taken before pricing: a configuration reloaded meanwhile keeps nothing priced with the one before
  const memo = memoOf(ctx);
  const key = keyOf(ctx, cart, items, pre);
  const hit = memo.get(version, cart.id, key);
  if (hit) return { ...hit, cart };
  const priced = await priceCart(ctx, cart, items, pre);
  memo.keep(version, cart.id, key, priced);
  return priced;
}
