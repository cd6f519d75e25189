import type { AppModule } from '../../platform/module.js';
import { operations } from './rest.js';

export const directoryModule: AppModule = {
  name: 'directory',
  operations,
};
