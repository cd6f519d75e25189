/**
 * Response compression: Brotli or gzip, as the client accepts, for text-like bodies (JSON, HTML, XML, text) of
 * 1 KB and more. Smaller bodies gain less than the encoding costs; images and archives are compressed already.
 */
import zlib from 'node:zlib';
import type { FastifyInstance, FastifyReply, FastifyRequest, onSendHookHandler } from 'fastify';
import compress from '@fastify/compress';

export const COMPRESS_THRESHOLD = 1024;

/**
 * Types worth compressing. @fastify/compress's default also takes application/octet-stream, which here means
 * downloads and uploaded files, mostly compressed formats already; those are left to mime-db's verdict (not
 * compressible).
 */
const COMPRESSIBLE =
  /^text\/(?!event-stream)|(?:\+|\/)json(?:;|$)|(?:\+|\/)xml(?:;|$)|^application\/(?:javascript|graphql-response\+json)(?:;|$)/;

/**
 * A strong ETag names one exact byte sequence; the Brotli and gzip forms of a body are other byte sequences,
 * so a compressed reply carries the identity body's ETag as a weak one (as nginx does). The ETag checks
 * (http.ts, files.ts) compare weakly, so `If-None-Match` with either form still gets its 304.
 */
const weakenEtag: onSendHookHandler = (_req: FastifyRequest, reply: FastifyReply, payload, done) => {
  const encoding = reply.getHeader('content-encoding');
  const etag = reply.getHeader('etag');
  if (encoding && encoding !== 'identity' && typeof etag === 'string' && etag.startsWith('"')) reply.header('etag', `W/${etag}`);
  done(null, payload);
};

/** Registers compression for every route registered afterwards (call it before the routes). */
export async function installCompression(app: FastifyInstance): Promise<void> {
  await app.register(compress, {
    global: true,
    threshold: COMPRESS_THRESHOLD,
    encodings: ['br', 'gzip'],
    customTypes: COMPRESSIBLE,
    // quality 4: close to gzip's speed with smaller output; 11 (zlib's default) costs tens of ms per response
    brotliOptions: { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 4 } },
    zlibOptions: { level: 6 },
    // request bodies stay as they were: nothing here expects compressed uploads
    globalDecompression: false,
  });
  // the compression hook is a route-level onSend added by the plugin's onRoute hook; this one, added after it,
  // runs after it
  app.addHook('onRoute', (route) => {
    if (route.compress === false) return;
    const own = route.onSend;
    route.onSend = own === undefined ? [weakenEtag] : [...(Array.isArray(own) ? own : [own]), weakenEtag];
  });
}
