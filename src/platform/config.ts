/**
 * Process configuration, read once from the environment and validated at start.
 * Every wrong variable is reported with its own message; start-up stops on the first report.
 */
import path from 'node:path';

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
  jwtIssuer?: string;
  redisUrl?: string;
  smtpUrl?: string;
  mailFrom: string;
  publicUrl?: string;
  corsOrigins: string[];
  bodyLimit: number;
  logLevel: string;
  trustProxy: boolean;
  benchRoutes: boolean;
  /** Rate limits can be switched off for load tests; never in production. */
  rateLimits: boolean;
  /** GraphQL schema introspection (on outside production unless switched off; off in production unless on) */
  graphqlIntrospection: boolean;
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
  const list = (env[name] || '').split(',').map((s) => s.trim()).filter(Boolean);
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
    jwtIssuer: env.JWT_ISSUER || undefined,
    redisUrl: url(env, 'REDIS_URL', ['redis:', 'rediss:'], problems),
    smtpUrl: url(env, 'SMTP_URL', ['smtp:', 'smtps:'], problems),
    mailFrom: env.MAIL_FROM || 'Store <no-reply@example.com>',
    publicUrl: publicUrl?.replace(/\/+$/, ''),
    corsOrigins: origins(env, 'CORS_ORIGINS', problems),
    bodyLimit: int(env, 'BODY_LIMIT', 1_048_576, 1024, 104_857_600, problems),
    logLevel: env.LOG_LEVEL || (nodeEnv === 'test' ? 'silent' : 'info'),
    trustProxy: bool(env, 'TRUST_PROXY', false, problems),
    benchRoutes: bool(env, 'BENCH_ROUTES', false, problems),
    rateLimits: bool(env, 'RATE_LIMITS', true, problems),
    graphqlIntrospection: bool(env, 'GRAPHQL_INTROSPECTION', !production, problems),
  };
  if (!['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'].includes(config.logLevel)) {
    problems.push(`LOG_LEVEL must be one of fatal, error, warn, info, debug, trace, silent; got "${config.logLevel}"`);
  }
  if (production && !config.rateLimits) problems.push('RATE_LIMITS cannot be disabled in production');
  if (production && config.benchRoutes) problems.push('BENCH_ROUTES cannot be enabled in production');
  if (problems.length) throw new ConfigError(problems);
  return config;
}
