/**
 * Product custom options: reads, and the files shoppers upload for `file` options, which are stored under
 * media/custom_options (never public) and read back by option id and a random key. Writes of the options are
 * in custom-options-write.ts.
 */
import crypto from 'node:crypto';
import type fs from 'node:fs';
import { and, asc, eq, inArray } from 'drizzle-orm';
import type { Metadata } from 'sharp';
import { loadSharp } from '../../../platform/images.js';
import type { Ctx } from '../../../platform/context.js';
import { AppError, badRequest, notFound } from '../../../platform/errors.js';
import {
  CUSTOM_OPTIONS_DIR,
  deleteMediaFile,
  openMediaStream,
  readMediaHead,
  statMediaFile,
  writeMediaFile,
} from '../../../platform/files.js';
import { documentTypeOfExtension, sniffContentType } from '../../../platform/file-types.js';
import { attachmentDisposition } from '../../../platform/media-route.js';
import { compact } from '../../../platform/format.js';
import { toWire } from '../../../platform/money.js';
import { declareConfig } from '../../../platform/settings.js';
import { requireReadableProduct } from '../products/subresource-shared.js';
import { SELECT_OPTION_TYPES, type CustomOptionDto, type CustomOptionValueDto } from './custom-options-schemas.js';
import { customOptionFiles, customOptionValues, customOptions } from '../tables.js';

declareConfig({
  'catalog/custom_options/max_upload_bytes': {
    type: 'integer',
    default: 10 * 1024 * 1024,
    label: 'Largest File Option Upload (bytes)',
    comment: 'the largest file a shopper may upload for a file option',
    min: 1,
  },
});

/** Grouped products are sold as their children: they have no options of their own. */
const API_PATH = 'api/rest/v2';
const KEY_PATTERN = /^[A-Za-z0-9_-]{32}$/;
const MAX_IMAGE_PIXELS = 100_000_000;

export type OptionRow = typeof customOptions.$inferSelect;
export type ValueRow = typeof customOptionValues.$inferSelect;

export function isSelectType(type: string): boolean {
  return (SELECT_OPTION_TYPES as readonly string[]).includes(type);
}

// ---- reads ----

function valueDto(v: ValueRow): CustomOptionValueDto {
  return compact({
    id: v.id,
    title: v.title,
    price: toWire(v.price),
    priceType: v.priceType,
    sku: v.sku,
    sortOrder: v.sortOrder,
  }) as CustomOptionValueDto;
}

export function toDto(o: OptionRow, values: ValueRow[]): CustomOptionDto {
  const select = isSelectType(o.type);
  return compact({
    id: o.id,
    title: o.title,
    type: o.type,
    required: o.required,
    sortOrder: o.sortOrder,
    price: select ? undefined : toWire(o.price ?? '0'),
    priceType: o.priceType,
    sku: o.sku,
    maxCharacters: o.maxCharacters,
    fileExtensions: o.fileExtensions,
    imageSizeX: o.imageSizeX,
    imageSizeY: o.imageSizeY,
    values: select ? values.map(valueDto) : [],
  }) as CustomOptionDto;
}

export async function valuesOf(ctx: Ctx, optionIds: number[]): Promise<Map<number, ValueRow[]>> {
  const out = new Map<number, ValueRow[]>();
  if (!optionIds.length) return out;
  const rows = await ctx.db
    .select()
    .from(customOptionValues)
    .where(inArray(customOptionValues.optionId, optionIds))
    .orderBy(asc(customOptionValues.sortOrder), asc(customOptionValues.id));
  for (const r of rows) {
    const list = out.get(r.optionId) ?? [];
    list.push(r);
    out.set(r.optionId, list);
  }
  return out;
}

/** A product's options by sort order, with their values, without any visibility check (product reads, carts). */
export async function customOptionsOf(ctx: Ctx, productId: number): Promise<CustomOptionDto[]> {
  const rows = await ctx.db
    .select()
    .from(customOptions)
    .where(eq(customOptions.productId, productId))
    .orderBy(asc(customOptions.sortOrder), asc(customOptions.id));
  const values = await valuesOf(
    ctx,
    rows.map((r) => r.id),
  );
  return rows.map((r) => toDto(r, values.get(r.id) ?? []));
}

