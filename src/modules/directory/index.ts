import type { AppModule } from '../../platform/module.js';
import { routes } from './rest.js';

export const directoryModule: AppModule = {
  name: 'directory',
  routes,
};
