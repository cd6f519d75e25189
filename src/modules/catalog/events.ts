/** The catalog's events: a product created, changed or deleted, with the product as the back office reads it. */
import { defineEvents } from '../../platform/events.js';
import { Product } from './products/schemas.js';

export const productEvents = defineEvents({
  'product.created': { description: 'A product was created', payload: Product },
  'product.updated': { description: 'A product was changed', payload: Product },
  'product.deleted': { description: 'A product was deleted', payload: Product },
});
