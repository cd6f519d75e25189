/**
 * Shipments as the wire shows them (wire reference §2.8): the shipment with its items, tracks (read key
 * `carrier`) and comments (newest first). No access checks here; the service checks first.
 */
import { asc, count, desc, eq, inArray } from 'drizzle-orm';
import { adminStoreScope, together, type Ctx } from '../../platform/context.js';
import { notFound } from '../../platform/errors.js';
import { compact, wireDateTime } from '../../platform/format.js';
import { toWire } from '../../platform/money.js';
import { findOrder, orderIncrementIdSql, seesInternalComments } from '../orders/core.js';
import type { ShipmentDto } from './schemas.js';
import { shipmentComments, shipmentItems, shipmentTracks, shipments } from './tables.js';

export const shipmentNotFound = () => notFound('Shipment not found', { reason: 'SHIPMENT_NOT_FOUND' });

export type ShipmentRow = typeof shipments.$inferSelect;
type ItemRow = typeof shipmentItems.$inferSelect;
type TrackRow = typeof shipmentTracks.$inferSelect;
type CommentRow = typeof shipmentComments.$inferSelect;

const num = (v: string | null) => (v === null ? null : Number(v));

function itemDto(i: ItemRow): ShipmentDto['items'][number] {
  return compact({
    id: i.id,
    orderItemId: i.orderItemId,
    productId: i.productId,
    sku: i.sku,
    name: i.name,
    description: i.description,
    qty: Number(i.qty),
    price: toWire(i.price),
    rowTotal: toWire(i.rowTotal),
    weight: num(i.weight),
  });
}

function trackDto(t: TrackRow): ShipmentDto['tracks'][number] {
  return compact({
    id: t.id,
    carrier: t.carrierCode,
    title: t.title,
    trackNumber: t.trackNumber,
    description: t.description,
    weight: num(t.weight),
    qty: num(t.qty),
    createdAt: wireDateTime(t.createdAt)!,
    updatedAt: wireDateTime(t.updatedAt)!,
  });
}

function commentDto(c: CommentRow): ShipmentDto['comments'][number] {
  return {
    id: c.id,
    comment: c.comment,
    createdAt: wireDateTime(c.createdAt)!,
    isCustomerNotified: c.isCustomerNotified,
    isVisibleOnFront: c.isVisibleOnFront,
  };
}

function group<T extends { shipmentId: number }>(list: T[]): Map<number, T[]> {
  const out = new Map<number, T[]>();
  for (const r of list) {
    const l = out.get(r.shipmentId);
    if (l) l.push(r);
    else out.set(r.shipmentId, [r]);
  }
  return out;
}

/**
 * The wire shapes of shipments, of one order or of many (three queries, whatever their number); `orderNumber`
 * gives the increment id of a shipment's order.
 */
export async function shipmentDtos(ctx: Ctx, rows: ShipmentRow[], orderNumber: (orderId: number) => string): Promise<ShipmentDto[]> {
  if (!rows.length) return [];
  const ids = rows.map((s) => s.id);
  // called inside transactions too (a cancel reads what was shipped), where reads take turns on one connection
  const [items, tracks, comments] = await together(ctx, [
    () => ctx.db.select().from(shipmentItems).where(inArray(shipmentItems.shipmentId, ids)).orderBy(asc(shipmentItems.id)),
    () => ctx.db.select().from(shipmentTracks).where(inArray(shipmentTracks.shipmentId, ids)).orderBy(asc(shipmentTracks.id)),
    () =>
      ctx.db
        .select()
        .from(shipmentComments)
        .where(inArray(shipmentComments.shipmentId, ids))
        .orderBy(desc(shipmentComments.createdAt), desc(shipmentComments.id)),
  ] as const);
  const itemsOf = group(items);
  const tracksOf = group(tracks);
  // the order read embeds its shipments for customers and guests too: they see only the visible comments
  const commentsOf = group(seesInternalComments(ctx) ? comments : comments.filter((c) => c.isVisibleOnFront));
  return rows.map(
    (s) =>
      compact({
        id: s.id,
        orderId: s.orderId,
        incrementId: s.incrementId,
        orderIncrementId: orderNumber(s.orderId),
        totalQty: Number(s.totalQty),
        totalWeight: num(s.totalWeight),
        storeId: s.storeId,
        emailSent: s.emailSent,
        shipmentStatus: s.shipmentStatus,
        createdAt: wireDateTime(s.createdAt)!,
        updatedAt: wireDateTime(s.updatedAt)!,
        packages: s.packages ?? [],
        comments: (commentsOf.get(s.id) ?? []).map(commentDto),
        tracks: (tracksOf.get(s.id) ?? []).map(trackDto),
        items: (itemsOf.get(s.id) ?? []).map(itemDto),
      }) as ShipmentDto,
  );
}

/** The shipments rows of an order, oldest first. */
export function shipmentRowsOf(ctx: Ctx, orderId: number): Promise<ShipmentRow[]> {
  return ctx.db.select().from(shipments).where(eq(shipments.orderId, orderId)).orderBy(asc(shipments.createdAt), asc(shipments.id));
}

/** One shipment row; undefined when there is none (ids out of range included). */
export async function shipmentRow(ctx: Ctx, id: number): Promise<ShipmentRow | undefined> {
  if (!Number.isInteger(id) || id < 1 || id > 2147483647) return undefined;
  const [row] = await ctx.db.select().from(shipments).where(eq(shipments.id, id));
  return row;
}

/** One shipment by id as the wire shows it, without an access check (for callers that checked). */
export async function shipmentView(ctx: Ctx, id: number): Promise<ShipmentDto> {
  const shipment = await shipmentRow(ctx, id);
  const found = shipment && (await findOrder(ctx, shipment.orderId));
  if (!shipment || !found) throw shipmentNotFound();
  const [dto] = await shipmentDtos(ctx, [shipment], () => found.order.incrementId);
  return dto;
}

/**
 * A page of every shipment, newest first, for the back office (GraphQL `shipments`): an API user limited to
 * store views sees only theirs. Customers never get here (the caller checks the grant).
 */
export async function listAllShipments(ctx: Ctx, page: { size: number; offset: number }): Promise<{ items: ShipmentDto[]; total: number }> {
  const scope = adminStoreScope(ctx);
  const cond = scope ? inArray(shipments.storeId, scope.length ? scope : [-1]) : undefined;
  // the page with each shipment's order number, and the count; then the items, tracks and comments of the page
  const [found, [{ n }]] = await Promise.all([
    ctx.db
      .select({ shipment: shipments, orderIncrementId: orderIncrementIdSql(shipments.orderId) })
      .from(shipments)
      .where(cond)
      .orderBy(desc(shipments.createdAt), desc(shipments.id))
      .limit(page.size)
      .offset(page.offset),
    ctx.db.select({ n: count() }).from(shipments).where(cond),
  ]);
  const numbers = new Map(found.map((r) => [r.shipment.orderId, r.orderIncrementId ?? '']));
  const items = await shipmentDtos(
    ctx,
    found.map((r) => r.shipment),
    (orderId) => numbers.get(orderId) ?? '',
  );
  return { items, total: Number(n) };
}
