/** The shipment events of webhooks: the shipment as the back office reads it, rendered just before the commit. */
import type { Ctx } from '../../platform/context.js';
import { findOrder } from '../orders/core.js';
import { backOffice, emitEvent } from '../webhooks/events.js';
import { shipmentDtos, shipmentRow } from './read.js';

export function emitShipmentEvent(ctx: Ctx, type: 'shipment.created' | 'shipment.tracking_added', shipmentId: number, storeId: number): void {
  emitEvent(ctx, type, { resource: 'shipment', id: shipmentId, storeId }, async () => {
    const row = await shipmentRow(ctx, shipmentId);
    const found = row && (await findOrder(ctx, row.orderId));
    if (!row || !found) return null;
    const [dto] = await shipmentDtos(backOffice(ctx), [row], found.order.incrementId);
    return dto;
  });
}
