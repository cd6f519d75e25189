/**
 * `cart_shipping`, `cart_payment` and `cart_coupon` of the Magento 1 API: the shipping rates for a cart's shipping
 * address and the choice of one by its code as Magento names it (carrier_method); the payment methods the cart
 * allows and the choice of one with its data (method, po_number, ...); a coupon code applied or removed. Each
 * over the carts service's setters, so the REST operations' rules hold (rates offered for the address, methods
 * for the total and country, coupon conditions and limits).
 */
import type { Ctx } from '../../../platform/context.js';
import { cartContext, priceCart, type PricedCart } from '../../carts/pricing.js';
import type { Loaded } from '../../carts/load.js';
import { setPaymentMethod, setShippingMethod } from '../../carts/details.js';
import { applyCoupon, removeCoupon } from '../../carts/reductions.js';
import { isRecord } from '../encoding.js';
import { defineResource, resourceFault, serviceFault, type LegacyValue } from '../resources.js';
import { cartRef, QUOTE_FAULTS, quoteArg } from './cart-shared.js';

const text = (v: LegacyValue | undefined) => (typeof v === 'string' ? v.trim() : typeof v === 'number' ? String(v) : '');

/** The cart priced as it stands (rates for its address, methods for its total), without being shown to anyone. */
const priced = (ctx: Ctx, { cart, items, version }: Loaded): Promise<PricedCart> =>
  priceCart(cartContext(ctx, cart), cart, items, { version });

export const cartShipping = defineResource({
  name: 'cart_shipping',
  title: 'Shipping information',
  faults: {
    ...QUOTE_FAULTS,
    shipping_address_is_not_set: ['1061', 'Can not make operation because of customer shipping address is not set'],
    shipping_method_is_not_available: ['1062', 'Shipping method is not available'],
    shipping_method_is_not_set: ['1063', 'Can not set shipping method. '],
    shipping_methods_list_could_not_be_retrieved: ['1064', 'Can not receive list of shipping methods. '],
  },
  methods: {
    method: {
      title: 'Set shipping method',
      permission: ['carts', 'write'],
      params: ['quoteId', 'shippingMethod', 'store'],
      run: async (ctx, [quoteId, shippingMethod, store]) => {
        const loaded = await quoteArg(ctx, cartShipping, quoteId, store);
        if (!loaded.cart.shippingAddress) throw resourceFault(cartShipping, 'shipping_address_is_not_set');
        const code = text(shippingMethod);
        const rate = (await priced(ctx, loaded)).shippingRates.find((r) => r.code === code);
        if (!rate) throw resourceFault(cartShipping, 'shipping_method_is_not_available');
        try {
          await setShippingMethod(ctx, cartRef(loaded.cart.id), { carrierCode: rate.carrierCode, methodCode: rate.methodCode });
        } catch (err) {
          serviceFault(cartShipping, err, {
            missing: 'quote_not_exists',
            invalid: 'shipping_method_is_not_set',
            reasons: { SHIPPING_METHOD_UNAVAILABLE: 'shipping_method_is_not_available' },
          });
        }
        return true;
      },
    },
    list: {
      title: 'Get list of available shipping methods',
      permission: ['carts', 'read'],
      params: ['quoteId', 'store'],
      run: async (ctx, [quoteId, store]) => {
        const loaded = await quoteArg(ctx, cartShipping, quoteId, store);
        if (!loaded.cart.shippingAddress) throw resourceFault(cartShipping, 'shipping_address_is_not_set');
        // Magento's rate rows (sales_flat_quote_shipping_rate), prices in the base currency, with the carrier's name
        return (await priced(ctx, loaded)).shippingRates.map(
          (r) =>
            new Map<string, LegacyValue>([
              ['carrier', r.carrierCode],
              ['carrier_title', r.carrierTitle],
              ['code', r.code],
              ['method', r.methodCode],
              ['method_description', null],
              ['price', r.price.toFixed(4)],
              ['error_message', null],
              ['method_title', r.methodTitle],
              ['carrierName', r.carrierTitle],
            ]),
        );
      },
    },
  },
});

/** Payment data's own keys (all but `method`) with plain values, as the payment-method setter's additional data. */
function additionalData(data: Map<string, LegacyValue>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [k, v] of data) {
    if (k === 'method' || k.length > 64 || v === null || typeof v === 'object') continue;
    out[k] = v;
  }
  return out;
}

