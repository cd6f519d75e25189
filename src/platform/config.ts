/**
 * Process configuration, read once from the environment and validated at start.
 * Every wrong variable is reported with its own message; start-up stops on the first report.
 */
import os from 'node:os';
import path from 'node:path';
import ipaddr from 'ipaddr.js';

/** the token issuer where neither JWT_ISSUER nor PUBLIC_URL names one */
export const DEFAULT_JWT_ISSUER = 'commerce-api';

export const DEFAULT_JWT_SECRET = 'demo-only-jwt-secret-change-me-0123456789abcdef';

export interface AppConfig {
  env: 'development' | 'production' | 'test';
  demo: boolean;
  port: number;
  host: string;
  databaseUrl?: string;
  /** demo mode also seeds the demo catalog (products, categories, images) */
  demoCatalog: boolean;
  /** connections in the PostgreSQL pool of this process */
  databasePoolMax: number;
  /** cart changes wait for the database's disk flush like every other write (see withTx's `relaxed`) */
  durableCartWrites: boolean;
  dataDir: string;
  jwtSecret: string;
  jwtTtlSeconds: number;
  /** absolute lifetime of a session: refreshes carry its login time and stop this long after it (seconds) */
  tokenSessionMaxAgeSeconds: number;
  /**
   * `iss` of the tokens: JWT_ISSUER, else PUBLIC_URL with a slash, else a fixed name, never the port: a token is
   * accepted by every process and server that shares JWT_SECRET whatever port each listens on
   */
  jwtIssuer: string;
  redisUrl?: string;
  smtpUrl?: string;
  mailFrom: string;
  publicUrl?: string;
  /** where the web back office is served (ADMIN_PATH): `/admin` by default, always one leading slash, no trailing one */
  adminPath: string;
  corsOrigins: string[];
  bodyLimit: number;
  logLevel: string;
  /**
   * which peers may tell the client's address in `X-Forwarded-For`: none (false), the nearest N hops, or the
   * proxies' addresses and CIDR ranges; `true` (every hop, so any client can name its own address) only outside
   * production
   */
  trustProxy: boolean | number | string[];
  benchRoutes: boolean;
  /** Rate limits can be switched off for load tests; never in production. */
  rateLimits: boolean;
  /** GraphQL schema introspection (on outside production unless switched off; off in production unless on) */
  graphqlIntrospection: boolean;
  /** server processes on the port (node:cluster); 1 runs the server in this process */
  workers: number;
  /** the server faces clients directly: how long a request may take to arrive whole, headers included (ms) */
  requestTimeoutMs: number;
  /** how long the request headers may take to arrive (ms) */
  headersTimeoutMs: number;
  /** how long an idle keep-alive connection stays open (ms) */
  keepAliveTimeoutMs: number;
  /** open connections per process; more are refused until some close */
  maxConnections: number;
  /** on SIGTERM, how long requests in flight may take before the process stops anyway (ms) */
  shutdownTimeoutMs: number;
  /** bearer token /metrics asks for; without it /metrics is open outside production and not served in production (unless on its own port) */
  metricsToken?: string;
  /** /metrics on a listener of its own instead of the main port (an address only the monitoring network reaches) */
  metricsPort?: number;
  /** OTLP/HTTP collector traces go to (OTEL_EXPORTER_OTLP_ENDPOINT); checked here, read by src/platform/tracing.ts */
  otlpEndpoint?: string;
  webhooks: WebhookConfig;
}

export interface WebhookConfig {
  /** subscriptions may name http and private, loopback or link-local addresses (default: outside production) */
  allowPrivate: boolean;
  /**
   * key material the signing secrets are stored under (WEBHOOK_ENCRYPTION_KEY, else JWT_SECRET), then the previous
   * ones still accepted for reading while the stored secrets are sealed again under the first
   * (WEBHOOK_ENCRYPTION_KEY_PREVIOUS, else JWT_SECRET_PREVIOUS)
   */
  encryptionKeys: string[];
  /** how long a receiver has to answer (ms) */
  timeoutMs: number;
  /** the first retry's delay (ms); each next one doubles, up to retryMaxMs, with ±20% jitter */
  retryBaseMs: number;
  retryMaxMs: number;
  /** how long a delivery is retried before it is marked failed (ms) */
  retryForMs: number;
  /** a subscription whose deliveries have failed this long in a row is disabled (ms) */
  disableAfterMs: number;
  /** how often each process looks for due deliveries and re-reads the subscriptions (ms) */
  pollMs: number;
}

