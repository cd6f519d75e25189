/**
 * Optional OpenTelemetry traces: an HTTP server span per request (named by its route pattern, e.g.
 * `GET /api/rest/v2/products/:id`) and a span per PostgreSQL statement run inside one, sent over OTLP/HTTP
 * (JSON) to OTEL_EXPORTER_OTLP_ENDPOINT (`/v1/traces` is appended; OTEL_EXPORTER_OTLP_TRACES_ENDPOINT names
 * the full URL instead). Without that variable nothing is loaded and nothing is patched.
 *
 * The standard OTEL_* variables apply: OTEL_SERVICE_NAME (default `commerce-api`), OTEL_RESOURCE_ATTRIBUTES,
 * OTEL_EXPORTER_OTLP_HEADERS, OTEL_TRACES_SAMPLER / OTEL_TRACES_SAMPLER_ARG, OTEL_BSP_*.
 *
 * How the entry point starts it — first, before the app is imported, so that `http` and `pg` are patched as
 * they load:
 *
 *   import { startTracing } from './platform/tracing.js';
 *   const tracing = await startTracing();           // undefined when OTEL_EXPORTER_OTLP_ENDPOINT is unset
 *   const { buildApp } = await import('./app.js');  // a dynamic import: static imports would load first
 *   ...
 *   on shutdown, after app.close(): await tracing?.shutdown();   // sends the spans still buffered
 *
 * With node:cluster every worker calls it (each exports its own spans); the primary serves no requests and
 * need not. Should the app be loaded first after all, `startTracing` still patches the already loaded `http`
 * and `pg` through their module objects (see `touch` below), so spans come all the same.
 */
import { createRequire } from 'node:module';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';

export interface Tracing {
  /** sends the spans ended so far */
  forceFlush(): Promise<void>;
  /** sends what is buffered and stops tracing */
  shutdown(): Promise<void>;
}

/** probes and scrapes: frequent, uninteresting, and they would crowd out the requests that matter */
const UNTRACED_PATHS = new Set(['/health', '/ready', '/metrics']);

let started: Promise<Tracing | undefined> | undefined;
/** names the current request's server span after its route; set once tracing runs */
let setRoute: ((route: string) => void) | undefined;

export function tracingEndpoint(env: Record<string, string | undefined> = process.env): string | undefined {
  return env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT || env.OTEL_EXPORTER_OTLP_ENDPOINT || undefined;
}

/** Starts tracing when OTEL_EXPORTER_OTLP_ENDPOINT (or the traces one) is set; resolves undefined otherwise. Once per process. */
export function startTracing(): Promise<Tracing | undefined> {
  if (!tracingEndpoint()) return Promise.resolve(undefined);
  return (started ??= start());
}

async function start(): Promise<Tracing> {
  // loaded here, not at the top: a process without tracing never loads the SDK
  const [
    api,
    core,
    { NodeTracerProvider, BatchSpanProcessor },
    { OTLPTraceExporter },
    resources,
    { registerInstrumentations },
    { HttpInstrumentation },
    { PgInstrumentation },
  ] = await Promise.all([
    import('@opentelemetry/api'),
    import('@opentelemetry/core'),
    import('@opentelemetry/sdk-trace-node'),
    import('@opentelemetry/exporter-trace-otlp-http'),
    import('@opentelemetry/resources'),
    import('@opentelemetry/instrumentation'),
    import('@opentelemetry/instrumentation-http'),
    import('@opentelemetry/instrumentation-pg'),
  ]);

  const resource = resources
    .defaultResource()
    .merge(resources.resourceFromAttributes({ 'service.name': 'commerce-api' }))
    // OTEL_SERVICE_NAME and OTEL_RESOURCE_ATTRIBUTES win over the default name
    .merge(resources.detectResources({ detectors: [resources.envDetector] }));
  // the exporter reads the endpoint, headers and timeout from the OTEL_EXPORTER_OTLP_* variables itself
  const provider = new NodeTracerProvider({ resource, spanProcessors: [new BatchSpanProcessor(new OTLPTraceExporter())] });
  // global provider, AsyncLocalStorage context and W3C trace-context propagation (a caller's traceparent is continued)
  provider.register();

  registerInstrumentations({
    tracerProvider: provider,
    instrumentations: [
      new HttpInstrumentation({
        ignoreIncomingRequestHook: (req) => UNTRACED_PATHS.has((req.url ?? '/').split('?')[0]),
      }),
      // statements outside any request (mail sender, janitor) would each be a trace of their own: noise
      new PgInstrumentation({ requireParentSpan: true }),
    ],
  });
  touch();

  // the HTTP instrumentation names server spans after `http.route` when the framework supplies it
  setRoute = (route) => {
    const meta = core.getRPCMetadata(api.context.active());
    if (meta?.type === core.RPCType.HTTP) meta.route = route;
  };

  return {
    forceFlush: () => provider.forceFlush(),
    shutdown: async () => {
      setRoute = undefined;
      await provider.shutdown();
    },
  };
}

/**
 * Requires the instrumented modules once more. A module loaded before the instrumentations were registered is
 * patched when it is next required; these patches act on shared objects (`http.Server.prototype`, pg's
 * `Client.prototype`), so they reach what was loaded earlier too.
 */
function touch(): void {
  const require = createRequire(import.meta.url);
  for (const name of ['node:http', 'node:https', 'pg', 'pg-pool']) {
    try {
      require(name);
    } catch {
      /* pg is optional for the patch: without it there is nothing to trace there */
    }
  }
}

/**
 * Gives the request's server span its route pattern (`GET /api/rest/v2/products/:id`) instead of the bare
 * method. Installs nothing when tracing is off, so untraced processes pay nothing per request.
 */
export function installTracingHooks(app: FastifyInstance): void {
  if (!setRoute) return;
  // a hook per route that knows its pattern: `request.routeOptions` would build an object per request
  app.addHook('onRoute', (route) => {
    const url = route.url;
    const hook = (_req: FastifyRequest, _reply: FastifyReply, done: () => void) => {
      setRoute?.(url);
      done();
    };
    const own = route.onRequest;
    route.onRequest = own === undefined ? [hook] : [...(Array.isArray(own) ? own : [own]), hook];
  });
}
