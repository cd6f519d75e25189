import type { AppModule } from '../../platform/module.js';
import { seedDemo } from './demo.js';
import { cmsPageResolvable } from './pages.js';
import { cmsOperations } from './rest.js';

export const cmsModule: AppModule = {
  name: 'cms',
  operations: cmsOperations(),
  demo: seedDemo,
  urlResolverChecks: { cms_page: cmsPageResolvable },
};