export class ConfigError extends Error {
  constructor(public readonly problems: string[]) {
    super(`Invalid configuration:\n  - ${problems.join('\n  - ')}`);
  }
}

type Env = Record<string, string | undefined>;

function int(env: Env, name: string, def: number, min: number, max: number, problems: string[]): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return def;
  if (!/^\d+$/.test(raw)) {
    problems.push(`${name} must be a whole number, got "${raw}"`);
    return def;
  }
  const n = Number(raw);
  if (n < min || n > max) problems.push(`${name} must be between ${min} and ${max}, got ${n}`);
  return n;
}

function bool(env: Env, name: string, def: boolean, problems: string[]): boolean {
  const raw = env[name];
  if (raw === undefined || raw === '') return def;
  if (/^(1|true|yes|on)$/i.test(raw)) return true;
  if (/^(0|false|no|off)$/i.test(raw)) return false;
  problems.push(`${name} must be true or false, got "${raw}"`);
  return def;
}

/** proxy-addr's names for address ranges, accepted in TRUST_PROXY's list */
const PROXY_RANGE_NAMES = ['loopback', 'linklocal', 'uniquelocal'];

function trustProxy(env: Env, production: boolean, problems: string[]): boolean | number | string[] {
  const raw = (env.TRUST_PROXY ?? '').trim();
  if (raw === '' || /^(0|false|no|off)$/i.test(raw)) return false;
  if (/^(true|yes|on)$/i.test(raw)) {
    if (production) {
      problems.push(
        "TRUST_PROXY=true trusts every X-Forwarded-For hop, so any client could choose its address; name the hop count or the proxies' addresses in production",
      );
    }
    return true;
  }
  if (/^\d+$/.test(raw)) return int(env, 'TRUST_PROXY', 1, 1, 64, problems);
  const list = raw
    .split(',')
    .map((v) => v.trim())
    .filter(Boolean);
  const bad = list.filter(
    (v) => !PROXY_RANGE_NAMES.includes(v) && !(ipaddr.IPv4.isValidFourPartDecimal(v) || ipaddr.IPv6.isValid(v) || isCidr(v)),
  );
  if (bad.length || !list.length) {
    problems.push(
      `TRUST_PROXY must be false, a hop count, or proxy addresses / CIDR ranges separated by commas; not "${bad.join(', ') || raw}"`,
    );
    return false;
  }
  return list;
}

function isCidr(v: string): boolean {
  try {
    ipaddr.parseCIDR(v);
    return true;
  } catch {
    return false;
  }
}

/** a comma-separated list, blanks dropped */
function list(raw: string | undefined): string[] {
  return (raw ?? '')
    .split(',')
    .map((v) => v.trim())
    .filter(Boolean);
}

function url(env: Env, name: string, protocols: string[], problems: string[]): string | undefined {
  const raw = env[name];
  if (raw === undefined || raw === '') return undefined;
  try {
    const u = new URL(raw);
    if (!protocols.includes(u.protocol)) {
      problems.push(`${name} must use ${protocols.join(' or ')}, got "${u.protocol}"`);
    }
  } catch {
    problems.push(`${name} is not a valid URL`);
  }
  return raw;
}

/** A comma-separated list of origins such as `https://shop.example.com,http://localhost:3000`. */
function origins(env: Env, name: string, problems: string[]): string[] {
  const list = (env[name] || '')
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  const out: string[] = [];
  for (const item of list) {
    let u: URL | undefined;
    try {
      u = new URL(item);
    } catch {
      u = undefined;
    }
    const bare = u && u.pathname === '/' && !u.search && !u.hash && !u.username && !item.endsWith('?') && !item.endsWith('#');
    if (!u || !bare || !['http:', 'https:'].includes(u.protocol)) {
      problems.push(`${name} must list origins such as https://shop.example.com (scheme, host and port only), got "${item}"`);
      continue;
    }
    out.push(u.origin);
  }
  return out;
}

