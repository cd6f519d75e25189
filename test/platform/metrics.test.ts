/**
 * GET /metrics: the Prometheus families (requests by route pattern, database, outbox backlog, process), and who
 * may read them: open outside production, the bearer token when METRICS_TOKEN is set, a 404 in production
 * without token or port, and a listener of its own with METRICS_PORT.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import net from 'node:net';
import { sql } from 'drizzle-orm';
import type { BuiltApp } from '../../src/app.js';
import { ConfigError, loadConfig } from '../../src/platform/config.js';
import { API, buildSecondApp, buildTestApp, type TestApp } from '../helpers.js';

const PRODUCTION = { NODE_ENV: 'production', JWT_SECRET: 'production-secret-for-tests-0123456789abcdef', RATE_LIMITS: '1', DEMO: '0' };
const TOKEN = 'metrics-token-for-tests-0123';

let t: TestApp;
before(async () => {
  t = await buildTestApp();
});
after(async () => {
  await t.close();
});

async function scrape(app: BuiltApp['app'], headers: Record<string, string> = {}) {
  return app.inject({ method: 'GET', url: '/metrics', headers });
}

/** a port nothing listens on right now */
async function freePort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/** the value of one sample line, e.g. `outbox_mail_pending 2` */
function sample(text: string, series: string): number | undefined {
  const line = text.split('\n').find((l) => l.startsWith(`${series} `));
  return line === undefined ? undefined : Number(line.slice(series.length + 1));
}

