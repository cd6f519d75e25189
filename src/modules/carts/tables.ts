/**
 * Carts (quotes) and their items. Prices are not stored: every read re-prices the items from the catalog
 * through the totals pipeline, so a cart never shows a stale price. An item keeps what the shopper chose
 * (its buy request: configurable child, bundle selections, custom option values, downloadable links) so it
 * can be priced and ordered again.
 */
import { sql } from 'drizzle-orm';
import { boolean, index, integer, jsonb, numeric, pgTable, serial, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';

/** An address as a cart keeps it (the keys of the address setters). */
export interface CartAddress {
  firstName: string;
  lastName: string;
  company?: string | null;
  street: string[];
  city: string;
  postcode: string;
  countryId: string;
  region?: string | null;
  regionId?: number | null;
  regionCode?: string | null;
  telephone: string;
  email?: string | null;
  /** the customer's saved address it was copied from */
  customerAddressId?: number | null;
}

export interface GiftMessage {
  sender: string;
  recipient: string;
  message: string;
}

/** What the shopper chose for an item. */
export interface BuyRequest {
  /** configurable: attribute id → option id */
  superAttribute?: Record<string, number>;
  /** bundle: option id → selection ids */
  bundleOption?: Record<string, number[]>;
  /** bundle: option id → qty of its selection (where the selection allows it) */
  bundleOptionQty?: Record<string, number>;
  /** custom options: option id → value (string, option value id, or ids for multi-value types) */
  options?: Record<string, string | number | number[]>;
  /** downloadable: chosen link ids */
  links?: number[];
}

/**
 * The reductions a cart was last shown with. Amounts are base-currency decimal strings; gift card codes are
 * upper case.
 */
export interface PricedWith {
  /** the coupon whose discount the cart showed */
  coupon?: string;
  /** each gift card's balance and the amount the cart took from it */
  giftcards?: Record<string, { balance: string; applied: string }>;
  /** the selected shipping method (carrier_method), when it cost nothing */
  freeShipping?: string;
}

export const carts = pgTable(
  'carts',
  {
    id: serial('id').primaryKey(),
    /** guest carts: 32 lowercase hex characters; null for customer carts */
    maskedId: text('masked_id'),
    customerId: integer('customer_id'),
    customerEmail: text('customer_email'),
    customerGroupId: integer('customer_group_id').notNull().default(0),
    storeId: integer('store_id').notNull(),
    isActive: boolean('is_active').notNull().default(true),
    /** the currency the cart is shown and ordered in */
    currency: text('currency').notNull(),
    customerNote: text('customer_note'),
    reservedOrderId: text('reserved_order_id'),
    couponCode: text('coupon_code'),
    /** applied gift card codes, in the order they were applied */
    giftcardCodes: text('giftcard_codes')
      .array()
      .notNull()
      .default(sql`'{}'::text[]`),
    shippingAddress: jsonb('shipping_address').$type<CartAddress>(),
    billingAddress: jsonb('billing_address').$type<CartAddress>(),
    /** carrier_method */
    shippingMethod: text('shipping_method'),
    paymentMethod: text('payment_method'),
    paymentData: jsonb('payment_data').$type<Record<string, unknown>>(),
    giftMessage: jsonb('gift_message').$type<GiftMessage>(),
    /** what lowered the price the last time the cart was shown: placement refuses to charge more (promise.ts) */
    pricedWith: jsonb('priced_with').$type<PricedWith>(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('carts_masked_id_uq').on(t.maskedId),
    index('carts_customer_idx').on(t.customerId, t.isActive),
    index('carts_active_updated_idx')
      .on(t.updatedAt)
      .where(sql`is_active`),
  ],
);

export const cartItems = pgTable(
  'cart_items',
  {
    id: serial('id').primaryKey(),
    cartId: integer('cart_id')
      .notNull()
      .references(() => carts.id, { onDelete: 'cascade' }),
    /** the product added (the parent for configurable products) */
    productId: integer('product_id').notNull(),
    /** configurable: the chosen child product */
    childProductId: integer('child_product_id'),
    qty: numeric('qty', { precision: 12, scale: 4 }).notNull(),
    buyRequest: jsonb('buy_request').$type<BuyRequest>().notNull().default({}),
    /**
     * what makes two additions the same line (product, child and choices): adding again raises its qty in one
     * statement; null for lines that never merge (a custom price)
     */
    lineKey: text('line_key'),
    /** a price set by the back office, in the cart's currency; null: catalog price */
    customPrice: numeric('custom_price', { precision: 20, scale: 4 }),
    giftMessage: jsonb('gift_message').$type<GiftMessage>(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex('cart_items_line_uq').on(t.cartId, t.lineKey)],
);
