/**
 * Reading the cart a request names: customer carts (numeric id, owned by a customer: another customer's cart is a
 * 404 like a missing one) and guest carts (reached only through a random 32-hex-character masked id while they
 * are active). Changes lock the cart row, so concurrent requests on one cart apply one after the other; every
 * answer is the cart re-priced after the change (view).
 */
import { eq, sql } from 'drizzle-orm';
import { statement, type Statement } from '../../platform/db.js';
import { withTx, type Ctx } from '../../platform/context.js';
import { badRequest, notFound } from '../../platform/errors.js';
import { CATALOG_VERSION_TEXT } from '../../platform/read-cache.js';
import { cartDto } from './dto.js';
import { PRICING_FACTS, type PricingFacts } from './facts.js';
import { customerPricingGroupSql, pricingGroupFromJson } from '../customers/group-membership.js';
import { customerIdentitySql, identityFromJson, type CustomerIdentity } from '../customers/service.js';
import { stockRulesFromJson, stockRulesJsonSql, type StockRule } from '../inventory/service.js';
import { cartContext, lineProductIds, type CartItemRow, type CartRow, type PricedCart, type PricingGroup } from './pricing.js';
import { rememberPricing } from './promise.js';
import { priceShown } from './shown-memo.js';
import type { CartDto } from './schemas.js';
import { carts } from './tables.js';

export type CartRef = { kind: 'guest'; maskedId: string } | { kind: 'customer'; id: number };

export const MASKED = /^[a-f0-9]{32}$/i;
export const cartNotFound = () => notFound('Cart not found', { reason: 'CART_NOT_FOUND' });

export function isBackend(ctx: Ctx): boolean {
  return ctx.actor.kind === 'admin';
}

export const CART_COLUMNS = sql.raw(`id, masked_id AS "maskedId", customer_id AS "customerId", customer_email AS "customerEmail",
  customer_group_id AS "customerGroupId", store_id AS "storeId", is_active AS "isActive", currency, customer_note AS "customerNote",
  reserved_order_id AS "reservedOrderId", coupon_code AS "couponCode", giftcard_codes AS "giftcardCodes",
  shipping_address AS "shippingAddress", billing_address AS "billingAddress", shipping_method AS "shippingMethod",
  payment_method AS "paymentMethod", payment_data AS "paymentData", gift_message AS "giftMessage",
  priced_with AS "pricedWith", created_at AS "createdAt", updated_at AS "updatedAt"`);

// the lines as arrays, in the order of itemFromJson (compact to build and to parse)
export const ITEMS_JSON =
  sql.raw(`COALESCE((SELECT json_agg(json_build_array(i.id, i.product_id, i.child_product_id, i.qty::text, i.buy_request,
    i.custom_price::text, i.gift_message, i.line_key) ORDER BY i.id)
  FROM cart_items i WHERE i.cart_id = carts.id), '[]'::json) AS items,
  ${CATALOG_VERSION_TEXT} AS "catalogVersion"`);

export type ItemJson = [
  number,
  number,
  number | null,
  string,
  CartItemRow['buyRequest'],
  string | null,
  CartItemRow['giftMessage'],
  string | null,
];

export function itemFromJson([id, productId, childProductId, qty, buyRequest, customPrice, giftMessage, lineKey]: ItemJson): CartItemRow {
  return { id, productId, childProductId, qty, buyRequest, customPrice, giftMessage, lineKey };
}

export type LoadedRow = CartRow & { items: ItemJson[]; catalogVersion: string | null };

