/** Wire shapes of invoices (wire reference §2.9) and of the invoice routes' parameters. */
import { Type, type Static, type TSchema } from 'typebox';
import { DateRangeQuery } from '../../platform/date-range.js';
import { PageQuery } from '../../platform/pagination.js';
import { oneOf, SORT_DIRS } from '../orders/schemas.js';

const Money = Type.Number();
const Opt = <T extends TSchema>(s: T) => Type.Optional(s);
const INT_MAX = 2147483647;
const Id = () => Type.Integer({ minimum: 1, maximum: INT_MAX });

export const InvoiceItem = Type.Object({
  id: Type.Integer(),
  orderItemId: Type.Integer(),
  productId: Type.Integer(),
  sku: Type.String(),
  name: Type.String(),
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
});

export const InvoiceComment = Type.Object({
  id: Type.Integer(),
  comment: Type.String(),
  createdAt: Type.String(),
  isCustomerNotified: Type.Boolean(),
  isVisibleOnFront: Type.Boolean(),
});

export const Invoice = Type.Object({
  id: Type.Integer(),
  incrementId: Type.String(),
  orderId: Type.Integer(),
  orderIncrementId: Type.String(),
  storeId: Type.Integer(),
  grandTotal: Money,
  subtotal: Money,
  taxAmount: Money,
  shippingAmount: Money,
  discountAmount: Money,
  subtotalInclTax: Money,
  shippingInclTax: Money,
  shippingTaxAmount: Money,
  giftcardAmount: Money,
  totalQty: Type.Number(),
  baseGrandTotal: Money,
  baseSubtotal: Money,
  baseTaxAmount: Money,
  baseShippingAmount: Money,
  baseDiscountAmount: Money,
  baseSubtotalInclTax: Money,
  baseShippingInclTax: Money,
  baseShippingTaxAmount: Money,
  baseGiftcardAmount: Money,
  transactionId: Opt(Type.String()),
  currency: Type.String({ description: 'the currency of the amounts without base (the order currency)' }),
  baseCurrencyCode: Type.String(),
  state: Type.Integer({ description: '1 open, 2 paid, 3 canceled' }),
  stateName: Type.Union([Type.Literal('open'), Type.Literal('paid'), Type.Literal('canceled')]),
  emailSent: Type.Boolean(),
  canVoidFlag: Type.Boolean(),
  isUsedForRefund: Type.Boolean(),
  discountDescription: Opt(Type.String()),
  pdfUrl: Opt(
    Type.String({ description: "the path of the invoice PDF (under the route used for an order's invoices); not in write answers" }),
  ),
  createdAt: Type.String(),
  updatedAt: Type.String(),
  items: Type.Array(InvoiceItem),
  comments: Type.Array(InvoiceComment),
});
export type InvoiceDto = Static<typeof Invoice>;

export const OrderInvoicesParams = Type.Object({ orderId: Id() });
export const OrderInvoiceParams = Type.Object({ orderId: Id(), id: Id() });

export const InvoicePdfResponse = {
  description: 'the invoice as a PDF attachment (invoice_<incrementId>.pdf)',
  content: { 'application/pdf': { schema: Type.Unsafe<Buffer>({ type: 'string', format: 'binary' }) } },
};

export const InvoiceParams = Type.Object({ id: Id() });

const COMMENT_MAX = 65_535;

export const InvoiceItemInput = Type.Object(
  {
    orderItemId: Type.Integer({ description: 'an item of the order (> 0)' }),
    qty: Type.Number({ description: '> 0, at most what is left to invoice; whole units unless the item takes decimals' }),
  },
  { additionalProperties: false },
);

export const InvoiceCreate = Type.Object(
  {
    items: Opt(Type.Array(InvoiceItemInput, { maxItems: 1000, description: 'omitted or empty: everything left to invoice' })),
    capture: Opt(
      Type.Union([Type.Literal('online'), Type.Literal('offline'), Type.Literal('not_capture')], {
        description:
          'offline (the default): the invoice is paid at once; not_capture: it stays open until captured (POST /invoices/{id}/capture); ' +
          'online: capture through a payment gateway, refused with a 400 because every method here is offline',
      }),
    ),
    comment: Opt(Type.String({ maxLength: COMMENT_MAX, description: 'kept on the invoice and in the order history' })),
    notifyCustomer: Opt(Type.Boolean({ description: 'mail the invoice to the customer (default false, as Maho)' })),
  },
  { additionalProperties: false },
);
export type InvoiceCreateInput = Static<typeof InvoiceCreate>;

/** What GET /invoices sorts by: the invoice date (the default), its number, grand total or state. */
export const INVOICE_SORTS = ['createdAt', 'incrementId', 'grandTotal', 'state'] as const;
export type InvoiceSort = (typeof INVOICE_SORTS)[number];

/** GET /invoices: paging, filters, free-text search and sort. */
export const InvoiceListQuery = Type.Object({
  ...PageQuery,
  search: Type.Optional(
    Type.String({
      maxLength: 255,
      description:
        "free text: the invoice number contains it, or every word (up to 5) is part of the order's number, customer email or name",
    }),
  ),
  incrementId: Type.Optional(Type.String({ maxLength: 50, description: 'the invoice number, exact' })),
  orderId: Type.Optional(Id()),
  orderIncrementId: Type.Optional(Type.String({ maxLength: 50, description: 'the order number, exact' })),
  state: Type.Optional(oneOf(['open', 'paid', 'canceled'], 'the invoice state')),
  storeId: Type.Optional(Type.Integer({ minimum: 0, maximum: INT_MAX, description: 'store view of the order' })),
  ...DateRangeQuery,
  sortBy: Type.Optional(oneOf(INVOICE_SORTS, 'default createdAt (newest first)')),
  sortDir: Type.Optional(oneOf(SORT_DIRS, 'default desc')),
});
export type InvoiceListQueryT = Static<typeof InvoiceListQuery>;
