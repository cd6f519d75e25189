import type { AppModule } from '../../platform/module.js';
import { storesGraphql } from './graphql.js';
import { operations, routes } from './rest.js';
import { install, seedDemo } from './service.js';

export const storesModule: AppModule = {
  name: 'stores',
  operations,
  routes,
  graphql: storesGraphql,
  install: { version: 1, run: install },
  demo: seedDemo,
};
