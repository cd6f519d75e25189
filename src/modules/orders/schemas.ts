/** Wire shapes of orders (wire reference §2.5) and of the order actions. */
import { Type, type Static, type TSchema } from 'typebox';
import { CartAddressOut } from '../carts/schemas.js';
import { OrderListQuery } from './action-schemas.js';

const Money = Type.Number();
const Opt = <T extends TSchema>(s: T) => Type.Optional(s);
const INT_MAX = 2147483647;

export const OrderItem = Type.Object({
  id: Type.Integer(),
  sku: Type.String(),
  name: Type.String(),
  description: Opt(Type.String()),
  qty: Type.Number({ description: 'the qty ordered' }),
  qtyOrdered: Type.Number(),
  qtyShipped: Type.Number(),
  qtyRefunded: Type.Number(),
  qtyCanceled: Type.Number(),
  qtyInvoiced: Type.Number(),
  qtyBackordered: Opt(Type.Number()),
  price: Money,
  priceInclTax: Money,
  originalPrice: Opt(Money),
  rowTotal: Money,
  rowTotalInclTax: Money,
  discountAmount: Opt(Money),
  discountPercent: Opt(Money),
  taxAmount: Opt(Money),
  taxPercent: Opt(Money),
  basePrice: Money,
  baseRowTotal: Money,
  baseTaxAmount: Opt(Money),
  baseDiscountAmount: Opt(Money),
  amountRefunded: Opt(Money),
  taxRefunded: Opt(Money),
  discountRefunded: Opt(Money),
  weight: Opt(Type.Number()),
  rowWeight: Opt(Type.Number()),
  isVirtual: Type.Boolean(),
  isQtyDecimal: Type.Boolean(),
  freeShipping: Type.Boolean(),
  noDiscount: Type.Boolean(),
  productId: Type.Integer(),
  productType: Type.String(),
  productOptions: Type.Unknown({ description: 'the options chosen ({options: [{label, value}], buyRequest}); [] when none' }),
  parentItemId: Opt(Type.Integer()),
  storeId: Type.Integer(),
  createdAt: Type.String(),
});

export const OrderPrices = Type.Object({
  subtotal: Money,
  subtotalInclTax: Money,
  subtotalCanceled: Money,
  subtotalInvoiced: Money,
  subtotalRefunded: Money,
  discountAmount: Money,
  shippingAmount: Money,
  shippingAmountInclTax: Money,
  shippingTaxAmount: Money,
  shippingDiscountAmount: Money,
  taxAmount: Money,
  hiddenTaxAmount: Money,
  grandTotal: Money,
  totalPaid: Money,
  totalRefunded: Money,
  totalDue: Money,
  totalCanceled: Money,
  totalInvoiced: Money,
  adjustmentPositive: Money,
  adjustmentNegative: Money,
  baseGrandTotal: Money,
  baseSubtotal: Money,
  baseTaxAmount: Money,
  baseShippingAmount: Money,
  baseDiscountAmount: Money,
  baseTotalPaid: Money,
  baseTotalRefunded: Money,
  baseTotalDue: Money,
  giftcardAmount: Money,
  baseGiftcardAmount: Money,
});

export const StatusHistoryEntry = Type.Object({
  note: Opt(Type.String()),
  status: Type.String(),
  createdAt: Type.String(),
  isCustomerNotified: Type.Boolean(),
  isVisibleOnFront: Type.Boolean(),
});

export const Order = Type.Object({
  id: Type.Integer(),
  incrementId: Type.String(),
  customerId: Opt(Type.Integer()),
  customerEmail: Type.String(),
  customerFirstname: Opt(Type.String()),
  customerLastname: Opt(Type.String()),
  customerGroupId: Type.Integer(),
  customerIsGuest: Type.Boolean(),
  customerNote: Opt(Type.String()),
  state: Type.String(),
  status: Type.String(),
  statusLabel: Type.String(),
  holdBeforeState: Opt(Type.String()),
  holdBeforeStatus: Opt(Type.String()),
  items: Type.Array(OrderItem),
  billingAddress: Opt(CartAddressOut),
  shippingAddress: Opt(CartAddressOut),
  prices: OrderPrices,
  paymentMethod: Type.String(),
  paymentMethodTitle: Type.String(),
  paymentData: Opt(Type.Record(Type.String(), Type.Unknown())),
  shippingMethod: Opt(Type.String()),
  shippingDescription: Opt(Type.String()),
  couponCode: Opt(Type.String()),
  couponRuleName: Opt(Type.String()),
  discountDescription: Opt(Type.String()),
  appliedRuleIds: Type.Array(Type.Integer()),
  giftcardCodes: Type.Unknown({ description: '{CODE: amount used} in the order currency, or [] when none' }),
  giftMessage: Opt(Type.Object({ sender: Type.String(), recipient: Type.String(), message: Type.String() })),
  storeId: Type.Integer(),
  storeName: Type.String(),
  quoteId: Opt(Type.Integer()),
  isVirtual: Type.Boolean(),
  weight: Opt(Type.Number()),
  emailSent: Type.Boolean(),
  currency: Type.String(),
  baseCurrencyCode: Type.String(),
  globalCurrencyCode: Type.String(),
  remoteIp: Opt(Type.String()),
  xForwardedFor: Opt(Type.String()),
  totalItemCount: Type.Integer(),
  totalQtyOrdered: Type.Number(),
  accessToken: Opt(Type.String({ description: 'only in the answer to a guest placement: the one-time X-Order-Token' })),
  accountToken: Opt(Type.String({ description: 'only on the guest details read, when no account has the order email' })),
  statusHistory: Type.Array(StatusHistoryEntry),
  shipments: Type.Array(Type.Unknown()),
  createdAt: Type.String(),
  updatedAt: Type.String(),
});
export type OrderDto = Static<typeof Order>;

export const OrderIdParams = Type.Object({ id: Type.Integer({ minimum: 1, maximum: INT_MAX }) });

/** What GET /orders sorts by: the order date (the default), last change, number, grand total, status or state. */
export const ORDER_SORTS = ['createdAt', 'updatedAt', 'incrementId', 'grandTotal', 'status', 'state'] as const;
export type OrderSort = (typeof ORDER_SORTS)[number];

export const SORT_DIRS = ['asc', 'desc', 'ASC', 'DESC'] as const;

/** A string out of `values`: checked against them like an enum, and a String to GraphQL (an enum alone is Iterable there). */
export function oneOf<const V extends readonly string[]>(values: V, description: string) {
  return Type.Unsafe<V[number]>({ type: 'string', enum: [...values], description });
}

/** GET /orders: the list filters, a free-text search and the sort. */
export const OrderGridQuery = Type.Object({
  ...OrderListQuery.properties,
  search: Type.Optional(
    Type.String({
      maxLength: 255,
      description:
        'free text: every word (up to 5) must be part of the order number, the customer email, first name or last name (case-insensitive)',
    }),
  ),
  sortBy: Type.Optional(oneOf(ORDER_SORTS, 'default createdAt (newest first)')),
  sortDir: Type.Optional(oneOf(SORT_DIRS, 'default desc')),
});
export type OrderGridQueryT = Static<typeof OrderGridQuery>;
