import type { AppModule } from '../../platform/module.js';
import { seedDemo } from './demo.js';
import { cmsOperations } from './rest.js';

export const cmsModule: AppModule = {
  name: 'cms',
  operations: cmsOperations(),
  demo: seedDemo,
};
