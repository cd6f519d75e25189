import type { AppModule } from '../../platform/module.js';
import { shipmentsGraphql } from './graphql.js';
import { operations } from './rest.js';

export const shipmentsModule: AppModule = {
  name: 'shipments',
  operations,
  graphql: shipmentsGraphql,
};
