import type { AppModule } from '../../platform/module.js';
import { customersGraphql } from './graphql.js';
import { operations } from './rest.js';
import { install, seedDemo } from './service.js';

export const customersModule: AppModule = {
  name: 'customers',
  operations,
  graphql: customersGraphql,
  install: { version: 1, run: install },
  demo: seedDemo,
};
