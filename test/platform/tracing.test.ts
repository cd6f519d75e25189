/**
 * OpenTelemetry: off without OTEL_EXPORTER_OTLP_ENDPOINT; with it, a request to the listening server arrives at
 * an OTLP/HTTP receiver as a server span named by its route pattern (and, on PostgreSQL, with statement spans
 * in the same trace). The receiver runs on a worker thread, whose `http` module the instrumentation does not
 * patch, so it records only the app's spans.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { Worker } from 'node:worker_threads';
import { trace } from '@opentelemetry/api';
import { startTracing, type Tracing } from '../../src/platform/tracing.js';
import { API, buildTestApp, type TestApp } from '../helpers.js';

interface OtlpSpan {
  traceId: string;
  spanId: string;
  parentSpanId?: string;
  name: string;
  kind: number;
  attributes: { key: string; value: Record<string, unknown> }[];
}
interface OtlpExport {
  resourceSpans: { resource: { attributes: OtlpSpan['attributes'] }; scopeSpans: { scope: { name: string }; spans: OtlpSpan[] }[] }[];
}

const RECEIVER = `
const http = require('node:http');
const { parentPort } = require('node:worker_threads');
const server = http.createServer((req, res) => {
  const chunks = [];
  req.on('data', (c) => chunks.push(c));
  req.on('end', () => {
    parentPort.postMessage({ path: req.url, type: req.headers['content-type'], body: Buffer.concat(chunks).toString('utf8') });
    res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
  });
});
server.listen(0, '127.0.0.1', () => parentPort.postMessage({ port: server.address().port }));
parentPort.on('message', () => server.close(() => process.exit(0)));
`;

let receiver: Worker;
const exports: { path: string; type: string; body: OtlpExport }[] = [];
let tracing: Tracing | undefined;
let t: TestApp;

before(async () => {
  // off: nothing registered, spans are not recorded
  assert.equal(await startTracing(), undefined);
  assert.equal(trace.getTracer('test').startSpan('probe').isRecording(), false);

  receiver = new Worker(RECEIVER, { eval: true });
  const port = await new Promise<number>((resolve, reject) => {
    receiver.on('message', (m: { port?: number; path?: string; type?: string; body?: string }) => {
      if (m.port) resolve(m.port);
      else exports.push({ path: m.path!, type: m.type!, body: JSON.parse(m.body!) as OtlpExport });
    });
    receiver.once('error', reject);
  });
  process.env.OTEL_EXPORTER_OTLP_ENDPOINT = `http://127.0.0.1:${port}`;
  process.env.OTEL_SERVICE_NAME = 'commerce-api-test';
  tracing = await startTracing();
  assert.ok(tracing);
  t = await buildTestApp();
  await t.app.listen({ port: 0, host: '127.0.0.1' });
});
after(async () => {
  await t?.close();
  await tracing?.shutdown();
  receiver?.postMessage('stop');
  delete process.env.OTEL_EXPORTER_OTLP_ENDPOINT;
});

function spans(): { span: OtlpSpan; service: unknown }[] {
  return exports.flatMap((e) =>
    e.body.resourceSpans.flatMap((rs) => {
      const service = rs.resource.attributes.find((a) => a.key === 'service.name')?.value.stringValue;
      return rs.scopeSpans.flatMap((ss) => ss.spans.map((span) => ({ span, service })));
    }),
  );
}

function attr(span: OtlpSpan, key: string): unknown {
  const v = span.attributes.find((a) => a.key === key)?.value;
  return v && (v.stringValue ?? v.intValue);
}

async function waitFor<T>(find: () => T | undefined, what: string): Promise<T> {
  const until = Date.now() + 10_000;
  for (;;) {
    await tracing!.forceFlush();
    const found = find();
    if (found !== undefined) return found;
    if (Date.now() > until) throw new Error(`no ${what} arrived; got ${JSON.stringify(spans().map((s) => s.span.name))}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

test('a request arrives as a server span named by its route, over OTLP/HTTP JSON', async () => {
  const { port } = t.app.server.address() as { port: number };
  const traceparent = '00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01';
  const r = await fetch(`http://127.0.0.1:${port}${API}/products/987654`, { headers: { traceparent } });
  assert.equal(r.status, 404);
  await r.text();
  // probes are not traced
  await (await fetch(`http://127.0.0.1:${port}/health`)).text();

  const { span, service } = await waitFor(
    () => spans().find((s) => s.span.kind === 2 && attr(s.span, 'http.route') === `${API}/products/:id`),
    'server span',
  );
  assert.equal(span.name, `GET ${API}/products/:id`);
  assert.equal(service, 'commerce-api-test');
  // the caller's trace is continued
  assert.equal(span.traceId, '0af7651916cd43dd8448eb211c80319c');
  assert.equal(span.parentSpanId, 'b7ad6b7169203331');
  assert.equal(Number(attr(span, 'http.response.status_code') ?? attr(span, 'http.status_code')), 404);
  assert.ok(exports.every((e) => e.path === '/v1/traces' && /json/.test(e.type)));
  assert.ok(!spans().some((s) => s.span.kind === 2 && /health/.test(JSON.stringify(s.span.attributes))));

  if (t.database.kind === 'postgres') {
    const statement = await waitFor(
      () => spans().find((s) => s.span.traceId === span.traceId && s.span.name.startsWith('pg.query')),
      'PostgreSQL span',
    );
    assert.equal(statement.span.kind, 3, 'a client span');
    assert.match(String(attr(statement.span, 'db.system.name') ?? attr(statement.span, 'db.system')), /postgresql/);
  }
});