// every cart request reads its cart, its items, the catalog version and what pricing it needs first: one
// statement, prepared per connection
const cartStatements = {
  masked: statement<LoadedRow & PricingFacts>(
    'carts_load_masked',
    () =>
      sql`SELECT ${CART_COLUMNS}, ${ITEMS_JSON}, ${PRICING_FACTS} FROM carts WHERE masked_id = ${sql.placeholder('m')}::text AND is_active`,
  ),
  // a lock writes the row again (a new row version, no column changed): whoever changes a cart, its lines
  // included, changes its version, which the unlocked placement checks (readCartToPlace)
  maskedLocked: statement<CartRow>(
    'carts_by_masked_locked',
    () => sql`UPDATE carts SET id = id WHERE masked_id = ${sql.placeholder('m')}::text AND is_active RETURNING ${CART_COLUMNS}`,
  ),
  id: statement<LoadedRow & PricingFacts>(
    'carts_load_id',
    () => sql`SELECT ${CART_COLUMNS}, ${ITEMS_JSON}, ${PRICING_FACTS} FROM carts WHERE id = ${sql.placeholder('id')}::int`,
  ),
  idLocked: statement<CartRow>(
    'carts_by_id_locked',
    () => sql`UPDATE carts SET id = id WHERE id = ${sql.placeholder('id')}::int RETURNING ${CART_COLUMNS}`,
  ),
};

/**
 * The row of the cart `ref` names, by the statement of `pair` for its kind: a guest cart by its masked id (one
 * of the right form only, as `m`), a customer cart by its id (as `id`), with `values` besides.
 */
async function cartByRef<T>(
  ctx: Ctx,
  ref: CartRef,
  pair: { masked: Statement<T>; id: Statement<T> },
  values: Record<string, unknown> = {},
): Promise<T | undefined> {
  if (ref.kind === 'customer') return (await pair.id.run(ctx.db, { ...values, id: ref.id }))[0];
  if (!MASKED.test(ref.maskedId)) return undefined;
  return (await pair.masked.run(ctx.db, { ...values, m: ref.maskedId.toLowerCase() }))[0];
}

/** Whether the caller may use this cart (guest carts: whoever holds the masked id). */
function mayUse(ctx: Ctx, ref: CartRef, row: CartRow): boolean {
  if (ref.kind === 'guest') return true;
  const a = ctx.actor;
  if (a.kind === 'customer') return row.customerId === a.customerId;
  if (a.kind === 'admin') return !a.allowedStoreIds || a.allowedStoreIds.includes(row.storeId);
  return false;
}

export interface Loaded {
  cart: CartRow;
  items: CartItemRow[];
  version: bigint;
  /** what pricing reads besides the catalog, read with the cart at ctx.now (facts.ts) */
  facts?: PricingFacts;
}

/** The cart a request names with its items, the catalog version and its pricing facts, when the caller may use it. */
export async function loadCart(ctx: Ctx, ref: CartRef, checked = false): Promise<Loaded | undefined> {
  const row = await cartByRef(ctx, ref, cartStatements, { now: ctx.now.toISOString() });
  if (!row || (!checked && !mayUse(ctx, ref, row))) return undefined;
  const { items, catalogVersion, groupFacts, couponFacts, giftcardFacts, ...cart } = row;
  return {
    cart,
    items: items.map(itemFromJson),
    version: BigInt(catalogVersion ?? '0'),
    facts: { groupFacts, couponFacts, giftcardFacts },
  };
}

/** The cart a request names, when the caller may use it; locked for the transaction with `forUpdate`. */
export async function findCart(ctx: Ctx, ref: CartRef, forUpdate = false): Promise<CartRow | undefined> {
  if (!forUpdate) return (await loadCart(ctx, ref))?.cart;
  const row = await cartByRef(ctx, ref, { masked: cartStatements.maskedLocked, id: cartStatements.idLocked });
  return row && mayUse(ctx, ref, row) ? row : undefined;
}

export async function requireCart(ctx: Ctx, ref: CartRef): Promise<CartRow> {
  const row = await findCart(ctx, ref);
  if (!row) throw cartNotFound();
  return row;
}

/** A cart change's transaction: it commits without waiting for the disk flush (see withTx's `relaxed`). */
export function cartTx<T>(ctx: Ctx, fn: (tx: Ctx) => Promise<T>): Promise<T> {
  return withTx(ctx, fn, { relaxed: true });
}

