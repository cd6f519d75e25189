/**
 * Tier prices: quantity discounts per customer group and website. The set of a product is read and replaced
 * as a whole. A row's customer group is null for every group (32000 or "all" on the wire) and its website 0 for
 * every website. No two rows may share group, website and quantity. The group prices kept in the same table
 * (`is_group_price`, group-prices-service.ts) are neither shown nor replaced here.
 */
import { and, asc, eq, sql } from 'drizzle-orm';
import { withTx, type Ctx } from '../../../platform/context.js';
import { badRequest } from '../../../platform/errors.js';
import { dec, toWire } from '../../../platform/money.js';
import { listCustomerGroups } from '../../customers/groups-service.js';
import { refreshPriceRanges } from '../products/price.js';
import { touchProduct } from '../products/touch.js';
import { MONEY_MAX, QTY_MAX, decimalField, invalidField, lockProduct, requireReadableProduct } from '../products/subresource-shared.js';
import type { TierPriceDto, TierPriceInputT, TierPricesBodyT } from '../products/subresource-schemas.js';
import { tierPrices } from '../tables.js';

/** The customer group id Maho uses for "all groups". */
export const ALL_GROUPS = 32000;

type TierPriceRow = typeof tierPrices.$inferSelect;

const tierRows = (productId: number) => and(eq(tierPrices.productId, productId), eq(tierPrices.isGroupPrice, false));

function toDto(productId: number, row: TierPriceRow, index: number): TierPriceDto {
  return {
    id: `${productId}_${index}`,
    customerGroupId: row.customerGroupId === null ? 'all' : row.customerGroupId,
    websiteId: row.websiteId,
    qty: toWire(row.qty),
    price: toWire(row.price),
  };
}

async function rowsOf(ctx: Ctx, productId: number): Promise<TierPriceRow[]> {
  return ctx.db
    .select()
    .from(tierPrices)
    .where(tierRows(productId))
    .orderBy(asc(tierPrices.websiteId), sql`${tierPrices.customerGroupId} asc nulls first`, asc(tierPrices.qty), asc(tierPrices.id));
}

/** The product's tier prices, by website, customer group (all groups first) and quantity. */
export async function listTierPrices(ctx: Ctx, productId: number): Promise<TierPriceDto[]> {
  await requireReadableProduct(ctx, productId);
  const rows = await rowsOf(ctx, productId);
  return rows.map((r, i) => toDto(productId, r, i));
}

interface CleanTierPrice {
  customerGroupId: number | null;
  websiteId: number;
  qty: string;
  price: string;
}

async function clean(ctx: Ctx, items: readonly TierPriceInputT[], field: (i: number) => string): Promise<CleanTierPrice[]> {
  let groups: Set<number> | undefined;
  const out: CleanTierPrice[] = [];
  const seen = new Map<string, number>();
  for (const [i, item] of items.entries()) {
    const f = field(i);
    let customerGroupId: number | null = null;
    const g = item.customerGroupId;
    if (g !== undefined && g !== null && g !== 'all' && g !== ALL_GROUPS) {
      groups ??= new Set((await listCustomerGroups(ctx)).items.map((x) => x.id));
      if (!groups.has(g)) {
        throw badRequest(`${f}.customerGroupId: customer group ${g} does not exist`, {
          reason: 'INVALID_CUSTOMER_GROUP',
          details: { field: `${f}.customerGroupId` },
        });
      }
      customerGroupId = g;
    }
    const websiteId = item.websiteId ?? 0;
    if (websiteId !== 0 && !ctx.app.settings.website(websiteId)) {
      throw badRequest(`${f}.websiteId: website ${websiteId} does not exist`, {
        reason: 'INVALID_WEBSITE',
        details: { field: `${f}.websiteId` },
      });
    }
    if (item.qty === undefined) invalidField(`${f}.qty`, 'is required', 'required');
    if (item.price === undefined) invalidField(`${f}.price`, 'is required', 'required');
    const qty = decimalField(item.qty, `${f}.qty`, { min: 0, exclusiveMin: true, max: QTY_MAX });
    const price = decimalField(item.price, `${f}.price`, { min: 0, max: MONEY_MAX });
    const key = `${customerGroupId ?? 'all'}|${websiteId}|${dec(qty).toFixed()}`;
    const prior = seen.get(key);
    if (prior !== undefined) {
      throw badRequest(`${f}: a tier price for this customer group, website and qty is already given at ${field(prior)}`, {
        reason: 'DUPLICATE_TIER_PRICE',
        details: { field: f },
      });
    }
    seen.set(key, i);
    out.push({ customerGroupId, websiteId, qty, price });
  }
  return out;
}

/** Replaces the product's tier prices with the given set (an empty set clears them). */
export async function replaceTierPrices(ctx: Ctx, productId: number, body: TierPricesBodyT): Promise<TierPriceDto[]> {
  const items = Array.isArray(body) ? body : body.tierPrices;
  const field = Array.isArray(body) ? (i: number) => `[${i}]` : (i: number) => `tierPrices[${i}]`;
  return withTx(ctx, async (tx) => {
    await lockProduct(tx, productId);
    const rows = await clean(tx, items, field);
    await tx.db.delete(tierPrices).where(tierRows(productId));
    if (rows.length) await tx.db.insert(tierPrices).values(rows.map((r) => ({ ...r, productId })));
    await touchProduct(tx, productId);
    await refreshPriceRanges(tx, [productId]);
    return (await rowsOf(tx, productId)).map((r, i) => toDto(productId, r, i));
  });
}

/** Removes every tier price of the product. */
export async function clearTierPrices(ctx: Ctx, productId: number): Promise<void> {
  await withTx(ctx, async (tx) => {
    await lockProduct(tx, productId);
    await tx.db.delete(tierPrices).where(tierRows(productId));
    await touchProduct(tx, productId);
    await refreshPriceRanges(tx, [productId]);
  });
}
