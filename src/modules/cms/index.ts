import type { AppModule } from '../../platform/module.js';
import { seedDemo } from './demo.js';
import { routes } from './rest.js';

export const cmsModule: AppModule = {
  name: 'cms',
  routes,
  demo: seedDemo,
};
