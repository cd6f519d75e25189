import type { AppModule } from '../../platform/module.js';
import { inventoryGraphql } from './graphql.js';
import { operations, routes } from './rest.js';

export const inventoryModule: AppModule = {
  name: 'inventory',
  operations,
  routes,
  graphql: inventoryGraphql,
};
