/** The wire shape of a priced cart (cartDto), of its prices and of a shipping rate in the cart's currency. */
import type { Ctx } from '../../platform/context.js';
import { compact, wireDateTime } from '../../platform/format.js';
import { roundMoney, toWire, type Decimal } from '../../platform/money.js';
import { paymentTitle } from '../payment/service.js';
import type { ShippingRate } from '../shipping/service.js';
import type { PricedCart } from './pricing.js';
import type { CartDto } from './schemas.js';
import type { CartAddress } from './tables.js';

function addressDto(a: CartAddress | null, type: 'billing' | 'shipping') {
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

export function rateDto(r: ShippingRate, rate: Decimal) {
  return {
    code: r.code,
    title: r.title,
    carrierCode: r.carrierCode,
    methodCode: r.methodCode,
    carrierTitle: r.carrierTitle,
    methodTitle: r.methodTitle,
    price: toWire(roundMoney(r.price.mul(rate))),
  };
}

const money = (d: Decimal) => toWire(d);

export function pricesDto(p: PricedCart): CartDto['prices'] {
  const t = p.totals;
  const b = p.base;
  return {
    subtotal: money(t.subtotal),
    subtotalInclTax: money(t.subtotalInclTax),
    subtotalWithDiscount: money(t.subtotalWithDiscount),
    discountAmount: money(t.discountAmount),
    shippingAmount: money(t.shippingAmount),
    shippingAmountInclTax: money(t.shippingAmountInclTax),
    taxAmount: money(t.taxAmount),
    shippingTaxAmount: money(t.shippingTaxAmount),
    grandTotal: money(t.grandTotal),
    baseGrandTotal: money(b.grandTotal),
    baseSubtotal: money(b.subtotal),
    baseTaxAmount: money(b.taxAmount),
    baseShippingAmount: money(b.shippingAmount),
    baseDiscountAmount: money(b.discountAmount),
    giftcardAmount: money(t.giftcardAmount),
    baseGiftcardAmount: money(b.giftcardAmount),
  };
}

export function cartDto(ctx: Ctx, p: PricedCart, opts: { recreated?: boolean } = {}): CartDto {
  const { cart, totals } = p;
  const items = p.items.map((i) => {
    const t = totals.lines.get(i.row.id)!;
    return compact({
      id: i.row.id,
      sku: i.sku,
      name: i.name,
      qty: Number(i.row.qty),
      price: money(t.price),
      priceInclTax: money(t.priceInclTax),
      rowTotal: money(t.rowTotal),
      rowTotalInclTax: money(t.rowTotalInclTax),
      rowTotalWithDiscount: money(t.rowTotalWithDiscount),
      discountAmount: t.discountAmount.gt(0) ? money(t.discountAmount) : null,
      discountPercent: t.discountPercent ? money(t.discountPercent) : null,
      taxAmount: money(t.taxAmount),
      taxPercent: money(t.taxPercent),
      productId: i.product.id,
      productType: i.product.type,
      thumbnailUrl: (i.child?.thumbnailUrl ?? i.product.thumbnailUrl) || null,
      options: i.options,
      stockStatus: i.inStock ? 'in_stock' : 'out_of_stock',
      giftMessage: i.row.giftMessage ?? null,
    });
  });
  const selected = p.selectedRate;
  const payment = cart.paymentMethod && p.paymentMethods.find((m) => m.code === cart.paymentMethod);
  return compact({
    id: cart.id,
    maskedId: cart.maskedId,
    customerId: cart.customerId,
    customerEmail: cart.customerEmail,
    customerNote: cart.customerNote,
    reservedOrderId: cart.reservedOrderId,
    storeId: cart.storeId,
    isActive: cart.isActive,
    cartRecreated: opts.recreated ?? false,
    items,
    prices: pricesDto(p),
    billingAddress: addressDto(cart.billingAddress, 'billing') ?? null,
    shippingAddress: addressDto(cart.shippingAddress, 'shipping') ?? null,
    isVirtual: p.isVirtual,
    availableShippingMethods: p.shippingRates.map((r) => rateDto(r, p.rate)),
    selectedShippingMethod: selected
      ? {
          carrierCode: selected.carrierCode,
          methodCode: selected.methodCode,
          carrierTitle: selected.carrierTitle,
          methodTitle: selected.methodTitle,
          price: toWire(totals.shippingAmount),
        }
      : null,
    availablePaymentMethods: p.paymentMethods,
    selectedPaymentMethod: payment ? { code: payment.code, title: payment.title ?? paymentTitle(ctx, payment.code, cart.storeId) } : null,
    appliedCoupon: p.rule && totals.discountApplied ? { code: p.rule.code, discountAmount: money(totals.discountAmount) } : null,
    appliedGiftcards: totals.giftcards.map((g) => ({ code: g.code, balance: money(g.balance), appliedAmount: money(g.appliedAmount) })),
    giftMessage: cart.giftMessage ?? null,
    currency: cart.currency,
    baseCurrency: ctx.store.baseCurrency,
    itemsCount: items.length,
    itemsQty: p.items.reduce((n, i) => n + Number(i.row.qty), 0),
    createdAt: wireDateTime(cart.createdAt)!,
    updatedAt: wireDateTime(cart.updatedAt)!,
  }) as CartDto;
}
