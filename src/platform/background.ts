/**
 * Background work a module runs beside the requests, in every server process (the webhook deliverer): declared
 * once with `defineBackground`, listed in the module's AppModule `background`, started when the app is built
 * (before demo data is seeded) and stopped when it closes. The module's services reach the running instance
 * through `ctx.app.background(spec)`, typed by the spec.
 */
import type { FastifyBaseLogger } from 'fastify';
import type { AppConfig } from './config.js';
import type { BackgroundKey, Ctx } from './context.js';
import type { Db } from './db.js';

/** What background work is started with. */
export interface BackgroundEnv {
  db: Db;
  /** the PostgreSQL server's URL (unset on the embedded database), for a connection of its own (LISTEN) */
  databaseUrl?: string;
  config: AppConfig;
  log: FastifyBaseLogger;
  /** a context outside any request, acting as nobody in the default store */
  systemCtx(): Ctx;
}

/** A running piece of background work. */
export interface Background {
  /** ends it: the app waits for this when it closes */
  stop(): Promise<void>;
  /** housekeeping (dropping old history), run with the app's janitor every 15 minutes */
  tidy?(): Promise<void>;
}

export interface BackgroundSpec<B extends Background = Background> extends BackgroundKey<B> {
  start(env: BackgroundEnv): Promise<B>;
}

export function defineBackground<B extends Background>(name: string, start: (env: BackgroundEnv) => Promise<B>): BackgroundSpec<B> {
  return { name, start };
}

/** `ctx.app.background` where nothing runs in the background (an operator command): every lookup throws. */
export function noBackground(spec: { name: string }): never {
  throw new Error(`Background work ${spec.name} does not run in this process`);
}
