import type { AppModule } from '../../platform/module.js';
import { quickCreateCustomer } from './quick-create-ops.js';
import { operations } from './rest.js';
import { install, seedDemo } from './service.js';
import { customerEvents } from './events.js';
import { customerReportOperations } from './reports-ops.js';

export const customersModule: AppModule = {
  name: 'customers',
  events: customerEvents.declarations,
  operations: [...operations, quickCreateCustomer, ...customerReportOperations],
  install: { version: 1, run: install },
  demo: seedDemo,
};
