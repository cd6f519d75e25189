/**
 * The events a subscription can ask for, and how a service emits one: `emitEvent` inside the transaction of
 * the change. The events of a transaction are rendered (the resource as REST shows it) and written in one
 * statement just before its commit, with one delivery row per matching subscription, so a change that rolls
 * back emits nothing and one that commits is never without its events. An event no active subscription wants
 * costs nothing (EventSink.wants, a per-process answer re-read every WEBHOOK_POLL).
 */
import { sql, type SQL } from 'drizzle-orm';
import { afterCommit, beforeCommit, type Ctx } from '../../platform/context.js';
import { rows } from '../../platform/db.js';

export const EVENT_TYPES = {
  'order.placed': 'An order was placed (checkout or admin)',
  'order.updated': "An order's state or status changed",
  'order.canceled': 'An order was canceled',
  'invoice.created': 'An invoice was created',
  'shipment.created': 'A shipment was created',
  'shipment.tracking_added': 'A tracking number was added to a shipment',
  'creditmemo.created': 'A credit memo (refund) was created',
  'product.created': 'A product was created',
  'product.updated': 'A product was changed',
  'product.deleted': 'A product was deleted',
  'stock.changed': "A product's stock quantity changed",
  'customer.created': 'A customer account was created',
  'customer.updated': 'A customer account was changed',
  'customer.deleted': 'A customer account was deleted',
  'review.submitted': 'A product review was submitted',
  'revocation.submitted': 'A contract revocation was submitted',
  'newsletter.subscribed': 'An address subscribed to the newsletter',
  'newsletter.unsubscribed': 'An address unsubscribed from the newsletter',
} as const;

export type EventType = keyof typeof EVENT_TYPES;

/** The test event `POST /webhooks/{id}/ping` sends; no subscription asks for it, each can be sent it. */
export const PING = 'webhook.ping';

/** Whether a subscription's pattern (`order.placed`, `order.*`, `*`) covers an event type. */
export function patternMatches(pattern: string, type: string): boolean {
  if (pattern === '*' || pattern === type) return true;
  return pattern.endsWith('.*') && type.startsWith(pattern.slice(0, -1));
}

/** The SQL twin of patternMatches: whether any of the patterns `events` (a text[]) covers `type`. */
export const patternMatchesSql = (events: SQL, type: SQL | string) =>
  sql`EXISTS (SELECT 1 FROM unnest(${events}) p WHERE p = '*' OR p = ${type} OR (right(p, 2) = '.*' AND starts_with(${type}, left(p, -1))))`;

interface Pending {
  type: string;
  resourceType: string;
  resourceId: string;
  storeId: number | null;
  data: () => unknown;
}

const pendingOf = new WeakMap<object, Pending[]>();

export interface EventRef {
  /** what the event is about: `order`, `product`, ... and its id */
  resource: string;
  id: number | string;
  /** the store view it belongs to (an order's); null for what every store view shares (a product, stock); default: the request's */
  storeId?: number | null;
}

/**
 * Emits `type` about `ref` from inside a transaction: `data` (the resource as REST shows it, or a function
 * giving it, run inside the transaction after its work) is written with the event just before the commit. One
 * event per type and resource per transaction: a second emit of the same replaces nothing.
 */
export function emitEvent(ctx: Ctx, type: EventType, ref: EventRef, data: unknown | (() => unknown)): void {
  if (!ctx.tx) throw new Error(`${type} must be emitted inside the transaction of its change`);
  const storeId = ref.storeId === undefined ? ctx.store.storeId : ref.storeId;
  if (!ctx.app.events.wants(type, storeId)) return;
  let pending = pendingOf.get(ctx.tx);
  if (!pending) {
    const list: Pending[] = [];
    pending = list;
    pendingOf.set(ctx.tx, list);
    void beforeCommit(ctx, () => writeEvents(ctx, list).then(() => undefined));
  }
  const resourceId = String(ref.id);
  if (pending.some((p) => p.type === type && p.resourceType === ref.resource && p.resourceId === resourceId)) return;
  pending.push({ type, resourceType: ref.resource, resourceId, storeId, data: typeof data === 'function' ? (data as () => unknown) : () => data });
}

/** A context that renders resources as the back office sees them (payloads do not depend on who made the change). */
export function backOffice(ctx: Ctx): Ctx {
  return { ...ctx, actor: { kind: 'admin', principal: 'api_user', id: 0, username: 'webhooks', permissions: ['all'], jti: '', exp: 0 } };
}

/** Writes a transaction's events and their deliveries in one statement; answers the event ids. */
export async function writeEvents(ctx: Ctx, list: Pending[], onlySubscription?: number): Promise<number[]> {
  if (!list.length) return [];
  const records = [];
  for (const p of list) {
    records.push({
      type: p.type,
      resource_type: p.resourceType,
      resource_id: p.resourceId,
      store_id: p.storeId,
      store_code: p.storeId === null ? null : (ctx.app.settings.store(p.storeId)?.code ?? null),
      data: JSON.stringify((await p.data()) ?? null),
    });
  }
  // a subscription limited to store views gets the events of those only, not one of no store view (a product,
  // stock), which may concern another website's catalog
  const target =
    onlySubscription === undefined
      ? sql`s.active AND (s.store_ids IS NULL OR e.store_id = ANY(s.store_ids)) AND ${patternMatchesSql(sql`s.events`, sql`e.type`)}`
      : sql`s.id = ${onlySubscription}`;
  const written = await rows<{ id: number }>(
    ctx.db,
    sql`WITH e AS (
          INSERT INTO webhook_events (type, resource_type, resource_id, store_id, store_code, data)
          SELECT type, resource_type, resource_id, store_id, store_code, data
            FROM jsonb_to_recordset(${JSON.stringify(records)}::jsonb)
                 AS x(type text, resource_type text, resource_id text, store_id int, store_code text, data text)
          RETURNING id, type, store_id),
        d AS (
          INSERT INTO webhook_deliveries (subscription_id, event_id)
          SELECT s.id, e.id FROM e JOIN webhook_subscriptions s ON ${target})
        SELECT id FROM e ORDER BY id`,
  );
  afterCommit(ctx, () => ctx.app.events.nudge());
  return written.map((r) => Number(r.id));
}
