import type { AppModule } from '../../platform/module.js';
import { operations } from './rest.js';
import { shipmentEvents } from './events.js';
import { shipmentsForOrder } from './service.js';

export const shipmentsModule: AppModule = {
  name: 'shipments',
  events: shipmentEvents.declarations,
  operations,
  // the order read embeds its shipments
  orderParts: { shipmentsOf: shipmentsForOrder },
};
