import type { AppModule } from '../../platform/module.js';
import { operations } from './rest.js';

export const ordersModule: AppModule = {
  name: 'orders',
  operations,
};
