/**
 * Operator commands: `npm run cli -- <command> [options]`. Reads the same environment as the server
 * (DATABASE_URL, or DATA_DIR for the embedded database), applies migrations and install data, runs one
 * command against the database and exits: 0 on success, 1 on bad input or a refused change.
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import type { FastifyBaseLogger } from 'fastify';
import { sql } from 'drizzle-orm';
import { ConfigError, loadConfig, type AppConfig } from './platform/config.js';
import { migrate, openDatabase, type Database, type Db } from './platform/db.js';
import { runInstall } from './platform/install.js';
import { AppError, fromDatabaseError, notFound } from './platform/errors.js';
import { createTokenService } from './platform/auth/tokens.js';
import { createRateLimiter } from './platform/rate-limit.js';
import { installState } from './platform/tables.js';
import type { Ctx } from './platform/context.js';
import type { ConfigScope } from './platform/settings.js';
import { modules } from './modules/index.js';
import { generateProducts } from './modules/catalog/generate.js';
import { StoreRegistry } from './modules/stores/registry.js';
import { deleteConfig, setConfig } from './modules/stores/service.js';
import * as auth from './modules/auth/accounts.js';
import { DEMO_CUSTOMER } from './modules/customers/service.js';
import { importTableRates } from './modules/shipping/tablerates.js';
import { CONDITION_NAMES, isConditionName } from './modules/shipping/service.js';
import { mediaRoot } from './platform/files.js';
import { GROUPS, ImportRefused, type Group } from './importer/context.js';
import type { Report } from './importer/report.js';
import { importMagento, parseGroups } from './importer/run.js';

type OptionSpec = Record<string, { type: 'string' | 'boolean' }>;

interface Env {
  config: AppConfig;
  /** migrations applied and modules installed by this start */
  migrated: string[];
  installed: string[];
  db: Db;
  registry: StoreRegistry;
  ctx(): Ctx;
}

interface Command {
  usage: string;
  summary: string;
  options?: OptionSpec;
  /** positional arguments after the command: exactly this many */
  positionals?: number;
  run(env: Env, opts: Record<string, string | boolean | undefined>, args: string[]): Promise<void>;
}

/** A refusal the operator can fix: printed without a stack trace, exit code 1. */
class UsageError extends Error {}

const out = (line = '') => process.stdout.write(`${line}\n`);

function required(opts: Record<string, string | boolean | undefined>, name: string): string {
  const v = opts[name];
  if (typeof v !== 'string' || !v.trim()) throw new UsageError(`--${name} is required`);
  return v.trim();
}

function list(value: string): string[] {
  return value.split(',').map((s) => s.trim()).filter(Boolean);
}

/** `--stores 1,german`: store view ids or codes, each of which must exist. */
function storeIds(registry: StoreRegistry, value: string | undefined): number[] | undefined {
  if (value === undefined) return undefined;
  const items = list(value);
  if (!items.length) throw new UsageError('--stores names at least one store view id or code');
  return items.map((item) => {
    const store = /^\d+$/.test(item) ? registry.store(Number(item)) : registry.storeByCode(item);
    if (!store) throw new UsageError(`Unknown store view: ${item}`);
    return store.id;
  });
}

function scopeOf(registry: StoreRegistry, opts: Record<string, string | boolean | undefined>): { scope: ConfigScope; scopeId: number } {
  const scope = (opts.scope as string | undefined) ?? 'default';
  if (scope !== 'default' && scope !== 'websites' && scope !== 'stores') throw new UsageError('--scope is default, websites or stores');
  const raw = opts['scope-id'] as string | undefined;
  if (raw === undefined) {
    if (scope !== 'default') throw new UsageError(`--scope ${scope} needs --scope-id`);
    return { scope, scopeId: 0 };
  }
  if (/^\d+$/.test(raw)) return { scope, scopeId: Number(raw) };
  const store = scope === 'stores' ? registry.storeByCode(raw) : undefined;
  if (!store) throw new UsageError(`--scope-id is a number${scope === 'stores' ? ' or a store code' : ''}, got "${raw}"`);
  return { scope, scopeId: store.id };
}

/** Rows as aligned columns. */
function table(rows: Record<string, unknown>[], columns: string[]): void {
  if (!rows.length) {
    out('(none)');
    return;
  }
  const cell = (v: unknown) => (v === null || v === undefined ? '-' : Array.isArray(v) ? v.join(',') || '-' : String(v));
  const widths = columns.map((c) => Math.max(c.length, ...rows.map((r) => cell(r[c]).length)));
  const line = (values: string[]) => values.map((v, i) => v.padEnd(widths[i])).join('  ').trimEnd();
  out(line(columns));
  for (const r of rows) out(line(columns.map((c) => cell(r[c]))));
}

