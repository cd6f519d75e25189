import type { AppModule } from '../../platform/module.js';
import { creditMemosGraphql } from './graphql.js';
import { operations } from './rest.js';

export const creditMemosModule: AppModule = {
  name: 'credit-memos',
  operations,
  graphql: creditMemosGraphql,
};
