import type { AppModule } from '../../platform/module.js';
import { routes as customerRoutes } from './rest.js';
import { groupsGraphql } from './groups-graphql.js';
import { groupRoutes } from './groups-rest.js';
import { install, seedDemo } from './service.js';

export const customersModule: AppModule = {
  name: 'customers',
  routes: (app) => {
    customerRoutes(app);
    groupRoutes(app);
  },
  graphql: groupsGraphql,
  install: { version: 1, run: install },
  demo: seedDemo,
};
