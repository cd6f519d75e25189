/**
 * Delivers webhook events, in every process. A pass claims due deliveries by pushing their next attempt past a
 * lease and counting the attempt (one statement, `FOR UPDATE SKIP LOCKED`: two processes never take the same
 * attempt), POSTs each signed body, then records the outcome. A process that dies mid-attempt leaves its rows
 * to the next pass after the lease: delivery is at least once. A failure is retried with exponential backoff
 * and jitter until the retry window closes (then `failed`); a subscription that has failed for the configured
 * time in a row is disabled and the store contact is mailed.
 */
import http from 'node:http';
import https from 'node:https';
import type { FastifyBaseLogger } from 'fastify';
import { sql } from 'drizzle-orm';
import pg from 'pg';
import { rows, type Db } from '../../platform/db.js';
import { serialPasses } from '../../platform/passes.js';
import type { WebhookConfig } from '../../platform/config.js';
import { patternMatches } from './patterns.js';
import { SecretBox, signatureHeader } from './signing.js';
import { guardedLookup, urlProblem } from './target.js';

const BATCH = 20;
const USER_AGENT = 'commerce-webhooks/1';

interface Claimed {
  id: number;
  attempts: number;
  event_id: number;
  type: string;
  store_code: string | null;
  created: string;
  data: string;
  subscription_id: number;
  url: string;
  secret: string;
  previous_secret: string | null;
  previous_valid: boolean;
}

interface AttemptOutcome {
  statusCode: number | null;
  durationMs: number;
  error: string | null;
  response: string | null;
}

export interface Deliverer {
  /**
   * true when an active subscription may want `type` in the store view (null: of a resource every store view
   * shares, such as a product); a per-process answer, re-read every poll and at once after a change
   */
  wants(type: string, storeId: number | null): boolean;
  /** wakes the deliverer (after a commit that wrote events) */
  nudge(): void;
  /** attempts one delivery now, whatever its schedule (a ping, a redelivery) */
  deliverNow(deliveryId: number): Promise<void>;
  /** re-reads the active subscriptions at once (after this process changed them) */
  refresh(): Promise<void>;
  /** delivers what is due now; resolves with the number of attempts made once this pass is done */
  runOnce(): Promise<number>;
  /** done once the stored secrets sealed under a previous key are sealed under the current one (at start) */
  resealed: Promise<number>;
  stop(): Promise<void>;
}

/** The delay before retry number `attempts` (1-based): base · 2^(n−1), at most max, ±20% jitter. */
function retryDelayMs(cfg: Pick<WebhookConfig, 'retryBaseMs' | 'retryMaxMs'>, attempts: number, random = Math.random()): number {
  const plain = Math.min(cfg.retryMaxMs, cfg.retryBaseMs * 2 ** Math.min(attempts - 1, 40));
  return Math.round(plain * (0.8 + 0.4 * random));
}

/** The signed body of an event: the same bytes on every attempt. */
function eventBody(c: Pick<Claimed, 'event_id' | 'type' | 'store_code' | 'created' | 'data'>): { id: string; body: string } {
  const id = `evt_${c.event_id}`;
  const body = `{"id":${JSON.stringify(id)},"type":${JSON.stringify(c.type)},"createdAt":${JSON.stringify(c.created)},"storeCode":${JSON.stringify(c.store_code)},"sequence":${Number(c.event_id)},"data":${c.data}}`;
  return { id, body };
}

