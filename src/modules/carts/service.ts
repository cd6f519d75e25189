/**
 * Customer carts (numeric id, owned by a customer: another customer's cart is a 404 like a missing one) and
 * guest carts (reached only through a random 32-hex-character masked id while they are active). Changes lock
 * the cart row, so concurrent requests on one cart apply one after the other; adding items is one statement
 * that merges a line already there. Every answer is the cart re-priced after the change.
 */
import crypto from 'node:crypto';
import { and, eq, sql, type SQL } from 'drizzle-orm';
import { relaxedCommit, rows as dbRows, statement } from '../../platform/db.js';
import { hasPermission } from '../../platform/auth/access.js';
import { mayRelaxCommit, withTx, type Ctx } from '../../platform/context.js';
import { badRequest, forbidden, notFound } from '../../platform/errors.js';
import { toWire } from '../../platform/money.js';
import type { Page } from '../../platform/pagination.js';
import { CATALOG_VERSION_TEXT, readVersion } from '../../platform/read-cache.js';
import { declareDefaults } from '../../platform/settings.js';
import { couponForCart, limitCouponAttempts, type CartRule } from '../coupons/service.js';
import { getAddress } from '../customers/addresses.js';
import { NOT_LOGGED_IN_GROUP, pricingGroup } from '../customers/groups-service.js';
import { assertCustomerInScope, getCustomerIdentity } from '../customers/service.js';
import { resolveAddressLocation } from '../directory/service.js';
import { limitGiftcardAttempts, usableGiftcard } from '../giftcards/service.js';
import { availabilityFrom, stockRulesAt, type StockRule } from '../inventory/service.js';
import { productsForSale, type SaleProduct } from '../catalog/sale.js';
import { availablePaymentMethods, validatePaymentData } from '../payment/service.js';
import { cartQty, canonicalRequest, MAX_LINE_QTY, resolveAddRequest, type NewLine } from './items.js';
import { cartContext, cartDto, priceCart, stockLinesOf, type CartItemRow, type CartRow, type PricedCart } from './pricing.js';
import { dropLineFiles, storeLineFiles } from './option-files.js';
import { forgetReduction, rememberPricing } from './promise.js';
import type { AddItemBodyT, AddressBodyT, CartDto } from './schemas.js';
import { cartItems, carts, type CartAddress, type GiftMessage } from './tables.js';

declareDefaults({
  'sales/gift_options/allow_order': false,
  'sales/gift_options/allow_items': false,
  /** most lines a cart may hold */
  'checkout/cart/max_items': 100,
});

export type CartRef = { kind: 'guest'; maskedId: string } | { kind: 'customer'; id: number };

export const MASKED = /^[a-f0-9]{32}$/i;
export const cartNotFound = () => notFound('Cart not found', { reason: 'CART_NOT_FOUND' });

function isBackend(ctx: Ctx): boolean {
  return ctx.actor.kind === 'admin';
}

const CART_COLUMNS = sql.raw(`id, masked_id AS "maskedId", customer_id AS "customerId", customer_email AS "customerEmail",
  customer_group_id AS "customerGroupId", store_id AS "storeId", is_active AS "isActive", currency, customer_note AS "customerNote",
  reserved_order_id AS "reservedOrderId", coupon_code AS "couponCode", giftcard_codes AS "giftcardCodes",
  shipping_address AS "shippingAddress", billing_address AS "billingAddress", shipping_method AS "shippingMethod",
  payment_method AS "paymentMethod", payment_data AS "paymentData", gift_message AS "giftMessage",
  priced_with AS "pricedWith", created_at AS "createdAt", updated_at AS "updatedAt"`);

// the lines as arrays, in the order of itemFromJson (compact to build and to parse)
const ITEMS_JSON = sql.raw(`COALESCE((SELECT json_agg(json_build_array(i.id, i.product_id, i.child_product_id, i.qty::text, i.buy_request,
    i.custom_price::text, i.gift_message, i.line_key) ORDER BY i.id)
  FROM cart_items i WHERE i.cart_id = carts.id), '[]'::json) AS items,
  ${CATALOG_VERSION_TEXT} AS "catalogVersion"`);

type ItemJson = [number, number, number | null, string, CartItemRow['buyRequest'], string | null, CartItemRow['giftMessage'], string | null];

function itemFromJson([id, productId, childProductId, qty, buyRequest, customPrice, giftMessage, lineKey]: ItemJson): CartItemRow {
  return { id, productId, childProductId, qty, buyRequest, customPrice, giftMessage, lineKey };
}

type LoadedRow = CartRow & { items: ItemJson[]; catalogVersion: string | null };

// every cart request reads its cart, its items and the catalog version first: one statement, prepared per connection
const cartStatements = {
  masked: statement<LoadedRow>('carts_load_masked', () => sql`SELECT ${CART_COLUMNS}, ${ITEMS_JSON} FROM carts WHERE masked_id = ${sql.placeholder('m')}::text AND is_active`),
  maskedLocked: statement<CartRow>('carts_by_masked_locked', () => sql`SELECT ${CART_COLUMNS} FROM carts WHERE masked_id = ${sql.placeholder('m')}::text AND is_active FOR UPDATE`),
  id: statement<LoadedRow>('carts_load_id', () => sql`SELECT ${CART_COLUMNS}, ${ITEMS_JSON} FROM carts WHERE id = ${sql.placeholder('id')}::int`),
  idLocked: statement<CartRow>('carts_by_id_locked', () => sql`SELECT ${CART_COLUMNS} FROM carts WHERE id = ${sql.placeholder('id')}::int FOR UPDATE`),
};

