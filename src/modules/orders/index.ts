import type { AppModule } from '../../platform/module.js';
import { ordersGraphql } from './graphql.js';
import { routes } from './rest.js';

export const ordersModule: AppModule = {
  name: 'orders',
  routes,
  graphql: ordersGraphql,
};
