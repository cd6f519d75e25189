/**
 * Prometheus metrics at GET /metrics (text format 0.0.4), made with prom-client:
 *
 * - `http_requests_total` and `http_request_duration_seconds` by method, route pattern (never the raw URL, so
 *   the number of series stays bounded; requests no route matched share `route="unmatched"`) and status code;
 * - `db_statements_total` (statements sent through the database handle) and, on PostgreSQL, the pools'
 *   connections (`db_pool_connections`, `db_pool_connections_idle`, `db_pool_clients_waiting`, `db_pool_connections_max`);
 * - `outbox_mail_pending` and `outbox_mail_oldest_pending_seconds`, and the same of webhook deliveries
 *   (`webhook_deliveries_pending`, `webhook_deliveries_oldest_pending_seconds`), read from the database at scrape
 *   time and kept for a few seconds so that frequent or concurrent scrapes cost one cheap query;
 * - `webhook_delivery_duration_seconds`: each delivery attempt's duration by outcome;
 * - prom-client's default process metrics: event-loop lag (`nodejs_eventloop_lag_seconds`), heap and resident
 *   memory, CPU, GC, handles.
 *
 * Who may read it: with METRICS_TOKEN set, callers must send `Authorization: Bearer <METRICS_TOKEN>`. With
 * METRICS_PORT set, /metrics is served on that port by a listener of its own and not on the main port. In
 * production with neither, /metrics is not served at all (see `installMetrics`).
 *
 * Several processes (node:cluster): each worker keeps its own numbers. The primary aggregates them with
 * `clusterMetrics()` / `serveClusterMetrics()` below; workers answer the primary's requests by themselves.
 */
