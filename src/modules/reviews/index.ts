import type { AppModule } from '../../platform/module.js';
import { operations } from './rest.js';
import { install } from './service.js';
import { reviewSummarySql } from './summary-sql.js';
import { reviewEvents } from './events.js';

export const reviewsModule: AppModule = {
  name: 'reviews',
  events: reviewEvents.declarations,
  operations,
  install: { version: 1, run: install },
  // the catalog's product read embeds the review summary (it imports nothing of this module)
  catalogParts: { reviewSummary: reviewSummarySql },
};
