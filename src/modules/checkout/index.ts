import type { AppModule } from '../../platform/module.js';
import { checkoutGraphql } from './graphql.js';
import { routes } from './rest.js';

export const checkoutModule: AppModule = {
  name: 'checkout',
  routes,
  graphql: checkoutGraphql,
};
