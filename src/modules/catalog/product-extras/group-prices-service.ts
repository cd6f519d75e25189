/**
 * Group prices (Maho's group_price): one price per customer group and website, whatever the quantity. They are
 * kept with the tier prices as rows of qty 1 marked `is_group_price`, so that everything that prices a product
 * for a customer (the cart's unit price, the product read) takes the lowest of special, tier and group price
 * from one set of rows. The set of a product is read, replaced and cleared as a whole, apart from its tiers.
 *
 * Back-office readers see every row; storefront callers only the rows that price them (their group or all
 * groups, their website or all websites). A store-restricted API user writes the rows of its websites only and
 * keeps the others.
 */
import { and, asc, eq, inArray, sql, type SQL } from 'drizzle-orm';
import { adminWebsiteScope, customerIdOf, withTx, type Ctx } from '../../../platform/context.js';
import { badRequest, forbidden } from '../../../platform/errors.js';
import { toWire } from '../../../platform/money.js';
import { customerGroupIdSql } from '../../customers/group-membership.js';
import { listCustomerGroups } from '../../customers/groups-service.js';
import { refreshPriceRanges } from '../products/price.js';
import { touchProduct } from '../products/touch.js';
import {
  MONEY_MAX,
  decimalField,
  invalidField,
  isCatalogReader,
  lockProduct,
  requireReadableProduct,
} from '../products/subresource-shared.js';
import { tierPrices } from '../tables.js';
import type { GroupPriceDto, GroupPriceInputT, GroupPricesBodyT } from './group-prices-schemas.js';
import { ALL_GROUPS } from './tier-prices-service.js';

type Row = typeof tierPrices.$inferSelect;

const groupRows = (productId: number): SQL => and(eq(tierPrices.productId, productId), eq(tierPrices.isGroupPrice, true))!;

function toDto(productId: number, row: Row, index: number): GroupPriceDto {
  return {
    id: `${productId}_${index}`,
    customerGroupId: row.customerGroupId === null ? 'all' : row.customerGroupId,
    websiteId: row.websiteId,
    price: toWire(row.price),
  };
}

async function rowsOf(ctx: Ctx, productId: number, where: SQL = groupRows(productId)): Promise<Row[]> {
  return ctx.db
    .select()
    .from(tierPrices)
    .where(where)
    .orderBy(asc(tierPrices.websiteId), sql`${tierPrices.customerGroupId} asc nulls first`, asc(tierPrices.id));
}

/** The product's group prices: all of them for back-office readers, else those of the caller's group and website. */
export async function listGroupPrices(ctx: Ctx, productId: number): Promise<GroupPriceDto[]> {
  await requireReadableProduct(ctx, productId);
  let where = groupRows(productId);
  if (!isCatalogReader(ctx)) {
    const group = customerGroupIdSql(sql`${customerIdOf(ctx.actor) ?? 0}::int`);
    where = and(
      where,
      inArray(tierPrices.websiteId, [0, ctx.store.websiteId]),
      sql`(${tierPrices.customerGroupId} IS NULL OR ${tierPrices.customerGroupId} = ${group})`,
    )!;
  }
  return (await rowsOf(ctx, productId, where)).map((r, i) => toDto(productId, r, i));
}

interface CleanGroupPrice {
  customerGroupId: number | null;
  websiteId: number;
  price: string;
}

function failWith(field: string, message: string, reason: string): never {
  throw badRequest(`${field}: ${message}`, { reason, details: { field } });
}

async function clean(ctx: Ctx, items: readonly GroupPriceInputT[], field: (i: number) => string): Promise<CleanGroupPrice[]> {
  let groups: Set<number> | undefined;
  const scope = adminWebsiteScope(ctx);
  const out: CleanGroupPrice[] = [];
  const seen = new Map<string, number>();
  for (const [i, item] of items.entries()) {
    const f = field(i);
    const g = item.customerGroupId ?? item.customer_group_id;
    let customerGroupId: number | null = null;
    if (g !== undefined && g !== null && g !== 'all' && g !== ALL_GROUPS) {
      groups ??= new Set((await listCustomerGroups(ctx)).items.map((x) => x.id));
      if (!groups.has(g)) failWith(`${f}.customerGroupId`, `customer group ${g} does not exist`, 'INVALID_CUSTOMER_GROUP');
      customerGroupId = g;
    }
    const websiteId = item.websiteId ?? item.website_id ?? 0;
    if (websiteId !== 0 && !ctx.app.settings.website(websiteId)) {
      failWith(`${f}.websiteId`, `website ${websiteId} does not exist`, 'INVALID_WEBSITE');
    }
    if (scope && !scope.includes(websiteId)) {
      throw forbidden(`${f}.websiteId: website ${websiteId} is outside the stores of this token`, {
        reason: 'WEBSITE_OUT_OF_SCOPE',
        details: { field: `${f}.websiteId` },
      });
    }
    if (item.price === undefined) invalidField(`${f}.price`, 'is required', 'required');
    const price = decimalField(item.price, `${f}.price`, { min: 0, max: MONEY_MAX });
    const key = `${customerGroupId ?? 'all'}|${websiteId}`;
    const prior = seen.get(key);
    if (prior !== undefined) {
      failWith(f, `a group price for this customer group and website is already given at ${field(prior)}`, 'DUPLICATE_GROUP_PRICE');
    }
    seen.set(key, i);
    out.push({ customerGroupId, websiteId, price });
  }
  return out;
}

/** The group rows a write may replace: all of them, or those of a store-restricted principal's websites. */
function writable(ctx: Ctx, productId: number): SQL {
  const scope = adminWebsiteScope(ctx);
  return scope ? and(groupRows(productId), inArray(tierPrices.websiteId, scope.length ? scope : [-1]))! : groupRows(productId);
}

async function replaceRows(tx: Ctx, productId: number, rows: CleanGroupPrice[]): Promise<void> {
  await tx.db.delete(tierPrices).where(writable(tx, productId));
  if (rows.length) {
    await tx.db.insert(tierPrices).values(rows.map((r) => ({ ...r, productId, qty: '1', isGroupPrice: true })));
  }
  await touchProduct(tx, productId);
  await refreshPriceRanges(tx, [productId]);
}

/** PUT: replaces the product's group prices with the given set (an empty set clears them). */
export async function replaceGroupPrices(ctx: Ctx, productId: number, body: GroupPricesBodyT): Promise<GroupPriceDto[]> {
  const items = Array.isArray(body) ? body : body.groupPrices;
  const field = Array.isArray(body) ? (i: number) => `[${i}]` : (i: number) => `groupPrices[${i}]`;
  return withTx(ctx, async (tx) => {
    await lockProduct(tx, productId);
    await replaceRows(tx, productId, await clean(tx, items, field));
    return (await rowsOf(tx, productId)).map((r, i) => toDto(productId, r, i));
  });
}

/** DELETE: removes every group price of the product (of the caller's websites, for a store-restricted one). */
export async function clearGroupPrices(ctx: Ctx, productId: number): Promise<void> {
  await withTx(ctx, async (tx) => {
    await lockProduct(tx, productId);
    await replaceRows(tx, productId, []);
  });
}
