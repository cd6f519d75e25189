import type { AppModule } from '../../platform/module.js';
import { operations, routes } from './rest.js';
import { install, seedDemo } from './service.js';

export const storesModule: AppModule = {
  name: 'stores',
  operations,
  routes,
  install: { version: 1, run: install },
  demo: seedDemo,
};
