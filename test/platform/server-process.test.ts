/**
 * The compiled server as `npm start` runs it, in real processes on real sockets: it starts and answers; a client
 * that trickles its request is cut off at REQUEST_TIMEOUT; SIGTERM lets a request in flight finish; WORKERS=2
 * serves from two processes and replaces one killed with SIGKILL; a token of one server is good on another
 * that listens on another port; webhooks made on two workers are delivered once each, and a delivery cut short
 * by SIGKILL is made after a restart.
 */
import assert from 'node:assert/strict';
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { API, buildSecondApp, buildTestApp, postgresDatabase } from '../helpers.js';
import { startReceiver } from '../fixtures/webhooks.js';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const PG_SERVER = process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
/** the bundle of the current source, built for this file alone (dist/ itself may be older) */
const OUT_DIR = path.join(ROOT, 'dist', `test-${process.pid}`);
const MAIN = path.join(OUT_DIR, 'main.js');

before(() => {
  const r = spawnSync(process.execPath, ['scripts/build.js', MAIN], { cwd: ROOT, encoding: 'utf8' });
  assert.equal(r.status, 0, r.stderr);
});
after(() => fs.rmSync(OUT_DIR, { recursive: true, force: true }));

interface Server {
  proc: ChildProcess;
  port: number;
  output: () => string;
  exited: Promise<number | null>;
}

