/**
 * Files under `${DATA_DIR}/media`: safe relative paths (no way out of the root, by name or by symlink), atomic
 * writes, deletes, and the public GET /media/* route that serves the public folders (product and category
 * images, WYSIWYG uploads, samples of downloadable products). Customer-uploaded option files
 * (media/custom_options) and downloadable products (media/downloadable) live outside the public folders and are
 * never served by that route. Content sniffing tells images and PDF documents by their first bytes.
 * Also a guarded fetch of a remote file (http/https only, size and time limits, private addresses refused).
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import fsp from 'node:fs/promises';
import http from 'node:http';
import https from 'node:https';
import type net from 'node:net';
import path from 'node:path';
import type { FastifyInstance, FastifyReply } from 'fastify';
import { AppError, badRequest } from './errors.js';
import { isPublicAddress, isRefusedHost, publicOnlyLookup } from './public-address.js';

/** The media root's folder under DATA_DIR. */
export const MEDIA_DIR = 'media';

export interface PublicMediaFolder {
  /** a folder under the media root, e.g. `catalog/product` */
  prefix: string;
  /** Cache-Control max-age, seconds */
  maxAge: number;
  /** the extensions served from this folder and their content types; images only when omitted */
  types?: Readonly<Record<string, string>>;
}

/** Private folders (never public): files customers upload for custom options, and downloadable products. */
export const CUSTOM_OPTIONS_DIR = 'custom_options';
export const DOWNLOADABLE_DIR = 'downloadable';
/** Public folder of the samples of downloadable products (a sample is a free preview, public by nature). */
export const DOWNLOADABLE_SAMPLES_DIR = 'catalog/downloadable_samples';

const CONTENT_TYPES: Record<string, string> = {
  jpg: 'image/jpeg',
  jpeg: 'image/jpeg',
  png: 'image/png',
  gif: 'image/gif',
  webp: 'image/webp',
  avif: 'image/avif',
  ico: 'image/x-icon',
};

export const OCTET_STREAM = 'application/octet-stream';
export const PDF = 'application/pdf';

/**
 * What a sample of a downloadable product may be served as. Nothing a browser would run (HTML, SVG, XML,
 * scripts): a file of any other kind is stored as `.bin` and served as a download.
 */
export const SAMPLE_CONTENT_TYPES: Readonly<Record<string, string>> = {
  ...CONTENT_TYPES,
  pdf: PDF,
  mp3: 'audio/mpeg',
  m4a: 'audio/mp4',
  ogg: 'audio/ogg',
  wav: 'audio/wav',
  mp4: 'video/mp4',
  webm: 'video/webm',
  zip: 'application/zip',
  epub: 'application/epub+zip',
  txt: 'text/plain; charset=utf-8',
  bin: OCTET_STREAM,
};

/**
 * Folders GET /media/* serves. Product images and downloadable samples never change under a name (every
 * upload gets a new one), so they are cacheable for a year; files in the other folders may be replaced under
 * the same name.
 */
export const PUBLIC_MEDIA_FOLDERS: readonly PublicMediaFolder[] = [
  { prefix: 'catalog/product', maxAge: 31_536_000 },
  { prefix: 'catalog/category', maxAge: 86_400 },
  { prefix: DOWNLOADABLE_SAMPLES_DIR, maxAge: 31_536_000, types: SAMPLE_CONTENT_TYPES },
  { prefix: 'wysiwyg', maxAge: 86_400 },
];

function extensionOf(name: string): string | undefined {
  const dot = name.lastIndexOf('.');
  return dot < 0 ? undefined : name.slice(dot + 1).toLowerCase();
}

/** The content type of a public media file, from its extension; undefined for anything else. */
export function mediaContentType(name: string, folder?: PublicMediaFolder): string | undefined {
  const ext = extensionOf(name);
  if (ext === undefined) return undefined;
  const types = folder?.types ?? CONTENT_TYPES;
  return Object.hasOwn(types, ext) ? types[ext] : undefined;
}

