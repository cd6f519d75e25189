/**
 * WYSIWYG media: image files under media/wysiwyg, listed, uploaded (multipart, converted with sharp) and
 * deleted by admin/API principals. Folders and paths are named relative to wysiwyg/ as in Maho (a leading
 * `wysiwyg/` is accepted too); answers give paths relative to the media root. Nothing outside wysiwyg/ can be
 * read, listed, written or deleted: every path goes through checkRelativePath (no `..`, absolute paths, encoded
 * characters, backslashes, NUL) and resolveMediaPath (no symlink out of the media root), and its real path must
 * stay inside the real wysiwyg folder (a symlink inside wysiwyg to another media folder is refused too).
 */
import fsp from 'node:fs/promises';
import path from 'node:path';
import type { OutputInfo } from 'sharp';
import { loadSharp } from '../../platform/images.js';
import type { Ctx } from '../../platform/context.js';
import { AppError, badRequest, notFound } from '../../platform/errors.js';
import { compact } from '../../platform/format.js';
import { checkRelativePath, mediaContentType, mediaRoot, resolveMediaPath, writeMediaFile } from '../../platform/files.js';
import { sniffContentType } from '../../platform/file-types.js';
import { declareConfig, declareConfigLabels } from '../../platform/settings.js';
import { baseMediaUrl } from '../catalog/product-extras/media-service.js';

declareConfigLabels({ media: 'Media Storage', 'media/image': 'Images', 'media/upload': 'Uploads' });
declareConfig({
  'media/image/format': {
    type: 'select',
    default: 'webp',
    label: 'Upload Format',
    comment: 'the type uploads are converted to',
    options: [
      { value: 'webp', label: 'WebP' },
      { value: 'jpeg', label: 'JPEG' },
      { value: 'png', label: 'PNG' },
    ],
  },
  'media/image/quality': { type: 'integer', default: 85, label: 'Image Quality', min: 1, max: 100 },
  'media/upload/max_size_mb': { type: 'integer', default: 10, label: 'Largest Upload (MB)', min: 1, max: 1024 },
});

/** The only folder (under the media root) this module works in. */
export const WYSIWYG = 'wysiwyg';

const OUTPUT_FORMATS = { webp: 'webp', jpeg: 'jpg', png: 'png' } as const;
type OutputFormat = keyof typeof OUTPUT_FORMATS;
const MAX_INPUT_PIXELS = 100_000_000;
const MAX_NAME = 100;

export interface MediaItemDto {
  url: string;
  directive: string;
  size: number;
  dimensions?: { width: number; height: number };
  filename: string;
  path: string;
}

function badPath(why: string): AppError {
  return badRequest(`Invalid media path: ${why}`, { reason: 'INVALID_PATH' });
}

/**
 * A folder or file path as a client names it, checked by name (400 when refused), as the path inside wysiwyg/
 * relative to the media root. As in Maho, a path is relative to wysiwyg/ (`banners` is `wysiwyg/banners`),
 * and one that already starts with `wysiwyg/` means the same; an empty folder is wysiwyg/ itself. A single
 * trailing slash is allowed on folders.
 */
export function checkWysiwygPath(raw: string, opts: { folder?: boolean } = {}): string {
  let rel = raw;
  if (opts.folder && rel === '') return WYSIWYG;
  if (opts.folder && rel.length > 1 && rel.endsWith('/')) rel = rel.slice(0, -1);
  let clean = checkRelativePath(rel);
  if (clean !== WYSIWYG && !clean.startsWith(`${WYSIWYG}/`)) clean = `${WYSIWYG}/${clean}`;
  if (!opts.folder && clean === WYSIWYG) throw badPath('not a file');
  return clean;
}

function isInside(root: string, p: string): boolean {
  return p === root || p.startsWith(root + path.sep);
}

/**
 * The absolute path of a checked wysiwyg path: the real path of it (or of its nearest existing ancestor) must
 * be inside the media root (resolveMediaPath) and inside the real wysiwyg folder.
 */
