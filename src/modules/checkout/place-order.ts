/**
 * Placing an order from a cart, in one transaction: lock the cart, apply and check the checkout details,
 * re-price it, number and write the order with its items and first status-history entry, invoice it when the
 * payment method captures at placement, queue the confirmation mail, close the cart, and last count the
 * coupon use, debit the gift cards and reserve stock. Any failure rolls all of it back.
 *
 * The order is computed in memory as it stands once placed (invoiced, mails queued) and written by one
 * statement (the orders module's writeOrder: order, items, history, and alongside them the invoice, the mails
 * and the cart closed, as data-modifying CTEs); the coupon, the
 * gift cards and the stock take one statement each, so a placement costs a fixed number of round trips
 * whatever the number of lines, and its answer is built from what it wrote.
 *
 * The rows many placements share (a coupon, a gift card, a product's stock) are changed at the end, so each is
 * locked only for the commit, and always in one order (coupon, gift cards by code, stock by product id), so
 * concurrent placements wait for each other instead of deadlocking. Numbers are taken outside the transaction.
 *
 * A cart that shares no row but stock, whose events nobody listens to, is placed first without a transaction
 * (placeUnlocked): read, priced and written by three statements, the last of which writes only if the cart is
 * still as read and all its stock can be taken. Otherwise, or when it was not, the transaction above places it.
 */
import { sql } from 'drizzle-orm';
import { backOffice, withTx, type Ctx } from '../../platform/context.js';
import { randomToken, sha256Hex } from '../../platform/auth/secrets.js';
import { AppError, findPgError } from '../../platform/errors.js';
import { dec, roundMoney, type Decimal } from '../../platform/money.js';
import { insertFromJson, jsonRows } from '../../platform/json-rows.js';
import { mailQueued, OUTBOX_COLUMNS, outboxRow, type Mail } from '../../platform/outbox.js';
import { declareConfig } from '../../platform/settings.js';
import { mailOutbox } from '../../platform/tables.js';
import {
  checkoutCart,
  closingCartSql,
  closingCartValues,
  closingSeenCartSql,
  lockCartForOrder,
  type CheckoutInput,
  type LockedCart,
} from '../carts/checkout.js';
import type { PricedCart } from '../carts/pricing.js';
import { readCartToPlace, type CartRef } from '../carts/load.js';
import { stockParts } from '../carts/items.js';
import { couponNoLongerValid, giftcardNoLongerValid, totalsChanged } from '../carts/promise.js';
import { consumeCoupon } from '../coupons/usage.js';
import { getCustomerIdentity, type CustomerIdentity } from '../customers/service.js';
import { debitGiftcards, giftcardsByCodes } from '../giftcards/spend.js';
import {
  reservationIncompleteSql,
  reservationParts,
  reservationValues,
  reserveStock,
  settleReservation,
  type StockLine,
} from '../inventory/service.js';
import { emitInvoiceCreated, invoiceAtPlacement } from '../invoices/service.js';
import { historyRow, nextIncrementIds, progressOf, type OrderGiftcard, type OrderItemRow, type OrderRow } from '../orders/core.js';
import { confirmationMail } from './confirmation-mail.js';
import { draftOrder, draftOrderItem, writeOrder, type AlongsideWrite, type OrderDraft, type WrittenOrder } from '../orders/placement.js';
import { orderDto } from '../orders/read.js';
import { orderEvents } from '../orders/events.js';
import type { OrderDto } from '../orders/schemas.js';
import { DEFAULT_STATUS } from '../orders/state.js';
import { paymentAction, paymentTitle } from '../payment/service.js';
import type { PlaceOrderBodyT } from './schemas.js';

declareConfig({
  'sales_email/order/enabled': { type: 'boolean', default: true, label: 'Send Order Confirmation Emails' },
});

const s = (d: Decimal) => d.toFixed(4);
const ZERO = dec(0);

