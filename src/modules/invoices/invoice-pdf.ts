/**
 * The invoice PDF: store, invoice and order numbers and dates, addresses, payment and shipping method, the
 * items and the totals, laid out with the platform's PDF writer.
 */
import type { Ctx } from '../../platform/context.js';
import { wireDate } from '../../platform/format.js';
import { renderPdf } from '../../platform/pdf.js';
import type { OrderAddress, OrderRow } from '../orders/core.js';
import { mailMoney, storeNameOf } from '../orders/mail.js';
import type { InvoiceDto } from './schemas.js';

function addressLines(a: OrderAddress | null): string[] {
  if (!a) return ['-'];
  const region = a.region ?? a.regionCode ?? '';
  return [
    `${a.firstName} ${a.lastName}`.trim(),
    ...(a.company ? [a.company] : []),
    ...a.street.filter(Boolean),
    [a.postcode, a.city].filter(Boolean).join(' ') + (region ? `, ${region}` : ''),
    a.countryId,
    ...(a.telephone ? [`T: ${a.telephone}`] : []),
  ];
}

const qtyText = (q: number) => String(q);

/** The PDF of an invoice of `order`. Rendering the same invoice twice gives the same bytes. */
export async function renderInvoicePdf(ctx: Ctx, order: OrderRow, invoice: InvoiceDto): Promise<Buffer> {
  const store = storeNameOf(ctx, order.storeId);
  const c = invoice.currency;
  const money = (v: number) => mailMoney(v, c);
  const minus = (v: number) => `-${money(v)}`;
  return renderPdf(
    {
      title: `Invoice ${invoice.incrementId}`,
      author: store,
      subject: `Invoice ${invoice.incrementId} for order ${order.incrementId}`,
      createdAt: new Date(`${invoice.createdAt.replace(' ', 'T')}Z`),
    },
    (pdf) => {
      pdf.title(store);
      pdf.gap(0.5);
      pdf.text(`Invoice # ${invoice.incrementId}`, { bold: true, size: 14 });
      pdf.gap(0.3);
      pdf.keyValues([
        ['Invoice date', invoice.createdAt.slice(0, 10)],
        ['Order #', order.incrementId],
        ['Order date', wireDate(order.createdAt) ?? ''],
        ['Status', invoice.stateName],
      ]);
      pdf.gap();
      pdf.blocks([
        { title: 'Sold to', lines: addressLines(order.billingAddress) },
        ...(order.isVirtual ? [] : [{ title: 'Ship to', lines: addressLines(order.shippingAddress) }]),
      ]);
      pdf.gap(0.5);
      pdf.blocks([
        { title: 'Payment method', lines: [order.paymentTitle] },
        ...(order.isVirtual ? [] : [{ title: 'Shipping method', lines: [order.shippingDescription ?? order.shippingMethod ?? '-'] }]),
      ]);
      pdf.gap();
      pdf.table(
        [
          { header: 'Product', width: 30 },
          { header: 'SKU', width: 16 },
          { header: 'Price', width: 13, align: 'right' },
          { header: 'Qty', width: 7, align: 'right' },
          { header: 'Tax', width: 13, align: 'right' },
          { header: 'Row total', width: 15, align: 'right' },
        ],
        invoice.items.map((i) => [i.name, i.sku, money(i.price), qtyText(i.qty), money(i.taxAmount), money(i.rowTotal)]),
      );
      pdf.gap(0.5);
      pdf.totals([
        { label: 'Subtotal', value: money(invoice.subtotal) },
        ...(invoice.discountAmount > 0
          ? [
              {
                label: invoice.discountDescription ? `Discount (${invoice.discountDescription})` : 'Discount',
                value: minus(invoice.discountAmount),
              },
            ]
          : []),
        ...(order.isVirtual ? [] : [{ label: 'Shipping & handling', value: money(invoice.shippingAmount) }]),
        { label: 'Tax', value: money(invoice.taxAmount) },
        ...(invoice.giftcardAmount > 0 ? [{ label: 'Gift cards', value: minus(invoice.giftcardAmount) }] : []),
        { label: 'Grand total', value: money(invoice.grandTotal), bold: true },
      ]);
      pdf.gap(2);
      pdf.text(`Amounts in ${c}. Thank you for shopping at ${store}.`, { size: 8 });
    },
  );
}
