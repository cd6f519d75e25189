/** loadConfig: defaults, and one clear message for each wrong variable. */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import path from 'node:path';
import { ConfigError, DEFAULT_JWT_SECRET, loadConfig } from '../../src/platform/config.js';

const STRONG = 'a-strong-production-secret-of-at-least-32-chars';

/** The problems loadConfig reports for this environment (fails when it reports none). */
function problems(env: Record<string, string>): string[] {
  try {
    loadConfig(env);
  } catch (err) {
    assert.ok(err instanceof ConfigError, String(err));
    assert.match(err.message, /^Invalid configuration:/);
    return err.problems;
  }
  assert.fail(`expected a configuration error for ${JSON.stringify(env)}`);
}

function refuses(env: Record<string, string>, message: RegExp): void {
  const found = problems(env);
  assert.ok(
    found.some((p) => message.test(p)),
    `${message} not in ${JSON.stringify(found)}`,
  );
}

describe('defaults (development)', () => {
  test('an empty environment is a demo development setup on port 8080 with PGlite under ./var', () => {
    const c = loadConfig({});
    assert.equal(c.env, 'development');
    assert.equal(c.demo, true);
    assert.equal(c.port, 8080);
    assert.equal(c.host, '0.0.0.0');
    assert.equal(c.databaseUrl, undefined);
    assert.equal(c.dataDir, path.resolve('./var'));
    assert.equal(c.jwtSecret, DEFAULT_JWT_SECRET);
    assert.equal(c.jwtTtlSeconds, 3600);
    assert.equal(c.redisUrl, undefined);
    assert.equal(c.smtpUrl, undefined);
    assert.deepEqual(c.corsOrigins, []);
    assert.equal(c.bodyLimit, 1_048_576);
    assert.equal(c.logLevel, 'info');
    assert.equal(c.trustProxy, false);
    assert.equal(c.rateLimits, true);
    assert.equal(c.benchRoutes, false);
    assert.equal(c.durableCartWrites, false);
    assert.equal(c.graphqlIntrospection, true);
    assert.equal(loadConfig({ GRAPHQL_INTROSPECTION: '0' }).graphqlIntrospection, false);
  });

  test('NODE_ENV=test logs nothing by default', () => {
    assert.equal(loadConfig({ NODE_ENV: 'test' }).logLevel, 'silent');
  });

  test('values are read and normalised', () => {
    const c = loadConfig({
      PORT: '3000',
      HOST: '127.0.0.1',
      DATABASE_URL: 'postgres://u:p@db:5432/shop',
      DATA_DIR: '/tmp/x',
      REDIS_URL: 'redis://cache:6379/0',
      SMTP_URL: 'smtps://user:pass@mail.example.com:465',
      PUBLIC_URL: 'https://shop.example.com/',
      CORS_ORIGINS: 'https://a.example, http://localhost:3000/',
      BODY_LIMIT: '2048',
      LOG_LEVEL: 'warn',
      TRUST_PROXY: 'yes',
      RATE_LIMITS: 'off',
      DURABLE_CART_WRITES: 'on',
      JWT_TTL: '600',
    });
    assert.equal(c.port, 3000);
    assert.equal(c.host, '127.0.0.1');
    assert.equal(c.databaseUrl, 'postgres://u:p@db:5432/shop');
    assert.equal(c.dataDir, '/tmp/x');
    assert.equal(c.redisUrl, 'redis://cache:6379/0');
    assert.equal(c.smtpUrl, 'smtps://user:pass@mail.example.com:465');
    assert.equal(c.publicUrl, 'https://shop.example.com');
    assert.deepEqual(c.corsOrigins, ['https://a.example', 'http://localhost:3000']);
    assert.equal(c.bodyLimit, 2048);
    assert.equal(c.logLevel, 'warn');
    assert.equal(c.trustProxy, true);
    assert.equal(c.rateLimits, false);
    assert.equal(c.durableCartWrites, true);
    assert.equal(c.jwtTtlSeconds, 600);
  });

  test('empty values count as unset', () => {
    const c = loadConfig({ PORT: '', DATABASE_URL: '', REDIS_URL: '', SMTP_URL: '', JWT_SECRET: '' });
    assert.equal(c.port, 8080);
    assert.equal(c.databaseUrl, undefined);
    assert.equal(c.jwtSecret, DEFAULT_JWT_SECRET);
  });
});

