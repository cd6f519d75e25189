/**
 * Invoice writes (admin/API only), as Maho's invoice API has them: invoice an order, and capture, void or cancel
 * an invoice. Maho's API Platform gives invoices no GraphQL surface; the mutations are named as it names a
 * resource's mutations (`<operation><ShortName>`: createInvoice, captureInvoice, ...).
 */
import { access } from '../../platform/auth/access.js';
import { op, type Operation } from '../../platform/operations.js';
import { createInvoiceForOrder, invoiceAction, type InvoiceAction } from './lifecycle.js';
import { Invoice, InvoiceCreate, InvoiceParams, OrderInvoicesParams } from './schemas.js';

const tags = ['invoices'];
const shortName = 'Invoice';

type Args = Record<string, unknown>;
const nullsDropped = (args: Args, next: (a: Args) => Promise<unknown>) =>
  next(Object.fromEntries(Object.entries(args).filter(([, v]) => v !== null)));

function lifecycle(action: InvoiceAction, summary: string): Operation {
  return op({
    id: `invoices.${action}`,
    method: 'POST',
    path: `/invoices/:id/${action}`,
    tags,
    summary,
    access: access.admin('invoices', 'write'),
    shortName,
    params: InvoiceParams,
    response: Invoice,
    status: 201,
    graphql: { name: `${action}Invoice` },
    run: (ctx, { params }) => invoiceAction(ctx, params.id, action),
  });
}

export const writeOperations: Operation[] = [
  op({
    id: 'invoices.create',
    method: 'POST',
    path: '/orders/:orderId/invoices',
    tags,
    summary:
      'Invoice an order (items omitted or empty: everything left to invoice). capture offline (default) pays the invoice, not_capture leaves ' +
      'it open, online is refused (every payment method here is offline); notifyCustomer mails the invoice; the order moves to processing ' +
      '(complete once also fully shipped)',
    access: access.admin('invoices', 'create'),
    shortName,
    params: OrderInvoicesParams,
    body: InvoiceCreate,
    response: Invoice,
    status: 201,
    graphql: { name: 'createInvoice', around: nullsDropped },
    run: (ctx, { params, body }) => createInvoiceForOrder(ctx, params.orderId, body),
  }),
  lifecycle('capture', "Capture an open invoice: it becomes paid and the order's paid totals grow by its grand total"),
  lifecycle(
    'void',
    "Void an invoice paid through its capture: it becomes canceled, the order's paid and invoiced totals shrink and its items can be " +
      'invoiced again (an invoice paid when it was created cannot be voided)',
  ),
  lifecycle(
    'cancel',
    "Cancel an open invoice: it becomes canceled, the order items' invoiced quantities and the order's invoiced totals go back, so the " +
      'items can be invoiced again',
  ),
];
