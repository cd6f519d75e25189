/**
 * `npm run bench`: starts the server as a child process on its own fresh database, runs every scenario of
 * bench/scenarios.ts with autocannon for a fixed time, prints requests/s, latency and SQL statements per
 * request (the server's counter, GET /bench/statements), and always stops the server and removes the database
 * it made. After a scenario that writes, it waits for the server's background work (queued mail) to finish
 * before the next one, and counts those statements as the writing scenario's.
 *
 * Environment:
 *   DATABASE_URL       a PostgreSQL server (any database on it): the bench creates and drops its own database
 *                      there; without it the server runs on embedded PGlite in a temporary directory
 *   BENCH_DURATION     seconds per scenario (default 10)
 *   BENCH_CONNECTIONS  concurrent connections (default 50)
 *   BENCH_REPORT_CONNECTIONS  concurrent connections of the report scenarios (default 1: their latency is the measure)
 *   BENCH_WARMUP       seconds of unmeasured load before each scenario (default 2; 0 for none)
 *   BENCH_PRODUCTS     products generated into the catalog before the server starts (default 10000)
 *   BENCH_ONLY         comma-separated scenario names to run (the routes their ratios compare with are added)
 *   BENCH_ALONE        with BENCH_ONLY: leave out the routes the ratios compare with (for profiling one route)
 *   BENCH_PROFILE      a directory: the server runs with --cpu-prof and writes its profile there on exit
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';
import pg from 'pg';
import {
  DEMO_API_USER,
  DEMO_CUSTOMER,
  DETAIL_SKU,
  GENERATED_PRODUCTS,
  GUEST_CARTS,
  ORDER_CARTS_PER_SECOND,
  ORDER_SKUS,
  ratios,
  scenarios,
  TOTALS_CART_ITEMS,
  type Scenario,
} from './scenarios.js';
import { GRID_PAGES, REPORT_ORDERS, REPORT_SCENARIOS } from './report-scenarios.js';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

function numberEnv(name: string, def: number, min: number): number {
  const raw = process.env[name];
  if (raw === undefined || raw === '') return def;
  const n = Number(raw);
  if (!Number.isFinite(n) || n < min) throw new Error(`${name} must be a number of at least ${min}, got "${raw}"`);
  return n;
}

const duration = numberEnv('BENCH_DURATION', 10, 1);
const connections = Math.floor(numberEnv('BENCH_CONNECTIONS', 50, 1));
const warmup = numberEnv('BENCH_WARMUP', 2, 0);
const productCount = Math.floor(numberEnv('BENCH_PRODUCTS', GENERATED_PRODUCTS, 1));
const profileDir = process.env.BENCH_PROFILE ? path.resolve(process.env.BENCH_PROFILE) : undefined;

/** The scenarios BENCH_ONLY names, with those their ratios are measured against; all without it. */
function selectedScenarios(): Scenario[] {
  const only = (process.env.BENCH_ONLY ?? '')
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  if (!only.length) return scenarios;
  const unknown = only.filter((n) => !scenarios.some((s) => s.name === n));
  if (unknown.length) throw new Error(`BENCH_ONLY names unknown scenarios: ${unknown.join(', ')}`);
  const wanted = new Set(only);
  if (!process.env.BENCH_ALONE) for (const r of ratios) if (wanted.has(r.name)) wanted.add(r.against);
  return scenarios.filter((s) => wanted.has(s.name));
}

interface Row {
  name: string;
  request: string;
  connections: number;
  rps: number;
  /** SQL statements per request (the server's counter over the timed run; background work such as mail included) */
  stmts?: number;
  p50: number;
  p99: number;
  errors: number;
  non2xx: number;
  total: number;
}

/** The database the server will use, and how to get rid of it afterwards. */
interface BenchDatabase {
  env: Record<string, string>;
  describe: string;
  cleanup(): Promise<void>;
}

async function postgresDatabase(serverUrl: string): Promise<BenchDatabase> {
  const name = `commerce_bench_${process.pid}_${crypto.randomBytes(4).toString('hex')}`;
  const admin = new pg.Client({ connectionString: serverUrl });
  await admin.connect();
  try {
    await admin.query(`CREATE DATABASE "${name}"`);
  } finally {
    await admin.end();
  }
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  return {
    env: { DATABASE_URL: url.toString() },
    describe: `PostgreSQL (database ${name} on ${url.host}, dropped afterwards)`,
    async cleanup() {
      const c = new pg.Client({ connectionString: serverUrl });
      await c.connect();
      try {
        await c.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
      } finally {
        await c.end();
      }
    },
  };
}