describe('validation', () => {
  test('PORT must be a whole number from 0 to 65535', () => {
    refuses({ PORT: 'eighty' }, /^PORT must be a whole number/);
    refuses({ PORT: '-1' }, /^PORT must be a whole number/);
    refuses({ PORT: '80.5' }, /^PORT must be a whole number/);
    refuses({ PORT: '65536' }, /^PORT must be between 0 and 65535/);
    assert.equal(loadConfig({ PORT: '0' }).port, 0);
    assert.equal(loadConfig({ PORT: '65535' }).port, 65535);
  });

  test('DATABASE_URL must be a postgres:// or postgresql:// URL', () => {
    refuses({ DATABASE_URL: 'mysql://localhost/db' }, /^DATABASE_URL must use postgres: or postgresql:/);
    refuses({ DATABASE_URL: 'not a url' }, /^DATABASE_URL is not a valid URL/);
    assert.equal(loadConfig({ DATABASE_URL: 'postgresql://localhost/db' }).databaseUrl, 'postgresql://localhost/db');
  });

  test('REDIS_URL must be a redis:// or rediss:// URL', () => {
    refuses({ REDIS_URL: 'http://localhost:6379' }, /^REDIS_URL must use redis: or rediss:/);
    refuses({ REDIS_URL: 'localhost:6379' }, /^REDIS_URL/);
  });

  test('SMTP_URL must be an smtp:// or smtps:// URL', () => {
    refuses({ SMTP_URL: 'mailto:someone@example.com' }, /^SMTP_URL must use smtp: or smtps:/);
    refuses({ SMTP_URL: '::' }, /^SMTP_URL is not a valid URL/);
  });

  test('PUBLIC_URL must be an http(s) URL', () => {
    refuses({ PUBLIC_URL: 'ftp://shop.example.com' }, /^PUBLIC_URL must use http: or https:/);
  });

  test('LOG_LEVEL must be a pino level', () => {
    refuses({ LOG_LEVEL: 'verbose' }, /^LOG_LEVEL must be one of fatal, error, warn, info, debug, trace, silent; got "verbose"/);
    for (const level of ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']) {
      assert.equal(loadConfig({ LOG_LEVEL: level }).logLevel, level);
    }
  });

  test('JWT_SECRET must have at least 32 characters', () => {
    refuses({ JWT_SECRET: 'short' }, /^JWT_SECRET must be at least 32 characters/);
    refuses({ JWT_SECRET: 'x'.repeat(31) }, /^JWT_SECRET must be at least 32 characters/);
    assert.equal(loadConfig({ JWT_SECRET: 'x'.repeat(32) }).jwtSecret, 'x'.repeat(32));
  });

  test('JWT_TTL must be 60 s to a year', () => {
    refuses({ JWT_TTL: '59' }, /^JWT_TTL must be between 60 and 31536000/);
    refuses({ JWT_TTL: '1h' }, /^JWT_TTL must be a whole number/);
  });

  test('BODY_LIMIT must be 1 KiB to 100 MiB', () => {
    refuses({ BODY_LIMIT: '100' }, /^BODY_LIMIT must be between 1024 and 104857600/);
    refuses({ BODY_LIMIT: '1mb' }, /^BODY_LIMIT must be a whole number/);
  });

  test('switches must be true or false', () => {
    for (const name of ['DEMO', 'RATE_LIMITS', 'BENCH_ROUTES', 'DURABLE_CART_WRITES']) {
      refuses({ [name]: 'maybe' }, new RegExp(`^${name} must be true or false, got "maybe"`));
    }
    for (const yes of ['1', 'true', 'YES', 'on']) assert.equal(loadConfig({ DURABLE_CART_WRITES: yes }).durableCartWrites, true);
    for (const no of ['0', 'false', 'No', 'off']) assert.equal(loadConfig({ RATE_LIMITS: no }).rateLimits, false);
  });

  test("TRUST_PROXY is off, a hop count, or the proxies' addresses and ranges", () => {
    assert.equal(loadConfig({}).trustProxy, false);
    assert.equal(loadConfig({ TRUST_PROXY: 'off' }).trustProxy, false);
    assert.equal(loadConfig({ TRUST_PROXY: '1' }).trustProxy, 1, 'a number is hops, not "trust everything"');
    assert.equal(loadConfig({ TRUST_PROXY: '2' }).trustProxy, 2);
    assert.deepEqual(loadConfig({ TRUST_PROXY: '10.0.0.5, 192.168.0.0/16,::1,loopback' }).trustProxy, [
      '10.0.0.5',
      '192.168.0.0/16',
      '::1',
      'loopback',
    ]);
    assert.equal(loadConfig({ TRUST_PROXY: 'true' }).trustProxy, true, 'every hop, outside production');
    refuses({ TRUST_PROXY: 'maybe' }, /^TRUST_PROXY must be false, a hop count, or proxy addresses/);
    refuses({ TRUST_PROXY: '10.0.0.1,proxy.internal' }, /"proxy\.internal"/);
    refuses({ TRUST_PROXY: '10.0.0.0/33' }, /"10\.0\.0\.0\/33"/);
    refuses({ TRUST_PROXY: '65' }, /^TRUST_PROXY must be between 1 and 64/);
  });

  test('CORS_ORIGINS must list bare origins', () => {
    refuses({ CORS_ORIGINS: '*' }, /^CORS_ORIGINS must list origins/);
    refuses({ CORS_ORIGINS: 'https://a.example/path' }, /"https:\/\/a\.example\/path"/);
    refuses({ CORS_ORIGINS: 'shop.example.com' }, /"shop\.example\.com"/);
    refuses({ CORS_ORIGINS: 'https://ok.example,ftp://files.example' }, /"ftp:\/\/files\.example"/);
  });

  test('NODE_ENV must be development, production or test', () => {
    refuses({ NODE_ENV: 'staging' }, /^NODE_ENV must be development, production or test; got "staging"/);
  });

  test('every wrong variable is reported at once', () => {
    const found = problems({ PORT: 'x', LOG_LEVEL: 'loud', REDIS_URL: 'http://r', JWT_SECRET: 'short' });
    assert.equal(found.length, 4, JSON.stringify(found));
  });
});

