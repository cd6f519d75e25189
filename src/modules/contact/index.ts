import type { AppModule } from '../../platform/module.js';
import { routes } from './rest.js';

export const contactModule: AppModule = {
  name: 'contact',
  routes,
};