function pgliteDatabase(): BenchDatabase {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'commerce-bench-'));
  return {
    env: { DATA_DIR: dir },
    describe: `embedded PGlite (temporary ${dir}, removed afterwards)`,
    async cleanup() {
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.on('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address() as net.AddressInfo;
      srv.close(() => resolve(port));
    });
  });
}

interface Server {
  child: ChildProcess;
  output: string[];
  exited: Promise<number | null>;
}

function serverEnv(port: number, dbEnv: Record<string, string>): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env };
  delete env.DATABASE_URL;
  delete env.DATA_DIR;
  return Object.assign(env, dbEnv, {
    NODE_ENV: 'development',
    DEMO: '1',
    PORT: String(port),
    HOST: '127.0.0.1',
    BENCH_ROUTES: '1',
    RATE_LIMITS: '0',
    LOG_LEVEL: 'warn',
  });
}

/** Fills the catalog with the CLI before the server starts (the embedded database admits one process at a time). */
async function generateCatalog(dbEnv: Record<string, string>): Promise<void> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/cli.ts', 'catalog:generate', '--count', String(productCount)], {
    cwd: ROOT,
    env: serverEnv(0, dbEnv),
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  const code = await new Promise<number | null>((resolve) => child.on('exit', (c) => resolve(c)));
  if (code !== 0) throw new Error(`generating the catalog failed (exit code ${code})`);
}

/** The report scenarios' orders, customers and search terms (bench/report-seed.ts), before the server starts. */
async function seedReports(dbEnv: Record<string, string>): Promise<void> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'bench/report-seed.ts'], {
    cwd: ROOT,
    env: serverEnv(0, dbEnv),
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  const code = await new Promise<number | null>((resolve) => child.on('exit', (c) => resolve(c)));
  if (code !== 0) throw new Error(`seeding the report data failed (exit code ${code})`);
}

function startServer(port: number, dbEnv: Record<string, string>): Server {
  const env = serverEnv(port, dbEnv);
  const flags = profileDir ? ['--cpu-prof', `--cpu-prof-dir=${profileDir}`] : [];
  // the compiled server, as `npm start` runs it (built from the current source first)
  const built = spawnSync(process.execPath, ['scripts/build.js'], { cwd: ROOT, stdio: 'inherit' });
  if (built.status !== 0) throw new Error('building the server failed');
  const child = spawn(process.execPath, [...flags, 'dist/main.js'], { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] });
  const output: string[] = [];
  const keep = (chunk: Buffer) => {
    output.push(chunk.toString('utf8'));
    if (output.length > 200) output.shift();
  };
  child.stdout?.on('data', keep);
  child.stderr?.on('data', keep);
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  return { child, output, exited };
}

async function stopServer(server: Server): Promise<void> {
  if (server.child.exitCode !== null || server.child.signalCode !== null) return;
  server.child.kill('SIGTERM');
  const timeout = new Promise<'timeout'>((resolve) => setTimeout(() => resolve('timeout'), 15_000).unref());
  if ((await Promise.race([server.exited, timeout])) === 'timeout') {
    server.child.kill('SIGKILL');
    await server.exited;
  }
}

