import type { AppModule } from '../../platform/module.js';
import { operations } from './rest.js';
import { orderEvents } from './events.js';
import { orderReportOperations } from './reports-ops.js';

export const ordersModule: AppModule = {
  name: 'orders',
  events: orderEvents.declarations,
  operations: [...operations, ...orderReportOperations],
};
