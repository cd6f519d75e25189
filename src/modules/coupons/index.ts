import type { AppModule } from '../../platform/module.js';
import { couponsGraphql } from './graphql.js';
import { routes } from './rest.js';
import { seedDemo } from './service.js';

export const couponsModule: AppModule = {
  name: 'coupons',
  routes,
  graphql: couponsGraphql,
  demo: seedDemo,
};
