/** The invoices' event: an invoice created, with the invoice as the back office reads it. */
import { defineEvents } from '../../platform/events.js';
import { Invoice } from './schemas.js';

export const invoiceEvents = defineEvents({
  'invoice.created': { description: 'An invoice was created', payload: Invoice },
});
