/**
 * What the Magento 1 API needs of shipments beyond the REST reads: shipment rows under a WHERE the caller builds
 * over this module's table (Magento's list filters, a lookup by increment id), and `sendInfo`, which mails a
 * shipment that exists already to the customer.
 */
import { and, asc, eq, inArray, type SQL } from 'drizzle-orm';
import { adminStoreScope, withTx, type Ctx } from '../../platform/context.js';
import { dec } from '../../platform/money.js';
import { assertOrderAccess, lockOrder, orderIncrementIdSql } from '../orders/core.js';
import { itemLine, queueOrderMail } from '../orders/mail.js';
import { shipmentNotFound, shipmentRow, type ShipmentRow } from './read.js';
import { shipmentItems, shipmentTracks, shipments } from './tables.js';

/** The table's columns and the order number of each row, for a caller's WHERE. */
export interface ShipmentColumns {
  table: typeof shipments;
  orderIncrementId: SQL<string | null>;
}

export type LegacyShipmentRow = ShipmentRow & { orderIncrementId: string | null };

/**
 * The shipments `where` selects, oldest first, each with its order's increment id, in one statement; an API user
 * limited to store views gets only theirs. `where` may throw (a malformed filter) before anything runs.
 */
export async function shipmentRowsWhere(ctx: Ctx, where: (c: ShipmentColumns) => SQL | undefined): Promise<LegacyShipmentRow[]> {
  const orderIncrementId = orderIncrementIdSql(shipments.orderId);
  const cond = where({ table: shipments, orderIncrementId });
  const scope = adminStoreScope(ctx);
  const scoped = scope ? inArray(shipments.storeId, scope.length ? scope : [-1]) : undefined;
  const rows = await ctx.db
    .select({ shipment: shipments, orderIncrementId })
    .from(shipments)
    .where(and(cond, scoped))
    .orderBy(asc(shipments.id));
  return rows.map((r) => ({ ...r.shipment, orderIncrementId: r.orderIncrementId }));
}

/**
 * Mails the shipment (its items and tracking numbers, and `comment` when given) to the order's customer and
 * marks it as sent, whether or not it was mailed before. A shipment the caller may not see is its 404.
 */
export async function sendShipmentInfo(ctx: Ctx, shipmentId: number, comment?: string): Promise<void> {
  await withTx(ctx, async (tx) => {
    const shipment = await shipmentRow(tx, shipmentId);
    const locked = shipment && (await lockOrder(tx, shipment.orderId));
    if (!shipment || !locked) throw shipmentNotFound();
    const { order } = locked;
    assertOrderAccess(tx, order, shipmentNotFound);
    const items = await tx.db.select().from(shipmentItems).where(eq(shipmentItems.shipmentId, shipment.id)).orderBy(asc(shipmentItems.id));
    const tracks = await tx.db
      .select()
      .from(shipmentTracks)
      .where(eq(shipmentTracks.shipmentId, shipment.id))
      .orderBy(asc(shipmentTracks.id));
    const note = comment?.trim();
    await queueOrderMail(tx, order, {
      template: 'sales/shipment',
      subject: `Your order ${order.incrementId} has shipped`,
      intro: [`Items of your order ${order.incrementId} have shipped (shipment ${shipment.incrementId}).`],
      lines: [
        ...items.map((i) => itemLine(i, dec(i.qty).toString(), i.rowTotal, order.currency)),
        ...tracks.map((t) => `Tracking number (${t.title}): ${t.trackNumber}`),
      ],
      outro: note ? [note] : [],
    });
    await tx.db.update(shipments).set({ emailSent: true, updatedAt: tx.now }).where(eq(shipments.id, shipment.id));
  });
}