/** Whether the caller may use this cart (guest carts: whoever holds the masked id). */
function mayUse(ctx: Ctx, ref: CartRef, row: CartRow): boolean {
  if (ref.kind === 'guest') return true;
  const a = ctx.actor;
  if (a.kind === 'customer') return row.customerId === a.customerId;
  if (a.kind === 'admin') return !a.allowedStoreIds || a.allowedStoreIds.includes(row.storeId);
  return false;
}

interface Loaded {
  cart: CartRow;
  items: CartItemRow[];
  version: bigint;
}

/** The cart a request names with its items and the catalog version, when the caller may use it. */
async function loadCart(ctx: Ctx, ref: CartRef, checked = false): Promise<Loaded | undefined> {
  let row: LoadedRow | undefined;
  if (ref.kind === 'guest') {
    if (!MASKED.test(ref.maskedId)) return undefined;
    [row] = await cartStatements.masked.run(ctx.db, { m: ref.maskedId.toLowerCase() });
  } else {
    [row] = await cartStatements.id.run(ctx.db, { id: ref.id });
  }
  if (!row || (!checked && !mayUse(ctx, ref, row))) return undefined;
  const { items, catalogVersion, ...cart } = row;
  return { cart, items: items.map(itemFromJson), version: BigInt(catalogVersion ?? '0') };
}

/** The cart a request names, when the caller may use it; locked for the transaction with `forUpdate`. */
export async function findCart(ctx: Ctx, ref: CartRef, forUpdate = false): Promise<CartRow | undefined> {
  if (!forUpdate) return (await loadCart(ctx, ref))?.cart;
  let row: CartRow | undefined;
  if (ref.kind === 'guest') {
    if (!MASKED.test(ref.maskedId)) return undefined;
    [row] = await cartStatements.maskedLocked.run(ctx.db, { m: ref.maskedId.toLowerCase() });
  } else {
    [row] = await cartStatements.idLocked.run(ctx.db, { id: ref.id });
  }
  return row && mayUse(ctx, ref, row) ? row : undefined;
}

async function requireCart(ctx: Ctx, ref: CartRef): Promise<CartRow> {
  const row = await findCart(ctx, ref);
  if (!row) throw cartNotFound();
  return row;
}

/** A cart change's transaction: it commits without waiting for the disk flush (see withTx's `relaxed`). */
function cartTx<T>(ctx: Ctx, fn: (tx: Ctx) => Promise<T>): Promise<T> {
  return withTx(ctx, fn, { relaxed: true });
}

function requireActive(cart: CartRow): void {
  if (!cart.isActive) throw badRequest('This cart has been ordered and can no longer change', { reason: 'CART_INACTIVE' });
}