/** GET /products/{id}/custom-options: the options of a product the caller may see. */
export async function listCustomOptions(ctx: Ctx, productId: number): Promise<CustomOptionDto[]> {
  await requireReadableProduct(ctx, productId);
  return customOptionsOf(ctx, productId);
}

export function invalid(field: string, message: string, constraint = 'invalid'): AppError {
  return badRequest(`${field} ${message}`, { reason: 'VALIDATION_FAILED', details: { field, constraint } });
}

export function extensionList(fileExtensions: string | null): string[] {
  return (fileExtensions ?? '').split(/[\s,;]+/).filter(Boolean);
}

// ---- uploaded files ----

export interface OptionFileUpload {
  name: string;
  /** as the uploader declared it: never trusted; the type stored and served comes from the content */
  contentType: string;
  data: Buffer;
}

function cleanFileName(name: string): string {
  const base = (name.split(/[/\\]/).pop() ?? '')
    .replace(/[\u0000-\u001f\u007f]/g, '')
    .trim()
    .slice(0, 255);
  if (!base || base === '.' || base === '..') throw invalid('file.name', 'is required', 'required');
  return base;
}

/**
 * A file whose extension names an image or PDF type must hold such content: one of the image and PDF types
 * the option's allowed extensions name, or without a list, an image for an image extension and a PDF for
 * `.pdf`. Files of other extensions are not checked (they are served as application/octet-stream).
 */
function checkContent(ext: string, allowed: readonly string[], sniffed: string): void {
  const claimed = documentTypeOfExtension(ext);
  if (!claimed) return;
  const named = [...new Set(allowed.map(documentTypeOfExtension).filter((x): x is string => x !== undefined))];
  const ok = named.length ? named.includes(sniffed) : claimed.startsWith('image/') ? sniffed.startsWith('image/') : sniffed === claimed;
  if (!ok) {
    const expected = named.length ? named.join(' or ') : claimed.startsWith('image/') ? 'an image' : claimed;
    throw invalid('file', `content does not match its extension .${ext}: expected ${expected}`, 'contentType');
  }
}

async function checkImageSize(data: Buffer, maxX: number | null, maxY: number | null): Promise<void> {
  if (!maxX && !maxY) return;
  let meta: Metadata;
  try {
    meta = await (await loadSharp())(data, { limitInputPixels: MAX_IMAGE_PIXELS }).metadata();
  } catch {
    throw invalid('file', 'must be an image for this option', 'image');
  }
  if (!meta.width || !meta.height || meta.format === 'svg' || meta.format === 'pdf')
    throw invalid('file', 'must be an image for this option', 'image');
  if ((maxX && meta.width > maxX) || (maxY && meta.height > maxY)) {
    throw invalid('file', `is ${meta.width}×${meta.height} pixels; at most ${maxX || 'any'}×${maxY || 'any'} are allowed`, 'maximum');
  }
}

/** Where a stored option file lives under the media root. */
function storagePath(key: string): string {
  return `${CUSTOM_OPTIONS_DIR}/${key[0]}/${key[1]}/${key}`;
}

/** The download URL of an uploaded option file. */
export function customOptionFileUrl(ctx: Ctx, optionId: number, key: string): string {
  return `${ctx.app.settings.baseUrl(ctx.store.storeId)}${API_PATH}/custom-option-file/${optionId}/${key}`;
}

/** An uploaded option file checked and given its key, not written yet (saveCustomOptionFile writes it). */
export interface CheckedOptionFile {
  key: string;
  optionId: number;
  name: string;
  contentType: string;
  data: Buffer;
}

/**
 * Stores a file a shopper uploads for a `file` option: its extension must be one the option allows, its
 * content must be what an image or PDF extension names, an image must fit the option's imageSizeX/Y, and the
 * size must be within catalog/custom_options/max_upload_bytes. The content type kept is the one the content
 * shows (image, PDF, else application/octet-stream), never the declared one. Returns the download key and URL.
 */