describe('metrics families', () => {
  test('requests by route pattern and status, database, outbox, process', async () => {
    // mail waiting for a later attempt (the sender leaves it alone until then)
    const pending = () =>
      t.database.db.execute(
        sql`INSERT INTO mail_outbox (to_address, subject, text_body, template, status, next_attempt_at, created_at)
            VALUES ('a@example.com', 's', 't', 'test/metrics', 'pending', now() + interval '1 hour', now() - interval '90 seconds')`,
      );
    await pending();
    await pending();

    assert.equal((await t.req('GET', `${API}/products/987654`)).status, 404);
    assert.equal((await t.req('GET', `${API}/products/987655`)).status, 404);
    assert.equal((await t.req('GET', '/no/such/path/31337')).status, 404);
    assert.equal((await t.req('GET', '/health')).status, 200);

    const r = await scrape(t.app);
    assert.equal(r.statusCode, 200);
    assert.match(String(r.headers['content-type']), /^text\/plain; version=0\.0\.4/);
    const text = r.body;

    const product = 'method="GET",route="/api/rest/v2/products/:id",status_code="404"';
    assert.equal(sample(text, `http_requests_total{${product}}`), 2);
    assert.equal(sample(text, `http_request_duration_seconds_count{${product}}`), 2);
    assert.equal(sample(text, `http_request_duration_seconds_bucket{${product},le="+Inf"}`), 2);
    assert.ok(sample(text, `http_request_duration_seconds_sum{${product}}`)! > 0);
    assert.equal(sample(text, 'http_requests_total{method="GET",route="/health",status_code="200"}'), 1);
    // paths no route matched share one label; raw paths and ids never become labels
    assert.equal(sample(text, 'http_requests_total{method="GET",route="unmatched",status_code="404"}'), 1);
    assert.doesNotMatch(text, /987654|31337/);
    assert.match(text, /# TYPE http_request_duration_seconds histogram/);
    assert.match(text, /# TYPE http_requests_total counter/);

    assert.ok(sample(text, `db_statements_total{driver="${t.database.kind}"}`)! > 0);
    if (t.database.kind === 'postgres') {
      assert.ok(sample(text, 'db_pool_connections{pool="main"}')! >= 1);
      assert.notEqual(sample(text, 'db_pool_connections_idle{pool="main"}'), undefined);
      assert.equal(sample(text, 'db_pool_clients_waiting{pool="main"}'), 0);
      assert.equal(sample(text, 'db_pool_connections_max{pool="main"}'), 10);
    } else {
      assert.doesNotMatch(text, /db_pool_/);
    }

    assert.equal(sample(text, 'outbox_mail_pending'), 2);
    assert.ok(sample(text, 'outbox_mail_oldest_pending_seconds')! >= 89);

    assert.match(text, /^nodejs_eventloop_lag_seconds \d/m);
    assert.match(text, /^process_resident_memory_bytes \d/m);
    assert.match(text, /^nodejs_heap_size_used_bytes \d/m);

    // the backlog is read at most every few seconds, however often scrapes come
    await pending();
    const again = await scrape(t.app);
    assert.equal(sample(again.body, 'outbox_mail_pending'), 2);
    // the scrape before counts itself
    assert.equal(sample(again.body, 'http_requests_total{method="GET",route="/metrics",status_code="200"}'), 1);
  });

  test('a scrape asking for gzip gets it', async () => {
    const r = await t.app.inject({ method: 'GET', url: '/metrics', headers: { 'accept-encoding': 'gzip' } });
    assert.equal(r.statusCode, 200);
    assert.equal(r.headers['content-encoding'], 'gzip');
  });
});

describe('who may read /metrics', () => {
  test('outside production with METRICS_TOKEN: the token is required', async () => {
    const app = await buildSecondApp(t, { METRICS_TOKEN: TOKEN });
    try {
      const anonymous = await scrape(app.app);
      assert.equal(anonymous.statusCode, 401);
      assert.equal(anonymous.headers['www-authenticate'], 'Bearer realm="metrics"');
      assert.doesNotMatch(anonymous.body, /http_requests_total/);
      assert.equal((await scrape(app.app, { authorization: `Bearer ${TOKEN}x` })).statusCode, 401);
      assert.equal((await scrape(app.app, { authorization: `Basic ${TOKEN}` })).statusCode, 401);
      const ok = await scrape(app.app, { authorization: `Bearer ${TOKEN}` });
      assert.equal(ok.statusCode, 200);
      assert.match(ok.body, /http_requests_total/);
    } finally {
      await app.app.close();
    }
  });

  test('production refuses anonymous callers and accepts the token', async () => {
    const app = await buildSecondApp(t, { ...PRODUCTION, METRICS_TOKEN: TOKEN });
    try {
      assert.equal((await scrape(app.app)).statusCode, 401);
      const ok = await scrape(app.app, { authorization: `bearer ${TOKEN}` });
      assert.equal(ok.statusCode, 200);
      assert.match(ok.body, /nodejs_eventloop_lag_seconds/);
    } finally {
      await app.app.close();
    }
  });

  test('production with neither METRICS_TOKEN nor METRICS_PORT: not served (404)', async () => {
    const app = await buildSecondApp(t, PRODUCTION);
    try {
      const r = await scrape(app.app);
      assert.equal(r.statusCode, 404);
      assert.deepEqual(r.json(), { error: 'not_found', message: 'Not Found', code: 404 });
    } finally {
      await app.app.close();
    }
  });

  test('METRICS_PORT: served on its own listener, not on the main port', async () => {
    const port = await freePort();
    const app = await buildSecondApp(t, { ...PRODUCTION, METRICS_PORT: String(port), HOST: '127.0.0.1' });
    try {
      await app.app.ready();
      assert.equal((await scrape(app.app)).statusCode, 404);
      await app.app.inject({ method: 'GET', url: '/health' });
      const r = await fetch(`http://127.0.0.1:${port}/metrics`);
      assert.equal(r.status, 200);
      assert.match(r.headers.get('content-type') ?? '', /^text\/plain; version=0\.0\.4/);
      const text = await r.text();
      assert.equal(sample(text, 'http_requests_total{method="GET",route="/health",status_code="200"}'), 1);
      assert.equal((await fetch(`http://127.0.0.1:${port}/other`)).status, 404);
    } finally {
      await app.app.close();
    }
    // closed with the app
    await assert.rejects(fetch(`http://127.0.0.1:${port}/metrics`));
  });

  test('METRICS_PORT with METRICS_TOKEN: the token is asked there too', async () => {
    const port = await freePort();
    const app = await buildSecondApp(t, { METRICS_PORT: String(port), METRICS_TOKEN: TOKEN, HOST: '127.0.0.1' });
    try {
      await app.app.ready();
      assert.equal((await fetch(`http://127.0.0.1:${port}/metrics`)).status, 401);
      const ok = await fetch(`http://127.0.0.1:${port}/metrics`, { headers: { authorization: `Bearer ${TOKEN}` } });
      assert.equal(ok.status, 200);
      await ok.text();
    } finally {
      await app.app.close();
    }
  });
});

test('METRICS_TOKEN, METRICS_PORT and OTEL_EXPORTER_OTLP_ENDPOINT are checked at start', () => {
  const problems = (env: Record<string, string>) => {
    try {
      loadConfig(env);
      return [];
    } catch (err) {
      assert.ok(err instanceof ConfigError);
      return err.problems;
    }
  };
  assert.deepEqual(problems({ METRICS_TOKEN: 'short' }), ['METRICS_TOKEN must be at least 16 characters without spaces']);
  assert.deepEqual(problems({ METRICS_TOKEN: 'sixteen chars with spaces' }), [
    'METRICS_TOKEN must be at least 16 characters without spaces',
  ]);
  assert.deepEqual(problems({ METRICS_PORT: '8080' }), ['METRICS_PORT must differ from PORT']);
  assert.deepEqual(problems({ METRICS_PORT: '70000' }), ['METRICS_PORT must be between 1 and 65535, got 70000']);
  assert.deepEqual(problems({ OTEL_EXPORTER_OTLP_ENDPOINT: 'grpc://collector:4317' }), [
    'OTEL_EXPORTER_OTLP_ENDPOINT must use http: or https:, got "grpc:"',
  ]);
  const ok = loadConfig({ METRICS_TOKEN: TOKEN, METRICS_PORT: '9464', OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318' });
  assert.equal(ok.metricsToken, TOKEN);
  assert.equal(ok.metricsPort, 9464);
  assert.equal(ok.otlpEndpoint, 'http://collector:4318');
});
