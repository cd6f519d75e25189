/**
 * Many carts priced at once (a list of carts): what priceCart reads for one cart (its products, their stock, the
 * customer group, the gift cards, the coupon and the tax rates) is read for all of them together, so that a list takes a fixed
 * number of statements whatever its length. Each cart is then priced from what was read, as priceCart prices it
 * alone (in its own store view and currency).
 */
import type { Ctx } from '../../platform/context.js';
import { productsForSale, type SaleProduct } from '../catalog/sale.js';
import { couponsForCarts, type Verdict } from '../coupons/validation.js';
import { pricingGroups } from '../customers/groups-service.js';
import { usableGiftcardsFor } from '../giftcards/spend.js';
import { stockRulesAt } from '../inventory/service.js';
import {
  cachedRates,
  cartContext,
  priceCart,
  pricedLines,
  stockLinesOf,
  taxLookups,
  type CartItemRow,
  type CartRow,
  type PricedCart,
} from './pricing.js';

export interface CartToPrice {
  cart: CartRow;
  rows: CartItemRow[];
}

/** The carts priced, in the order given, each with its context (cartContext); `version` is the catalog version read with them. */
export async function priceCarts(ctx: Ctx, list: readonly CartToPrice[], version: bigint): Promise<{ ctx: Ctx; priced: PricedCart }[]> {
  if (!list.length) return [];
  const contexts = list.map(({ cart }) => cartContext(ctx, cart));

  // the catalog is read (and cached) per store view: one read for the carts of each store view and currency
  const stores = new Map<string, { ctx: Ctx; ids: Set<number> }>();
  const storeOf = contexts.map((c, i) => {
    const key = `${c.store.storeId}|${c.store.currency}|${c.store.explicit}`;
    let s = stores.get(key);
    if (!s) stores.set(key, (s = { ctx: c, ids: new Set() }));
    for (const r of list[i].rows) {
      s.ids.add(r.productId);
      if (r.childProductId) s.ids.add(r.childProductId);
    }
    return s;
  });
  const [productMaps, groups, cards] = await Promise.all([
    Promise.all([...stores.values()].map((s) => productsForSale(s.ctx, [...s.ids], version))),
    pricingGroups(
      ctx,
      list.map(({ cart }) => ({ customerId: cart.customerId, groupId: cart.customerGroupId })),
    ),
    usableGiftcardsFor(
      ctx,
      list.map(({ cart }, i) => ({ codes: cart.giftcardCodes, websiteId: contexts[i].store.websiteId })),
    ),
  ]);
  const productsOf = new Map([...stores.values()].map((s, i) => [s, productMaps[i]]));
  const products: Map<number, SaleProduct>[] = storeOf.map((s) => productsOf.get(s)!);

  // stock: the products every line takes, of every cart
  const stockIds = list.flatMap(({ rows }, i) =>
    stockLinesOf(rows, products[i])
      .flat()
      .map((l) => l.productId),
  );
  const withCoupon = list.flatMap(({ cart }, i) =>
    cart.couponCode
      ? [
          {
            i,
            code: cart.couponCode,
            who: { customerId: cart.customerId, customerGroupId: groups[i].groupId, websiteId: contexts[i].store.websiteId },
          },
        ]
      : [],
  );
  // tax: the lookups of every cart, with the lines it prices
  const lookups = list.map(({ cart, rows }, i) => {
    const lines = pricedLines(rows, products[i], { customerGroupId: groups[i].groupId, websiteId: contexts[i].store.websiteId });
    return taxLookups(contexts[i], cart, lines, groups[i]);
  });
  const [stock, verdicts, rates] = await Promise.all([
    stockRulesAt(ctx, version, stockIds),
    withCoupon.length ? couponsForCarts(ctx, withCoupon) : Promise.resolve([]),
    cachedRates(
      version,
      lookups.flatMap((own, i) => own.map((lookup) => ({ ctx: contexts[i], lookup }))),
    ),
  ]);
  const coupons = new Map<number, Verdict>(withCoupon.map((w, k) => [w.i, verdicts[k]]));
  let at = 0;
  const taxes = lookups.map((own) => rates.slice(at, (at += own.length)));

  const out: { ctx: Ctx; priced: PricedCart }[] = [];
  for (const [i, { cart, rows }] of list.entries()) {
    const priced = await priceCart(contexts[i], cart, rows, {
      version,
      products: products[i],
      stock,
      group: groups[i],
      cards: cards[i],
      coupon: coupons.get(i) ?? null,
      tax: taxes[i],
    });
    out.push({ ctx: contexts[i], priced });
  }
  return out;
}
