import type { AppModule } from '../../platform/module.js';
import { writeOperations } from './create-ops.js';
import { operations, routes } from './rest.js';
import { giftcardsInvoiced } from './service.js';
import { invoiceEvents } from './events.js';

export const invoicesModule: AppModule = {
  name: 'invoices',
  events: invoiceEvents.declarations,
  operations: [...operations, ...writeOperations],
  routes,
  // a cancellation gives back only the gift card money no invoice took
  orderParts: { giftcardsInvoiced },
};
