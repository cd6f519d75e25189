/**
 * A cart's lines: adding (one statement that merges a line already there), changing and removing them, each
 * checked against the catalog and stock.
 */
import crypto from 'node:crypto';
import { and, eq, sql } from 'drizzle-orm';
import { relaxedCommit, statement } from '../../platform/db.js';
import { hasPermission } from '../../platform/auth/access.js';
import { mayRelaxCommit, type Ctx } from '../../platform/context.js';
import { badRequest, forbidden, notFound } from '../../platform/errors.js';
import { readVersion } from '../../platform/read-cache.js';
import { declareConfig, declareConfigLabels } from '../../platform/settings.js';
import { availabilityFrom, stockRulesAt, type StockRule } from '../inventory/service.js';
import { productsForSale, type SaleProduct } from '../catalog/sale.js';
import { cartDto } from './dto.js';
import { cartQty, canonicalRequest, MAX_LINE_QTY, resolveAddRequest, type NewLine } from './items.js';
import { cartNotFound, cartTx, itemsOf, loadCart, lockCart, requireActive, requireCart, touch, view, type CartRef } from './load.js';
import { cartContext, priceCart, stockLinesOf, type CartItemRow } from './pricing.js';
import { dropLineFiles, storeLineFiles } from './option-files.js';
import { rememberPricing } from './promise.js';
import type { AddItemBodyT, CartDto } from './schemas.js';
import { insertCart } from './service.js';
import { cartItems, carts } from './tables.js';

declareConfigLabels({ checkout: 'Checkout', 'checkout/cart': 'Shopping Cart' });
declareConfig({
  'checkout/cart/max_items': { type: 'integer', default: 100, label: 'Most Lines in a Cart', min: 1, max: 10000 },
});

export type StockCheckLine = Pick<CartItemRow, 'productId' | 'childProductId' | 'buyRequest'> & {
  qty: string | number;
  lineKey?: string | null;
};

/**
 * Refuses lines whose products cannot be had in the cart's resulting quantities (only the products of `touched`
 * lines are judged: an item that ran out since it was added does not block adding another). Answers with what
 * it read, for pricing the cart afterwards.
 */
export async function assertAvailable(
  ctx: Ctx,
  lines: StockCheckLine[],
  touched: Set<number>,
  version: bigint,
): Promise<{ products: Map<number, SaleProduct>; stock: Map<number, StockRule> }> {
  const products = await productsForSale(
    ctx,
    lines.flatMap((l) => (l.childProductId ? [l.productId, l.childProductId] : [l.productId])),
    version,
  );
  const stockLines = stockLinesOf(lines, products);
  const wanted = new Set<number>();
  lines.forEach((l, i) => {
    if (touched.has(l.productId)) for (const p of stockLines[i]) wanted.add(p.productId);
  });
  const flat = stockLines.flat();
  const stock = await stockRulesAt(
    ctx,
    version,
    flat.map((l) => l.productId),
  );
  for (const r of availabilityFrom(stock, flat)) {
    if (r.available || !wanted.has(r.productId)) continue;
    const sku = products.get(r.productId)?.sku ?? String(r.productId);
    throw badRequest(`${sku}: ${r.message ?? 'not available'}`, {
      reason: r.reason ?? 'OUT_OF_STOCK',
      details: { sku, productId: r.productId },
    });
  }
  return { products, stock };
}

function assertCustomPriceAllowed(ctx: Ctx): void {
  const a = ctx.actor;
  if (a.kind !== 'admin' || !hasPermission(a.permissions, 'carts', 'write'))
    throw forbidden('Only the back office may set a custom price', { reason: 'CUSTOM_PRICE_FORBIDDEN' });
}

/** What makes two additions the same line: the product, the child and the choices (null: never merged). */
export function lineKey(l: NewLine, customPrice: number | undefined): string | null {
  if (customPrice !== undefined) return null;
  return crypto
    .createHash('sha256')
    .update(`${l.productId}:${l.childProductId ?? ''}:${canonicalRequest(l.buyRequest)}`)
    .digest('hex');
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
    const [cart] = await ctx.db
      .select()
      .from(carts)
      .where(eq(carts.id, await insertCart(ctx, { customerId: null, masked: true })));
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

export async function writeLines(
  ctx: Ctx,
  cartId: number,
  lines: (NewLine & { key: string | null })[],
  customPrice: number | undefined,
): Promise<CartItemRow[]> {
  const values = lines.map((l) => ({
    product_id: l.productId,
    child_product_id: l.childProductId,
    // numbers as text: the qty and price reach NUMERIC without passing through a binary float
    qty: String(l.qty),
    buy_request: l.buyRequest,
    custom_price: customPrice === undefined ? null : String(customPrice),
    line_key: l.key,
  }));
  const written = await writeLinesStatement.run(ctx.db, {
    now: ctx.now.toISOString(),
    cart: cartId,
    lines: JSON.stringify(values),
    relaxed: mayRelaxCommit(ctx),
  });
  if (written.length && written.length < lines.length) {
    // a parallel addition took the line past the most one line holds
    throw badRequest(`qty must be a whole number from 1 to ${MAX_LINE_QTY}`, { reason: 'INVALID_CART_ITEM', details: { field: 'qty' } });
  }
  return written;
}

export async function updateItem(
  ctx: Ctx,
  ref: CartRef,
  itemId: number,
  body: { qty?: number; customPrice?: number | null },
): Promise<CartDto> {
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
    const gone = await tx.db
      .delete(cartItems)
      .where(and(eq(cartItems.id, itemId), eq(cartItems.cartId, cart.id)))
      .returning({ id: cartItems.id });
    if (!gone.length) throw notFound('Cart item not found', { reason: 'CART_ITEM_NOT_FOUND' });
    await touch(tx, cart.id);
  });
  return view(ctx, cart.id);
}