// ---- content sniffing ----

/** Documents whose type their content proves, with the extension they are stored under. */
const DOCUMENT_EXTENSIONS: Readonly<Record<string, string>> = {
  'image/jpeg': 'jpg',
  'image/png': 'png',
  'image/gif': 'gif',
  'image/webp': 'webp',
  'image/avif': 'avif',
  [PDF]: 'pdf',
};

const ascii = (data: Buffer, start: number, end: number) => data.subarray(start, end).toString('latin1');

/**
 * The content type of a file from its first bytes: JPEG, PNG, GIF, WebP, AVIF images and PDF documents;
 * anything else (HTML, SVG and scripts included) is application/octet-stream. 32 bytes are enough.
 */
export function sniffContentType(data: Buffer): string {
  if (data.length >= 3 && data[0] === 0xff && data[1] === 0xd8 && data[2] === 0xff) return 'image/jpeg';
  if (data.length >= 8 && data.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]))) return 'image/png';
  const head6 = ascii(data, 0, 6);
  if (head6 === 'GIF87a' || head6 === 'GIF89a') return 'image/gif';
  if (data.length >= 12 && ascii(data, 0, 4) === 'RIFF' && ascii(data, 8, 12) === 'WEBP') return 'image/webp';
  if (data.length >= 12 && ascii(data, 4, 8) === 'ftyp') {
    const boxEnd = Math.min(data.length, Math.max(16, data.readUInt32BE(0)));
    const brands = [ascii(data, 8, 12)];
    for (let i = 16; i + 4 <= boxEnd; i += 4) brands.push(ascii(data, i, i + 4));
    if (brands.includes('avif') || brands.includes('avis')) return 'image/avif';
  }
  if (ascii(data, 0, 5) === '%PDF-') return PDF;
  return OCTET_STREAM;
}

/** The extension a file of a sniffed type is stored under: jpg, png, gif, webp, avif, pdf, else bin. */
export function extensionForType(contentType: string): string {
  return DOCUMENT_EXTENSIONS[contentType] ?? 'bin';
}

/**
 * The document type an extension names when its content can be checked (images and PDF: `jpeg` and `jpg`
 * both name image/jpeg); undefined for other extensions.
 */
export function documentTypeOfExtension(ext: string): string | undefined {
  const e = ext.replace(/^\.+/, '').toLowerCase();
  if (e === 'jpeg' || e === 'jpe') return 'image/jpeg';
  return Object.entries(DOCUMENT_EXTENSIONS).find(([, x]) => x === e)?.[0];
}

export interface FilesConfig {
  dataDir: string;
}

export function mediaRoot(config: FilesConfig): string {
  return path.resolve(config.dataDir, MEDIA_DIR);
}

const MAX_PATH = 1024;

function invalidPath(why: string): AppError {
  return badRequest(`Invalid file path: ${why}`, { reason: 'INVALID_PATH' });
}

/**
 * Checks a path relative to the media root and returns it with `/` separators. Refused (400): empty or
 * absolute paths, `.` and `..` segments, empty segments, hidden names (a leading dot, as temporary files
 * have), backslashes, colons, control characters (NUL included) and `%` (an encoded separator or dot that
 * survived decoding).
 */
export function checkRelativePath(rel: string): string {
  if (typeof rel !== 'string' || rel.length === 0) throw invalidPath('empty');
  if (rel.length > MAX_PATH) throw invalidPath('too long');
  if (/[\u0000-\u001f\u007f]/.test(rel)) throw invalidPath('control characters');
  if (rel.includes('\\')) throw invalidPath('backslash');
  if (rel.includes('%')) throw invalidPath('encoded characters');
  if (rel.includes(':')) throw invalidPath('colon');
  if (rel.startsWith('/')) throw invalidPath('absolute path');
  const segments = rel.split('/');
  for (const s of segments) {
    if (s === '') throw invalidPath('empty segment');
    if (s === '.' || s === '..') throw invalidPath('relative segment');
    if (s.startsWith('.')) throw invalidPath('hidden name');
    if (s.length > 255) throw invalidPath('name too long');
  }
  return segments.join('/');
}

