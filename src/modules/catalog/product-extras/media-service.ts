/**
 * A product's image gallery. Uploads (base64 or a fetched URL) must decode as an image; they are converted
 * with sharp to the configured format and size and stored under media/catalog/product as /x/y/<name>.<ext>,
 * x and y being the first two characters of a unique name. Roles (image, small_image, thumbnail) belong to
 * one image of a product at a time: giving a role to an image takes it from the others. The first image of a
 * product gets all three roles unless the upload names its roles.
 */
import { and, asc, count, eq, inArray, ne } from 'drizzle-orm';
import { loadSharp } from '../../../platform/images.js';
import { afterCommit, withTx, type Ctx } from '../../../platform/context.js';
import { AppError, badRequest, notFound } from '../../../platform/errors.js';
import { compact } from '../../../platform/format.js';
import { deleteMediaFile, writeMediaFile } from '../../../platform/files.js';
import { fetchRemoteFile } from '../../../platform/remote-file.js';
import { declareConfig } from '../../../platform/settings.js';
import { isCatalogReader, lockProduct, requireReadableProduct } from '../products/subresource-shared.js';
import {
  MEDIA_ROLES,
  type MediaRole,
  type ProductMediaCreateInput,
  type ProductMediaDto,
  type ProductMediaUpdateInput,
} from './media-schemas.js';
import { requireProduct } from '../products/shared.js';
import { touchProduct } from '../products/touch.js';
import { productMedia } from '../tables.js';
import { PRODUCT_MEDIA_FOLDER, productImageUrl } from './media-urls.js';

// the media root is named by other modules' pages (CMS, blog, media library) too
export { baseMediaUrl } from './media-urls.js';

declareConfig({
  'catalog/media/format': {
    type: 'select',
    default: 'webp',
    label: 'Stored Image Format',
    options: [
      { value: 'webp', label: 'WebP' },
      { value: 'jpeg', label: 'JPEG' },
      { value: 'png', label: 'PNG' },
    ],
  },
  'catalog/media/max_dimension': {
    type: 'integer',
    default: 2000,
    label: 'Largest Image Side (pixels)',
    comment: 'larger images are scaled down',
    min: 1,
    max: 20000,
  },
  'catalog/media/max_upload_bytes': {
    type: 'integer',
    default: 10 * 1024 * 1024,
    label: 'Largest Image Upload (bytes)',
    comment: 'a decoded base64 image or a fetched file',
    min: 1,
  },
  'catalog/media/allow_private_urls': {
    type: 'boolean',
    default: false,
    label: 'Fetch Images from Private Addresses',
    comment: 'lets imageUrl reach private and loopback addresses (a local image server)',
    scopes: ['default'],
  },
});

const OUTPUT_FORMATS = { webp: 'webp', jpeg: 'jpg', png: 'png' } as const;
export type OutputFormat = keyof typeof OUTPUT_FORMATS;
/** what sharp may decode for us; SVG, PDF and other documents are not product images */
const INPUT_FORMATS = new Set(['jpeg', 'png', 'webp', 'gif', 'avif', 'heif', 'tiff']);
/** decoding more pixels than this is refused (a small file can claim a huge canvas) */
const MAX_INPUT_PIXELS = 100_000_000;
const FETCH_TIMEOUT_MS = 15_000;
const MAX_NAME = 80;

type MediaRow = typeof productMedia.$inferSelect;

// ---- reads ----

function sortRoles(types: readonly string[]): MediaRole[] {
  return MEDIA_ROLES.filter((r) => types.includes(r));
}

function toDto(ctx: Ctx, row: MediaRow): ProductMediaDto {
  return compact({
    id: row.id,
    file: row.file,
    url: productImageUrl(ctx, row.file),
    label: row.label,
    position: row.position,
    disabled: row.disabled,
    types: sortRoles(row.types),
  }) as ProductMediaDto;
}

/** A product's images by position, without any visibility check; disabled ones only when asked. */
export async function mediaOf(ctx: Ctx, productId: number, opts: { includeDisabled?: boolean } = {}): Promise<ProductMediaDto[]> {
  const where = opts.includeDisabled
    ? eq(productMedia.productId, productId)
    : and(eq(productMedia.productId, productId), eq(productMedia.disabled, false));
  const rows = await ctx.db.select().from(productMedia).where(where).orderBy(asc(productMedia.position), asc(productMedia.id));
  return rows.map((r) => toDto(ctx, r));
}

/** GET /products/{id}/media: storefront callers see the enabled images of a product they may see; catalog readers see all. */
export async function listProductMedia(ctx: Ctx, productId: number): Promise<ProductMediaDto[]> {
  await requireReadableProduct(ctx, productId);
  return mediaOf(ctx, productId, { includeDisabled: isCatalogReader(ctx) });
}

// ---- upload ----

