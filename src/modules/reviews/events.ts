/** The reviews' event: a review submitted. */
import { defineEvents } from '../../platform/events.js';
import { Review } from './schemas.js';

export const reviewEvents = defineEvents({
  'review.submitted': { description: 'A product review was submitted', payload: Review },
});
