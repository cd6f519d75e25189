import type { AppModule } from '../../platform/module.js';
import { inventoryCatalogParts } from './catalog-parts.js';
import { operations, routes } from './rest.js';
import { stockEvents } from './events.js';
import { lowStockReportOperation } from './reports-ops.js';

export const inventoryModule: AppModule = {
  name: 'inventory',
  events: stockEvents.declarations,
  operations: [...operations, lowStockReportOperation],
  routes,
  catalogParts: inventoryCatalogParts,
};
