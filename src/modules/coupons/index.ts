import type { AppModule } from '../../platform/module.js';
import { operations } from './rest.js';
import { seedDemo } from './service.js';

export const couponsModule: AppModule = {
  name: 'coupons',
  operations,
  demo: seedDemo,
};