function print(rows: Record<string, unknown>[], columns: string[], json: boolean | string | undefined): void {
  if (json) out(JSON.stringify(rows, null, 2));
  else table(rows, columns);
}

const JSON_OPT: OptionSpec = { json: { type: 'boolean' } };

const commands: Record<string, Command> = {
  migrate: {
    usage: 'migrate',
    summary: 'apply pending migrations and install data (every command does this first)',
    async run({ migrated, installed }) {
      out(migrated.length ? `Migrations applied: ${migrated.join(', ')}` : 'No pending migrations.');
      out(installed.length ? `Install data added: ${installed.join(', ')}` : 'Install data is up to date.');
    },
  },
  'roles:list': {
    usage: 'roles:list [--json]',
    summary: 'list API roles and their permissions',
    options: JSON_OPT,
    async run({ db }, opts) {
      print(await auth.listRoles(db), ['id', 'name', 'permissions'], opts.json);
    },
  },
  'roles:create': {
    usage: 'roles:create --name <name> --permissions <p1,p2,...>',
    summary: 'create a role; permissions are all, <resource>/all or <resource>/<read|write|create|delete>',
    options: { name: { type: 'string' }, permissions: { type: 'string' } },
    async run({ db }, opts) {
      const name = required(opts, 'name');
      if (typeof opts.permissions !== 'string') throw new UsageError('--permissions is required (an empty string for none)');
      const id = await auth.createRole(db, name, list(opts.permissions));
      out(`Role created: ${name} (id ${id})`);
    },
  },
  'roles:set-permissions': {
    usage: 'roles:set-permissions --name <name> --permissions <p1,p2,...>',
    summary: "replace a role's permissions (applies at once to tokens already issued)",
    options: { name: { type: 'string' }, permissions: { type: 'string' } },
    async run({ db }, opts) {
      const name = required(opts, 'name');
      if (typeof opts.permissions !== 'string') throw new UsageError('--permissions is required (an empty string for none)');
      await auth.setRolePermissions(db, name, list(opts.permissions));
      out(`Permissions of ${name} set.`);
    },
  },
  'api-users:list': {
    usage: 'api-users:list [--json]',
    summary: 'list API users',
    options: JSON_OPT,
    async run({ db }, opts) {
      print(await auth.listApiUsers(db), ['id', 'username', 'role', 'isActive', 'allowedStoreIds', 'email'], opts.json);
    },
  },
  'api-users:create': {
    usage: 'api-users:create --username <name> --role <role> [--api-key <key>] [--email <email>] [--stores <id|code,...>]',
    summary: 'create an API user (api_user grant); a key is generated and printed when --api-key is omitted',
    options: { username: { type: 'string' }, role: { type: 'string' }, 'api-key': { type: 'string' }, email: { type: 'string' }, stores: { type: 'string' } },
    async run({ db, registry }, opts) {
      const username = required(opts, 'username');
      const given = opts['api-key'] as string | undefined;
      const apiKey = given ?? auth.generateSecret();
      const id = await auth.createApiUser(db, {
        username,
        apiKey,
        role: required(opts, 'role'),
        email: opts.email as string | undefined,
        allowedStoreIds: storeIds(registry, opts.stores as string | undefined),
      });
      out(`API user created: ${username} (id ${id})`);
      if (given === undefined) out(`API key (shown once): ${apiKey}`);
    },
  },
  'api-users:set-key': {
    usage: 'api-users:set-key --username <name> [--api-key <key>]',
    summary: "replace an API user's key (its tokens and SOAP sessions end at once); a key is generated and printed when --api-key is omitted",
    options: { username: { type: 'string' }, 'api-key': { type: 'string' } },
    async run({ db }, opts) {
      const username = required(opts, 'username');
      const given = opts['api-key'] as string | undefined;
      const apiKey = given ?? auth.generateSecret();
      await auth.setApiUserKey(db, username, apiKey);
      out(`API key of ${username} replaced.`);
      if (given === undefined) out(`API key (shown once): ${apiKey}`);
    },
  },
  'api-users:disable': {
    usage: 'api-users:disable --username <name>',
    summary: 'disable an API user: it cannot log in and its tokens are refused at once',
    options: { username: { type: 'string' } },
    async run({ db }, opts) {
      const username = required(opts, 'username');
      await auth.setApiUserActive(db, username, false);
      out(`API user ${username} disabled.`);
    },
  },
  'api-users:enable': {
    usage: 'api-users:enable --username <name>',
    summary: 'enable an API user again',
    options: { username: { type: 'string' } },
    async run({ db }, opts) {
      const username = required(opts, 'username');
      await auth.setApiUserActive(db, username, true);
      out(`API user ${username} enabled.`);
    },
  },
  'oauth-clients:list': {
    usage: 'oauth-clients:list [--json]',
    summary: 'list OAuth clients',
    options: JSON_OPT,
    async run({ db }, opts) {
      print(await auth.listOauthClients(db), ['id', 'clientId', 'name', 'role', 'isActive', 'allowedStoreIds'], opts.json);
    },
  },
  'oauth-clients:create': {
    usage: 'oauth-clients:create --client-id <id> --role <role> [--secret <secret>] [--name <name>] [--stores <id|code,...>]',
    summary: 'create an OAuth client (client_credentials grant); a secret is generated and printed when --secret is omitted',
    options: { 'client-id': { type: 'string' }, role: { type: 'string' }, secret: { type: 'string' }, name: { type: 'string' }, stores: { type: 'string' } },
    async run({ db, registry }, opts) {
      const clientId = required(opts, 'client-id');
      const given = opts.secret as string | undefined;
      const secret = given ?? auth.generateSecret();
      const id = await auth.createOauthClient(db, {
        clientId,
        secret,
        role: required(opts, 'role'),
        name: opts.name as string | undefined,
        allowedStoreIds: storeIds(registry, opts.stores as string | undefined),
      });
      out(`OAuth client created: ${clientId} (id ${id})`);
      if (given === undefined) out(`Client secret (shown once): ${secret}`);
    },
  },
  'oauth-clients:set-secret': {
    usage: 'oauth-clients:set-secret --client-id <id> [--secret <secret>]',
    summary: "replace an OAuth client's secret (its tokens end at once); a secret is generated and printed when --secret is omitted",
    options: { 'client-id': { type: 'string' }, secret: { type: 'string' } },
    async run({ db }, opts) {
      const clientId = required(opts, 'client-id');
      const given = opts.secret as string | undefined;
      const secret = given ?? auth.generateSecret();
      await auth.setOauthClientSecret(db, clientId, secret);
      out(`Client secret of ${clientId} replaced.`);
      if (given === undefined) out(`Client secret (shown once): ${secret}`);
    },
  },
  'oauth-clients:disable': {
    usage: 'oauth-clients:disable --client-id <id>',
    summary: 'disable an OAuth client: it cannot get tokens and its tokens are refused at once',
    options: { 'client-id': { type: 'string' } },
    async run({ db }, opts) {
      const clientId = required(opts, 'client-id');
      await auth.setOauthClientActive(db, clientId, false);
      out(`OAuth client ${clientId} disabled.`);
    },
  },
  'oauth-clients:enable': {
    usage: 'oauth-clients:enable --client-id <id>',
    summary: 'enable an OAuth client again',
    options: { 'client-id': { type: 'string' } },
    async run({ db }, opts) {
      const clientId = required(opts, 'client-id');
      await auth.setOauthClientActive(db, clientId, true);
      out(`OAuth client ${clientId} enabled.`);
    },
  },
  'config:set': {
    usage: 'config:set <path> <value> [--scope default|websites|stores] [--scope-id <id>]',
    summary: 'set a store configuration value (running servers see it within seconds)',
    options: { scope: { type: 'string' }, 'scope-id': { type: 'string' } },
    positionals: 2,
    async run({ db, registry }, opts, [path, value]) {
      const { scope, scopeId } = scopeOf(registry, opts);
      await setConfig(db, registry, path, value, scope, scopeId);
      out(`${path} = ${value} (${scope} ${scopeId})`);
    },
  },
  'config:unset': {
    usage: 'config:unset <path> [--scope default|websites|stores] [--scope-id <id>]',
    summary: 'remove a value set at one scope (the next scope up applies again)',
    options: { scope: { type: 'string' }, 'scope-id': { type: 'string' } },
    positionals: 1,
    async run({ db, registry }, opts, [path]) {
      const { scope, scopeId } = scopeOf(registry, opts);
      await deleteConfig(db, registry, path, scope, scopeId);
      out(`${path} unset (${scope} ${scopeId})`);
    },
  },
  'config:get': {
    usage: 'config:get <path> [--store <id|code>]',
    summary: 'print the value in effect for a store view (the default one when --store is omitted)',
    options: { store: { type: 'string' } },
    positionals: 1,
    async run({ registry }, opts, [path]) {
      const storeId = opts.store === undefined ? registry.defaultStore.id : storeIds(registry, opts.store as string)![0];
      const value = registry.get(path, storeId);
      if (value === undefined) throw notFound(`${path} is not set`);
      out(value);
    },
  },
  'catalog:generate': {
    usage: 'catalog:generate --count <n>',
    summary: 'add <n> generated simple products (skus GEN-000001, ...) with prices, stock and categories, for load tests',
    options: { count: { type: 'string' } },
    async run(env, opts) {
      const count = Number(required(opts, 'count'));
      if (!Number.isInteger(count) || count < 1 || count > 1_000_000) throw new UsageError('--count must be a whole number from 1 to 1000000');
      const started = Date.now();
      await generateProducts(env.ctx(), count, ({ done, total }) => {
        process.stderr.write(`\r  ${done} / ${total} products (${Math.round((done / total) * 100)} %)`);
      });
      process.stderr.write('\n');
      out(`Added ${count} products in ${((Date.now() - started) / 1000).toFixed(1)} s.`);
    },
  },
  'tablerates:import': {
    usage: 'tablerates:import --website <id> --condition <package_weight|package_value|package_qty> <file>',
    summary: "replace a website's table rates for one condition with a CSV file (Country, Region/State, Zip/Postal Code, condition, Shipping Price)",
    options: { website: { type: 'string' }, condition: { type: 'string' } },
    positionals: 1,
    async run(env, opts, [file]) {
      const website = required(opts, 'website');
      if (!/^\d+$/.test(website) || !env.registry.website(Number(website))) throw new UsageError(`Unknown website: ${website}`);
      const condition = required(opts, 'condition');
      if (!isConditionName(condition)) throw new UsageError(`--condition is one of ${CONDITION_NAMES.join(', ')}`);
      let csv: string;
      try {
        csv = readFileSync(file, 'utf8');
      } catch (err) {
        throw new UsageError(`Cannot read ${file}: ${(err as Error).message}`);
      }
      const { imported } = await importTableRates(env.ctx(), Number(website), condition, csv);
      out(`Imported ${imported} table rates for website ${website} (${condition}).`);
    },
  },
  import: {
    usage: 'import magento --source mysql://user:password@host:3306/database [--media-dir DIR] [--only GROUPS] [--since TIME] [--dry-run] [--report FILE]',
    summary: 'import a Magento 1 / OpenMage / Maho database (again: updates what changed); --only takes groups among ' + GROUPS.join(','),
    options: { source: { type: 'string' }, 'media-dir': { type: 'string' }, only: { type: 'string' }, since: { type: 'string' }, 'dry-run': { type: 'boolean' }, report: { type: 'string' } },
    positionals: 1,
    async run(env, opts, [kind]) {
      if (kind !== 'magento') throw new UsageError('the only import is `import magento`');
      const source = required(opts, 'source');
      let only: Group[] | undefined;
      let since: Date | undefined;
      try {
        only = typeof opts.only === 'string' ? parseGroups(opts.only) : undefined;
      } catch (err) {
        throw new UsageError((err as Error).message);
      }
      if (typeof opts.since === 'string') {
        since = new Date(opts.since.includes('T') || opts.since.length <= 10 ? opts.since : opts.since.replace(' ', 'T'));
        if (Number.isNaN(since.getTime())) throw new UsageError('--since is a time such as 2026-11-20T18:00:00Z');
      }
      const mediaDir = typeof opts['media-dir'] === 'string' ? opts['media-dir'] : undefined;
      if (mediaDir && !existsSync(mediaDir)) throw new UsageError(`--media-dir ${mediaDir} does not exist`);
      let report: Report;
      try {
        report = await importMagento({
          source,
          db: env.db,
          only,
          since,
          dryRun: opts['dry-run'] === true,
          mediaDir,
          mediaTarget: mediaRoot(env.config),
          progress: (line) => process.stderr.write(line),
          tty: process.stderr.isTTY,
        });
      } catch (err) {
        if (err instanceof ImportRefused) throw new UsageError(err.message);
        throw err;
      }
      for (const line of report.lines()) out(line);
      if (typeof opts.report === 'string') writeFileSync(opts.report, JSON.stringify(report, null, 2));
      out(opts['dry-run'] ? 'Dry run: nothing was written.' : report.ok ? 'Import complete.' : 'Import complete, with differences (above).');
    },
  },
  'demo:seed': {
    usage: 'demo:seed',
    summary: 'add the demo data (stores, customer, API user, OAuth client) once; does nothing when present',
    async run(env) {
      if (env.config.env === 'production') throw new UsageError('demo:seed is refused in production (NODE_ENV=production): demo credentials are public');
      const [done] = await env.db.select().from(installState).where(sql`${installState.module} = 'demo'`);
      if (done) {
        out('Demo data is already present.');
        return;
      }
      for (const m of modules) {
        if (!m.demo) continue;
        await m.demo(env.ctx());
        await env.registry.reload();
      }
      await env.db.insert(installState).values({ module: 'demo', version: 1 }).onConflictDoNothing();
      const { apiUser, oauthClient } = auth.DEMO_CREDENTIALS;
      out('Demo data added. Credentials:');
      out(`  API user      ${apiUser.username} / ${apiUser.apiKey}`);
      out(`  OAuth client  ${oauthClient.clientId} / ${oauthClient.secret}`);
      out(`  Customer      ${DEMO_CUSTOMER.email} / ${DEMO_CUSTOMER.password}`);
    },
  },
};

