/**
 * The MCP endpoint, /api/mcp: the Model Context Protocol over Streamable HTTP for AI agents, with a tool per
 * declared operation (mcp-tools.ts) and the store config and category tree as resources (mcp-resources.ts).
 * Callers authenticate as on REST (`Authorization: Bearer`, checked by the access hook that builds `req.ctx`) and
 * pick the store view as on REST (`?store=`, `X-Store-Code`).
 *
 * Sessions without server state: a server may run as several processes, and several servers may share a
 * database, so no process holds a session. Each POST is served by a fresh SDK server on a stateless transport,
 * answering JSON (no server-initiated messages, hence no GET stream: 405), and the session id that `initialize`
 * issues is signed (HMAC with the JWT secret), expires after a day and is bound to the caller it was issued to;
 * any process checks it without a lookup. A DELETE cannot revoke such an id: it is answered 405, as the
 * specification allows.
 */
import crypto from 'node:crypto';
import { Transform } from 'node:stream';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { access } from './auth/access.js';
import type { Actor, Ctx } from './context.js';
import { AppError } from './errors.js';
import { actorScope } from './idempotency.js';
import { callTool, deriveTools, mayCall, type ToolDef } from './mcp-tools.js';
import { instructionsFor, mcpResources } from './mcp-resources.js';
import type { Operation } from './operations.js';
import { deriveKey } from './keys.js';

export const MCP_PATH = '/api/mcp';
const SESSION_TTL_S = 24 * 3600;
const SERVER_INFO = { name: 'commerce-api', title: 'Commerce API', version: '2.0.0' };

export interface McpOptions {
  /** the operation registry the tools are derived from */
  operations: readonly Operation[];
  /** the REST prefix: collection `@id`s and view links are REST's */
  apiPrefix: string;
}

function sign(secret: string, data: string): string {
  return crypto.createHmac('sha256', deriveKey(secret, 'mcp-session')).update(data).digest('base64url');
}

/** A new session id for a caller: `<nonce>.<expiry>.<mac>`, the mac also covering the caller. */
export function newSessionId(secret: string, caller: string, now = Date.now()): string {
  const head = `${crypto.randomBytes(16).toString('base64url')}.${(Math.floor(now / 1000) + SESSION_TTL_S).toString(36)}`;
  return `${head}.${sign(secret, `${head}\n${caller}`)}`;
}

/** The nonce of a session id issued to this caller and not expired; undefined otherwise. */
export function sessionNonce(secret: string, caller: string, id: string, now = Date.now()): string | undefined {
  const m = /^([A-Za-z0-9_-]{22})\.([0-9a-z]{1,10})\.([A-Za-z0-9_-]{43})$/.exec(id);
  if (!m || parseInt(m[2], 36) * 1000 < now) return undefined;
  const expected = Buffer.from(sign(secret, `${m[1]}.${m[2]}\n${caller}`));
  return crypto.timingSafeEqual(Buffer.from(m[3]), expected) ? m[1] : undefined;
}

function rpcError(reply: FastifyReply, status: number, code: number, message: string) {
  return reply.code(status).type('application/json').send({ jsonrpc: '2.0', error: { code, message }, id: null });
}

const headerValue = (v: string | string[] | undefined) => (Array.isArray(v) ? v[0] : v);

function bodyTooLarge(): AppError {
  // statusCode: the body reader keeps it instead of turning a stream error into a 400
  return Object.assign(new AppError('payload_too_large', 'Request body is too large', { reason: 'BODY_TOO_LARGE' }), { statusCode: 413 });
}

/** The body as it arrives, failing with a 413 once more than `limit` bytes came. */
function limitedStream(limit: number): Transform {
  let received = 0;
  return new Transform({
    transform(chunk: Buffer, _encoding, done) {
      received += chunk.length;
      if (received > limit) return done(bodyTooLarge());
      done(null, chunk);
    },
  });
}

/**
 * The protocol library, loaded on the first MCP request: its message schemas, built when it loads, would
 * otherwise stay in the memory of every server whether or not an agent ever calls.
 */
function loadSdk() {
  return Promise.all([
    import('@modelcontextprotocol/sdk/server/index.js'),
    import('@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js'),
    import('@modelcontextprotocol/sdk/validation/ajv'),
    import('@modelcontextprotocol/sdk/types.js'),
  ]).then(([server, transport, ajv, types]) => ({
    Server: server.Server,
    Transport: transport.WebStandardStreamableHTTPServerTransport,
    validator: new ajv.AjvJsonSchemaValidator(),
    ListToolsRequestSchema: types.ListToolsRequestSchema,
    CallToolRequestSchema: types.CallToolRequestSchema,
    ListResourcesRequestSchema: types.ListResourcesRequestSchema,
    ReadResourceRequestSchema: types.ReadResourceRequestSchema,
    McpError: types.McpError,
    ErrorCode: types.ErrorCode,
  }));
}

