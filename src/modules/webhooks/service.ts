/**
 * Webhook subscriptions (admin): create with a signing secret shown once, update, rotate the secret (the old
 * one still signs for 24 hours), delete, ping, and the delivery log with redelivery.
 */
import { and, count, desc, eq, sql, type SQL } from 'drizzle-orm';
import { adminStoreScope, assertScopeWritable, scopeWritable, withTx, type Ctx } from '../../platform/context.js';
import { badRequest, notFound } from '../../platform/errors.js';
import type { CollectionResult, Page } from '../../platform/pagination.js';
import { SUBSCRIPTIONS_CHANNEL } from './deliverer.js';
import { webhookDeliverer } from './background.js';
import { PING, patternMatches, patternMatchesSql } from './patterns.js';
import type { WebhookCreateInput, WebhookDeliveryDto, WebhookDto, WebhookUpdateInput } from './schemas.js';
import { SecretBox, newSecret } from './signing.js';
import { writeEvents } from './subscriber.js';
import { webhookAttempts, webhookDeliveries, webhookEvents, webhookSubscriptions } from './tables.js';
import { TargetRefused, assertResolvesPublic, urlProblem } from './target.js';

type SubscriptionRow = typeof webhookSubscriptions.$inferSelect;

const ROTATION_GRACE_MS = 24 * 3600 * 1000;

/**
 * The next attempt of a delivery this request sends itself (a ping, a redelivery): far enough ahead that no
 * deliverer pass takes it meanwhile, near enough that it goes out should this process die first.
 */
const HELD = sql`now() + interval '5 minutes'`;

const iso = (d: Date | null) => (d ? d.toISOString() : null);

function invalid(field: string, message: string) {
  return badRequest(message, { reason: 'VALIDATION_FAILED', details: { field, constraint: 'invalid' } });
}

const subscriptionNotFound = () => notFound('Webhook subscription not found', { reason: 'WEBHOOK_NOT_FOUND' });

function toDto(ctx: Ctx, r: SubscriptionRow, secret?: string): WebhookDto {
  return {
    id: r.id,
    url: r.url,
    events: r.events,
    active: r.active,
    description: r.description,
    storeCodes: r.storeIds ? r.storeIds.map((id) => ctx.app.settings.store(id)?.code ?? String(id)) : null,
    ...(secret ? { secret } : {}),
    previousSecretExpiresAt:
      r.previousSecret && r.previousSecretExpiresAt && r.previousSecretExpiresAt > ctx.now ? iso(r.previousSecretExpiresAt) : null,
    failingSince: iso(r.failingSince),
    disabledAt: iso(r.disabledAt),
    disabledReason: r.disabledReason,
    createdAt: r.createdAt.toISOString(),
    updatedAt: r.updatedAt.toISOString(),
  };
}

function box(ctx: Ctx): SecretBox {
  return new SecretBox(ctx.app.config.webhooks.encryptionKeys);
}

async function checkUrl(ctx: Ctx, url: string): Promise<string> {
  const trimmed = url.trim();
  const problem = urlProblem(trimmed, ctx.app.config.webhooks);
  if (problem) throw invalid('url', problem);
  try {
    await assertResolvesPublic(trimmed, ctx.app.config.webhooks);
  } catch (err) {
    if (err instanceof TargetRefused) throw invalid('url', err.message);
    throw err;
  }
  return trimmed;
}

/** Re-reads the subscriptions here and tells the other processes to (they LISTEN on PostgreSQL). */
async function subscriptionsChanged(ctx: Ctx): Promise<void> {
  await ctx.db.execute(sql`SELECT pg_notify(${SUBSCRIPTIONS_CHANNEL}, '')`);
  await ctx.app.background(webhookDeliverer).refresh();
}

/** 400 unless each pattern covers an event some module declares. */
function checkEvents(ctx: Ctx, events: string[]): string[] {
  const known = [...ctx.app.events.declared.keys()];
  for (const p of events) {
    if (!known.some((t) => patternMatches(p, t))) throw invalid('events', `${p} names no event; known: ${known.join(', ')}`);
  }
  return events;
}

function storeIdsOf(ctx: Ctx, codes: string[] | null | undefined): number[] | null {
  if (!codes) return null;
  return codes.map((code) => {
    const store = ctx.app.settings.storeByCode(code);
    if (!store) throw invalid('storeCodes', `Unknown store code ${code}`);
    return store.id;
  });
}

/**
 * For a principal limited to some store views: the subscriptions all of whose store views are its own (one for
 * every store view is not, as it receives the events of the others); undefined for every other caller.
 */
function scopeCondition(ctx: Ctx): SQL | undefined {
  const scope = adminStoreScope(ctx);
  if (!scope) return undefined;
  return sql`(cardinality(${webhookSubscriptions.storeIds}) > 0 AND ${webhookSubscriptions.storeIds} <@ ${`{${scope.join(',')}}`}::int[])`;
}