/** Locks a cart already checked for access, for the rest of the transaction. */
async function lockCart(ctx: Ctx, id: number): Promise<CartRow> {
  const [row] = await cartStatements.idLocked.run(ctx.db, { id });
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

/** Prices a cart the caller is shown, and records what lowered its price (promise.ts). */
async function shown(ctx: Ctx, loaded: Loaded): Promise<{ ctx: Ctx; priced: PricedCart }> {
  const cctx = cartContext(ctx, loaded.cart);
  const priced = await priceCart(cctx, loaded.cart, loaded.items, { version: loaded.version });
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
async function view(ctx: Ctx, cartId: number, opts: { recreated?: boolean } = {}): Promise<CartDto> {
  const loaded = await loadCart(ctx, { kind: 'customer', id: cartId }, true);
  if (!loaded) throw cartNotFound();
  const { ctx: cctx, priced } = await shown(ctx, loaded);
  return cartDto(cctx, priced, opts);
}

/** The customer's newest active cart in the current store view, if any. */
export async function activeCustomerCart(ctx: Ctx, customerId: number): Promise<CartRef | undefined> {
  const [row] = await ctx.db
    .select({ id: carts.id })
    .from(carts)
    .where(and(eq(carts.customerId, customerId), eq(carts.isActive, true), eq(carts.storeId, ctx.store.storeId)))
    .orderBy(sql`${carts.updatedAt} DESC, ${carts.id} DESC`)
    .limit(1);
  return row ? { kind: 'customer', id: row.id } : undefined;
}

export async function getCart(ctx: Ctx, ref: CartRef): Promise<CartDto> {
  const { ctx: cctx, priced } = await pricedCart(ctx, ref);
  return cartDto(cctx, priced);
}

// ---- create ----

function storeFor(ctx: Ctx, storeId: number | undefined): Ctx {
  if (storeId === undefined) return ctx;
  const store = ctx.app.settings.store(storeId);
  if (!store || !store.isActive || storeId === 0) throw badRequest(`Unknown store: ${storeId}`, { reason: 'UNKNOWN_STORE', details: { field: 'storeId' } });
  const a = ctx.actor;
  if (a.kind === 'admin' && a.allowedStoreIds && !a.allowedStoreIds.includes(storeId)) throw forbidden('Access denied to this store');
  return { ...ctx, store: { ...ctx.app.settings.resolveStore(store.code, undefined), explicit: true } };
}

async function insertCart(ctx: Ctx, values: { customerId: number | null; masked: boolean; customerEmail?: string | null }): Promise<number> {
  const group = values.customerId === null ? { groupId: NOT_LOGGED_IN_GROUP } : await pricingGroup(ctx, { customerId: values.customerId });
  const [row] = await ctx.db
    .insert(carts)
    .values({
      maskedId: values.masked ? crypto.randomBytes(16).toString('hex') : null,
      customerId: values.customerId,
      customerEmail: values.customerEmail ?? null,
      customerGroupId: group.groupId,
      storeId: ctx.store.storeId,
      currency: ctx.store.currency,
      // nothing promised yet (null is left for carts from before such promises were recorded)
      pricedWith: {},
      createdAt: ctx.now,
      updatedAt: ctx.now,
    })
    .returning({ id: carts.id });
  return row.id;
}

export async function createGuestCart(ctx: Ctx, body: { storeId?: number }): Promise<CartDto> {
  const sctx = storeFor(ctx, body.storeId);
  return view(sctx, await insertCart(sctx, { customerId: null, masked: true }));
}

/** A new cart for the calling customer, or for `customerId` when an admin creates it (none: a cart of no one). */
export async function createCustomerCart(ctx: Ctx, body: { storeId?: number; customerId?: number }): Promise<CartDto> {
  const sctx = storeFor(ctx, body.storeId);
  const a = ctx.actor;
  let customerId: number | null = null;
  let email: string | null = null;
  if (a.kind === 'customer') {
    customerId = a.customerId;
    email = a.email;
  } else if (body.customerId !== undefined) {
    const id = body.customerId;
    // a customer of another website is as unknown to a store-limited principal
    const c = await assertCustomerInScope(ctx, id).then(() => getCustomerIdentity(ctx, id), () => undefined);
    if (!c) throw badRequest(`Customer ${body.customerId} does not exist`, { reason: 'CUSTOMER_NOT_FOUND', details: { field: 'customerId' } });
    customerId = c.id;
    email = c.email;
  }
  return view(sctx, await insertCart(sctx, { customerId, masked: false, customerEmail: email }));
}

export interface CartListQuery {
  customerId?: number;
  storeId?: number;
  isActive?: boolean;
}

/**
 * Carts, most recently changed first: a customer's own, or any for the back office (limited to its store views),
 * each priced as it would be shown now (without recording what it showed: a list is not the shopper's view). The
 * page and its lines are read in one statement; pricing reads the catalog through its cache.
 */
export async function listCarts(ctx: Ctx, query: CartListQuery, page: Page): Promise<{ items: CartDto[]; total: number }> {
  const a = ctx.actor;
  const where = [sql`TRUE`];
  if (a.kind === 'customer') where.push(sql`customer_id = ${a.customerId}`);
  else if (a.kind !== 'admin') return { items: [], total: 0 };
  else {
    if (query.customerId !== undefined) where.push(sql`customer_id = ${query.customerId}`);
    if (a.allowedStoreIds) where.push(sql`store_id = ANY(${`{${a.allowedStoreIds.join(',')}}`}::int[])`);
  }
  if (query.storeId !== undefined) where.push(sql`store_id = ${query.storeId}`);
  if (query.isActive !== undefined) where.push(sql`is_active = ${query.isActive}`);
  const filter = sql.join(where, sql` AND `);
  const rows = await dbRows<LoadedRow & { total: string }>(
    ctx.db,
    sql`SELECT ${CART_COLUMNS}, ${ITEMS_JSON}, count(*) OVER ()::text AS total FROM carts WHERE ${filter}
      ORDER BY updated_at DESC, id DESC LIMIT ${page.size} OFFSET ${page.offset}`,
  );
  const total = rows.length ? Number(rows[0].total) : page.offset > 0 ? await countCarts(ctx, filter) : 0;
  const items: CartDto[] = [];
  for (const { items: lines, catalogVersion, total: _t, ...cart } of rows) {
    const cctx = cartContext(ctx, cart);
    const priced = await priceCart(cctx, cart, lines.map(itemFromJson), { version: BigInt(catalogVersion ?? '0') });
    items.push(cartDto(cctx, priced));
  }
  return { items, total };
}

async function countCarts(ctx: Ctx, filter: SQL): Promise<number> {
  const [row] = await dbRows<{ n: string }>(ctx.db, sql`SELECT count(*)::text AS n FROM carts WHERE ${filter}`);
  return Number(row?.n ?? 0);
}

/** The signed-in customer's newest active cart in the current store view, or a new empty one. */
export async function customerCart(ctx: Ctx): Promise<CartDto> {
  const a = ctx.actor;
  if (a.kind !== 'customer') throw cartNotFound();
  const ref = await activeCustomerCart(ctx, a.customerId);
  return ref ? getCart(ctx, ref) : createCustomerCart(ctx, {});
}

/**
 * Gives a cart to a customer: the signed-in customer takes over the guest cart they filled before signing in, or
 * the back office gives any cart to any customer. The cart leaves the guest path (its masked id stops working, so
 * whoever else holds it no longer sees the customer's addresses) and is priced for the customer's group.
 */
export async function assignCustomer(ctx: Ctx, ref: CartRef, body: { customerId: number }): Promise<CartDto> {
  const a = ctx.actor;
  if (a.kind === 'customer' && body.customerId !== a.customerId) {
    throw forbidden('A customer can take a cart only for themselves', { reason: 'CART_ASSIGN_FORBIDDEN' });
  }
  // a store-limited principal hands only carts of its stores (a guest cart too) to customers of its websites
  if (a.kind === 'admin') await assertCustomerInScope(ctx, body.customerId);
  const customer = await getCustomerIdentity(ctx, body.customerId);
  if (!customer) throw notFound(`Customer ${body.customerId} not found`, { reason: 'CUSTOMER_NOT_FOUND' });
  const id = await cartTx(ctx, async (tx) => {
    const cart = await findCart(tx, ref, true);
    if (!cart || (a.kind === 'admin' && a.allowedStoreIds && !a.allowedStoreIds.includes(cart.storeId))) throw cartNotFound();
    requireActive(cart);
    const group = await pricingGroup(tx, { customerId: customer.id });
    await tx.db
      .update(carts)
      .set({ customerId: customer.id, customerEmail: customer.email, customerGroupId: group.groupId, maskedId: null, updatedAt: tx.now })
      .where(eq(carts.id, cart.id));
    return cart.id;
  });
  return view(ctx, id);
}

// ---- items ----

type StockCheckLine = Pick<CartItemRow, 'productId' | 'childProductId' | 'buyRequest'> & { qty: string | number; lineKey?: string | null };

/**
 * Refuses lines whose products cannot be had in the cart's resulting quantities (only the products of `touched`
 * lines are judged: an item that ran out since it was added does not block adding another). Answers with what
 * it read, for pricing the cart afterwards.
 */
async function assertAvailable(
  ctx: Ctx,
  lines: StockCheckLine[],
  touched: Set<number>,
  version: bigint,
): Promise<{ products: Map<number, SaleProduct>; stock: Map<number, StockRule> }> {
  const products = await productsForSale(ctx, lines.flatMap((l) => (l.childProductId ? [l.productId, l.childProductId] : [l.productId])), version);
  const stockLines = stockLinesOf(lines, products);
  const wanted = new Set<number>();
  lines.forEach((l, i) => {
    if (touched.has(l.productId)) for (const p of stockLines[i]) wanted.add(p.productId);
  });
  const flat = stockLines.flat();
  const stock = await stockRulesAt(ctx, version, flat.map((l) => l.productId));
  for (const r of availabilityFrom(stock, flat)) {
    if (r.available || !wanted.has(r.productId)) continue;
    const sku = products.get(r.productId)?.sku ?? String(r.productId);
    throw badRequest(`${sku}: ${r.message ?? 'not available'}`, { reason: r.reason ?? 'OUT_OF_STOCK', details: { sku, productId: r.productId } });
  }
  return { products, stock };
}

function assertCustomPriceAllowed(ctx: Ctx): void {
  const a = ctx.actor;
  if (a.kind !== 'admin' || !hasPermission(a.permissions, 'carts', 'write')) throw forbidden('Only the back office may set a custom price', { reason: 'CUSTOM_PRICE_FORBIDDEN' });
}

async function touch(ctx: Ctx, cartId: number): Promise<void> {
  await ctx.db.update(carts).set({ updatedAt: ctx.now }).where(eq(carts.id, cartId));
}

/** What makes two additions the same line: the product, the child and the choices (null: never merged). */
function lineKey(l: NewLine, customPrice: number | undefined): string | null {
  if (customPrice !== undefined) return null;
  return crypto.createHash('sha256').update(`${l.productId}:${l.childProductId ?? ''}:${canonicalRequest(l.buyRequest)}`).digest('hex');
}

/**
 * Adds what the body asks for. The cart and its items are read in one statement, the choices checked against
 * the (cached) catalog and the resulting quantities against stock, and the lines written in one statement that
 * raises the qty of a line that is already there (so parallel additions of one product end in one line). A
 * guest cart that no longer exists (ordered, or never did) is replaced by a new one, and the answer says so
 * with `cartRecreated`. Stock is checked, not reserved: placing the order reserves it.
 */
export async function addItem(ctx: Ctx, ref: CartRef, body: AddItemBodyT): Promise<CartDto> {
  if (body.customPrice !== undefined) assertCustomPriceAllowed(ctx);
  let loaded = await loadCart(ctx, ref);
  let recreated = false;
  if (!loaded && ref.kind === 'guest') {
    const [cart] = await ctx.db.select().from(carts).where(eq(carts.id, await insertCart(ctx, { customerId: null, masked: true })));
    loaded = { cart, items: [], version: await readVersion(ctx.db, 'catalog') };
    recreated = true;
  }
  if (!loaded) throw cartNotFound();
  const { cart, items, version } = loaded;
  requireActive(cart);
  const cctx = cartContext(ctx, cart);
  const newLines = (await resolveAddRequest(cctx, body, version)).map((l) => ({ ...l, key: lineKey(l, body.customPrice) }));

  // the cart as it will be: merged lines get the added qty
  const projected: StockCheckLine[] = items.map((r) => ({ ...r }));
  const fresh: typeof newLines = [];
  for (const l of newLines) {
    const same = l.key && (projected.find((r) => r.lineKey === l.key) ?? fresh.find((f) => f.key === l.key));
    if (same) same.qty = String(cartQty(Number(same.qty) + Number(l.qty)));
    else fresh.push(l);
  }
  const max = cctx.app.settings.getInt('checkout/cart/max_items', cart.storeId) || 100;
  if (items.length + fresh.length > max) throw badRequest(`A cart holds at most ${max} lines`, { reason: 'CART_FULL' });
  const checked = await assertAvailable(cctx, [...projected, ...fresh], new Set(newLines.map((l) => l.productId)), version);

  // uploaded files are stored only now that the line is accepted, and dropped again if its write fails
  await storeLineFiles(cctx, newLines);
  let written: CartItemRow[];
  try {
    written = await writeLines(cctx, cart.id, newLines, body.customPrice);
    if (!written.length) throw cartNotFound();
  } catch (err) {
    await dropLineFiles(cctx, newLines);
    throw err;
  }
  const byId = new Map(written.map((r) => [r.id, r]));
  const rows = [...items.map((r) => byId.get(r.id) ?? r), ...written.filter((r) => !items.some((i) => i.id === r.id))];
  const updated = { ...cart, updatedAt: cctx.now };
  const availability = availabilityFrom(checked.stock, stockLinesOf(rows, checked.products).flat());
  const priced = await priceCart(cctx, updated, rows, { version, products: checked.products, availability });
  await rememberPricing(cctx, priced);
  return cartDto(cctx, priced, { recreated });
}

/**
 * Inserts the lines, or raises the qty of a line with the same key, and touches the cart, in one statement
 * that writes nothing unless the cart is still active. The lines travel as one JSON array, so the statement
 * has one shape for any number of lines and is prepared once per connection. Answers with the lines written.
 */
const writeLinesStatement = statement<CartItemRow>(
  'cart_items_write',
  () => sql`WITH cart AS (UPDATE carts SET updated_at = ${sql.placeholder('now')}::timestamptz WHERE id = ${sql.placeholder('cart')}::int AND is_active RETURNING id)
    INSERT INTO cart_items (cart_id, product_id, child_product_id, qty, buy_request, custom_price, line_key, created_at)
    SELECT cart.id, v.product_id, v.child_product_id, v.qty, v.buy_request, v.custom_price, v.line_key, ${sql.placeholder('now')}::timestamptz
      FROM cart, ${relaxedCommit('relaxed')}, jsonb_to_recordset(${sql.placeholder('lines')}::jsonb)
        AS v (product_id int, child_product_id int, qty numeric, buy_request jsonb, custom_price numeric, line_key text)
    ON CONFLICT (cart_id, line_key) DO UPDATE SET qty = cart_items.qty + EXCLUDED.qty
      WHERE cart_items.qty + EXCLUDED.qty <= ${sql.raw(String(MAX_LINE_QTY))}
    RETURNING id, product_id AS "productId", child_product_id AS "childProductId", qty::text AS qty,
      buy_request AS "buyRequest", custom_price::text AS "customPrice", gift_message AS "giftMessage", line_key AS "lineKey"`,
);

async function writeLines(ctx: Ctx, cartId: number, lines: (NewLine & { key: string | null })[], customPrice: number | undefined): Promise<CartItemRow[]> {
  const values = lines.map((l) => ({
    product_id: l.productId,
    child_product_id: l.childProductId,
    // numbers as text: the qty and price reach NUMERIC without passing through a binary float
    qty: String(l.qty),
    buy_request: l.buyRequest,
    custom_price: customPrice === undefined ? null : String(customPrice),
    line_key: l.key,
  }));
  const written = await writeLinesStatement.run(ctx.db, { now: ctx.now.toISOString(), cart: cartId, lines: JSON.stringify(values), relaxed: mayRelaxCommit(ctx) });
  if (written.length && written.length < lines.length) {
    // a parallel addition took the line past the most one line holds
    throw badRequest(`qty must be a whole number from 1 to ${MAX_LINE_QTY}`, { reason: 'INVALID_CART_ITEM', details: { field: 'qty' } });
  }
  return written;
}

export async function updateItem(ctx: Ctx, ref: CartRef, itemId: number, body: { qty?: number; customPrice?: number | null }): Promise<CartDto> {
  if (body.customPrice !== undefined) assertCustomPriceAllowed(ctx);
  const cart = await requireCart(ctx, ref);
  requireActive(cart);
  const cctx = cartContext(ctx, cart);
  await cartTx(cctx, async (tx) => {
    await lockCart(tx, cart.id);
    const rows = await itemsOf(tx, cart.id);
    const item = rows.find((r) => r.id === itemId);
    if (!item) throw notFound('Cart item not found', { reason: 'CART_ITEM_NOT_FOUND' });
    const set: Partial<CartItemRow> = {};
    if (body.qty !== undefined) set.qty = String(cartQty(body.qty));
    if (body.customPrice !== undefined) set.customPrice = body.customPrice === null ? null : String(body.customPrice);
    if (!Object.keys(set).length) return;
    if (set.qty !== undefined && Number(set.qty) > Number(item.qty)) {
      const after = rows.map((r) => (r.id === itemId ? { ...r, qty: set.qty! } : r));
      await assertAvailable(tx, after, new Set([item.productId]), await readVersion(tx.db, 'catalog'));
    }
    await tx.db.update(cartItems).set(set).where(eq(cartItems.id, itemId));
    await touch(tx, cart.id);
  });
  return view(ctx, cart.id);
}

export async function removeItem(ctx: Ctx, ref: CartRef, itemId: number): Promise<CartDto> {
  const cart = await requireCart(ctx, ref);
  requireActive(cart);
  await cartTx(ctx, async (tx) => {
    await lockCart(tx, cart.id);
    const gone = await tx.db.delete(cartItems).where(and(eq(cartItems.id, itemId), eq(cartItems.cartId, cart.id))).returning({ id: cartItems.id });
    if (!gone.length) throw notFound('Cart item not found', { reason: 'CART_ITEM_NOT_FOUND' });
    await touch(tx, cart.id);
  });
  return view(ctx, cart.id);
}

// ---- coupon and gift cards ----


export async function applyCoupon(ctx: Ctx, ref: CartRef, body: { couponCode?: string; code?: string }): Promise<CartDto> {
  const code = (body.couponCode ?? body.code ?? '').trim();
  if (!code) throw badRequest('couponCode is required', { reason: 'VALIDATION_FAILED', details: { field: 'couponCode' } });
  const cart = await requireCart(ctx, ref);
  requireActive(cart);
  // shares the budget of /coupons/validate: both can probe codes
  if (!isBackend(ctx)) await limitCouponAttempts(ctx);
  const cctx = cartContext(ctx, cart);
  const group = await pricingGroup(cctx, { customerId: cart.customerId, groupId: cart.customerGroupId });
  const found = await couponForCart(cctx, code, { customerId: cart.customerId, customerGroupId: group.groupId, websiteId: cctx.store.websiteId });
  if (!found.ok) throw badRequest(found.message, { error: 'invalid_coupon', reason: 'INVALID_COUPON' });
  // a rule whose conditions the cart does not meet (its minimum subtotal) is refused too
  const priced = await priceCart(cctx, { ...cart, couponCode: found.rule.code }, await itemsOf(ctx, cart.id));
  if (!priced.totals.discountApplied) {
    const min = found.rule.minimumSubtotal;
    throw badRequest(min ? `The coupon needs a subtotal of at least ${min.toFixed(2)}` : 'The coupon does not apply to this cart', {
      error: 'invalid_coupon',
      reason: 'COUPON_NOT_APPLICABLE',
    });
  }
  await cartTx(ctx, async (tx) => {
    await lockCart(tx, cart.id);
    await tx.db.update(carts).set({ couponCode: found.rule.code, updatedAt: tx.now }).where(eq(carts.id, cart.id));
  });
  return view(ctx, cart.id);
}

export async function removeCoupon(ctx: Ctx, ref: CartRef): Promise<void> {
  const cart = await requireCart(ctx, ref);
  requireActive(cart);
  await cartTx(ctx, async (tx) => {
    await lockCart(tx, cart.id);
    await tx.db.update(carts).set({ couponCode: null, updatedAt: tx.now }).where(eq(carts.id, cart.id));
    await forgetReduction(tx, cart.id, { coupon: true });
  });
}

export async function applyGiftcard(ctx: Ctx, ref: CartRef, body: { giftcardCode?: string; code?: string }): Promise<CartDto> {
  const code = (body.giftcardCode ?? body.code ?? '').trim();
  if (!code) throw badRequest('giftcardCode is required', { reason: 'VALIDATION_FAILED', details: { field: 'giftcardCode' } });
  const cart = await requireCart(ctx, ref);
  requireActive(cart);
  // shares the budget of the GraphQL balance check: both can probe codes
  if (!isBackend(ctx)) await limitGiftcardAttempts(ctx);
  const card = await usableGiftcard(cartContext(ctx, cart), code);
  await cartTx(ctx, async (tx) => {
    const locked = await lockCart(tx, cart.id);
    if (locked.giftcardCodes.some((c) => c.toUpperCase() === card.code.toUpperCase())) {
      throw badRequest(`Gift card ${card.code} is already applied to this cart`, { reason: 'GIFTCARD_ALREADY_APPLIED' });
    }
    if (locked.giftcardCodes.length >= 10) throw badRequest('A cart takes at most 10 gift cards', { reason: 'TOO_MANY_GIFTCARDS' });
    await tx.db
      .update(carts)
      .set({ giftcardCodes: [...locked.giftcardCodes, card.code], updatedAt: tx.now })
      .where(eq(carts.id, cart.id));
  });
  return view(ctx, cart.id);
}

export async function removeGiftcard(ctx: Ctx, ref: CartRef, code: string): Promise<void> {
  const cart = await requireCart(ctx, ref);
  requireActive(cart);
  await cartTx(ctx, async (tx) => {
    const locked = await lockCart(tx, cart.id);
    const left = locked.giftcardCodes.filter((c) => c.toUpperCase() !== code.trim().toUpperCase());
    if (left.length === locked.giftcardCodes.length) throw badRequest(`Gift card ${code} is not applied to this cart`, { reason: 'GIFTCARD_NOT_APPLIED' });
    await tx.db.update(carts).set({ giftcardCodes: left, updatedAt: tx.now }).where(eq(carts.id, cart.id));
    await forgetReduction(tx, cart.id, { giftcard: code.trim() });
  });
}

// ---- addresses and methods ----

const ADDRESS_REQUIRED = ['firstName', 'lastName', 'street', 'city', 'postcode', 'countryId', 'telephone'] as const;

/** A cart address from the body (Maho's camelCase keys, or the address book's lower-case ones), checked. */
export async function addressFrom(ctx: Ctx, cart: CartRow, body: AddressBodyT): Promise<CartAddress> {
  if (body.customerAddressId !== undefined) {
    if (cart.customerId === null) throw badRequest('Only a customer cart can use a saved address', { reason: 'INVALID_ADDRESS', details: { field: 'customerAddressId' } });
    const saved = await getAddress(ctx, cart.customerId, body.customerAddressId).catch(() => {
      throw badRequest(`Address ${body.customerAddressId} is not one of the customer's addresses`, { reason: 'INVALID_ADDRESS', details: { field: 'customerAddressId' } });
    });
    return {
      firstName: saved.firstname,
      lastName: saved.lastname,
      company: saved.company ?? null,
      street: saved.street,
      city: saved.city,
      postcode: saved.postcode ?? '',
      countryId: saved.countryId,
      region: saved.region ?? null,
      regionId: saved.regionId ?? null,
      telephone: saved.telephone,
      email: body.email ?? null,
      customerAddressId: saved.id,
    };
  }
  const street = typeof body.street === 'string' ? body.street.split('\n') : body.street;
  const values = {
    firstName: (body.firstName ?? body.firstname)?.trim(),
    lastName: (body.lastName ?? body.lastname)?.trim(),
    street: street?.map((s) => s.trim()).filter(Boolean),
    city: body.city?.trim(),
    postcode: body.postcode?.trim(),
    countryId: body.countryId?.trim(),
    telephone: body.telephone?.trim(),
  };
  const missing = ADDRESS_REQUIRED.filter((k) => {
    const v = values[k];
    return v === undefined || v === '' || (Array.isArray(v) && !v.length);
  });
  if (missing.length) throw badRequest(`Missing required address fields: ${missing.join(', ')}`, { reason: 'INVALID_ADDRESS', details: { fields: missing } });
  if (body.email !== undefined && !/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(body.email)) {
    throw badRequest('email is not a valid email address', { reason: 'INVALID_ADDRESS', details: { field: 'email' } });
  }
  const loc = resolveAddressLocation(ctx, { countryId: values.countryId!, regionId: body.regionId ?? null, region: body.region ?? null });
  return {
    firstName: values.firstName!,
    lastName: values.lastName!,
    company: body.company?.trim() || null,
    street: values.street!,
    city: values.city!,
    postcode: values.postcode!,
    countryId: loc.countryId,
    region: loc.region,
    regionId: loc.regionId,
    telephone: values.telephone!,
    email: body.email ?? null,
  };
}

async function updateCart(ctx: Ctx, ref: CartRef, change: (cart: CartRow, cctx: Ctx) => Promise<Partial<CartRow>>): Promise<CartDto> {
  const cart = await requireCart(ctx, ref);
  requireActive(cart);
  const cctx = cartContext(ctx, cart);
  const set = await change(cart, cctx);
  await cartTx(ctx, async (tx) => {
    await lockCart(tx, cart.id);
    await tx.db.update(carts).set({ ...set, updatedAt: tx.now }).where(eq(carts.id, cart.id));
  });
  return view(ctx, cart.id);
}

function guestEmail(cart: CartRow, address: CartAddress): Partial<CartRow> {
  return cart.customerId === null && address.email ? { customerEmail: address.email } : {};
}

export function setShippingAddress(ctx: Ctx, ref: CartRef, body: AddressBodyT): Promise<CartDto> {
  return updateCart(ctx, ref, async (cart, cctx) => {
    const address = await addressFrom(cctx, cart, body);
    return { shippingAddress: address, ...guestEmail(cart, address) };
  });
}

export function setBillingAddress(ctx: Ctx, ref: CartRef, body: AddressBodyT): Promise<CartDto> {
  return updateCart(ctx, ref, async (cart, cctx) => {
    if (body.sameAsShipping) {
      if (!cart.shippingAddress) throw badRequest('The cart has no shipping address to copy', { reason: 'INVALID_ADDRESS', details: { field: 'sameAsShipping' } });
      return { billingAddress: cart.shippingAddress };
    }
    const address = await addressFrom(cctx, cart, body);
    return { billingAddress: address, ...guestEmail(cart, address) };
  });
}

/** The shipping rates for the cart's address (or the one sent, which becomes the cart's shipping address). */
export async function estimateShipping(ctx: Ctx, ref: CartRef, body: { address?: AddressBodyT }): Promise<{ ctx: Ctx; priced: PricedCart }> {
  if (body.address) await setShippingAddress(ctx, ref, body.address);
  return pricedCart(ctx, ref);
}

export function setShippingMethod(ctx: Ctx, ref: CartRef, body: { carrierCode?: string; methodCode?: string }): Promise<CartDto> {
  return updateCart(ctx, ref, async (cart, cctx) => {
    if (!body.carrierCode || !body.methodCode) {
      throw badRequest('carrierCode and methodCode are required', { reason: 'VALIDATION_FAILED', details: { fields: ['carrierCode', 'methodCode'].filter((k) => !body[k as 'carrierCode']) } });
    }
    if (!cart.shippingAddress) throw badRequest('Set a shipping address first', { reason: 'SHIPPING_ADDRESS_MISSING' });
    const code = `${body.carrierCode}_${body.methodCode}`;
    const priced = await priceCart(cctx, cart, await itemsOf(ctx, cart.id));
    if (priced.isVirtual) throw badRequest('This cart holds only virtual items and needs no shipping', { reason: 'NO_SHIPPING_NEEDED' });
    if (!priced.shippingRates.some((r) => r.code === code)) {
      throw badRequest(`Shipping method ${code} is not available for this address`, { reason: 'SHIPPING_METHOD_UNAVAILABLE' });
    }
    return { shippingMethod: code };
  });
}

export function setPaymentMethod(ctx: Ctx, ref: CartRef, body: { methodCode?: string; code?: string; additionalData?: Record<string, unknown> }): Promise<CartDto> {
  return updateCart(ctx, ref, async (cart, cctx) => {
    const code = body.methodCode ?? body.code;
    if (!code) throw badRequest('methodCode is required', { reason: 'VALIDATION_FAILED', details: { field: 'methodCode' } });
    const priced = await priceCart(cctx, cart, await itemsOf(ctx, cart.id));
    const methods = availablePaymentMethods(cctx, {
      storeId: cart.storeId,
      countryId: cart.billingAddress?.countryId ?? cart.shippingAddress?.countryId ?? null,
      baseGrandTotal: priced.base.grandTotal,
    });
    if (!methods.some((m) => m.code === code)) throw badRequest(`Payment method ${code} is not available for this cart`, { reason: 'PAYMENT_METHOD_UNAVAILABLE' });
    return { paymentMethod: code, paymentData: validatePaymentData(cctx, code, body.additionalData) };
  });
}

// ---- gift messages ----

function requireGiftOption(ctx: Ctx, cart: CartRow, path: 'allow_order' | 'allow_items'): void {
  if (!ctx.app.settings.getBool(`sales/gift_options/${path}`, cart.storeId)) {
    throw badRequest(path === 'allow_order' ? 'Gift messages are not enabled for orders' : 'Gift messages are not enabled for items', { reason: 'GIFT_MESSAGES_DISABLED' });
  }
}

export function setGiftMessage(ctx: Ctx, ref: CartRef, message: GiftMessage | null): Promise<CartDto> {
  return updateCart(ctx, ref, async (cart) => {
    requireGiftOption(ctx, cart, 'allow_order');
    return { giftMessage: message };
  });
}

export async function setItemGiftMessage(ctx: Ctx, ref: CartRef, itemId: number, message: GiftMessage | null): Promise<CartDto> {
  const cart = await requireCart(ctx, ref);
  requireActive(cart);
  requireGiftOption(ctx, cart, 'allow_items');
  await cartTx(ctx, async (tx) => {
    await lockCart(tx, cart.id);
    const done = await tx.db
      .update(cartItems)
      .set({ giftMessage: message })
      .where(and(eq(cartItems.id, itemId), eq(cartItems.cartId, cart.id)))
      .returning({ id: cartItems.id });
    if (!done.length) throw notFound('Cart item not found', { reason: 'CART_ITEM_NOT_FOUND' });
    await touch(tx, cart.id);
  });
  return view(ctx, cart.id);
}


// ---- coupon preview ----

/**
 * What a coupon would take off a cart (POST /coupons/validate with cartId): the cart priced as if the code
 * were applied. The cart is named by its numeric id (the caller's own, or any for the back office) or by a
 * guest cart's masked id; any other is refused with 400 "Cart not accessible".
 */
export async function previewCoupon(ctx: Ctx, cartId: number | string, rule: CartRule): Promise<{ discountAmount: number; subtotal: number; grandTotal: number; currency: string }> {
  const text = String(cartId).trim();
  const ref: CartRef = MASKED.test(text) ? { kind: 'guest', maskedId: text } : { kind: 'customer', id: /^[0-9]{1,10}$/.test(text) ? Number(text) : 0 };
  const cart = ref.kind === 'customer' && (!Number.isInteger(ref.id) || ref.id < 1 || ref.id > 2147483647) ? undefined : await findCart(ctx, ref);
  if (!cart) throw badRequest('Cart not accessible', { reason: 'CART_NOT_ACCESSIBLE', details: { field: 'cartId' } });
  const cctx = cartContext(ctx, cart);
  const priced = await priceCart(cctx, { ...cart, couponCode: rule.code }, await itemsOf(ctx, cart.id));
  return {
    discountAmount: toWire(priced.totals.discountAmount),
    subtotal: toWire(priced.totals.subtotal),
    grandTotal: toWire(priced.totals.grandTotal),
    currency: cart.currency,
  };
}