async function resolveWysiwyg(ctx: Ctx, rel: string): Promise<string> {
  const config = ctx.app.config;
  const abs = await resolveMediaPath(config, rel);
  const wysiwygAbs = path.join(mediaRoot(config), WYSIWYG);
  let realWysiwyg: string;
  try {
    realWysiwyg = await fsp.realpath(wysiwygAbs);
  } catch {
    return abs; // no wysiwyg folder yet: resolveMediaPath already proved the path stays in the media root
  }
  if (realWysiwyg !== path.join(await fsp.realpath(mediaRoot(config)), WYSIWYG)) throw badPath('outside the wysiwyg folder');
  let probe = abs;
  for (;;) {
    try {
      const real = await fsp.realpath(probe);
      if (!isInside(realWysiwyg, real)) throw badPath('outside the wysiwyg folder');
      return abs;
    } catch (err) {
      if (err instanceof AppError) throw err;
      if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw badPath('unreadable');
    }
    if (probe === wysiwygAbs || probe === path.dirname(probe)) return abs;
    probe = path.dirname(probe);
  }
}

function itemOf(ctx: Ctx, rel: string, size: number, dims?: { width?: number; height?: number }): MediaItemDto {
  return compact({
    url: `${baseMediaUrl(ctx)}${rel}`,
    directive: `{{media url="${rel}"}}`,
    size,
    dimensions: dims?.width && dims.height ? { width: dims.width, height: dims.height } : undefined,
    filename: rel.slice(rel.lastIndexOf('/') + 1),
    path: rel,
  }) as MediaItemDto;
}

async function dimensionsOf(file: string): Promise<{ width?: number; height?: number } | undefined> {
  try {
    const m = await (await loadSharp())(file, { limitInputPixels: MAX_INPUT_PIXELS }).metadata();
    return { width: m.width, height: m.height };
  } catch {
    return undefined;
  }
}

/** GET /media: the image files (regular files, symlinks skipped) directly in a folder under wysiwyg/, by name. */
export async function listMedia(ctx: Ctx, folderParam: string | undefined): Promise<MediaItemDto[]> {
  const folder = checkWysiwygPath(folderParam ?? '', { folder: true });
  const abs = await resolveWysiwyg(ctx, folder);
  let entries: import('node:fs').Dirent[];
  try {
    const st = await fsp.lstat(abs);
    if (!st.isDirectory()) throw notFound(`Folder ${folder} not found`, { reason: 'FOLDER_NOT_FOUND' });
    entries = await fsp.readdir(abs, { withFileTypes: true });
  } catch (err) {
    if (err instanceof AppError) throw err;
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') {
      if (folder === WYSIWYG) return [];
      throw notFound(`Folder ${folder} not found`, { reason: 'FOLDER_NOT_FOUND' });
    }
    throw err;
  }
  const files = entries
    .filter((e) => e.isFile() && !e.name.startsWith('.') && mediaContentType(e.name) !== undefined)
    .map((e) => e.name)
    .sort();
  const items: MediaItemDto[] = [];
  for (const name of files) {
    const file = path.join(abs, name);
    const st = await fsp.lstat(file).catch(() => undefined);
    if (!st?.isFile()) continue;
    items.push(itemOf(ctx, `${folder}/${name}`, st.size, await dimensionsOf(file)));
  }
  return items;
}

export interface MediaFolderDto {
  name: string;
  path: string;
}

/** GET /media-folders: the folders (not symlinks, not hidden) directly in a folder under wysiwyg/, by name. */
export async function listMediaFolders(ctx: Ctx, folderParam: string | undefined): Promise<MediaFolderDto[]> {
  const folder = checkWysiwygPath(folderParam ?? '', { folder: true });
  const abs = await resolveWysiwyg(ctx, folder);
  let entries: import('node:fs').Dirent[];
  try {
    if (!(await fsp.lstat(abs)).isDirectory()) throw notFound(`Folder ${folder} not found`, { reason: 'FOLDER_NOT_FOUND' });
    entries = await fsp.readdir(abs, { withFileTypes: true });
  } catch (err) {
    if (err instanceof AppError) throw err;
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') {
      if (folder === WYSIWYG) return [];
      throw notFound(`Folder ${folder} not found`, { reason: 'FOLDER_NOT_FOUND' });
    }
    throw err;
  }
  return entries
    .filter((e) => e.isDirectory() && !e.name.startsWith('.'))
    .map((e) => e.name)
    .sort()
    .map((name) => ({ name, path: `${folder}/${name}` }));
}

// ---- upload ----

export interface MediaSettings {
  format: OutputFormat;
  quality: number;
  maxBytes: number;
}

