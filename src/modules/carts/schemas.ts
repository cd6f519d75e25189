/** Wire shapes of carts and guest carts (wire reference §2.4). */
import { Type, type Static, type TSchema } from 'typebox';
import { FreeForm } from '../../platform/free-form.js';
import { PageQuery } from '../../platform/pagination.js';
import { GraphqlType } from '../../platform/graphql-derive.js';

const Money = Type.Number();
const Opt = <T extends TSchema>(s: T) => Type.Optional(s);

export const GiftMessage = Type.Object({ sender: Type.String(), recipient: Type.String(), message: Type.String() });

export const GiftMessageBody = Type.Object(
  {
    sender: Type.String({ minLength: 1, maxLength: 255 }),
    recipient: Type.String({ minLength: 1, maxLength: 255 }),
    message: Type.String({ minLength: 1, maxLength: 4000 }),
  },
  { additionalProperties: false },
);

/** An address of a cart or an order as answered (GraphQL: Maho's `Address` type, shared with customer addresses). */
export const CartAddressOut = GraphqlType(
  'Address',
  Type.Object({
    firstname: Type.String(),
    lastname: Type.String(),
    company: Opt(Type.String()),
    street: Type.Array(Type.String()),
    city: Type.String(),
    region: Opt(Type.String()),
    regionId: Opt(Type.Integer()),
    postcode: Type.String(),
    countryId: Type.String(),
    telephone: Type.String(),
    email: Opt(Type.String()),
    addressType: Type.String({ description: 'billing or shipping' }),
    customerAddressId: Opt(Type.Integer()),
  }),
);

export const ShippingRate = Type.Object({
  code: Type.String({ description: 'carrier_method' }),
  title: Type.String({ description: 'Carrier - Method' }),
  carrierCode: Type.String(),
  methodCode: Type.String(),
  carrierTitle: Type.String(),
  methodTitle: Type.String(),
  price: Money,
});

export const PaymentMethod = Type.Object({
  code: Type.String(),
  title: Type.String(),
  sortOrder: Type.Integer(),
  isOffline: Type.Boolean(),
  instructions: Opt(Type.String()),
});

const nullableMoney = Type.Union([Money, Type.Null()]);
export const CartPrices = Type.Object({
  subtotal: nullableMoney,
  subtotalInclTax: nullableMoney,
  subtotalWithDiscount: nullableMoney,
  discountAmount: nullableMoney,
  shippingAmount: nullableMoney,
  shippingAmountInclTax: nullableMoney,
  taxAmount: nullableMoney,
  shippingTaxAmount: nullableMoney,
  grandTotal: nullableMoney,
  baseGrandTotal: nullableMoney,
  baseSubtotal: nullableMoney,
  baseTaxAmount: nullableMoney,
  baseShippingAmount: nullableMoney,
  baseDiscountAmount: nullableMoney,
  giftcardAmount: nullableMoney,
  baseGiftcardAmount: nullableMoney,
});

export const CartItem = Type.Object({
  id: Type.Integer(),
  sku: Type.String(),
  name: Type.String(),
  qty: Type.Number(),
  price: Money,
  priceInclTax: Money,
  rowTotal: Money,
  rowTotalInclTax: Money,
  rowTotalWithDiscount: Money,
  discountAmount: Opt(Money),
  discountPercent: Opt(Type.Number()),
  taxAmount: Opt(Money),
  taxPercent: Opt(Type.Number()),
  productId: Type.Integer(),
  productType: Type.String(),
  thumbnailUrl: Opt(Type.String()),
  options: Type.Array(Type.Object({ label: Type.String(), value: Type.String() })),
  stockStatus: Type.String({ description: 'in_stock or out_of_stock' }),
  giftMessage: Opt(GiftMessage),
});

