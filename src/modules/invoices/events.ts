/** The invoices' events, with the invoice as the back office reads it. */
import { defineEvents } from '../../platform/events.js';
import { Invoice } from './schemas.js';

export const invoiceEvents = defineEvents({
  'invoice.created': { description: 'An invoice was created', payload: Invoice },
  'invoice.updated': { description: 'An invoice was captured (now paid), voided or canceled (now canceled)', payload: Invoice },
});
