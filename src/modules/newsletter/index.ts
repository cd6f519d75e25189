import type { AppModule } from '../../platform/module.js';
import { setSubscribedExpression } from '../customers/subscription.js';
import { routes } from './rest.js';
import { subscribedExpression } from './service.js';

/** Customers show `isSubscribed` through this module's subscribers table. */
setSubscribedExpression(subscribedExpression);

export const newsletterModule: AppModule = {
  name: 'newsletter',
  routes,
};
