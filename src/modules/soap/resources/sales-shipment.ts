/**
 * `sales_order_shipment` (`order_shipment`) of the Magento 1 API: list (with filters), info, create, addComment,
 * addTrack, removeTrack, sendInfo and getCarriers, over the shipments service. Shipments and orders are named by
 * their increment ids, as Magento names them; an API user limited to store views reaches only theirs.
 */
import { eq } from 'drizzle-orm';
import type { Ctx } from '../../../platform/context.js';
import { findOrderByIncrementId, mayAccessOrder, type OrderRow } from '../../orders/core.js';
import { shipmentRowsWhere, sendShipmentInfo, type LegacyShipmentRow, type ShipmentColumns } from '../../shipments/legacy.js';
import type { ShipmentDto } from '../../shipments/schemas.js';
import { addShipmentComment, addTrack, createShipment, getShipment, removeTrack } from '../../shipments/service.js';
import { isRecord } from '../encoding.js';
import { filterSql, FilterError, parseFilters, type FilterColumn } from '../filters.js';
import { defineResource, idArg, magentoDate, resourceFault, serviceFault, type LegacyValue } from '../resources.js';

const record = (o: Record<string, LegacyValue>) => new Map(Object.entries(o));
const num = (v: string | number | null | undefined) => (v === null || v === undefined ? null : Number(v));

/** A shipment as Magento lists it: the shipment's own fields, with its order's number. */
function shipmentRecord(s: LegacyShipmentRow): Map<string, LegacyValue> {
  return record({
    shipment_id: s.id,
    increment_id: s.incrementId,
    store_id: s.storeId,
    order_id: s.orderId,
    order_increment_id: s.orderIncrementId,
    total_qty: num(s.totalQty),
    total_weight: num(s.totalWeight),
    email_sent: s.emailSent ? 1 : 0,
    shipment_status: s.shipmentStatus,
    created_at: magentoDate(s.createdAt),
    updated_at: magentoDate(s.updatedAt),
  });
}

/** info: the shipment's fields, then its items, tracks and comments (newest first) with Magento's keys. */
function shipmentInfo(s: LegacyShipmentRow, dto: ShipmentDto): Map<string, LegacyValue> {
  const out = shipmentRecord(s);
  out.set(
    'items',
    dto.items.map((i) =>
      record({
        item_id: i.id,
        parent_id: s.id,
        order_item_id: i.orderItemId,
        product_id: i.productId,
        sku: i.sku,
        name: i.name,
        description: i.description ?? null,
        weight: i.weight ?? null,
        price: i.price,
        row_total: i.rowTotal,
        qty: i.qty,
      }),
    ),
  );
  out.set(
    'tracks',
    dto.tracks.map((t) =>
      record({
        track_id: t.id,
        parent_id: s.id,
        order_id: s.orderId,
        carrier_code: t.carrier,
        title: t.title,
        // Magento 1.9 stores `track_number`; its V2 WSDL names the same value `number`
        track_number: t.trackNumber,
        number: t.trackNumber,
        description: t.description ?? null,
        weight: t.weight ?? null,
        qty: t.qty ?? null,
        created_at: magentoDate(t.createdAt),
        updated_at: magentoDate(t.updatedAt),
      }),
    ),
  );
  out.set(
    'comments',
    dto.comments.map((c) =>
      record({
        comment_id: c.id,
        parent_id: s.id,
        comment: c.comment,
        is_customer_notified: c.isCustomerNotified ? 1 : 0,
        is_visible_on_front: c.isVisibleOnFront ? 1 : 0,
        created_at: magentoDate(c.createdAt),
      }),
    ),
  );
  return out;
}

/** The filters' fields: Magento's names of the shipment's fields, over the shipments table. */
const columns = ({ table: t, orderIncrementId }: ShipmentColumns): Record<string, FilterColumn> => ({
  shipment_id: { column: t.id, type: 'number' },
  entity_id: { column: t.id, type: 'number' },
  increment_id: { column: t.incrementId },
  order_id: { column: t.orderId, type: 'number' },
  order_increment_id: { column: orderIncrementId },
  store_id: { column: t.storeId, type: 'number' },
  total_qty: { column: t.totalQty, type: 'number' },
  total_weight: { column: t.totalWeight, type: 'number' },
  email_sent: { column: t.emailSent, type: 'bool' },
  shipment_status: { column: t.shipmentStatus, type: 'number' },
  created_at: { column: t.createdAt, type: 'date' },
  updated_at: { column: t.updatedAt, type: 'date' },
});

/**
 * The carriers a tracking number may name, with their titles: Magento's `custom` and the carriers that offer
 * tracking (the back office's list); a store's `carriers/<code>/title` renames one.
 */
const TRACKING_CARRIERS: Record<string, string> = {
  custom: 'Custom Value',
  ups: 'United Parcel Service',
  usps: 'United States Postal Service',
  fedex: 'Federal Express',
  dhl: 'DHL',
};

