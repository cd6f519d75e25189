import type { AppModule } from '../../platform/module.js';
import { operations, routes } from './rest.js';
import { invoiceEvents } from './events.js';

export const invoicesModule: AppModule = {
  name: 'invoices',
  events: invoiceEvents.declarations,
  operations,
  routes,
};
