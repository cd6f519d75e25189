/**
 * Starts the server: `npm start` (the compiled `dist/main.js`). With WORKERS above 1 this process becomes the
 * cluster's primary: it serves nothing itself, starts the workers (each a whole server with its own database
 * pool) on one port, replaces a worker that dies and, on SIGTERM, lets every worker finish its requests.
 */
import cluster, { type Worker } from 'node:cluster';
import type { AddressInfo } from 'node:net';
import { buildApp } from './app.js';
import { ConfigError, loadConfig, type AppConfig } from './platform/config.js';
import { serveClusterMetrics } from './platform/metrics.js';
import { startTracing } from './platform/tracing.js';
import { DEMO_CREDENTIALS } from './modules/auth/service.js';
import { DEMO_CUSTOMER } from './modules/customers/service.js';

/** A worker that dies within this long of its start counts as failing to start. */
const QUICK_DEATH_MS = 10_000;
/** Failed starts in a row after which the primary gives up instead of forking forever. */
const MAX_QUICK_DEATHS = 5;

function log(level: 'info' | 'warn' | 'error', msg: string, extra: Record<string, unknown> = {}): void {
  const line = JSON.stringify({ level, time: Date.now(), pid: process.pid, role: 'primary', msg, ...extra });
  (level === 'info' ? process.stdout : process.stderr).write(`${line}\n`);
}

function banner(config: AppConfig, port: number, workers: number): string {
  const shown = config.host === '0.0.0.0' || config.host === '::' ? 'localhost' : config.host;
  const base = config.publicUrl ?? `http://${shown}:${port}`;
  const lines = [
    '',
    `  Commerce API listening on ${base}`,
    `  REST:     ${base}/api/rest/v2   (OpenAPI: ${base}/api/rest/v2/openapi.json)`,
    `  Docs:     ${base}/api/docs`,
    `  GraphQL:  ${base}/api/graphql`,
    `  Database: ${config.databaseUrl ? 'PostgreSQL (DATABASE_URL)' : `embedded PGlite in ${config.dataDir}/db`}`,
  ];
  if (workers > 1) lines.push(`  Workers:  ${workers} processes`);
  if (config.demo) {
    lines.push(
      '',
      '  Demo credentials:',
      `    API user      ${DEMO_CREDENTIALS.apiUser.username} / ${DEMO_CREDENTIALS.apiUser.apiKey}`,
      `    OAuth client  ${DEMO_CREDENTIALS.oauthClient.clientId} / ${DEMO_CREDENTIALS.oauthClient.secret}`,
      `    Customer      ${DEMO_CUSTOMER.email} / ${DEMO_CUSTOMER.password}`,
    );
  }
  return lines.join('\n') + '\n';
}

/** One server in this process: a lone server, or a worker of the cluster. */
async function serve(config: AppConfig): Promise<void> {
  // first: it patches http and pg (nothing is loaded or patched without OTEL_EXPORTER_OTLP_ENDPOINT)
  const tracing = await startTracing();
  const { app } = await buildApp({ config });
  let closing = false;
  const shutdown = async (signal: string) => {
    if (closing) return;
    closing = true;
    app.log.info({ signal }, 'shutting down: finishing the requests in flight');
    const force = setTimeout(() => {
      app.log.error('requests still in flight at SHUTDOWN_TIMEOUT: stopping anyway');
      process.exit(1);
    }, config.shutdownTimeoutMs);
    force.unref();
    try {
      // stops accepting, closes idle keep-alive connections, waits for the requests in flight, then the
      // onClose hooks stop the outbox and close the database pools
      await app.close();
      await tracing?.shutdown();
      process.exit(0);
    } catch (err) {
      app.log.error({ err }, 'error during shutdown');
      process.exit(1);
    }
  };
  process.on('SIGTERM', () => void shutdown('SIGTERM'));
  process.on('SIGINT', () => void shutdown('SIGINT'));

  await app.listen({ port: config.port, host: config.host });
  if (cluster.isWorker) return;
  console.log(banner(config, (app.server.address() as AddressInfo).port, 1));
}

/** The cluster's primary: forks the workers, replaces those that die, stops them all on a signal. */
async function primary(config: AppConfig): Promise<void> {
  // with METRICS_PORT the primary serves the workers' figures added up (each worker answers it over IPC)
  const metrics = await serveClusterMetrics(config);
  let stopping = false;
  let exitCode = 0;
  const startedAt = new WeakMap<Worker, number>();
  let quickDeaths = 0;
  const fork = () => startedAt.set(cluster.fork(), Date.now());

  // the first worker alone migrates and seeds the database; the others start once it listens
  fork();
  cluster.once('listening', (_worker, address) => {
    for (let i = 1; i < config.workers; i++) fork();
    console.log(banner(config, address.port, config.workers));
  });
  cluster.on('listening', (worker) => {
    quickDeaths = 0;
    log('info', 'worker listening', { worker: worker.process.pid });
  });

  cluster.on('exit', (worker, code, signal) => {
    const alive = Object.keys(cluster.workers ?? {}).length;
    if (stopping) {
      if (alive === 0) process.exit(exitCode);
      return;
    }
    const lived = Date.now() - (startedAt.get(worker) ?? 0);
    log('warn', 'worker stopped: starting another', { worker: worker.process.pid, code, signal, livedMs: lived });
    if (lived < QUICK_DEATH_MS && ++quickDeaths >= MAX_QUICK_DEATHS) {
      log('error', `workers failed to start ${MAX_QUICK_DEATHS} times in a row: giving up`);
      stop(1);
      return;
    }
    fork();
  });

  const stop = (code: number) => {
    if (stopping) return;
    stopping = true;
    exitCode = code;
    void metrics.close();
    const workers = Object.values(cluster.workers ?? {}).filter((w): w is Worker => !!w);
    if (!workers.length) process.exit(exitCode);
    // each worker drains on its own SIGTERM (see serve); past its SHUTDOWN_TIMEOUT it stops itself, and the
    // primary makes sure of it a little later
    for (const w of workers) w.process.kill('SIGTERM');
    setTimeout(() => {
      for (const w of Object.values(cluster.workers ?? {})) w?.process.kill('SIGKILL');
      process.exit(1);
    }, config.shutdownTimeoutMs + 2000).unref();
  };
  process.on('SIGTERM', () => stop(0));
  process.on('SIGINT', () => stop(0));
}

async function main(): Promise<void> {
  let config: AppConfig;
  try {
    config = loadConfig();
  } catch (err) {
    if (err instanceof ConfigError) {
      console.error(err.message);
      process.exit(1);
    }
    throw err;
  }
  if (config.workers > 1 && cluster.isPrimary) await primary(config);
  else await serve(config);
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
