import type { AppModule } from '../../platform/module.js';
import { operations } from './rest.js';
import { webFormRoutes } from './web-form.js';

export const revocationModule: AppModule = {
  name: 'revocation',
  operations,
  rootRoutes: webFormRoutes,
};
