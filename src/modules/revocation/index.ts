import type { AppModule } from '../../platform/module.js';
import { operations } from './rest.js';
import { webFormRoutes } from './web-form.js';
import { revocationEvents } from './events.js';

export const revocationModule: AppModule = {
  name: 'revocation',
  events: revocationEvents.declarations,
  operations,
  rootRoutes: webFormRoutes,
};
