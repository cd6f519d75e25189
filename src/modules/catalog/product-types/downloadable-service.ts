/**
 * The links of downloadable products: what a buyer may download (a URL or a stored file), its price when links
 * are sold separately, how often and whether it may be shared, and an optional sample. Link files live under
 * DATA_DIR/media/downloadable with generated names and are never served by the public media route. A sample
 * is a free preview, public by nature: a sample file lives in the public folder media/catalog/downloadable_samples
 * (a generated name; its extension from its content, or a harmless kind named by the file name, else .bin) and
 * its `sampleUrl` is its full media URL. Storefront callers see the title, price, sort order, download limit
 * and the sample's URL only, never where the link points.
 */
import crypto from 'node:crypto';
import { and, asc, eq } from 'drizzle-orm';
import { afterCommit, withTx, type Ctx } from '../../../platform/context.js';
import { badRequest, notFound } from '../../../platform/errors.js';
import { DOWNLOADABLE_DIR, DOWNLOADABLE_SAMPLES_DIR, deleteMediaFile, writeMediaFile } from '../../../platform/files.js';
import {
  OCTET_STREAM,
  SAMPLE_CONTENT_TYPES,
  documentTypeOfExtension,
  extensionForType,
  sniffContentType,
} from '../../../platform/file-types.js';
import { toWire } from '../../../platform/money.js';
import { refreshPriceRanges } from '../products/price.js';
import { touchProduct } from '../products/touch.js';
import {
  MONEY_MAX,
  decimalField,
  invalidField,
  isCatalogReader,
  lockProduct,
  requireReadableProduct,
} from '../products/subresource-shared.js';
import type { DownloadableLinkCreateT, DownloadableLinkDto, DownloadableLinkUpdateT } from '../products/subresource-schemas.js';
import { baseMediaUrl } from '../product-extras/media-urls.js';
import { downloadableLinks } from '../tables.js';

type LinkRow = typeof downloadableLinks.$inferSelect;
type LinkType = 'url' | 'file';

const DOWNLOADABLE: ['downloadable'] = ['downloadable'];

/** The full media URL of a stored sample file (`/a/b/<name>.<ext>`). */
export function sampleFileUrl(ctx: Ctx, file: string): string {
  return `${baseMediaUrl(ctx)}${DOWNLOADABLE_SAMPLES_DIR}${file}`;
}

/** Where a link's sample is: its URL, or the media URL of its file. */
function sampleUrlOf(ctx: Ctx, row: Pick<LinkRow, 'sampleType' | 'sampleUrl' | 'sampleFile'>): string | undefined {
  if (row.sampleType === 'url' && row.sampleUrl !== null) return row.sampleUrl;
  if (row.sampleType === 'file' && row.sampleFile !== null) return sampleFileUrl(ctx, row.sampleFile);
  return undefined;
}

function toDto(ctx: Ctx, row: LinkRow, backend = isCatalogReader(ctx)): DownloadableLinkDto {
  const dto: DownloadableLinkDto = {
    id: row.id,
    title: row.title,
    price: toWire(row.price),
    sortOrder: row.sortOrder,
    numberOfDownloads: row.numberOfDownloads,
  };
  if (backend) {
    dto.isShareable = row.isShareable;
    dto.linkType = row.linkType;
    if (row.linkUrl !== null) dto.linkUrl = row.linkUrl;
    if (row.linkFile !== null) dto.linkFile = row.linkFile;
    if (row.sampleType !== null) dto.sampleType = row.sampleType;
    if (row.sampleFile !== null) dto.sampleFile = row.sampleFile;
  }
  const sampleUrl = sampleUrlOf(ctx, row);
  if (sampleUrl !== undefined) dto.sampleUrl = sampleUrl;
  return dto;
}

/** The downloadable product's links, by sort order. */
export async function listDownloadableLinks(ctx: Ctx, productId: number): Promise<DownloadableLinkDto[]> {
  await requireReadableProduct(ctx, productId, DOWNLOADABLE);
  const rows = await ctx.db
    .select()
    .from(downloadableLinks)
    .where(eq(downloadableLinks.productId, productId))
    .orderBy(asc(downloadableLinks.sortOrder), asc(downloadableLinks.id));
  const backend = isCatalogReader(ctx);
  return rows.map((r) => toDto(ctx, r, backend));
}

// ---- input ----

function present(s: string | undefined | null): s is string {
  return typeof s === 'string' && s.trim() !== '';
}

