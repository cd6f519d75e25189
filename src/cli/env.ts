/** The environment a command runs in: the database migrated and installed, the store registry, a context. */
import type { FastifyBaseLogger } from 'fastify';
import type { AppConfig } from '../platform/config.js';
import type { Ctx } from '../platform/context.js';
import { migrate, openDatabase, type Database } from '../platform/db.js';
import { runInstall } from '../platform/install.js';
import { createTokenService } from '../platform/auth/tokens.js';
import { createRateLimiter } from '../platform/rate-limit.js';
import { noBackground } from '../platform/background.js';
import { noEvents } from '../platform/events.js';
import { moduleContributions } from '../platform/contributions.js';
import { modules } from '../modules/index.js';
import { StoreRegistry } from '../modules/stores/registry.js';
import type { Env } from './command.js';

/** Silent below warn unless LOG_LEVEL asks for more; lines go to stderr so that stdout stays scriptable. */
function stderrLogger(level: string): FastifyBaseLogger {
  const order = ['trace', 'debug', 'info', 'warn', 'error', 'fatal'];
  const min = level === 'silent' ? order.length : Math.max(order.indexOf(level), order.indexOf('warn'));
  const at =
    (name: string) =>
    (...args: unknown[]) => {
      if (order.indexOf(name) < min) return;
      const msg = args.find((a) => typeof a === 'string') ?? '';
      const obj = args.find((a) => typeof a === 'object' && a !== null);
      process.stderr.write(`${name}: ${msg}${obj ? ` ${JSON.stringify(obj)}` : ''}\n`);
    };
  const logger: FastifyBaseLogger = {
    level,
    fatal: at('fatal'),
    error: at('error'),
    warn: at('warn'),
    info: at('info'),
    debug: at('debug'),
    trace: at('trace'),
    silent: () => undefined,
    child: () => logger,
  };
  return logger;
}

export async function openEnv(config: AppConfig): Promise<{ env: Env; close(): Promise<void> }> {
  const database: Database = await openDatabase({
    databaseUrl: config.databaseUrl,
    dataDir: config.databaseUrl ? undefined : `${config.dataDir}/db`,
    poolMax: 2,
  });
  try {
    const db = database.db;
    const migrated = await migrate(db);
    const installed = await runInstall(db, modules);
    const publicUrl = config.publicUrl ?? `http://localhost:${config.port}`;
    const registry = new StoreRegistry(db, publicUrl);
    await registry.load();
    const limiter = createRateLimiter({ enabled: false });
    const services = {
      config,
      settings: registry,
      limiter,
      tokens: createTokenService({ secret: config.jwtSecret, issuer: config.jwtIssuer, ttlSeconds: config.jwtTtlSeconds }),
      nudgeOutbox: () => undefined,
      outsideTx: (c: Ctx) => database.sideDb ?? c.db,
      ...moduleContributions(modules),
      // operator commands change data in bulk (an import): they emit no events, and run nothing in the background
      events: noEvents,
      background: noBackground,
    };
    const log = stderrLogger(config.logLevel);
    const ctx = (): Ctx => ({
      db,
      actor: { kind: 'anonymous' },
      store: registry.resolveStore(undefined, undefined),
      now: new Date(),
      ip: '127.0.0.1',
      log,
      app: services,
    });
    return {
      env: { config, migrated, installed, db, registry, ctx },
      close: async () => {
        await limiter.close();
        await database.close();
      },
    };
  } catch (err) {
    await database.close().catch(() => undefined);
    throw err;
  }
}
