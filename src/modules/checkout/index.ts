import type { AppModule } from '../../platform/module.js';
import { operations } from './rest.js';

export const checkoutModule: AppModule = {
  name: 'checkout',
  operations,
};
