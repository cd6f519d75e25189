/**
 * The links of downloadable products: what a buyer may download (a URL or a stored file), its price when links
 * are sold separately, how often and whether it may be shared, and an optional sample. Stored files live under
 * DATA_DIR/media/downloadable with generated names and are never served by the public media route. Storefront
 * callers see the title, price, sort order, download limit and a URL sample only, never where the link points.
 */
import crypto from 'node:crypto';
import { and, asc, eq } from 'drizzle-orm';
import { afterCommit, withTx, type Ctx } from '../../platform/context.js';
import { badRequest, notFound } from '../../platform/errors.js';
import { DOWNLOADABLE_DIR, deleteMediaFile, writeMediaFile } from '../../platform/files.js';
import { toWire } from '../../platform/money.js';
import { refreshPriceRanges } from './products-price.js';
import { touchProduct } from './products-shared.js';
import { MONEY_MAX, decimalField, invalidField, isCatalogReader, lockProduct, requireReadableProduct } from './composites-shared.js';
import type { DownloadableLinkCreateT, DownloadableLinkDto, DownloadableLinkUpdateT } from './composites-schemas.js';
import { downloadableLinks } from './tables.js';

type LinkRow = typeof downloadableLinks.$inferSelect;
type LinkType = 'url' | 'file';

const DOWNLOADABLE: ['downloadable'] = ['downloadable'];

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
    if (row.sampleUrl !== null) dto.sampleUrl = row.sampleUrl;
    if (row.sampleFile !== null) dto.sampleFile = row.sampleFile;
  } else if (row.sampleType === 'url' && row.sampleUrl !== null) {
    dto.sampleUrl = row.sampleUrl;
  }
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
  if (!body || body.length % 4 !== 0 || !/^[A-Za-z0-9+/]*={0,2}$/.test(body)) invalidField(field, 'must be base64-encoded file content', 'contentEncoding');
  const data = Buffer.from(body, 'base64');
  if (!data.length) invalidField(field, 'must not be empty', 'minLength');
  return data;
}

/** A generated relative path under the downloadable folder: `/a/b/<random>.<extension of the given name>`. */
function generatedName(fileName: string | undefined): string {
  const hex = crypto.randomBytes(16).toString('hex');
  const m = fileName ? /\.([A-Za-z0-9]{1,10})$/.exec(fileName.trim()) : null;
  const ext = m ? `.${m[1].toLowerCase()}` : '';
  return `/${hex[0]}/${hex[1]}/${hex}${ext}`;
}

const mediaPath = (stored: string) => `${DOWNLOADABLE_DIR}${stored}`;

interface PendingFile {
  stored: string;
  data: Buffer;
}

interface Resolved {
  type: LinkType;
  url: string | null;
  file: string | null;
  upload?: PendingFile;
}

/**
 * The link (or sample) target after a write: its type, URL or stored file, and the file to write. `current` is
 * the stored state on update.
 */
function resolveTarget(
  names: { type: string; url: string; base64: string; fileName: string },
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
    const stored = generatedName(given.fileName);
    return { type, url: null, file: stored, upload: { stored, data: decodeBase64(given.base64, names.base64) } };
  }
  if (current.type === 'file' && current.file !== null) return { type, url: null, file: current.file };
  return invalidField(names.base64, `is required when ${names.type} is file`, 'required');
}

const LINK_NAMES = { type: 'linkType', url: 'linkUrl', base64: 'fileBase64', fileName: 'fileName' };
const SAMPLE_NAMES = { type: 'sampleType', url: 'sampleUrl', base64: 'sampleFileBase64', fileName: 'sampleFileName' };

function asLinkType(v: string | null): LinkType | null {
  return v === 'url' || v === 'file' ? v : null;
}

// ---- writes ----

async function storeFiles(ctx: Ctx, files: PendingFile[], changes: FileChanges): Promise<void> {
  for (const f of files) {
    const ok = await writeMediaFile(ctx.app.config, mediaPath(f.stored), f.data, { exclusive: true });
    if (!ok) throw new Error('generated file name already taken');
    changes.written.push(f.stored);
  }
}

function dropLater(changes: FileChanges, stored: readonly (string | null)[]): void {
  for (const f of stored) if (f !== null) changes.obsolete.push(f);
}

async function removeFiles(ctx: Ctx, stored: readonly string[]): Promise<void> {
  for (const f of stored) {
    await deleteMediaFile(ctx.app.config, mediaPath(f)).catch((err: unknown) => ctx.log.warn({ err, file: f }, 'downloadable file not removed'));
  }
}

interface FileChanges {
  /** files stored by this write: removed again when it fails */
  written: string[];
  /** files the write no longer needs: removed once it has committed */
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
  const link = resolveTarget(LINK_NAMES, { type: input.linkType, url: input.linkUrl, base64: input.fileBase64, fileName: input.fileName }, none);
  if (!link) return invalidField('linkType', 'must be url or file', 'enum');
  const sample = resolveTarget(
    SAMPLE_NAMES,
    { type: input.sampleType, url: input.sampleUrl, base64: input.sampleFileBase64, fileName: input.sampleFileName },
    none,
  );
  return withFiles(ctx, async (tx, files) => {
    await lockProduct(tx, productId, DOWNLOADABLE);
    await storeFiles(tx, [link.upload, sample?.upload].filter((f): f is PendingFile => f !== undefined), files);
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
    const sample = resolveTarget(
      SAMPLE_NAMES,
      { type: input.sampleType, url: input.sampleUrl, base64: input.sampleFileBase64, fileName: input.sampleFileName },
      { type: asLinkType(row.sampleType), url: row.sampleUrl, file: row.sampleFile },
    );
    await storeFiles(tx, [link.upload, sample?.upload].filter((f): f is PendingFile => f !== undefined), files);
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
      row.linkFile !== updated.linkFile ? row.linkFile : null,
      row.sampleFile !== updated.sampleFile ? row.sampleFile : null,
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
    dropLater(files, [row.linkFile, row.sampleFile]);
    await afterWrite(tx, productId);
  });
}
