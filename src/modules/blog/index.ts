import type { AppModule } from '../../platform/module.js';
import { seedDemo } from './demo.js';
import { routes } from './rest.js';

export const blogModule: AppModule = {
  name: 'blog',
  routes,
  demo: seedDemo,
};
