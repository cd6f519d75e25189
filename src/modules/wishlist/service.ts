/**
 * Wishlists: one list per customer, one item per product (a product added again raises the qty). Items are
 * shown with what the catalog sells them for in the request's store view and whether they are in stock, read
 * for the whole list at once. Moving an item to a cart adds it through the carts service (which checks the
 * choices and stock) and removes the item in the same transaction, so a refused addition leaves it in place.
 */
import { and, asc, eq, inArray, sql } from 'drizzle-orm';
import { together, withTx, type Ctx } from '../../platform/context.js';
import { rows } from '../../platform/db.js';
import { AppError, badRequest, forbidden, notFound } from '../../platform/errors.js';
import { compact, wireDateTime } from '../../platform/format.js';
import { dec, toWire, type Decimal } from '../../platform/money.js';
import { productsForSale, unitPriceFor, type SaleProduct } from '../catalog/sale.js';
import { productUrlSuffix, urlKeyIn } from '../catalog/products/urls.js';
import { productListFields } from '../catalog/products/keys.js';
import { addItem } from '../carts/lines.js';
import { MASKED, type CartRef } from '../carts/load.js';
import { activeCustomerCart, createCustomerCart } from '../carts/service.js';
import type { AddItemBodyT, CartDto } from '../carts/schemas.js';
import { pricingGroup } from '../customers/groups-service.js';
import { assertCustomerExists } from '../customers/service.js';
import { availabilityFrom, stockOf } from '../inventory/service.js';
import { BUY_REQUEST_KEYS, MAX_WISHLIST_QTY, type AddWishlistBodyT, type MoveToCartBodyT, type WishlistItemDto } from './schemas.js';
import { wishlistItems } from './tables.js';

type ItemRow = typeof wishlistItems.$inferSelect;

const itemNotFound = () => notFound('Wishlist item not found', { reason: 'WISHLIST_ITEM_NOT_FOUND' });
const productNotFound = (id: number) => notFound(`Product ${id} not found`, { reason: 'PRODUCT_NOT_FOUND', details: { productId: id } });

/** The calling customer; every wishlist operation starts here, so the store's wishlist switch is checked here too. */
function customerOf(ctx: Ctx): number {
  if (ctx.actor.kind !== 'customer') throw forbidden('Customer identity required');
  // switched off, the wishlist is not there at all (Maho answers its no-route page)
  if (!ctx.app.settings.getBool('wishlist/general/active', ctx.store.storeId)) {
    throw notFound('The wishlist is disabled in this store', { reason: 'WISHLIST_DISABLED' });
  }
  return ctx.actor.customerId;
}

/** The rows with the product data the list shows; rows of products that no longer exist are left out. */
async function itemsToDto(ctx: Ctx, customerId: number, list: ItemRow[]): Promise<WishlistItemDto[]> {
  if (!list.length) return [];
  const ids = [...new Set(list.map((r) => r.productId))];
  const [sale, catalogRows, stock, group] = await together(ctx, [
    () => productsForSale(ctx, ids),
    () => productListFields(ctx, ids),
    () => stockOf(ctx, ids),
    () => pricingGroup(ctx, { customerId }),
  ] as const);
  const byId = new Map(catalogRows.map((r) => [r.id, r]));
  const base = ctx.store.baseCurrency;
  const rate = ctx.store.currency !== base ? ctx.app.settings.rate(base, ctx.store.currency) : undefined;
  const shown = (v: Decimal | null | undefined) =>
    v === null || v === undefined ? undefined : toWire(rate ? v.mul(rate).toDecimalPlaces(2) : v);
  const storeId = ctx.store.storeId;
  const urlBase = ctx.app.settings.baseUrl(storeId);
  const suffix = productUrlSuffix(ctx, storeId);
  const avail = availabilityFrom(
    stock,
    ids.map((productId) => ({ productId, qty: 1 })),
  );
  const inStock = new Map(avail.map((a) => [a.productId, a.isInStock]));
  const out: WishlistItemDto[] = [];
  for (const r of list) {
    const p: SaleProduct | undefined = sale.get(r.productId);
    const c = byId.get(r.productId);
    if (!p || !c) continue;
    const key = urlKeyIn(c.storeValues ?? {}, storeId, c.urlKey);
    out.push(
      compact({
        id: r.id,
        productId: r.productId,
        productName: p.name,
        productSku: p.sku,
        productPrice: shown(c.price === null || c.price === undefined || c.price === '' ? null : dec(c.price)),
        productFinalPrice: shown(unitPriceFor(p, { customerGroupId: group.groupId, websiteId: ctx.store.websiteId, qty: dec(r.qty) })),
        productImageUrl: p.thumbnailUrl,
        productUrl: key ? `${urlBase}${key}${suffix}` : undefined,
        productType: p.type,
        qty: r.qty,
        description: r.description,
        addedAt: wireDateTime(r.addedAt)!,
        inStock: (inStock.get(r.productId) ?? false) && p.sellable,
      }) as WishlistItemDto,
    );
  }
  return out;
}

