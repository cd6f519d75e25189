/**
 * Creating a shipment: in one transaction, lock the order, check that it can be shipped and what each line
 * may still ship, write the shipment with its items, tracks and comment, move the order's shipped quantities
 * (and with them its state: a shipped order is processing until it is also fully invoiced). As in Maho, a
 * shipment never invoices. The shipment mail is queued in the same transaction, only when the caller asks for it.
 */
import { withTx, type Ctx } from '../../../platform/context.js';
import { dec, roundMoney, type Decimal } from '../../../platform/money.js';
import {
  addStatusHistory,
  lockOrderForCaller,
  nextIncrementId,
  recordProgress,
  type OrderItemRow,
  type OrderWithItems,
} from '../../orders/core.js';
import { orderChanged } from '../../orders/events.js';
import { itemLine, queueOrderMail } from '../../orders/mail.js';
import { emitShipmentEvent } from '../events.js';
import { refused, stateAllows } from '../../orders/state.js';
import { invalid, normalizeTrack, type NewTrack } from '../input.js';
import { shipmentView } from '../read.js';
import { COMMENT_MAX, MAX_QTY, type ShipmentCreateInput, type ShipmentDto } from '../schemas.js';
import { shipmentComments, shipmentItems, shipmentTracks, shipments } from '../tables.js';

const INT_MAX = 2147483647;
/** decimal places a quantity column keeps */
const QTY_PLACES = 4;

interface RequestedItem {
  orderItemId: number;
  qty: Decimal;
  /** where it came from, for error details */
  field: string;
}

interface Line {
  item: OrderItemRow;
  qty: Decimal;
}

/** What an item may still ship: ordered − shipped − refunded − canceled. */
function leftToShip(i: OrderItemRow): Decimal {
  return dec(i.qtyOrdered).sub(i.qtyShipped).sub(i.qtyRefunded).sub(i.qtyCanceled);
}

/** The requested lines, checked for what needs no order: ids > 0, quantities > 0, each item once. */
function requestedItems(items: ShipmentCreateInput['items']): RequestedItem[] | undefined {
  if (!items?.length) return undefined;
  const seen = new Set<number>();
  return items.map((r, n) => {
    const field = `items.${n}`;
    if (!Number.isInteger(r.orderItemId) || r.orderItemId < 1 || r.orderItemId > INT_MAX) {
      throw invalid(`${field}.orderItemId`, `${field}.orderItemId must be a positive integer`, 'minimum');
    }
    if (seen.has(r.orderItemId))
      throw invalid(`${field}.orderItemId`, `Order item ${r.orderItemId} is listed more than once`, 'uniqueItems');
    seen.add(r.orderItemId);
    if (typeof r.qty !== 'number' || !Number.isFinite(r.qty) || r.qty <= 0)
      throw invalid(`${field}.qty`, `${field}.qty must be greater than 0`, 'exclusiveMinimum');
    if (r.qty > MAX_QTY) throw invalid(`${field}.qty`, `${field}.qty must be at most ${MAX_QTY}`, 'maximum');
    const qty = dec(String(r.qty));
    if (qty.decimalPlaces() > QTY_PLACES)
      throw invalid(`${field}.qty`, `${field}.qty must have at most ${QTY_PLACES} decimal places`, 'multipleOf');
    return { orderItemId: r.orderItemId, qty, field };
  });
}

/**
 * The lines to ship: what was asked for (each checked against its order line), or, when nothing was named,
 * everything left on every line that is not virtual.
 */
function linesToShip(locked: OrderWithItems, requested: RequestedItem[] | undefined): Line[] {
  if (!requested) {
    return locked.items.filter((i) => !i.isVirtual && leftToShip(i).gt(0)).map((item) => ({ item, qty: leftToShip(item) }));
  }
  return requested.map((r) => {
    const item = locked.items.find((i) => i.id === r.orderItemId);
    if (!item) {
      throw invalid(`${r.field}.orderItemId`, `Order item ${r.orderItemId} is not on order ${locked.order.incrementId}`, 'exists');
    }
    if (item.isVirtual)
      throw invalid(`${r.field}.orderItemId`, `Order item ${item.id} (${item.sku}) is virtual and is not shipped`, 'shippable');
    if (!item.isQtyDecimal && !r.qty.isInteger()) {
      throw invalid(`${r.field}.qty`, `Order item ${item.id} (${item.sku}) ships in whole units`, 'integer');
    }
    const left = leftToShip(item);
    if (r.qty.gt(left)) {
      throw invalid(
        `${r.field}.qty`,
        `Cannot ship ${r.qty.toString()} of order item ${item.id} (${item.sku}): ${left.toString()} left to ship`,
        'maximum',
      );
    }
    return { item, qty: r.qty };
  });
}

