/**
 * Product custom options. Select types (drop_down, radio, checkbox, multiple) carry at least one value and are
 * priced on their values; the other types carry their own price and no values. maxCharacters belongs to field
 * and area options, fileExtensions and imageSizeX/Y to file options. Every write keeps the product's
 * has_required_options flag in step, in the same transaction.
 * Files shoppers upload for `file` options are stored under media/custom_options (never public) and read
 * back by option id and a random key.
 */
import crypto from 'node:crypto';
import type fs from 'node:fs';
import { and, asc, eq, inArray, sql } from 'drizzle-orm';
import type { Metadata } from 'sharp';
import { loadSharp } from '../../../platform/images.js';
import { afterCommit, withTx, type Ctx } from '../../../platform/context.js';
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
import { dec, toWire } from '../../../platform/money.js';
import { declareDefaults } from '../../../platform/settings.js';
import { DECIMAL_PLACES, lockProduct, requireReadableProduct, syncHasRequiredOptions } from '../products/subresource-shared.js';
import {
  SELECT_OPTION_TYPES,
  type CustomOptionCreateInput,
  type CustomOptionDto,
  type CustomOptionUpdateInput,
  type CustomOptionValueDto,
  type CustomOptionValueInputT,
  type OptionType,
} from './custom-options-schemas.js';
import { PRODUCT_TYPES, type ProductType } from '../products/shared.js';
import { touchProduct } from '../products/touch.js';
import { customOptionFiles, customOptionValues, customOptions } from '../tables.js';

declareDefaults({
  /** largest file a shopper may upload for a file option, in bytes */
  'catalog/custom_options/max_upload_bytes': 10 * 1024 * 1024,
});

/** Grouped products are sold as their children: they have no options of their own. */
const OPTION_PRODUCT_TYPES: readonly ProductType[] = PRODUCT_TYPES.filter((t) => t !== 'grouped');
const PRICE_MAX = 999_999_999_999;
const API_PATH = 'api/rest/v2';
const KEY_PATTERN = /^[A-Za-z0-9_-]{32}$/;
const MAX_IMAGE_PIXELS = 100_000_000;

type OptionRow = typeof customOptions.$inferSelect;
type ValueRow = typeof customOptionValues.$inferSelect;

export function isSelectType(type: string): boolean {
  return (SELECT_OPTION_TYPES as readonly string[]).includes(type);
}

/** Which type-specific fields each type takes. */
const FIELD_TYPES = {
  price: (t: string) => !isSelectType(t),
  maxCharacters: (t: string) => t === 'field' || t === 'area',
  fileExtensions: (t: string) => t === 'file',
  imageSizeX: (t: string) => t === 'file',
  imageSizeY: (t: string) => t === 'file',
} as const;
type TypedField = keyof typeof FIELD_TYPES;

// ---- reads ----

function valueDto(v: ValueRow): CustomOptionValueDto {
  return compact({ id: v.id, title: v.title, price: toWire(v.price), priceType: v.priceType, sku: v.sku, sortOrder: v.sortOrder }) as CustomOptionValueDto;
}

