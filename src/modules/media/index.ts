import type { AppModule } from '../../platform/module.js';
import { routes } from './rest.js';

export const mediaModule: AppModule = {
  name: 'media',
  routes,
};
