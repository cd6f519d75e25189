import type { AppModule } from '../../platform/module.js';
import { operations } from './rest.js';

export const urlResolverModule: AppModule = {
  name: 'url-resolver',
  operations,
};