async function waitReady(base: string, server: Server): Promise<void> {
  const deadline = Date.now() + 180_000;
  let exitCode: number | null | undefined;
  void server.exited.then((code) => (exitCode = code));
  while (Date.now() < deadline) {
    if (exitCode !== undefined) throw new Error(`the server exited with code ${exitCode} before it was ready`);
    try {
      const r = await fetch(`${base}/ready`);
      if (r.ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error('the server was not ready within 180 s');
}

async function tokenFor(base: string, body: Record<string, string>): Promise<string> {
  const r = await fetch(`${base}/api/rest/v2/auth/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  const reply = (await r.json()) as { token?: string };
  if (!r.ok || !reply.token) throw new Error(`could not get a token: ${r.status} ${JSON.stringify(reply)}`);
  return reply.token;
}

/** What the scenarios' placeholders and tokens stand for in this run. */
interface RunContext {
  tokens: { customer: string; admin: string };
  productId: number;
  guestCarts: string[];
  totalsCart: string;
  /** ready-to-place guest carts, each placed once (see nextOrderCart) */
  orderCarts: string[];
  /** a Magento 1 API session of the demo API user, for the legacy scenarios' `{legacySession}` */
  legacySession: string;
}

let orderCartsUsed = 0;
/** The next guest cart not yet placed: an order can be placed from a cart only once. */
function nextOrderCart(run: RunContext): string {
  if (orderCartsUsed >= run.orderCarts.length)
    throw new Error(`all ${run.orderCarts.length} prepared order carts are used: raise ORDER_CARTS_PER_SECOND`);
  return run.orderCarts[orderCartsUsed++];
}

async function postJson(base: string, path: string, body: unknown, method = 'POST', token?: string): Promise<Record<string, unknown>> {
  const headers: Record<string, string> = { 'content-type': 'application/json', accept: 'application/json' };
  if (token) headers.authorization = `Bearer ${token}`;
  const r = await fetch(`${base}/api/rest/v2${path}`, { method, headers, body: JSON.stringify(body) });
  const reply = (await r.json()) as Record<string, unknown>;
  if (!r.ok) throw new Error(`${method} ${path} failed: ${r.status} ${JSON.stringify(reply)}`);
  return reply;
}

/** Guest carts for the cart scenarios, made before the timed loop. */
async function prepareCarts(base: string): Promise<{ guestCarts: string[]; totalsCart: string }> {
  const guestCarts: string[] = [];
  for (let i = 0; i < GUEST_CARTS; i += 50) {
    const batch = await Promise.all(Array.from({ length: Math.min(50, GUEST_CARTS - i) }, () => postJson(base, '/guest-carts', {})));
    guestCarts.push(...batch.map((c) => String(c.maskedId)));
  }
  const totalsCart = String((await postJson(base, '/guest-carts', {})).maskedId);
  for (let i = 0; i < TOTALS_CART_ITEMS; i++) {
    await postJson(base, `/guest-carts/${totalsCart}/items`, { sku: `GEN-${String(101 + i).padStart(6, '0')}`, qty: 1 + (i % 3) });
  }
  const address = {
    firstName: 'Bench',
    lastName: 'Mark',
    street: ['1 Main St'],
    city: 'Los Angeles',
    postcode: '90001',
    countryId: 'US',
    region: 'CA',
    telephone: '555-0100',
  };
  await postJson(base, `/guest-carts/${totalsCart}/shipping-address`, address, 'PUT');
  await postJson(base, `/guest-carts/${totalsCart}/shipping-method`, { carrierCode: 'flatrate', methodCode: 'flatrate' }, 'PUT');
  await postJson(base, `/guest-carts/${totalsCart}/coupon`, { couponCode: 'WELCOME10' });
  return { guestCarts, totalsCart };
}

/** Guest carts holding one item and an address, for the place-order scenario (stock raised so none runs out). */
async function prepareOrderCarts(base: string, adminToken: string): Promise<string[]> {
  for (const sku of ORDER_SKUS) await postJson(base, '/inventory', { sku, qty: 99_999_999, isInStock: true }, 'PUT', adminToken);
  const address = {
    firstName: 'Bench',
    lastName: 'Order',
    street: ['1 Main St'],
    city: 'Austin',
    postcode: '73301',
    countryId: 'US',
    region: 'TX',
    telephone: '555-0100',
  };
  const count = Math.ceil(ORDER_CARTS_PER_SECOND * (duration + warmup));
  const out: string[] = [];
  for (let i = 0; i < count; i += 50) {
    out.push(
      ...(await Promise.all(
        Array.from({ length: Math.min(50, count - i) }, async (_, j) => {
          const m = String((await postJson(base, '/guest-carts', {})).maskedId);
          await postJson(base, `/guest-carts/${m}/items`, { sku: ORDER_SKUS[(i + j) % ORDER_SKUS.length], qty: 1 });
          await postJson(base, `/guest-carts/${m}/shipping-address`, address, 'PUT');
          return m;
        }),
      )),
    );
  }
  return out;
}

async function runContext(base: string): Promise<RunContext> {
  const tokens = { customer: await tokenFor(base, DEMO_CUSTOMER), admin: await tokenFor(base, DEMO_API_USER) };
  const r = await fetch(`${base}/api/rest/v2/products?sku=${DETAIL_SKU}`, { headers: { accept: 'application/json' } });
  const [product] = (await r.json()) as { id: number }[];
  if (!product) throw new Error(`the demo product ${DETAIL_SKU} is not in the catalog`);
  const orderCarts = scenariosToRun.some((s) => s.path.includes('{orderCart}')) ? await prepareOrderCarts(base, tokens.admin) : [];
  const login = await fetch(`${base}/api/jsonrpc/`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ jsonrpc: '2.0', method: 'login', params: [DEMO_API_USER.username, DEMO_API_USER.api_key], id: 1 }),
  });
  const legacy = (await login.json()) as { result?: string };
  if (typeof legacy.result !== 'string') throw new Error(`the Magento 1 API login failed: ${JSON.stringify(legacy)}`);
  return { tokens, productId: product.id, ...(await prepareCarts(base)), orderCarts, legacySession: legacy.result };
}

function pathOf(s: Scenario, run: RunContext): string {
  return fill(s.path, run);
}

/** Fills a path's or a body's placeholders (a GraphQL body names its cart or product in the query). */
function fill(text: string, run: RunContext): string {
  return text
    .replace('{productId}', String(run.productId))
    .replace('{guestCart}', () => run.guestCarts[Math.floor(Math.random() * run.guestCarts.length)])
    .replace('{totalsCart}', run.totalsCart)
    .replace('{orderCart}', () => nextOrderCart(run))
    .replace('{legacySession}', run.legacySession)
    .replace('{page}', () => String(1 + Math.floor(Math.random() * GRID_PAGES)))
    .replace('{n}', () => String(1 + Math.floor(Math.random() * REPORT_ORDERS)));
}

function requestOptions(s: Scenario, run: RunContext) {
  const headers: Record<string, string> = { accept: 'application/json', ...(s.headers ?? {}) };
  if (s.auth) headers.authorization = `Bearer ${run.tokens[s.auth]}`;
  // a string body (a SOAP envelope) is sent as it is, as XML; anything else as JSON
  const raw = typeof s.body === 'string';
  if (s.body !== undefined) headers['content-type'] ??= raw ? 'text/xml; charset=utf-8' : 'application/json';
  const body = () =>
    fill(raw ? (s.body as string) : JSON.stringify(typeof s.body === 'function' ? (s.body as () => unknown)() : s.body), run);
  return { method: s.method, headers, body: s.body === undefined ? undefined : body };
}

/** The server's count of SQL statements sent so far (GET /bench/statements); undefined when it has none. */
async function statementCount(base: string): Promise<number | undefined> {
  try {
    const r = await fetch(`${base}/bench/statements`);
    if (!r.ok) return undefined;
    const { statements } = (await r.json()) as { statements?: number };
    return typeof statements === 'number' ? statements : undefined;
  } catch {
    return undefined;
  }
}

async function measure(base: string, s: Scenario, run: RunContext, seconds: number): Promise<autocannon.Result> {
  const { method, headers, body } = requestOptions(s, run);
  const result = await autocannon({
    url: `${base}${pathOf(s, run)}`,
    connections: s.connections ?? connections,
    duration: seconds,
    method,
    headers,
    // a body (and path) per request, so that scenarios with a body function or a per-request cart spread their writes
    requests:
      body || /\{(guestCart|orderCart|page|n)\}/.test(s.path)
        ? [{ setupRequest: (req) => ({ ...req, path: pathOf(s, run), ...(body ? { body: body() } : {}) }) }]
        : undefined,
  });
  await settle(base, s, run);
  return result;
}

/**
 * autocannon stops at the deadline with requests still in flight; the server keeps working on them. One more
 * request of the same kind queues behind them, so its answer means the backlog is gone and the next run
 * starts on an idle server.
 */
async function settle(base: string, s: Scenario, run: RunContext): Promise<void> {
  const { method, headers, body } = requestOptions(s, run);
  const r = await fetch(`${base}${pathOf(s, run)}`, { method, headers, body: body?.(), signal: AbortSignal.timeout(120_000) });
  await r.arrayBuffer();
}

/**
 * Waits until the server sends no more statements (two readings half a second apart agree; at most a minute):
 * the background work a write scenario leaves behind (the mail its orders queued) is done, counted as that
 * scenario's, and does not slow the next one down.
 */
async function quiesce(base: string): Promise<void> {
  let last = await statementCount(base);
  const started = Date.now();
  while (last !== undefined && Date.now() - started < 60_000) {
    await new Promise((r) => setTimeout(r, 500));
    const now = await statementCount(base);
    if (now === last) return;
    last = now;
  }
}

function pad(cells: string[], widths: number[]): string {
  return cells.map((c, i) => (i === 0 || i === 1 ? c.padEnd(widths[i]) : c.padStart(widths[i]))).join('  ');
}

function printTable(rows: Row[]): void {
  const header = ['scenario', 'request', 'conns', 'req/s', 'p50 ms', 'p99 ms', 'stmts/req', 'errors', 'non-2xx'];
  const cells = rows.map((r) => [
    r.name,
    r.request,
    String(r.connections),
    r.rps.toFixed(0),
    r.p50.toFixed(1),
    r.p99.toFixed(1),
    r.stmts === undefined ? '-' : r.stmts.toFixed(1),
    String(r.errors),
    String(r.non2xx),
  ]);
  const widths = header.map((h, i) => Math.max(h.length, ...cells.map((c) => c[i].length)));
  console.log(pad(header, widths));
  console.log(widths.map((w) => '-'.repeat(w)).join('  '));
  for (const c of cells) console.log(pad(c, widths));
}

function printRatios(rows: Row[]): boolean {
  let allMet = true;
  console.log('');
  for (const r of ratios) {
    const a = rows.find((x) => x.name === r.name);
    const b = rows.find((x) => x.name === r.against);
    if (!a || !b || !b.rps) continue;
    const share = a.rps / b.rps;
    const met = share >= r.target;
    allMet &&= met;
    console.log(
      `${`${r.name} / ${r.against}`.padEnd(28)} ${(share * 100).toFixed(1).padStart(5)} %   (target >= ${(r.target * 100).toFixed(0)} %: ${met ? 'met' : 'MISSED'})`,
    );
  }
  return allMet;
}

const scenariosToRun = selectedScenarios();

async function main(): Promise<number> {
  const database = process.env.DATABASE_URL ? await postgresDatabase(process.env.DATABASE_URL) : pgliteDatabase();
  let server: Server | undefined;
  const onSignal = () => {
    server?.child.kill('SIGKILL');
    void database.cleanup().finally(() => process.exit(130));
  };
  process.once('SIGINT', onSignal);
  process.once('SIGTERM', onSignal);
  // an error thrown inside autocannon's request building (no order cart left) escapes every await: stop the
  // server and drop the database before exiting rather than leave them running
  const onCrash = (err: unknown) => {
    console.error(err);
    server?.child.kill('SIGKILL');
    void database.cleanup().finally(() => process.exit(1));
  };
  process.once('uncaughtException', onCrash);
  try {
    const port = await freePort();
    const base = `http://127.0.0.1:${port}`;
    console.log(`Database:    ${database.describe}`);
    console.log(
      `Load:        ${connections} connections (reports: their own, see conns), ${duration} s per scenario (+${warmup} s warm-up), node ${process.version}, ${os.cpus().length} CPUs`,
    );
    console.log(`Catalog:     ${productCount} generated products plus the demo catalog`);
    await generateCatalog(database.env);
    if (scenariosToRun.some((s) => REPORT_SCENARIOS.includes(s.name))) await seedReports(database.env);
    server = startServer(port, database.env);
    await waitReady(base, server);
    const run = await runContext(base);
    console.log('');

    const rows: Row[] = [];
    for (const s of scenariosToRun) {
      if (warmup > 0) await measure(base, s, run, warmup);
      // counted from the end of the warm-up to the end of the timed run's backlog (measure settles it): every
      // request sent in the timed run, plus the settling one, ran its statements in between
      const before = await statementCount(base);
      const r = await measure(base, s, run, duration);
      if (s.method !== 'GET') await quiesce(base);
      const after = await statementCount(base);
      const served = r.requests.sent + 1;
      rows.push({
        name: s.name,
        request: `${s.method} ${pathOf(s, run)}`,
        connections: s.connections ?? connections,
        rps: r.requests.average,
        stmts: before === undefined || after === undefined ? undefined : (after - before) / served,
        p50: r.latency.p50,
        p99: r.latency.p99,
        errors: r.errors,
        non2xx: r.non2xx,
        total: r.requests.total,
      });
      process.stderr.write(`  done: ${s.name}\n`);
    }
    console.log('');
    printTable(rows);
    printRatios(rows);
    const unmeasured = rows.filter((r) => r.total === 0);
    if (unmeasured.length) {
      console.log(
        `\nNo request of ${unmeasured.map((r) => r.name).join(', ')} completed within ${duration} s: raise BENCH_DURATION or lower BENCH_CONNECTIONS.`,
      );
    }
    const failed = rows.filter((r) => r.errors > 0 || r.non2xx > 0);
    if (failed.length) {
      console.error(
        `\nScenarios with errors or non-2xx replies (their numbers do not measure the route): ${failed.map((r) => r.name).join(', ')}`,
      );
      return 1;
    }
    return 0;
  } finally {
    if (server) {
      const wasRunning = server.child.exitCode === null && server.child.signalCode === null;
      await stopServer(server);
      // a server that died on its own, or did not stop cleanly, shows what it said
      if (!wasRunning || server.child.exitCode) {
        process.stderr.write(`server output (exit code ${server.child.exitCode ?? server.child.signalCode}):\n${server.output.join('')}`);
      }
    }
    await database.cleanup();
    process.off('SIGINT', onSignal);
    process.off('uncaughtException', onCrash);
    process.off('SIGTERM', onSignal);
  }
}

main().then(
  (code) => process.exit(code),
  (err) => {
    console.error(err instanceof Error ? err.message : err);
    process.exit(1);
  },
);
