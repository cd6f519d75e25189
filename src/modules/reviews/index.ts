import type { AppModule } from '../../platform/module.js';
import { operations } from './rest.js';
import { install } from './service.js';

export const reviewsModule: AppModule = {
  name: 'reviews',
  operations,
  install: { version: 1, run: install },
};