export async function storeCustomOptionFile(ctx: Ctx, optionId: number, file: OptionFileUpload): Promise<{ key: string; url: string }> {
  return saveCustomOptionFile(ctx, await checkCustomOptionFile(ctx, optionId, file));
}

/**
 * The checks of storeCustomOptionFile without the write: a cart checks every file of a line, and writes them
 * only once the whole line is accepted.
 */
export async function checkCustomOptionFile(ctx: Ctx, optionId: number, file: OptionFileUpload): Promise<CheckedOptionFile> {
  const [option] =
    Number.isInteger(optionId) && optionId > 0 && optionId <= 2147483647
      ? await ctx.db.select().from(customOptions).where(eq(customOptions.id, optionId))
      : [];
  if (!option) throw notFound(`Custom option ${optionId} not found`, { reason: 'OPTION_NOT_FOUND' });
  if (option.type !== 'file')
    throw badRequest(`Custom option ${optionId} is a ${option.type} option; only file options take files`, { reason: 'NOT_A_FILE_OPTION' });
  const name = cleanFileName(file.name);
  if (!Buffer.isBuffer(file.data) || file.data.length === 0) throw invalid('file', 'is empty', 'minLength');
  const maxBytes = ctx.app.settings.getInt('catalog/custom_options/max_upload_bytes', ctx.store.storeId);
  if (Number.isFinite(maxBytes) && maxBytes > 0 && file.data.length > maxBytes) {
    throw new AppError('payload_too_large', `file is larger than ${maxBytes} bytes`, {
      reason: 'FILE_TOO_LARGE',
      details: { field: 'file', maxBytes },
    });
  }
  const allowed = extensionList(option.fileExtensions);
  const ext = name.includes('.') ? name.slice(name.lastIndexOf('.') + 1).toLowerCase() : '';
  if (allowed.length && !allowed.includes(ext)) {
    throw invalid('file', `must have one of the extensions ${allowed.join(', ')}`, 'extension');
  }
  const contentType = sniffContentType(file.data);
  checkContent(ext, allowed, contentType);
  await checkImageSize(file.data, option.imageSizeX, option.imageSizeY);
  return { key: crypto.randomBytes(24).toString('base64url'), optionId, name, contentType, data: file.data };
}

/** Writes a checked file and its record; answers its download key and URL. */
export async function saveCustomOptionFile(ctx: Ctx, file: CheckedOptionFile): Promise<{ key: string; url: string }> {
  const { key, optionId } = file;
  const path = storagePath(key);
  await writeMediaFile(ctx.app.config, path, file.data, { exclusive: true });
  try {
    await ctx.db.insert(customOptionFiles).values({
      key,
      optionId,
      path,
      originalName: file.name,
      contentType: file.contentType,
      size: file.data.length,
      createdAt: ctx.now,
    });
  } catch (err) {
    await deleteMediaFile(ctx.app.config, path).catch(() => undefined);
    throw err;
  }
  return { key, url: customOptionFileUrl(ctx, optionId, key) };
}

export interface OptionFileDownload {
  stream: fs.ReadStream;
  size: number;
  contentType: string;
  disposition: string;
}

/**
 * GET /custom-option-file/{optionId}/{key}: the file, when the key belongs to that option (else 404). Its
 * content type is read from its first bytes (an image or a PDF; anything else is application/octet-stream),
 * so a file declared as HTML never comes back as HTML.
 */
export async function openCustomOptionFile(ctx: Ctx, optionId: number, key: string): Promise<OptionFileDownload> {
  const missing = () => notFound('File not found', { reason: 'FILE_NOT_FOUND' });
  if (!KEY_PATTERN.test(key)) throw missing();
  const [row] = await ctx.db
    .select()
    .from(customOptionFiles)
    .where(and(eq(customOptionFiles.key, key), eq(customOptionFiles.optionId, optionId)));
  if (!row) throw missing();
  const info = await statMediaFile(ctx.app.config, row.path);
  if (!info) throw missing();
  const contentType = sniffContentType(await readMediaHead(info));
  return { stream: openMediaStream(info), size: info.size, contentType, disposition: attachmentDisposition(row.originalName) };
}
