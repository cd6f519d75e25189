/**
 * Invoice routes, read only (invoices arise from the order workflow). The list and the PDF exist under
 * /orders/{orderId} (the order's customer or admin/API; a foreign order is 403) and under
 * /customers/me/orders/{orderId} (the customer's own orders; anything else is 404).
 */
import type { FastifyReply } from 'fastify';
import { access } from '../../platform/auth/access.js';
import type { RestApp } from '../../platform/module.js';
import { collectionResponse, sendCollection } from '../../platform/pagination.js';
import { Invoice, InvoicePdfResponse, OrderInvoiceParams, OrderInvoicesParams } from './schemas.js';
import * as invoices from './service.js';

const tags = ['invoices'];

function sendPdf(reply: FastifyReply, pdf: { filename: string; body: Buffer }) {
  return reply
    .type('application/pdf')
    .header('content-disposition', `attachment; filename="${pdf.filename}"`)
    .header('cache-control', 'private, max-age=0, must-revalidate')
    .header('x-content-type-options', 'nosniff')
    .send(pdf.body);
}

export function routes(app: RestApp): void {
  app.get(
    '/orders/:orderId/invoices',
    {
      schema: {
        operationId: 'invoices.list',
        tags,
        summary: "Every invoice of an order, oldest first (unpaginated); a customer token on another's or a guest order is 403",
        params: OrderInvoicesParams,
        response: { 200: collectionResponse(Invoice) },
      },
      config: { access: access.customerOrAdmin('invoices', 'read') },
    },
    async (req, reply) =>
      sendCollection(req, reply, 'Invoice', await invoices.listInvoicesForCaller(req.ctx, req.params.orderId, 'orders', req.url.split('?')[0])),
  );
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
    '/customers/me/orders/:orderId/invoices',
    {
      schema: {
        operationId: 'invoices.listOwn',
        tags,
        summary: "Every invoice of the customer's own order, oldest first (unpaginated); another's order is 404",
        params: OrderInvoicesParams,
        response: { 200: collectionResponse(Invoice) },
      },
      config: { access: access.customer },
    },
    async (req, reply) =>
      sendCollection(req, reply, 'Invoice', await invoices.listInvoicesForCaller(req.ctx, req.params.orderId, 'me', req.url.split('?')[0])),
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
