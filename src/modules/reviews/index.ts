import type { AppModule } from '../../platform/module.js';
import { operations } from './rest.js';
import { install } from './service.js';
import { reviewEvents } from './events.js';

export const reviewsModule: AppModule = {
  name: 'reviews',
  events: reviewEvents.declarations,
  operations,
  install: { version: 1, run: install },
};