async function itemRows(ctx: Ctx, customerId: number, ids?: number[]): Promise<ItemRow[]> {
  const where = ids
    ? and(eq(wishlistItems.customerId, customerId), inArray(wishlistItems.id, ids))
    : eq(wishlistItems.customerId, customerId);
  return ctx.db.select().from(wishlistItems).where(where).orderBy(asc(wishlistItems.id));
}

async function oneItem(ctx: Ctx, customerId: number, id: number): Promise<WishlistItemDto> {
  const [dto] = await itemsToDto(ctx, customerId, await itemRows(ctx, customerId, [id]));
  if (!dto) throw itemNotFound();
  return dto;
}

/** The caller's whole wishlist, oldest first. */
export async function listWishlist(ctx: Ctx): Promise<{ items: WishlistItemDto[]; total: number }> {
  const customerId = customerOf(ctx);
  const items = await itemsToDto(ctx, customerId, await itemRows(ctx, customerId));
  return { items, total: items.length };
}

/** A customer's whole wishlist for the back office (GET /customers/{customerId}/wishlist), oldest first. */
export async function customerWishlist(ctx: Ctx, customerId: number): Promise<{ items: WishlistItemDto[]; total: number }> {
  await assertCustomerExists(ctx, customerId);
  const items = await itemsToDto(ctx, customerId, await itemRows(ctx, customerId));
  return { items, total: items.length };
}

function buyRequestOf(body: AddWishlistBodyT): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const k of BUY_REQUEST_KEYS) if (body[k] !== undefined) out[k] = body[k];
  return out;
}

async function sellableProducts(ctx: Ctx, ids: number[]): Promise<Map<number, SaleProduct>> {
  const sale = await productsForSale(ctx, ids);
  return new Map([...sale].filter(([id, p]) => ids.includes(id) && p.sellable));
}

/**
 * Adds a product (404 when it does not exist or cannot be bought in this store view); a product already there
 * gets the qty added (capped at the most an item holds), and the description and choices when sent.
 */
export async function addToWishlist(ctx: Ctx, body: AddWishlistBodyT): Promise<WishlistItemDto> {
  const customerId = customerOf(ctx);
  if (!(await sellableProducts(ctx, [body.productId])).has(body.productId)) throw productNotFound(body.productId);
  const buyRequest = buyRequestOf(body);
  const [row] = await rows<{ id: number }>(
    ctx.db,
    sql`INSERT INTO wishlist_items (customer_id, product_id, store_id, qty, description, buy_request, added_at)
        VALUES (${customerId}, ${body.productId}, ${ctx.store.storeId}, ${body.qty ?? 1}, ${body.description ?? null}, ${JSON.stringify(buyRequest)}::jsonb, ${ctx.now})
        ON CONFLICT (customer_id, product_id) DO UPDATE SET
          qty = LEAST(wishlist_items.qty + EXCLUDED.qty, ${MAX_WISHLIST_QTY}::int),
          description = COALESCE(EXCLUDED.description, wishlist_items.description),
          buy_request = CASE WHEN EXCLUDED.buy_request = '{}'::jsonb THEN wishlist_items.buy_request ELSE EXCLUDED.buy_request END
        RETURNING id`,
  );
  return oneItem(ctx, customerId, row.id);
}

