import type { AppModule } from '../../platform/module.js';
import { operations, routes } from './rest.js';

export const invoicesModule: AppModule = {
  name: 'invoices',
  operations,
  routes,
};
