/** Wire shapes of credit memos (the spec's "Credit memo (response)" with wire reference §2.10) and of the create body. */
import { Type, type Static, type TSchema } from 'typebox';

const Money = Type.Number();
const Opt = <T extends TSchema>(s: T) => Type.Optional(s);
const INT_MAX = 2147483647;
/** the most a comment may hold */
export const COMMENT_MAX = 65535;

export const CreditMemoItem = Type.Object({
  id: Type.Integer(),
  orderItemId: Type.Integer(),
  productId: Type.Integer(),
  sku: Type.String(),
  name: Type.String(),
  description: Opt(Type.String()),
  qty: Type.Number(),
  price: Money,
  priceInclTax: Money,
  rowTotal: Money,
  rowTotalInclTax: Money,
  taxAmount: Money,
  discountAmount: Money,
  basePrice: Money,
  basePriceInclTax: Money,
  baseRowTotal: Money,
  baseRowTotalInclTax: Money,
  baseTaxAmount: Money,
  baseDiscountAmount: Money,
  backToStock: Type.Boolean({ description: 'the qty went back to stock' }),
});

export const CreditMemoComment = Type.Object({
  id: Type.Integer(),
  comment: Type.String(),
  createdAt: Type.String(),
  isCustomerNotified: Type.Boolean(),
  isVisibleOnFront: Type.Boolean(),
});

export const CreditMemo = Type.Object({
  id: Type.Integer(),
  incrementId: Type.String(),
  orderId: Type.Integer(),
  orderIncrementId: Type.String(),
  invoiceId: Opt(Type.Integer({ description: 'the paid invoice the refund goes against' })),
  storeId: Type.Integer(),
  state: Type.String({ description: 'open, refunded or canceled' }),
  currency: Type.String(),
  orderCurrencyCode: Type.String(),
  baseCurrencyCode: Type.String(),
  grandTotal: Money,
  baseGrandTotal: Money,
  subtotal: Money,
  subtotalInclTax: Money,
  taxAmount: Money,
  shippingAmount: Money,
  shippingInclTax: Money,
  shippingTaxAmount: Money,
  discountAmount: Money,
  hiddenTaxAmount: Money,
  baseSubtotal: Money,
  baseTaxAmount: Money,
  baseShippingAmount: Money,
  baseDiscountAmount: Money,
  adjustment: Type.Number({ description: 'adjustmentPositive − adjustmentNegative' }),
  baseAdjustment: Money,
  adjustmentPositive: Money,
  adjustmentNegative: Money,
  transactionId: Opt(Type.String()),
  creditmemoStatus: Opt(Type.Integer()),
  emailSent: Type.Boolean(),
  discountDescription: Opt(Type.String()),
  items: Type.Array(CreditMemoItem),
  comment: Opt(Type.String({ description: 'the text of the first comment' })),
  comments: Type.Array(CreditMemoComment),
  createdAt: Type.String(),
  updatedAt: Type.String(),
});
export type CreditMemoDto = Static<typeof CreditMemo>;

const NonNegative = (description: string) => Type.Optional(Type.Number({ minimum: 0, description }));

export const CreditMemoItemInput = Type.Object(
  {
    orderItemId: Type.Integer({ description: 'an item of the order' }),
    qty: Type.Number({ description: '> 0, at most what is invoiced and not yet refunded; whole unless the item takes decimal qty' }),
    backToStock: Type.Optional(Type.Boolean({ description: 'return the qty to inventory (default false)' })),
  },
  { additionalProperties: false },
);

export const CreditMemoCreate = Type.Object(
  {
    items: Type.Optional(
      Type.Array(CreditMemoItemInput, {
        maxItems: 1000,
        description: 'what to refund; omitted or empty: everything invoiced and not yet refunded',
      }),
    ),
    comment: Type.Optional(Type.String({ maxLength: COMMENT_MAX, description: 'a refund note, kept as the first comment' })),
    adjustmentPositive: NonNegative('added to the refund (order currency)'),
    adjustmentNegative: NonNegative('taken off the refund (order currency)'),
    shippingAmount: NonNegative(
      'shipping to refund (order currency), at most what is invoiced and not refunded of it; default: all of it on the first credit memo of the order, or when items are omitted, else 0',
    ),
    offlineRefund: Type.Optional(Type.Boolean({ description: 'default true; every payment method here is offline, so false is refused' })),
    notifyCustomer: Type.Optional(
      Type.Boolean({
        description: 'mail the credit memo to the customer (default true; store config sales_email/creditmemo/enabled can turn mails off)',
      }),
    ),
  },
  { additionalProperties: false },
);
export type CreditMemoCreateInput = Static<typeof CreditMemoCreate>;

export const CreditMemoParams = Type.Object({ id: Type.Integer({ minimum: 1, maximum: INT_MAX }) });
export const OrderCreditMemosParams = Type.Object({ orderId: Type.Integer({ minimum: 1, maximum: INT_MAX }) });