interface Settings {
  format: OutputFormat;
  maxDimension: number;
  maxBytes: number;
  allowPrivate: boolean;
}

function mediaSettings(ctx: Ctx): Settings {
  const s = ctx.app.settings;
  const raw = (s.get('catalog/media/format', ctx.store.storeId) ?? 'webp').trim().toLowerCase();
  const format: OutputFormat = raw === 'jpg' ? 'jpeg' : raw in OUTPUT_FORMATS ? (raw as OutputFormat) : 'webp';
  const dim = s.getInt('catalog/media/max_dimension', ctx.store.storeId);
  const bytes = s.getInt('catalog/media/max_upload_bytes', ctx.store.storeId);
  return {
    format,
    maxDimension: Number.isFinite(dim) && dim > 0 ? Math.min(dim, 16_000) : 2000,
    maxBytes: Number.isFinite(bytes) && bytes > 0 ? bytes : 10 * 1024 * 1024,
    allowPrivate: s.getBool('catalog/media/allow_private_urls', ctx.store.storeId),
  };
}

function fieldError(field: string, message: string, constraint = 'invalid'): AppError {
  return badRequest(`${field} ${message}`, { reason: 'VALIDATION_FAILED', details: { field, constraint } });
}

function tooLarge(field: string, maxBytes: number): AppError {
  return new AppError('payload_too_large', `${field}: the image is larger than ${maxBytes} bytes`, {
    reason: 'FILE_TOO_LARGE',
    details: { field, maxBytes },
  });
}

/** The bytes of a base64 string (or a data: URL), checked for form and size before decoding. */
function decodeBase64(value: string, field: string, maxBytes: number): Buffer {
  let text = value.trim();
  const dataUrl = /^data:([^,]*),/i.exec(text);
  if (dataUrl) {
    if (!/;base64$/i.test(dataUrl[1])) throw fieldError(field, 'must be a base64 data: URL', 'format');
    text = text.slice(dataUrl[0].length);
  }
  text = text.replace(/\s+/g, '');
  if (!text) throw fieldError(field, 'is empty', 'minLength');
  // the length of the data is known before decoding: refuse an oversized payload early
  const padding = text.endsWith('==') ? 2 : text.endsWith('=') ? 1 : 0;
  if (Math.floor((text.length * 3) / 4) - padding > maxBytes) throw tooLarge(field, maxBytes);
  if (!/^[A-Za-z0-9+/_-]+={0,2}$/.test(text) || text.length % 4 === 1) throw fieldError(field, 'is not valid base64', 'format');
  const data = Buffer.from(text, text.includes('-') || text.includes('_') ? 'base64url' : 'base64');
  if (data.length === 0) throw fieldError(field, 'is empty', 'minLength');
  if (data.length > maxBytes) throw tooLarge(field, maxBytes);
  return data;
}

async function sourceBytes(ctx: Ctx, input: ProductMediaCreateInput, settings: Settings): Promise<{ data: Buffer; field: string }> {
  if (input.base64 !== undefined && input.imageData !== undefined) {
    throw badRequest('Give base64 or its alias imageData, not both', { reason: 'VALIDATION_FAILED', details: { field: 'base64' } });
  }
  const b64 = input.base64 ?? input.imageData;
  const b64Field = input.base64 !== undefined ? 'base64' : 'imageData';
  if (b64 !== undefined && input.imageUrl !== undefined) {
    throw badRequest(`Give either ${b64Field} or imageUrl, not both`, { reason: 'VALIDATION_FAILED', details: { field: 'imageUrl' } });
  }
  if (b64 !== undefined) return { data: decodeBase64(b64, b64Field, settings.maxBytes), field: b64Field };
  if (input.imageUrl !== undefined) {
    const fetched = await fetchRemoteFile(input.imageUrl.trim(), {
      field: 'imageUrl',
      maxBytes: settings.maxBytes,
      timeoutMs: FETCH_TIMEOUT_MS,
      allowPrivate: settings.allowPrivate,
    });
    if (!fetched.data.length) throw fieldError('imageUrl', 'returned an empty file', 'minLength');
    ctx.log.debug({ url: fetched.url, bytes: fetched.data.length }, 'image fetched');
    return { data: fetched.data, field: 'imageUrl' };
  }
  throw badRequest('base64 (or imageData) or imageUrl is required', {
    reason: 'VALIDATION_FAILED',
    details: { field: 'base64', constraint: 'required' },
  });
}

