import type { AppModule } from '../../platform/module.js';
import { routes } from './rest.js';

export const invoicesModule: AppModule = {
  name: 'invoices',
  routes,
};