function isInside(root: string, p: string): boolean {
  return p === root || p.startsWith(root + path.sep);
}

async function realRootOf(root: string): Promise<string> {
  try {
    return await fsp.realpath(root);
  } catch {
    return root;
  }
}

/**
 * The absolute path of `rel` under the media root. The real path of the file (or, when it does not exist yet,
 * of its nearest existing ancestor) must be inside the real root, so a symlink cannot lead out (400).
 */
export async function resolveMediaPath(config: FilesConfig, rel: string): Promise<string> {
  const clean = checkRelativePath(rel);
  const root = mediaRoot(config);
  const abs = path.join(root, ...clean.split('/'));
  const realRoot = await realRootOf(root);
  let probe = abs;
  for (;;) {
    let real: string | undefined;
    try {
      real = await fsp.realpath(probe);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw invalidPath('unreadable');
    }
    if (real !== undefined) {
      if (!isInside(realRoot, real)) throw invalidPath('outside the media folder');
      return abs;
    }
    if (probe === root) return abs; // nothing of the root exists yet
    probe = path.dirname(probe);
  }
}

/**
 * Writes a file atomically: a temporary file in the same folder, then renamed over the target. With
 * `exclusive`, an existing file is left alone and false is returned (the new name is taken).
 */
export async function writeMediaFile(config: FilesConfig, rel: string, data: Buffer, opts: { exclusive?: boolean } = {}): Promise<boolean> {
  const abs = await resolveMediaPath(config, rel);
  const dir = path.dirname(abs);
  await fsp.mkdir(dir, { recursive: true });
  // the folders just made must still be inside the root
  await resolveMediaPath(config, rel);
  const tmp = path.join(dir, `.${path.basename(abs)}.${crypto.randomBytes(6).toString('hex')}.tmp`);
  await fsp.writeFile(tmp, data, { flag: 'wx', mode: 0o644 });
  try {
    if (opts.exclusive) {
      try {
        await fsp.link(tmp, abs);
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code === 'EEXIST') return false;
        throw err;
      }
    } else {
      await fsp.rename(tmp, abs);
    }
    return true;
  } finally {
    await fsp.rm(tmp, { force: true }).catch(() => undefined);
  }
}

/** Deletes a file; true when there was one. */
export async function deleteMediaFile(config: FilesConfig, rel: string): Promise<boolean> {
  const abs = await resolveMediaPath(config, rel);
  try {
    await fsp.unlink(abs);
    return true;
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'EISDIR' || code === 'EPERM') return false;
    throw err;
  }
}

/**
 * The regular files under a media folder, at any depth, with their modification times: for upkeep passes.
 * Symlinks are not followed and hidden names (temporary files of writes under way) are left out; a missing
 * folder has none.
 */
export async function* listMediaFiles(config: FilesConfig, dir: string): AsyncGenerator<{ path: string; mtime: Date }> {
  const clean = checkRelativePath(dir);
  const root = await resolveMediaPath(config, clean);
  const pending: [string, string][] = [[root, clean]];
  while (pending.length) {
    const [abs, rel] = pending.pop()!;
    let entries: fs.Dirent[];
    try {
      entries = await fsp.readdir(abs, { withFileTypes: true });
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT' || (err as NodeJS.ErrnoException).code === 'ENOTDIR') continue;
      throw err;
    }
    for (const e of entries) {
      if (e.name.startsWith('.')) continue;
      const childAbs = path.join(abs, e.name);
      const childRel = `${rel}/${e.name}`;
      if (e.isDirectory()) pending.push([childAbs, childRel]);
      else if (e.isFile()) {
        const st = await fsp.lstat(childAbs).catch(() => undefined);
        if (st?.isFile()) yield { path: childRel, mtime: st.mtime };
      }
    }
  }
}