export const cartPayment = defineResource({
  name: 'cart_payment',
  title: 'Payment method information',
  faults: {
    ...QUOTE_FAULTS,
    payment_method_empty: ['1071', 'Payment method data is empty.'],
    billing_address_is_not_set: ['1072', "Customer's billing address is not set. Required for payment method data."],
    shipping_address_is_not_set: ['1073', "Customer's shipping address is not set. Required for payment method data."],
    method_not_allowed: ['1074', 'Payment method is not allowed'],
    payment_method_is_not_set: ['1075', 'Payment method is not set. '],
  },
  methods: {
    method: {
      title: 'Set payment method',
      permission: ['carts', 'write'],
      params: ['quoteId', 'paymentData', 'store'],
      run: async (ctx, [quoteId, paymentData, store]) => {
        const loaded = await quoteArg(ctx, cartPayment, quoteId, store);
        if (!isRecord(paymentData) || !paymentData.size) throw resourceFault(cartPayment, 'payment_method_empty');
        const { cart } = loaded;
        if ((await priced(ctx, loaded)).isVirtual) {
          if (!cart.billingAddress) throw resourceFault(cartPayment, 'billing_address_is_not_set');
        } else if (!cart.shippingAddress) throw resourceFault(cartPayment, 'shipping_address_is_not_set');
        const method = text(paymentData.get('method')) || undefined;
        try {
          await setPaymentMethod(ctx, cartRef(cart.id), { methodCode: method, additionalData: additionalData(paymentData) });
        } catch (err) {
          serviceFault(cartPayment, err, {
            missing: 'quote_not_exists',
            invalid: 'payment_method_is_not_set',
            reasons: { PAYMENT_METHOD_UNAVAILABLE: 'method_not_allowed' },
          });
        }
        return true;
      },
    },
    list: {
      title: 'Get list of available payment methods',
      permission: ['carts', 'read'],
      params: ['quoteId', 'store'],
      run: async (ctx, [quoteId, store]) => {
        const loaded = await quoteArg(ctx, cartPayment, quoteId, store);
        return (await priced(ctx, loaded)).paymentMethods.map(
          (m) =>
            new Map<string, LegacyValue>([
              ['code', m.code],
              ['title', m.title],
              // only offline methods: no card types to offer
              ['cc_types', null],
            ]),
        );
      },
    },
  },
});

export const cartCoupon = defineResource({
  name: 'cart_coupon',
  title: 'Shopping cart ability to set coupon code',
  faults: {
    ...QUOTE_FAULTS,
    quote_is_empty: ['1081', 'Coupon could not be applied because quote is empty.'],
    cannot_apply_coupon_code: ['1082', 'Coupon could not be applied.'],
    coupon_code_is_not_valid: ['1083', 'Coupon is not valid.'],
  },
  methods: {
    add: {
      title: 'Add coupon code for shopping cart',
      permission: ['carts', 'write'],
      params: ['quoteId', 'couponCode', 'store'],
      run: (ctx, [quoteId, couponCode, store]) => coupon(ctx, quoteId, text(couponCode), store),
    },
    remove: {
      title: 'Remove coupon code from shopping cart',
      permission: ['carts', 'write'],
      params: ['quoteId', 'store'],
      run: (ctx, [quoteId, store]) => coupon(ctx, quoteId, '', store),
    },
  },
});

/**
 * Applies `code` to the cart, or with '' removes its coupon: true when done; false when there was nothing to
 * remove, as Magento answers. A code the cart cannot take (unknown, expired, used up, conditions not met) is
 * coupon_code_is_not_valid.
 */
async function coupon(ctx: Ctx, quoteId: LegacyValue | undefined, code: string, store: LegacyValue | undefined): Promise<boolean> {
  const { cart, items } = await quoteArg(ctx, cartCoupon, quoteId, store);
  if (!items.length) throw resourceFault(cartCoupon, 'quote_is_empty');
  if (!code && !cart.couponCode) return false;
  try {
    if (code) await applyCoupon(ctx, cartRef(cart.id), { couponCode: code });
    else await removeCoupon(ctx, cartRef(cart.id));
  } catch (err) {
    serviceFault(cartCoupon, err, {
      missing: 'quote_not_exists',
      invalid: 'cannot_apply_coupon_code',
      reasons: { INVALID_COUPON: 'coupon_code_is_not_valid', COUPON_NOT_APPLICABLE: 'coupon_code_is_not_valid' },
    });
  }
  return true;
}