export async function installMcp(app: FastifyInstance, opts: McpOptions): Promise<void> {
  const tools = deriveTools(opts.operations, opts.apiPrefix);
  const resources = mcpResources(opts.operations, opts.apiPrefix);
  const defaultLimit = app.initialConfig.bodyLimit ?? 1_048_576;
  // a tool that takes a file as base64 takes a larger body; each call is held to its own operation's limit
  const large = opts.operations.filter((o) => (o.bodyLimit ?? 0) > defaultLimit && o.mcp !== false);
  const bodyLimit = Math.max(defaultLimit, ...large.map((o) => o.bodyLimit!));
  /** The largest body this caller may send: more than BODY_LIMIT only to whom may call a tool that takes it. */
  const limitFor = (actor: Actor) => Math.max(defaultLimit, ...large.filter((o) => mayCall(actor, o)).map((o) => o.bodyLimit!));
  let sdkLoaded: ReturnType<typeof loadSdk> | undefined;
  const sdk = () => (sdkLoaded ??= loadSdk());

  async function serverFor(req: FastifyRequest, sessionScope: string, instructions?: string): Promise<Server> {
    const {
      Server,
      validator,
      ListToolsRequestSchema,
      CallToolRequestSchema,
      ListResourcesRequestSchema,
      ReadResourceRequestSchema,
      McpError,
      ErrorCode,
    } = await sdk();
    const ctx = req.ctx;
    const server = new Server(SERVER_INFO, {
      capabilities: { tools: { listChanged: false }, resources: { listChanged: false } },
      instructions,
      jsonSchemaValidator: validator,
    });
    const visible = () => [...tools.values()].filter((t) => mayCall(ctx.actor, t.op));
    server.setRequestHandler(ListToolsRequestSchema, async () => ({ tools: visible().map((t) => t.tool) }));
    server.setRequestHandler(CallToolRequestSchema, async (request) => {
      const t: ToolDef | undefined = tools.get(request.params.name);
      if (!t) throw new McpError(ErrorCode.InvalidParams, `Unknown tool: ${request.params.name}`);
      const args = request.params.arguments ?? {};
      const idempotencyKey = headerValue(req.headers['x-idempotency-key']);
      return callTool(t, ctx, args, { apiPrefix: opts.apiPrefix, bodyLimit: defaultLimit, idempotencyKey, sessionScope });
    });
    server.setRequestHandler(ListResourcesRequestSchema, async () => ({
      resources: resources.filter((r) => mayCall(ctx.actor, r.op)).map((r) => r.resource),
    }));
    server.setRequestHandler(ReadResourceRequestSchema, async (request) => {
      const r = resources.find((x) => x.resource.uri === request.params.uri);
      if (!r) throw new McpError(ErrorCode.InvalidParams, `Unknown resource: ${request.params.uri}`);
      return { contents: [{ uri: r.resource.uri, mimeType: 'application/json', text: await r.read(ctx) }] };
    });
    return server;
  }

  // the caller is known before the body is read (the access hook runs on request): a body declared larger than
  // the caller's limit is refused before it is read, a streamed one as soon as it passes the limit
  const preParsing = async (req: FastifyRequest, _reply: FastifyReply, payload: NodeJS.ReadableStream) => {
    const limit = limitFor(req.ctx.actor);
    if (limit >= bodyLimit) return payload;
    if (Number(req.headers['content-length']) > limit) throw bodyTooLarge();
    return payload.pipe(limitedStream(limit));
  };
  app.post(MCP_PATH, { bodyLimit, preParsing, config: { access: access.public }, schema: { hide: true } }, async (req, reply) => {
    const ctx: Ctx = req.ctx;
    // browsers may call only from the origins CORS lets in (the specification's guard against DNS rebinding)
    const origin = req.headers.origin;
    const origins = ctx.app.config.corsOrigins;
    if (origin && !origins.includes(origin) && !origins.includes('*')) return rpcError(reply, 403, -32000, 'Forbidden: origin not allowed');
    const secret = ctx.app.config.jwtSecret;
    const caller = actorScope(ctx.actor) ?? 'anonymous';
    const initializing = [req.body].flat().some((m) => (m as { method?: unknown } | null)?.method === 'initialize');
    let session: string;
    let nonce: string | undefined;
    if (initializing) {
      session = newSessionId(secret, caller);
      nonce = session.split('.')[0];
    } else {
      const given = headerValue(req.headers['mcp-session-id']);
      if (!given) return rpcError(reply, 400, -32000, 'Bad Request: Mcp-Session-Id header is required');
      // unknown, expired, or issued to another caller: the client starts a new session
      nonce = sessionNonce(secret, caller, given);
      if (!nonce) return rpcError(reply, 404, -32001, 'Session not found');
      session = given;
    }
    const server = await serverFor(req, `mcp-session:${nonce}`, initializing ? await instructionsFor(ctx, opts.operations) : undefined);
    const transport = new (await sdk()).Transport({ enableJsonResponse: true });
    await server.connect(transport);
    try {
      // what the transport checks; the caller and the session were settled above
      const headers = new Headers();
      for (const h of ['accept', 'content-type', 'mcp-protocol-version']) {
        const v = headerValue(req.headers[h]);
        if (v !== undefined) headers.set(h, v);
      }
      const res = await transport.handleRequest(new Request(new URL(req.url, 'http://localhost'), { method: 'POST', headers }), {
        parsedBody: req.body,
      });
      reply.code(res.status);
      res.headers.forEach((v, k) => reply.header(k, v));
      reply.header('mcp-session-id', session);
      const text = await res.text();
      return reply.send(text || undefined);
    } finally {
      await server.close();
    }
  });
  app.route({
    method: ['GET', 'DELETE'],
    url: MCP_PATH,
    schema: { hide: true },
    handler: (_req, reply) =>
      rpcError(reply.header('allow', 'POST'), 405, -32000, 'Method not allowed: this server sends no stream and keeps no session to end'),
  });
}
