/**
 * A priced cart as the Magento 1 API's cart.info and cart.totals answer it: the quote's fields (sales_flat_quote),
 * its shipping and billing address (sales_flat_quote_address, the totals on the address that carries them), its
 * items (sales_flat_quote_item) and its payment; and the totals as Magento's quote lists them (title, amount).
 * Amounts are decimal strings with 4 places, as Magento's columns print them.
 */
import type { Ctx } from '../../../platform/context.js';
import { dec, type Decimal } from '../../../platform/money.js';
import type { PricedCart, PricedItem } from '../../carts/pricing.js';
import { getCustomerIdentity } from '../../customers/service.js';
import { magentoDate, type LegacyValue } from '../resources.js';

type CartAddress = NonNullable<PricedCart['cart']['billingAddress']>;

type Rec = Map<string, LegacyValue>;
const ZERO = dec(0);
const m = (d: Decimal | null | undefined) => (d ? d.toFixed(4) : null);
const flag = (b: boolean) => (b ? 1 : 0);

/** How the cart's customer is set: a customer, a guest with an email, or nothing yet. */
export function checkoutMethod(p: PricedCart): string | null {
  return p.cart.customerId !== null ? 'customer' : p.cart.customerEmail ? 'guest' : null;
}

const sameAddress = (a: CartAddress | null, b: CartAddress | null) =>
  !!a && !!b && JSON.stringify({ ...a, email: null }) === JSON.stringify({ ...b, email: null });

/** One of the cart's addresses; `carries` puts the cart's totals on it (the shipping address, or a virtual cart's billing). */
function addressRecord(p: PricedCart, type: 'billing' | 'shipping', carries: boolean): LegacyValue {
  const { cart, totals: t, base: b } = p;
  const a = type === 'billing' ? cart.billingAddress : cart.shippingAddress;
  if (!a) return [];
  const amount = (cur: Decimal, baseAmount: Decimal) => [m(carries ? cur : ZERO), m(carries ? baseAmount : ZERO)];
  const rate = type === 'shipping' ? p.selectedRate : null;
  const [subtotal, baseSubtotal] = amount(t.subtotal, b.subtotal);
  const [withDiscount, baseWithDiscount] = amount(t.subtotalWithDiscount, b.subtotalWithDiscount);
  const [tax, baseTax] = amount(t.taxAmount, b.taxAmount);
  const [shipping, baseShipping] = amount(t.shippingAmount, b.shippingAmount);
  const [shippingTax, baseShippingTax] = amount(t.shippingTaxAmount, b.shippingTaxAmount);
  const [discount, baseDiscount] = amount(t.discountAmount.neg(), b.discountAmount.neg());
  const [grand, baseGrand] = amount(t.grandTotal, b.grandTotal);
  const [shipDiscount, baseShipDiscount] = amount(t.shippingDiscountAmount, b.shippingDiscountAmount);
  const [inclTax] = amount(t.subtotalInclTax, b.subtotalInclTax);
  const [shipInclTax, baseShipInclTax] = amount(t.shippingAmountInclTax, b.shippingAmountInclTax);
  const weight = p.items.reduce((w, i) => (i.isVirtual ? w : w.add(i.weight.mul(i.row.qty))), ZERO);
  return new Map<string, LegacyValue>([
    // one address of each type per cart: the cart's id and the type name it, as sales_order numbers order addresses
    ['address_id', type === 'billing' ? cart.id * 2 - 1 : cart.id * 2],
    ['quote_id', cart.id],
    ['created_at', magentoDate(cart.createdAt)],
    ['updated_at', magentoDate(cart.updatedAt)],
    ['customer_id', cart.customerId],
    ['save_in_address_book', 0],
    ['customer_address_id', a.customerAddressId ?? null],
    ['address_type', type],
    ['email', a.email ?? cart.customerEmail],
    ['prefix', null],
    ['firstname', a.firstName],
    ['middlename', null],
    ['lastname', a.lastName],
    ['suffix', null],
    ['company', a.company ?? null],
    ['street', a.street.join('\n')],
    ['city', a.city],
    ['region', a.region ?? null],
    ['region_id', a.regionId ?? null],
    ['postcode', a.postcode],
    ['country_id', a.countryId],
    ['telephone', a.telephone],
    ['fax', null],
    ['same_as_billing', type === 'shipping' && sameAddress(cart.billingAddress, a) ? 1 : 0],
    ['free_shipping', carries && t.freeShipping > 0 ? 1 : 0],
    ['shipping_method', type === 'shipping' ? cart.shippingMethod : null],
    ['shipping_description', rate?.title ?? null],
    ['weight', m(carries ? weight : ZERO)],
    ['subtotal', subtotal],
    ['base_subtotal', baseSubtotal],
    ['subtotal_with_discount', withDiscount],
    ['base_subtotal_with_discount', baseWithDiscount],
    ['tax_amount', tax],
    ['base_tax_amount', baseTax],
    ['shipping_amount', shipping],
    ['base_shipping_amount', baseShipping],
    ['shipping_tax_amount', shippingTax],
    ['base_shipping_tax_amount', baseShippingTax],
    ['discount_amount', discount],
    ['base_discount_amount', baseDiscount],
    ['grand_total', grand],
    ['base_grand_total', baseGrand],
    ['customer_notes', null],
    ['discount_description', carries && p.rule && t.discountApplied ? p.rule.code : null],
    ['shipping_discount_amount', shipDiscount],
    ['base_shipping_discount_amount', baseShipDiscount],
    ['subtotal_incl_tax', inclTax],
    ['shipping_incl_tax', shipInclTax],
    ['base_shipping_incl_tax', baseShipInclTax],
  ]);
}

