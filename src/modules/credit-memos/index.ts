import type { AppModule } from '../../platform/module.js';
import { operations } from './rest.js';
import { creditMemoEvents } from './events.js';

export const creditMemosModule: AppModule = {
  name: 'credit-memos',
  events: creditMemoEvents.declarations,
  operations,
};
