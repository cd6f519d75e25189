/** An order as the wire shows it (wire reference §2.5): items, addresses, prices, status history. */
import { desc, eq } from 'drizzle-orm';
import type { Ctx } from '../../platform/context.js';
import { compact, wireDateTime } from '../../platform/format.js';
import { dec, toWire } from '../../platform/money.js';
import { findOrder, orderNotFound, seesInternalComments, type OrderItemRow, type OrderRow } from './core.js';
import type { OrderDto } from './schemas.js';
import { statusLabel } from './state.js';
import { orderStatusHistory, type OrderAddress } from './tables.js';

const m = (v: string | null | undefined) => toWire(v ?? 0);
const optMoney = (v: string | null | undefined) => (v === null || v === undefined || dec(v).isZero() ? null : toWire(v));

function addressDto(a: OrderAddress | null, type: 'billing' | 'shipping') {
  if (!a) return undefined;
  return compact({
    firstname: a.firstName,
    lastname: a.lastName,
    company: a.company ?? null,
    street: a.street,
    city: a.city,
    region: a.region ?? null,
    regionId: a.regionId ?? null,
    postcode: a.postcode,
    countryId: a.countryId,
    telephone: a.telephone,
    email: a.email ?? null,
    addressType: type,
    customerAddressId: a.customerAddressId ?? null,
  });
}

export function orderItemDto(i: OrderItemRow, storeId: number) {
  return compact({
    id: i.id,
    sku: i.sku,
    name: i.name,
    description: i.description,
    qty: Number(i.qtyOrdered),
    qtyOrdered: Number(i.qtyOrdered),
    qtyShipped: Number(i.qtyShipped),
    qtyRefunded: Number(i.qtyRefunded),
    qtyCanceled: Number(i.qtyCanceled),
    qtyInvoiced: Number(i.qtyInvoiced),
    qtyBackordered: i.qtyBackordered === null ? null : Number(i.qtyBackordered),
    price: m(i.price),
    priceInclTax: m(i.priceInclTax),
    originalPrice: m(i.originalPrice),
    rowTotal: m(i.rowTotal),
    rowTotalInclTax: m(i.rowTotalInclTax),
    discountAmount: optMoney(i.discountAmount),
    discountPercent: optMoney(i.discountPercent),
    taxAmount: m(i.taxAmount),
    taxPercent: m(i.taxPercent),
    basePrice: m(i.basePrice),
    baseRowTotal: m(i.baseRowTotal),
    baseTaxAmount: m(i.baseTaxAmount),
    baseDiscountAmount: optMoney(i.baseDiscountAmount),
    amountRefunded: optMoney(i.amountRefunded),
    taxRefunded: optMoney(i.taxRefunded),
    discountRefunded: optMoney(i.discountRefunded),
    weight: i.weight === null ? null : Number(i.weight),
    rowWeight: i.rowWeight === null ? null : Number(i.rowWeight),
    isVirtual: i.isVirtual,
    isQtyDecimal: i.isQtyDecimal,
    freeShipping: i.freeShipping,
    noDiscount: i.noDiscount,
    productId: i.productId,
    productType: i.productType,
    productOptions: Object.keys(i.productOptions ?? {}).length ? i.productOptions : [],
    storeId,
    createdAt: wireDateTime(i.createdAt)!,
  });
}

export function orderPricesDto(o: OrderRow): OrderDto['prices'] {
  const totalDue = dec(o.grandTotal).sub(o.totalPaid);
  const baseTotalDue = dec(o.baseGrandTotal).sub(o.baseTotalPaid);
  return {
    subtotal: m(o.subtotal),
    subtotalInclTax: m(o.subtotalInclTax),
    subtotalCanceled: m(o.subtotalCanceled),
    subtotalInvoiced: m(o.subtotalInvoiced),
    subtotalRefunded: m(o.subtotalRefunded),
    discountAmount: m(o.discountAmount),
    shippingAmount: m(o.shippingAmount),
    shippingAmountInclTax: m(o.shippingInclTax),
    shippingTaxAmount: m(o.shippingTaxAmount),
    shippingDiscountAmount: 0,
    taxAmount: m(o.taxAmount),
    hiddenTaxAmount: 0,
    grandTotal: m(o.grandTotal),
    totalPaid: m(o.totalPaid),
    totalRefunded: m(o.totalRefunded),
    totalDue: toWire(totalDue.isNegative() ? 0 : totalDue),
    totalCanceled: m(o.totalCanceled),
    totalInvoiced: m(o.totalInvoiced),
    adjustmentPositive: m(o.adjustmentPositive),
    adjustmentNegative: m(o.adjustmentNegative),
    baseGrandTotal: m(o.baseGrandTotal),
    baseSubtotal: m(o.baseSubtotal),
    baseTaxAmount: m(o.baseTaxAmount),
    baseShippingAmount: m(o.baseShippingAmount),
    baseDiscountAmount: m(o.baseDiscountAmount),
    baseTotalPaid: m(o.baseTotalPaid),
    baseTotalRefunded: m(o.baseTotalRefunded),
    baseTotalDue: toWire(baseTotalDue.isNegative() ? 0 : baseTotalDue),
    giftcardAmount: m(o.giftcardAmount),
    baseGiftcardAmount: m(o.baseGiftcardAmount),
  };
}