/** WORKERS: a number of processes, or `auto` for one per core. */
function workers(env: Env, problems: string[]): number {
  const raw = env.WORKERS;
  if (raw && /^auto$/i.test(raw)) return Math.max(1, os.availableParallelism());
  return int(env, 'WORKERS', 1, 1, 256, problems);
}

export function loadConfig(env: Env = process.env): AppConfig {
  const problems: string[] = [];
  const rawEnv = env.NODE_ENV || 'development';
  if (!['development', 'production', 'test'].includes(rawEnv)) {
    problems.push(`NODE_ENV must be development, production or test; got "${rawEnv}"`);
  }
  const nodeEnv = rawEnv === 'production' ? 'production' : rawEnv === 'test' ? 'test' : 'development';
  const production = nodeEnv === 'production';

  const jwtSecret = env.JWT_SECRET || (production ? '' : DEFAULT_JWT_SECRET);
  if (production && !env.JWT_SECRET) problems.push('JWT_SECRET is required in production');
  else if (production && jwtSecret === DEFAULT_JWT_SECRET) problems.push('JWT_SECRET must not be the built-in demo secret in production');
  else if (jwtSecret.length < 32) problems.push('JWT_SECRET must be at least 32 characters');

  const demo = bool(env, 'DEMO', !production, problems);
  if (production && demo) problems.push('DEMO cannot be enabled in production');

  const host = env.HOST || '0.0.0.0';
  const publicUrl = url(env, 'PUBLIC_URL', ['http:', 'https:'], problems);

  const config: AppConfig = {
    env: nodeEnv,
    demo,
    demoCatalog: demo && bool(env, 'DEMO_CATALOG', true, problems),
    port: int(env, 'PORT', 8080, 0, 65535, problems),
    host,
    databaseUrl: url(env, 'DATABASE_URL', ['postgres:', 'postgresql:'], problems),
    databasePoolMax: int(env, 'DATABASE_POOL_MAX', 10, 1, 1000, problems),
    durableCartWrites: bool(env, 'DURABLE_CART_WRITES', false, problems),
    dataDir: path.resolve(env.DATA_DIR || './var'),
    jwtSecret,
    jwtTtlSeconds: int(env, 'JWT_TTL', 3600, 60, 31_536_000, problems),
    tokenSessionMaxAgeSeconds: int(env, 'TOKEN_SESSION_MAX_AGE', 2_592_000, 60, 315_360_000, problems),
    jwtIssuer: env.JWT_ISSUER || (publicUrl ? `${publicUrl.replace(/\/+$/, '')}/` : DEFAULT_JWT_ISSUER),
    redisUrl: url(env, 'REDIS_URL', ['redis:', 'rediss:'], problems),
    smtpUrl: url(env, 'SMTP_URL', ['smtp:', 'smtps:'], problems),
    mailFrom: env.MAIL_FROM || 'Store <no-reply@example.com>',
    publicUrl: publicUrl?.replace(/\/+$/, ''),
    adminPath: adminPath(env, problems),
    corsOrigins: origins(env, 'CORS_ORIGINS', problems),
    bodyLimit: int(env, 'BODY_LIMIT', 1_048_576, 1024, 104_857_600, problems),
    logLevel: env.LOG_LEVEL || (nodeEnv === 'test' ? 'silent' : 'info'),
    trustProxy: trustProxy(env, production, problems),
    benchRoutes: bool(env, 'BENCH_ROUTES', false, problems),
    rateLimits: bool(env, 'RATE_LIMITS', true, problems),
    graphqlIntrospection: bool(env, 'GRAPHQL_INTROSPECTION', !production, problems),
    workers: workers(env, problems),
    requestTimeoutMs: int(env, 'REQUEST_TIMEOUT', 30_000, 1000, 3_600_000, problems),
    headersTimeoutMs: int(env, 'HEADERS_TIMEOUT', 10_000, 1000, 3_600_000, problems),
    keepAliveTimeoutMs: int(env, 'KEEP_ALIVE_TIMEOUT', 72_000, 1000, 3_600_000, problems),
    maxConnections: int(env, 'MAX_CONNECTIONS', 10_000, 1, 1_000_000, problems),
    shutdownTimeoutMs: int(env, 'SHUTDOWN_TIMEOUT', 10_000, 0, 600_000, problems),
    metricsToken: env.METRICS_TOKEN || undefined,
    metricsPort: env.METRICS_PORT ? int(env, 'METRICS_PORT', 0, 1, 65_535, problems) : undefined,
    otlpEndpoint: url(env, 'OTEL_EXPORTER_OTLP_ENDPOINT', ['http:', 'https:'], problems),
    webhooks: {
      allowPrivate: bool(env, 'WEBHOOK_ALLOW_PRIVATE', !production, problems),
      encryptionKeys: [
        env.WEBHOOK_ENCRYPTION_KEY || jwtSecret,
        ...list(env.WEBHOOK_ENCRYPTION_KEY ? env.WEBHOOK_ENCRYPTION_KEY_PREVIOUS : env.JWT_SECRET_PREVIOUS),
      ],
      timeoutMs: int(env, 'WEBHOOK_TIMEOUT', 10_000, 100, 60_000, problems),
      retryBaseMs: int(env, 'WEBHOOK_RETRY_BASE', 5_000, 10, 3_600_000, problems),
      retryMaxMs: int(env, 'WEBHOOK_RETRY_MAX', 3_600_000, 10, 86_400_000, problems),
      retryForMs: int(env, 'WEBHOOK_RETRY_FOR', 86_400_000, 0, 30 * 86_400_000, problems),
      disableAfterMs: int(env, 'WEBHOOK_DISABLE_AFTER', 86_400_000, 0, 30 * 86_400_000, problems),
      pollMs: int(env, 'WEBHOOK_POLL', 5_000, 50, 60_000, problems),
    },
  };
  if (env.WEBHOOK_ENCRYPTION_KEY !== undefined && env.WEBHOOK_ENCRYPTION_KEY.length < 32)
    problems.push('WEBHOOK_ENCRYPTION_KEY must be at least 32 characters');
  // a short token could be guessed; whitespace would never survive the Authorization header
  if (config.metricsToken !== undefined && (config.metricsToken.length < 16 || /\s/.test(config.metricsToken))) {
    problems.push('METRICS_TOKEN must be at least 16 characters without spaces');
  }
  if (config.metricsPort !== undefined && config.metricsPort === config.port) problems.push('METRICS_PORT must differ from PORT');
  if (config.headersTimeoutMs > config.requestTimeoutMs) problems.push('HEADERS_TIMEOUT must not be longer than REQUEST_TIMEOUT');
  if (config.workers > 1 && !config.databaseUrl) {
    problems.push('WORKERS above 1 needs DATABASE_URL: the embedded database belongs to one process');
  }
  if (!['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'].includes(config.logLevel)) {
    problems.push(`LOG_LEVEL must be one of fatal, error, warn, info, debug, trace, silent; got "${config.logLevel}"`);
  }
  if (production && !config.rateLimits) problems.push('RATE_LIMITS cannot be disabled in production');
  if (production && config.benchRoutes) problems.push('BENCH_ROUTES cannot be enabled in production');
  if (production && config.webhooks.allowPrivate)
    problems.push('WEBHOOK_ALLOW_PRIVATE cannot be enabled in production: receivers on private addresses would reach the internal network');
  if (problems.length) throw new ConfigError(problems);
  return config;
}

/** ADMIN_PATH: one or more path segments of letters, digits, `-` and `_` (`/admin`, `/backoffice`, `/shop/admin`). */
function adminPath(env: Env, problems: string[]): string {
  const raw = (env.ADMIN_PATH ?? '/admin').trim();
  const segments = raw.split('/').filter(Boolean);
  if (!segments.length || segments.some((s) => !/^[A-Za-z0-9_-]+$/.test(s)) || segments[0] === 'api') {
    problems.push('ADMIN_PATH is a path such as /admin (letters, digits, - and _; not under /api)');
    return '/admin';
  }
  return `/${segments.join('/')}`;
}
