/**
 * The composition root: opens the database, applies migrations and install data, builds the process-wide
 * services and the Fastify application with every module's REST routes and GraphQL schema.
 */
import crypto from 'node:crypto';
import Fastify, { type FastifyInstance, type FastifySchema, type FastifyServerOptions } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import cors from '@fastify/cors';
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import { sql } from 'drizzle-orm';
import type { AppConfig } from './platform/config.js';
import { openDatabase, migrate, type Database } from './platform/db.js';
import { runInstall } from './platform/install.js';
import { createTokenService } from './platform/auth/tokens.js';
import { createRateLimiter } from './platform/rate-limit.js';
import { createMailSender, type MailSender } from './platform/outbox.js';
import type { AppServices, Ctx } from './platform/context.js';
import {
  frameworkErrorHandler,
  installContext,
  installErrorHandling,
  installHttpCache,
  installValidators,
  lazySerializers,
} from './platform/http.js';
import { installIdempotency, purgeIdempotency } from './platform/idempotency.js';
import { installActivityLog, purgeActivityLog } from './platform/activity-log.js';
import { GRAPHQL_PATH, installGraphql } from './platform/graphql.js';
import { installGraphiql } from './platform/graphiql.js';
import { installAdminApp } from './platform/admin-app.js';
import { installMcp } from './platform/mcp.js';
import { restOperations } from './platform/operations.js';
import { openapiOptions } from './platform/openapi.js';
import { access } from './platform/auth/access.js';
import { installState } from './platform/tables.js';
import { mediaFileRoutes } from './platform/media-route.js';
import { installMetrics } from './platform/metrics.js';
import type { Background } from './platform/background.js';
import { moduleContributions } from './platform/contributions.js';
import { createEventBus } from './platform/events.js';
import { installCompression } from './platform/compression.js';
import { installTracingHooks } from './platform/tracing.js';
import { withRequestRedaction } from './platform/request-log.js';
import type { RestApp } from './platform/module.js';
import { runAsBackground } from './platform/passes.js';
import { maintainEmbedded } from './platform/embedded-maintenance.js';
import { allOperations, graphqlParts, modules } from './modules/index.js';
import { StoreRegistry } from './modules/stores/registry.js';
import { purgeExpiredRevocations, resolvePrincipal } from './modules/auth/service.js';
import { refreshSpecialPriceWindows } from './modules/catalog/products/price.js';
import { purgeOrphanOptionFiles } from './modules/checkout/option-files.js';

export const API_PREFIX = '/api/rest/v2';

export interface BuildOptions {
  config: AppConfig;
  /** an open database; when omitted one is opened from the config (and closed with the app) */
  database?: Database;
  /** how often the store data's version is checked, reloading store data and config when it moved (ms) */
  storeRefreshMs?: number;
  logger?: FastifyServerOptions['logger'];
}

export interface ApiRoute {
  method: string;
  url: string;
  /** the route's schema as declared (operationId, body, response, hide) */
  schema?: FastifySchema;
}

export interface BuiltApp {
  app: FastifyInstance;
  services: AppServices;
  database: Database;
  mail: MailSender;
  /** the webhooks module's background work, the deliverer (a test stops it to count only a request's statements) */
  webhooks: Background;
  /** every route registered under /api/rest/v2, in registration order (tests check the OpenAPI document against it) */
  apiRoutes: ApiRoute[];
  /** a context outside any request, acting as nobody in the default store (seeds, CLI, tests) */
  systemCtx(): Ctx;
}

