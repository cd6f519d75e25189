import type { AppModule } from '../../platform/module.js';
import { giftcardsGraphql } from './graphql.js';
import { operations } from './rest.js';
import { seedDemo } from './service.js';

export const giftcardsModule: AppModule = {
  name: 'giftcards',
  operations,
  graphql: giftcardsGraphql,
  demo: seedDemo,
};