/** Starts the compiled server with `env` and waits for its banner (PORT=0: a free port). */
async function start(env: Record<string, string>): Promise<Server> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'commerce-proc-'));
  const proc = spawn(process.execPath, [MAIN], {
    cwd: ROOT,
    env: {
      PATH: process.env.PATH,
      PORT: '0',
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      DEMO_CATALOG: '0',
      LOG_LEVEL: 'warn',
      RATE_LIMITS: '0',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  proc.stdout!.on('data', (d) => (out += d));
  proc.stderr!.on('data', (d) => (out += d));
  const exited = new Promise<number | null>((resolve) =>
    proc.on('exit', (code) => {
      fs.rmSync(dataDir, { recursive: true, force: true });
      resolve(code);
    }),
  );
  const port = await new Promise<number>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no banner within 60 s:\n${out}`)), 60_000);
    const look = () => {
      const m = /listening on http:\/\/[^:]+:(\d+)/.exec(out);
      if (m) {
        clearTimeout(timer);
        resolve(Number(m[1]));
      }
    };
    proc.stdout!.on('data', look);
    proc.on('exit', (code) => reject(new Error(`server exited with ${code}:\n${out}`)));
  });
  return { proc, port, output: () => out, exited };
}

/** A GET on a connection of its own (no keep-alive), so that each request may reach another worker. */
function get(port: number, url: string): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = http.get({ host: '127.0.0.1', port, path: url, agent: false, headers: { accept: 'application/json' } }, (res) => {
      let body = '';
      res.on('data', (d) => (body += d));
      res.on('end', () => resolve({ status: res.statusCode!, body }));
    });
    req.on('error', reject);
  });
}

const pidOf = async (port: number) => JSON.parse((await get(port, '/health')).body).process as number;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Opens a POST whose body of `length` bytes is sent later by the caller; resolves the socket and its answer. */
function partialPost(port: number, url: string, length: number) {
  const socket = net.connect(port, '127.0.0.1');
  let received = '';
  socket.on('data', (d) => (received += d));
  const closed = new Promise<string>((resolve) => socket.on('close', () => resolve(received)));
  socket.on('error', () => undefined);
  socket.write(
    `POST ${url} HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\nContent-Length: ${length}\r\nConnection: close\r\n\r\n`,
  );
  return { socket, closed };
}

describe('the compiled server on the embedded database', () => {
  let s: Server;
  before(async () => {
    s = await start({ REQUEST_TIMEOUT: '1500', HEADERS_TIMEOUT: '1000', SHUTDOWN_TIMEOUT: '10000' });
  });
  after(async () => {
    s.proc.kill('SIGKILL');
    await s.exited;
  });

  test('starts from dist/ with plain node and answers REST and GraphQL', async () => {
    assert.equal((await get(s.port, '/health')).status, 200);
    const list = await get(s.port, `${API}/products?pageSize=1`);
    assert.equal(list.status, 200, list.body);
    assert.ok(Array.isArray(JSON.parse(list.body)));
    const gql = await get(s.port, `/api/graphql?query=${encodeURIComponent('{ currentStoreConfig { storeCode } }')}`);
    assert.equal(JSON.parse(gql.body).data.currentStoreConfig.storeCode, 'default');
  });

  test('a client that sends its body a byte at a time is cut off at REQUEST_TIMEOUT', async () => {
    const started = Date.now();
    const { socket, closed } = partialPost(s.port, `${API}/guest-carts`, 1000);
    const drip = setInterval(() => socket.writable && socket.write(' '), 300);
    const answer = await closed;
    clearInterval(drip);
    const took = Date.now() - started;
    // 1.5 s of timeout, checked every second; the body would have taken 300 s
    assert.ok(took < 5000, `closed after ${took} ms`);
    assert.ok(took >= 1400, `closed after ${took} ms`);
    assert.match(answer, /^HTTP\/1\.1 408/);
    assert.equal((await get(s.port, '/health')).status, 200);
  });

  test('SIGTERM: a request in flight is answered, then the process exits 0', async () => {
    const body = '{}';
    const { socket, closed } = partialPost(s.port, `${API}/guest-carts`, body.length);
    await sleep(200);
    s.proc.kill('SIGTERM');
    await sleep(300);
    socket.write(body);
    const answer = await closed;
    assert.match(answer, /^HTTP\/1\.1 201/, answer);
    assert.equal(await s.exited, 0);
  });
});

/** A port free now (for a second listener of a server). */
function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const srv = net.createServer().listen(0, '127.0.0.1', () => {
      const port = (srv.address() as net.AddressInfo).port;
      srv.close(() => resolve(port));
    });
  });
}

describe('WORKERS=2 on PostgreSQL', () => {
  let s: Server;
  let drop: () => Promise<void>;
  let metricsPort: number;
  before(async () => {
    const made = await postgresDatabase(PG_SERVER);
    await made.database.close();
    drop = made.drop;
    metricsPort = await freePort();
    s = await start({ WORKERS: '2', DATABASE_URL: made.url, DATABASE_POOL_MAX: '4', METRICS_PORT: String(metricsPort) });
  });
  after(async () => {
    s.proc.kill('SIGKILL');
    await s.exited;
    await drop();
  });

  /** The process ids seen over `n` requests. */
  async function pids(n: number): Promise<Set<number>> {
    const seen = new Set<number>();
    for (let i = 0; i < n; i++) seen.add(await pidOf(s.port));
    return seen;
  }

  test('both workers answer; one killed with SIGKILL is replaced while the other keeps answering', async () => {
    // the second worker starts after the first listens
    let seen = new Set<number>();
    for (let i = 0; i < 100 && seen.size < 2; i++) {
      for (const p of await pids(4)) seen.add(p);
      if (seen.size < 2) await sleep(100);
    }
    assert.equal(seen.size, 2, 'two process ids');
    assert.ok(!seen.has(s.proc.pid!), 'the primary serves nothing itself');
    const [victim, survivor] = [...seen];
    process.kill(victim!, 'SIGKILL');
    // until the primary has seen the worker die it may still hand it a connection, which then waits forever
    for (let i = 0; i < 200 && !/worker stopped: starting another/.test(s.output()); i++) await sleep(50);
    assert.match(s.output(), /worker stopped: starting another/);
    for (let i = 0; i < 10; i++) assert.equal((await get(s.port, `${API}/store-config`)).status, 200);
    let replacement: number | undefined;
    for (let i = 0; i < 100 && !replacement; i++) {
      for (const p of await pids(4)) if (p !== survivor && p !== victim) replacement = p;
      if (!replacement) await sleep(100);
    }
    assert.ok(replacement, `a new worker: ${s.output()}`);
  });

  test("METRICS_PORT: the primary answers the workers' figures added up", async () => {
    const before = await get(metricsPort, '/metrics');
    assert.equal(before.status, 200, before.body);
    const count = (text: string) =>
      text
        .split('\n')
        .filter((l) => l.startsWith('http_requests_total{') && l.includes('route="/api/rest/v2/store-config"'))
        .reduce((n, l) => n + Number(l.split(' ').pop()), 0);
    for (let i = 0; i < 6; i++) assert.equal((await get(s.port, `${API}/store-config`)).status, 200);
    const after = await get(metricsPort, '/metrics');
    assert.equal(count(after.body) - count(before.body), 6);
    assert.equal((await get(s.port, '/metrics')).status, 404, 'not on the main port');
  });

  test('webhooks: events made on both workers are each delivered once', async () => {
    const receiver = await startReceiver();
    try {
      const token = (
        await send(s.port, 'POST', `${API}/auth/token`, { grant_type: 'api_user', username: 'demo-admin', api_key: 'demo-admin-key' })
      ).body.token;
      assert.equal(
        (await send(s.port, 'POST', `${API}/webhooks`, { url: receiver.url('/workers'), events: ['stock.changed'] }, token)).status,
        201,
      );
      assert.equal((await send(s.port, 'POST', `${API}/products`, { sku: 'hooked-1', name: 'Hooked', price: 1 }, token)).status, 201);
      const n = 20;
      await Promise.all(
        Array.from({ length: n }, (_, i) => send(s.port, 'PUT', `${API}/inventory`, { sku: 'hooked-1', qty: 10 + i }, token)),
      );
      // each update sets another qty: one event each
      const got = await receiver.waitFor(n, '/workers', 20_000);
      await sleep(500);
      const ids = receiver.received.filter((r) => r.path === '/workers').map((r) => r.headers['webhook-id']);
      assert.equal(ids.length, n, 'nothing twice');
      assert.equal(new Set(ids).size, n);
      assert.ok(got.every((r) => JSON.parse(r.body).data.sku === 'hooked-1'));
    } finally {
      await receiver.close();
    }
  });

  test('SIGTERM on the primary stops every worker and exits 0', async () => {
    const workers = await pids(8);
    s.proc.kill('SIGTERM');
    assert.equal(await s.exited, 0);
    for (const pid of workers) assert.throws(() => process.kill(pid, 0), 'worker gone');
  });
});

describe('tokens across servers', () => {
  test('a token issued by a server on one port is accepted by another on another port', async () => {
    const a = await buildTestApp({ env: { PORT: '8081', PUBLIC_URL: '' } });
    const b = await buildSecondApp(a, { PORT: '8082', PUBLIC_URL: '' });
    try {
      const token = await a.tokens.customer();
      const r = await b.app.inject({ method: 'GET', url: `${API}/customers/me`, headers: { authorization: `Bearer ${token}` } });
      assert.equal(r.statusCode, 200, r.body);
      assert.equal(a.services.config.jwtIssuer, b.services.config.jwtIssuer);
    } finally {
      await b.app.close();
      await a.close();
    }
  });
});

/** A JSON request on a connection of its own. */
function send(port: number, method: string, url: string, body: unknown, token?: string): Promise<{ status: number; body: any }> {
  return new Promise((resolve, reject) => {
    const payload = JSON.stringify(body);
    const req = http.request(
      {
        host: '127.0.0.1',
        port,
        method,
        path: url,
        agent: false,
        headers: { 'content-type': 'application/json', accept: 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
      },
      (res) => {
        let text = '';
        res.on('data', (d) => (text += d));
        res.on('end', () => resolve({ status: res.statusCode!, body: text ? JSON.parse(text) : undefined }));
      },
    );
    req.on('error', reject);
    req.end(payload);
  });
}

describe('webhooks across a crash', () => {
  test('a server killed with SIGKILL mid-delivery has the delivery made after a restart', async () => {
    const receiver = await startReceiver();
    const made = await postgresDatabase(PG_SERVER);
    await made.database.close();
    const env = { DATABASE_URL: made.url, WEBHOOK_TIMEOUT: '1000', WEBHOOK_POLL: '100' };
    let s = await start(env);
    try {
      const token = (
        await send(s.port, 'POST', `${API}/auth/token`, { grant_type: 'api_user', username: 'demo-admin', api_key: 'demo-admin-key' })
      ).body.token;
      assert.equal(
        (await send(s.port, 'POST', `${API}/webhooks`, { url: receiver.url('/crash'), events: ['product.created'] }, token)).status,
        201,
      );
      // the receiver takes the first attempt and never answers: the server dies with it in flight
      receiver.answer('/crash', 'hang');
      const product = await send(s.port, 'POST', `${API}/products`, { sku: 'crash-1', name: 'Crash', price: 1 }, token);
      assert.equal(product.status, 201, JSON.stringify(product.body));
      const [first] = await receiver.waitFor(1, '/crash');
      s.proc.kill('SIGKILL');
      await s.exited;
      receiver.answer('/crash', 200);
      s = await start(env);
      const got = await receiver.waitFor(2, '/crash', 20_000);
      assert.equal(got[1].headers['webhook-id'], first.headers['webhook-id']);
      assert.equal(got[1].body, first.body);
      assert.equal(JSON.parse(got[1].body).data.sku, 'crash-1');
      const token2 = (
        await send(s.port, 'POST', `${API}/auth/token`, { grant_type: 'api_user', username: 'demo-admin', api_key: 'demo-admin-key' })
      ).body.token;
      let status = '';
      for (let i = 0; i < 50 && status !== 'succeeded'; i++) {
        const list = await send(s.port, 'GET', `${API}/webhooks/1/deliveries`, undefined, token2);
        status = list.body[0]?.status;
        if (status !== 'succeeded') await sleep(100);
      }
      assert.equal(status, 'succeeded');
    } finally {
      s.proc.kill('SIGKILL');
      await s.exited;
      await receiver.close();
      await made.drop();
    }
  });
});