/** POSTs `body` within `timeoutMs`; answers the status and the first KiB of the answer, or the error. */
function post(url: string, headers: Record<string, string>, body: string, cfg: WebhookConfig): Promise<AttemptOutcome> {
  const started = performance.now();
  const done = (o: Omit<AttemptOutcome, 'durationMs'>): AttemptOutcome => ({ ...o, durationMs: Math.round(performance.now() - started) });
  return new Promise((resolve) => {
    const problem = urlProblem(url, cfg);
    if (problem) return resolve(done({ statusCode: null, error: problem, response: null }));
    const u = new URL(url);
    const req = (u.protocol === 'https:' ? https : http).request(u, {
      method: 'POST',
      headers: { ...headers, 'content-length': String(Buffer.byteLength(body)) },
      lookup: guardedLookup(cfg),
      signal: AbortSignal.timeout(cfg.timeoutMs),
      agent: false,
    });
    req.on('response', (res) => {
      const chunks: Buffer[] = [];
      let size = 0;
      res.on('data', (c: Buffer) => {
        if (size < 1024) chunks.push(c);
        size += c.length;
      });
      res.on('end', () =>
        resolve(done({ statusCode: res.statusCode ?? null, error: null, response: Buffer.concat(chunks).toString('utf8').slice(0, 1024) })),
      );
      res.on('error', (err) => resolve(done({ statusCode: res.statusCode ?? null, error: err.message, response: null })));
    });
    req.on('error', (err: NodeJS.ErrnoException) => {
      const message = err.name === 'AbortError' || err.name === 'TimeoutError' ? `no answer within ${cfg.timeoutMs} ms` : err.message;
      resolve(done({ statusCode: null, error: message, response: null }));
    });
    req.end(body);
  });
}

/** The channel a change of the subscriptions is announced on (PostgreSQL), so every process re-reads them at once. */
export const SUBSCRIPTIONS_CHANNEL = 'webhook_subscriptions';