function carriersOf(ctx: Ctx, storeId: number): Map<string, LegacyValue> {
  return new Map(
    Object.entries(TRACKING_CARRIERS).map(([code, title]) => [
      code,
      code === 'custom' ? title : ctx.app.settings.get(`carriers/${code}/title`, storeId) || title,
    ]),
  );
}

/** An increment id argument (text or digits); anything else names nothing. */
function incrementArg(v: LegacyValue | undefined): string | undefined {
  const s = typeof v === 'string' ? v.trim() : typeof v === 'number' && Number.isFinite(v) ? String(v) : '';
  return s && s.length <= 50 ? s : undefined;
}

const flag = (v: LegacyValue | undefined) => ['1', 'true', 1, true].includes(v as string | number | boolean);

/** A text argument: absent, or a scalar as text; anything else is data_invalid. */
function textArg(v: LegacyValue | undefined, name: string): string | undefined {
  if (v === undefined || v === null) return undefined;
  if (typeof v === 'string') return v;
  if (typeof v === 'number' || typeof v === 'boolean') return String(v);
  throw resourceFault(salesOrderShipment, 'data_invalid', `${name} must be a string.`);
}

/** A service error as the resource's fault; `missing` names the fault of a 404. */
function asFault(err: unknown, missing: 'not_exists' | 'order_not_exists' = 'not_exists'): never {
  return serviceFault(salesOrderShipment, err, {
    missing,
    hideForbidden: true,
    invalid: 'data_invalid',
    reasons: { TRACK_NOT_FOUND: 'track_not_exists', ORDER_NOT_SHIPPABLE: ['data_invalid', 'Cannot do shipment for order.'] },
  });
}

/** The shipment an increment id names, when the caller may reach it; else not_exists. */
async function shipmentArg(ctx: Ctx, v: LegacyValue | undefined): Promise<LegacyShipmentRow> {
  const number = incrementArg(v);
  const [row] = number ? await shipmentRowsWhere(ctx, ({ table }) => eq(table.incrementId, number)) : [];
  if (!row) throw resourceFault(salesOrderShipment, 'not_exists');
  return row;
}

/** The order an increment id names, when the caller may reach it; else order_not_exists. */
async function orderArg(ctx: Ctx, v: LegacyValue | undefined): Promise<OrderRow> {
  const number = incrementArg(v);
  const order = number ? await findOrderByIncrementId(ctx, number) : undefined;
  if (!order || !mayAccessOrder(ctx, order)) throw resourceFault(salesOrderShipment, 'order_not_exists');
  return order;
}

/**
 * `itemsQty`: order item id → qty, as V1 sends it (a map), or V2's list of {order_item_id, qty}. Lines of qty 0
 * are left out, as Magento leaves them; undefined when nothing was named (ship everything left).
 */
function itemsQtyArg(v: LegacyValue | undefined): { orderItemId: number; qty: number }[] | undefined {
  if (v === undefined || v === null || v === '' || (Array.isArray(v) && !v.length)) return undefined;
  const bad = (detail: string) => resourceFault(salesOrderShipment, 'data_invalid', detail);
  let pairs: [LegacyValue | undefined, LegacyValue | undefined][];
  if (isRecord(v)) pairs = [...v];
  else if (Array.isArray(v) && v.every(isRecord)) pairs = v.map((e) => [e.get('order_item_id'), e.get('qty')]);
  else throw bad('itemsQty must map order item ids to quantities.');
  if (!pairs.length) return undefined;
  const lines = pairs.map(([id, qty]) => {
    const orderItemId = idArg(id as LegacyValue);
    const n = typeof qty === 'number' ? qty : typeof qty === 'string' && qty.trim() ? Number(qty) : NaN;
    if (orderItemId === undefined) throw bad(`Invalid order item id: ${String(id)}.`);
    if (!Number.isFinite(n) || n < 0) throw bad(`Invalid qty for order item ${orderItemId}.`);
    return { orderItemId, qty: n };
  });
  const shipped = lines.filter((l) => l.qty > 0);
  if (!shipped.length) throw bad('Cannot create an empty shipment.');
  return shipped;
}

