import type { AppModule } from '../../platform/module.js';
import { routes } from './rest.js';

export const urlResolverModule: AppModule = {
  name: 'url-resolver',
  routes,
};
