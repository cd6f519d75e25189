import type { AppModule } from '../../platform/module.js';
import { operations } from './rest.js';

export const contactModule: AppModule = {
  name: 'contact',
  operations,
};
