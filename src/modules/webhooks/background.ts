/**
 * The webhook deliverer as the module's background work: started with the app in every server process (it
 * reads the active subscriptions before the first request), stopped with it; its janitor round drops settled
 * history. Services reach it as `ctx.app.background(webhookDeliverer)`.
 */
import { sql } from 'drizzle-orm';
import { defineBackground } from '../../platform/background.js';
import type { Db } from '../../platform/db.js';
import { observeWebhookAttempt } from '../../platform/metrics.js';
import { createDeliverer } from './deliverer.js';
import { mailWebhookDisabled } from './mail.js';

/** How long events are kept with their deliveries and attempts once nothing of them is pending. */
export const WEBHOOK_HISTORY_DAYS = 30;

/** Drops the events (with their deliveries and attempts) older than the history period that are settled. */
async function purgeWebhookHistory(db: Db): Promise<void> {
  await db.execute(sql`
    DELETE FROM webhook_events e
     WHERE e.created_at < now() - make_interval(days => ${WEBHOOK_HISTORY_DAYS})
       AND NOT EXISTS (SELECT 1 FROM webhook_deliveries d WHERE d.event_id = e.id AND d.status = 'pending')`);
}

export const webhookDeliverer = defineBackground('webhooks', async (env) => {
  const deliverer = createDeliverer({
    db: env.db,
    listenUrl: env.databaseUrl,
    log: env.log,
    config: env.config.webhooks,
    onDisabled: (sub) => mailWebhookDisabled(env.systemCtx(), sub),
    observe: observeWebhookAttempt,
  });
  await deliverer.refresh();
  return { ...deliverer, tidy: () => purgeWebhookHistory(env.db) };
});
