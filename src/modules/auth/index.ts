import type { AppModule } from '../../platform/module.js';
import { operations } from './rest.js';
import { passkeyOperations } from './passkey-ops.js';
import { socialOperations } from './social-ops.js';
import { install, seedDemo } from './accounts.js';

export const authModule: AppModule = {
  name: 'auth',
  operations: [...operations, ...passkeyOperations, ...socialOperations],
  install: { version: 1, run: install },
  demo: seedDemo,
};
