import type { AppModule } from '../../platform/module.js';
import { operations } from './rest.js';
import { orderEvents } from './events.js';

export const ordersModule: AppModule = {
  name: 'orders',
  events: orderEvents.declarations,
  operations,
};
