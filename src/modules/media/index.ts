import type { AppModule } from '../../platform/module.js';
import { operations, routes } from './rest.js';

export const mediaModule: AppModule = {
  name: 'media',
  operations,
  routes,
};
