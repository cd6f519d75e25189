import type { AppModule } from '../../platform/module.js';
import { install, seedDemo } from './service.js';

export const customersModule: AppModule = {
  name: 'customers',
  install: { version: 1, run: install },
  demo: seedDemo,
};
