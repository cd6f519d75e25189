import type { AppModule } from '../../platform/module.js';
import { customersGraphql } from './graphql.js';
import { operations } from './rest.js';
import { install, seedDemo } from './service.js';
import { customerEvents } from './events.js';

export const customersModule: AppModule = {
  name: 'customers',
  events: customerEvents.declarations,
  operations,
  graphql: customersGraphql,
  install: { version: 1, run: install },
  demo: seedDemo,
};
