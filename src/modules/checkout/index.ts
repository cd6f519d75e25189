import type { AppModule } from '../../platform/module.js';
import { routes } from './rest.js';

export const checkoutModule: AppModule = {
  name: 'checkout',
  routes,
};
