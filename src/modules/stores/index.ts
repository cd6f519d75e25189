import type { AppModule } from '../../platform/module.js';
import { configurationOperations } from './configuration-ops.js';
import { operations, routes } from './rest.js';
import { install, seedDemo } from './service.js';

export const storesModule: AppModule = {
  name: 'stores',
  operations: [...operations, ...configurationOperations],
  routes,
  install: { version: 1, run: install },
  demo: seedDemo,
};