function checkoutInput(body: PlaceOrderBodyT): CheckoutInput {
  return {
    shippingAddress: body.shippingAddress,
    billingAddress: body.billingAddress,
    email: body.guestEmail ?? body.email,
    paymentMethod: body.paymentMethod,
    paymentData: body.paymentData,
    shippingMethod: body.shippingMethod,
    orderNote: body.orderNote,
  };
}

/** Every product each line takes from stock, for the line's qty, rounded up to whole units. */
function stockLines(priced: PricedCart): StockLine[] {
  return priced.items.flatMap((i) =>
    stockParts(i.row, priced.products).map((p) => ({ productId: p.productId, qty: Math.ceil(p.per.mul(i.row.qty).toNumber()) })),
  );
}

/**
 * A cart without a customer is placed only where the store allows guest checkout (the store config's
 * isGuestCheckoutAllowed), whoever places it, as Magento's cart.order refuses it (guest_checkout_is_not_enabled).
 */
function assertGuestCheckoutAllowed(ctx: Ctx, cart: { customerId: number | null; storeId: number }): void {
  if (cart.customerId !== null || ctx.app.settings.getBool('checkout/options/guest_checkout', cart.storeId)) return;
  throw new AppError('forbidden', 'Guest checkout is not enabled. Please log in or create an account to place the order.', {
    reason: 'GUEST_CHECKOUT_DISABLED',
  });
}

/**
 * Places an order from the cart `ref` names. Answers with the order as the caller may see it; a guest's order
 * carries the one-time `accessToken` (its X-Order-Token for GET /orders/{incrementId}/details).
 */
export async function placeOrder(ctx: Ctx, ref: CartRef, body: PlaceOrderBodyT): Promise<OrderDto> {
  const placed =
    (await placeUnlocked(ctx, ref, body)) ??
    (await withTx(ctx, async (tx) => {
      const { cctx, priced, customer } = await cartToPlace(tx, await lockCartForOrder(tx, ref), body);
      const accessToken = priced.cart.customerId === null ? randomToken(32) : undefined;
      const numbers = await placementNumbers(cctx, priced.cart);
      const draft = draftPlacement(cctx, priced, customer, numbers, accessToken);
      const written = await writePlacement(cctx, priced, draft);
      await takeSharedRows(cctx, priced, written);
      announce(cctx, written, draft.invoice);
      return { written, accessToken };
    }));
  const { order, items, history } = placed.written;
  return orderDto(ctx, order, items, history, { accessToken: placed.accessToken });
}

/** The error placement_refused raises (migration 0030): what the unlocked placement read changed meanwhile. */
const READ_CHANGED = 'CP409';

/**
 * The placement of a cart that shares no row but stock (no coupon, no gift card) and whose events nobody
 * listens to, without a transaction or a lock: the cart is read with what placing it needs (one statement),
 * checked and priced, numbered, and written by one statement that closes the cart only if it is still the
 * version read and reserves the stock only if all of it can be had, or else fails whole (placement_refused).
 * Three statements and no lock held between them, where the locked placement takes a transaction of six
 * round trips with the cart locked while it is priced. Undefined when the placement is not of that kind, or
 * what it read changed before its write (the numbers it took are then left unused): the locked placement
 * follows, and answers as if this one had not been tried. An error the read cart itself causes (an empty
 * cart, a total that changed) is answered at once: it is the answer for the cart as it was read.
 */
