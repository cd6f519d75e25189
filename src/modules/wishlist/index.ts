import type { AppModule } from '../../platform/module.js';
import { operations } from './rest.js';

export const wishlistModule: AppModule = {
  name: 'wishlist',
  operations,
};