export function mediaSettings(ctx: Ctx): MediaSettings {
  const s = ctx.app.settings;
  const raw = (s.get('media/image/format', ctx.store.storeId) ?? 'webp').trim().toLowerCase();
  const format: OutputFormat = raw === 'jpg' ? 'jpeg' : raw in OUTPUT_FORMATS ? (raw as OutputFormat) : 'webp';
  const q = s.getInt('media/image/quality', ctx.store.storeId);
  const mb = Number(s.get('media/upload/max_size_mb', ctx.store.storeId));
  return {
    format,
    quality: Number.isFinite(q) && q >= 1 && q <= 100 ? q : 85,
    maxBytes: Number.isFinite(mb) && mb > 0 ? Math.floor(mb * 1024 * 1024) : 10 * 1024 * 1024,
  };
}

export function tooLarge(maxBytes: number): AppError {
  return new AppError('payload_too_large', `The file is larger than ${maxBytes} bytes`, {
    reason: 'FILE_TOO_LARGE',
    details: { field: 'file', maxBytes },
  });
}

function fieldError(field: string, message: string, constraint = 'invalid'): AppError {
  return badRequest(`${field} ${message}`, { reason: 'VALIDATION_FAILED', details: { field, constraint } });
}

/** A file name stem: lower-case ASCII letters, digits, '-' and '_'; a trailing image extension is dropped. */
export function cleanStem(name: string): string {
  const stem = name.replace(/\.(jpe?g|png|gif|webp|avif)$/i, '');
  const clean = stem
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9_-]+/g, '_')
    .replace(/^[_-]+|[_-]+$/g, '')
    .slice(0, MAX_NAME);
  return clean || 'image';
}

export interface UploadInput {
  file?: { data: Buffer; filename?: string };
  folder?: string;
  filename?: string;
}

/** POST /media: checks the bytes are an image, converts them and stores them under a free name in the folder. */
export async function uploadMedia(ctx: Ctx, input: UploadInput, settings = mediaSettings(ctx)): Promise<MediaItemDto> {
  const folder = checkWysiwygPath(input.folder ?? '', { folder: true });
  if (!input.file) throw fieldError('file', 'is required', 'required');
  const data = input.file.data;
  if (data.length > settings.maxBytes) throw tooLarge(settings.maxBytes);
  if (input.filename !== undefined && /[/\\\u0000-\u001f\u007f]/.test(input.filename)) {
    throw fieldError('filename', 'must be a plain name (no path)', 'pattern');
  }
  await resolveWysiwyg(ctx, folder);
  const notImage = () => fieldError('file', 'is not an image (JPEG, PNG, GIF, WebP or AVIF)', 'image');
  if (!data.length || !sniffContentType(data).startsWith('image/')) throw notImage();
  let out: { data: Buffer; info: OutputInfo };
  try {
    let img = (await loadSharp())(data, { limitInputPixels: MAX_INPUT_PIXELS }).rotate();
    if (settings.format === 'webp') img = img.webp({ quality: settings.quality });
    else if (settings.format === 'jpeg') img = img.flatten({ background: '#ffffff' }).jpeg({ quality: settings.quality, mozjpeg: true });
    else img = img.png({ compressionLevel: 8 });
    out = await img.toBuffer({ resolveWithObject: true });
  } catch (err) {
    if (/pixel limit/i.test(String((err as Error).message))) throw fieldError('file', 'has too many pixels', 'maximum');
    throw notImage();
  }
  const stem = cleanStem(input.filename?.trim() || input.file.filename?.split(/[/\\]/).pop() || 'image');
  const ext = OUTPUT_FORMATS[settings.format];
  for (let n = 0; n < 1000; n++) {
    const rel = `${folder}/${n === 0 ? stem : `${stem}_${n}`}.${ext}`;
    await resolveWysiwyg(ctx, rel);
    if (await writeMediaFile(ctx.app.config, rel, out.data, { exclusive: true })) {
      return itemOf(ctx, rel, out.data.length, { width: out.info.width, height: out.info.height });
    }
  }
  throw new AppError('conflict', 'No free file name; give another filename', { reason: 'NAME_EXHAUSTED' });
}

// ---- delete ----

/** DELETE /media/{path}: a file under wysiwyg/ (400 for a refused path, 404 when there is no such file). */
export async function deleteMedia(ctx: Ctx, rawPath: string): Promise<void> {
  const rel = checkWysiwygPath(rawPath);
  const abs = await resolveWysiwyg(ctx, rel);
  const st = await fsp.lstat(abs).catch(() => undefined);
  if (!st || !st.isFile()) throw notFound(`File ${rel} not found`, { reason: 'MEDIA_NOT_FOUND' });
  try {
    await fsp.unlink(abs);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') throw notFound(`File ${rel} not found`, { reason: 'MEDIA_NOT_FOUND' });
    throw err;
  }
}
