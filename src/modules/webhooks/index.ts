import type { AppModule } from '../../platform/module.js';
import { operations } from './rest.js';

export const webhooksModule: AppModule = {
  name: 'webhooks',
  operations,
};
