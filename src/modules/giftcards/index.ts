import type { AppModule } from '../../platform/module.js';
import { operations } from './rest.js';
import { seedDemo } from './service.js';

export const giftcardsModule: AppModule = {
  name: 'giftcards',
  operations,
  demo: seedDemo,
};