export interface MediaFileInfo {
  path: string;
  size: number;
  mtime: Date;
}

/** A regular file under the media root, or undefined when it is missing (or the path is refused). */
export async function statMediaFile(config: FilesConfig, rel: string): Promise<MediaFileInfo | undefined> {
  let abs: string;
  try {
    abs = await resolveMediaPath(config, rel);
  } catch {
    return undefined;
  }
  try {
    const st = await fsp.stat(abs);
    if (!st.isFile()) return undefined;
    return { path: abs, size: st.size, mtime: st.mtime };
  } catch {
    return undefined;
  }
}

/** A read stream of a file found by statMediaFile. */
export function openMediaStream(file: MediaFileInfo): fs.ReadStream {
  return fs.createReadStream(file.path);
}

/** The first `bytes` bytes of a file found by statMediaFile (fewer when it is shorter), for sniffing. */
export async function readMediaHead(file: MediaFileInfo, bytes = 32): Promise<Buffer> {
  const fh = await fsp.open(file.path, 'r');
  try {
    const buf = Buffer.alloc(Math.min(bytes, file.size));
    const { bytesRead } = await fh.read(buf, 0, buf.length, 0);
    return buf.subarray(0, bytesRead);
  } finally {
    await fh.close();
  }
}

// ---- the public route ----

/** The public folder a path is in, if any. */
export function publicFolderOf(rel: string): PublicMediaFolder | undefined {
  return PUBLIC_MEDIA_FOLDERS.find((f) => rel.startsWith(`${f.prefix}/`));
}

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

// ---- remote files ----

/** Any address but a public one (see public-address.ts, which webhook deliveries use too). */
export function isPrivateAddress(address: string): boolean {
  return !isPublicAddress(address);
}

export interface FetchOptions {
  maxBytes: number;
  timeoutMs: number;
  allowPrivate: boolean;
  /** the field named in error messages */
  field: string;
  maxRedirects?: number;
}

export interface FetchedFile {
  data: Buffer;
  contentType?: string;
  /** the last URL fetched (after redirects) */
  url: string;
}

class RemoteRefusal extends Error {
  constructor(readonly appError: AppError) {
    super(appError.message);
  }
}

/** A DNS lookup that refuses private addresses, so that the checked address is the one connected to. */
function guardedLookup(field: string): net.LookupFunction {
  return publicOnlyLookup(() => new RemoteRefusal(notAllowed(field)));
}

function notAllowed(field: string): AppError {
  return badRequest(`${field} points to a private or loopback address`, { reason: 'URL_NOT_ALLOWED', details: { field } });
}

function checkUrl(raw: string, field: string, allowPrivate: boolean): URL {
  let u: URL;
  try {
    u = new URL(raw);
  } catch {
    throw badRequest(`${field} is not a valid URL`, { reason: 'INVALID_URL', details: { field } });
  }
  if (u.protocol !== 'http:' && u.protocol !== 'https:') {
    throw badRequest(`${field} must be an http or https URL`, { reason: 'INVALID_URL', details: { field } });
  }
  if (u.username || u.password) throw badRequest(`${field} must not carry credentials`, { reason: 'INVALID_URL', details: { field } });
  if (!allowPrivate && isRefusedHost(u.hostname)) throw notAllowed(field);
  return u;
}

function tooLarge(field: string, maxBytes: number): AppError {
  return new AppError('payload_too_large', `${field}: the file is larger than ${maxBytes} bytes`, { reason: 'FILE_TOO_LARGE', details: { field, maxBytes } });
}