/** Decodes the bytes as an image (whatever the file is called) and converts it; anything else is a 400. */
async function convertImage(data: Buffer, field: string, settings: Settings): Promise<Buffer> {
  const notImage = () => fieldError(field, 'is not an image (JPEG, PNG, WebP, GIF, AVIF, HEIF or TIFF)', 'image');
  let format: string | undefined;
  try {
    format = (await (await loadSharp())(data, { limitInputPixels: MAX_INPUT_PIXELS }).metadata()).format;
  } catch (err) {
    if (/pixel limit/i.test(String((err as Error).message))) throw fieldError(field, 'has too many pixels', 'maximum');
    throw notImage();
  }
  if (!format || !INPUT_FORMATS.has(format)) throw notImage();
  try {
    let img = (await loadSharp())(data, { limitInputPixels: MAX_INPUT_PIXELS })
      .rotate()
      .resize({ width: settings.maxDimension, height: settings.maxDimension, fit: 'inside', withoutEnlargement: true });
    if (settings.format === 'webp') img = img.webp({ quality: 85 });
    else if (settings.format === 'jpeg') img = img.flatten({ background: '#ffffff' }).jpeg({ quality: 85, mozjpeg: true });
    else img = img.png({ compressionLevel: 8 });
    return await img.toBuffer();
  } catch (err) {
    if (/pixel limit/i.test(String((err as Error).message))) throw fieldError(field, 'has too many pixels', 'maximum');
    throw notImage();
  }
}

/** A file name from the given one: lower-case ASCII letters, digits, '-' and '_', without its extension. */
export function safeImageName(filename: string | undefined): string {
  const base = (filename ?? 'upload.jpg').split(/[/\\]/).pop() ?? '';
  const stem = base.includes('.') ? base.slice(0, base.lastIndexOf('.')) : base;
  const clean = stem
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9_-]+/g, '_')
    .replace(/^[_-]+|[_-]+$/g, '')
    .slice(0, MAX_NAME);
  return clean || 'image';
}

function dispersion(name: string): string {
  return `/${name[0]}/${name[1] ?? '_'}`;
}

/** Stores the converted image under a name not used by any file or gallery row; returns its file path (`/a/b/name.ext`). */
async function storeImage(ctx: Ctx, name: string, ext: string, data: Buffer): Promise<string> {
  const config = ctx.app.config;
  for (let n = 0; n < 1000; n++) {
    const candidate = n === 0 ? name : `${name}_${n}`;
    const file = `${dispersion(candidate)}/${candidate}.${ext}`;
    const [used] = await ctx.db.select({ n: count() }).from(productMedia).where(eq(productMedia.file, file));
    if (used.n > 0) continue;
    if (await writeMediaFile(config, `${PRODUCT_MEDIA_FOLDER}${file}`, data, { exclusive: true })) return file;
  }
  throw new AppError('conflict', 'No free file name for the image; give another filename', { reason: 'NAME_EXHAUSTED' });
}

/** Takes the given roles from every other image of the product. */
async function releaseRoles(ctx: Ctx, productId: number, exceptId: number, roles: readonly MediaRole[]): Promise<void> {
  if (!roles.length) return;
  const others = await ctx.db
    .select({ id: productMedia.id, types: productMedia.types })
    .from(productMedia)
    .where(and(eq(productMedia.productId, productId), ne(productMedia.id, exceptId)));
  for (const o of others) {
    const kept = o.types.filter((r) => !(roles as readonly string[]).includes(r));
    if (kept.length !== o.types.length) await ctx.db.update(productMedia).set({ types: kept }).where(eq(productMedia.id, o.id));
  }
}

function cleanLabel(label: string | null | undefined): string | null | undefined {
  if (label === undefined) return undefined;
  if (label === null) return null;
  if (/[\u0000-\u001f\u007f]/.test(label)) throw fieldError('label', 'must not contain control characters', 'pattern');
  const t = label.trim();
  return t ? t : null;
}

/** POST /products/{id}/media: decodes, converts and stores the image, then adds it to the gallery. */
export async function addProductMedia(ctx: Ctx, productId: number, input: ProductMediaCreateInput): Promise<ProductMediaDto> {
  const label = cleanLabel(input.label);
  // a product that does not exist is reported before any download or conversion
  await requireProduct(ctx, productId);
  const settings = mediaSettings(ctx);
  const { data, field } = await sourceBytes(ctx, input, settings);
  const converted = await convertImage(data, field, settings);
  const file = await storeImage(ctx, safeImageName(input.filename), OUTPUT_FORMATS[settings.format], converted);
  try {
    return await withTx(ctx, async (tx) => {
      await lockProduct(tx, productId);
      const existing = await tx.db
        .select({ position: productMedia.position })
        .from(productMedia)
        .where(eq(productMedia.productId, productId));
      let types: MediaRole[];
      if (input.types !== undefined) types = sortRoles(input.types);
      else types = existing.length === 0 ? [...MEDIA_ROLES] : [];
      const position = input.position ?? (existing.length ? Math.max(...existing.map((e) => e.position)) + 1 : 1);
      const [row] = await tx.db
        .insert(productMedia)
        .values({ productId, file, label: label ?? null, position, disabled: input.disabled ?? false, types })
        .returning();
      await releaseRoles(tx, productId, row.id, types);
      await touchProduct(tx, productId);
      return toDto(tx, row);
    });
  } catch (err) {
    await deleteMediaFile(ctx.app.config, `${PRODUCT_MEDIA_FOLDER}${file}`).catch(() => undefined);
    throw err;
  }
}