/** The store views a write asks for, which a limited principal must name, all of them its own (403). */
function writableStoreIds(ctx: Ctx, codes: string[] | null | undefined): number[] | null {
  const ids = storeIdsOf(ctx, codes);
  assertScopeWritable(ctx, ids, 'storeCodes');
  return ids;
}

export async function listWebhooks(ctx: Ctx, q: { active?: boolean; event?: string }, page: Page): Promise<CollectionResult<WebhookDto>> {
  const where: SQL[] = [];
  const scope = scopeCondition(ctx);
  if (scope) where.push(scope);
  if (q.active !== undefined) where.push(eq(webhookSubscriptions.active, q.active));
  if (q.event) where.push(patternMatchesSql(sql`${webhookSubscriptions.events}`, q.event));
  const cond = where.length ? and(...where) : undefined;
  const [found, [{ n }]] = await Promise.all([
    ctx.db.select().from(webhookSubscriptions).where(cond).orderBy(webhookSubscriptions.id).limit(page.size).offset(page.offset),
    ctx.db.select({ n: count() }).from(webhookSubscriptions).where(cond),
  ]);
  return { items: found.map((r) => toDto(ctx, r)), total: Number(n) };
}

async function findSubscription(ctx: Ctx, id: number): Promise<SubscriptionRow> {
  const [row] = await ctx.db.select().from(webhookSubscriptions).where(eq(webhookSubscriptions.id, id));
  // another store's subscription is not found, as another customer's data is
  if (!row || !scopeWritable(ctx, row.storeIds)) throw subscriptionNotFound();
  return row;
}

export async function getWebhook(ctx: Ctx, id: number): Promise<WebhookDto> {
  return toDto(ctx, await findSubscription(ctx, id));
}

export async function createWebhook(ctx: Ctx, body: WebhookCreateInput): Promise<WebhookDto> {
  const url = await checkUrl(ctx, body.url);
  const events = checkEvents(ctx, body.events);
  const storeIds = writableStoreIds(ctx, body.storeCodes);
  const secret = newSecret();
  const [row] = await ctx.db
    .insert(webhookSubscriptions)
    .values({ url, events, storeIds, active: body.active ?? true, description: body.description ?? null, secret: box(ctx).seal(secret) })
    .returning();
  await subscriptionsChanged(ctx);
  return toDto(ctx, row, secret);
}

export async function updateWebhook(ctx: Ctx, id: number, body: WebhookUpdateInput): Promise<WebhookDto> {
  const set: Partial<SubscriptionRow> = { updatedAt: ctx.now };
  if (body.url !== undefined) set.url = await checkUrl(ctx, body.url);
  if (body.events !== undefined) set.events = checkEvents(ctx, body.events);
  if (body.storeCodes !== undefined) set.storeIds = writableStoreIds(ctx, body.storeCodes);
  if (body.description !== undefined) set.description = body.description;
  if (body.active !== undefined) {
    set.active = body.active;
    // switched on again: the run of failures starts over
    if (body.active) Object.assign(set, { failingSince: null, disabledAt: null, disabledReason: null });
  }
  const [row] = await ctx.db
    .update(webhookSubscriptions)
    .set(set)
    .where(and(eq(webhookSubscriptions.id, id), scopeCondition(ctx)))
    .returning();
  if (!row) throw subscriptionNotFound();
  await subscriptionsChanged(ctx);
  return toDto(ctx, row);
}

export async function deleteWebhook(ctx: Ctx, id: number): Promise<void> {
  const gone = await ctx.db
    .delete(webhookSubscriptions)
    .where(and(eq(webhookSubscriptions.id, id), scopeCondition(ctx)))
    .returning({ id: webhookSubscriptions.id });
  if (!gone.length) throw subscriptionNotFound();
  await subscriptionsChanged(ctx);
}

/** A new signing secret, shown once; the one it replaces keeps signing (as a second signature) for 24 hours. */
export async function rotateWebhookSecret(ctx: Ctx, id: number): Promise<WebhookDto> {
  const secret = newSecret();
  const [row] = await ctx.db
    .update(webhookSubscriptions)
    .set({
      previousSecret: sql`${webhookSubscriptions.secret}`,
      previousSecretExpiresAt: new Date(ctx.now.getTime() + ROTATION_GRACE_MS),
      secret: box(ctx).seal(secret),
      updatedAt: ctx.now,
    })
    .where(and(eq(webhookSubscriptions.id, id), scopeCondition(ctx)))
    .returning();
  if (!row) throw subscriptionNotFound();
  return toDto(ctx, row, secret);
}

const deliveryColumns = {
  id: webhookDeliveries.id,
  subscriptionId: webhookDeliveries.subscriptionId,
  eventId: webhookDeliveries.eventId,
  event: webhookEvents.type,
  resourceType: webhookEvents.resourceType,
  resourceId: webhookEvents.resourceId,
  status: webhookDeliveries.status,
  attempts: webhookDeliveries.attempts,
  lastStatusCode: webhookDeliveries.lastStatusCode,
  lastDurationMs: webhookDeliveries.lastDurationMs,
  lastError: webhookDeliveries.lastError,
  nextAttemptAt: webhookDeliveries.nextAttemptAt,
  createdAt: webhookDeliveries.createdAt,
  deliveredAt: webhookDeliveries.deliveredAt,
};

