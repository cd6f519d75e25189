/**
 * Invoice routes, read only (invoices arise from the order workflow). Every invoice (GET /invoices, filtered,
 * searched and sorted) and one invoice (GET /invoices/{id}) for the back office; an order's list and the PDF
 * under /orders/{orderId} (the order's customer or admin/API; a foreign order is 403) and under
 * /customers/me/orders/{orderId} (the customer's own orders; anything else is 404). The lists are declarations
 * served by REST and GraphQL; the PDFs stay plain routes (a binary answer).
 */
import type { FastifyReply } from 'fastify';
import { access } from '../../platform/auth/access.js';
import type { RestApp } from '../../platform/module.js';
import { op, type Operation } from '../../platform/operations.js';
import { getInvoice, listAllInvoices } from './list.js';
import { Invoice, InvoiceListQuery, InvoiceParams, InvoicePdfResponse, OrderInvoiceParams, OrderInvoicesParams } from './schemas.js';
import * as invoices from './service.js';

const tags = ['invoices'];
const shortName = 'Invoice';
const API = '/api/rest/v2';

function sendPdf(reply: FastifyReply, pdf: { filename: string; body: Buffer }) {
  return reply
    .type('application/pdf')
    .header('content-disposition', `attachment; filename="${pdf.filename}"`)
    .header('cache-control', 'private, max-age=0, must-revalidate')
    .header('x-content-type-options', 'nosniff')
    .send(pdf.body);
}

export const operations: Operation[] = [
  op({
    id: 'invoices.listAll',
    method: 'GET',
    path: '/invoices',
    tags,
    summary:
      "Every invoice, newest first unless sortBy/sortDir say otherwise (createdAt, incrementId, grandTotal, state), 20 a page (of a store-limited principal's stores only); filters incrementId, orderId, orderIncrementId, state (open, paid, canceled), storeId, createdFrom, createdTo; search: invoice number, or the order's number, customer email or name",
    access: access.admin('invoices', 'read'),
    shortName,
    query: InvoiceListQuery,
    kind: 'collection',
    response: Invoice,
    page: { defaultSize: 20, maxSize: 100 },
    run: (ctx, { query, page }) => listAllInvoices(ctx, query, page),
  }),
  op({
    id: 'invoices.get',
    method: 'GET',
    path: '/invoices/:id',
    tags,
    summary: 'One invoice with its items, comments and the path of its PDF',
    access: access.admin('invoices', 'read'),
    shortName,
    params: InvoiceParams,
    response: Invoice,
    run: (ctx, { params }) => getInvoice(ctx, params.id),
  }),
  op({
    id: 'invoices.list',
    method: 'GET',
    path: '/orders/:orderId/invoices',
    tags,
    summary: "Every invoice of an order, oldest first (unpaginated); a customer token on another's or a guest order is 403",
    access: access.customerOrAdmin('invoices', 'read'),
    shortName,
    params: OrderInvoicesParams,
    kind: 'collection',
    response: Invoice,
    graphql: { name: 'orderInvoices' },
    // each invoice's pdfUrl is under the list's path
    run: (ctx, { params }) => invoices.listInvoicesForCaller(ctx, params.orderId, 'orders', `${API}/orders/${params.orderId}/invoices`),
  }),
  op({
    id: 'invoices.listOwn',
    method: 'GET',
    path: '/customers/me/orders/:orderId/invoices',
    tags,
    summary: "Every invoice of the customer's own order, oldest first (unpaginated); another's order is 404",
    access: access.customer,
    shortName,
    params: OrderInvoicesParams,
    kind: 'collection',
    response: Invoice,
    graphql: { name: 'myOrderInvoices' },
    run: (ctx, { params }) =>
      invoices.listInvoicesForCaller(ctx, params.orderId, 'me', `${API}/customers/me/orders/${params.orderId}/invoices`),
  }),
];

/** The PDF downloads: binary answers, which have no GraphQL field. */
export function routes(app: RestApp): void {
  app.get(
    '/orders/:orderId/invoices/:id/pdf',
    {
      schema: {
        operationId: 'invoices.pdf',
        tags,
        summary: 'Download an invoice of an order as a PDF (404 when the invoice is not on that order)',
        params: OrderInvoiceParams,
        response: { 200: InvoicePdfResponse },
      },
      config: { access: access.customerOrAdmin('invoices', 'read') },
    },
    async (req, reply) => sendPdf(reply, await invoices.invoicePdfForCaller(req.ctx, req.params.orderId, req.params.id, 'orders')),
  );
  app.get(
    '/customers/me/orders/:orderId/invoices/:id/pdf',
    {
      schema: {
        operationId: 'invoices.pdfOwn',
        tags,
        summary: "Download an invoice of the customer's own order as a PDF (404 for another's order or an invoice not on it)",
        params: OrderInvoiceParams,
        response: { 200: InvoicePdfResponse },
      },
      config: { access: access.customer },
    },
    async (req, reply) => sendPdf(reply, await invoices.invoicePdfForCaller(req.ctx, req.params.orderId, req.params.id, 'me')),
  );
}
