import type { AppModule } from '../../platform/module.js';
import { urlResolverGraphql } from './graphql.js';
import { operations } from './rest.js';

export const urlResolverModule: AppModule = {
  name: 'url-resolver',
  operations,
  graphql: urlResolverGraphql,
};