async function placeUnlocked(ctx: Ctx, ref: CartRef, body: PlaceOrderBodyT): Promise<Placed | undefined> {
  if (ctx.tx || ctx.activity) return undefined;
  const read = await readCartToPlace(ctx, ref);
  if (!read) return undefined;
  const { cctx, priced, customer } = await cartToPlace(ctx, read, body);
  if (!stockWithOrder(priced) || PLACEMENT_EVENTS.some((type) => cctx.app.events.wants(type, priced.cart.storeId))) return undefined;
  const accessToken = priced.cart.customerId === null ? randomToken(32) : undefined;
  const numbers = await placementNumbers(cctx, priced.cart);
  const draft = draftPlacement(cctx, priced, customer, numbers, accessToken);
  try {
    const written = await writePlacement(cctx, priced, draft, read.rowVersion);
    await takeSharedRows(cctx, priced, written);
    return { written, accessToken };
  } catch (err) {
    // a deadlock with a locked placement of the same cart (this statement locks the stock, then the cart) is
    // left to the locked placement as well
    const code = findPgError(err)?.code;
    if (code === READ_CHANGED || code === '40P01') return undefined;
    throw err;
  }
}

/** The events a placement emits: the unlocked placement, which has no transaction to emit them in, is for carts none is wanted of. */
const PLACEMENT_EVENTS = ['order.placed', 'invoice.created', 'stock.changed'];

interface Placed {
  written: WrittenOrder;
  accessToken: string | undefined;
}

/**
 * The cart read (and locked, on the locked path), allowed (guest checkout), with the checkout details applied,
 * priced and at the total the client expects; with the customer who places it, and the context of the cart's
 * store view.
 */
async function cartToPlace(
  ctx: Ctx,
  read: LockedCart,
  body: PlaceOrderBodyT,
): Promise<{ cctx: Ctx; priced: PricedCart; customer: CustomerIdentity | undefined }> {
  assertGuestCheckoutAllowed(ctx, read.cart);
  const { ctx: cctx, priced } = await checkoutCart(ctx, read, checkoutInput(body));
  const changed = totalsChanged(priced, body.expectedGrandTotal);
  if (changed) throw changed;
  const cart = priced.cart;
  const customer = cart.customerId === null ? undefined : (read.customer ?? (await getCustomerIdentity(cctx, cart.customerId)));
  if (cart.customerId !== null && !customer) throw new Error(`cart ${cart.id} belongs to a customer that no longer exists`);
  return { cctx, priced, customer };
}

/** The numbers of the order and, for a payment method that captures at placement, of its invoice: one statement. */
async function placementNumbers(cctx: Ctx, cart: PricedCart['cart']): Promise<{ order: string; invoice?: string }> {
  const captures = paymentAction(cctx, cart.paymentMethod!, cart.storeId) === 'authorize_capture';
  return nextIncrementIds(cctx, captures ? ['order', 'invoice'] : ['order'], cart.storeId);
}

type PlacementInvoice = ReturnType<typeof invoiceAtPlacement>;

interface PlacementDraft extends OrderDraft {
  /** the mails queued with the order (the confirmation, the invoice's) */
  mails: Mail[];
  /** the invoice of a method that captures at placement */
  invoice?: PlacementInvoice;
}

/**
 * The order as it stands once placed, computed in memory: the order and its items, the first history entry,
 * the confirmation mail, and when an invoice number was taken the invoice (its progress, history entry and
 * mail applied to the order).
 */
function draftPlacement(
  cctx: Ctx,
  priced: PricedCart,
  customer: CustomerIdentity | undefined,
  numbers: { order: string; invoice?: string },
  accessToken: string | undefined,
): PlacementDraft {
  let order = orderOf(cctx, priced, customer, numbers.order, accessToken);
  let items = itemsOf(cctx, priced);
  const history = [historyRow(cctx, order, { comment: null, status: order.status })];
  const mails: Mail[] = [];
  // the confirmation first, then the invoice (and its mail) of a method that captures at placement
  if (cctx.app.settings.getBool('sales_email/order/enabled', order.storeId)) {
    mails.push(confirmationMail(cctx, { order, items }));
    order = { ...order, emailSent: true };
  }
  const invoice = numbers.invoice ? invoiceAtPlacement(cctx, { order, items }, numbers.invoice, 'offline') : undefined;
  if (invoice) {
    ({ order, items } = progressOf(cctx, { order, items }, invoice.progress));
    history.push(historyRow(cctx, order, invoice.history));
    if (invoice.mail) mails.push(invoice.mail(order));
  }
  return { order, items, history, mails, invoice };
}