export const salesOrderShipment = defineResource({
  name: 'sales_order_shipment',
  title: 'Shipment API',
  aliases: ['order_shipment'],
  faults: {
    not_exists: ['100', 'Requested shipment not exists.'],
    filters_invalid: ['101', 'Invalid filters given. Details in error message.'],
    data_invalid: ['102', 'Invalid data given. Details in error message.'],
    order_not_exists: ['103', 'Requested order not exists.'],
    track_not_exists: ['104', 'Requested tracking not exists.'],
    track_not_deleted: ['105', 'Tracking not deleted. Details in error message.'],
  },
  methods: {
    list: {
      title: 'Retrieve list of shipments by filters',
      permission: ['shipments', 'read'],
      params: ['filters'],
      run: async (ctx, [filters]) => {
        try {
          const parsed = parseFilters(filters);
          return (await shipmentRowsWhere(ctx, (c) => filterSql(parsed, columns(c)))).map(shipmentRecord);
        } catch (err) {
          if (err instanceof FilterError) throw resourceFault(salesOrderShipment, 'filters_invalid', err.message);
          throw err;
        }
      },
    },
    info: {
      title: 'Retrieve shipment information',
      permission: ['shipments', 'read'],
      params: ['shipmentIncrementId'],
      run: async (ctx, [shipmentIncrementId]) => {
        const row = await shipmentArg(ctx, shipmentIncrementId);
        try {
          return shipmentInfo(row, await getShipment(ctx, row.id));
        } catch (err) {
          asFault(err);
        }
      },
    },
    create: {
      title: 'Create new shipment for order',
      permission: ['shipments', 'create'],
      params: ['orderIncrementId', 'itemsQty', 'comment', 'email', 'includeComment'],
      run: async (ctx, [orderIncrementId, itemsQty, commentArg, email, includeComment]) => {
        const order = await orderArg(ctx, orderIncrementId);
        const items = itemsQtyArg(itemsQty);
        const comment = textArg(commentArg, 'comment')?.trim() || undefined;
        const notify = flag(email);
        // Magento mails the comment only with includeComment: otherwise it is kept on the shipment, unmailed
        const mailed = !notify || flag(includeComment);
        try {
          const created = await createShipment(ctx, order.id, {
            ...(items ? { items } : {}),
            ...(comment && mailed ? { comment } : {}),
            notifyCustomer: notify,
          });
          if (comment && !mailed) await addShipmentComment(ctx, created.id, { comment, notifyCustomer: false });
          return created.incrementId;
        } catch (err) {
          asFault(err, 'order_not_exists');
        }
      },
    },
    addComment: {
      title: 'Add new comment to shipment',
      permission: ['shipments', 'write'],
      params: ['shipmentIncrementId', 'comment', 'email', 'includeInEmail'],
      run: async (ctx, [shipmentIncrementId, comment, email]) => {
        const row = await shipmentArg(ctx, shipmentIncrementId);
        try {
          await addShipmentComment(ctx, row.id, { comment: textArg(comment, 'comment') ?? '', notifyCustomer: flag(email) });
        } catch (err) {
          asFault(err);
        }
        return true;
      },
    },
    addTrack: {
      title: 'Add new tracking number',
      permission: ['shipments', 'create'],
      params: ['shipmentIncrementId', 'carrier', 'title', 'trackNumber', 'weight'],
      run: async (ctx, [shipmentIncrementId, carrier, title, trackNumber]) => {
        const row = await shipmentArg(ctx, shipmentIncrementId);
        const code = textArg(carrier, 'carrier')?.trim() ?? '';
        if (!carriersOf(ctx, row.storeId).has(code)) throw resourceFault(salesOrderShipment, 'data_invalid', 'Invalid carrier specified.');
        const number = textArg(trackNumber, 'trackNumber') ?? '';
        try {
          const dto = await addTrack(ctx, row.id, { carrierCode: code, title: textArg(title, 'title'), trackNumber: number });
          // the new track: the latest of this carrier and number (track ids only grow)
          const mine = dto.tracks.filter((t) => t.carrier === code && t.trackNumber === number.trim());
          return Math.max(...mine.map((t) => t.id));
        } catch (err) {
          asFault(err);
        }
      },
    },
    removeTrack: {
      title: 'Remove tracking number',
      permission: ['shipments', 'delete'],
      params: ['shipmentIncrementId', 'trackId'],
      run: async (ctx, [shipmentIncrementId, trackId]) => {
        const row = await shipmentArg(ctx, shipmentIncrementId);
        const id = idArg(trackId);
        if (id === undefined) throw resourceFault(salesOrderShipment, 'track_not_exists');
        try {
          await removeTrack(ctx, row.id, id);
        } catch (err) {
          asFault(err);
        }
        return true;
      },
    },
    sendInfo: {
      title: 'Send shipment info',
      permission: ['shipments', 'write'],
      params: ['shipmentIncrementId', 'comment'],
      run: async (ctx, [shipmentIncrementId, comment]) => {
        const row = await shipmentArg(ctx, shipmentIncrementId);
        try {
          await sendShipmentInfo(ctx, row.id, textArg(comment, 'comment'));
        } catch (err) {
          asFault(err);
        }
        return true;
      },
    },
    getCarriers: {
      title: 'Retrieve list of allowed carriers for order',
      permission: ['shipments', 'read'],
      params: ['orderIncrementId'],
      run: async (ctx, [orderIncrementId]) => carriersOf(ctx, (await orderArg(ctx, orderIncrementId)).storeId),
    },
  },
});
