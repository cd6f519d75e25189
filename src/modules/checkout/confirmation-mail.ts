/** The confirmation mail of a placed order: what was ordered, the totals and the payment. */
import type { Ctx } from '../../platform/context.js';
import { dec } from '../../platform/money.js';
import type { Mail } from '../../platform/outbox.js';
import type { OrderWithItems } from '../orders/core.js';
import { itemLine, mailMoney, orderMailOf } from '../orders/mail.js';

export function confirmationMail(ctx: Ctx, placed: OrderWithItems): Mail {
  const o = placed.order;
  const c = o.currency;
  return orderMailOf(ctx, o, {
    template: 'sales/order_confirmation',
    subject: `Order ${o.incrementId} received`,
    intro: [`We have received your order ${o.incrementId}. Here is what you ordered:`],
    lines: [
      ...placed.items.map((i) => itemLine(i, i.qtyOrdered, i.rowTotal, c)),
      '',
      `Subtotal: ${mailMoney(o.subtotal, c)}`,
      ...(dec(o.discountAmount).gt(0) ? [`Discount${o.couponCode ? ` (${o.couponCode})` : ''}: -${mailMoney(o.discountAmount, c)}`] : []),
      ...(o.shippingMethod ? [`Shipping (${o.shippingDescription}): ${mailMoney(o.shippingAmount, c)}`] : []),
      `Tax: ${mailMoney(o.taxAmount, c)}`,
      ...(dec(o.giftcardAmount).gt(0) ? [`Gift cards: -${mailMoney(o.giftcardAmount, c)}`] : []),
      `Grand total: ${mailMoney(o.grandTotal, c)}`,
      '',
      `Payment: ${o.paymentTitle}`,
    ],
    outro: [
      o.customerIsGuest
        ? 'You can follow your order with the link in your order confirmation page.'
        : 'You can follow your order in your account.',
    ],
  });
}
