/** The inventory's event: a product's stock changed. */
import { Type } from 'typebox';
import { defineEvents } from '../../platform/events.js';

export const StockChange = Type.Object({
  productId: Type.Integer(),
  sku: Type.String(),
  oldQty: Type.Number({ description: 'the qty before the change' }),
  newQty: Type.Number({ description: 'the qty after it' }),
  isInStock: Type.Boolean(),
});

export const stockEvents = defineEvents({
  'stock.changed': { description: "A product's stock quantity changed", payload: StockChange },
});