// ---- change and remove ----

async function requireMedia(ctx: Ctx, productId: number, valueId: number): Promise<MediaRow> {
  const [row] = await ctx.db
    .select()
    .from(productMedia)
    .where(and(eq(productMedia.id, valueId), eq(productMedia.productId, productId)))
    .for('update');
  if (!row) throw notFound(`Image ${valueId} not found on this product`, { reason: 'MEDIA_NOT_FOUND', details: { valueId } });
  return row;
}

/** PUT /products/{id}/media: changes label, position, disabled and roles of one image (the keys sent). */
export async function updateProductMedia(ctx: Ctx, productId: number, input: ProductMediaUpdateInput): Promise<ProductMediaDto> {
  const label = cleanLabel(input.label);
  return withTx(ctx, async (tx) => {
    await lockProduct(tx, productId);
    const row = await requireMedia(tx, productId, input.valueId);
    const set: Partial<Pick<MediaRow, 'label' | 'position' | 'disabled' | 'types'>> = {};
    if (label !== undefined) set.label = label;
    if (input.position !== undefined) set.position = input.position;
    if (input.disabled !== undefined) set.disabled = input.disabled;
    const roles = input.types === undefined ? undefined : sortRoles(input.types);
    if (roles) set.types = roles;
    if (!Object.keys(set).length) return toDto(tx, row);
    const [updated] = await tx.db.update(productMedia).set(set).where(eq(productMedia.id, row.id)).returning();
    if (roles) await releaseRoles(tx, productId, row.id, roles);
    await touchProduct(tx, productId);
    return toDto(tx, updated);
  });
}

/** Deletes a file once the transaction has committed, unless another gallery row still uses it. */
async function removeFileAfterCommit(ctx: Ctx, file: string): Promise<void> {
  const [used] = await ctx.db.select({ n: count() }).from(productMedia).where(eq(productMedia.file, file));
  if (used.n > 0) return;
  const config = ctx.app.config;
  const log = ctx.log;
  afterCommit(ctx, () => {
    deleteMediaFile(config, `${PRODUCT_MEDIA_FOLDER}${file}`).catch((err) => log.warn({ err, file }, 'could not delete an image file'));
  });
}

/** DELETE /products/{id}/media: removes one image and its file. */
export async function deleteProductMedia(ctx: Ctx, productId: number, valueId: number | undefined): Promise<void> {
  if (valueId === undefined) {
    throw badRequest('valueId is required (in the query or the body)', {
      reason: 'VALIDATION_FAILED',
      details: { field: 'valueId', constraint: 'required' },
    });
  }
  await withTx(ctx, async (tx) => {
    await lockProduct(tx, productId);
    const row = await requireMedia(tx, productId, valueId);
    await tx.db.delete(productMedia).where(eq(productMedia.id, row.id));
    await touchProduct(tx, productId);
    await removeFileAfterCommit(tx, row.file);
  });
}

/**
 * For a product about to be deleted, in the deleting transaction: its image files are removed once that
 * transaction commits (the gallery rows go with the product).
 */
export async function purgeProductMediaFiles(ctx: Ctx, productId: number): Promise<void> {
  const rows = await ctx.db.select({ file: productMedia.file }).from(productMedia).where(eq(productMedia.productId, productId));
  const files = [...new Set(rows.map((r) => r.file))];
  if (!files.length) return;
  const shared = await ctx.db
    .select({ file: productMedia.file })
    .from(productMedia)
    .where(and(inArray(productMedia.file, files), ne(productMedia.productId, productId)));
  const keep = new Set(shared.map((r) => r.file));
  const config = ctx.app.config;
  const log = ctx.log;
  afterCommit(ctx, () => {
    for (const file of files) {
      if (keep.has(file)) continue;
      deleteMediaFile(config, `${PRODUCT_MEDIA_FOLDER}${file}`).catch((err) => log.warn({ err, file }, 'could not delete an image file'));
    }
  });
}

/**
 * A base64 image decoded, checked and converted as an upload is, to `format` (else the configured one), without
 * storing it: the Magento 1 API replaces an image's file in place, under its name and so in its format.
 */
export async function convertBase64Image(ctx: Ctx, base64: string, field: string, format?: OutputFormat): Promise<Buffer> {
  const settings = mediaSettings(ctx);
  const used = format ? { ...settings, format } : settings;
  return convertImage(decodeBase64(base64, field, used.maxBytes), field, used);
}
