/**
 * What the Magento 1 API's cart resources need of carts besides the REST operations: several lines added, changed,
 * removed or moved at once (all or none, in a fixed number of statements whatever their number), the lines a
 * product request names (the product and the choices that made the line), a cart handed back to a guest, both
 * addresses set at once, and gift messages of several lines. Every change locks the cart and checks stock as the
 * REST operations do.
 */
import { and, desc, eq, inArray, ne, sql, type SQL } from 'drizzle-orm';
import { withTx, type Ctx } from '../../platform/context.js';
import { AppError, badRequest, notFound } from '../../platform/errors.js';
import { normEmail } from '../customers/fields.js';
import { NOT_LOGGED_IN_GROUP, pricingGroup } from '../customers/groups-service.js';
import { registerCustomer, type NewCustomer } from '../customers/service.js';
import { productsForSale } from '../catalog/sale.js';
import { cartQty, MAX_LINE_QTY, resolveAddRequest, type NewLine } from './items.js';
import { assertAvailable, lineKey, writeLines, type StockCheckLine } from './lines.js';
import { cartNotFound, cartTx, itemsAndVersion, lockCartRow, touch } from './load.js';
import { cartContext, type CartItemRow, type CartRow } from './pricing.js';
import type { AddItemBodyT } from './schemas.js';
import { cartItems, carts, type CartAddress, type GiftMessage } from './tables.js';

/** A product request of the legacy API: the product (already found by id or SKU) and the choices sent with it. */
export interface LegacyLineRequest {
  productId: number;
  body: AddItemBodyT;
}

/** What a request resolved to: the lines it asks for, or why it cannot be had (the service's message). */
export type Resolved = { lines: (NewLine & { key: string | null })[] } | { error: string };

/**
 * The lines each request asks for, in the cart's context `cctx` (its store view), each checked as POST
 * /carts/{id}/items checks it; a refused request gives its reason instead. The products are read in one batch.
 */
export async function resolveRequests(cctx: Ctx, requests: LegacyLineRequest[], version: bigint): Promise<Resolved[]> {
  await productsForSale(
    cctx,
    requests.map((r) => r.productId),
    version,
  );
  const out: Resolved[] = [];
  for (const r of requests) {
    try {
      const lines = await resolveAddRequest(cctx, { ...r.body, sku: undefined, productId: r.productId }, version);
      out.push({ lines: lines.map((l) => ({ ...l, key: lineKey(l, undefined) })) });
    } catch (err) {
      if (err instanceof AppError && err.status < 500) out.push({ error: err.message });
      else throw err;
    }
  }
  return out;
}

const CHOICES: (keyof AddItemBodyT)[] = [
  'options',
  'superAttribute',
  'super_attribute',
  'bundleOption',
  'bundle_option',
  'bundleOptionQty',
  'bundle_option_qty',
  'links',
  'superGroup',
  'super_group',
];

/**
 * The line of `items` a request names: the one its product and choices would make (the last such, as Magento
 * takes the last candidate); a request without choices also names the only line of its product (or of a
 * configurable's child) when its choices can no longer be resolved, e.g. the product left the catalog.
 */
export function lineOf(items: CartItemRow[], request: LegacyLineRequest, resolved: Resolved): CartItemRow | undefined {
  if ('lines' in resolved) {
    const keys = resolved.lines.map((l) => l.key).filter((k): k is string => k !== null);
    for (const key of keys.reverse()) {
      const hit = items.find((i) => i.lineKey === key);
      if (hit) return hit;
    }
    return undefined;
  }
  if (CHOICES.some((k) => request.body[k] !== undefined)) return undefined;
  const same = items.filter((i) => i.productId === request.productId || i.childProductId === request.productId);
  return same.length === 1 ? same[0] : undefined;
}

/** The rows a statement with RETURNING id answers. */
async function returning(ctx: Ctx, query: SQL): Promise<{ id: number }[]> {
  return ((await ctx.db.execute(query)) as unknown as { rows: { id: number }[] }).rows;
}

/** The cart, locked for the transaction; a cart ordered meanwhile can no longer change (400, as the REST changes say). */
async function locked(tx: Ctx, cartId: number): Promise<CartRow> {
  const cart = await lockCartRow(tx, cartId);
  if (!cart) throw cartNotFound();
  if (!cart.isActive) throw badRequest('This cart has been ordered and can no longer change', { reason: 'CART_INACTIVE' });
  return cart;
}

/**
 * Adds resolved lines to the cart (merged with the lines already there that have the same product and choices),
 * checked against the most lines a cart holds and against stock in the resulting quantities, in one transaction.
 */
