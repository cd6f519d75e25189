/**
 * The public GET /media/* route, which serves the public media folders (product and category images, WYSIWYG
 * uploads, samples of downloadable products) and nothing else, and the Content-Disposition of a download.
 */
import type { FastifyInstance, FastifyReply } from 'fastify';
import {
  checkRelativePath,
  mediaContentType,
  openMediaStream,
  publicFolderOf,
  statMediaFile,
  type FilesConfig,
  type MediaFileInfo,
} from './files.js';

function sendNotFound(reply: FastifyReply): FastifyReply {
  return reply
    .code(404)
    .header('cache-control', 'no-store')
    .type('application/json; charset=utf-8')
    .send({ error: 'not_found', message: 'Not Found', code: 404 });
}

/** Percent-encoded separators, dots and NUL in the raw request path. */
const ENCODED_TRICK = /%(2f|5c|2e|00)/i;

function etagOf(file: MediaFileInfo): string {
  return `"${file.size.toString(16)}-${Math.floor(file.mtime.getTime()).toString(16)}"`;
}

function notModified(headers: Record<string, string | string[] | undefined>, etag: string, mtime: Date): boolean {
  const inm = headers['if-none-match'];
  if (typeof inm === 'string') return inm.split(',').some((t) => t.trim() === '*' || t.trim().replace(/^W\//, '') === etag);
  const ims = headers['if-modified-since'];
  if (typeof ims === 'string') {
    const since = Date.parse(ims);
    return !Number.isNaN(since) && Math.floor(mtime.getTime() / 1000) <= Math.floor(since / 1000);
  }
  return false;
}

/** Types a browser shows inline without running anything; the others are served as attachments. */
const INLINE_TYPE = /^(image|audio|video|text)\/|^application\/pdf$/;

/**
 * GET (and HEAD) /media/<path>: files in the public media folders, with a content type from the extension
 * (among those the folder serves), ETag, Last-Modified and a public Cache-Control; a type that is not shown
 * inline (an archive, a `.bin`) comes as an attachment. Anything missing, outside those folders or refused as
 * a path is a 404 in the error shape.
 */
export function mediaFileRoutes(app: FastifyInstance, config: FilesConfig): void {
  app.get('/media/*', { schema: { hide: true } }, async (req, reply) => {
    const rawPath = req.url.split('?')[0];
    if (ENCODED_TRICK.test(rawPath)) return sendNotFound(reply);
    const rel = (req.params as Record<string, string | undefined>)['*'] ?? '';
    let clean: string;
    try {
      clean = checkRelativePath(rel);
    } catch {
      return sendNotFound(reply);
    }
    const folder = publicFolderOf(clean);
    const type = folder && mediaContentType(clean, folder);
    if (!folder || !type) return sendNotFound(reply);
    const file = await statMediaFile(config, clean);
    if (!file) return sendNotFound(reply);
    const etag = etagOf(file);
    reply
      .header('etag', etag)
      .header('last-modified', file.mtime.toUTCString())
      .header('cache-control', `public, max-age=${folder.maxAge}`)
      .header('x-content-type-options', 'nosniff');
    if (notModified(req.headers, etag, file.mtime)) return reply.code(304).send();
    if (!INLINE_TYPE.test(type)) reply.header('content-disposition', 'attachment');
    return reply.type(type).header('content-length', file.size).send(openMediaStream(file));
  });
}

/**
 * A Content-Disposition header that makes the browser save the file under (a clean form of) its original
 * name: an ASCII fallback plus the UTF-8 name, with no path, quotes, control or separator characters.
 */
export function attachmentDisposition(name: string): string {
  const base = (name.split(/[/\\]/).pop() ?? '')
    .replace(/[\u0000-\u001f\u007f"*:<>?|;]/g, '')
    .trim()
    .slice(0, 200);
  const clean = base.replace(/^\.+/, '') || 'download';
  const ascii = clean
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .replace(/[^\x20-\x7e]/g, '_')
    .replace(/[%\\]/g, '_');
  const encoded = encodeURIComponent(clean).replace(/['()]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
  return `attachment; filename="${ascii}"; filename*=UTF-8''${encoded}`;
}
