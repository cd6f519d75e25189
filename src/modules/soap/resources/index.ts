/** Every resource of the Magento 1 API this server answers, in the order `resources` lists them. */
import { METHODS, runMethod, type LegacyAddress } from '../operations.js';
import { defineResource, type LegacyResource, type LegacyValue } from '../resources.js';
import { coreMagento, coreStore, customerGroup, directoryCountry, directoryRegion } from './core.js';
import { customer } from './customer.js';
import { salesOrder } from './sales-order.js';
import { salesOrderInvoice } from './sales-invoice.js';
import { salesOrderShipment } from './sales-shipment.js';
import { salesOrderCreditmemo } from './sales-creditmemo.js';
import { stockItem } from './stock.js';
import { category } from './category.js';
import { categoryAttribute } from './category-attribute.js';
import { product, productType } from './product.js';
import { productAttribute } from './product-attribute.js';
import { attributeSet } from './product-attribute-set.js';
import { productMedia } from './product-media.js';
import { productTierPrice } from './product-tier-price.js';
import { productLink } from './product-link.js';
import { productCustomOption, productCustomOptionValue } from './product-option.js';
import { downloadableLink } from './downloadable.js';
import { tag } from './tag.js';
import { cart } from './cart.js';
import { cartProduct } from './cart-product.js';
import { cartCustomer } from './cart-customer.js';
import { cartCoupon, cartPayment, cartShipping } from './cart-methods.js';
import { giftmessage } from './giftmessage.js';
import { blogPost } from './blog.js';

const TITLES: Record<(typeof METHODS)[number], string> = {
  list: 'Retrieve customer addresses',
  create: 'Create customer address',
  info: 'Retrieve address data',
  update: 'Update customer address data',
  delete: 'Delete customer address',
};
const PARAMS: Record<(typeof METHODS)[number], string[]> = {
  list: ['customerId'],
  create: ['customerId', 'addressData'],
  info: ['addressId'],
  update: ['addressId', 'addressData'],
  delete: ['addressId'],
};

const addressRecord = (a: LegacyAddress): LegacyValue => new Map(Object.entries(a));

/** `customer_address`, over the five operations V2 and WS-I share (operations.ts checks their permissions). */
const customerAddress = defineResource({
  name: 'customer_address',
  title: 'Customer Address API',
  faults: {
    data_invalid: ['100', 'Invalid address data. Details in error message.'],
    customer_not_exists: ['101', 'Customer not exists.'],
    not_exists: ['102', 'Address not exists.'],
    not_deleted: ['103', 'Address not deleted. Details in error message.'],
  },
  methods: Object.fromEntries(
    METHODS.map((m) => [
      m,
      {
        title: TITLES[m],
        permission: ['addresses', m === 'list' || m === 'info' ? 'read' : m === 'update' ? 'write' : m] as const,
        params: PARAMS[m],
        run: async (ctx, args) => {
          const r = await runMethod(ctx, m, args);
          return Array.isArray(r) ? r.map(addressRecord) : typeof r === 'object' ? addressRecord(r) : r;
        },
      },
    ]),
  ) as LegacyResource['methods'],
});

export const LEGACY_RESOURCES: LegacyResource[] = [
  coreStore,
  coreMagento,
  directoryCountry,
  directoryRegion,
  customer,
  customerGroup,
  customerAddress,
  salesOrder,
  salesOrderInvoice,
  salesOrderShipment,
  salesOrderCreditmemo,
  stockItem,
  category,
  categoryAttribute,
  product,
  productType,
  productAttribute,
  attributeSet,
  productMedia,
  productTierPrice,
  productLink,
  productCustomOption,
  productCustomOptionValue,
  downloadableLink,
  tag,
  cart,
  cartProduct,
  cartCustomer,
  cartShipping,
  cartPayment,
  cartCoupon,
  giftmessage,
  blogPost,
];
