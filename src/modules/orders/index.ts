import type { AppModule } from '../../platform/module.js';
import { operations } from './rest.js';
import { orderEvents } from './events.js';
import { orderReportOperations } from './reports-ops.js';
import { reportAggregates } from './report-aggregates.js';

export const ordersModule: AppModule = {
  name: 'orders',
  events: orderEvents.declarations,
  operations: [...operations, ...orderReportOperations],
  // the sales reports' daily aggregates, kept up to date beside the server
  background: [reportAggregates],
};