/** The coupon of the cart when its discount applies. */
function appliedRule(priced: PricedCart) {
  return priced.rule && priced.totals.discountApplied ? priced.rule : null;
}

/** The gift cards that pay part of the order (base currency amounts). */
function usedGiftcards(priced: PricedCart) {
  return priced.base.giftcards.filter((g) => g.appliedAmount.gt(0));
}

/** The order row as it will be stored (its id 0 until written). */
function orderOf(
  cctx: Ctx,
  priced: PricedCart,
  customer: CustomerIdentity | undefined,
  incrementId: string,
  accessToken: string | undefined,
): OrderRow {
  const cart = priced.cart;
  const t = priced.totals;
  const b = priced.base;
  const rule = appliedRule(priced);
  const guest = cart.customerId === null;
  const billing = cart.billingAddress!;
  const cards: OrderGiftcard[] = usedGiftcards(priced).map((g) => ({
    code: g.code,
    amount: s(t.giftcards.find((x) => x.code === g.code)?.appliedAmount ?? ZERO),
    baseAmount: s(g.appliedAmount),
  }));
  return draftOrder(
    {
      incrementId,
      storeId: cart.storeId,
      quoteId: cart.id,
      customerId: cart.customerId,
      customerEmail: customer?.email ?? cart.customerEmail!,
      customerFirstname: customer?.firstname ?? billing.firstName,
      customerLastname: customer?.lastname ?? billing.lastName,
      customerGroupId: priced.groupId,
      customerIsGuest: guest,
      customerNote: cart.customerNote,
      state: 'new',
      status: DEFAULT_STATUS.new,
      currency: cart.currency,
      baseCurrency: cctx.store.baseCurrency,
      baseToOrderRate: priced.rate.toFixed(8),
      billingAddress: { ...billing, email: billing.email ?? customer?.email ?? cart.customerEmail },
      shippingAddress: priced.isVirtual
        ? null
        : { ...cart.shippingAddress!, email: cart.shippingAddress!.email ?? customer?.email ?? cart.customerEmail },
      shippingMethod: priced.isVirtual ? null : priced.selectedRate!.code,
      shippingDescription: priced.isVirtual ? null : priced.selectedRate!.title,
      paymentMethod: cart.paymentMethod!,
      paymentTitle: paymentTitle(cctx, cart.paymentMethod!, cart.storeId),
      paymentData: cart.paymentData ?? {},
      couponCode: rule?.code ?? null,
      couponId: rule?.couponId ?? null,
      couponRuleName: rule?.ruleName ?? null,
      appliedRuleIds: rule ? [rule.ruleId] : [],
      giftcards: cards,
      giftMessage: cart.giftMessage,
      isVirtual: priced.isVirtual,
      weight: priced.isVirtual ? null : s(priced.items.reduce((w, i) => w.add(i.weight.mul(i.row.qty)), dec(0))),
      totalItemCount: priced.items.length,
      totalQtyOrdered: s(priced.items.reduce((q, i) => q.add(i.row.qty), dec(0))),
      subtotal: s(t.subtotal),
      baseSubtotal: s(b.subtotal),
      subtotalInclTax: s(t.subtotalInclTax),
      baseSubtotalInclTax: s(b.subtotalInclTax),
      discountAmount: s(t.discountAmount),
      baseDiscountAmount: s(b.discountAmount),
      shippingAmount: s(t.shippingAmount),
      baseShippingAmount: s(b.shippingAmount),
      shippingInclTax: s(t.shippingAmountInclTax),
      baseShippingInclTax: s(b.shippingAmountInclTax),
      shippingTaxAmount: s(t.shippingTaxAmount),
      baseShippingTaxAmount: s(b.shippingTaxAmount),
      taxAmount: s(t.taxAmount),
      baseTaxAmount: s(b.taxAmount),
      giftcardAmount: s(t.giftcardAmount),
      baseGiftcardAmount: s(b.giftcardAmount),
      grandTotal: s(t.grandTotal),
      baseGrandTotal: s(b.grandTotal),
      accessTokenHash: accessToken ? sha256Hex(accessToken) : null,
      remoteIp: cctx.ip,
      createdAt: cctx.now,
      updatedAt: cctx.now,
    },
    cctx.now,
  );
}