export function requireActive(cart: CartRow): void {
  if (!cart.isActive) throw badRequest('This cart has been ordered and can no longer change', { reason: 'CART_INACTIVE' });
}

/** Locks cart `id` for the rest of the transaction (a new row version, see maskedLocked), active or not. */
export async function lockCartRow(ctx: Ctx, id: number): Promise<CartRow | undefined> {
  const [row] = await cartStatements.idLocked.run(ctx.db, { id });
  return row;
}

/** Locks a cart already checked for access, for the rest of the transaction. */
export async function lockCart(ctx: Ctx, id: number): Promise<CartRow> {
  const row = await lockCartRow(ctx, id);
  if (!row || !row.isActive) throw cartNotFound();
  return row;
}

const itemsStatement = statement<CartItemRow>(
  'cart_items_of',
  () => sql`SELECT id, product_id AS "productId", child_product_id AS "childProductId", qty::text AS qty,
    buy_request AS "buyRequest", custom_price::text AS "customPrice", gift_message AS "giftMessage", line_key AS "lineKey"
    FROM cart_items WHERE cart_id = ${sql.placeholder('cart')}::int ORDER BY id`,
);

export function itemsOf(ctx: Ctx, cartId: number): Promise<CartItemRow[]> {
  return itemsStatement.run(ctx.db, { cart: cartId });
}

// read after the cart's lock (not with it: a statement that waited for the lock sees the items as they were
// before), with the catalog version the placement prices at
const itemsVersionStatement = statement<{ items: ItemJson[] | null; catalogVersion: string | null }>(
  'cart_items_with_version',
  () => sql`SELECT (SELECT json_agg(json_build_array(i.id, i.product_id, i.child_product_id, i.qty::text, i.buy_request,
      i.custom_price::text, i.gift_message, i.line_key) ORDER BY i.id) FROM cart_items i WHERE i.cart_id = ${sql.placeholder('cart')}::int) AS items,
    ${sql.raw(CATALOG_VERSION_TEXT)} AS "catalogVersion"`,
);

/** The items of a cart (locked by the caller) and the catalog version, in one statement. */
export async function itemsAndVersion(ctx: Ctx, cartId: number): Promise<{ items: CartItemRow[]; version: bigint }> {
  const [row] = await itemsVersionStatement.run(ctx.db, { cart: cartId });
  return { items: (row?.items ?? []).map(itemFromJson), version: BigInt(row?.catalogVersion ?? '0') };
}

// what a placement reads once its cart is locked (after the lock, so the items are as the lock holder left
// them): the items, the catalog version, the stock rules of the items' products, and the customer's group and
// identity
type PlacementRow = {
  items: ItemJson[];
  catalogVersion: string | null;
  stock: Parameters<typeof stockRulesFromJson>[0];
  groupFacts: [number, number] | null;
  customer: Parameters<typeof identityFromJson>[0];
};

const PLACEMENT_READ = sql`${ITEMS_JSON},
    ${stockRulesJsonSql(sql`SELECT i.product_id FROM cart_items i WHERE i.cart_id = carts.id
      UNION ALL SELECT i.child_product_id FROM cart_items i WHERE i.cart_id = carts.id`)} AS stock,
    ${customerPricingGroupSql(sql`carts.customer_id`)} AS "groupFacts", ${customerIdentitySql(sql`carts.customer_id`)} AS customer`;

const placementStatement = statement<PlacementRow>(
  'cart_placement_read',
  () => sql`SELECT ${PLACEMENT_READ} FROM carts WHERE carts.id = ${sql.placeholder('cart')}::int`,
);

