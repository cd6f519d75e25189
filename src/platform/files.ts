/**
 * Files under `${DATA_DIR}/media`: safe relative paths (no way out of the root, by name or by symlink), atomic
 * writes, deletes, listing and reading, and which folders are public. Customer-uploaded option files
 * (media/custom_options) and downloadable products (media/downloadable) live outside the public folders and are
 * never served by the public route (media-route.ts). What a file is: file-types.ts; fetching a remote file:
 * remote-file.ts.
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import fsp from 'node:fs/promises';
import path from 'node:path';
import { AppError, badRequest } from './errors.js';
import { IMAGE_CONTENT_TYPES, SAMPLE_CONTENT_TYPES } from './file-types.js';

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

/** The public folder a path is in, if any. */
export function publicFolderOf(rel: string): PublicMediaFolder | undefined {
  return PUBLIC_MEDIA_FOLDERS.find((f) => rel.startsWith(`${f.prefix}/`));
}

function extensionOf(name: string): string | undefined {
  const dot = name.lastIndexOf('.');
  return dot < 0 ? undefined : name.slice(dot + 1).toLowerCase();
}

/** The content type of a public media file, from its extension; undefined for anything else. */
export function mediaContentType(name: string, folder?: PublicMediaFolder): string | undefined {
  const ext = extensionOf(name);
  if (ext === undefined) return undefined;
  const types = folder?.types ?? IMAGE_CONTENT_TYPES;
  return Object.hasOwn(types, ext) ? types[ext] : undefined;
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