import cluster from 'node:cluster';
import crypto from 'node:crypto';
import http from 'node:http';
import type { FastifyBaseLogger, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import client from 'prom-client';
import pg from 'pg';
import { sql } from 'drizzle-orm';
import type { AppConfig } from './config.js';
import { rows, type Database } from './db.js';

const { AggregatorRegistry, Registry, collectDefaultMetrics } = client;
type PromRegistry = InstanceType<typeof Registry>;

export const METRICS_PATH = '/metrics';
/** route label of requests no route matched (404s for arbitrary paths), so that scanners cannot add series */
export const UNMATCHED_ROUTE = 'unmatched';
/** how long the outbox figures are reused: a scrape every second still costs one query per this period */
const OUTBOX_CACHE_MS = 5000;
/** request duration buckets (seconds): API answers are expected well under a second; 10 s is the request timeout's order */
const DURATION_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

/**
 * The shape prom-client's Registry asks of a metric (`get()`) for metrics collected here rather than by its
 * classes; `aggregator` tells the cluster primary how to combine the workers' values.
 */
interface CustomMetric {
  name: string;
  help: string;
  type: 'counter' | 'gauge' | 'histogram';
  aggregator: 'sum' | 'max' | 'first' | 'average';
  get(): Promise<MetricValues> | MetricValues;
}
interface MetricValues {
  name: string;
  help: string;
  type: string;
  aggregator: string;
  values: { value: number; labels: Record<string, string | number>; metricName?: string }[];
}

function register(registry: PromRegistry, metric: CustomMetric): void {
  registry.registerMetric(metric as unknown as Parameters<PromRegistry['registerMetric']>[0]);
}

// ---- HTTP requests ----

interface Series {
  count: number;
  sum: number;
  /** requests per bucket, not cumulative; the last one is above the largest bound (+Inf) */
  buckets: number[];
}

/**
 * Request counts and durations. prom-client's Counter and Histogram build a label key string and validate the
 * labels on every observation (about a microsecond); the hot path here is a few map lookups on values the
 * request already holds, and the exposition objects are built at scrape time only.
 */
class HttpStats {
  /** route → method → status → series */
  private readonly byRoute = new Map<string, Map<string, Map<number, Series>>>();

  /** the recording function of one route pattern (resolved once, when the route is registered) */
  recorder(route: string): (method: string, status: number, seconds: number) => void {
    let byMethod = this.byRoute.get(route);
    if (!byMethod) this.byRoute.set(route, (byMethod = new Map()));
    const methods = byMethod;
    return (method, status, seconds) => HttpStats.record(methods, method, status, seconds);
  }

  private static record(byMethod: Map<string, Map<number, Series>>, method: string, status: number, seconds: number): void {
    let byStatus = byMethod.get(method);
    if (!byStatus) byMethod.set(method, (byStatus = new Map()));
    let s = byStatus.get(status);
    if (!s) byStatus.set(status, (s = { count: 0, sum: 0, buckets: new Array<number>(DURATION_BUCKETS.length + 1).fill(0) }));
    s.count++;
    s.sum += seconds;
    let i = 0;
    while (i < DURATION_BUCKETS.length && seconds > DURATION_BUCKETS[i]) i++;
    s.buckets[i]++;
  }

  *series(): Generator<[Record<string, string>, Series]> {
    for (const [route, byMethod] of this.byRoute) {
      for (const [method, byStatus] of byMethod) {
        for (const [status, s] of byStatus) yield [{ method, route, status_code: String(status) }, s];
      }
    }
  }

  metrics(): CustomMetric[] {
    const counter: CustomMetric = {
      name: 'http_requests_total',
      help: 'HTTP requests answered, by method, route pattern and status code',
      type: 'counter',
      aggregator: 'sum',
      get: () => ({ ...head(counter), values: [...this.series()].map(([labels, s]) => ({ labels, value: s.count })) }),
    };
    const histogram: CustomMetric = {
      name: 'http_request_duration_seconds',
      help: 'Time from receiving a request to the end of its response, by method, route pattern and status code',
      type: 'histogram',
      aggregator: 'sum',
      get: () => {
        const values: MetricValues['values'] = [];
        for (const [labels, s] of this.series()) {
          let acc = 0;
          for (let i = 0; i < DURATION_BUCKETS.length; i++) {
            acc += s.buckets[i];
            values.push({ metricName: `${histogram.name}_bucket`, labels: { ...labels, le: DURATION_BUCKETS[i] }, value: acc });
          }
          values.push({ metricName: `${histogram.name}_bucket`, labels: { ...labels, le: '+Inf' }, value: s.count });
          values.push({ metricName: `${histogram.name}_sum`, labels, value: s.sum });
          values.push({ metricName: `${histogram.name}_count`, labels, value: s.count });
        }
        return { ...head(histogram), values };
      },
    };
    return [counter, histogram];
  }
}

function head(m: CustomMetric): Omit<MetricValues, 'values'> {
  return { name: m.name, help: m.help, type: m.type, aggregator: m.aggregator };
}

function gauge(
  name: string,
  help: string,
  aggregator: CustomMetric['aggregator'],
  read: () => Promise<MetricValues['values']> | MetricValues['values'],
): CustomMetric {
  const m: CustomMetric = { name, help, type: 'gauge', aggregator, get: async () => ({ ...head(m), values: await read() }) };
  return m;
}

// ---- database ----

function databaseMetrics(database: Database): CustomMetric[] {
  const statements: CustomMetric = {
    name: 'db_statements_total',
    help: 'SQL statements sent through the database handle of this process',
    type: 'counter',
    aggregator: 'sum',
    get: () => ({ ...head(statements), values: [{ labels: { driver: database.kind }, value: database.queryCount() }] }),
  };
  const out = [statements];
  // the embedded database has one connection and no pool: the statement count above is its honest figure
  const pools: [string, pg.Pool][] = [];
  for (const [name, handle] of [
    ['main', database.db],
    ['side', database.sideDb],
  ] as const) {
    const pool = (handle as unknown as { $client?: unknown } | undefined)?.$client;
    if (pool instanceof pg.Pool) pools.push([name, pool]);
  }
  if (pools.length) {
    const each = (f: (p: pg.Pool) => number) => () => pools.map(([name, p]) => ({ labels: { pool: name }, value: f(p) }));
    out.push(
      gauge(
        'db_pool_connections',
        'Open connections of the PostgreSQL pool (in use and idle)',
        'sum',
        each((p) => p.totalCount),
      ),
      gauge(
        'db_pool_connections_idle',
        'Idle connections of the PostgreSQL pool',
        'sum',
        each((p) => p.idleCount),
      ),
      gauge(
        'db_pool_clients_waiting',
        'Queries waiting for a connection of the PostgreSQL pool',
        'sum',
        each((p) => p.waitingCount),
      ),
      gauge(
        'db_pool_connections_max',
        'Largest number of connections the PostgreSQL pool opens',
        'sum',
        each((p) => p.options.max ?? 10),
      ),
    );
  }
  return out;
}

// ---- mail outbox ----

function outboxMetrics(database: Database, log: FastifyBaseLogger): CustomMetric[] {
  let last = { pending: 0, oldest: 0, hooks: 0, hooksOldest: 0 };
  let readAt = 0;
  let reading: Promise<void> | undefined;
  const refresh = (): Promise<void> => {
    if (Date.now() - readAt < OUTBOX_CACHE_MS) return Promise.resolve();
    // concurrent scrapes share one query
    return (reading ??= rows<{ pending: number; oldest: number | null; hooks: number; hooks_oldest: number | null }>(
      database.db,
      // the partial indexes on pending rows find them; there are few unless delivery is stuck
      sql`SELECT m.pending, m.oldest, w.hooks, w.hooks_oldest
            FROM (SELECT count(*)::int AS pending, EXTRACT(EPOCH FROM now() - min(created_at))::float8 AS oldest FROM mail_outbox WHERE status = 'pending') m,
                 (SELECT count(*)::int AS hooks, EXTRACT(EPOCH FROM now() - min(created_at))::float8 AS hooks_oldest FROM webhook_deliveries WHERE status = 'pending') w`,
    )
      .then(([r]) => {
        last = {
          pending: Number(r?.pending ?? 0),
          oldest: Math.max(0, Number(r?.oldest ?? 0)),
          hooks: Number(r?.hooks ?? 0),
          hooksOldest: Math.max(0, Number(r?.hooks_oldest ?? 0)),
        };
      })
      // a failed read keeps the last figures: one slow moment of the database should not fail the whole scrape
      .catch((err: unknown) => log.warn({ err }, 'metrics: outbox backlog not read'))
      .finally(() => {
        readAt = Date.now();
        reading = undefined;
      }));
  };
  // every process sees the same table: the cluster primary takes the largest figure instead of adding them up
  return [
    gauge('outbox_mail_pending', 'Mail waiting in the outbox to be delivered', 'max', async () => {
      await refresh();
      return [{ labels: {}, value: last.pending }];
    }),
    gauge('outbox_mail_oldest_pending_seconds', 'Age of the oldest mail waiting in the outbox (0 when none waits)', 'max', async () => {
      await refresh();
      return [{ labels: {}, value: last.oldest }];
    }),
    gauge('webhook_deliveries_pending', 'Webhook deliveries waiting for a first or a next attempt', 'max', async () => {
      await refresh();
      return [{ labels: {}, value: last.hooks }];
    }),
    gauge(
      'webhook_deliveries_oldest_pending_seconds',
      'Age of the oldest webhook delivery still pending (0 when none waits)',
      'max',
      async () => {
        await refresh();
        return [{ labels: {}, value: last.hooksOldest }];
      },
    ),
  ];
}

// ---- process ----

let processRegistry: PromRegistry | undefined;

let webhookAttempts: InstanceType<typeof client.Histogram<'outcome'>> | undefined;

/** prom-client's default metrics, once per process: several apps in one process (tests) share them. */
function processMetrics(): PromRegistry {
  if (!processRegistry) {
    processRegistry = new Registry();
    collectDefaultMetrics({ register: processRegistry });
    webhookAttempts = new client.Histogram({
      name: 'webhook_delivery_duration_seconds',
      help: 'Webhook delivery attempts by outcome (success: a 2xx answer) and how long the receiver took',
      labelNames: ['outcome'],
      buckets: DURATION_BUCKETS,
      registers: [processRegistry],
    });
  }
  return processRegistry;
}

/** Records one webhook delivery attempt (the deliverer calls it). */
export function observeWebhookAttempt(seconds: number, ok: boolean): void {
  processMetrics();
  webhookAttempts!.observe({ outcome: ok ? 'success' : 'failure' }, seconds);
}

// ---- access ----

function digest(s: string): Buffer {
  return crypto.createHash('sha256').update(s).digest();
}

/**
 * True when the Authorization header carries the token. Both sides are hashed first, so the comparison is
 * constant-time whatever the lengths.
 */
export function metricsAuthorized(header: string | undefined, token: string): boolean {
  const m = header ? /^Bearer\s+(\S+)\s*$/i.exec(header) : null;
  return !!m && crypto.timingSafeEqual(digest(m[1]), digest(token));
}

const UNAUTHORIZED_BODY = JSON.stringify({ error: 'unauthorized', message: 'Send Authorization: Bearer <METRICS_TOKEN>' });

// ---- assembly ----

export interface AppMetrics {
  /** the exposition text of this process (process metrics and the app's) */
  text(): Promise<string>;
  contentType: string;
}

/**
 * Records every request and serves /metrics as configured. Call before the routes are registered, so that the
 * hook reaches every route.
 */
export function installMetrics(app: FastifyInstance, opts: { config: AppConfig; database: Database }): AppMetrics {
  const { config, database } = opts;
  const registry = new Registry();
  const stats = new HttpStats();
  for (const m of [...stats.metrics(), ...databaseMetrics(database), ...outboxMetrics(database, app.log)]) register(registry, m);
  const proc = processMetrics();
  const metrics: AppMetrics = {
    contentType: registry.contentType,
    text: async () => `${await proc.metrics()}\n${await registry.metrics()}`,
  };

  if (cluster.isWorker) {
    if (config.metricsPort !== undefined) {
      // the primary serves METRICS_PORT (serveClusterMetrics) and asks each worker for its numbers: constructing
      // an AggregatorRegistry makes this worker answer those requests with the registries named here
      new AggregatorRegistry();
      AggregatorRegistry.setRegistries([proc, registry]);
    } else {
      // each scrape of the main port reaches one worker or another: the label keeps their series apart
      const worker = String(cluster.worker?.id ?? process.pid);
      proc.setDefaultLabels({ worker });
      registry.setDefaultLabels({ worker });
    }
  }

  // Each route gets a hook of its own that knows its pattern: reading `request.routeOptions` builds a new object
  // on every access, which the hot path can do without. Requests no route matched are caught by the one
  // instance-wide hook below (`is404` is a plain property read).
  app.addHook('onRoute', (route) => {
    const record = stats.recorder(route.url);
    const hook = (req: FastifyRequest, reply: FastifyReply, done: () => void) => {
      record(req.method, reply.statusCode, reply.elapsedTime / 1000);
      done();
    };
    const own = route.onResponse;
    route.onResponse = own === undefined ? [hook] : [...(Array.isArray(own) ? own : [own]), hook];
  });
  const unmatched = stats.recorder(UNMATCHED_ROUTE);
  app.addHook('onResponse', (req: FastifyRequest, reply: FastifyReply, done: () => void) => {
    if (req.is404) unmatched(req.method, reply.statusCode, reply.elapsedTime / 1000);
    done();
  });

  const production = config.env === 'production';
  if (config.metricsPort !== undefined) {
    // its own listener: started with the app and closed with it; in a cluster worker the primary listens instead
    if (!cluster.isWorker) {
      let server: http.Server | undefined;
      app.addHook('onReady', async () => {
        server = await listenMetrics(config, () => metrics.text(), metrics.contentType);
        app.log.info({ port: config.metricsPort }, 'metrics listening');
      });
      app.addHook('onClose', async () => {
        if (server) await closeServer(server);
      });
    }
  } else if (config.metricsToken || !production) {
    const token = config.metricsToken;
    app.get(METRICS_PATH, { schema: { hide: true } }, async (req, reply) => {
      if (token && !metricsAuthorized(req.headers.authorization, token)) {
        return reply
          .code(401)
          .header('www-authenticate', 'Bearer realm="metrics"')
          .type('application/json; charset=utf-8')
          .send(UNAUTHORIZED_BODY);
      }
      return reply
        .header('cache-control', 'no-store')
        .type(metrics.contentType)
        .send(await metrics.text());
    });
  }
  // Production with neither METRICS_TOKEN nor METRICS_PORT: no route, so /metrics is a plain 404 like any other
  // unknown path. Not a 403: nothing the caller could send would be accepted, the endpoint is switched off by
  // configuration, and a 404 does not tell a scanner there is something here worth attacking.
  return metrics;
}

/** A bare HTTP listener for /metrics: no framework, no hooks, so scrapes never show up in the request metrics. */
function listenMetrics(config: AppConfig, text: () => Promise<string>, contentType: string): Promise<http.Server> {
  const token = config.metricsToken;
  const server = http.createServer((req, res) => {
    const path = (req.url ?? '/').split('?')[0];
    if (path !== METRICS_PATH || (req.method !== 'GET' && req.method !== 'HEAD')) {
      res
        .writeHead(404, { 'content-type': 'application/json; charset=utf-8' })
        .end(JSON.stringify({ error: 'not_found', message: 'Not Found', code: 404 }));
      return;
    }
    if (token && !metricsAuthorized(req.headers.authorization, token)) {
      res
        .writeHead(401, { 'content-type': 'application/json; charset=utf-8', 'www-authenticate': 'Bearer realm="metrics"' })
        .end(UNAUTHORIZED_BODY);
      return;
    }
    text().then(
      (body) =>
        res.writeHead(200, { 'content-type': contentType, 'cache-control': 'no-store' }).end(req.method === 'HEAD' ? undefined : body),
      () => res.writeHead(500, { 'content-type': 'text/plain; charset=utf-8' }).end('metrics unavailable\n'),
    );
  });
  // scrapers keep connections open between scrapes; closing the app must not wait for them
  server.keepAliveTimeout = 5000;
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(config.metricsPort, config.host, () => {
      server.off('error', reject);
      resolve(server);
    });
  });
}

