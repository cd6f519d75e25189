/**
 * GraphQL for orders: the guest lookup (guestOrder, one-time like its REST route) and the lifecycle mutations
 * holdOrder, unholdOrder, cancelOrder and addCommentOrder, with the same service functions and access rules
 * as REST. Each answers with the whole order.
 */
import type { IResolvers } from 'mercurius';
import { access } from '../../platform/auth/access.js';
import { resolver, type GraphqlContribution } from '../../platform/graphql.js';
import * as orders from './service.js';

const typeDefs = `
  type OrderItem {
    id: Int!
    sku: String!
    name: String!
    description: String
    qty: Float!
    qtyOrdered: Float!
    qtyShipped: Float!
    qtyRefunded: Float!
    qtyCanceled: Float!
    qtyInvoiced: Float!
    qtyBackordered: Float
    price: Float!
    priceInclTax: Float!
    originalPrice: Float
    rowTotal: Float!
    rowTotalInclTax: Float!
    discountAmount: Float
    discountPercent: Float
    taxAmount: Float
    taxPercent: Float
    basePrice: Float!
    baseRowTotal: Float!
    baseTaxAmount: Float
    baseDiscountAmount: Float
    amountRefunded: Float
    taxRefunded: Float
    discountRefunded: Float
    weight: Float
    rowWeight: Float
    isVirtual: Boolean!
    isQtyDecimal: Boolean!
    freeShipping: Boolean!
    noDiscount: Boolean!
    productId: Int!
    productType: String!
    "the options chosen ({options: [{label, value}]}); [] when none"
    productOptions: JSON
    parentItemId: Int
    storeId: Int!
    createdAt: String!
  }
  type OrderPrices {
    subtotal: Float!
    subtotalInclTax: Float!
    subtotalCanceled: Float!
    subtotalInvoiced: Float!
    subtotalRefunded: Float!
    discountAmount: Float!
    shippingAmount: Float!
    shippingAmountInclTax: Float!
    shippingTaxAmount: Float!
    shippingDiscountAmount: Float!
    taxAmount: Float!
    hiddenTaxAmount: Float!
    grandTotal: Float!
    totalPaid: Float!
    totalRefunded: Float!
    totalDue: Float!
    totalCanceled: Float!
    totalInvoiced: Float!
    adjustmentPositive: Float!
    adjustmentNegative: Float!
    baseGrandTotal: Float!
    baseSubtotal: Float!
    baseTaxAmount: Float!
    baseShippingAmount: Float!
    baseDiscountAmount: Float!
    baseTotalPaid: Float!
    baseTotalRefunded: Float!
    baseTotalDue: Float!
    giftcardAmount: Float!
    baseGiftcardAmount: Float!
  }
  type OrderAddress {
    firstname: String!
    lastname: String!
    company: String
    street: [String!]!
    city: String!
    region: String
    regionId: Int
    postcode: String!
    countryId: String!
    telephone: String!
    email: String
    addressType: String!
    customerAddressId: Int
  }
  type OrderStatusHistoryEntry {
    note: String
    status: String!
    createdAt: String!
    isCustomerNotified: Boolean!
    isVisibleOnFront: Boolean!
  }
  type OrderGiftMessage {
    sender: String!
    recipient: String!
    message: String!
  }
  type Order {
    id: Int!
    incrementId: String!
    customerId: Int
    customerEmail: String!
    customerFirstname: String
    customerLastname: String
    customerGroupId: Int!
    customerIsGuest: Boolean!
    customerNote: String
    state: String!
    status: String!
    statusLabel: String!
    holdBeforeState: String
    holdBeforeStatus: String
    items: [OrderItem!]!
    billingAddress: OrderAddress
    shippingAddress: OrderAddress
    prices: OrderPrices!
    paymentMethod: String!
    paymentMethodTitle: String!
    paymentData: JSON
    shippingMethod: String
    shippingDescription: String
    couponCode: String
    couponRuleName: String
    discountDescription: String
    appliedRuleIds: [Int!]!
    "{CODE: amount used} in the order currency, or [] when none"
    giftcardCodes: JSON
    giftMessage: OrderGiftMessage
    storeId: Int!
    storeName: String!
    quoteId: Int
    isVirtual: Boolean!
    weight: Float
    emailSent: Boolean!
    currency: String!
    baseCurrencyCode: String!
    globalCurrencyCode: String!
    remoteIp: String
    xForwardedFor: String
    totalItemCount: Int!
    totalQtyOrdered: Float!
    "only in the answer to a guest placement: the one-time token of the guest lookup"
    accessToken: String
    "only on the guest lookup, when no account has the order email: for POST /customers/create-from-order"
    accountToken: String
    "newest first"
    statusHistory: [OrderStatusHistoryEntry!]!
    shipments: [Shipment!]!
    createdAt: String!
    updatedAt: String!
  }
  extend type Query {
    "A guest order by its number and one-time access token (spent by the first successful read; rate limited per IP)."
    guestOrder(incrementId: String!, accessToken: String!): Order!
  }
  extend type Mutation {
    "Puts the order on hold (admin/API, orders/write)."
    holdOrder(id: Int!, reason: String): Order!
    "Releases the order from hold (admin/API, orders/write)."
    unholdOrder(id: Int!, reason: String): Order!
    "Cancels what is left to invoice (admin/API with orders/write, or the customer who placed the order)."
    cancelOrder(id: Int!, reason: String): Order!
    "Adds a status-history comment, optionally mailed, visible on the front and setting a status of the current state (admin/API, orders/write)."
    addCommentOrder(id: Int!, comment: String!, notifyCustomer: Boolean, visibleOnFront: Boolean, status: String): Order!
  }
`;

interface ActionArgs {
  id: number;
  reason?: string | null;
}

interface CommentArgs {
  id: number;
  comment: string;
  notifyCustomer?: boolean | null;
  visibleOnFront?: boolean | null;
  status?: string | null;
}

const action = (a: ActionArgs) => (a.reason === null || a.reason === undefined ? {} : { reason: a.reason });

export const ordersGraphql: GraphqlContribution = {
  typeDefs,
  resolvers: {
    Query: {
      guestOrder: resolver<{ incrementId: string; accessToken: string }>(access.orderToken, (ctx, args) =>
        orders.guestOrderDetails(ctx, args.incrementId, args.accessToken),
      ),
    },
    Mutation: {
      holdOrder: resolver<ActionArgs>(access.admin('orders', 'write'), (ctx, args) => orders.holdOrder(ctx, args.id, action(args))),
      unholdOrder: resolver<ActionArgs>(access.admin('orders', 'write'), (ctx, args) => orders.unholdOrder(ctx, args.id, action(args))),
      cancelOrder: resolver<ActionArgs>(access.customerOrAdmin('orders', 'write'), (ctx, args) => orders.cancelOrder(ctx, args.id, action(args))),
      addCommentOrder: resolver<CommentArgs>(access.admin('orders', 'write'), (ctx, args) =>
        orders.addOrderComment(ctx, args.id, {
          comment: args.comment,
          notifyCustomer: args.notifyCustomer ?? undefined,
          visibleOnFront: args.visibleOnFront ?? undefined,
          status: args.status ?? undefined,
        }),
      ),
    },
  } as IResolvers,
};
