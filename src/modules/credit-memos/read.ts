/** Reading credit memos: the wire shape (spec "Credit memo (response)" + wire reference §2.10) and the lookups. */
import { and, asc, eq, inArray, ne, sql } from 'drizzle-orm';
import { adminStoreScope, type Ctx } from '../../platform/context.js';
import { notFound } from '../../platform/errors.js';
import { compact, wireDateTime } from '../../platform/format.js';
import { dec, toWire } from '../../platform/money.js';
import { assertOrderAccess, findOrder, findOrderForCaller, orderIncrementIdSql, type OrderRow } from '../orders/core.js';
import type { PriorRefunds } from './amounts.js';
import type { CreditMemoDto } from './schemas.js';
import { creditMemoComments, creditMemoItems, creditMemos } from './tables.js';

type MemoRow = typeof creditMemos.$inferSelect;
type ItemRow = typeof creditMemoItems.$inferSelect;
type CommentRow = typeof creditMemoComments.$inferSelect;

/** Credit memo states as stored, and their names on the wire. */
export const MEMO_STATE = { open: 1, refunded: 2, canceled: 3 } as const;
const STATE_NAME: Record<number, string> = { 1: 'open', 2: 'refunded', 3: 'canceled' };

export const creditMemoNotFound = () => notFound('Credit memo not found', { reason: 'CREDIT_MEMO_NOT_FOUND' });

const m = (v: string) => toWire(v);

function itemDto(i: ItemRow) {
  return compact({
    id: i.id,
    orderItemId: i.orderItemId,
    productId: i.productId,
    sku: i.sku,
    name: i.name,
    description: i.description,
    qty: Number(i.qty),
    price: m(i.price),
    priceInclTax: m(i.priceInclTax),
    rowTotal: m(i.rowTotal),
    rowTotalInclTax: m(i.rowTotalInclTax),
    taxAmount: m(i.taxAmount),
    discountAmount: m(i.discountAmount),
    basePrice: m(i.basePrice),
    basePriceInclTax: m(i.basePriceInclTax),
    baseRowTotal: m(i.baseRowTotal),
    baseRowTotalInclTax: m(i.baseRowTotalInclTax),
    baseTaxAmount: m(i.baseTaxAmount),
    baseDiscountAmount: m(i.baseDiscountAmount),
    backToStock: i.backToStock,
  });
}

function commentDto(c: CommentRow) {
  return {
    id: c.id,
    comment: c.comment,
    createdAt: wireDateTime(c.createdAt)!,
    isCustomerNotified: c.isCustomerNotified,
    isVisibleOnFront: c.isVisibleOnFront,
  };
}

/** The wire shape of a credit memo already read (no access check). */
export function creditMemoDto(
  memo: MemoRow,
  order: Pick<OrderRow, 'incrementId'>,
  items: ItemRow[],
  comments: CommentRow[],
): CreditMemoDto {
  return compact({
    id: memo.id,
    incrementId: memo.incrementId,
    orderId: memo.orderId,
    orderIncrementId: order.incrementId,
    invoiceId: memo.invoiceId,
    storeId: memo.storeId,
    state: STATE_NAME[memo.state] ?? 'unknown',
    currency: memo.currency,
    orderCurrencyCode: memo.currency,
    baseCurrencyCode: memo.baseCurrency,
    grandTotal: m(memo.grandTotal),
    baseGrandTotal: m(memo.baseGrandTotal),
    subtotal: m(memo.subtotal),
    subtotalInclTax: m(memo.subtotalInclTax),
    taxAmount: m(memo.taxAmount),
    shippingAmount: m(memo.shippingAmount),
    shippingInclTax: m(memo.shippingInclTax),
    shippingTaxAmount: m(memo.shippingTaxAmount),
    discountAmount: m(memo.discountAmount),
    hiddenTaxAmount: 0,
    baseSubtotal: m(memo.baseSubtotal),
    baseTaxAmount: m(memo.baseTaxAmount),
    baseShippingAmount: m(memo.baseShippingAmount),
    baseDiscountAmount: m(memo.baseDiscountAmount),
    adjustment: toWire(dec(memo.adjustmentPositive).sub(memo.adjustmentNegative)),
    baseAdjustment: toWire(dec(memo.baseAdjustmentPositive).sub(memo.baseAdjustmentNegative)),
    adjustmentPositive: m(memo.adjustmentPositive),
    adjustmentNegative: m(memo.adjustmentNegative),
    transactionId: memo.transactionId,
    creditmemoStatus: memo.creditmemoStatus,
    emailSent: memo.emailSent,
    discountDescription: memo.discountDescription,
    items: items.map(itemDto),
    comment: comments[0]?.comment ?? null,
    comments: comments.map(commentDto),
    createdAt: wireDateTime(memo.createdAt)!,
    updatedAt: wireDateTime(memo.updatedAt)!,
  }) as CreditMemoDto;
}

/**
 * The wire shapes of these memos, of one order or of many, their items and comments read in two queries;
 * `orderNumber` gives the increment id of a memo's order.
 */
async function dtosOf(ctx: Ctx, memos: MemoRow[], orderNumber: (orderId: number) => string): Promise<CreditMemoDto[]> {
  if (!memos.length) return [];
  const ids = memos.map((x) => x.id);
  const [items, comments] = await Promise.all([
    ctx.db.select().from(creditMemoItems).where(inArray(creditMemoItems.creditMemoId, ids)).orderBy(asc(creditMemoItems.id)),
    ctx.db
      .select()
      .from(creditMemoComments)
      .where(inArray(creditMemoComments.creditMemoId, ids))
      .orderBy(asc(creditMemoComments.createdAt), asc(creditMemoComments.id)),
  ]);
  return memos.map((memo) =>
    creditMemoDto(
      memo,
      { incrementId: orderNumber(memo.orderId) },
      items.filter((i) => i.creditMemoId === memo.id),
      comments.filter((c) => c.creditMemoId === memo.id),
    ),
  );
}

