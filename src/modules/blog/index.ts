import type { AppModule } from '../../platform/module.js';
import { seedDemo } from './demo.js';
import { blogPostResolvable } from './posts.js';
import { blogOperations } from './rest.js';

export const blogModule: AppModule = {
  name: 'blog',
  operations: blogOperations(),
  demo: seedDemo,
  urlResolverChecks: { blog_post: blogPostResolvable },
};