export async function buildApp(opts: BuildOptions): Promise<BuiltApp> {
  const { config } = opts;
  const ownDatabase = !opts.database;
  const database =
    opts.database ??
    (await openDatabase({
      databaseUrl: config.databaseUrl,
      poolMax: config.databasePoolMax,
      dataDir: config.databaseUrl ? undefined : `${config.dataDir}/db`,
    }));
  const db = database.db;
  await migrate(db);
  await runInstall(db, modules);

  const publicUrl = config.publicUrl ?? `http://localhost:${config.port}`;
  const registry = new StoreRegistry(db, publicUrl);
  await registry.load();
  registry.startRefresh(opts.storeRefreshMs ?? 1000);

  const app = Fastify({
    logger: withRequestRedaction(opts.logger ?? { level: config.logLevel }),
    bodyLimit: config.bodyLimit,
    // a hop count as a function: Fastify ignores X-Forwarded-For altogether when given a bare number
    trustProxy: typeof config.trustProxy === 'number' ? trustHops(config.trustProxy) : config.trustProxy,
    requestIdHeader: false,
    genReqId: (req) => {
      const given = req.headers['x-request-id'];
      return typeof given === 'string' && /^[A-Za-z0-9._-]{1,128}$/.test(given) ? given : crypto.randomUUID();
    },
    routerOptions: { ignoreTrailingSlash: true, maxParamLength: 500 },
    frameworkErrors: frameworkErrorHandler,
    schemaController: { compilersFactory: { buildSerializer: lazySerializers } },
    // served without a proxy in front: a client that trickles its request is cut off (Node checks the open
    // connections against these timeouts every `connectionsCheckingInterval`)
    requestTimeout: config.requestTimeoutMs,
    keepAliveTimeout: config.keepAliveTimeoutMs,
    http: { headersTimeout: config.headersTimeoutMs, connectionsCheckingInterval: Math.min(1000, config.headersTimeoutMs) },
  }).withTypeProvider<TypeBoxTypeProvider>();
  app.server.maxConnections = config.maxConnections;

  const mail = createMailSender({
    db,
    log: app.log,
    smtpUrl: config.smtpUrl,
    from: config.mailFrom,
    holdWithoutSmtp: config.env === 'production',
  });
  const limiter = createRateLimiter({ enabled: config.rateLimits, redisUrl: config.redisUrl });
  // the modules' background work (the webhook deliverer), by its spec: started below, before any data changes
  const running = new Map<object, Background>();
  const services: AppServices = {
    config,
    settings: registry,
    limiter,
    tokens: createTokenService({ secret: config.jwtSecret, issuer: config.jwtIssuer, ttlSeconds: config.jwtTtlSeconds }),
    nudgeOutbox: () => mail.nudge(),
    outsideTx: (ctx) => database.sideDb ?? ctx.db,
    events: createEventBus(modules, () => services),
    background: <B>(spec: { name: string }) => {
      const found = running.get(spec);
      if (!found) throw new Error(`Background work ${spec.name} is not running`);
      return found as B;
    },
    ...moduleContributions(modules),
  };
  const systemCtx = (): Ctx => ({
    db,
    actor: { kind: 'anonymous' },
    store: registry.resolveStore(undefined, undefined),
    now: new Date(),
    ip: '127.0.0.1',
    log: app.log,
    app: services,
  });

  for (const m of modules) {
    for (const spec of m.background ?? [])
      running.set(spec, await spec.start({ db, databaseUrl: database.url, config, log: app.log, systemCtx }));
  }

  if (config.demo) await seedDemoOnce(systemCtx);

  // special prices start and end with the calendar: the stored price index follows, at start and on each
  // janitor round (a run on the day of the previous one costs nothing)
  let priceIndexDay: string | undefined;
  let priceIndexRun: Promise<void> | undefined;
  const refreshPriceIndex = (): Promise<void> =>
    (priceIndexRun ??= refreshSpecialPriceWindows(systemCtx(), priceIndexDay)
      .then((r) => {
        priceIndexDay = r.day;
      })
      .catch((err: unknown) => app.log.error({ err }, 'price index refresh failed'))
      .finally(() => {
        priceIndexRun = undefined;
      }));

  app.addHook('onRequest', async (req, reply) => {
    reply.header('x-request-id', req.id);
  });
  // before every route, as both act through hooks: compression first, so that /metrics is compressed too
  await installCompression(app);
  installMetrics(app, { config, database });
  installTracingHooks(app);
  installValidators(app);
  installErrorHandling(app);
  await app.register(cors, {
    origin: config.corsOrigins.length ? config.corsOrigins : false,
    credentials: false,
    allowedHeaders: [
      'Authorization',
      'Content-Type',
      'Accept',
      'X-Store-Code',
      'X-Currency-Code',
      'X-Idempotency-Key',
      'X-Order-Token',
      'If-None-Match',
      'X-Request-Id',
      'Mcp-Session-Id',
      'Mcp-Protocol-Version',
    ],
    exposedHeaders: ['ETag', 'X-Request-Id', 'X-Idempotency-Replayed', 'Mcp-Session-Id'],
    methods: ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE'],
    maxAge: 600,
  });
  // the requests the API sends out (webhooks), documented by the modules that send them from the declared events
  const outbound = Object.fromEntries(modules.flatMap((m) => Object.entries(m.openapiWebhooks?.(services.events.declared) ?? {})));
  await app.register(swagger, openapiOptions(API_PREFIX, { webhooks: outbound }));
  const apiRoutes: ApiRoute[] = [];
  app.addHook('onRoute', (route) => {
    if (route.url === GRAPHQL_PATH) route.config = { ...(route.config ?? {}), access: access.public };
    if (!route.url.startsWith(API_PREFIX)) return;
    if (!route.config?.access) throw new Error(`Route ${route.method} ${route.url} declares no access rule`);
    if (!route.schema?.operationId && route.method !== 'HEAD') throw new Error(`Route ${route.method} ${route.url} has no operationId`);
    for (const method of [route.method].flat()) apiRoutes.push({ method, url: route.url, schema: route.schema });
  });
  installContext(app, { db, services, resolvePrincipal, resolveStore: (s, c) => registry.resolveStore(s, c) });
  installHttpCache(app);
  installIdempotency(app, db);
  installActivityLog(app, API_PREFIX);

  await app.register(
    async (api) => {
      for (const m of modules) {
        if (m.operations) restOperations(api as unknown as RestApp, m.operations);
        m.routes?.(api as unknown as RestApp);
      }
    },
    { prefix: API_PREFIX },
  );
  for (const m of modules) m.rootRoutes?.(app);
  await installGraphql(app, graphqlParts(API_PREFIX), { introspection: config.graphqlIntrospection });
  // the GraphiQL page needs introspection: it is served where introspection is on
  if (config.graphqlIntrospection) installGraphiql(app);
  await installMcp(app, { operations: allOperations(), apiPrefix: API_PREFIX });

  app.get(
    `${API_PREFIX}/openapi.json`,
    { schema: { hide: true, operationId: 'openapi.document' }, config: { access: access.public } },
    async () => app.swagger(),
  );
  app.get('/api/docs.json', { schema: { hide: true } }, async () => app.swagger());
  await app.register(swaggerUi, { routePrefix: '/api/docs', uiConfig: { docExpansion: 'list', deepLinking: true } });

  // outside production the answer names the process, so a test can see which worker of a cluster answered
  const health = config.env === 'production' ? { status: 'ok' } : { status: 'ok', process: process.pid };
  app.get('/health', { schema: { hide: true } }, async () => health);
  mediaFileRoutes(app, config);
  await installAdminApp(app, config.adminPath);
  app.get('/ready', { schema: { hide: true } }, async (_req, reply) => {
    try {
      await db.execute(sql`SELECT 1`);
      return { status: 'ready', database: database.kind };
    } catch {
      return reply.code(503).send({ status: 'unavailable', database: database.kind });
    }
  });

  if (config.benchRoutes) installBenchRoutes(app, database);

  await refreshPriceIndex();
  // the embedded database's upkeep (embedded-maintenance.ts): once soon after the start, then with the housekeeping
  let upkeep: Promise<void> | undefined;
  const tidyEmbedded = () =>
    (upkeep ??= maintainEmbedded(database)
      .then(
        (done) => {
          if (done.analyzed.length) app.log.info(done, 'embedded database upkeep');
        },
        (err: unknown) => app.log.error({ err }, 'embedded database upkeep failed'),
      )
      .finally(() => (upkeep = undefined)));
  // (not under the test suite, whose servers are short-lived and count the statements they are asked for)
  const firstUpkeep = database.kind === 'pglite' && config.env !== 'test' ? setTimeout(tidyEmbedded, 60 * 1000).unref() : undefined;
  // housekeeping is background work: on the embedded database, requests go first
  const janitor = setInterval(
    () =>
      runAsBackground(() => {
        purgeExpiredRevocations(db).catch(() => undefined);
        purgeIdempotency(db).catch(() => undefined);
        purgeActivityLog(db, registry).catch((err: unknown) => app.log.error({ err }, 'activity log pruning failed'));
        for (const b of running.values()) b.tidy?.().catch((err: unknown) => app.log.error({ err }, 'background housekeeping failed'));
        purgeOrphanOptionFiles(systemCtx()).catch((err: unknown) => app.log.error({ err }, 'option file pass failed'));
        void refreshPriceIndex();
        void tidyEmbedded();
      }),
    15 * 60 * 1000,
  );
  janitor.unref();

  app.addHook('onClose', async () => {
    clearInterval(janitor);
    clearTimeout(firstUpkeep);
    await priceIndexRun;
    await upkeep;
    registry.stop();
    await mail.stop();
    for (const b of running.values()) await b.stop();
    await limiter.close();
    if (ownDatabase) await database.close();
  });

  const deliverer = modules.flatMap((m) => m.background ?? []).find((spec) => spec.name === 'webhooks');
  const webhooks = (deliverer && running.get(deliverer)) ?? { stop: async () => undefined };
  return { app, services, database, mail, webhooks, apiRoutes, systemCtx };
}

