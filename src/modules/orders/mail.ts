/**
 * Mails about an order (confirmation, invoice, shipment, credit memo, comments), all built the same way from
 * the store's name and the order's data, and queued in the outbox in the caller's transaction.
 */
import type { Ctx } from '../../platform/context.js';
import { queueMail, type Mail } from '../../platform/outbox.js';
import { dec } from '../../platform/money.js';
import type { OrderItemRow, OrderRow } from './core.js';

export function storeNameOf(ctx: Ctx, storeId: number): string {
  const s = ctx.app.settings;
  return s.get('general/store_information/name', storeId) || s.store(storeId)?.name || 'our store';
}

/** An amount with its currency, as mails show it ("12.50 USD"). */
export function mailMoney(v: string | number, currency: string): string {
  return `${dec(v).toFixed(2)} ${currency}`;
}

export interface OrderMail {
  /** what kind of mail, e.g. `sales/order_confirmation` */
  template: string;
  /** subject after the store name: "Order 100000001 confirmed" */
  subject: string;
  /** paragraphs before the lines */
  intro: string[];
  /** item or detail lines, one per row */
  lines?: string[];
  /** paragraphs after the lines */
  outro?: string[];
}

type MailedOrder = Pick<OrderRow, 'customerEmail' | 'customerFirstname' | 'customerLastname' | 'storeId' | 'incrementId'>;

/** The mail to the order's customer, as the outbox takes it. */
export function orderMailOf(ctx: Ctx, order: MailedOrder, mail: OrderMail): Mail {
  const store = storeNameOf(ctx, order.storeId);
  const name = [order.customerFirstname, order.customerLastname].filter(Boolean).join(' ') || 'customer';
  const body = [
    `Hello ${name},`,
    '',
    ...mail.intro,
    ...(mail.lines?.length ? ['', ...mail.lines] : []),
    ...(mail.outro?.length ? ['', ...mail.outro] : []),
    '',
    `Thank you for shopping at ${store}.`,
  ];
  return {
    to: order.customerEmail,
    subject: `${store}: ${mail.subject}`,
    template: mail.template,
    text: body.join('\n'),
    storeId: order.storeId,
  };
}

/** Queues a mail to the order's customer (in the caller's transaction). */
export async function queueOrderMail(ctx: Ctx, order: MailedOrder, mail: OrderMail): Promise<void> {
  await queueMail(ctx, orderMailOf(ctx, order, mail));
}

/** "2 x Blue shirt (SKU-1)  20.00 USD" */
export function itemLine(i: Pick<OrderItemRow, 'name' | 'sku'>, qty: string | number, amount: string | number, currency: string): string {
  return `${dec(qty).toString()} x ${i.name} (${i.sku})  ${mailMoney(amount, currency)}`;
}
