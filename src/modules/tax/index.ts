import type { AppModule } from '../../platform/module.js';
import { install } from './service.js';

export const taxModule: AppModule = {
  name: 'tax',
  install: { version: 1, run: install },
};