function toDto(o: OptionRow, values: ValueRow[]): CustomOptionDto {
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

async function valuesOf(ctx: Ctx, optionIds: number[]): Promise<Map<number, ValueRow[]>> {
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
  const values = await valuesOf(ctx, rows.map((r) => r.id));
  return rows.map((r) => toDto(r, values.get(r.id) ?? []));
}

/** GET /products/{id}/custom-options: the options of a product the caller may see. */
export async function listCustomOptions(ctx: Ctx, productId: number): Promise<CustomOptionDto[]> {
  await requireReadableProduct(ctx, productId);
  return customOptionsOf(ctx, productId);
}

// ---- validation ----

function invalid(field: string, message: string, constraint = 'invalid'): AppError {
  return badRequest(`${field} ${message}`, { reason: 'VALIDATION_FAILED', details: { field, constraint } });
}

function cleanText(value: string, field: string, opts: { required: boolean }): string | null {
  if (/[\u0000-\u001f\u007f]/.test(value)) throw invalid(field, 'must not contain control characters', 'pattern');
  const t = value.trim();
  if (!t) {
    if (opts.required) throw invalid(field, 'must not be empty', 'minLength');
    return null;
  }
  return t;
}

function priceOf(value: number, field: string): string {
  if (!Number.isFinite(value) || value < 0) throw invalid(field, 'must be a number of at least 0', 'minimum');
  if (value > PRICE_MAX) throw invalid(field, `must be at most ${PRICE_MAX}`, 'maximum');
  const d = dec(value);
  if (d.decimalPlaces() > DECIMAL_PLACES) throw invalid(field, `must have at most ${DECIMAL_PLACES} decimal places`, 'multipleOf');
  return d.toFixed();
}

/** "jpg, .PNG;pdf" → "jpg, png, pdf"; empty → null. */
function cleanExtensions(value: string): string | null {
  const list = value
    .split(/[\s,;]+/)
    .map((e) => e.replace(/^\.+/, '').toLowerCase())
    .filter(Boolean);
  for (const e of list) {
    if (!/^[a-z0-9]{1,10}$/.test(e)) throw invalid('fileExtensions', `has an invalid extension "${e}"`, 'pattern');
  }
  return list.length ? [...new Set(list)].join(', ') : null;
}

export function extensionList(fileExtensions: string | null): string[] {
  return (fileExtensions ?? '').split(/[\s,;]+/).filter(Boolean);
}

type OptionColumns = Omit<OptionRow, 'id' | 'productId'>;

/**
 * The option's columns after applying `input` (the keys sent) to `existing` (none on create). A type-specific
 * field sent for a type that does not take it is a 400; one left over from a previous type is cleared.
 */
function optionColumns(input: CustomOptionUpdateInput, existing?: OptionRow): OptionColumns {
  const type = (input.type ?? existing?.type) as OptionType | undefined;
  if (!type) throw invalid('type', 'is required', 'required');
  const titleRaw = input.title ?? existing?.title;
  if (titleRaw === undefined) throw invalid('title', 'is required', 'required');
  const title = cleanText(titleRaw, 'title', { required: true })!;
  for (const field of Object.keys(FIELD_TYPES) as TypedField[]) {
    const v = input[field];
    if (v !== undefined && v !== null && !FIELD_TYPES[field](type)) {
      throw invalid(field, `is not used by ${type} options`, 'type');
    }
  }
  const keep = <K extends TypedField>(field: K): OptionRow[K] | null =>
    FIELD_TYPES[field](type) && existing && FIELD_TYPES[field](existing.type) ? existing[field] : null;
  const select = isSelectType(type);
  let price: string | null = null;
  if (!select) {
    if (input.price !== undefined && input.price !== null) price = priceOf(input.price, 'price');
    else if (input.price === undefined) price = keep('price');
    price ??= '0';
  }
  const sku = input.sku !== undefined ? (input.sku === null ? null : cleanText(input.sku, 'sku', { required: false })) : (existing?.sku ?? null);
  const fileExtensions =
    input.fileExtensions !== undefined ? (input.fileExtensions === null ? null : cleanExtensions(input.fileExtensions)) : keep('fileExtensions');
  return {
    title,
    type,
    required: input.required ?? existing?.required ?? false,
    sortOrder: input.sortOrder ?? existing?.sortOrder ?? 0,
    price,
    priceType: select ? 'fixed' : (input.priceType ?? (existing && !isSelectType(existing.type) ? existing.priceType : 'fixed')),
    sku,
    maxCharacters: input.maxCharacters !== undefined ? input.maxCharacters : keep('maxCharacters'),
    fileExtensions,
    imageSizeX: input.imageSizeX !== undefined ? input.imageSizeX : keep('imageSizeX'),
    imageSizeY: input.imageSizeY !== undefined ? input.imageSizeY : keep('imageSizeY'),
  };
}

type ValueColumns = Omit<ValueRow, 'id' | 'optionId'> & { id?: number };

/** Titles compare without regard to case: a shopper cannot tell "Red" from "red" apart in a list. */
const titleKey = (title: string) => title.normalize('NFC').toLowerCase();

/** The values' columns; ids must be values of the option, and no two values of an option share a title (400). */
function valueColumns(values: CustomOptionValueInputT[], existingIds: Set<number>): ValueColumns[] {
  const seen = new Set<number>();
  const titles = new Map<string, number>();
  return values.map((v, i) => {
    const field = `values.${i}`;
    if (v.id !== undefined) {
      if (!existingIds.has(v.id)) throw invalid(`${field}.id`, `${v.id} is not a value of this option`, 'reference');
      if (seen.has(v.id)) throw invalid(`${field}.id`, `${v.id} is listed twice`, 'uniqueItems');
      seen.add(v.id);
    }
    const title = cleanText(v.title, `${field}.title`, { required: true })!;
    const prior = titles.get(titleKey(title));
    if (prior !== undefined) throw invalid(`${field}.title`, `"${title}" is already the title of values.${prior}`, 'uniqueItems');
    titles.set(titleKey(title), i);
    return {
      id: v.id,
      title,
      price: priceOf(v.price ?? 0, `${field}.price`),
      priceType: v.priceType ?? 'fixed',
      sku: v.sku === undefined || v.sku === null ? null : cleanText(v.sku, `${field}.sku`, { required: false }),
      sortOrder: v.sortOrder ?? i,
    };
  });
}

/** The values an option of `type` ends up with: undefined keeps the current ones. */
function checkValues(type: string, input: CustomOptionValueInputT[] | undefined, hadSelectValues: boolean): void {
  if (isSelectType(type)) {
    if (input === undefined && !hadSelectValues) throw invalid('values', `needs at least one value for ${type} options`, 'required');
    if (input !== undefined && input.length === 0) throw invalid('values', `needs at least one value for ${type} options`, 'minItems');
  } else if (input !== undefined && input.length > 0) {
    throw invalid('values', `are only for ${SELECT_OPTION_TYPES.join(', ')} options`, 'type');
  }
}

// ---- writes ----

async function requireOption(ctx: Ctx, productId: number, id: number): Promise<OptionRow> {
  const [row] = await ctx.db
    .select()
    .from(customOptions)
    .where(and(eq(customOptions.id, id), eq(customOptions.productId, productId)))
    .for('update');
  if (!row) throw notFound(`Custom option ${id} not found on this product`, { reason: 'OPTION_NOT_FOUND', details: { id } });
  return row;
}

async function afterWrite(ctx: Ctx, productId: number, optionId: number): Promise<CustomOptionDto> {
  await syncHasRequiredOptions(ctx, productId);
  await touchProduct(ctx, productId);
  const [row] = await ctx.db.select().from(customOptions).where(eq(customOptions.id, optionId));
  const values = await valuesOf(ctx, [optionId]);
  return toDto(row, values.get(optionId) ?? []);
}

/** POST /products/{id}/custom-options. */
export async function createCustomOption(ctx: Ctx, productId: number, input: CustomOptionCreateInput): Promise<CustomOptionDto> {
  const cols = optionColumns(input);
  checkValues(cols.type, input.values, false);
  const values = isSelectType(cols.type) ? valueColumns((input.values ?? []).map((v) => ({ ...v, id: undefined })), new Set()) : [];
  return withTx(ctx, async (tx) => {
    await lockProduct(tx, productId, OPTION_PRODUCT_TYPES);
    const [row] = await tx.db.insert(customOptions).values({ ...cols, productId }).returning({ id: customOptions.id });
    if (values.length) await tx.db.insert(customOptionValues).values(values.map(({ id: _id, ...v }) => ({ ...v, optionId: row.id })));
    return afterWrite(tx, productId, row.id);
  });
}

const sameValue = (row: ValueRow, v: Omit<ValueColumns, 'id'>) =>
  row.title === v.title &&
  dec(row.price).eq(v.price) &&
  row.priceType === v.priceType &&
  row.sku === v.sku &&
  row.sortOrder === v.sortOrder;

/** Changes existing values of an option in one statement (UPDATE ... FROM VALUES). */
async function updateValues(ctx: Ctx, optionId: number, changed: (Omit<ValueColumns, 'id'> & { id: number })[]): Promise<void> {
  if (!changed.length) return;
  const c = customOptionValues;
  const rows = sql.join(
    changed.map((v) => sql`(${v.id}::integer, ${v.title}::text, ${v.price}::numeric, ${v.priceType}::text, ${v.sku}::text, ${v.sortOrder}::integer)`),
    sql`, `,
  );
  const col = (column: { name: string }) => sql.identifier(column.name);
  await ctx.db.execute(sql`
    UPDATE ${c} SET ${col(c.title)} = d.title, ${col(c.price)} = d.price, ${col(c.priceType)} = d.price_type,
      ${col(c.sku)} = d.sku, ${col(c.sortOrder)} = d.sort_order
    FROM (VALUES ${rows}) AS d(id, title, price, price_type, sku, sort_order)
    WHERE ${c.id} = d.id AND ${c.optionId} = ${optionId}`);
}

/**
 * Replaces an option's values with `values` in at most three statements, however many there are: one delete
 * of the values no longer listed, one insert of the new ones, one update of the kept ones that changed.
 */
async function replaceValues(ctx: Ctx, optionId: number, current: ValueRow[], values: ValueColumns[]): Promise<void> {
  const byId = new Map(current.map((r) => [r.id, r]));
  const kept = new Set(values.flatMap((v) => (v.id === undefined ? [] : [v.id])));
  const gone = current.map((r) => r.id).filter((cid) => !kept.has(cid));
  if (gone.length) await ctx.db.delete(customOptionValues).where(inArray(customOptionValues.id, gone));
  const fresh = values.filter((v) => v.id === undefined).map(({ id: _id, ...v }) => ({ ...v, optionId }));
  if (fresh.length) await ctx.db.insert(customOptionValues).values(fresh);
  const changed = values.filter((v): v is ValueColumns & { id: number } => v.id !== undefined && !sameValue(byId.get(v.id)!, v));
  await updateValues(ctx, optionId, changed);
}

/** PUT /products/{id}/custom-options/{optionId}: the keys sent; `values`, when sent, replaces the values. */
export async function updateCustomOption(ctx: Ctx, productId: number, id: number, input: CustomOptionUpdateInput): Promise<CustomOptionDto> {
  return withTx(ctx, async (tx) => {
    await lockProduct(tx, productId);
    const existing = await requireOption(tx, productId, id);
    const cols = optionColumns(input, existing);
    const wasSelect = isSelectType(existing.type);
    checkValues(cols.type, input.values, wasSelect);
    const current = await tx.db.select().from(customOptionValues).where(eq(customOptionValues.optionId, id));
    await tx.db.update(customOptions).set(cols).where(eq(customOptions.id, id));
    if (!isSelectType(cols.type)) {
      if (current.length) await tx.db.delete(customOptionValues).where(eq(customOptionValues.optionId, id));
    } else if (input.values !== undefined) {
      await replaceValues(tx, id, current, valueColumns(input.values, new Set(current.map((c) => c.id))));
    }
    return afterWrite(tx, productId, id);
  });
}

/** DELETE /products/{id}/custom-options/{optionId}: the option, its values and the files shoppers uploaded for it. */
export async function deleteCustomOption(ctx: Ctx, productId: number, id: number): Promise<void> {
  await withTx(ctx, async (tx) => {
    await lockProduct(tx, productId);
    await requireOption(tx, productId, id);
    const stored = await tx.db.select({ path: customOptionFiles.path }).from(customOptionFiles).where(eq(customOptionFiles.optionId, id));
    await tx.db.delete(customOptions).where(eq(customOptions.id, id));
    await syncHasRequiredOptions(tx, productId);
    await touchProduct(tx, productId);
    const config = tx.app.config;
    const log = tx.log;
    afterCommit(tx, () => {
      for (const f of stored) deleteMediaFile(config, f.path).catch((err) => log.warn({ err, path: f.path }, 'could not delete an option file'));
    });
  });
}

// ---- uploaded files ----

export interface OptionFileUpload {
  name: string;
  /** as the uploader declared it: never trusted; the type stored and served comes from the content */
  contentType: string;
  data: Buffer;
}

function cleanFileName(name: string): string {
  const base = (name.split(/[/\\]/).pop() ?? '').replace(/[\u0000-\u001f\u007f]/g, '').trim().slice(0, 255);
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
  if (!meta.width || !meta.height || meta.format === 'svg' || meta.format === 'pdf') throw invalid('file', 'must be an image for this option', 'image');
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
  const [option] = Number.isInteger(optionId) && optionId > 0 && optionId <= 2147483647
    ? await ctx.db.select().from(customOptions).where(eq(customOptions.id, optionId))
    : [];
  if (!option) throw notFound(`Custom option ${optionId} not found`, { reason: 'OPTION_NOT_FOUND' });
  if (option.type !== 'file') throw badRequest(`Custom option ${optionId} is a ${option.type} option; only file options take files`, { reason: 'NOT_A_FILE_OPTION' });
  const name = cleanFileName(file.name);
  if (!Buffer.isBuffer(file.data) || file.data.length === 0) throw invalid('file', 'is empty', 'minLength');
  const maxBytes = ctx.app.settings.getInt('catalog/custom_options/max_upload_bytes', ctx.store.storeId);
  if (Number.isFinite(maxBytes) && maxBytes > 0 && file.data.length > maxBytes) {
    throw new AppError('payload_too_large', `file is larger than ${maxBytes} bytes`, { reason: 'FILE_TOO_LARGE', details: { field: 'file', maxBytes } });
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