export async function removeFromWishlist(ctx: Ctx, id: number): Promise<void> {
  const customerId = customerOf(ctx);
  const gone = await ctx.db
    .delete(wishlistItems)
    .where(and(eq(wishlistItems.id, id), eq(wishlistItems.customerId, customerId)))
    .returning({ id: wishlistItems.id });
  if (!gone.length) throw itemNotFound();
}

function cartRefOf(cartId: number | string): CartRef {
  if (typeof cartId === 'string' && MASKED.test(cartId)) return { kind: 'guest', maskedId: cartId.toLowerCase() };
  return { kind: 'customer', id: Number(cartId) };
}

/**
 * Adds the item to the named cart of the caller (numeric id or masked id) or, without one, to a new cart of
 * the caller, then removes it from the wishlist. A refused addition (stock, choices, cart not usable) is a 400
 * and changes nothing. Answers with the item as it was and the cart it went into.
 */
export async function moveToCart(ctx: Ctx, id: number, body: MoveToCartBodyT): Promise<{ item: WishlistItemDto; cart: CartDto }> {
  const customerId = customerOf(ctx);
  return withTx(ctx, async (tx) => {
    const [row] = await tx.db
      .select()
      .from(wishlistItems)
      .where(and(eq(wishlistItems.id, id), eq(wishlistItems.customerId, customerId)))
      .for('update');
    if (!row) throw itemNotFound();
    const [item] = await itemsToDto(tx, customerId, [row]);
    if (!item) throw productNotFound(row.productId);
    let cart: CartDto;
    try {
      // the cart named, else the customer's newest active cart, else a new one
      const ref =
        body.cartId !== undefined
          ? cartRefOf(body.cartId)
          : ((await activeCustomerCart(tx, customerId)) ?? { kind: 'customer' as const, id: (await createCustomerCart(tx, {})).id });
      const addBody = { ...(row.buyRequest ?? {}), productId: row.productId, qty: body.qty ?? row.qty } as AddItemBodyT;
      cart = await addItem(tx, ref, addBody);
    } catch (err) {
      if (err instanceof AppError && err.status >= 400 && err.status < 500) {
        throw badRequest(err.message, { reason: err.reason, details: err.details });
      }
      throw err;
    }
    await tx.db.delete(wishlistItems).where(eq(wishlistItems.id, row.id));
    return { item, cart };
  });
}

/**
 * Adds the products not yet on the list (unknown or unsellable ids are skipped, duplicates ignored) and answers
 * with the first one added, else the first of them already on the list; 404 when none of them can be.
 */
export async function syncWishlist(ctx: Ctx, body: { productIds: number[] }): Promise<WishlistItemDto> {
  const customerId = customerOf(ctx);
  const wanted = [...new Set(body.productIds)];
  const sellable = await sellableProducts(ctx, wanted);
  const valid = wanted.filter((id) => sellable.has(id));
  if (!valid.length) throw notFound('None of these products can be added', { reason: 'PRODUCT_NOT_FOUND' });
  const values = sql.join(
    valid.map((pid) => sql`(${customerId}::int, ${pid}::int, ${ctx.store.storeId}::int, 1, '{}'::jsonb, ${ctx.now}::timestamptz)`),
    sql`, `,
  );
  const added = await rows<{ id: number; productId: number }>(
    ctx.db,
    sql`INSERT INTO wishlist_items (customer_id, product_id, store_id, qty, buy_request, added_at)
        VALUES ${values}
        ON CONFLICT (customer_id, product_id) DO NOTHING
        RETURNING id, product_id AS "productId"`,
  );
  let pick: number | undefined;
  for (const pid of valid) {
    const a = added.find((r) => r.productId === pid);
    if (a) {
      pick = a.id;
      break;
    }
  }
  if (pick === undefined) {
    const [existing] = await ctx.db
      .select({ id: wishlistItems.id })
      .from(wishlistItems)
      .where(and(eq(wishlistItems.customerId, customerId), eq(wishlistItems.productId, valid[0])));
    if (!existing) throw itemNotFound();
    pick = existing.id;
  }
  return oneItem(ctx, customerId, pick);
}