export const Cart = Type.Object({
  id: Type.Integer(),
  maskedId: Opt(Type.String({ description: 'guest carts only' })),
  customerId: Opt(Type.Integer()),
  customerEmail: Opt(Type.String()),
  customerNote: Opt(Type.String()),
  reservedOrderId: Opt(Type.String()),
  storeId: Type.Integer(),
  isActive: Type.Boolean(),
  cartRecreated: Type.Boolean(),
  items: Type.Array(CartItem),
  prices: CartPrices,
  billingAddress: Opt(CartAddressOut),
  shippingAddress: Opt(CartAddressOut),
  isVirtual: Type.Boolean(),
  availableShippingMethods: Type.Array(ShippingRate),
  selectedShippingMethod: Opt(
    Type.Object({
      carrierCode: Type.String(),
      methodCode: Type.String(),
      carrierTitle: Type.String(),
      methodTitle: Type.String(),
      price: Money,
    }),
  ),
  availablePaymentMethods: Type.Array(PaymentMethod),
  selectedPaymentMethod: Opt(Type.Object({ code: Type.String(), title: Type.String() })),
  appliedCoupon: Opt(Type.Object({ code: Type.String(), discountAmount: Money })),
  appliedGiftcards: Type.Array(Type.Object({ code: Type.String(), balance: Money, appliedAmount: Money })),
  giftMessage: Opt(GiftMessage),
  currency: Type.String(),
  baseCurrency: Type.String(),
  itemsCount: Type.Integer(),
  itemsQty: Type.Number(),
  createdAt: Type.String(),
  updatedAt: Type.String(),
});
export type CartDto = Static<typeof Cart>;

// ---- requests ----

export const CartIdParams = Type.Object({ id: Type.Integer({ minimum: 1, maximum: 2147483647 }) });
export const GuestCartParams = Type.Object({ id: Type.String({ maxLength: 64, description: 'the masked id (32 hex characters)' }) });
const ItemId = Type.Integer({ minimum: 1, maximum: 2147483647 });
export const CartItemParams = Type.Object({ id: Type.Integer({ minimum: 1, maximum: 2147483647 }), itemId: ItemId });
export const GuestCartItemParams = Type.Object({ id: Type.String({ maxLength: 64 }), itemId: ItemId });
export const GiftcardParams = Type.Object({
  id: Type.Integer({ minimum: 1, maximum: 2147483647 }),
  code: Type.String({ minLength: 1, maxLength: 64 }),
});
export const GuestGiftcardParams = Type.Object({ id: Type.String({ maxLength: 64 }), code: Type.String({ minLength: 1, maxLength: 64 }) });

export const CartListQuery = Type.Object({
  ...PageQuery,
  customerId: Type.Optional(Type.Integer({ minimum: 1, maximum: 2147483647, description: "the back office: this customer's carts" })),
  storeId: Type.Optional(Type.Integer({ minimum: 0, maximum: 2147483647, description: 'carts of this store view' })),
  isActive: Type.Optional(Type.Boolean({ description: 'true: carts not yet ordered; false: ordered ones' })),
});

export const AssignCustomerBody = Type.Object(
  {
    customerId: Type.Integer({ minimum: 1, maximum: 2147483647, description: 'the customer who gets the cart (a customer: their own id)' }),
  },
  { additionalProperties: false },
);

export const CreateCartBody = Type.Object(
  {
    storeId: Opt(Type.Integer({ minimum: 0, maximum: 2147483647, description: 'store view; default: the request store' })),
    customerId: Opt(Type.Integer({ minimum: 1, maximum: 2147483647, description: 'admin only: the customer the cart is for' })),
  },
  { additionalProperties: false },
);

const OptionValue = Type.Union([
  Type.String({ maxLength: 4000 }),
  Type.Integer({ minimum: 0, maximum: 2147483647 }),
  Type.Array(Type.Union([Type.Integer({ minimum: 0, maximum: 2147483647 }), Type.String({ maxLength: 64 })]), { maxItems: 100 }),
]);
const IdMap = <T extends TSchema>(value: T) => Type.Record(Type.String({ pattern: '^[0-9]{1,10}$' }), value, { maxProperties: 100 });
const FileUpload = Type.Object(
  {
    name: Opt(Type.String({ maxLength: 255 })),
    filename: Opt(Type.String({ maxLength: 255 })),
    base64: Opt(Type.String({ maxLength: 16 * 1024 * 1024 })),
    data: Opt(Type.String({ maxLength: 16 * 1024 * 1024 })),
    contentType: Opt(Type.String({ maxLength: 255 })),
    type: Opt(Type.String({ maxLength: 255 })),
  },
  { additionalProperties: false },
);
const Qty = Type.Number({ exclusiveMinimum: 0, maximum: 10000 });

