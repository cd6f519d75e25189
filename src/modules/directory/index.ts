import type { AppModule } from '../../platform/module.js';

export const directoryModule: AppModule = {
  name: 'directory',
};