function cleanTitle(title: string): string {
  if (!title.trim()) invalidField('title', 'must not be empty', 'minLength');
  if (/[\u0000-\u001f\u007f]/.test(title)) invalidField('title', 'must not contain control characters', 'pattern');
  return title.trim();
}

function cleanUrl(raw: string, field: string): string {
  const s = raw.trim();
  let u: URL;
  try {
    u = new URL(s);
  } catch {
    return invalidField(field, 'is not a valid URL', 'format');
  }
  if (u.protocol !== 'http:' && u.protocol !== 'https:') invalidField(field, 'must be an http or https URL', 'format');
  if (/[\u0000-\u001f\u007f\s]/.test(s)) invalidField(field, 'must not contain spaces or control characters', 'format');
  return s;
}

/** File content sent as base64 (a `data:...;base64,` prefix is allowed). */
function decodeBase64(raw: string, field: string): Buffer {
  const body = raw.replace(/^data:[^,]*;base64,/i, '').replace(/\s+/g, '');
  if (!body || body.length % 4 !== 0 || !/^[A-Za-z0-9+/]*={0,2}$/.test(body))
    invalidField(field, 'must be base64-encoded file content', 'contentEncoding');
  const data = Buffer.from(body, 'base64');
  if (!data.length) invalidField(field, 'must not be empty', 'minLength');
  return data;
}

/** A generated relative path under a folder: `/a/b/<random>.<ext>` (no extension when `ext` is empty). */
function generatedName(ext: string): string {
  const hex = crypto.randomBytes(16).toString('hex');
  return `/${hex[0]}/${hex[1]}/${hex}${ext ? `.${ext}` : ''}`;
}

function nameExtension(fileName: string | undefined): string {
  const m = fileName ? /\.([A-Za-z0-9]{1,10})$/.exec(fileName.trim()) : null;
  return m ? m[1].toLowerCase() : '';
}

/** A link file keeps the extension of its name: it is only ever sent to buyers as a download. */
function linkExtension(fileName: string | undefined): string {
  return nameExtension(fileName);
}

/**
 * The extension a public sample file is stored (and so served) under. An image or a PDF, told by its content,
 * gets its own; a name naming an image or PDF whose content is not one is a 400. Otherwise a harmless kind
 * the name names (audio, video, an archive, plain text) keeps its extension, and anything else (HTML, SVG,
 * scripts, unknown kinds) is stored as `.bin`, served as a download.
 */
function sampleExtension(fileName: string | undefined, data: Buffer, names: TargetNames): string {
  const sniffed = sniffContentType(data);
  const given = nameExtension(fileName);
  const claimed = given ? documentTypeOfExtension(given) : undefined;
  if (claimed && claimed !== sniffed && !(claimed.startsWith('image/') && sniffed.startsWith('image/'))) {
    invalidField(
      names.base64,
      `content does not match the extension .${given} of ${names.fileName}: expected ${claimed.startsWith('image/') ? 'an image' : claimed}`,
      'contentType',
    );
  }
  if (sniffed !== OCTET_STREAM) return extensionForType(sniffed);
  if (given && !claimed && Object.hasOwn(SAMPLE_CONTENT_TYPES, given)) return given;
  return 'bin';
}

interface TargetNames {
  type: string;
  url: string;
  base64: string;
  fileName: string;
  /** the folder under the media root its files are stored in */
  folder: string;
  extension: (fileName: string | undefined, data: Buffer, names: TargetNames) => string;
}

interface PendingFile {
  /** the file's path under the media root */
  path: string;
  data: Buffer;
}

interface Resolved {
  type: LinkType;
  url: string | null;
  /** the stored file, relative to its folder, as the row keeps it */
  file: string | null;
  upload?: PendingFile;
}

/**
 * The link (or sample) target after a write: its type, URL or stored file, and the file to write. `current` is
 * the stored state on update.
 */
function resolveTarget(
  names: TargetNames,
  given: { type?: LinkType | null; url?: string; base64?: string; fileName?: string },
  current: { type: LinkType | null; url: string | null; file: string | null },
): Resolved | null {
  const type: LinkType | null =
    given.type !== undefined ? given.type : present(given.base64) ? 'file' : present(given.url) ? 'url' : current.type;
  if (type === null) {
    if (present(given.url) || present(given.base64)) invalidField(names.type, 'is null, so neither a URL nor a file may be sent', 'const');
    return null;
  }
  if (type === 'url') {
    if (present(given.base64)) invalidField(names.base64, `is only for ${names.type} file`, 'const');
    const url = present(given.url) ? cleanUrl(given.url, names.url) : current.type === 'url' ? current.url : null;
    if (url === null) invalidField(names.url, `is required when ${names.type} is url`, 'required');
    return { type, url, file: null };
  }
  if (present(given.url)) invalidField(names.url, `is only for ${names.type} url`, 'const');
  if (present(given.base64)) {
    const data = decodeBase64(given.base64, names.base64);
    const stored = generatedName(names.extension(given.fileName, data, names));
    return { type, url: null, file: stored, upload: { path: `${names.folder}${stored}`, data } };
  }
  if (current.type === 'file' && current.file !== null) return { type, url: null, file: current.file };
  return invalidField(names.base64, `is required when ${names.type} is file`, 'required');
}