function itemRecord(p: PricedCart, i: PricedItem): Rec {
  const t = p.totals.lines.get(i.row.id)!;
  const b = p.base.lines.get(i.row.id)!;
  const custom = i.row.customPrice === null ? null : dec(i.row.customPrice).toFixed(4);
  return new Map<string, LegacyValue>([
    ['item_id', i.row.id],
    ['quote_id', p.cart.id],
    ['created_at', null],
    ['updated_at', null],
    ['product_id', i.product.id],
    ['store_id', p.cart.storeId],
    ['parent_item_id', null],
    ['is_virtual', flag(i.isVirtual)],
    ['sku', i.sku],
    ['name', i.name],
    ['description', null],
    ['applied_rule_ids', p.rule && t.discountAmount.gt(0) ? String(p.rule.ruleId) : null],
    ['additional_data', null],
    ['free_shipping', 0],
    ['is_qty_decimal', 0],
    ['no_discount', 0],
    ['weight', m(i.weight)],
    ['qty', dec(i.row.qty).toFixed(4)],
    ['price', m(t.price)],
    ['base_price', m(b.price)],
    ['custom_price', custom],
    ['discount_percent', m(t.discountPercent ?? ZERO)],
    ['discount_amount', m(t.discountAmount)],
    ['base_discount_amount', m(b.discountAmount)],
    ['tax_percent', m(t.taxPercent)],
    ['tax_amount', m(t.taxAmount)],
    ['base_tax_amount', m(b.taxAmount)],
    ['row_total', m(t.rowTotal)],
    ['base_row_total', m(b.rowTotal)],
    ['row_total_with_discount', m(t.rowTotalWithDiscount)],
    ['row_weight', m(i.weight.mul(i.row.qty))],
    ['product_type', i.product.type],
    ['base_tax_before_discount', null],
    ['tax_before_discount', null],
    ['original_custom_price', custom],
    ['redirect_url', null],
    ['base_cost', null],
    ['price_incl_tax', m(t.priceInclTax)],
    ['base_price_incl_tax', m(b.priceInclTax)],
    ['row_total_incl_tax', m(t.rowTotalInclTax)],
    ['base_row_total_incl_tax', m(b.rowTotalInclTax)],
    ['gift_message_id', null],
    ...(i.row.giftMessage ? [['gift_message', i.row.giftMessage.message] as [string, LegacyValue]] : []),
    ['tax_class_id', i.taxClassId],
  ]);
}

function paymentRecord(p: PricedCart): Rec {
  const { cart } = p;
  const data = cart.paymentData ?? {};
  const po = typeof data.poNumber === 'string' ? data.poNumber : null;
  return new Map<string, LegacyValue>([
    ['payment_id', cart.id],
    ['quote_id', cart.id],
    ['created_at', magentoDate(cart.createdAt)],
    ['updated_at', magentoDate(cart.updatedAt)],
    ['method', cart.paymentMethod],
    ['cc_type', null],
    ['cc_number_enc', null],
    ['cc_last4', null],
    ['cc_cid_enc', null],
    ['cc_owner', null],
    ['cc_exp_month', null],
    ['cc_exp_year', null],
    ['cc_ss_owner', null],
    ['cc_ss_start_month', null],
    ['cc_ss_start_year', null],
    ['po_number', po],
    ['additional_data', null],
    ['cc_ss_issue', null],
    ['additional_information', new Map(po ? [['poNumber', po]] : [])],
  ]);
}

