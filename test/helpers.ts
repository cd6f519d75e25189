/**
 * Test harness: every test file builds the app on a fresh database. With TEST_DATABASE_URL set that is a
 * new database on the PostgreSQL server, created from a migrated template; otherwise an in-memory PGlite
 * loaded from a dump of a migrated one. Both templates hold the install and demo data.
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { buildApp, type BuiltApp } from '../src/app.js';
import { loadConfig } from '../src/platform/config.js';
import { openDatabase, type Database } from '../src/platform/db.js';
import { setHashCost } from '../src/platform/auth/secrets.js';
import { sourceKey } from './fixtures/source-key.js';
import { createApiUser, createRole } from '../src/modules/auth/service.js';

// cheap KDF cost in tests; stored hashes carry their own parameters
setHashCost({ N: 1024, r: 8, p: 1 });

/** What shapes the templates: migrations and source (install and demo data live there). */
const templateKey = sourceKey;

// pg 9 refuses a query issued on a client that is still running one (pg 8 queues it with a deprecation
// warning): inside a transaction that is a Promise.all over one connection. The test file that does it fails.
process.on('warning', (w) => {
  if (/already executing a query/.test(w.message)) throw new Error(`a query was issued on a busy pg client: ${w.stack}`);
});

/** Where test apps keep media files: one folder per test process, removed when it exits. */
let testDataDir: string | undefined;
function defaultDataDir(): string {
  if (!testDataDir) {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'commerce-test-data-'));
    process.on('exit', () => fs.rmSync(dir, { recursive: true, force: true }));
    testDataDir = dir;
  }
  return testDataDir;
}

/** Demo credentials and store setup, without the demo catalog (tests make the products they need). */
export function testConfig(env: Record<string, string> = {}) {
  return loadConfig({
    NODE_ENV: 'test',
    DEMO: '1',
    DEMO_CATALOG: '0',
    RATE_LIMITS: '0',
    PUBLIC_URL: 'http://shop.test',
    DATA_DIR: defaultDataDir(),
    ...env,
  });
}

async function pgliteTemplate(): Promise<Blob> {
  const dir = path.join(os.tmpdir(), 'commerce-api-test');
  fs.mkdirSync(dir, { recursive: true });
  const file = path.join(dir, `pglite-${templateKey()}.tar.gz`);
  if (!fs.existsSync(file)) {
    const database = await openDatabase({});
    const built = await buildApp({ config: testConfig(), database, logger: false });
    await built.app.close();
    const dump = await database.pglite!.dumpDataDir('gzip');
    await database.close();
    const tmp = `${file}.${process.pid}.tmp`;
    fs.writeFileSync(tmp, Buffer.from(await dump.arrayBuffer()));
    fs.renameSync(tmp, file);
  }
  return new Blob([fs.readFileSync(file)]);
}

function withDatabase(url: string, name: string): string {
  const u = new URL(url);
  u.pathname = `/${name}`;
  return u.toString();
}

/** A new database on a PostgreSQL server, made from the install-and-demo template; `drop` removes it. */
export async function postgresDatabase(serverUrl: string): Promise<{ database: Database; url: string; drop: () => Promise<void> }> {
  const tpl = `commerce_tpl_${templateKey()}`;
  const admin = new pg.Client({ connectionString: serverUrl });
  await admin.connect();
  try {
    await admin.query('SELECT pg_advisory_lock(7343010)');
    const exists = await admin.query('SELECT 1 FROM pg_database WHERE datname = $1', [tpl]);
    if (!exists.rowCount) {
      // templates of older source versions are of no further use
      const stale = await admin.query("SELECT datname FROM pg_database WHERE datname LIKE 'commerce\\_tpl\\_%' AND datname <> $1", [tpl]);
      for (const r of stale.rows) await admin.query(`DROP DATABASE IF EXISTS "${r.datname}" WITH (FORCE)`).catch(() => undefined);
      await admin.query(`CREATE DATABASE "${tpl}"`);
      const database = await openDatabase({ databaseUrl: withDatabase(serverUrl, tpl), poolMax: 4 });
      try {
        const built = await buildApp({ config: testConfig({ DATABASE_URL: withDatabase(serverUrl, tpl) }), database, logger: false });
        await built.app.close();
      } catch (err) {
        await database.close();
        await admin.query(`DROP DATABASE IF EXISTS "${tpl}"`);
        throw err;
      }
      await database.close();
    }
    const name = `commerce_t_${process.pid}_${crypto.randomBytes(4).toString('hex')}`;
    await admin.query(`CREATE DATABASE "${name}" TEMPLATE "${tpl}"`);
    await admin.query('SELECT pg_advisory_unlock(7343010)');
    const url = withDatabase(serverUrl, name);
    const database = await openDatabase({ databaseUrl: url, poolMax: 10 });
    return {
      database,
      url,
      drop: async () => {
        const c = new pg.Client({ connectionString: serverUrl });
        await c.connect();
        await c.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
        await c.end();
      },
    };
  } finally {
    await admin.end();
  }
}

export interface TestDb {
  database: Database;
  /** a second handle on the same database, for a second app instance (PostgreSQL only) */
  url?: string;
  drop(): Promise<void>;
}