/** The order's items as they will be stored, numbered 1, 2, ... until written. */
function itemsOf(cctx: Ctx, priced: PricedCart): OrderItemRow[] {
  const t = priced.totals;
  const b = priced.base;
  return priced.items.map((i, index) => {
    const lt = t.lines.get(i.row.id)!;
    const lb = b.lines.get(i.row.id)!;
    const qty = dec(i.row.qty);
    return draftOrderItem(
      {
        // a stand-in until the database numbers the row (invoice lines name their item by it)
        id: index + 1,
        // the order's id once written
        orderId: 0,
        productId: i.product.id,
        childProductId: i.row.childProductId,
        productType: i.product.type,
        sku: i.sku,
        name: i.name,
        buyRequest: { ...i.row.buyRequest },
        productOptions: i.options.length ? { options: i.options } : {},
        stockParts: stockParts(i.row, priced.products).map((p) => ({ productId: p.productId, per: p.per.toString() })),
        giftMessage: i.row.giftMessage,
        isVirtual: i.isVirtual,
        weight: i.isVirtual ? null : s(i.weight),
        rowWeight: i.isVirtual ? null : s(i.weight.mul(qty)),
        qtyOrdered: s(qty),
        price: s(lt.price),
        basePrice: s(lb.price),
        originalPrice: s(lt.price),
        baseOriginalPrice: s(lb.price),
        priceInclTax: s(lt.priceInclTax),
        basePriceInclTax: s(lb.priceInclTax),
        rowTotal: s(lt.rowTotal),
        baseRowTotal: s(lb.rowTotal),
        rowTotalInclTax: s(lt.rowTotalInclTax),
        baseRowTotalInclTax: s(lb.rowTotalInclTax),
        taxPercent: s(lt.taxPercent),
        taxAmount: s(lt.taxAmount),
        baseTaxAmount: s(lb.taxAmount),
        discountPercent: s(lt.discountPercent ?? ZERO),
        discountAmount: s(lt.discountAmount),
        baseDiscountAmount: s(lb.discountAmount),
        createdAt: cctx.now,
      },
      cctx.now,
    );
  });
}

/**
 * Whether the stock is reserved within the order's statement: when no coupon or gift card is taken. Those are
 * locked before the stock (takeSharedRows), and every placement must lock shared rows in the same order.
 */
function stockWithOrder(priced: PricedCart): boolean {
  return !appliedRule(priced) && !usedGiftcards(priced).length;
}

/**
 * Writes the order with its items and history, the invoice of a capturing method, the mails, the cart closed
 * and, when nothing else is shared (stockWithOrder), the stock reserved: one statement.
 */
