import type { AppModule } from '../../platform/module.js';
import { routes } from './rest.js';

export const wishlistModule: AppModule = {
  name: 'wishlist',
  routes,
};