function closeServer(server: http.Server): Promise<void> {
  server.closeIdleConnections();
  return new Promise((resolve) => server.close(() => resolve()));
}

// ---- cluster primary ----

let aggregator: InstanceType<typeof AggregatorRegistry> | undefined;

/**
 * For the node:cluster primary (which builds no app): the metrics of every worker, combined (counters and
 * histograms added up, outbox gauges the largest, event-loop lag averaged). Each worker answers within 5
 * seconds or the call fails. Workers answer only when METRICS_PORT is set (see installMetrics).
 */
export async function clusterMetrics(): Promise<{ contentType: string; body: string }> {
  aggregator ??= new AggregatorRegistry();
  const body = await aggregator.clusterMetrics();
  return { contentType: aggregator.contentType, body };
}

/**
 * For the node:cluster primary: serves the workers' combined metrics on METRICS_PORT (with the METRICS_TOKEN
 * check when set). Resolves once listening; `close()` stops it. Does nothing without METRICS_PORT, since then
 * each worker serves its own numbers on the main port.
 */
export async function serveClusterMetrics(config: AppConfig): Promise<{ close(): Promise<void> }> {
  if (config.metricsPort === undefined) return { close: async () => undefined };
  aggregator ??= new AggregatorRegistry();
  const server = await listenMetrics(config, async () => (await clusterMetrics()).body, aggregator.contentType);
  return { close: () => closeServer(server) };
}
