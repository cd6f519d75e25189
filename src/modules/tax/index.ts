import type { AppModule } from '../../platform/module.js';
import { operations } from './rest.js';
import { install, seedDemo } from './service.js';

export const taxModule: AppModule = {
  name: 'tax',
  operations,
  /** 1: classes; 2: the US rates and the retail rule (idempotent, so databases at version 1 run it again) */
  install: { version: 2, run: install },
  demo: seedDemo,
};