/** A fresh database holding install and demo data. */
export async function freshDatabase(): Promise<TestDb> {
  const serverUrl = process.env.TEST_DATABASE_URL;
  if (serverUrl) {
    const { database, url, drop } = await postgresDatabase(serverUrl);
    return {
      database,
      url,
      drop: async () => {
        await database.close().catch(() => undefined);
        await drop();
      },
    };
  }
  const database = await openDatabase({ loadDataDir: await pgliteTemplate() });
  return { database, drop: () => database.close() };
}

export interface TestApp extends BuiltApp {
  /** the PostgreSQL database's URL (unset on PGlite) */
  databaseUrl?: string;
  /** JSON request helper over app.inject */
  req(method: string, url: string, opts?: ReqOptions): Promise<Res>;
  /** a GraphQL request (POST /api/graphql); asserts HTTP 200 and answers the body: `data` and any `errors` */
  gql(query: string, token?: string, variables?: Record<string, unknown>): Promise<any>;
  close(): Promise<void>;
  tokens: {
    admin(): Promise<string>;
    customer(email?: string, password?: string): Promise<string>;
    client(): Promise<string>;
    /** a token of a new API user whose role holds these permissions (optionally limited to store views) */
    apiUser(permissions: string[], opts?: { allowedStoreIds?: number[] }): Promise<string>;
  };
}

export interface ReqOptions {
  token?: string;
  body?: unknown;
  /** a raw body (string or Buffer) sent as is */
  raw?: string | Buffer;
  headers?: Record<string, string>;
  query?: Record<string, string>;
}

export interface Res {
  status: number;
  headers: Record<string, string | string[] | number | undefined>;
  body: any;
  text: string;
}

export async function buildTestApp(opts: { env?: Record<string, string>; storeRefreshMs?: number } = {}): Promise<TestApp> {
  const testDb = await freshDatabase();
  let built: BuiltApp;
  try {
    built = await buildApp({
      config: testConfig(opts.env),
      database: testDb.database,
      logger: false,
      // the app applies its own configuration writes at once; the once-a-second version probe (for other
      // processes' writes) would only land in the statement counts of tests measuring a request
      storeRefreshMs: opts.storeRefreshMs ?? 3_600_000,
    });
  } catch (err) {
    await testDb.drop();
    throw err;
  }
  const req = async (method: string, url: string, o: ReqOptions = {}): Promise<Res> => {
    const headers: Record<string, string> = { ...(o.headers ?? {}) };
    if (o.token) headers.authorization = `Bearer ${o.token}`;
    let payload: string | Buffer | undefined;
    if (o.raw !== undefined) payload = o.raw;
    else if (o.body !== undefined) {
      payload = JSON.stringify(o.body);
      headers['content-type'] ??= 'application/json';
    }
    const res = await built.app.inject({ method: method as 'GET', url, headers, payload, query: o.query });
    let body: unknown = undefined;
    if (res.body && /json/.test(String(res.headers['content-type'] ?? ''))) body = JSON.parse(res.body);
    return { status: res.statusCode, headers: res.headers, body, text: res.body };
  };
  let apiUsers = 0;
  const tokenFor = async (body: Record<string, string>) => {
    const r = await req('POST', '/api/rest/v2/auth/token', { body });
    if (r.status !== 200) throw new Error(`token request failed: ${r.status} ${r.text}`);
    return r.body.token as string;
  };
  const gql = async (query: string, token?: string, variables?: Record<string, unknown>) => {
    const r = await req('POST', '/api/graphql', { token, body: { query, variables } });
    if (r.status !== 200) throw new Error(`GraphQL answered HTTP ${r.status}: ${r.text}`);
    return r.body;
  };
  return {
    ...built,
    databaseUrl: testDb.url,
    req,
    gql,
    tokens: {
      admin: () => tokenFor({ grant_type: 'api_user', username: 'demo-admin', api_key: 'demo-admin-key' }),
      client: () => tokenFor({ grant_type: 'client_credentials', client_id: 'demo-client', client_secret: 'demo-client-secret' }),
      customer: (email = 'customer@example.com', password = 'Password123!') => tokenFor({ email, password }),
      apiUser: async (permissions, o = {}) => {
        const name = `api-user-${++apiUsers}`;
        await createRole(built.database.db, name, permissions);
        await createApiUser(built.database.db, { username: name, apiKey: `${name}-key`, role: name, allowedStoreIds: o.allowedStoreIds });
        return tokenFor({ grant_type: 'api_user', username: name, api_key: `${name}-key` });
      },
    },
    close: async () => {
      await built.app.close();
      await testDb.drop();
    },
  };
}

export const API = '/api/rest/v2';

/**
 * A second app instance on the database of `t`, as a second process behind a load balancer would be: its own
 * pool on PostgreSQL, the same PGlite handle otherwise. Close it before `t`.
 */
export async function buildSecondApp(t: TestApp, env: Record<string, string> = {}): Promise<BuiltApp> {
  if (t.databaseUrl) return buildApp({ config: testConfig({ ...env, DATABASE_URL: t.databaseUrl }), logger: false });
  return buildApp({ config: testConfig(env), database: t.database, logger: false });
}
