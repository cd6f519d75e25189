/**
 * The Magento 1 API: SOAP V1 at /api/soap/ (and /api/), V2 and WS-I at /api/v2_soap/, XML-RPC at /api/xmlrpc/ and
 * JSON-RPC at /api/jsonrpc/, with the long route forms integrations hard-code as aliases. It lives in its own encapsulated scope: bodies of
 * any content type are read raw, and every failure there is answered as a SOAP fault, never as JSON or HTML.
 */
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { access } from '../../platform/auth/access.js';
import { AppError } from '../../platform/errors.js';
import type { AppModule } from '../../platform/module.js';
import { collectRefs, Decoder } from './encoding.js';
import { clientFault, fault, faultEnvelope, SoapFault } from './faults.js';
import { envelope } from './messages.js';
import { NS } from './names.js';
import { wsiMode } from './sessions.js';
import { handleJsonRpc } from './jsonrpc.js';
import { handleV1 } from './v1.js';
import { handleV2, handleWsi, isWsiRequest } from './v2.js';
import { wsdl, type WsdlKind } from './wsdl.js';
import { handleXmlRpc } from './xmlrpc.js';
import { child, esc, parseXml } from './xml.js';

const XML = 'text/xml; charset=UTF-8';
const JSON_TYPE = 'application/json; charset=utf-8';

/**
 * `v1`: the V1 endpoint. `v2`: the V2 endpoint, whose WSDL is the rpc/encoded or the WS-I document as
 * `api/config/compliance_wsi` says. `v2rpc` / `wsi`: extra addresses that always serve the one document.
 * Every V2 address answers both POST styles, told apart by the body's root element.
 */
type Endpoint = 'v1' | 'v2' | 'v2rpc' | 'wsi';

const withIndexPhp = (paths: string[]) => paths.flatMap((p) => [p, `/index.php${p}`]);

const ENDPOINTS: [string[], Endpoint][] = [
  [withIndexPhp(['/api', '/api/soap', '/api/soap/index']), 'v1'],
  [withIndexPhp(['/api/v2_soap', '/api/v2_soap/index']), 'v2'],
  [withIndexPhp(['/api/v2_soap/rpc']), 'v2rpc'],
  [withIndexPhp(['/api/v2_soap/wsi']), 'wsi'],
];

function wantsWsdl(req: FastifyRequest): boolean {
  const q = req.query as Record<string, unknown> | undefined;
  return !!q && Object.keys(q).some((k) => k.toLowerCase() === 'wsdl');
}

/**
 * The service address clients post to: the server's public URL (PUBLIC_URL) with the path and query the client
 * used, minus the `wsdl` parameter. Never the request's Host: a forged one would send the client's next calls,
 * session id and API key included, elsewhere.
 */
function serviceLocation(req: FastifyRequest): string {
  const [path, query = ''] = req.url.split('?', 2);
  const kept = query.split('&').filter((p) => p && p.split('=')[0].toLowerCase() !== 'wsdl');
  const config = req.ctx.app.config;
  const base = config.publicUrl ?? `http://localhost:${config.port}`;
  return `${base}${path}${kept.length ? `?${kept.join('&')}` : ''}`;
}

async function handle(req: FastifyRequest, reply: FastifyReply, endpoint: Endpoint): Promise<FastifyReply> {
  const ctx = req.ctx;
  if (wantsWsdl(req)) {
    const kind: WsdlKind = endpoint === 'v1' ? 'v1' : endpoint === 'v2rpc' ? 'v2' : endpoint === 'wsi' || wsiMode(ctx) ? 'wsi' : 'v2';
    return reply
      .code(200)
      .type(XML)
      .send(wsdl(kind, serviceLocation(req)));
  }
  const body = typeof req.body === 'string' ? req.body : '';
  if (req.method !== 'POST' || !body.trim()) throw clientFault('Bad Request');
  const root = parseXml(body);
  if (root.local !== 'Envelope') throw clientFault('Bad Request');
  if (root.ns !== NS.env) throw new SoapFault('SOAP-ENV:VersionMismatch', 'Wrong Version');
  const soapBody = child(root, 'Body');
  const op = soapBody?.children[0];
  if (!soapBody || soapBody.ns !== NS.env || !op) throw clientFault('Bad Request');
  const dec = new Decoder(collectRefs(soapBody));
  let out: string;
  let encoded = true;
  if (endpoint === 'v1') out = await handleV1(ctx, op, dec);
  else if (isWsiRequest(op)) {
    out = await handleWsi(ctx, op, dec);
    encoded = false;
  } else out = await handleV2(ctx, op, dec);
  return reply.code(200).type(XML).send(envelope(out, encoded));
}