export interface OrderViewOptions {
  /** list rows: no shipping address, empty statusHistory and shipments */
  list?: boolean;
  accessToken?: string;
  accountToken?: string;
  /** the order's shipments, as the shipments module shows them */
  shipments?: unknown[];
}

/** The wire shape of an order already read (no access check). */
export function orderDto(
  ctx: Ctx,
  order: OrderRow,
  items: OrderItemRow[],
  history: (typeof orderStatusHistory.$inferSelect)[],
  opts: OrderViewOptions = {},
): OrderDto {
  const backend = ctx.actor.kind === 'admin';
  const giftcards = order.giftcards.length ? Object.fromEntries(order.giftcards.map((g) => [g.code, toWire(g.amount)])) : [];
  return compact({
    id: order.id,
    incrementId: order.incrementId,
    customerId: order.customerId,
    customerEmail: order.customerEmail,
    customerFirstname: order.customerFirstname,
    customerLastname: order.customerLastname,
    customerGroupId: order.customerGroupId,
    customerIsGuest: order.customerIsGuest,
    customerNote: order.customerNote,
    state: order.state,
    status: order.status,
    statusLabel: statusLabel(order.status),
    holdBeforeState: order.holdBeforeState,
    holdBeforeStatus: order.holdBeforeStatus,
    items: items.map((i) => orderItemDto(i, order.storeId)),
    billingAddress: addressDto(order.billingAddress, 'billing') ?? null,
    shippingAddress: opts.list ? null : (addressDto(order.shippingAddress, 'shipping') ?? null),
    prices: orderPricesDto(order),
    paymentMethod: order.paymentMethod,
    paymentMethodTitle: order.paymentTitle,
    paymentData: Object.keys(order.paymentData ?? {}).length ? order.paymentData : null,
    shippingMethod: order.shippingMethod,
    shippingDescription: order.shippingDescription,
    couponCode: order.couponCode,
    couponRuleName: order.couponRuleName,
    discountDescription: order.couponCode,
    appliedRuleIds: order.appliedRuleIds,
    giftcardCodes: giftcards,
    giftMessage: order.giftMessage,
    storeId: order.storeId,
    storeName: ctx.app.settings.store(order.storeId)?.name ?? '',
    quoteId: order.quoteId,
    isVirtual: order.isVirtual,
    weight: order.weight === null ? null : Number(order.weight),
    emailSent: order.emailSent,
    currency: order.currency,
    baseCurrencyCode: order.baseCurrency,
    globalCurrencyCode: order.baseCurrency,
    remoteIp: backend ? order.remoteIp : null,
    xForwardedFor: backend ? order.xForwardedFor : null,
    totalItemCount: order.totalItemCount,
    totalQtyOrdered: Number(order.totalQtyOrdered),
    accessToken: opts.accessToken ?? null,
    accountToken: opts.accountToken ?? null,
    statusHistory: opts.list
      ? []
      : history
          // customers and guests see only what is visible on the storefront
          .filter((h) => h.isVisibleOnFront || seesInternalComments(ctx))
          .map((h) =>
            compact({
              note: h.comment,
              status: h.status,
              createdAt: wireDateTime(h.createdAt)!,
              isCustomerNotified: h.isCustomerNotified,
              isVisibleOnFront: h.isVisibleOnFront,
            }),
          ),
    shipments: opts.list ? [] : (opts.shipments ?? []),
    createdAt: wireDateTime(order.createdAt)!,
    updatedAt: wireDateTime(order.updatedAt)!,
  }) as OrderDto;
}

/** The status history of an order, newest first. */
export function historyOf(ctx: Ctx, orderId: number) {
  return ctx.db
    .select()
    .from(orderStatusHistory)
    .where(eq(orderStatusHistory.orderId, orderId))
    .orderBy(desc(orderStatusHistory.createdAt), desc(orderStatusHistory.id));
}

/** The whole order by id (no access check: callers check first). */
export async function orderView(ctx: Ctx, orderId: number, opts: OrderViewOptions = {}): Promise<OrderDto> {
  const found = await findOrder(ctx, orderId);
  if (!found) throw orderNotFound();
  return orderDto(ctx, found.order, found.items, await historyOf(ctx, orderId), opts);
}
