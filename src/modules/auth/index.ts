import type { AppModule } from '../../platform/module.js';
import { operations, routes } from './rest.js';
import { staffOperations } from './staff-ops.js';
import { activityOperations } from './activity-ops.js';
import { passkeyOperations } from './passkey-ops.js';
import { socialOperations } from './social-ops.js';
import { apiUserOperations } from './api-user-ops.js';
import { install, seedDemo } from './accounts.js';

export const authModule: AppModule = {
  name: 'auth',
  operations: [...operations, ...staffOperations, ...activityOperations, ...passkeyOperations, ...socialOperations, ...apiUserOperations],
  routes,
  install: { version: 2, run: install },
  demo: seedDemo,
};
