import type { AppModule } from '../../platform/module.js';
import { routes } from './rest.js';
import { install, seedDemo } from './accounts.js';

export const authModule: AppModule = {
  name: 'auth',
  routes,
  install: { version: 1, run: install },
  demo: seedDemo,
};