// the unlocked placement's read: the cart with its row version (xmin) and all of the above, as of one snapshot
type UnlockedPlacementRow = CartRow & PlacementRow & { rowVersion: string };
const unlockedPlacementStatements = {
  masked: statement<UnlockedPlacementRow>(
    'cart_placement_read_masked',
    () =>
      sql`SELECT ${CART_COLUMNS}, xmin::text AS "rowVersion", ${PLACEMENT_READ} FROM carts
           WHERE masked_id = ${sql.placeholder('m')}::text AND is_active`,
  ),
  id: statement<UnlockedPlacementRow>(
    'cart_placement_read_id',
    () => sql`SELECT ${CART_COLUMNS}, xmin::text AS "rowVersion", ${PLACEMENT_READ} FROM carts WHERE id = ${sql.placeholder('id')}::int`,
  ),
};

export interface PlacementRead {
  items: CartItemRow[];
  version: bigint;
  /** the stock rules of the items' products and child products (`stockRead`; those without a stock row are absent) */
  stock: Map<number, StockRule>;
  stockRead: Set<number>;
  /** the customer's group; undefined for a guest or a customer that no longer exists */
  group?: PricingGroup;
  /** the customer's identity; undefined for a guest or a customer that no longer exists or is not active */
  customer?: CustomerIdentity;
}

function placementFromRow(row: PlacementRow | undefined): PlacementRead {
  const items = (row?.items ?? []).map(itemFromJson);
  return {
    items,
    version: BigInt(row?.catalogVersion ?? '0'),
    stock: stockRulesFromJson(row?.stock ?? null),
    stockRead: new Set(lineProductIds(items)),
    group: pricingGroupFromJson(row?.groupFacts ?? null),
    customer: identityFromJson(row?.customer ?? null),
  };
}

/** What placing the cart `cartId` (locked by the caller) reads besides the cart, in one statement. */
export async function placementRead(ctx: Ctx, cartId: number): Promise<PlacementRead> {
  const [row] = await placementStatement.run(ctx.db, { cart: cartId });
  return placementFromRow(row);
}

/**
 * The active cart a request names, when the caller may use it, with what placing it reads, in one statement and
 * without a lock; with the row version to write it against (every change of a cart or its lines makes a new one).
 */
export async function readCartToPlace(
  ctx: Ctx,
  ref: CartRef,
): Promise<({ cart: CartRow; rowVersion: string } & PlacementRead) | undefined> {
  const row = await cartByRef(ctx, ref, unlockedPlacementStatements);
  if (!row || !row.isActive || !mayUse(ctx, ref, row)) return undefined;
  const { rowVersion, items, catalogVersion, stock, groupFacts, customer, ...cart } = row;
  return { cart, rowVersion, ...placementFromRow({ items, catalogVersion, stock, groupFacts, customer }) };
}

/** Prices a cart the caller is shown, and records what lowered its price (promise.ts). */
export async function shown(ctx: Ctx, loaded: Loaded): Promise<{ ctx: Ctx; priced: PricedCart }> {
  const cctx = cartContext(ctx, loaded.cart);
  const priced = await priceShown(cctx, loaded.cart, loaded.items, loaded.version, loaded.facts);
  await rememberPricing(cctx, priced);
  return { ctx: cctx, priced };
}

/** The cart, priced as the caller is shown it. */
export async function pricedCart(ctx: Ctx, ref: CartRef): Promise<{ ctx: Ctx; priced: PricedCart }> {
  const loaded = await loadCart(ctx, ref);
  if (!loaded) throw cartNotFound();
  return shown(ctx, loaded);
}

/** The cart (already checked for access) after a change, priced: one statement reads it, its items and the catalog version. */
export async function view(ctx: Ctx, cartId: number, opts: { recreated?: boolean } = {}): Promise<CartDto> {
  const loaded = await loadCart(ctx, { kind: 'customer', id: cartId }, true);
  if (!loaded) throw cartNotFound();
  const { ctx: cctx, priced } = await shown(ctx, loaded);
  return cartDto(cctx, priced, opts);
}

export async function touch(ctx: Ctx, cartId: number): Promise<void> {
  await ctx.db.update(carts).set({ updatedAt: ctx.now }).where(eq(carts.id, cartId));
}