function help(): void {
  out('Usage: npm run cli -- <command> [options]');
  out();
  out('Commands:');
  const width = Math.max(...Object.keys(commands).map((k) => k.length), 4);
  for (const [name, c] of Object.entries(commands)) out(`  ${name.padEnd(width)}  ${c.summary}`);
  out(`  ${'help'.padEnd(width)}  this text; help <command> shows its options`);
  out();
  out('Environment: DATABASE_URL (PostgreSQL) or DATA_DIR (embedded database in DATA_DIR/db, default ./var;');
  out('stop the server first: the embedded database is opened by one process at a time).');
}

/** Silent below warn unless LOG_LEVEL asks for more; lines go to stderr so that stdout stays scriptable. */
function stderrLogger(level: string): FastifyBaseLogger {
  const order = ['trace', 'debug', 'info', 'warn', 'error', 'fatal'];
  const min = level === 'silent' ? order.length : Math.max(order.indexOf(level), order.indexOf('warn'));
  const at = (name: string) => (...args: unknown[]) => {
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

async function openEnv(config: AppConfig): Promise<{ env: Env; close(): Promise<void> }> {
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
      // operator commands change data in bulk (an import): they emit no webhook events
      events: { wants: () => false, nudge: () => undefined, deliverNow: async () => undefined, refresh: async () => undefined },
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

async function main(argv: string[]): Promise<number> {
  const [name, ...rest] = argv;
  if (!name || name === 'help' || name === '--help' || name === '-h') {
    const c = rest[0] ? commands[rest[0]] : undefined;
    if (c) out(`Usage: npm run cli -- ${c.usage}\n\n${c.summary}`);
    else help();
    return 0;
  }
  const command = commands[name];
  if (!command) {
    process.stderr.write(`error: unknown command "${name}"; \`npm run cli -- help\` lists them\n`);
    return 1;
  }
  let parsed: { values: Record<string, string | boolean | undefined>; positionals: string[] };
  try {
    parsed = parseArgs({ args: rest, options: command.options ?? {}, allowPositionals: true, strict: true });
  } catch (err) {
    process.stderr.write(`error: ${(err as Error).message}\nusage: npm run cli -- ${command.usage}\n`);
    return 1;
  }
  if (parsed.positionals.length !== (command.positionals ?? 0)) {
    process.stderr.write(`error: wrong number of arguments\nusage: npm run cli -- ${command.usage}\n`);
    return 1;
  }
  let config: AppConfig;
  try {
    config = loadConfig(process.env);
  } catch (err) {
    if (err instanceof ConfigError) {
      process.stderr.write(`${err.message}\n`);
      return 1;
    }
    throw err;
  }
  const opened = await openEnv(config);
  try {
    await command.run(opened.env, parsed.values, parsed.positionals);
    return 0;
  } catch (err) {
    if (err instanceof UsageError) {
      process.stderr.write(`error: ${err.message}\nusage: npm run cli -- ${command.usage}\n`);
      return 1;
    }
    const refused = err instanceof AppError ? err : fromDatabaseError(err);
    if (refused && refused.status < 500) {
      process.stderr.write(`error: ${refused.message}\n`);
      return 1;
    }
    throw err;
  } finally {
    await opened.close();
  }
}

main(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code;
  },
  (err: unknown) => {
    process.stderr.write(`error: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
    process.exitCode = 1;
  },
);
