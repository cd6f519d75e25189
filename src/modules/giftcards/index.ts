import type { AppModule } from '../../platform/module.js';
import { giftcardsGraphql } from './graphql.js';
import { routes } from './rest.js';
import { seedDemo } from './service.js';

export const giftcardsModule: AppModule = {
  name: 'giftcards',
  routes,
  graphql: giftcardsGraphql,
  demo: seedDemo,
};