/** cart.info: the quote's fields, its addresses, items and payment. `ctx` is the cart's context (cartContext). */
export async function infoRecord(ctx: Ctx, p: PricedCart): Promise<Rec> {
  const { cart, totals: t, base: b } = p;
  const customer = cart.customerId === null ? undefined : await getCustomerIdentity(ctx, cart.customerId);
  const names = customer ?? { firstname: cart.billingAddress?.firstName ?? null, lastname: cart.billingAddress?.lastName ?? null };
  const baseCurrency = ctx.store.baseCurrency;
  const rate = p.rate.toFixed(4);
  return new Map<string, LegacyValue>([
    ['store_id', cart.storeId],
    ['created_at', magentoDate(cart.createdAt)],
    ['updated_at', magentoDate(cart.updatedAt)],
    ['converted_at', cart.isActive ? null : magentoDate(cart.updatedAt)],
    ['is_active', flag(cart.isActive)],
    ['is_virtual', flag(p.isVirtual)],
    ['is_multi_shipping', 0],
    ['items_count', p.items.length],
    ['items_qty', p.items.reduce((q, i) => q.add(i.row.qty), ZERO).toFixed(4)],
    ['orig_order_id', 0],
    ['store_to_base_rate', '1.0000'],
    ['store_to_quote_rate', rate],
    ['base_currency_code', baseCurrency],
    ['store_currency_code', baseCurrency],
    ['quote_currency_code', cart.currency],
    ['grand_total', m(t.grandTotal)],
    ['base_grand_total', m(b.grandTotal)],
    ['checkout_method', checkoutMethod(p)],
    ['customer_id', cart.customerId],
    ['customer_tax_class_id', null],
    ['customer_group_id', p.groupId],
    ['customer_email', customer?.email ?? cart.customerEmail],
    ['customer_prefix', null],
    ['customer_firstname', names.firstname],
    ['customer_middlename', null],
    ['customer_lastname', names.lastname],
    ['customer_suffix', null],
    ['customer_dob', null],
    ['customer_note', cart.customerNote],
    ['customer_note_notify', 1],
    ['customer_is_guest', cart.customerId === null ? 1 : 0],
    ['remote_ip', null],
    ['applied_rule_ids', p.rule && t.discountApplied ? String(p.rule.ruleId) : null],
    ['reserved_order_id', cart.reservedOrderId],
    ['password_hash', null],
    ['coupon_code', cart.couponCode],
    ['global_currency_code', baseCurrency],
    ['base_to_global_rate', '1.0000'],
    ['base_to_quote_rate', rate],
    ['customer_taxvat', null],
    ['customer_gender', null],
    ['subtotal', m(t.subtotal)],
    ['base_subtotal', m(b.subtotal)],
    ['subtotal_with_discount', m(t.subtotalWithDiscount)],
    ['base_subtotal_with_discount', m(b.subtotalWithDiscount)],
    ['is_changed', 0],
    ['trigger_recollect', 0],
    ['ext_shipping_info', null],
    ['gift_message_id', null],
    ['is_persistent', 0],
    ['gift_cards_amount', m(t.giftcardAmount)],
    ['base_gift_cards_amount', m(b.giftcardAmount)],
    ...(cart.giftMessage ? [['gift_message', cart.giftMessage.message] as [string, LegacyValue]] : []),
    ['shipping_address', addressRecord(p, 'shipping', !p.isVirtual)],
    ['billing_address', addressRecord(p, 'billing', p.isVirtual)],
    ['items', p.items.map((i) => itemRecord(p, i))],
    ['payment', paymentRecord(p)],
    ['quote_id', cart.id],
  ]);
}

/**
 * cart.totals: the totals Magento's quote lists, in its order (subtotal, discount, shipping, tax, gift cards, grand
 * total), in the cart's currency; the discount, shipping and tax only where the cart has them.
 */
export function totalsList(p: PricedCart): LegacyValue[] {
  const t = p.totals;
  const out: [string, Decimal][] = [['Subtotal', t.subtotal]];
  if (p.rule && t.discountApplied) out.push([`Discount (${p.rule.code})`, t.discountAmount.neg()]);
  if (p.selectedRate) out.push([`Shipping & Handling (${p.selectedRate.title})`, t.shippingAmount]);
  if (!t.taxAmount.isZero()) out.push(['Tax', t.taxAmount]);
  if (t.giftcardAmount.gt(0)) out.push(['Gift Cards', t.giftcardAmount.neg()]);
  out.push(['Grand Total', t.grandTotal]);
  return out.map(
    ([title, amount]) =>
      new Map<string, LegacyValue>([
        ['title', title],
        ['amount', amount.toFixed(4)],
      ]),
  );
}
