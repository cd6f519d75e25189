/** The newsletter's events: an address subscribed or unsubscribed, with the subscriber as the back office reads it. */
import { defineEvents } from '../../platform/events.js';
import { NewsletterSubscriber } from './schemas.js';

export const newsletterEvents = defineEvents({
  'newsletter.subscribed': { description: 'An address subscribed to the newsletter', payload: NewsletterSubscriber },
  'newsletter.unsubscribed': { description: 'An address unsubscribed from the newsletter', payload: NewsletterSubscriber },
});