/**
 * POST /orders/{orderId}/shipments. Refused with a 400 (nothing changes) when the order cannot be shipped
 * (canceled, complete, closed, on hold, under payment review, virtual, nothing left to ship) or when a line
 * is wrong (unknown item, virtual item, zero or negative quantity, a fraction of a whole-unit item, more than
 * is left). An order the caller may not see is a 404. Answers with the new shipment.
 */
export async function createShipment(ctx: Ctx, orderId: number, body: ShipmentCreateInput): Promise<ShipmentDto> {
  const requested = requestedItems(body.items);
  const tracks: NewTrack[] = (body.tracks ?? []).map((t, n) => normalizeTrack(t, `tracks.${n}`));
  const comment = body.comment?.trim() || undefined;
  if (comment && comment.length > COMMENT_MAX) throw invalid('comment', `comment must have at most ${COMMENT_MAX} characters`, 'maxLength');
  const notify = body.notifyCustomer === true;

  const shipmentId = await withTx(ctx, async (tx) => {
    const locked = await lockOrderForCaller(tx, orderId);
    const { order } = locked;
    if (!stateAllows(order.state, 'ship')) throw refused(order.state, 'ship');
    if (order.isVirtual) throw refused(order.state, 'ship', 'it is a virtual order, with nothing to ship');
    if (!locked.items.some((i) => !i.isVirtual && leftToShip(i).gt(0))) throw refused(order.state, 'ship', 'nothing is left to ship');
    const lines = linesToShip(locked, requested);

    const totalQty = lines.reduce((sum, l) => sum.add(l.qty), dec(0));
    const weighed = lines.filter((l) => l.item.weight !== null);
    const totalWeight = weighed.length ? weighed.reduce((sum, l) => sum.add(dec(l.item.weight!).mul(l.qty)), dec(0)) : null;
    const incrementId = await nextIncrementId(tx, 'shipment', order.storeId);
    const [shipment] = await tx.db
      .insert(shipments)
      .values({
        incrementId,
        orderId: order.id,
        storeId: order.storeId,
        totalQty: totalQty.toFixed(QTY_PLACES),
        totalWeight: totalWeight?.toFixed(QTY_PLACES) ?? null,
        emailSent: notify,
        createdAt: tx.now,
        updatedAt: tx.now,
      })
      .returning({ id: shipments.id });
    const rowTotals = lines.map((l) => roundMoney(dec(l.item.price).mul(l.qty)));
    await tx.db.insert(shipmentItems).values(
      lines.map((l, n) => ({
        shipmentId: shipment.id,
        orderItemId: l.item.id,
        productId: l.item.productId,
        sku: l.item.sku,
        name: l.item.name,
        description: l.item.description,
        qty: l.qty.toFixed(QTY_PLACES),
        price: l.item.price,
        rowTotal: rowTotals[n].toFixed(4),
        weight: l.item.weight,
      })),
    );
    if (tracks.length) {
      await tx.db
        .insert(shipmentTracks)
        .values(tracks.map((t) => ({ ...t, shipmentId: shipment.id, orderId: order.id, createdAt: tx.now, updatedAt: tx.now })));
    }
    if (comment) {
      await tx.db.insert(shipmentComments).values({
        shipmentId: shipment.id,
        comment,
        isCustomerNotified: notify,
        isVisibleOnFront: body.visibleOnFront === true,
        createdAt: tx.now,
      });
    }

    const now = await recordProgress(tx, locked, { items: lines.map((l) => ({ orderItemId: l.item.id, qtyShipped: l.qty })) });
    emitShipmentEvent(tx, 'shipment.created', shipment.id, order.storeId);
    if (tracks.length) emitShipmentEvent(tx, 'shipment.tracking_added', shipment.id, order.storeId);
    orderChanged(tx, order, now.order);
    await addStatusHistory(tx, now.order, {
      comment: `Shipment ${incrementId} created${comment ? `: ${comment}` : ''}`,
      entityName: 'shipment',
      isCustomerNotified: notify,
      isVisibleOnFront: false,
    });

    if (notify) {
      const trackLines = tracks.map((t) => `Tracking number (${t.title}): ${t.trackNumber}`);
      await queueOrderMail(tx, order, {
        template: 'sales/shipment',
        subject: `Your order ${order.incrementId} has shipped`,
        intro: [`Items of your order ${order.incrementId} have shipped (shipment ${incrementId}).`],
        lines: [...lines.map((l, n) => itemLine(l.item, l.qty.toString(), rowTotals[n].toString(), order.currency)), ...trackLines],
        outro: comment ? [comment] : [],
      });
    }

    return shipment.id;
  });
  return shipmentView(ctx, shipmentId);
}