const LINK_NAMES: TargetNames = {
  type: 'linkType',
  url: 'linkUrl',
  base64: 'fileBase64',
  fileName: 'fileName',
  folder: DOWNLOADABLE_DIR,
  extension: linkExtension,
};
const SAMPLE_NAMES: TargetNames = {
  type: 'sampleType',
  url: 'sampleUrl',
  base64: 'sampleFileBase64',
  fileName: 'sampleFileName',
  folder: DOWNLOADABLE_SAMPLES_DIR,
  extension: sampleExtension,
};

/** The paths under the media root of a row's stored files. */
const linkFilePath = (file: string | null) => (file === null ? null : `${DOWNLOADABLE_DIR}${file}`);
const sampleFilePath = (file: string | null) => (file === null ? null : `${DOWNLOADABLE_SAMPLES_DIR}${file}`);

function asLinkType(v: string | null): LinkType | null {
  return v === 'url' || v === 'file' ? v : null;
}

// ---- writes ----

async function storeFiles(ctx: Ctx, files: PendingFile[], changes: FileChanges): Promise<void> {
  for (const f of files) {
    const ok = await writeMediaFile(ctx.app.config, f.path, f.data, { exclusive: true });
    if (!ok) throw new Error('generated file name already taken');
    changes.written.push(f.path);
  }
}

function dropLater(changes: FileChanges, stored: readonly (string | null)[]): void {
  for (const f of stored) if (f !== null) changes.obsolete.push(f);
}

async function removeFiles(ctx: Ctx, paths: readonly string[]): Promise<void> {
  for (const f of paths) {
    await deleteMediaFile(ctx.app.config, f).catch((err: unknown) => ctx.log.warn({ err, file: f }, 'downloadable file not removed'));
  }
}

interface FileChanges {
  /** files stored by this write (paths under the media root): removed again when it fails */
  written: string[];
  /** files the write no longer needs (paths under the media root): removed once it has committed */
  obsolete: string[];
}

/** Runs a write that may store or drop files, keeping the folder in step with what the transaction did. */
async function withFiles<T>(ctx: Ctx, fn: (tx: Ctx, files: FileChanges) => Promise<T>): Promise<T> {
  const files: FileChanges = { written: [], obsolete: [] };
  let result: T;
  try {
    result = await withTx(ctx, (tx) => fn(tx, files));
  } catch (err) {
    await removeFiles(ctx, files.written);
    throw err;
  }
  if (ctx.tx) afterCommit(ctx, () => void removeFiles(ctx, files.obsolete));
  else await removeFiles(ctx, files.obsolete);
  return result;
}

async function afterWrite(ctx: Ctx, productId: number): Promise<void> {
  await touchProduct(ctx, productId);
  await refreshPriceRanges(ctx, [productId]);
}

/** Adds a link to a downloadable product. */
export async function createDownloadableLink(ctx: Ctx, productId: number, input: DownloadableLinkCreateT): Promise<DownloadableLinkDto> {
  const title = cleanTitle(input.title);
  const price = input.price === undefined ? '0' : decimalField(input.price, 'price', { min: 0, max: MONEY_MAX });
  const none = { type: null, url: null, file: null };
  const link = resolveTarget(
    LINK_NAMES,
    { type: input.linkType, url: input.linkUrl, base64: input.fileBase64, fileName: input.fileName },
    none,
  );
  if (!link) return invalidField('linkType', 'must be url or file', 'enum');
  const sample = resolveTarget(
    SAMPLE_NAMES,
    { type: input.sampleType, url: input.sampleUrl, base64: input.sampleFileBase64, fileName: input.sampleFileName },
    none,
  );
  return withFiles(ctx, async (tx, files) => {
    await lockProduct(tx, productId, DOWNLOADABLE);
    await storeFiles(
      tx,
      [link.upload, sample?.upload].filter((f): f is PendingFile => f !== undefined),
      files,
    );
    const [row] = await tx.db
      .insert(downloadableLinks)
      .values({
        productId,
        title,
        price,
        sortOrder: input.sortOrder ?? 0,
        numberOfDownloads: input.numberOfDownloads ?? 0,
        isShareable: input.isShareable ?? 2,
        linkType: link.type,
        linkUrl: link.url,
        linkFile: link.file,
        sampleType: sample?.type ?? null,
        sampleUrl: sample?.url ?? null,
        sampleFile: sample?.file ?? null,
      })
      .returning();
    await afterWrite(tx, productId);
    return toDto(tx, row, true);
  });
}

