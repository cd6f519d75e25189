import type { AppModule } from '../../platform/module.js';
import { revocationGraphql } from './graphql.js';
import { routes } from './rest.js';
import { webFormRoutes } from './web-form.js';

export const revocationModule: AppModule = {
  name: 'revocation',
  routes,
  rootRoutes: webFormRoutes,
  graphql: revocationGraphql,
};
