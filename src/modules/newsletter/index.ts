import type { AppModule } from '../../platform/module.js';
import { setSubscribedExpression } from '../customers/subscription.js';
import { operations } from './rest.js';
import { linkCustomerSubscriptions, subscribedExpression } from './service.js';
import { newsletterEvents } from './events.js';

/** Customers show `isSubscribed` through this module's subscribers table, and new accounts take over their email's subscriptions. */
setSubscribedExpression(subscribedExpression, linkCustomerSubscriptions);

export const newsletterModule: AppModule = {
  name: 'newsletter',
  events: newsletterEvents.declarations,
  operations,
};
