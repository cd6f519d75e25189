import type { AppModule } from '../../platform/module.js';
import { shipmentsGraphql } from './graphql.js';
import { routes } from './rest.js';

export const shipmentsModule: AppModule = {
  name: 'shipments',
  routes,
  graphql: shipmentsGraphql,
};
