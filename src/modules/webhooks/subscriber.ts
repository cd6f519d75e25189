/**
 * Webhooks as a subscriber of the event bus: the transactional outbox. The events a transaction emits are
 * rendered (the resource as REST shows it) and written in one statement just before its commit, with one delivery
 * row per matching subscription, so a change that rolls back emits nothing and one that commits is never without
 * its events. An event no active subscription wants costs nothing (the deliverer's `wants`, a per-process answer
 * re-read every WEBHOOK_POLL).
 */
import { sql } from 'drizzle-orm';
import { afterCommit, beforeCommit, type Ctx } from '../../platform/context.js';
import { rows } from '../../platform/db.js';
import type { EventSubscriber } from '../../platform/events.js';
import { webhookDeliverer } from './background.js';
import { patternMatchesSql } from './patterns.js';

/** An event waiting in a transaction for its commit. */
export interface PendingEvent {
  type: string;
  resourceType: string;
  resourceId: string;
  storeId: number | null;
  data: () => unknown;
}

const pendingOf = new WeakMap<object, PendingEvent[]>();

/**
 * Takes the events active subscriptions want, inside the transaction of their change: the payload is rendered
 * just before the commit, after the transaction's work. One event per type and resource per transaction: a second
 * emit of the same replaces nothing.
 */
export const webhookSubscriber: EventSubscriber = {
  name: 'webhooks',
  wants: (app, type, storeId) => app.background(webhookDeliverer).wants(type, storeId),
  receive(ctx, event) {
    if (!ctx.tx) throw new Error(`${event.type} must be emitted inside the transaction of its change`);
    let pending = pendingOf.get(ctx.tx);
    if (!pending) {
      const list: PendingEvent[] = [];
      pending = list;
      pendingOf.set(ctx.tx, list);
      void beforeCommit(ctx, () => writeEvents(ctx, list).then(() => undefined));
    }
    if (pending.some((p) => p.type === event.type && p.resourceType === event.resource && p.resourceId === event.resourceId)) return;
    pending.push({
      type: event.type,
      resourceType: event.resource,
      resourceId: event.resourceId,
      storeId: event.storeId,
      data: event.data,
    });
  },
};

/** Writes a transaction's events and their deliveries in one statement; answers the event ids. */
export async function writeEvents(ctx: Ctx, list: PendingEvent[], onlySubscription?: number): Promise<number[]> {
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
  afterCommit(ctx, () => ctx.app.background(webhookDeliverer).nudge());
  return written.map((r) => Number(r.id));
}
