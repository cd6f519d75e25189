/**
 * Shipments of an order: reading them, their tracking numbers and their comments. Creating one (which moves
 * the order's shipped quantities) is in use-cases/create-shipment.ts and exported from here. Callers reach a
 * shipment through its order: an admin/API principal outside the order's store views gets the same 404 as
 * for a missing shipment.
 */
import { and, eq } from 'drizzle-orm';
import { withTx, type Ctx } from '../../platform/context.js';
import { notFound } from '../../platform/errors.js';
import { assertOrderAccess, findOrder, findOrderForCaller, lockOrder, type OrderRow } from '../orders/core.js';
import { queueOrderMail } from '../orders/mail.js';
import { shipmentDtos, shipmentNotFound, shipmentRow, shipmentRowsOf, shipmentView, type ShipmentRow } from './read.js';
import { emitShipmentEvent } from './events.js';
import { commentText, normalizeTrack, type TrackInput } from './input.js';
import type { ShipmentCommentInput, ShipmentDto } from './schemas.js';
import { shipmentComments, shipmentTracks, shipments } from './tables.js';

export { createShipment } from './use-cases/create-shipment.js';
export { shipmentNotFound, shipmentView } from './read.js';

/** The shipment and its order when the caller may see the order; else the 404 of a missing shipment. */
async function shipmentForCaller(ctx: Ctx, id: number): Promise<{ shipment: ShipmentRow; order: OrderRow }> {
  const shipment = await shipmentRow(ctx, id);
  const found = shipment && (await findOrder(ctx, shipment.orderId));
  if (!shipment || !found) throw shipmentNotFound();
  assertOrderAccess(ctx, found.order, shipmentNotFound);
  return { shipment, order: found.order };
}

/**
 * Locks the order of a shipment (lock order: the order first), inside the caller's transaction, and checks
 * that the caller may see it.
 */
async function lockShipmentForCaller(tx: Ctx, id: number): Promise<{ shipment: ShipmentRow; order: OrderRow }> {
  const shipment = await shipmentRow(tx, id);
  const locked = shipment && (await lockOrder(tx, shipment.orderId));
  if (!shipment || !locked) throw shipmentNotFound();
  assertOrderAccess(tx, locked.order, shipmentNotFound);
  return { shipment, order: locked.order };
}

/** GET /shipments/{id}: one shipment; 404 when missing or outside the caller's orders. */
export async function getShipment(ctx: Ctx, id: number): Promise<ShipmentDto> {
  const { shipment, order } = await shipmentForCaller(ctx, id);
  const [dto] = await shipmentDtos(ctx, [shipment], () => order.incrementId);
  return dto;
}

/** GET /orders/{orderId}/shipments: every shipment of the order, oldest first; 404 for an order the caller may not see. */
export async function listShipmentsOfOrder(ctx: Ctx, orderId: number): Promise<ShipmentDto[]> {
  const { order } = await findOrderForCaller(ctx, orderId);
  return shipmentsForOrder(ctx, order);
}

/**
 * The shipments of an order, oldest first, with no access check (the order read embeds them, through
 * `ctx.app.orderParts.shipmentsOf`): the rows, then their items, tracks and comments when there are any.
 */
export async function shipmentsForOrder(ctx: Ctx, order: Pick<OrderRow, 'id' | 'incrementId'>): Promise<ShipmentDto[]> {
  return shipmentDtos(ctx, await shipmentRowsOf(ctx, order.id), () => order.incrementId);
}

/** POST /shipments/{id}/tracks: adds a tracking number (defaults as normalizeTrack) and answers with the shipment. */
export async function addTrack(ctx: Ctx, shipmentId: number, input: TrackInput): Promise<ShipmentDto> {
  const track = normalizeTrack(input);
  await withTx(ctx, async (tx) => {
    const { shipment } = await lockShipmentForCaller(tx, shipmentId);
    await tx.db
      .insert(shipmentTracks)
      .values({ shipmentId: shipment.id, orderId: shipment.orderId, ...track, createdAt: tx.now, updatedAt: tx.now });
    await tx.db.update(shipments).set({ updatedAt: tx.now }).where(eq(shipments.id, shipment.id));
    emitShipmentEvent(tx, 'shipment.tracking_added', shipment.id, shipment.storeId);
  });
  return shipmentView(ctx, shipmentId);
}

/**
 * DELETE /shipments/{id}/tracks/{trackId}: removes a tracking number by its row id. A track that is not on
 * that shipment is a 404, as is a shipment the caller may not see.
 */
export async function removeTrack(ctx: Ctx, shipmentId: number, trackId: number): Promise<void> {
  await withTx(ctx, async (tx) => {
    const { shipment } = await lockShipmentForCaller(tx, shipmentId);
    const inRange = Number.isInteger(trackId) && trackId >= 1 && trackId <= 2147483647;
    const gone = inRange
      ? await tx.db
          .delete(shipmentTracks)
          .where(and(eq(shipmentTracks.id, trackId), eq(shipmentTracks.shipmentId, shipment.id)))
          .returning({ id: shipmentTracks.id })
      : [];
    if (!gone.length) throw notFound('Track not found on this shipment', { reason: 'TRACK_NOT_FOUND' });
    await tx.db.update(shipments).set({ updatedAt: tx.now }).where(eq(shipments.id, shipment.id));
  });
}

/**
 * POST /shipments/{id}/comments: adds a comment to the shipment; with notifyCustomer the customer gets it by
 * mail (queued in the same transaction). Answers with the shipment.
 */
export async function addShipmentComment(ctx: Ctx, shipmentId: number, input: ShipmentCommentInput): Promise<ShipmentDto> {
  const comment = commentText(input);
  const notify = input.notifyCustomer === true;
  await withTx(ctx, async (tx) => {
    const { shipment, order } = await lockShipmentForCaller(tx, shipmentId);
    await tx.db.insert(shipmentComments).values({
      shipmentId: shipment.id,
      comment,
      isCustomerNotified: notify,
      isVisibleOnFront: input.visibleOnFront === true,
      createdAt: tx.now,
    });
    await tx.db.update(shipments).set({ updatedAt: tx.now }).where(eq(shipments.id, shipment.id));
    if (notify) {
      await queueOrderMail(tx, order, {
        template: 'sales/shipment_comment',
        subject: `Update to shipment ${shipment.incrementId} of order ${order.incrementId}`,
        intro: [`There is an update to shipment ${shipment.incrementId} of your order ${order.incrementId}:`],
        lines: [comment],
      });
    }
  });
  return shipmentView(ctx, shipmentId);
}
