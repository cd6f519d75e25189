/** The shipment events: the shipment as the back office reads it, rendered just before the commit. */
import { backOffice, type Ctx } from '../../platform/context.js';
import { defineEvents } from '../../platform/events.js';
import { findOrder } from '../orders/core.js';
import { shipmentDtos, shipmentRow } from './read.js';
import { Shipment } from './schemas.js';

export const shipmentEvents = defineEvents({
  'shipment.created': { description: 'A shipment was created', payload: Shipment },
  'shipment.tracking_added': { description: 'A tracking number was added to a shipment', payload: Shipment },
});

export function emitShipmentEvent(
  ctx: Ctx,
  type: 'shipment.created' | 'shipment.tracking_added',
  shipmentId: number,
  storeId: number,
): void {
  shipmentEvents.emit(ctx, type, { resource: 'shipment', id: shipmentId, storeId }, async () => {
    const row = await shipmentRow(ctx, shipmentId);
    const found = row && (await findOrder(ctx, row.orderId));
    if (!row || !found) return null;
    const [dto] = await shipmentDtos(backOffice(ctx), [row], () => found.order.incrementId);
    return dto;
  });
}