describe('production', () => {
  test('refuses to start without JWT_SECRET', () => {
    refuses({ NODE_ENV: 'production' }, /^JWT_SECRET is required in production/);
  });

  test('refuses the built-in demo secret', () => {
    refuses({ NODE_ENV: 'production', JWT_SECRET: DEFAULT_JWT_SECRET }, /^JWT_SECRET must not be the built-in demo secret/);
  });

  test('refuses a short secret', () => {
    refuses({ NODE_ENV: 'production', JWT_SECRET: 'too-short' }, /^JWT_SECRET must be at least 32 characters/);
  });

  test('refuses demo data, disabled rate limits and bench routes', () => {
    refuses({ NODE_ENV: 'production', JWT_SECRET: STRONG, DEMO: '1' }, /^DEMO cannot be enabled in production/);
    refuses({ NODE_ENV: 'production', JWT_SECRET: STRONG, RATE_LIMITS: '0' }, /^RATE_LIMITS cannot be disabled in production/);
    refuses({ NODE_ENV: 'production', JWT_SECRET: STRONG, BENCH_ROUTES: '1' }, /^BENCH_ROUTES cannot be enabled in production/);
  });

  test('refuses trusting every proxy hop and webhooks to private addresses', () => {
    refuses({ NODE_ENV: 'production', JWT_SECRET: STRONG, TRUST_PROXY: 'true' }, /^TRUST_PROXY=true trusts every X-Forwarded-For hop/);
    refuses(
      { NODE_ENV: 'production', JWT_SECRET: STRONG, WEBHOOK_ALLOW_PRIVATE: '1' },
      /^WEBHOOK_ALLOW_PRIVATE cannot be enabled in production/,
    );
    const c = loadConfig({ NODE_ENV: 'production', JWT_SECRET: STRONG, TRUST_PROXY: '1', WEBHOOK_ALLOW_PRIVATE: '0' });
    assert.equal(c.trustProxy, 1);
    assert.equal(c.webhooks.allowPrivate, false);
  });

  test('with a strong secret it starts without demo data and with rate limits', () => {
    const c = loadConfig({ NODE_ENV: 'production', JWT_SECRET: STRONG });
    assert.equal(c.env, 'production');
    assert.equal(c.demo, false);
    assert.equal(c.rateLimits, true);
    assert.equal(c.jwtSecret, STRONG);
    assert.equal(c.logLevel, 'info');
    assert.equal(c.graphqlIntrospection, false, 'introspection is off in production');
    assert.equal(loadConfig({ NODE_ENV: 'production', JWT_SECRET: STRONG, GRAPHQL_INTROSPECTION: '1' }).graphqlIntrospection, true);
  });
});

describe('ADMIN_PATH', () => {
  test('the back office is at /admin unless told otherwise; slashes are normalised', () => {
    assert.equal(loadConfig({}).adminPath, '/admin');
    assert.equal(loadConfig({ ADMIN_PATH: 'backoffice/' }).adminPath, '/backoffice');
    assert.equal(loadConfig({ ADMIN_PATH: '//shop//staff' }).adminPath, '/shop/staff');
  });

  test('a path with other characters, the root or one under /api is refused', () => {
    for (const bad of ['/', '/ad min', '/../x', '/api/admin', '/admin?x=1']) refuses({ ADMIN_PATH: bad }, /ADMIN_PATH/);
  });
});