/**
 * GET /credit-memos/{id}: one credit memo with its items and comments. A memo of an order outside the
 * caller's store views reads as missing (404), as the order itself does.
 */
export async function getCreditMemo(ctx: Ctx, id: number): Promise<CreditMemoDto> {
  if (!Number.isInteger(id) || id < 1 || id > 2147483647) throw creditMemoNotFound();
  const [memo] = await ctx.db.select().from(creditMemos).where(eq(creditMemos.id, id));
  if (!memo) throw creditMemoNotFound();
  const found = await findOrder(ctx, memo.orderId);
  if (!found) throw creditMemoNotFound();
  assertOrderAccess(ctx, found.order, creditMemoNotFound);
  const [dto] = await dtosOf(ctx, [memo], () => found.order.incrementId);
  return dto;
}

/** GET /orders/{orderId}/credit-memos: every credit memo of the order, oldest first (unpaginated). */
export async function listCreditMemosOfOrder(ctx: Ctx, orderId: number): Promise<{ items: CreditMemoDto[]; total: number }> {
  const { order } = await findOrderForCaller(ctx, orderId);
  const memos = await ctx.db.select().from(creditMemos).where(eq(creditMemos.orderId, order.id)).orderBy(asc(creditMemos.id));
  const items = await dtosOf(ctx, memos, () => order.incrementId);
  return { items, total: items.length };
}

/** What the order's earlier credit memos (not canceled) took where the order keeps no counter of its own. */
export async function priorRefunds(ctx: Ctx, orderId: number): Promise<PriorRefunds> {
  const live = and(eq(creditMemos.orderId, orderId), ne(creditMemos.state, MEMO_STATE.canceled));
  const [memoSums] = await ctx.db
    .select({
      count: sql<number>`count(*)::int`,
      shippingTax: sql<string>`coalesce(sum(${creditMemos.shippingTaxAmount}), 0)::text`,
      baseShippingTax: sql<string>`coalesce(sum(${creditMemos.baseShippingTaxAmount}), 0)::text`,
      discount: sql<string>`coalesce(sum(${creditMemos.discountAmount}), 0)::text`,
      baseDiscount: sql<string>`coalesce(sum(${creditMemos.baseDiscountAmount}), 0)::text`,
    })
    .from(creditMemos)
    .where(live);
  const itemSums = await ctx.db
    .select({
      orderItemId: creditMemoItems.orderItemId,
      inclTax: sql<string>`sum(${creditMemoItems.rowTotalInclTax})::text`,
      baseInclTax: sql<string>`sum(${creditMemoItems.baseRowTotalInclTax})::text`,
      discount: sql<string>`sum(${creditMemoItems.discountAmount})::text`,
      baseDiscount: sql<string>`sum(${creditMemoItems.baseDiscountAmount})::text`,
    })
    .from(creditMemoItems)
    .innerJoin(creditMemos, eq(creditMemos.id, creditMemoItems.creditMemoId))
    .where(live)
    .groupBy(creditMemoItems.orderItemId);
  const rowTotalInclTax = new Map(itemSums.map((r) => [r.orderItemId, { amount: dec(r.inclTax), base: dec(r.baseInclTax) }]));
  const itemDiscount = itemSums.reduce((s, r) => s.add(r.discount), dec(0));
  const baseItemDiscount = itemSums.reduce((s, r) => s.add(r.baseDiscount), dec(0));
  return {
    rowTotalInclTax,
    shippingTaxAmount: dec(memoSums.shippingTax),
    baseShippingTaxAmount: dec(memoSums.baseShippingTax),
    shippingDiscount: dec(memoSums.discount).sub(itemDiscount),
    baseShippingDiscount: dec(memoSums.baseDiscount).sub(baseItemDiscount),
    count: memoSums.count,
  };
}

/**
 * A page of every credit memo, newest first, for the back office (GraphQL `creditMemos`): an API user limited
 * to store views sees only theirs. Customers never get here (the caller checks the grant).
 */
export async function listAllCreditMemos(
  ctx: Ctx,
  page: { size: number; offset: number },
): Promise<{ items: CreditMemoDto[]; total: number }> {
  const scope = adminStoreScope(ctx);
  const cond = scope ? inArray(creditMemos.storeId, scope.length ? scope : [-1]) : undefined;
  // the page with each memo's order number, and the count; then the items and comments of the page
  const [found, [{ n }]] = await Promise.all([
    ctx.db
      .select({ memo: creditMemos, orderIncrementId: orderIncrementIdSql(creditMemos.orderId) })
      .from(creditMemos)
      .where(cond)
      .orderBy(sql`${creditMemos.id} DESC`)
      .limit(page.size)
      .offset(page.offset),
    ctx.db
      .select({ n: sql<number>`count(*)::int` })
      .from(creditMemos)
      .where(cond),
  ]);
  // a memo whose order is gone is left out
  const numbers = new Map<number, string>();
  for (const r of found) if (r.orderIncrementId !== null) numbers.set(r.memo.orderId, r.orderIncrementId);
  const memos = found.map((r) => r.memo).filter((m) => numbers.has(m.orderId));
  return { items: await dtosOf(ctx, memos, (orderId) => numbers.get(orderId)!), total: Number(n) };
}
