import type { AppModule } from '../../platform/module.js';
import { shipmentsGraphql } from './graphql.js';
import { operations } from './rest.js';
import { shipmentEvents } from './events.js';

export const shipmentsModule: AppModule = {
  name: 'shipments',
  events: shipmentEvents.declarations,
  operations,
  graphql: shipmentsGraphql,
};
