import type { AppModule } from '../../platform/module.js';
import { creditMemosGraphql } from './graphql.js';
import { routes } from './rest.js';

export const creditMemosModule: AppModule = {
  name: 'credit-memos',
  routes,
  graphql: creditMemosGraphql,
};