async function writePlacement(cctx: Ctx, priced: PricedCart, draft: PlacementDraft, seen?: string): Promise<WrittenOrder> {
  const cart = priced.cart;
  const alongside: AlongsideWrite[] = [...(draft.invoice?.writes ?? [])];
  if (draft.mails.length)
    alongside.push({
      name: 'm',
      build: () => insertFromJson(mailOutbox, 'm_rows', { columns: [...OUTBOX_COLUMNS] }),
      values: {
        m_rows: jsonRows(
          mailOutbox,
          draft.mails.map((m) => outboxRow(cctx, m)),
        ),
      },
    });
  const stock = stockWithOrder(priced) ? reservationValues(cctx, stockLines(priced)) : undefined;
  if (stock) alongside.push(...reservationParts().map((part) => ({ ...part, values: stock })));
  if (seen === undefined)
    alongside.push({ name: 'c', build: () => closingCartSql('c'), values: closingCartValues(cctx, 'c', cart, draft.order.incrementId) });
  else {
    // written without a lock (placeUnlocked): the cart closed only as it was read, and the stock reserved in full,
    // or the statement fails whole
    alongside.push(
      {
        name: 'cv',
        build: () => closingSeenCartSql('cv'),
        values: { ...closingCartValues(cctx, 'cv', cart, draft.order.incrementId), cv_seen: seen },
      },
      {
        name: 'g',
        build: () => sql`SELECT placement_refused('the cart changed') WHERE NOT EXISTS (SELECT 1 FROM cv)
          ${stock ? sql`UNION ALL SELECT placement_refused('the stock ran short') WHERE ${reservationIncompleteSql()}` : sql``}`,
        values: {},
        answer: sql`(SELECT count(*) FROM g)`,
      },
    );
  }
  const written = await writeOrder(cctx, draft, alongside);
  if (draft.mails.length) mailQueued(cctx);
  return written;
}

/**
 * The rows placements share, last: the coupon use counted, the gift cards debited, the stock reserved (or, when
 * it was reserved with the order, refused unless it was all taken). Each refuses (and rolls everything back)
 * when it cannot; a coupon or card that another placement used up meanwhile breaks the cart's price: 409, as in
 * promise.ts.
 */
async function takeSharedRows(cctx: Ctx, priced: PricedCart, written: WrittenOrder): Promise<void> {
  if (stockWithOrder(priced)) {
    const a = written.answers as { st?: number[] | null; sl?: number[] | null };
    await settleReservation(cctx, stockLines(priced), { taken: a.st, unmanaged: a.sl });
    return;
  }
  const cart = priced.cart;
  const orderId = written.order.id;
  const rule = appliedRule(priced);
  if (rule) await consumeCoupon(cctx, rule.couponId, cart.customerId).catch(asConflict((e) => couponNoLongerValid(rule.code, e.message)));
  const usedCards = usedGiftcards(priced);
  if (usedCards.length) {
    const byCode = new Map(
      (
        await giftcardsByCodes(
          cctx,
          usedCards.map((g) => g.code),
        )
      ).map((c) => [c.code.toUpperCase(), c]),
    );
    const debits = usedCards.map((g) => {
      const card = byCode.get(g.code.toUpperCase());
      const toCard =
        card && card.currencyCode !== cctx.store.baseCurrency
          ? cctx.app.settings.rate(cctx.store.baseCurrency, card.currencyCode)
          : undefined;
      return { code: g.code, amount: toCard ? roundMoney(g.appliedAmount.mul(toCard)) : g.appliedAmount };
    });
    await debitGiftcards(cctx, debits, orderId, (code, e) => (e.status < 500 ? giftcardNoLongerValid(code.toUpperCase(), e.message) : e));
  }
  await reserveStock(cctx, stockLines(priced));
}

/** order.placed, with the order as written, and invoice.created for the invoice of a capturing method. */
function announce(cctx: Ctx, placed: WrittenOrder, invoice: PlacementInvoice | undefined): void {
  const { order } = placed;
  orderEvents.emit(cctx, 'order.placed', { resource: 'order', id: order.id, storeId: order.storeId }, () =>
    orderDto(backOffice(cctx), placed.order, placed.items, placed.history, { shipments: [] }),
  );
  if (invoice) emitInvoiceCreated(cctx, invoice.invoiceId(placed), order.storeId, order.id);
}

/** Turns a refusal of the shared row (a client error) into the conflict `as` makes of it; other errors pass. */
function asConflict(as: (e: AppError) => AppError) {
  return (e: unknown): never => {
    throw e instanceof AppError && e.status < 500 ? as(e) : e;
  };
}
