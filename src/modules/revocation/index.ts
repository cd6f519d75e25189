import type { AppModule } from '../../platform/module.js';
import { revocationGraphql } from './graphql.js';
import { routes } from './rest.js';

export const revocationModule: AppModule = {
  name: 'revocation',
  routes,
  graphql: revocationGraphql,
};