async function requireLink(ctx: Ctx, productId: number, linkId: number | undefined): Promise<LinkRow> {
  if (linkId === undefined) invalidField('linkId', 'is required: the downloadable link to change', 'required');
  const [row] = await ctx.db
    .select()
    .from(downloadableLinks)
    .where(and(eq(downloadableLinks.id, linkId), eq(downloadableLinks.productId, productId)))
    .for('update');
  if (!row) throw notFound(`Downloadable link ${linkId} not found on product ${productId}`, { reason: 'DOWNLOADABLE_LINK_NOT_FOUND' });
  return row;
}

/** Changes the fields sent. A new file replaces the stored one; switching to a URL removes the stored file. */
export async function updateDownloadableLink(
  ctx: Ctx,
  productId: number,
  linkId: number | undefined,
  input: DownloadableLinkUpdateT,
): Promise<DownloadableLinkDto> {
  const title = input.title === undefined ? undefined : cleanTitle(input.title);
  const price = input.price === undefined ? undefined : decimalField(input.price, 'price', { min: 0, max: MONEY_MAX });
  return withFiles(ctx, async (tx, files) => {
    await lockProduct(tx, productId, DOWNLOADABLE);
    const row = await requireLink(tx, productId, linkId);
    const link = resolveTarget(
      LINK_NAMES,
      { type: input.linkType, url: input.linkUrl, base64: input.fileBase64, fileName: input.fileName },
      { type: asLinkType(row.linkType), url: row.linkUrl, file: row.linkFile },
    );
    if (!link) throw badRequest('linkType must be url or file', { reason: 'VALIDATION_FAILED', details: { field: 'linkType' } });
    // a client sending back what it read sends the sample file's own media URL: that is no new URL
    const echoed =
      row.sampleType === 'file' && input.sampleType !== 'url' && input.sampleUrl !== undefined && input.sampleUrl === sampleUrlOf(tx, row);
    const sample = resolveTarget(
      SAMPLE_NAMES,
      { type: input.sampleType, url: echoed ? undefined : input.sampleUrl, base64: input.sampleFileBase64, fileName: input.sampleFileName },
      { type: asLinkType(row.sampleType), url: row.sampleUrl, file: row.sampleFile },
    );
    await storeFiles(
      tx,
      [link.upload, sample?.upload].filter((f): f is PendingFile => f !== undefined),
      files,
    );
    const [updated] = await tx.db
      .update(downloadableLinks)
      .set({
        title: title ?? row.title,
        price: price ?? row.price,
        sortOrder: input.sortOrder ?? row.sortOrder,
        numberOfDownloads: input.numberOfDownloads ?? row.numberOfDownloads,
        isShareable: input.isShareable ?? row.isShareable,
        linkType: link.type,
        linkUrl: link.url,
        linkFile: link.file,
        sampleType: sample?.type ?? null,
        sampleUrl: sample?.url ?? null,
        sampleFile: sample?.file ?? null,
      })
      .where(eq(downloadableLinks.id, row.id))
      .returning();
    dropLater(files, [
      row.linkFile !== updated.linkFile ? linkFilePath(row.linkFile) : null,
      row.sampleFile !== updated.sampleFile ? sampleFilePath(row.sampleFile) : null,
    ]);
    await afterWrite(tx, productId);
    return toDto(tx, updated, true);
  });
}

/** Removes a link and its stored files. */
export async function deleteDownloadableLink(ctx: Ctx, productId: number, linkId: number | undefined): Promise<void> {
  await withFiles(ctx, async (tx, files) => {
    await lockProduct(tx, productId, DOWNLOADABLE);
    const row = await requireLink(tx, productId, linkId);
    await tx.db.delete(downloadableLinks).where(eq(downloadableLinks.id, row.id));
    dropLater(files, [linkFilePath(row.linkFile), sampleFilePath(row.sampleFile)]);
    await afterWrite(tx, productId);
  });
}