export async function addLines(ctx: Ctx, cartId: number, lines: (NewLine & { key: string | null })[]): Promise<void> {
  await cartTx(ctx, async (tx) => {
    const cart = await locked(tx, cartId);
    const { items, version } = await itemsAndVersion(tx, cartId);
    const projected: StockCheckLine[] = items.map((r) => ({ ...r }));
    const fresh: typeof lines = [];
    for (const l of lines) {
      const same = l.key && (projected.find((r) => r.lineKey === l.key) ?? fresh.find((f) => f.key === l.key));
      if (same) same.qty = String(cartQty(Number(same.qty) + Number(l.qty)));
      else fresh.push({ ...l });
    }
    const max = tx.app.settings.getInt('checkout/cart/max_items', cart.storeId) || 100;
    if (items.length + fresh.length > max) throw badRequest(`A cart holds at most ${max} lines`, { reason: 'CART_FULL' });
    await assertAvailable(tx, [...projected, ...fresh], new Set(lines.map((l) => l.productId)), version);
    if (!(await writeLines(tx, cartId, lines, undefined)).length) throw cartNotFound();
  });
}

/** Sets the quantities of lines (item id → qty), checked against stock where they grow, in one transaction. */
export async function setLineQtys(ctx: Ctx, cartId: number, qtys: Map<number, number>): Promise<void> {
  if (!qtys.size) return;
  const rows = [...qtys].map(([id, qty]) => ({ id, qty: String(cartQty(qty)) }));
  await cartTx(ctx, async (tx) => {
    await locked(tx, cartId);
    const { items, version } = await itemsAndVersion(tx, cartId);
    const grown = new Set<number>();
    const after = items.map((i) => {
      const qty = qtys.get(i.id);
      if (qty === undefined) return i;
      if (qty > Number(i.qty)) grown.add(i.productId);
      return { ...i, qty: String(qty) };
    });
    if (rows.some((r) => !items.some((i) => i.id === r.id))) throw notFound('Cart item not found', { reason: 'CART_ITEM_NOT_FOUND' });
    if (grown.size) await assertAvailable(tx, after, grown, version);
    await tx.db.execute(sql`UPDATE cart_items SET qty = v.qty
      FROM jsonb_to_recordset(${JSON.stringify(rows)}::jsonb) AS v (id int, qty numeric)
      WHERE cart_items.id = v.id AND cart_items.cart_id = ${cartId}`);
    await touch(tx, cartId);
  });
}

/** Removes lines of the cart, all or none. */
export async function removeLines(ctx: Ctx, cartId: number, itemIds: number[]): Promise<void> {
  const ids = [...new Set(itemIds)];
  if (!ids.length) return;
  await cartTx(ctx, async (tx) => {
    await locked(tx, cartId);
    const gone = await tx.db
      .delete(cartItems)
      .where(and(eq(cartItems.cartId, cartId), inArray(cartItems.id, ids)))
      .returning({ id: cartItems.id });
    if (gone.length !== ids.length) throw notFound('Cart item not found', { reason: 'CART_ITEM_NOT_FOUND' });
    await touch(tx, cartId);
  });
}

/**
 * Moves lines of one cart into another (merged with the target's lines of the same product and choices, their
 * gift messages and back-office prices kept), checked against the target's stock and size: one transaction that
 * locks both carts in id order, so that two moves between the same carts wait for each other.
 */
export async function moveLines(ctx: Ctx, fromId: number, toId: number, itemIds: number[]): Promise<void> {
  const ids = [...new Set(itemIds)];
  if (!ids.length) return;
  await cartTx(ctx, async (tx) => {
    const [first, second] = fromId < toId ? [fromId, toId] : [toId, fromId];
    const lockedFirst = await locked(tx, first);
    const lockedSecond = await locked(tx, second);
    const target = lockedFirst.id === toId ? lockedFirst : lockedSecond;
    const source = await itemsAndVersion(tx, fromId);
    const { items, version } = await itemsAndVersion(tx, toId);
    const moving = source.items.filter((i) => ids.includes(i.id));
    if (moving.length !== ids.length) throw notFound('Cart item not found', { reason: 'CART_ITEM_NOT_FOUND' });
    const projected: StockCheckLine[] = items.map((r) => ({ ...r }));
    let added = 0;
    for (const m of moving) {
      const same = m.lineKey && projected.find((r) => r.lineKey === m.lineKey);
      if (same) same.qty = String(cartQty(Number(same.qty) + Number(m.qty)));
      else (projected.push({ ...m }), added++);
    }
    const max = tx.app.settings.getInt('checkout/cart/max_items', target.storeId) || 100;
    if (items.length + added > max) throw badRequest(`A cart holds at most ${max} lines`, { reason: 'CART_FULL' });
    await assertAvailable(tx, projected, new Set(moving.map((m) => m.productId)), version);
    const written = await returning(
      tx,
      sql`INSERT INTO cart_items
        (cart_id, product_id, child_product_id, qty, buy_request, custom_price, gift_message, line_key, created_at)
      SELECT ${toId}, product_id, child_product_id, qty, buy_request, custom_price, gift_message, line_key, ${tx.now.toISOString()}::timestamptz
        FROM cart_items WHERE cart_id = ${fromId} AND id = ANY(${`{${ids.join(',')}}`}::int[]) ORDER BY id
      ON CONFLICT (cart_id, line_key) DO UPDATE SET qty = cart_items.qty + EXCLUDED.qty
        WHERE cart_items.qty + EXCLUDED.qty <= ${MAX_LINE_QTY}
      RETURNING id`,
    );
    if (written.length !== ids.length) throw badRequest(`A line holds at most ${MAX_LINE_QTY}`, { reason: 'INVALID_CART_ITEM' });
    await tx.db.delete(cartItems).where(and(eq(cartItems.cartId, fromId), inArray(cartItems.id, ids)));
    await tx.db
      .update(carts)
      .set({ updatedAt: tx.now })
      .where(inArray(carts.id, [fromId, toId]));
  });
}

