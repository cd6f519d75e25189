import type { AppModule } from '../../platform/module.js';
import { inventoryGraphql } from './graphql.js';
import { routes } from './rest.js';

export const inventoryModule: AppModule = {
  name: 'inventory',
  routes,
  graphql: inventoryGraphql,
};