interface DeliveryRow {
  id: number;
  subscriptionId: number;
  eventId: number;
  event: string;
  resourceType: string;
  resourceId: string;
  status: string;
  attempts: number;
  lastStatusCode: number | null;
  lastDurationMs: number | null;
  lastError: string | null;
  nextAttemptAt: Date;
  createdAt: Date;
  deliveredAt: Date | null;
}

function deliveryDto(r: DeliveryRow): WebhookDeliveryDto {
  return {
    ...r,
    id: Number(r.id),
    eventId: `evt_${r.eventId}`,
    nextAttemptAt: r.status === 'pending' ? iso(r.nextAttemptAt) : null,
    createdAt: r.createdAt.toISOString(),
    deliveredAt: iso(r.deliveredAt),
  };
}

export async function listDeliveries(
  ctx: Ctx,
  id: number,
  q: { status?: string; event?: string },
  page: Page,
): Promise<CollectionResult<WebhookDeliveryDto>> {
  await findSubscription(ctx, id);
  const where = and(
    eq(webhookDeliveries.subscriptionId, id),
    q.status ? eq(webhookDeliveries.status, q.status) : undefined,
    q.event ? eq(webhookEvents.type, q.event) : undefined,
  );
  const base = () =>
    ctx.db.select(deliveryColumns).from(webhookDeliveries).innerJoin(webhookEvents, eq(webhookEvents.id, webhookDeliveries.eventId));
  const [found, [{ n }]] = await Promise.all([
    base().where(where).orderBy(desc(webhookDeliveries.id)).limit(page.size).offset(page.offset),
    ctx.db
      .select({ n: count() })
      .from(webhookDeliveries)
      .innerJoin(webhookEvents, eq(webhookEvents.id, webhookDeliveries.eventId))
      .where(where),
  ]);
  return { items: found.map(deliveryDto), total: Number(n) };
}

export async function getDelivery(ctx: Ctx, id: number, deliveryId: number): Promise<WebhookDeliveryDto> {
  if (adminStoreScope(ctx)) await findSubscription(ctx, id);
  const [row] = await ctx.db
    .select(deliveryColumns)
    .from(webhookDeliveries)
    .innerJoin(webhookEvents, eq(webhookEvents.id, webhookDeliveries.eventId))
    .where(and(eq(webhookDeliveries.id, deliveryId), eq(webhookDeliveries.subscriptionId, id)));
  if (!row) throw notFound('Webhook delivery not found', { reason: 'WEBHOOK_DELIVERY_NOT_FOUND' });
  const attempts = await ctx.db
    .select()
    .from(webhookAttempts)
    .where(eq(webhookAttempts.deliveryId, deliveryId))
    .orderBy(webhookAttempts.id);
  return {
    ...deliveryDto(row),
    attemptLog: attempts.map((a) => ({
      attempt: a.attempt,
      statusCode: a.statusCode,
      durationMs: a.durationMs,
      error: a.error,
      response: a.response,
      createdAt: a.createdAt.toISOString(),
    })),
  };
}

/** Sends the delivery again now (a failed or succeeded one starts a new round of attempts) and answers its log. */
export async function redeliver(ctx: Ctx, id: number, deliveryId: number): Promise<WebhookDeliveryDto> {
  await getDelivery(ctx, id, deliveryId);
  await ctx.db
    .update(webhookDeliveries)
    .set({ status: 'pending', nextAttemptAt: HELD, createdAt: sql`now()` })
    .where(eq(webhookDeliveries.id, deliveryId));
  await ctx.app.background(webhookDeliverer).deliverNow(deliveryId);
  return getDelivery(ctx, id, deliveryId);
}

/** Sends a `webhook.ping` event to this subscription alone, now, and answers the delivery with its attempt. */
export async function pingWebhook(ctx: Ctx, id: number): Promise<WebhookDeliveryDto> {
  const sub = await findSubscription(ctx, id);
  const delivery = await withTx(ctx, async (tx) => {
    const [eventId] = await writeEvents(
      tx,
      [
        {
          type: PING,
          resourceType: 'webhook',
          resourceId: String(id),
          storeId: null,
          data: () => ({ webhookId: id, url: sub.url, message: 'ping' }),
        },
      ],
      id,
    );
    const [held] = await tx.db
      .update(webhookDeliveries)
      .set({ nextAttemptAt: HELD })
      .where(and(eq(webhookDeliveries.eventId, eventId), eq(webhookDeliveries.subscriptionId, id)))
      .returning({ id: webhookDeliveries.id });
    return held;
  });
  await ctx.app.background(webhookDeliverer).deliverNow(delivery.id);
  return getDelivery(ctx, id, delivery.id);
}