/**
 * Hands the cart to a guest, as Magento's cart_customer.set in guest mode: no customer, the NOT LOGGED IN group,
 * the guest's email (which an order placed from it is sent to).
 */
export async function setGuestCustomer(ctx: Ctx, cartId: number, email: string): Promise<void> {
  await cartTx(ctx, async (tx) => {
    await locked(tx, cartId);
    await tx.db
      .update(carts)
      .set({ customerId: null, customerEmail: email.trim().toLowerCase(), customerGroupId: NOT_LOGGED_IN_GROUP, updatedAt: tx.now })
      .where(eq(carts.id, cartId));
  });
}

/** Sets the cart's billing and shipping address (those given) at once. A guest cart takes its email from them. */
export async function setAddresses(ctx: Ctx, cartId: number, set: { billing?: CartAddress; shipping?: CartAddress }): Promise<void> {
  await cartTx(ctx, async (tx) => {
    const cart = await locked(tx, cartId);
    const email = cart.customerId === null ? (set.billing?.email ?? set.shipping?.email) : undefined;
    await tx.db
      .update(carts)
      .set({
        ...(set.billing ? { billingAddress: set.billing } : {}),
        ...(set.shipping ? { shippingAddress: set.shipping } : {}),
        ...(email ? { customerEmail: email.toLowerCase() } : {}),
        updatedAt: tx.now,
      })
      .where(eq(carts.id, cartId));
  });
}

/** The cart a line belongs to; undefined when there is no such line. */
export async function cartOfItem(ctx: Ctx, itemId: number): Promise<number | undefined> {
  const [row] = await ctx.db.select({ cartId: cartItems.cartId }).from(cartItems).where(eq(cartItems.id, itemId));
  return row?.cartId;
}

/**
 * Sets (or, with null, removes) the gift messages of several lines of the cart in one statement, where the
 * store view allows gift messages for items (sales/gift_options/allow_items), as PUT .../items/{id}/gift-message.
 */
export async function setLineGiftMessages(ctx: Ctx, cartId: number, messages: Map<number, GiftMessage | null>): Promise<void> {
  if (!messages.size) return;
  const rows = [...messages].map(([id, message]) => ({ id, message }));
  await cartTx(ctx, async (tx) => {
    const cart = await locked(tx, cartId);
    if (!tx.app.settings.getBool('sales/gift_options/allow_items', cart.storeId)) {
      throw badRequest('Gift messages are not enabled for items', { reason: 'GIFT_MESSAGES_DISABLED' });
    }
    const done = await returning(
      tx,
      sql`UPDATE cart_items SET gift_message = v.message
      FROM jsonb_to_recordset(${JSON.stringify(rows)}::jsonb) AS v (id int, message jsonb)
      WHERE cart_items.id = v.id AND cart_items.cart_id = ${cartId} RETURNING cart_items.id`,
    );
    if (done.length !== rows.length) throw notFound('Cart item not found', { reason: 'CART_ITEM_NOT_FOUND' });
    await touch(tx, cartId);
  });
}

/** The customer's newest active cart in store view `storeId` other than `exceptId`: the cart their storefront shows. */
export async function otherCustomerCart(ctx: Ctx, customerId: number, storeId: number, exceptId: number): Promise<number | undefined> {
  const [row] = await ctx.db
    .select({ id: carts.id })
    .from(carts)
    .where(and(eq(carts.customerId, customerId), eq(carts.isActive, true), eq(carts.storeId, storeId), ne(carts.id, exceptId)))
    .orderBy(desc(carts.updatedAt), desc(carts.id))
    .limit(1);
  return row?.id;
}

/**
 * Makes an account for the cart's shopper and gives it the cart, in one transaction (cart_customer.set in register
 * mode): the account of the cart's website, with the group its settings give new accounts.
 */
export async function registerCartCustomer(ctx: Ctx, cartId: number, input: Omit<NewCustomer, 'websiteId'>): Promise<number> {
  return withTx(ctx, async (tx) => {
    const cart = await locked(tx, cartId);
    const cctx = cartContext(tx, cart);
    const id = await registerCustomer(cctx, { ...input, websiteId: cctx.store.websiteId });
    const group = await pricingGroup(cctx, { customerId: id });
    await tx.db
      .update(carts)
      .set({ customerId: id, customerEmail: normEmail(input.email), customerGroupId: group.groupId, maskedId: null, updatedAt: tx.now })
      .where(eq(carts.id, cartId));
    return id;
  });
}
