import type { AppModule } from '../../platform/module.js';
import { reviewsGraphql } from './graphql.js';
import { routes } from './rest.js';
import { install } from './service.js';

export const reviewsModule: AppModule = {
  name: 'reviews',
  routes,
  graphql: reviewsGraphql,
  install: { version: 1, run: install },
};