export const AddItemBody = Type.Object(
  {
    sku: Opt(Type.String({ minLength: 1, maxLength: 255 })),
    productId: Opt(Type.Integer({ minimum: 1, maximum: 2147483647 })),
    qty: Opt(Qty),
    options: Opt(IdMap(OptionValue)),
    options_files: Opt(IdMap(FileUpload)),
    optionsFiles: Opt(IdMap(FileUpload)),
    superAttribute: Opt(IdMap(Type.Union([Type.Integer({ minimum: 1, maximum: 2147483647 }), Type.String({ pattern: '^[0-9]{1,10}$' })]))),
    super_attribute: Opt(IdMap(Type.Union([Type.Integer({ minimum: 1, maximum: 2147483647 }), Type.String({ pattern: '^[0-9]{1,10}$' })]))),
    superGroup: Opt(IdMap(Type.Number({ minimum: 0, maximum: 10000 }))),
    super_group: Opt(IdMap(Type.Number({ minimum: 0, maximum: 10000 }))),
    bundleOption: Opt(
      IdMap(
        Type.Union([
          Type.Integer({ minimum: 1, maximum: 2147483647 }),
          Type.Array(Type.Integer({ minimum: 1, maximum: 2147483647 }), { maxItems: 100 }),
        ]),
      ),
    ),
    bundle_option: Opt(
      IdMap(
        Type.Union([
          Type.Integer({ minimum: 1, maximum: 2147483647 }),
          Type.Array(Type.Integer({ minimum: 1, maximum: 2147483647 }), { maxItems: 100 }),
        ]),
      ),
    ),
    bundleOptionQty: Opt(IdMap(Type.Number({ exclusiveMinimum: 0, maximum: 10000 }))),
    bundle_option_qty: Opt(IdMap(Type.Number({ exclusiveMinimum: 0, maximum: 10000 }))),
    links: Opt(Type.Array(Type.Integer({ minimum: 1, maximum: 2147483647 }), { maxItems: 100 })),
    customPrice: Opt(Type.Number({ minimum: 0, maximum: 999999999999 })),
  },
  { additionalProperties: false },
);
export type AddItemBodyT = Static<typeof AddItemBody>;

export const UpdateItemBody = Type.Object(
  {
    qty: Opt(Qty),
    customPrice: Opt(Type.Union([Type.Number({ minimum: 0, maximum: 999999999999 }), Type.Null()])),
  },
  { additionalProperties: false },
);

export const CouponBody = Type.Object(
  {
    couponCode: Opt(Type.String({ maxLength: 255 })),
    code: Opt(Type.String({ maxLength: 255 })),
  },
  { additionalProperties: false },
);

export const GiftcardBody = Type.Object(
  {
    giftcardCode: Opt(Type.String({ maxLength: 255 })),
    code: Opt(Type.String({ maxLength: 255 })),
  },
  { additionalProperties: false },
);

const Text = (max = 255) => Type.String({ maxLength: max });
export const AddressBody = Type.Object(
  {
    firstName: Opt(Text()),
    firstname: Opt(Text()),
    lastName: Opt(Text()),
    lastname: Opt(Text()),
    company: Opt(Type.Union([Text(), Type.Null()])),
    street: Opt(Type.Union([Text(1024), Type.Array(Text(), { maxItems: 4 })])),
    city: Opt(Text()),
    postcode: Opt(Text(20)),
    countryId: Opt(Text(3)),
    telephone: Opt(Text(40)),
    region: Opt(Type.Union([Text(), Type.Null()])),
    regionId: Opt(Type.Union([Type.Integer({ minimum: 0, maximum: 2147483647 }), Type.Null()])),
    email: Opt(Type.String({ maxLength: 254 })),
    customerAddressId: Opt(Type.Integer({ minimum: 1, maximum: 2147483647 })),
    sameAsShipping: Opt(Type.Boolean()),
  },
  { additionalProperties: false },
);
export type AddressBodyT = Static<typeof AddressBody>;

export const ShippingMethodsBody = Type.Object({ address: Opt(AddressBody) }, { additionalProperties: false });

export const ShippingMethodBody = Type.Object(
  {
    carrierCode: Opt(Type.String({ maxLength: 64 })),
    methodCode: Opt(Type.String({ maxLength: 64 })),
  },
  { additionalProperties: false },
);

export const PaymentMethodBody = Type.Object(
  {
    methodCode: Opt(Type.String({ maxLength: 64 })),
    code: Opt(Type.String({ maxLength: 64 })),
    additionalData: Opt(FreeForm(Type.Record(Type.String({ maxLength: 64 }), Type.Unknown(), { maxProperties: 50 }))),
  },
  { additionalProperties: false },
);