/**
 * Demo data goes in once, on the first start of a database in demo mode. It is not one transaction:
 * modules read back, through the store registry, what earlier modules seeded.
 */
export async function seedDemoOnce(systemCtx: () => Ctx): Promise<void> {
  const ctx = systemCtx();
  const done = await ctx.db
    .select()
    .from(installState)
    .where(sql`${installState.module} = 'demo'`);
  if (done.length) return;
  for (const m of modules) {
    if (!m.demo) continue;
    await m.demo(systemCtx());
    await ctx.app.settings.reload();
  }
  await ctx.db.insert(installState).values({ module: 'demo', version: 1 }).onConflictDoNothing();
}

/** Ceilings for the benchmark: a bare JSON route and one primary-key SELECT through the same pool; and the statement counter. */
function installBenchRoutes(app: FastifyInstance, database: Database): void {
  app.get('/bench/bare', { schema: { hide: true } }, async () => ({ hello: 'world' }));
  app.get('/bench/pk', { schema: { hide: true } }, async () => {
    const res = (await database.db.execute(sql`SELECT id, code, name FROM stores WHERE id = 1`)) as unknown as { rows: unknown[] };
    return res.rows[0];
  });
  // the statements sent so far (the bench reads it around each scenario for its statements per request)
  app.get('/bench/statements', { schema: { hide: true } }, async () => ({ statements: database.queryCount() }));
}

/**
 * Trusts the nearest `hops` peers (the socket's and then X-Forwarded-For from its end): the client is the address
 * one further. Only for a server that no client reaches but through those proxies; naming the proxies' addresses
 * checks the peer too.
 */
function trustHops(hops: number): (address: string, hop: number) => boolean {
  return (_address, hop) => hop < hops;
}
