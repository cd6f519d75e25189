/** The customers' events: an account created, changed or deleted, with the account as the API shows it. */
import { defineEvents } from '../../platform/events.js';
import { Customer } from './schemas.js';

export const customerEvents = defineEvents({
  'customer.created': { description: 'A customer account was created', payload: Customer },
  'customer.updated': { description: 'A customer account was changed', payload: Customer },
  'customer.deleted': { description: 'A customer account was deleted', payload: Customer },
});