function fetchOnce(u: URL, opts: FetchOptions, deadline: number): Promise<{ redirect?: string; file?: FetchedFile }> {
  return new Promise((resolve, reject) => {
    const remaining = Math.max(1, deadline - Date.now());
    const mod = u.protocol === 'https:' ? https : http;
    const fail = (err: unknown) => {
      if (err instanceof RemoteRefusal) return reject(err.appError);
      if (err instanceof AppError) return reject(err);
      const msg = err instanceof Error ? err.message : String(err);
      reject(badRequest(`${opts.field} could not be fetched: ${msg}`, { reason: 'URL_FETCH_FAILED', details: { field: opts.field } }));
    };
    const req = mod.get(
      u,
      {
        lookup: opts.allowPrivate ? undefined : guardedLookup(opts.field),
        timeout: remaining,
        headers: { accept: 'image/*,*/*;q=0.5', 'user-agent': 'commerce-api media fetcher' },
      },
      (res) => {
        const status = res.statusCode ?? 0;
        if (status >= 300 && status < 400 && res.headers.location) {
          res.resume();
          resolve({ redirect: res.headers.location });
          return;
        }
        if (status < 200 || status >= 300) {
          res.resume();
          fail(new Error(`HTTP ${status}`));
          return;
        }
        const declared = Number(res.headers['content-length']);
        if (Number.isFinite(declared) && declared > opts.maxBytes) {
          req.destroy();
          fail(tooLarge(opts.field, opts.maxBytes));
          return;
        }
        const chunks: Buffer[] = [];
        let size = 0;
        res.on('data', (chunk: Buffer) => {
          size += chunk.length;
          if (size > opts.maxBytes) {
            req.destroy();
            fail(tooLarge(opts.field, opts.maxBytes));
            return;
          }
          chunks.push(chunk);
        });
        res.on('end', () => {
          const ct = res.headers['content-type'];
          resolve({ file: { data: Buffer.concat(chunks), contentType: typeof ct === 'string' ? ct : undefined, url: u.toString() } });
        });
        res.on('error', fail);
        res.on('close', () => {
          if (!res.complete) fail(new Error('connection closed'));
        });
      },
    );
    const timer = setTimeout(() => {
      req.destroy(new Error('timed out'));
    }, remaining);
    timer.unref();
    req.on('timeout', () => req.destroy(new Error('timed out')));
    req.on('error', fail);
    req.on('close', () => clearTimeout(timer));
  });
}

/**
 * Fetches a file over http or https. Refused (400): other schemes, credentials in the URL, private and
 * loopback addresses (unless allowed; checked on every address connected to, redirects included), errors and
 * non-2xx answers, more than `maxRedirects` redirects, the time limit. Larger than `maxBytes`: 413.
 */
export async function fetchRemoteFile(rawUrl: string, opts: FetchOptions): Promise<FetchedFile> {
  const deadline = Date.now() + opts.timeoutMs;
  let u = checkUrl(rawUrl, opts.field, opts.allowPrivate);
  for (let hop = 0; ; hop++) {
    const res = await fetchOnce(u, opts, deadline);
    if (res.file) return res.file;
    if (hop >= (opts.maxRedirects ?? 3)) {
      throw badRequest(`${opts.field} could not be fetched: too many redirects`, { reason: 'URL_FETCH_FAILED', details: { field: opts.field } });
    }
    let next: string;
    try {
      next = new URL(res.redirect!, u).toString();
    } catch {
      throw badRequest(`${opts.field} could not be fetched: invalid redirect`, { reason: 'URL_FETCH_FAILED', details: { field: opts.field } });
    }
    u = checkUrl(next, opts.field, opts.allowPrivate);
  }
}

// ---- downloads ----

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
  const ascii = clean.normalize('NFKD').replace(/[\u0300-\u036f]/g, '').replace(/[^\x20-\x7e]/g, '_').replace(/[%\\]/g, '_');
  const encoded = encodeURIComponent(clean).replace(/['()]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
  return `attachment; filename="${ascii}"; filename*=UTF-8''${encoded}`;
}