export function createDeliverer(opts: {
  db: Db;
  /** PostgreSQL: where to LISTEN for subscription changes made by other processes */
  listenUrl?: string;
  log: FastifyBaseLogger;
  config: WebhookConfig;
  /** tells the store contact that a subscription was disabled */
  onDisabled: (sub: { id: number; url: string; storeIds: number[] | null }) => Promise<void>;
  /** records one attempt's duration and outcome (metrics) */
  observe?: (seconds: number, ok: boolean) => void;
}): Deliverer {
  const { db, log, config } = opts;
  const box = new SecretBox(config.encryptionKeys);
  // an attempt takes at most the timeout (then a short write): past twice that, its process is presumed gone
  const leaseMs = config.timeoutMs * 2 + 1000;
  let subs: { events: string[]; storeIds: number[] | null }[] = [];
  let stopped = false;

  async function refresh(): Promise<void> {
    const found = await rows<{ events: string[]; store_ids: number[] | null }>(
      db,
      sql`SELECT events, store_ids FROM webhook_subscriptions WHERE active`,
    );
    subs = found.map((s) => ({ events: s.events, storeIds: s.store_ids }));
  }

  const claimSql = (only?: number) => sql`
    WITH c AS (
      UPDATE webhook_deliveries d SET attempts = d.attempts + 1, next_attempt_at = now() + make_interval(secs => ${leaseMs / 1000})
       WHERE d.id IN (
         SELECT d2.id FROM webhook_deliveries d2 JOIN webhook_subscriptions s ON s.id = d2.subscription_id
          WHERE ${only === undefined ? sql`d2.status = 'pending' AND d2.next_attempt_at <= now() AND s.active` : sql`d2.id = ${only} AND d2.status = 'pending'`}
          ORDER BY d2.id LIMIT ${BATCH} FOR UPDATE OF d2 SKIP LOCKED)
      RETURNING d.id, d.attempts, d.event_id, d.subscription_id)
    SELECT c.id, c.attempts, c.event_id, c.subscription_id, e.type, e.store_code, e.data,
           to_char(e.created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS created,
           s.url, s.secret, s.previous_secret, COALESCE(s.previous_secret_expires_at > now(), false) AS previous_valid
      FROM c JOIN webhook_events e ON e.id = c.event_id JOIN webhook_subscriptions s ON s.id = c.subscription_id
     ORDER BY c.id`;

  async function attempt(c: Claimed): Promise<void> {
    const { id, body } = eventBody(c);
    const timestamp = Math.floor(Date.now() / 1000);
    let outcome: AttemptOutcome;
    try {
      const secrets = [box.open(c.secret), ...(c.previous_secret && c.previous_valid ? [box.open(c.previous_secret)] : [])];
      outcome = await post(
        c.url,
        {
          'content-type': 'application/json',
          'user-agent': USER_AGENT,
          'webhook-id': id,
          'webhook-timestamp': String(timestamp),
          'webhook-signature': signatureHeader(secrets, id, timestamp, body),
        },
        body,
        config,
      );
    } catch (err) {
      outcome = { statusCode: null, durationMs: 0, error: err instanceof Error ? err.message : String(err), response: null };
    }
    const ok = outcome.statusCode !== null && outcome.statusCode >= 200 && outcome.statusCode < 300;
    opts.observe?.(outcome.durationMs / 1000, ok);
    const record = sql`INSERT INTO webhook_attempts (delivery_id, attempt, status_code, duration_ms, error, response)
                       VALUES (${c.id}, ${c.attempts}, ${outcome.statusCode}, ${outcome.durationMs}, ${outcome.error}, ${outcome.response})`;
    if (ok) {
      await db.execute(sql`
        WITH d AS (
          UPDATE webhook_deliveries SET status = 'succeeded', delivered_at = now(), last_status_code = ${outcome.statusCode},
                 last_duration_ms = ${outcome.durationMs}, last_error = NULL
           WHERE id = ${c.id} RETURNING subscription_id),
        a AS (${record}),
        s AS (UPDATE webhook_subscriptions SET failing_since = NULL WHERE id = (SELECT subscription_id FROM d) AND failing_since IS NOT NULL)
        SELECT 1`);
      return;
    }
    const delay = retryDelayMs(config, c.attempts);
    const error = outcome.error ?? `answered ${outcome.statusCode}`;
    const [r] = await rows<{ status: string; disabled: boolean | null; store_ids: number[] | null }>(
      db,
      sql`
        WITH d AS (
          UPDATE webhook_deliveries
             SET status = CASE WHEN created_at + make_interval(secs => ${config.retryForMs / 1000}) <= now() + make_interval(secs => ${delay / 1000})
                               THEN 'failed' ELSE 'pending' END,
                 next_attempt_at = now() + make_interval(secs => ${delay / 1000}),
                 last_status_code = ${outcome.statusCode}, last_duration_ms = ${outcome.durationMs}, last_error = ${error.slice(0, 1000)}
           WHERE id = ${c.id} RETURNING subscription_id, status),
        a AS (${record}),
        s AS (
          UPDATE webhook_subscriptions
             SET failing_since = COALESCE(failing_since, now()),
                 active = active AND COALESCE(failing_since, now()) > now() - make_interval(secs => ${config.disableAfterMs / 1000}),
                 disabled_at = CASE WHEN active AND COALESCE(failing_since, now()) <= now() - make_interval(secs => ${config.disableAfterMs / 1000})
                                    THEN now() ELSE disabled_at END,
                 disabled_reason = CASE WHEN active AND COALESCE(failing_since, now()) <= now() - make_interval(secs => ${config.disableAfterMs / 1000})
                                        THEN 'Deliveries failed without a break for the configured time' ELSE disabled_reason END
           WHERE id = (SELECT subscription_id FROM d)
          RETURNING id, disabled_at = now() AS disabled, store_ids)
        SELECT d.status, s.disabled, s.store_ids FROM d LEFT JOIN s ON true`,
    );
    log.warn(
      { deliveryId: c.id, url: c.url, attempt: c.attempts, err: error, status: r?.status },
      r?.status === 'failed' ? 'webhook delivery failed, giving up' : 'webhook delivery failed, will retry',
    );
    if (r?.disabled) {
      log.warn({ subscriptionId: c.subscription_id, url: c.url }, 'webhook subscription disabled after failing');
      await db.execute(sql`SELECT pg_notify(${SUBSCRIPTIONS_CHANNEL}, '')`);
      await refresh();
      await opts
        .onDisabled({ id: c.subscription_id, url: c.url, storeIds: r.store_ids })
        .catch((err: unknown) => log.error({ err }, 'webhook disable mail not queued'));
    }
  }

  async function pass(): Promise<number> {
    let handled = 0;
    for (;;) {
      if (stopped) return handled;
      const batch = await rows<Claimed>(db, claimSql());
      await Promise.all(batch.map(attempt));
      handled += batch.length;
      if (batch.length < BATCH) return handled;
    }
  }

  const passes = serialPasses(pass, (err) => log.error({ err }, 'webhook pass failed'));

  // with no active subscription there is nothing to claim: the poll is then one cheap read
  const timer = setInterval(() => {
    refresh()
      .catch((err: unknown) => log.warn({ err }, 'webhook subscriptions not re-read'))
      .finally(() => {
        if (subs.length) passes.kick();
      });
  }, config.pollMs);
  timer.unref();

  // other processes announce their subscription changes (NOTIFY at their commit): this one re-reads at once
  // instead of at its next poll, so an event of a new subscription is not missed for a poll period
  let listener: pg.Client | undefined;
  async function listen(): Promise<void> {
    if (stopped || !opts.listenUrl) return;
    const client = new pg.Client({ connectionString: opts.listenUrl });
    const retryLater = () => {
      if (listener !== client) return;
      listener = undefined;
      client.end().catch(() => undefined);
      if (!stopped) setTimeout(() => void listen(), config.pollMs).unref();
    };
    client.on('notification', () => void refresh().catch((err: unknown) => log.warn({ err }, 'webhook subscriptions not re-read')));
    client.on('error', retryLater);
    client.on('end', retryLater);
    listener = client;
    try {
      await client.connect();
      await client.query(`LISTEN ${SUBSCRIPTIONS_CHANNEL}`);
      // what changed while this process was not listening
      await refresh();
    } catch (err) {
      log.warn({ err }, 'webhook subscription changes not listened to; re-reading them every poll');
      retryLater();
    }
  }
  void listen();

  /**
   * After a key rotation (the old key kept as a previous one), seals every stored secret under the current key,
   * so that the previous key can be dropped after one start. Guarded by the old value: processes starting
   * together write each secret once.
   */
  async function reseal(): Promise<number> {
    const found = await rows<{ id: number; secret: string; previous_secret: string | null }>(
      db,
      sql`SELECT id, secret, previous_secret FROM webhook_subscriptions`,
    );
    let changed = 0;
    for (const r of found) {
      const secret = box.reseal(r.secret);
      const previous = r.previous_secret === null ? undefined : box.reseal(r.previous_secret);
      if (secret === undefined && previous === undefined) continue;
      await db.execute(sql`UPDATE webhook_subscriptions SET secret = ${secret ?? r.secret}, previous_secret = ${previous ?? r.previous_secret}
                            WHERE id = ${r.id} AND secret = ${r.secret} AND previous_secret IS NOT DISTINCT FROM ${r.previous_secret}`);
      changed++;
    }
    if (changed) log.info({ subscriptions: changed }, 'webhook secrets sealed under the current key');
    return changed;
  }
  const resealed =
    config.encryptionKeys.length > 1
      ? reseal().catch((err: unknown) => {
          log.error({ err }, 'webhook secrets not sealed under the current key');
          return 0;
        })
      : Promise.resolve(0);

  return {
    resealed,
    wants(type, storeId) {
      // an event of no store view (a product) is for the subscriptions of every store view only (writeEvents)
      return subs.some(
        (s) => (s.storeIds === null || (storeId !== null && s.storeIds.includes(storeId))) && s.events.some((p) => patternMatches(p, type)),
      );
    },
    nudge: passes.kick,
    refresh,
    async runOnce() {
      await passes.idle();
      return pass();
    },
    async deliverNow(deliveryId) {
      const [c] = await rows<Claimed>(db, claimSql(deliveryId));
      if (c) await attempt(c);
    },
    async stop() {
      stopped = true;
      clearInterval(timer);
      const l = listener;
      listener = undefined;
      await l?.end().catch(() => undefined);
      await passes.stop();
    },
  };
}
