import type { AppModule } from '../../platform/module.js';
import { operations } from './rest.js';
import { linkCustomerSubscriptions, subscribedExpression } from './service.js';
import { newsletterEvents } from './events.js';

export const newsletterModule: AppModule = {
  name: 'newsletter',
  events: newsletterEvents.declarations,
  operations,
  // customers show `isSubscribed` through this module's subscribers table, and new accounts take over their email's subscriptions
  customerSubscriptions: { subscribedSql: subscribedExpression, link: linkCustomerSubscriptions },
};