/** Anything thrown in the SOAP scope as a fault: ours as they are, request errors as client faults, the rest as fault 1. */
function toFault(err: unknown, req: FastifyRequest): SoapFault {
  if (err instanceof SoapFault) return err;
  const fe = err as FastifyError;
  if (fe?.code === 'FST_ERR_CTP_BODY_TOO_LARGE') return clientFault('Request body is too large');
  if (err instanceof AppError && err.status < 500) return clientFault(err.message);
  if (fe?.statusCode && fe.statusCode >= 400 && fe.statusCode < 500) return clientFault('Bad Request');
  req.log.error({ err }, 'SOAP request failed');
  return fault('internal');
}

async function soapScope(scope: FastifyInstance): Promise<void> {
  scope.removeAllContentTypeParsers();
  // SOAP clients send text/xml, application/soap+xml or anything else: the body is read as text and parsed here
  scope.addContentTypeParser('*', { parseAs: 'string' }, (_req, body, done) => done(null, body));
  scope.setErrorHandler((err, req, reply) => {
    reply
      .code(500)
      .type(XML)
      .send(faultEnvelope(toFault(err, req), esc));
  });
  for (const [paths, endpoint] of ENDPOINTS) {
    for (const url of paths) {
      scope.route({
        method: ['GET', 'POST'],
        url,
        schema: { hide: true },
        config: { access: access.public },
        handler: (req, reply) => handle(req, reply, endpoint),
      });
    }
  }
}

/**
 * XML-RPC (/api/xmlrpc/) and JSON-RPC (/api/jsonrpc/): bodies read raw whatever their content type, every answer
 * HTTP 200 in the protocol's own shape, a request error (a body too large, say) included.
 */
async function rpcScope(scope: FastifyInstance): Promise<void> {
  scope.removeAllContentTypeParsers();
  scope.addContentTypeParser('*', { parseAs: 'string' }, (_req, body, done) => done(null, body));
  const xmlPaths = withIndexPhp(['/api/xmlrpc', '/api/xmlrpc/index']);
  scope.setErrorHandler((err, req, reply) => {
    const f = toFault(err, req);
    const code = /^\d+$/.test(f.code) ? Number(f.code) : -32600;
    if (xmlPaths.includes(req.routeOptions.url ?? '')) {
      const body =
        `<?xml version="1.0" encoding="UTF-8"?>\n<methodResponse><fault><value><struct>` +
        `<member><name>faultCode</name><value><int>${code}</int></value></member>` +
        `<member><name>faultString</name><value><string>${esc(f.message)}</string></value></member>` +
        `</struct></value></fault></methodResponse>\n`;
      return reply.code(200).type(XML).send(body);
    }
    return reply
      .code(200)
      .type(JSON_TYPE)
      .send(JSON.stringify({ error: { code, message: f.message }, id: null }));
  });
  for (const url of xmlPaths) {
    scope.route({
      method: 'POST',
      url,
      schema: { hide: true },
      config: { access: access.public },
      handler: async (req, reply) =>
        reply
          .code(200)
          .type(XML)
          .send(await handleXmlRpc(req.ctx, typeof req.body === 'string' ? req.body : '')),
    });
  }
  for (const url of withIndexPhp(['/api/jsonrpc', '/api/jsonrpc/index'])) {
    scope.route({
      method: 'POST',
      url,
      schema: { hide: true },
      config: { access: access.public },
      handler: async (req, reply) => {
        const out = await handleJsonRpc(req.ctx, typeof req.body === 'string' ? req.body : '');
        return reply
          .code(200)
          .type(JSON_TYPE)
          .send(out ?? '');
      },
    });
  }
}

export const soapModule: AppModule = {
  name: 'soap',
  rootRoutes: (app) => {
    void app.register(soapScope);
    void app.register(rpcScope);
  },
};
