import type { AppModule } from '../../platform/module.js';
import { seedDemo } from './demo.js';
import './service.js';

export const shippingModule: AppModule = {
  name: 'shipping',
  demo: seedDemo,
};
